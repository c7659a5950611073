#include "memtable/concurrent_arena.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "port/port.h"
#include "util/random.h"

namespace strata {
namespace {

// Copies: gtest's EXPECT_* bind their arguments by reference, which needs
// an exported definition of the static member in the DLL build.
constexpr size_t kMinBlock = ConcurrentArena::kMinBlockSize;
constexpr size_t kDefaultBlock = ConcurrentArena::kDefaultBlockSize;
constexpr size_t kRegion = port::kHugePageSize;

bool IsPointerAligned(const char* p) {
  return reinterpret_cast<uintptr_t>(p) % alignof(void*) == 0 &&
         reinterpret_cast<uintptr_t>(p) % 8 == 0;
}

TEST(ConcurrentArenaTest, PhysicalCoreIdIsACpuOrUnknown) {
  const int cpu = port::PhysicalCoreID();
  EXPECT_GE(cpu, -1);
  // A CPU id comes from a small range; anything else is garbage.
  EXPECT_LT(cpu, 1 << 16);
}

TEST(ConcurrentArenaTest, EmptyArenaHasAllocatedNothing) {
  ConcurrentArena arena(8192);
  EXPECT_EQ(0u, arena.MemoryAllocatedBytes());
  EXPECT_EQ(8192u, arena.block_size());
  EXPECT_GE(arena.num_shards(), 1u);
  // A power of two, so CPU ids map with a mask.
  EXPECT_EQ(0u, arena.num_shards() & (arena.num_shards() - 1));
}

TEST(ConcurrentArenaTest, BlockSizeIsRoundedUp) {
  EXPECT_EQ(kMinBlock, ConcurrentArena(1).block_size());
  EXPECT_EQ(0u, ConcurrentArena(5001).block_size() % 8);
  EXPECT_GE(ConcurrentArena(5001).block_size(), 5001u);
}

TEST(ConcurrentArenaTest, SmallAllocationReservesOneChunk) {
  ConcurrentArena arena(8192);
  char* p = arena.Allocate(10);
  ASSERT_NE(nullptr, p);
  EXPECT_EQ(8192u, arena.MemoryAllocatedBytes());
  // Reserved, unhanded space counts as used.
  EXPECT_GE(arena.ApproximateMemoryUsage(), 8192u);
}

TEST(ConcurrentArenaTest, LargeAllocationGetsExactlyItsOwnBlock) {
  ConcurrentArena arena(8192);
  const size_t before = arena.MemoryAllocatedBytes();
  char* big = arena.Allocate(8192 / 4 + 1);
  EXPECT_EQ(before + 8192 / 4 + 1, arena.MemoryAllocatedBytes());
  char* huge = arena.AllocateAligned(100000);
  EXPECT_TRUE(IsPointerAligned(huge));
  EXPECT_EQ(before + 8192 / 4 + 1 + 100000, arena.MemoryAllocatedBytes());
  // Both are usable in full.
  std::fill(big, big + 8192 / 4 + 1, 'b');
  std::fill(huge, huge + 100000, 'h');
  EXPECT_EQ('b', big[8192 / 4]);
  EXPECT_EQ('h', huge[99999]);
}

TEST(ConcurrentArenaTest, AlignedAllocationsArePointerAligned) {
  ConcurrentArena arena(4096);
  Random rnd(17);
  for (int i = 0; i < 5000; i++) {
    arena.Allocate(1 + rnd.Uniform(13));  // moves the unaligned end
    char* p = arena.AllocateAligned(1 + rnd.Uniform(200));
    ASSERT_TRUE(IsPointerAligned(p)) << i;
  }
}

TEST(ConcurrentArenaTest, UsageTracksRequestsWithBoundedWaste) {
  const size_t kBlock = 4096;
  ConcurrentArena arena(kBlock);
  Random rnd(301);
  size_t requested = 0;
  for (int i = 0; i < 20000; i++) {
    const size_t n = 1 + rnd.Uniform(rnd.OneIn(10) ? 1000 : 100);
    if (rnd.OneIn(2)) {
      arena.AllocateAligned(n);
    } else {
      arena.Allocate(n);
    }
    requested += n;
    ASSERT_GE(arena.MemoryAllocatedBytes(), requested);
    ASSERT_GE(arena.ApproximateMemoryUsage(), arena.MemoryAllocatedBytes());
  }
  // A refill abandons less than a quarter chunk (the request did not fit),
  // alignment costs < 8 bytes per request, and each shard may hold an
  // untouched chunk. Beyond that nothing is lost.
  const size_t slack = requested / 3 + 20000 * 8 + arena.num_shards() * kBlock;
  EXPECT_LE(arena.MemoryAllocatedBytes(), requested + slack);
  EXPECT_EQ(0u, arena.MemoryAllocatedBytes() % 8);
}

TEST(ConcurrentArenaTest, AllocationsDoNotOverlap) {
  ConcurrentArena arena(4096);
  std::vector<std::pair<char*, size_t>> blocks;
  Random rnd(7);
  for (int i = 0; i < 10000; i++) {
    const size_t n = 1 + rnd.Uniform(rnd.OneIn(50) ? 3000 : 64);
    char* p = rnd.OneIn(3) ? arena.AllocateAligned(n) : arena.Allocate(n);
    std::fill(p, p + n, static_cast<char>(i));
    blocks.emplace_back(p, n);
  }
  for (size_t i = 0; i < blocks.size(); i++) {
    for (size_t b = 0; b < blocks[i].second; b++) {
      ASSERT_EQ(static_cast<char>(i), blocks[i].first[b]) << i;
    }
  }
}

// Each thread allocates and fills blocks with a pattern of its own; after
// all are done, every block must still hold its pattern (no two threads
// were given the same bytes) and the usage figures must cover it all.
void CheckThreadsAllocateDistinctMemory(ConcurrentArena& arena) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 5000;
  struct Block {
    char* p;
    size_t n;
  };
  std::vector<std::vector<Block>> blocks(kThreads);
  std::vector<size_t> requested(kThreads, 0);
  std::atomic<bool> go{false};
  std::atomic<bool> done{false};

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Random rnd(1000 + t);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      for (int i = 0; i < kPerThread; i++) {
        const size_t n = 1 + rnd.Uniform(rnd.OneIn(100) ? 5000 : 80);
        char* p = rnd.OneIn(2) ? arena.AllocateAligned(n) : arena.Allocate(n);
        const char pattern = static_cast<char>(t * 31 + i);
        std::fill(p, p + n, pattern);
        blocks[t].push_back(Block{p, n});
        requested[t] += n;
      }
    });
  }
  // A reader of the statistics, racing the allocators.
  std::thread watcher([&] {
    size_t last = 0;
    while (!done.load(std::memory_order_acquire)) {
      const size_t now = arena.MemoryAllocatedBytes();
      EXPECT_GE(now, last);  // only grows
      last = now;
      EXPECT_GE(arena.ApproximateMemoryUsage(), 0u);
      std::this_thread::yield();
    }
  });
  go.store(true, std::memory_order_release);
  for (auto& th : threads) th.join();
  done.store(true, std::memory_order_release);
  watcher.join();

  size_t total = 0;
  for (int t = 0; t < kThreads; t++) {
    total += requested[t];
    for (int i = 0; i < kPerThread; i++) {
      const Block& b = blocks[t][i];
      const char pattern = static_cast<char>(t * 31 + i);
      for (size_t k = 0; k < b.n; k++) {
        ASSERT_EQ(pattern, b.p[k]) << "thread " << t << " block " << i;
      }
    }
  }
  EXPECT_GE(arena.MemoryAllocatedBytes(), total);
  EXPECT_GE(arena.ApproximateMemoryUsage(), arena.MemoryAllocatedBytes());
}

