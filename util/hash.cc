#include "util/hash.h"

#include "util/coding.h"

namespace strata {

namespace {

constexpr uint64_t kMul1 = 0x9e3779b97f4a7c15ull;  // 2^64 / golden ratio
constexpr uint64_t kMul2 = 0xc2b2ae3d27d4eb4full;
constexpr uint64_t kMul3 = 0x165667b19e3779f9ull;

inline uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// Final avalanche: every input bit affects every output bit.
inline uint64_t Avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kMul2;
  h ^= h >> 29;
  h *= kMul3;
  h ^= h >> 32;
  return h;
}

}  // namespace

uint64_t Hash64(const char* data, size_t n, uint64_t seed) {
  uint64_t h = seed ^ (static_cast<uint64_t>(n) * kMul1);
  const char* p = data;
  const char* const end = data + n;
  while (end - p >= 8) {
    h ^= Rotl(DecodeFixed64(p) * kMul2, 31) * kMul1;
    h = Rotl(h, 27) * kMul3 + kMul1;
    p += 8;
  }
  if (end - p >= 4) {
    h ^= static_cast<uint64_t>(DecodeFixed32(p)) * kMul1;
    h = Rotl(h, 23) * kMul2;
    p += 4;
  }
  while (p < end) {
    h ^= static_cast<uint64_t>(static_cast<uint8_t>(*p++)) * kMul3;
    h = Rotl(h, 11) * kMul1;
  }
  return Avalanche(h);
}

uint32_t Hash(const char* data, size_t n, uint32_t seed) {
  return static_cast<uint32_t>(Hash64(data, n, seed));
}

}  // namespace strata
