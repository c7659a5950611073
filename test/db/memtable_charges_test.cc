// MemTableCharges: the deltas a family reports to a WriteBufferManager add
// up to what its memtables hold, and everything comes back.

#include "db/memtable_charges.h"

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(MemTableChargesTest, FollowsAMemTableThroughItsLife) {
  WriteBufferManager wbm(1 << 20);
  MemTableCharges charges;
  charges.Grow(&wbm, 100);
  charges.Grow(&wbm, 250);
  charges.Grow(&wbm, 200);  // never shrinks: only growth is reported
  EXPECT_EQ(250u, charges.active());
  EXPECT_EQ(250u, wbm.memory_usage());
  EXPECT_EQ(250u, wbm.mutable_memtable_memory_usage());

  // Retired at 300: the last 50 are reported, then all is being flushed.
  charges.Retire(&wbm, 300);
  EXPECT_EQ(0u, charges.active());
  EXPECT_EQ(300u, wbm.memory_usage());
  EXPECT_EQ(0u, wbm.mutable_memtable_memory_usage());
  charges.Grow(&wbm, 40);  // the next memtable
  charges.Retire(&wbm, 60);
  charges.Grow(&wbm, 10);
  ASSERT_EQ(2u, charges.immutable().size());
  EXPECT_EQ(300u, charges.immutable()[0]);
  EXPECT_EQ(60u, charges.immutable()[1]);
  EXPECT_EQ(370u, wbm.memory_usage());
  EXPECT_EQ(10u, wbm.mutable_memtable_memory_usage());

  charges.Drop(&wbm, 1);  // the oldest was flushed
  EXPECT_EQ(70u, wbm.memory_usage());
  EXPECT_EQ(10u, wbm.mutable_memtable_memory_usage());
  charges.ReleaseAll(&wbm);
  EXPECT_EQ(0u, wbm.memory_usage());
  EXPECT_EQ(0u, wbm.mutable_memtable_memory_usage());
  EXPECT_TRUE(charges.immutable().empty());
}

// After a background error the immutable memtables' memory counts as
// mutable (no flush will free it), and is still given back in full.
// A dropped family's charges are released once; a write group that was
// waiting when it was dropped may still retire its memtable and make a new
// one, which must charge nothing (the family is never flushed again, so
// nothing would give it back).
TEST(MemTableChargesTest, NothingIsChargedAfterReleaseAll) {
  WriteBufferManager wbm(1 << 20);
  MemTableCharges charges;
  charges.Grow(&wbm, 100);
  charges.Retire(&wbm, 150);
  charges.Grow(&wbm, 30);
  charges.ReleaseAll(&wbm);
  EXPECT_EQ(0u, wbm.memory_usage());
  charges.Grow(&wbm, 80);
  charges.Retire(&wbm, 120);
  charges.Grow(&wbm, 40);
  charges.KeepImmutable(&wbm);
  charges.Drop(&wbm, 1);
  charges.ReleaseAll(&wbm);
  EXPECT_EQ(0u, wbm.memory_usage());
  EXPECT_EQ(0u, wbm.mutable_memtable_memory_usage());
  EXPECT_EQ(0u, charges.active());
  EXPECT_TRUE(charges.immutable().empty());
}

TEST(MemTableChargesTest, KeepImmutable) {
  WriteBufferManager wbm(1000, nullptr, /*allow_stall=*/true);
  MemTableCharges charges;
  charges.Grow(&wbm, 900);
  charges.Retire(&wbm, 900);
  charges.Grow(&wbm, 200);
  EXPECT_EQ(1100u, wbm.memory_usage());
  EXPECT_EQ(200u, wbm.mutable_memtable_memory_usage());
  charges.KeepImmutable(&wbm);
  charges.KeepImmutable(&wbm);  // once is enough
  EXPECT_EQ(1100u, wbm.memory_usage());
  EXPECT_EQ(1100u, wbm.mutable_memtable_memory_usage());
  charges.Retire(&wbm, 200);
  EXPECT_EQ(1100u, wbm.mutable_memtable_memory_usage());
  charges.Drop(&wbm, 1);  // a flush that was running still finished
  EXPECT_EQ(200u, wbm.memory_usage());
  EXPECT_EQ(200u, wbm.mutable_memtable_memory_usage());
  charges.ReleaseAll(&wbm);
  EXPECT_EQ(0u, wbm.memory_usage());
  EXPECT_EQ(0u, wbm.mutable_memtable_memory_usage());
}

// After DB::Resume cleared the error: the immutable charges count as
// being freed again, and a later retire and flush account as before the
// error.
TEST(MemTableChargesTest, ScheduleImmutableUndoesKeepImmutable) {
  WriteBufferManager wbm(1000, nullptr, /*allow_stall=*/true);
  MemTableCharges charges;
  charges.Grow(&wbm, 900);
  charges.Retire(&wbm, 900);
  charges.Grow(&wbm, 200);
  charges.ScheduleImmutable(&wbm);  // no KeepImmutable before: nothing
  EXPECT_EQ(200u, wbm.mutable_memtable_memory_usage());
  charges.KeepImmutable(&wbm);
  EXPECT_EQ(1100u, wbm.mutable_memtable_memory_usage());
  charges.ScheduleImmutable(&wbm);
  charges.ScheduleImmutable(&wbm);  // once is enough
  EXPECT_EQ(1100u, wbm.memory_usage());
  EXPECT_EQ(200u, wbm.mutable_memtable_memory_usage());
  charges.Retire(&wbm, 200);
  EXPECT_EQ(0u, wbm.mutable_memtable_memory_usage());
  charges.Drop(&wbm, 2);
  EXPECT_EQ(0u, wbm.memory_usage());
  charges.ReleaseAll(&wbm);
  EXPECT_EQ(0u, wbm.memory_usage());
  EXPECT_EQ(0u, wbm.mutable_memtable_memory_usage());
}

// growth(): what the active memtable took since its first report (its
// size when new).
TEST(MemTableChargesTest, Growth) {
  WriteBufferManager wbm(1 << 20);
  MemTableCharges charges;
  charges.Grow(&wbm, 64);
  EXPECT_EQ(0u, charges.growth());
  charges.Grow(&wbm, 100);
  EXPECT_EQ(36u, charges.growth());
  charges.Retire(&wbm, 120);
  EXPECT_EQ(0u, charges.growth());
  charges.Grow(&wbm, 64);  // the next memtable, new
  EXPECT_EQ(0u, charges.growth());
  charges.Grow(&wbm, 65);
  EXPECT_EQ(1u, charges.growth());
  charges.ReleaseAll(&wbm);
  EXPECT_EQ(0u, charges.growth());
}

TEST(MemTableChargesTest, NoManagerNoCharges) {
  MemTableCharges charges;
  charges.Grow(nullptr, 100);
  charges.Retire(nullptr, 100);
  charges.Drop(nullptr, 1);
  charges.KeepImmutable(nullptr);
  charges.ScheduleImmutable(nullptr);
  charges.ReleaseAll(nullptr);
  EXPECT_EQ(0u, charges.active());
  EXPECT_TRUE(charges.immutable().empty());
}

}  // namespace
}  // namespace strata