TEST(ConcurrentArenaTest, ManyThreadsAllocateDistinctMemory) {
  ConcurrentArena arena(4096);
  CheckThreadsAllocateDistinctMemory(arena);
}

TEST(ConcurrentArenaTest, ManyThreadsAllocateDistinctMemoryFromRegions) {
  // 512 chunks per region: every shard carves from the same regions; the
  // check is that no two threads get the same bytes.
  ConcurrentArena arena(4096, kRegion);
  CheckThreadsAllocateDistinctMemory(arena);
}

TEST(ConcurrentArenaTest, FirstChunkTakesAWholeRegion) {
  ConcurrentArena arena(kDefaultBlock, kRegion);
  EXPECT_EQ(kRegion, arena.region_size());
  EXPECT_EQ(0u, arena.MemoryAllocatedBytes());
  char* p = arena.AllocateAligned(10);
  ASSERT_NE(nullptr, p);
  EXPECT_TRUE(IsPointerAligned(p));
  EXPECT_EQ(kRegion, arena.MemoryAllocatedBytes());
  EXPECT_GE(arena.ApproximateMemoryUsage(), kRegion);
}

TEST(ConcurrentArenaTest, RegionTooSmallForAChunkIsNotUsed) {
  ConcurrentArena arena(2 * kRegion, kRegion);
  EXPECT_EQ(0u, arena.region_size());
  arena.Allocate(10);
  EXPECT_EQ(2 * kRegion, arena.MemoryAllocatedBytes());
}

