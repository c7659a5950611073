// CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected), the checksum of
// every strata block and log record.
//
// Extend() uses the CPU's CRC32 instruction (SSE4.2 on x86-64) when the
// running CPU has it — checked once, at first use — and a portable
// slicing-by-8 table implementation otherwise. Both give identical results.
//
// Thread safety: all functions are safe from many threads.

#ifndef STRATA_UTIL_CRC32C_H_
#define STRATA_UTIL_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace strata {
namespace crc32c {

// The two implementations, for tests and benchmarks.
uint32_t ExtendPortable(uint32_t init_crc, const char* data, size_t n);
// True if the running CPU has a CRC32C instruction strata uses.
bool IsHardwareAccelerated();
// REQUIRES: IsHardwareAccelerated().
uint32_t ExtendHardware(uint32_t init_crc, const char* data, size_t n);

namespace internal {
// Set during static initialization from IsHardwareAccelerated(). Until
// then it is false and Extend uses the portable code, which gives the same
// results: a checksum computed by another static initializer is still right.
extern const bool g_use_hardware;
}  // namespace internal

// The CRC of concat(A, data[0, n-1]) given init_crc, the CRC of A.
inline uint32_t Extend(uint32_t init_crc, const char* data, size_t n) {
  return internal::g_use_hardware ? ExtendHardware(init_crc, data, n)
                                  : ExtendPortable(init_crc, data, n);
}

// The CRC of data[0, n-1].
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

// A CRC stored next to the data it covers is masked: computing the CRC of
// a string that contains embedded CRCs is then not degenerate.
constexpr uint32_t kMaskDelta = 0xa282ead8u;

inline uint32_t Mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

inline uint32_t Unmask(uint32_t masked_crc) {
  const uint32_t rot = masked_crc - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace crc32c
}  // namespace strata

#endif  // STRATA_UTIL_CRC32C_H_
