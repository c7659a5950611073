// Level targets, static and dynamic, and the picker options' sanitizing.

#include "db/level_targets.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "strata/options.h"

namespace strata {
namespace {

constexpr uint64_t kNoTarget = std::numeric_limits<uint64_t>::max();

CompactionPickerOptions SmallOptions(bool dynamic) {
  CompactionPickerOptions o;
  o.num_levels = 5;
  o.max_bytes_for_level_base = 100;
  o.max_bytes_for_level_multiplier = 10;
  o.level_compaction_dynamic_level_bytes = dynamic;
  o.target_file_size_base = 8;
  o.target_file_size_multiplier = 2;
  return o.Sanitized();
}

TEST(CompactionPickerOptionsTest, FromColumnFamilyOptions) {
  ColumnFamilyOptions cf;
  CompactionPickerOptions o = CompactionPickerOptions::FromOptions(cf);
  EXPECT_EQ(7, o.num_levels);
  EXPECT_EQ(4, o.level0_file_num_compaction_trigger);
  EXPECT_EQ(256ull << 20, o.max_bytes_for_level_base);
  EXPECT_FALSE(o.level_compaction_dynamic_level_bytes);
  EXPECT_EQ(1, o.target_file_size_multiplier);
  // 0 in ColumnFamilyOptions means 25 target files.
  EXPECT_EQ(0u, cf.max_compaction_bytes);
  EXPECT_EQ(25 * (64ull << 20), o.max_compaction_bytes);

  cf.level_compaction_dynamic_level_bytes = true;
  cf.max_compaction_bytes = 12345;
  cf.disable_auto_compactions = true;
  o = CompactionPickerOptions::FromOptions(cf);
  EXPECT_TRUE(o.level_compaction_dynamic_level_bytes);
  EXPECT_EQ(12345u, o.max_compaction_bytes);
  EXPECT_TRUE(o.disable_auto_compactions);
}

TEST(CompactionPickerOptionsTest, SanitizeRepairsNonsense) {
  CompactionPickerOptions o;
  o.num_levels = 1;
  o.level0_file_num_compaction_trigger = 0;
  o.max_bytes_for_level_base = 0;
  o.max_bytes_for_level_multiplier = std::nan("");
  o.target_file_size_base = 0;
  o.target_file_size_multiplier = -3;
  o.max_compaction_bytes = 0;
  o = o.Sanitized();
  EXPECT_EQ(2, o.num_levels);
  EXPECT_EQ(1, o.level0_file_num_compaction_trigger);
  EXPECT_EQ(1u, o.max_bytes_for_level_base);
  EXPECT_EQ(1.0, o.max_bytes_for_level_multiplier);
  EXPECT_EQ(1u, o.target_file_size_base);
  EXPECT_EQ(1, o.target_file_size_multiplier);
  EXPECT_EQ(25u, o.max_compaction_bytes);

  o.max_bytes_for_level_multiplier = 0.5;
  o.target_file_size_base = kNoTarget;
  o.max_compaction_bytes = 0;
  o = o.Sanitized();
  EXPECT_EQ(1.0, o.max_bytes_for_level_multiplier);
  EXPECT_EQ(kNoTarget, o.max_compaction_bytes);  // saturates, no wrap
}

TEST(LevelTargetsTest, StaticGrowsByMultiplierFromBase) {
  // Static targets do not depend on the level sizes.
  LevelTargets t(SmallOptions(false), {5000, 0, 7, 0, 123456}, 30);
  EXPECT_EQ(1, t.base_level());
  EXPECT_EQ(5, t.num_levels());
  EXPECT_EQ(100u, t.MaxBytesForLevel(1));
  EXPECT_EQ(1000u, t.MaxBytesForLevel(2));
  EXPECT_EQ(10000u, t.MaxBytesForLevel(3));
  EXPECT_EQ(100000u, t.MaxBytesForLevel(4));
  // Output files: base at L0/L1, doubling per level below.
  EXPECT_EQ(8u, t.MaxFileSizeForLevel(0));
  EXPECT_EQ(8u, t.MaxFileSizeForLevel(1));
  EXPECT_EQ(16u, t.MaxFileSizeForLevel(2));
  EXPECT_EQ(64u, t.MaxFileSizeForLevel(4));
}

TEST(LevelTargetsTest, StaticSaturatesInsteadOfOverflowing) {
  CompactionPickerOptions o;
  o.num_levels = 7;
  o.max_bytes_for_level_base = uint64_t{1} << 60;
  o.max_bytes_for_level_multiplier = 1000;
  o.target_file_size_base = uint64_t{1} << 62;
  o.target_file_size_multiplier = 1000;
  LevelTargets t(o.Sanitized(), {}, 0);
  EXPECT_EQ(uint64_t{1} << 60, t.MaxBytesForLevel(1));
  EXPECT_EQ(kNoTarget, t.MaxBytesForLevel(2));
  EXPECT_EQ(kNoTarget, t.MaxBytesForLevel(6));
  EXPECT_EQ(kNoTarget, t.MaxFileSizeForLevel(6));
}

TEST(LevelTargetsTest, DynamicEmptyTreeCompactsL0IntoLastLevel) {
  LevelTargets t(SmallOptions(true), {500, 0, 0, 0, 0}, 2);
  EXPECT_EQ(4, t.base_level());
  for (int level = 1; level < 4; level++) {
    EXPECT_EQ(kNoTarget, t.MaxBytesForLevel(level)) << level;
  }
  EXPECT_EQ(100u, t.MaxBytesForLevel(4));
  // File sizes count from the base level.
  EXPECT_EQ(8u, t.MaxFileSizeForLevel(4));
}

TEST(LevelTargetsTest, DynamicTinyLastLevelIsTheBase) {
  // 5 bytes in the last level: below base/multiplier, so the last level is
  // the base level with the smallest base target (raised to base_max).
  LevelTargets t(SmallOptions(true), {0, 0, 0, 0, 5}, 0);
  EXPECT_EQ(4, t.base_level());
  EXPECT_EQ(100u, t.MaxBytesForLevel(4));
  EXPECT_EQ(kNoTarget, t.MaxBytesForLevel(3));
}

TEST(LevelTargetsTest, DynamicBaseLevelMovesUpAsTheTreeGrows) {
  // 500 bytes in L4: L3 would get 50 <= 100, so L3 is the base.
  LevelTargets t(SmallOptions(true), {0, 0, 0, 0, 500}, 0);
  EXPECT_EQ(3, t.base_level());
  EXPECT_EQ(kNoTarget, t.MaxBytesForLevel(2));
  EXPECT_EQ(100u, t.MaxBytesForLevel(3));  // 50, raised to base_max
  EXPECT_EQ(500u, t.MaxBytesForLevel(4));
  EXPECT_EQ(8u, t.MaxFileSizeForLevel(3));
  EXPECT_EQ(16u, t.MaxFileSizeForLevel(4));

  // 20000 bytes in L4 with data in L3: the base moves to L1 (20 bytes,
  // raised to 100) and each level below is 10x the one above.
  LevelTargets big(SmallOptions(true), {0, 0, 0, 300, 20000}, 0);
  EXPECT_EQ(1, big.base_level());
  EXPECT_EQ(100u, big.MaxBytesForLevel(1));
  EXPECT_EQ(200u, big.MaxBytesForLevel(2));
  EXPECT_EQ(2000u, big.MaxBytesForLevel(3));
  EXPECT_EQ(20000u, big.MaxBytesForLevel(4));

  // Larger than a full tree of this depth: L1 is capped at base_max.
  LevelTargets huge(SmallOptions(true), {0, 0, 0, 0, 1000000}, 0);
  EXPECT_EQ(1, huge.base_level());
  EXPECT_EQ(100u, huge.MaxBytesForLevel(1));
  EXPECT_EQ(100000u, huge.MaxBytesForLevel(4));
}

TEST(LevelTargetsTest, DynamicBaseNeverBelowFirstNonEmptyLevel) {
  // Data in L2 keeps the base at or above L2 even for a small last level.
  LevelTargets t(SmallOptions(true), {0, 0, 3, 0, 5}, 0);
  EXPECT_LE(t.base_level(), 2);
}

TEST(LevelTargetsTest, DynamicL0BacklogRaisesTheBaseTarget) {
  // Without a backlog: base L1 with 100 bytes.
  LevelTargets calm(SmallOptions(true), {50, 0, 0, 0, 100000}, 1);
  EXPECT_EQ(1, calm.base_level());
  EXPECT_EQ(100u, calm.MaxBytesForLevel(1));

  // 1000 bytes in L0 (over base_max): the base target becomes L0's size
  // and the fan-out below shrinks so the last level keeps its size.
  LevelTargets t(SmallOptions(true), {1000, 0, 0, 0, 100000}, 3);
  EXPECT_EQ(1, t.base_level());
  EXPECT_EQ(1000u, t.MaxBytesForLevel(1));
  const double m = std::cbrt(100.0);
  EXPECT_NEAR(1000 * m, static_cast<double>(t.MaxBytesForLevel(2)), 2);
  EXPECT_NEAR(1000 * m * m, static_cast<double>(t.MaxBytesForLevel(3)), 2);
  EXPECT_NEAR(100000, static_cast<double>(t.MaxBytesForLevel(4)), 2);

  // Under base_max in bytes but twice the trigger in files also counts.
  LevelTargets files(SmallOptions(true), {0, 0, 0, 0, 500}, 0);
  EXPECT_EQ(100u, files.MaxBytesForLevel(3));
  LevelTargets many(SmallOptions(true), {90, 0, 0, 0, 500}, 8);
  EXPECT_EQ(3, many.base_level());
  EXPECT_EQ(100u, many.MaxBytesForLevel(3));  // 90 raised to base_max
  EXPECT_NEAR(500, static_cast<double>(many.MaxBytesForLevel(4)), 1);
}

}  // namespace
}  // namespace strata
