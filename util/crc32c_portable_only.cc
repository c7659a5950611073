// For targets without a CRC32C instruction strata knows: the portable code
// is the only implementation. CMake picks this file or crc32c_sse42.cc.

#include "util/crc32c.h"

namespace strata {
namespace crc32c {

bool IsHardwareAccelerated() { return false; }

uint32_t ExtendHardware(uint32_t init_crc, const char* data, size_t n) {
  return ExtendPortable(init_crc, data, n);
}

}  // namespace crc32c
}  // namespace strata
