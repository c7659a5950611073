// Pseudo-random numbers for tests, benchmarks and randomized structures
// (skiplist heights). Deterministic for a given seed; not for cryptography.
//
// Thread safety: an instance is used by one thread at a time.

#ifndef STRATA_UTIL_RANDOM_H_
#define STRATA_UTIL_RANDOM_H_

#include <cstdint>
#include <random>

namespace strata {

// A small, fast generator: the Lehmer (Park–Miller) generator
// seed = seed * 16807 mod (2^31 - 1).
class Random {
 public:
  explicit Random(uint32_t s) : seed_(s & 0x7fffffffu) {
    // 0 and 2^31-1 are fixed points of the recurrence.
    if (seed_ == 0 || seed_ == kModulus) seed_ = 1;
  }

  // A value in [1, 2^31 - 2].
  uint32_t Next() {
    const uint64_t product = seed_ * static_cast<uint64_t>(16807);
    // product mod (2^31 - 1), using 2^31 == 1 (mod 2^31 - 1).
    seed_ = static_cast<uint32_t>((product >> 31) + (product & kModulus));
    if (seed_ > kModulus) seed_ -= kModulus;
    return seed_;
  }

  // Uniform in [0, n - 1]. REQUIRES: n > 0
  uint32_t Uniform(int n) { return Next() % static_cast<uint32_t>(n); }

  // True about once every n calls. REQUIRES: n > 0
  bool OneIn(int n) { return Uniform(n) == 0; }

  // A number in [0, 2^max_log - 1], biased toward small values: a base is
  // picked uniformly from [0, max_log], then a value of that many bits.
  uint32_t Skewed(int max_log) { return Uniform(1 << Uniform(max_log + 1)); }

 private:
  static constexpr uint32_t kModulus = 2147483647u;  // 2^31 - 1
  uint32_t seed_;
};

// 64-bit values from the Mersenne Twister.
class Random64 {
 public:
  explicit Random64(uint64_t s) : generator_(s) {}

  uint64_t Next() { return generator_(); }

  // Uniform in [0, n - 1]. REQUIRES: n > 0
  uint64_t Uniform(uint64_t n) {
    return std::uniform_int_distribution<uint64_t>(0, n - 1)(generator_);
  }

  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

  // See Random::Skewed. REQUIRES: max_log <= 63
  uint64_t Skewed(int max_log) {
    return Uniform(uint64_t{1} << Uniform(static_cast<uint64_t>(max_log) + 1));
  }

 private:
  std::mt19937_64 generator_;
};

}  // namespace strata

#endif  // STRATA_UTIL_RANDOM_H_
