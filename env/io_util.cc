#include "env/io_util.h"

#include <cinttypes>
#include <cstdio>

namespace strata {

IOStats& GetIOStats() {
  static IOStats stats;  // only atomics: constant-initialized
  return stats;
}

Status CheckDirectIOAlignment(const std::string& fname, const char* op,
                              uint64_t offset, size_t length,
                              const void* buffer, size_t alignment) {
  if (IsAligned(offset, alignment) && IsAligned(length, alignment) &&
      IsAligned(buffer, alignment)) {
    return Status::OK();
  }
  GetIOStats().misaligned_direct_io.fetch_add(1, std::memory_order_relaxed);
  char detail[160];
  std::snprintf(detail, sizeof(detail),
                "%s: misaligned direct I/O (offset %" PRIu64 ", length %" PRIu64
                ", buffer %p; alignment %" PRIu64 ")",
                op, offset, static_cast<uint64_t>(length), buffer,
                static_cast<uint64_t>(alignment));
  return Status::InvalidArgument(fname, detail);
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  const char last = dir.back();
  if (last == '/' || last == '\\') return dir + name;
  return dir + "/" + name;
}

}  // namespace strata
