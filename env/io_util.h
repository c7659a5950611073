// Small helpers every Env implementation shares: the direct-I/O alignment
// check and path manipulation that does not touch the OS.

#ifndef STRATA_ENV_IO_UTIL_H_
#define STRATA_ENV_IO_UTIL_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

// REQUIRES: alignment is a power of two.
inline bool IsAligned(uint64_t value, size_t alignment) {
  return (value & (alignment - 1)) == 0;
}

inline bool IsAligned(const void* ptr, size_t alignment) {
  return IsAligned(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr)),
                   alignment);
}

// Rounds down / up to a multiple of alignment (a power of two).
inline uint64_t TruncateToAlignment(uint64_t value, size_t alignment) {
  return value & ~static_cast<uint64_t>(alignment - 1);
}
inline uint64_t RoundUpToAlignment(uint64_t value, size_t alignment) {
  return TruncateToAlignment(value + alignment - 1, alignment);
}

// Transfers rejected by CheckDirectIOAlignment since the process started,
// over every Env (a test asserts that a misaligned call was caught by the
// Env itself rather than by the OS or not at all).
STRATA_EXPORT uint64_t MisalignedDirectIOCount();

// OK if offset, length and buffer address of a direct (unbuffered) transfer
// are all multiples of alignment; otherwise InvalidArgument naming the file,
// the operation and the offending values, and the transfer is counted.
STRATA_EXPORT Status CheckDirectIOAlignment(const std::string& fname,
                                            const char* op, uint64_t offset,
                                            size_t length, const void* buffer,
                                            size_t alignment);

// "dir/name" with exactly one separator between them.
STRATA_EXPORT std::string JoinPath(const std::string& dir,
                                   const std::string& name);

}  // namespace strata

#endif  // STRATA_ENV_IO_UTIL_H_
