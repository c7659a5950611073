// ConcurrentArena: the memtable's allocator, safe for many concurrent
// writers (allow_concurrent_memtable_write) without a global lock on every
// allocation.
//
// Layout:
//   - a shared part under a spin lock: an Arena (util/arena.h) that owns
//     the blocks, and the huge-page regions if any; it is touched only to
//     take a new chunk or to serve a large request;
//   - per-core shards, each with the chunk it is carving (one spin lock per
//     shard, one cache line per shard). A request of at most a quarter of a
//     chunk goes to the shard of the CPU the caller runs on
//     (port::PhysicalCoreID(), or a per-thread hash where the CPU is
//     unknown), so threads on different cores rarely touch the same lock
//     or cache line. A larger request gets its own block from the shared
//     part, which keeps a shard's tail from being wasted on it.
//   - Within a chunk, pointer-aligned requests are carved from the front
//     and unaligned ones from the back, so mixing them costs no padding.
//   - Chunks come from the shared Arena, or, with a region size, from
//     huge-page regions (port::AllocateHugePageRegion) of that size,
//     carved chunk by chunk. A big memtable's skiplist search touches a
//     random node at every step; on 2 MiB pages those steps rarely miss
//     the TLB (docs/memtable.md).
//
// The CPU id is a hint: a thread may migrate between reading it and taking
// the shard lock. That costs a little contention, never correctness — every
// shard is locked while it is carved.
//
// Memory is released only when the arena is destroyed. Reserved but unused
// space (the rest of each shard's chunk and of the current region) counts
// as used in both memory figures: it is memory the memtable holds.
//
// Thread safety: every method may be called from any number of threads at
// once. Lock order: a shard's lock, then the shared lock.

#ifndef STRATA_MEMTABLE_CONCURRENT_ARENA_H_
#define STRATA_MEMTABLE_CONCURRENT_ARENA_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "memtable/allocator.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/arena.h"

namespace strata {

// A lock for critical sections of a few instructions, where sleeping in
// the kernel would cost more than the section itself.
class LOCKABLE SpinMutex {
 public:
  SpinMutex() = default;
  SpinMutex(const SpinMutex&) = delete;
  SpinMutex& operator=(const SpinMutex&) = delete;

  bool TryLock() EXCLUSIVE_TRYLOCK_FUNCTION(true) {
    return !locked_.load(std::memory_order_relaxed) &&
           !locked_.exchange(true, std::memory_order_acquire);
  }
  void Lock() EXCLUSIVE_LOCK_FUNCTION();
  void Unlock() UNLOCK_FUNCTION() {
    locked_.store(false, std::memory_order_release);
  }

 private:
  std::atomic<bool> locked_{false};
};

class SCOPED_LOCKABLE SpinLock {
 public:
  explicit SpinLock(SpinMutex* mu) EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  ~SpinLock() UNLOCK_FUNCTION() { mu_->Unlock(); }

  SpinLock(const SpinLock&) = delete;
  SpinLock& operator=(const SpinLock&) = delete;

 private:
  SpinMutex* const mu_;
};

class ConcurrentArena : public Allocator {
 public:
  // The chunk a shard takes at a time. Small enough that a memtable used
  // from every core of a large machine reserves little it never uses.
  static constexpr size_t kDefaultBlockSize = 64 * 1024;
  static constexpr size_t kMinBlockSize = 4096;

  // block_size: the size of the chunk a shard takes from the shared part
  // when it runs dry (rounded up to kMinBlockSize and to pointer size).
  // region_size: 0, or the size of the huge-page regions chunks are
  // carved from (a multiple of port::kHugePageSize); a region is counted
  // in full in both memory figures as soon as it is obtained. Ignored when
  // it cannot hold a chunk. Once a region cannot be had, chunks come from
  // the shared Arena.
  explicit ConcurrentArena(size_t block_size = kDefaultBlockSize,
                           size_t region_size = 0);
  ~ConcurrentArena() override;

  char* Allocate(size_t bytes) override;
  char* AllocateAligned(size_t bytes) override;

  // Everything the arena holds: blocks with their bookkeeping, and the
  // shards. Includes reserved, not yet handed out space.
  size_t ApproximateMemoryUsage() const {
    return memory_usage_.load(std::memory_order_relaxed) + shards_bytes_;
  }

  // Bytes of the blocks obtained so far (chunks and large requests),
  // reserved space included; without bookkeeping.
  size_t MemoryAllocatedBytes() const {
    return allocated_bytes_.load(std::memory_order_relaxed);
  }

  size_t block_size() const { return block_size_; }
  size_t region_size() const { return region_size_; }
  size_t num_shards() const { return shard_mask_ + 1; }

 private:
  struct alignas(port::kCacheLineSize) Shard {
    SpinMutex mu;
    // The unused part of the current chunk is [begin, end).
    char* begin GUARDED_BY(mu) = nullptr;
    char* end GUARDED_BY(mu) = nullptr;
  };

  Shard* ShardForCurrentThread();
  char* AllocateFromShard(size_t bytes, bool aligned);
  // A block of its own for a request too large for a shard.
  char* AllocateLarge(size_t bytes);
  // Replaces s's chunk with a fresh one.
  void Refill(Shard* s) EXCLUSIVE_LOCKS_REQUIRED(s->mu);
  // A chunk of block_size_ from the current region (taking a new one when
  // it is used up), or null when no region can be had.
  char* ChunkFromRegion() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void UpdateUsage(size_t block_bytes) EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t block_size_;
  const size_t region_size_;  // 0: no regions
  const size_t shard_mask_;   // shard count - 1 (a power of two)
  const size_t shards_bytes_;
  std::unique_ptr<Shard[]> shards_;

  SpinMutex mu_;  // taken after a shard's lock, never before
  Arena arena_ GUARDED_BY(mu_);
  // Huge-page regions, freed by the destructor; the unused part of the
  // newest is [region_next_, region_end_).
  std::vector<char*> regions_ GUARDED_BY(mu_);
  char* region_next_ GUARDED_BY(mu_) = nullptr;
  char* region_end_ GUARDED_BY(mu_) = nullptr;
  bool region_failed_ GUARDED_BY(mu_) = false;  // stop asking the system

  // Written under mu_, read anywhere (hence atomic, relaxed: the figures
  // are statistics, nothing is published through them).
  std::atomic<size_t> allocated_bytes_{0};
  std::atomic<size_t> memory_usage_{0};
};

}  // namespace strata

#endif  // STRATA_MEMTABLE_CONCURRENT_ARENA_H_
