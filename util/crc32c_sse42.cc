// CRC-32C with the SSE4.2 CRC32 instruction. CMake compiles this file, with
// -msse4.2, only for x86-64 targets; Extend() calls it only after
// IsHardwareAccelerated() has seen the instruction on the running CPU.

#include <nmmintrin.h>

#include <cstring>

#include "util/crc32c.h"

namespace strata {
namespace crc32c {

bool IsHardwareAccelerated() {
  // Called from a static initializer, possibly before the runtime's own CPU
  // detection has run: run it first.
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2");
}

uint32_t ExtendHardware(uint32_t init_crc, const char* data, size_t n) {
  const char* p = data;
  const char* const end = data + n;
  uint64_t crc = static_cast<uint32_t>(~init_crc);

  while (p < end && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    crc = _mm_crc32_u8(static_cast<uint32_t>(crc), static_cast<uint8_t>(*p++));
  }
  // Four words a round keeps the loop overhead out of the instruction's
  // latency chain.
  while (end - p >= 32) {
    uint64_t w[4];
    std::memcpy(w, p, sizeof(w));
    crc = _mm_crc32_u64(crc, w[0]);
    crc = _mm_crc32_u64(crc, w[1]);
    crc = _mm_crc32_u64(crc, w[2]);
    crc = _mm_crc32_u64(crc, w[3]);
    p += 32;
  }
  while (end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, sizeof(w));
    crc = _mm_crc32_u64(crc, w);
    p += 8;
  }
  while (p < end) {
    crc = _mm_crc32_u8(static_cast<uint32_t>(crc), static_cast<uint8_t>(*p++));
  }
  return ~static_cast<uint32_t>(crc);
}

}  // namespace crc32c
}  // namespace strata
