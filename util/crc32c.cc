// Portable CRC-32C (slicing-by-8) and the run-time choice of implementation.

#include "util/crc32c.h"

#include <array>

#include "util/coding.h"

namespace strata {
namespace crc32c {

namespace {

// Reflected form of the Castagnoli polynomial.
constexpr uint32_t kPolynomial = 0x82f63b78u;

using Tables = std::array<std::array<uint32_t, 256>, 8>;

// tables[0][b] is the CRC of the single byte b; tables[k][b] is the CRC of
// byte b followed by k zero bytes, so eight table lookups advance the CRC
// over eight input bytes at once.
constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; bit++) {
      crc = (crc & 1) ? (crc >> 1) ^ kPolynomial : crc >> 1;
    }
    t[0][b] = crc;
  }
  for (int k = 1; k < 8; k++) {
    for (uint32_t b = 0; b < 256; b++) {
      const uint32_t prev = t[k - 1][b];
      t[k][b] = (prev >> 8) ^ t[0][prev & 0xff];
    }
  }
  return t;
}

constexpr Tables kTables = MakeTables();

inline uint32_t StepByte(uint32_t crc, uint8_t byte) {
  return (crc >> 8) ^ kTables[0][(crc ^ byte) & 0xff];
}

}  // namespace

namespace internal {
const bool g_use_hardware = IsHardwareAccelerated();
}  // namespace internal

uint32_t ExtendPortable(uint32_t init_crc, const char* data, size_t n) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(data);
  const uint8_t* const end = p + n;
  uint32_t crc = ~init_crc;

  // Bytes up to an 8-byte boundary, then eight at a time.
  while (p < end && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    crc = StepByte(crc, *p++);
  }
  while (end - p >= 8) {
    const uint32_t lo = DecodeFixed32(reinterpret_cast<const char*>(p)) ^ crc;
    const uint32_t hi = DecodeFixed32(reinterpret_cast<const char*>(p) + 4);
    crc = kTables[7][lo & 0xff] ^ kTables[6][(lo >> 8) & 0xff] ^
          kTables[5][(lo >> 16) & 0xff] ^ kTables[4][lo >> 24] ^
          kTables[3][hi & 0xff] ^ kTables[2][(hi >> 8) & 0xff] ^
          kTables[1][(hi >> 16) & 0xff] ^ kTables[0][hi >> 24];
    p += 8;
  }
  while (p < end) {
    crc = StepByte(crc, *p++);
  }
  return ~crc;
}

}  // namespace crc32c
}  // namespace strata
