// WriteBufferManager without a DB: the counters, the flush and stall
// rules at their thresholds, the budget changed on the fly, the stall
// queue, and the cache charge (util/cache_reservation.h).

#include "strata/write_buffer_manager.h"

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/cache.h"
#include "test/util/testutil.h"
#include "util/cache_reservation.h"

namespace strata {
namespace {

using test::kKiB;

constexpr size_t kEntry = CacheReservation::kEntrySize;

// Counts Signals; Block is never called by the manager.
class CountingStall : public StallInterface {
 public:
  void Block() override {}
  void Signal() override { signals++; }
  int signals = 0;
};

TEST(WriteBufferManagerTest, Counters) {
  WriteBufferManager wbm(100 * kKiB);
  EXPECT_TRUE(wbm.enabled());
  EXPECT_FALSE(wbm.cost_to_cache());
  EXPECT_EQ(100 * kKiB, wbm.buffer_size());
  EXPECT_EQ(0u, wbm.dummy_entries_in_cache_usage());

  wbm.ReserveMem(30 * kKiB);
  wbm.ReserveMem(20 * kKiB);
  EXPECT_EQ(50 * kKiB, wbm.memory_usage());
  EXPECT_EQ(50 * kKiB, wbm.mutable_memtable_memory_usage());
  // Scheduled: still used, no longer mutable.
  wbm.ScheduleFreeMem(30 * kKiB);
  EXPECT_EQ(50 * kKiB, wbm.memory_usage());
  EXPECT_EQ(20 * kKiB, wbm.mutable_memtable_memory_usage());
  wbm.FreeMem(30 * kKiB);
  EXPECT_EQ(20 * kKiB, wbm.memory_usage());
  EXPECT_EQ(20 * kKiB, wbm.mutable_memtable_memory_usage());
  wbm.ScheduleFreeMem(20 * kKiB);
  wbm.FreeMem(20 * kKiB);
  EXPECT_EQ(0u, wbm.memory_usage());
  EXPECT_EQ(0u, wbm.mutable_memtable_memory_usage());
}

// Mutable memory past 7/8 of the budget.
TEST(WriteBufferManagerTest, ShouldFlushOnMutableMemory) {
  WriteBufferManager wbm(800);  // 7/8: 700
  wbm.ReserveMem(700);
  EXPECT_FALSE(wbm.ShouldFlush());
  wbm.ReserveMem(1);
  EXPECT_TRUE(wbm.ShouldFlush());
  // Retiring the memtable (scheduling its memory) answers the rule.
  wbm.ScheduleFreeMem(701);
  EXPECT_FALSE(wbm.ShouldFlush());
}

// All the memory at the budget with at least half still mutable; with
// more than half being flushed, no more flushes are asked for.
TEST(WriteBufferManagerTest, ShouldFlushOnTotalMemory) {
  WriteBufferManager wbm(800);
  wbm.ReserveMem(400);
  wbm.ScheduleFreeMem(400);  // being flushed
  wbm.ReserveMem(399);
  EXPECT_EQ(799u, wbm.memory_usage());
  EXPECT_FALSE(wbm.ShouldFlush());  // below the budget
  wbm.ReserveMem(1);                // at it, 400 mutable = half
  EXPECT_TRUE(wbm.ShouldFlush());

  WriteBufferManager flushing(800);
  flushing.ReserveMem(401);
  flushing.ScheduleFreeMem(401);
  flushing.ReserveMem(399);  // at the budget, 399 mutable < half
  EXPECT_EQ(800u, flushing.memory_usage());
  EXPECT_FALSE(flushing.ShouldFlush());
  flushing.ReserveMem(1000);  // far past it, and mostly mutable
  EXPECT_TRUE(flushing.ShouldFlush());
}

TEST(WriteBufferManagerTest, SevenEighthsRoundsDown) {
  WriteBufferManager wbm(100);  // 7/8 of 100: 87
  wbm.ReserveMem(87);
  EXPECT_FALSE(wbm.ShouldFlush());
  wbm.ReserveMem(1);
  EXPECT_TRUE(wbm.ShouldFlush());
}

TEST(WriteBufferManagerTest, NoBudgetNeverFlushesOrStalls) {
  WriteBufferManager wbm(0, {}, /*allow_stall=*/true);
  EXPECT_FALSE(wbm.enabled());
  wbm.ReserveMem(1 << 30);
  EXPECT_EQ(size_t{1} << 30, wbm.memory_usage());  // still counted
  EXPECT_FALSE(wbm.ShouldFlush());
  EXPECT_FALSE(wbm.ShouldStall());
}

TEST(WriteBufferManagerTest, ShouldStallAtTheBudget) {
  WriteBufferManager no_stall(1000);
  no_stall.ReserveMem(5000);
  EXPECT_FALSE(no_stall.ShouldStall());

  WriteBufferManager wbm(1000, {}, /*allow_stall=*/true);
  wbm.ReserveMem(999);
  EXPECT_FALSE(wbm.IsStallThresholdExceeded());
  EXPECT_FALSE(wbm.ShouldStall());
  wbm.ReserveMem(1);
  EXPECT_TRUE(wbm.IsStallThresholdExceeded());
  EXPECT_TRUE(wbm.ShouldStall());
  EXPECT_FALSE(wbm.IsStallActive());  // nobody has stalled yet
  wbm.SetAllowStall(false);
  EXPECT_FALSE(wbm.ShouldStall());
  wbm.SetAllowStall(true);
  EXPECT_TRUE(wbm.ShouldStall());
}

// A new budget moves both thresholds (7/8 rounded down, as RocksDB's).
TEST(WriteBufferManagerTest, SetBufferSize) {
  WriteBufferManager wbm(800, {}, /*allow_stall=*/true);
  wbm.ReserveMem(701);
  EXPECT_TRUE(wbm.ShouldFlush());
  wbm.SetBufferSize(1000);  // 7/8: 875
  EXPECT_EQ(1000u, wbm.buffer_size());
  EXPECT_FALSE(wbm.ShouldFlush());
  wbm.ReserveMem(175);  // 876
  EXPECT_TRUE(wbm.ShouldFlush());
  EXPECT_FALSE(wbm.ShouldStall());
  wbm.SetBufferSize(876);
  EXPECT_TRUE(wbm.ShouldStall());
  wbm.SetBufferSize(0);
  EXPECT_FALSE(wbm.enabled());
  EXPECT_FALSE(wbm.ShouldFlush());
  EXPECT_FALSE(wbm.ShouldStall());
}

// A stall begins only while memory is being flushed, and ends when the
// memory falls below the budget.
TEST(WriteBufferManagerTest, StallEndsWhenMemoryFalls) {
  WriteBufferManager wbm(1000, {}, /*allow_stall=*/true);
  CountingStall a, b;
  wbm.ReserveMem(1200);
  // Nothing is being flushed: nothing would end the stall, so it does not
  // begin.
  wbm.BeginWriteStall(&a);
  EXPECT_EQ(1, a.signals);
  EXPECT_FALSE(wbm.IsStallActive());

  wbm.ScheduleFreeMem(600);
  wbm.BeginWriteStall(&a);
  wbm.BeginWriteStall(&b);
  EXPECT_TRUE(wbm.IsStallActive());
  EXPECT_TRUE(wbm.ShouldStall());
  EXPECT_EQ(1, a.signals);
  EXPECT_EQ(0, b.signals);
  wbm.FreeMem(100);  // 1100: still past the budget
  EXPECT_TRUE(wbm.IsStallActive());
  EXPECT_EQ(0, b.signals);
  wbm.FreeMem(200);  // 900
  EXPECT_FALSE(wbm.IsStallActive());
  EXPECT_EQ(2, a.signals);
  EXPECT_EQ(1, b.signals);
  EXPECT_FALSE(wbm.ShouldStall());
  wbm.FreeMem(0);  // signals nobody again
  EXPECT_EQ(1, b.signals);
}

// Once nothing is being flushed the stall ends even past the budget:
// no flush would ever end it.
TEST(WriteBufferManagerTest, StallEndsWhenNothingIsFlushing) {
  WriteBufferManager wbm(1000, {}, /*allow_stall=*/true);
  CountingStall a;
  wbm.ReserveMem(3000);
  wbm.ScheduleFreeMem(500);
  wbm.BeginWriteStall(&a);
  EXPECT_TRUE(wbm.IsStallActive());
  wbm.FreeMem(500);  // 2500 used, all mutable
  EXPECT_FALSE(wbm.IsStallActive());
  EXPECT_EQ(1, a.signals);
}

// RocksDB lets an application free what it reserved without scheduling
// it first. Nothing must then count as being flushed, or every later
// stall would wait for memory no flush frees.
TEST(WriteBufferManagerTest, FreeWithoutScheduleCountsNoFlush) {
  WriteBufferManager wbm(1000, {}, /*allow_stall=*/true);
  wbm.ReserveMem(400);
  wbm.FreeMem(400);
  EXPECT_EQ(0u, wbm.memory_usage());
  wbm.ReserveMem(3000);  // past the budget, nothing being flushed
  CountingStall a;
  wbm.BeginWriteStall(&a);
  EXPECT_FALSE(wbm.IsStallActive());
  EXPECT_EQ(1, a.signals);  // told to go on at once
  wbm.FreeMem(3000);
}

TEST(WriteBufferManagerTest, SettersEndAStall) {
  WriteBufferManager wbm(1000, {}, /*allow_stall=*/true);
  CountingStall a;
  wbm.ReserveMem(1500);
  wbm.ScheduleFreeMem(1000);
  wbm.BeginWriteStall(&a);
  wbm.SetBufferSize(1400);  // still past it
  EXPECT_TRUE(wbm.IsStallActive());
  wbm.SetBufferSize(2000);
  EXPECT_FALSE(wbm.IsStallActive());
  EXPECT_EQ(1, a.signals);

  wbm.SetBufferSize(1000);
  wbm.BeginWriteStall(&a);
  EXPECT_TRUE(wbm.IsStallActive());
  wbm.SetAllowStall(false);
  EXPECT_FALSE(wbm.IsStallActive());
  EXPECT_EQ(2, a.signals);
}

// A DB leaving the queue is signalled once, and never after.
TEST(WriteBufferManagerTest, RemoveDBFromQueue) {
  WriteBufferManager wbm(1000, {}, /*allow_stall=*/true);
  CountingStall a, b;
  wbm.ReserveMem(2000);
  wbm.ScheduleFreeMem(2000);
  wbm.BeginWriteStall(&a);
  wbm.BeginWriteStall(&b);
  wbm.RemoveDBFromQueue(&a);
  EXPECT_EQ(1, a.signals);
  wbm.FreeMem(2000);
  EXPECT_EQ(1, a.signals);
  EXPECT_EQ(1, b.signals);
}

// The cache is charged in whole dummy entries covering the memory, which
// go as the memory falls; a budget of 0 still charges.
TEST(WriteBufferManagerTest, ChargesTheCache) {
  std::shared_ptr<Cache> cache = NewLRUCache(64 * kEntry, 0);
  {
    WriteBufferManager wbm(0, cache);
    EXPECT_TRUE(wbm.cost_to_cache());
    wbm.ReserveMem(1);
    EXPECT_EQ(kEntry, wbm.dummy_entries_in_cache_usage());
    EXPECT_EQ(kEntry, cache->GetUsage());
    wbm.ReserveMem(kEntry);
    EXPECT_EQ(2 * kEntry, cache->GetUsage());
    wbm.ReserveMem(3 * kEntry - 1);  // 4 entries' worth exactly
    EXPECT_EQ(4 * kEntry, wbm.dummy_entries_in_cache_usage());
    EXPECT_EQ(4 * kEntry, cache->GetPinnedUsage());
    wbm.ScheduleFreeMem(4 * kEntry);
    EXPECT_EQ(4 * kEntry, cache->GetUsage());  // not freed yet
    wbm.FreeMem(kEntry + 1);
    EXPECT_EQ(3 * kEntry, cache->GetUsage());
    wbm.FreeMem(2 * kEntry - 1);
    EXPECT_EQ(kEntry, cache->GetUsage());
    wbm.ReserveMem(10 * kEntry);
    EXPECT_EQ(11 * kEntry, cache->GetUsage());
  }
  // The manager gone, so is its charge.
  EXPECT_EQ(0u, cache->GetUsage());
}

// Many threads reserving and freeing leave the counters and the charge
// exact.
TEST(WriteBufferManagerTest, ConcurrentCounting) {
  std::shared_ptr<Cache> cache = NewLRUCache(1 << 30);
  WriteBufferManager wbm(1 << 20, cache, /*allow_stall=*/true);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&wbm, t] {
      for (int i = 0; i < 2000; i++) {
        const size_t n = 1000 + 37 * static_cast<size_t>((i + t) % 50);
        wbm.ReserveMem(n);
        wbm.ScheduleFreeMem(n);
        wbm.FreeMem(n);
        wbm.ReserveMem(100);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(4u * 2000 * 100, wbm.memory_usage());
  EXPECT_EQ(4u * 2000 * 100, wbm.mutable_memtable_memory_usage());
  const size_t entries = (4u * 2000 * 100 + kEntry - 1) / kEntry;
  EXPECT_EQ(entries * kEntry, wbm.dummy_entries_in_cache_usage());
  EXPECT_EQ(entries * kEntry, cache->GetUsage());
}

// A cache with a strict limit refuses entries past it; the charge falls
// short and catches up once there is room.
TEST(CacheReservationTest, StrictCacheRefusesPastItsCapacity) {
  std::shared_ptr<Cache> cache =
      NewLRUCache(2 * kEntry, 0, /*strict_capacity_limit=*/true);
  CacheReservation reservation(cache);
  reservation.Grow(3 * kEntry);
  EXPECT_EQ(2 * kEntry, reservation.charged());
  EXPECT_EQ(2 * kEntry, cache->GetUsage());
  cache->SetCapacity(4 * kEntry);
  reservation.Grow(1);
  EXPECT_EQ(4 * kEntry, reservation.charged());
  reservation.Shrink(3 * kEntry + 1);
  EXPECT_EQ(0u, reservation.charged());
  EXPECT_EQ(0u, cache->GetUsage());
}

}  // namespace
}  // namespace strata
