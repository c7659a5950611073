// Write stalls: when writes run, slow down or stop, and the pacing of
// delayed writes at the delayed write rate.

#include "db/write_controller.h"

#include "gtest/gtest.h"

namespace strata {
namespace {

WriteStallCondition Stall(int memtables, int max_memtables, int l0,
                          bool auto_compactions = true) {
  WriteStallInputs in;
  in.num_unflushed_memtables = memtables;
  in.max_write_buffer_number = max_memtables;
  in.num_l0_files = l0;
  in.level0_slowdown_writes_trigger = 8;
  in.level0_stop_writes_trigger = 12;
  in.disable_auto_compactions = !auto_compactions;
  std::string reason;
  WriteStallCondition c = ComputeWriteStall(in, &reason);
  EXPECT_EQ(c == WriteStallCondition::kNormal, reason.empty()) << reason;
  return c;
}

TEST(WriteStallTest, ConditionsFollowMemtablesAndL0) {
  using C = WriteStallCondition;
  EXPECT_EQ(C::kNormal, Stall(0, 2, 0));
  EXPECT_EQ(C::kNormal, Stall(1, 2, 7));  // 2 memtables: never delayed
  EXPECT_EQ(C::kStopped, Stall(2, 2, 0));
  EXPECT_EQ(C::kDelayed, Stall(0, 2, 8));
  EXPECT_EQ(C::kDelayed, Stall(0, 2, 11));
  EXPECT_EQ(C::kStopped, Stall(0, 2, 12));
  // More than 3 memtables: all but one full delays.
  EXPECT_EQ(C::kNormal, Stall(4, 6, 0));
  EXPECT_EQ(C::kDelayed, Stall(5, 6, 0));
  EXPECT_EQ(C::kStopped, Stall(6, 6, 0));
  // Without auto compactions L0 never stalls (nothing would drain it);
  // the memtable limit still does.
  EXPECT_EQ(C::kNormal, Stall(0, 2, 100, false));
  EXPECT_EQ(C::kStopped, Stall(2, 2, 100, false));
}

TEST(WriteStallTest, ReasonNamesTheCause) {
  WriteStallInputs in;
  in.num_l0_files = 40;
  std::string reason;
  EXPECT_EQ(WriteStallCondition::kStopped, ComputeWriteStall(in, &reason));
  EXPECT_NE(std::string::npos, reason.find("L0 stop trigger: 40"));
}

TEST(WriteControllerTest, DelayedWritesAverageTheRate) {
  WriteController wc(1 << 20);  // 1 MiB/s
  EXPECT_EQ(uint64_t{1} << 20, wc.delayed_write_rate());
  EXPECT_EQ(0u, wc.GetDelay(0, 1 << 20));  // not delayed: free
  wc.SetCondition(WriteStallCondition::kDelayed);
  ASSERT_EQ(WriteStallCondition::kDelayed, wc.condition());
  // Writers that sleep as told: 1 MiB in 1 KiB writes takes one second.
  uint64_t now = 1000000;
  const uint64_t start = now;
  EXPECT_EQ(0u, wc.GetDelay(now, 1024));  // the first is not delayed
  for (int i = 1; i < 1024; i++) now += wc.GetDelay(now, 1024);
  EXPECT_NEAR(1000000.0, static_cast<double>(now - start), 2000.0);
  // Writers that arrive together queue up behind each other.
  const uint64_t a = wc.GetDelay(now, 1024);
  const uint64_t b = wc.GetDelay(now, 1024);
  EXPECT_NEAR(976.0, static_cast<double>(b - a), 1.0);
  // After a quiet spell a write goes at once.
  EXPECT_EQ(0u, wc.GetDelay(now + 10000000, 1024));
  // Stopped or normal: never a delay (stopping is the caller's wait).
  wc.SetCondition(WriteStallCondition::kStopped);
  EXPECT_EQ(WriteStallCondition::kStopped, wc.condition());
  EXPECT_EQ(0u, wc.GetDelay(now, 1 << 30));
  wc.SetCondition(WriteStallCondition::kNormal);
  EXPECT_EQ(0u, wc.GetDelay(now, 1 << 30));
}

TEST(WriteControllerTest, ZeroRateMeansSixteenMiBPerSecond) {
  WriteController wc(0);
  EXPECT_EQ(uint64_t{16} << 20, wc.delayed_write_rate());
}

}  // namespace
}  // namespace strata
