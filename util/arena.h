// Arena: a bump allocator for many small, same-lifetime allocations (the
// memtable's keys and skiplist nodes). Memory is returned all at once when
// the Arena is destroyed.
//
// Small requests are carved from blocks of kBlockSize; a request larger than
// a quarter block gets its own block so that the remainder of the current
// block is not wasted.
//
// Thread safety: Allocate* are used by one thread at a time;
// MemoryUsage() may be called from any thread.

#ifndef STRATA_UTIL_ARENA_H_
#define STRATA_UTIL_ARENA_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace strata {

class Arena {
 public:
  static constexpr size_t kBlockSize = 4096;

  Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  // A pointer to bytes bytes. REQUIRES: bytes > 0
  char* Allocate(size_t bytes);

  // As Allocate, aligned to 8 bytes (pointer alignment).
  char* AllocateAligned(size_t bytes);

  // Bytes obtained from the system so far (blocks plus bookkeeping).
  size_t MemoryUsage() const {
    return memory_usage_.load(std::memory_order_relaxed);
  }

 private:
  char* AllocateFallback(size_t bytes);
  char* AllocateNewBlock(size_t block_bytes);

  char* alloc_ptr_;
  size_t alloc_bytes_remaining_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::atomic<size_t> memory_usage_;
};

inline char* Arena::Allocate(size_t bytes) {
  if (bytes <= alloc_bytes_remaining_) {
    char* result = alloc_ptr_;
    alloc_ptr_ += bytes;
    alloc_bytes_remaining_ -= bytes;
    return result;
  }
  return AllocateFallback(bytes);
}

}  // namespace strata

#endif  // STRATA_UTIL_ARENA_H_
