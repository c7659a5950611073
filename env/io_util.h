// Small helpers every Env implementation shares: the I/O counters, the
// direct-I/O alignment check and path manipulation that does not touch the
// OS.

#ifndef STRATA_ENV_IO_UTIL_H_
#define STRATA_ENV_IO_UTIL_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

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

// What the Envs count, process-wide, so that tests can assert what the OS
// would not tell them (Wine enforces neither sector alignment nor
// preallocation, and a sync that issued no flush looks like one that did).
struct IOStats {
  // Unbuffered transfers refused by CheckDirectIOAlignment.
  std::atomic<uint64_t> misaligned_direct_io{0};
  // Sector-size lookups of a volume or device for direct-I/O alignment
  // (made once per volume, not per file).
  std::atomic<uint64_t> alignment_queries{0};
  // Space reservations granted / refused by the file system.
  std::atomic<uint64_t> preallocations{0};
  std::atomic<uint64_t> preallocation_refusals{0};
  // Syncs that asked the OS to flush (fdatasync, fsync, FlushFileBuffers).
  std::atomic<uint64_t> flushes{0};
  // Syncs of write-through files, answered without a flush.
  std::atomic<uint64_t> write_through_syncs{0};
  // Directory syncs that asked the OS to flush the directory (Windows:
  // FlushFileBuffers on its handle), and those answered without a flush
  // because the system cannot flush that directory (Windows: see
  // WinDirectory in env/io_win.h).
  std::atomic<uint64_t> directory_flushes{0};
  std::atomic<uint64_t> directory_flushes_skipped{0};
  // Reads of OsRandomAccessFile::ReadMany that were in flight together
  // (io_uring, overlapped ReadFile), and those it read one after another
  // because no ring was to be had (refused by the kernel, or liburing
  // not built in).
  std::atomic<uint64_t> reads_together{0};
  std::atomic<uint64_t> reads_one_by_one{0};
  // Reads of a ReadBatch (env/read_batch.h) whose bytes nobody took.
  std::atomic<uint64_t> batch_reads_unused{0};
};

// The process's counters.
IOStats& GetIOStats();

// OK if offset, length and buffer address of a direct (unbuffered) transfer
// are all multiples of alignment; otherwise InvalidArgument naming the file,
// the operation and the offending values, and the transfer is counted
// (IOStats::misaligned_direct_io).
Status CheckDirectIOAlignment(const std::string& fname, const char* op,
                              uint64_t offset, size_t length,
                              const void* buffer, size_t alignment);

// "dir/name" with exactly one separator between them.
std::string JoinPath(const std::string& dir, const std::string& name);

}  // namespace strata

#endif  // STRATA_ENV_IO_UTIL_H_