TEST(ConcurrentArenaTest, LargeAllocationsBypassRegions) {
  ConcurrentArena arena(8192, kRegion);
  char* p = arena.Allocate(5000);  // over a quarter chunk
  ASSERT_NE(nullptr, p);
  EXPECT_EQ(5000u, arena.MemoryAllocatedBytes());
}

// Chunks are carved from one region until it is used up; only then is a
// second taken. Every byte handed out stays the caller's.
TEST(ConcurrentArenaTest, RegionsFillUpBeforeANewOneIsTaken) {
  constexpr size_t kChunk = kMinBlock;  // 512 chunks per region
  ConcurrentArena arena(kChunk, kRegion);
  ASSERT_LT(arena.num_shards() * kChunk, kRegion / 4);
  std::vector<char*> pieces;
  constexpr size_t kPiece = 1000;
  // A quarter region's worth: even a thread that migrates across every
  // shard, starting a chunk in each, stays within one region.
  while (pieces.size() * kPiece < kRegion / 4) {
    pieces.push_back(arena.Allocate(kPiece));
  }
  EXPECT_EQ(kRegion, arena.MemoryAllocatedBytes());
  // Past three regions' worth: at least four, all whole.
  while (pieces.size() * kPiece < 3 * kRegion + kPiece) {
    pieces.push_back(arena.Allocate(kPiece));
  }
  EXPECT_GE(arena.MemoryAllocatedBytes(), 4 * kRegion);
  EXPECT_EQ(0u, arena.MemoryAllocatedBytes() % kRegion);
  for (size_t i = 0; i < pieces.size(); i++) {
    std::fill(pieces[i], pieces[i] + kPiece, static_cast<char>(i));
  }
  for (size_t i = 0; i < pieces.size(); i++) {
    ASSERT_EQ(static_cast<char>(i), pieces[i][0]) << i;
    ASSERT_EQ(static_cast<char>(i), pieces[i][kPiece - 1]) << i;
  }
}

TEST(ConcurrentArenaTest, UsableThroughTheAllocatorInterface) {
  ConcurrentArena arena;
  Allocator* allocator = &arena;
  char* p = allocator->AllocateAligned(24);
  EXPECT_TRUE(IsPointerAligned(p));
  EXPECT_NE(nullptr, allocator->Allocate(3));
  // One chunk, or two if the thread moved to another core in between.
  EXPECT_GE(arena.MemoryAllocatedBytes(), kDefaultBlock);
  EXPECT_EQ(0u, arena.MemoryAllocatedBytes() % kDefaultBlock);
}

}  // namespace
}  // namespace strata
