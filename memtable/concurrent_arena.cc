#include "memtable/concurrent_arena.h"

#include <cassert>
#include <cstdint>
#include <thread>

#include "util/core_local.h"

namespace strata {

namespace {

// Pointer alignment, as Arena::AllocateAligned gives.
constexpr size_t kAlign = sizeof(void*) > 8 ? sizeof(void*) : 8;
static_assert((kAlign & (kAlign - 1)) == 0, "alignment must be a power of 2");

size_t RoundUp(size_t n, size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

}  // namespace

Allocator::~Allocator() = default;

void SpinMutex::Lock() {
  for (;;) {
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
    // Spin on a plain load, so waiting cores share the line read-only
    // until the holder releases it; yield if the holder was descheduled.
    for (int spins = 0; locked_.load(std::memory_order_relaxed); spins++) {
      if (spins < 100) {
        port::AsmVolatilePause();
      } else {
        std::this_thread::yield();
      }
    }
  }
}

ConcurrentArena::ConcurrentArena(size_t block_size, size_t region_size)
    : block_size_(RoundUp(
          block_size < kMinBlockSize ? kMinBlockSize : block_size, kAlign)),
      region_size_(region_size >= block_size_ ? region_size : 0),
      shard_mask_(CoreShardCount() - 1),
      shards_bytes_(sizeof(Shard) * (shard_mask_ + 1)),
      shards_(new Shard[shard_mask_ + 1]) {
  assert(region_size % port::kHugePageSize == 0);
  // Chunks and large requests (> block_size_ / 4) are all bigger than a
  // quarter of the inner Arena's block, so each becomes a block of its own
  // there: the inner Arena's small blocks are never used, nothing is
  // wasted in them.
  static_assert(kMinBlockSize >= Arena::kBlockSize,
                "shard chunks must bypass the inner Arena's small blocks");
}

ConcurrentArena::~ConcurrentArena() {
  for (char* region : regions_) port::FreeHugePageRegion(region, region_size_);
}

ConcurrentArena::Shard* ConcurrentArena::ShardForCurrentThread() {
  return &shards_[CurrentCoreHint() & shard_mask_];
}

char* ConcurrentArena::Allocate(size_t bytes) {
  assert(bytes > 0);
  if (bytes > block_size_ / 4) return AllocateLarge(bytes);
  return AllocateFromShard(bytes, false);
}

char* ConcurrentArena::AllocateAligned(size_t bytes) {
  assert(bytes > 0);
  char* result = bytes > block_size_ / 4 ? AllocateLarge(bytes)
                                         : AllocateFromShard(bytes, true);
  assert(reinterpret_cast<uintptr_t>(result) % kAlign == 0);
  return result;
}

char* ConcurrentArena::AllocateFromShard(size_t bytes, bool aligned) {
  Shard* s = ShardForCurrentThread();
  SpinLock l(&s->mu);
  for (;;) {
    if (aligned) {
      const uintptr_t at = reinterpret_cast<uintptr_t>(s->begin);
      const size_t slop = (kAlign - at % kAlign) % kAlign;
      if (static_cast<size_t>(s->end - s->begin) >= bytes + slop) {
        char* result = s->begin + slop;
        s->begin = result + bytes;
        return result;
      }
    } else if (static_cast<size_t>(s->end - s->begin) >= bytes) {
      s->end -= bytes;
      return s->end;
    }
    // What is left of the chunk (less than the request, so less than a
    // quarter chunk) is abandoned.
    Refill(s);
  }
}

void ConcurrentArena::Refill(Shard* s) {
  SpinLock l(&mu_);
  char* chunk =
      region_size_ > 0 && !region_failed_ ? ChunkFromRegion() : nullptr;
  if (chunk == nullptr) {
    chunk = arena_.AllocateAligned(block_size_);
    UpdateUsage(block_size_);
  }
  s->begin = chunk;
  s->end = chunk + block_size_;
}

char* ConcurrentArena::ChunkFromRegion() {
  if (static_cast<size_t>(region_end_ - region_next_) < block_size_) {
    // What is left of the region (less than a chunk) is abandoned.
    char* region = port::AllocateHugePageRegion(region_size_);
    if (region == nullptr) {
      region_failed_ = true;
      return nullptr;
    }
    regions_.push_back(region);
    region_next_ = region;
    region_end_ = region + region_size_;
    UpdateUsage(region_size_);
  }
  char* chunk = region_next_;
  region_next_ += block_size_;
  return chunk;
}

char* ConcurrentArena::AllocateLarge(size_t bytes) {
  SpinLock l(&mu_);
  char* result = arena_.AllocateAligned(bytes);
  UpdateUsage(bytes);
  return result;
}

void ConcurrentArena::UpdateUsage(size_t block_bytes) {
  allocated_bytes_.fetch_add(block_bytes, std::memory_order_relaxed);
  memory_usage_.store(arena_.MemoryUsage() + regions_.size() * region_size_,
                      std::memory_order_relaxed);
}

}  // namespace strata
