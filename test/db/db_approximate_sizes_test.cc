// GetApproximateSizes over tables of known sizes and over memtables.

#include <cstdio>
#include <string>
#include <vector>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;
using test::Key;

constexpr int kKeys = 8000;
constexpr int kTables = 4;
constexpr size_t kValueSize = 100;

std::string Value(int i) { return std::string(kValueSize, 'a' + i % 26); }

class ApproximateSizesTest : public testing::Test {
 protected:
  void SetUp() override {
    h_.options().compression = kNoCompression;
    h_.options().disable_auto_compactions = true;
    h_.options().level0_file_num_compaction_trigger = 100;
    h_.options().level0_slowdown_writes_trigger = 100;
    h_.options().level0_stop_writes_trigger = 100;
    ASSERT_TRUE(h_.Open().ok());
  }

  // keys 0..kKeys-1 in kTables flushed tables of consecutive keys.
  void FillTables() {
    for (int t = 0; t < kTables; t++) {
      for (int i = t * kKeys / kTables; i < (t + 1) * kKeys / kTables; i++) {
        ASSERT_TRUE(h_.Put(Key(i), Value(i)).ok());
      }
      ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
    }
  }

  uint64_t TotalTableBytes() {
    uint64_t total = 0;
    for (uint64_t number : test::ListDBFiles(h_.env(), h_.name()).tables) {
      uint64_t size = 0;
      EXPECT_TRUE(
          h_.env()->GetFileSize(TableFileName(h_.name(), number), &size).ok());
      total += size;
    }
    return total;
  }

  uint64_t Size(
      const std::string& start, const std::string& limit,
      SizeApproximationFlags flags = SizeApproximationFlags::INCLUDE_FILES) {
    Range r(start, limit);
    uint64_t size = ~uint64_t{0};
    EXPECT_TRUE(h_.db()->GetApproximateSizes(&r, 1, &size, flags).ok());
    return size;
  }

  DBHolder h_;
};

TEST_F(ApproximateSizesTest, RangeOverEverythingIsEveryTable) {
  FillTables();
  const uint64_t total = TotalTableBytes();
  ASSERT_GT(total, uint64_t{kKeys} * kValueSize);
  // Every table lies wholly inside: counted in full.
  EXPECT_EQ(total, Size("", "z"));
  EXPECT_EQ(total, Size(Key(0), Key(kKeys)));
  ASSERT_TRUE(h_.Reopen().ok());  // tables not yet opened: same answer
  EXPECT_EQ(total, Size(Key(0), Key(kKeys)));
}

TEST_F(ApproximateSizesTest, PartialRangesAreProportional) {
  FillTables();
  const double total = static_cast<double>(TotalTableBytes());
  // Half: two whole tables.
  EXPECT_NEAR(0.5, Size(Key(0), Key(kKeys / 2)) / total, 0.01);
  // Cuts inside tables: within a few data blocks of the share of keys.
  EXPECT_NEAR(0.375, Size(Key(0), Key(kKeys * 3 / 8)) / total, 0.01);
  EXPECT_NEAR(0.25, Size(Key(kKeys / 8), Key(kKeys * 3 / 8)) / total, 0.01);
  // 100 entries of ~125 bytes inside one table: about 12 KiB.
  const uint64_t small = Size(Key(1000), Key(1100));
  EXPECT_GT(small, 8u << 10);
  EXPECT_LT(small, 20u << 10);
}

TEST_F(ApproximateSizesTest, GrowsWithTheRange) {
  FillTables();
  uint64_t prev = 0;
  for (int width = 0; width <= kKeys; width += kKeys / 40) {
    const uint64_t size = Size(Key(0), Key(width));
    EXPECT_GE(size, prev) << width;
    prev = size;
  }
  EXPECT_EQ(TotalTableBytes(), prev);
  // And from the other end.
  prev = 0;
  for (int start = kKeys; start >= 0; start -= kKeys / 40) {
    const uint64_t size = Size(Key(start), Key(kKeys));
    EXPECT_GE(size, prev) << start;
    prev = size;
  }
}

TEST_F(ApproximateSizesTest, RangesWithoutKeysAreEmpty) {
  FillTables();
  EXPECT_EQ(0u, Size("a", "b"));                     // before the first key
  EXPECT_EQ(0u, Size(Key(kKeys), "zzz"));            // after the last key
  EXPECT_EQ(0u, Size(Key(100), Key(100)));           // empty range
  EXPECT_EQ(0u, Size(Key(200), Key(100)));           // start > limit
  EXPECT_EQ(0u, Size(Key(kKeys - 1) + "x", "zzz"));  // past the last key
  // From the last key on: its data block and the table's metadata.
  const uint64_t tail = Size(Key(kKeys - 1), "zzz");
  EXPECT_GT(tail, 0u);
  EXPECT_LT(tail, 16u << 10);
}

TEST_F(ApproximateSizesTest, ManyRangesInOneCall) {
  FillTables();
  const std::string k[] = {Key(0), Key(kKeys / 4), Key(kKeys / 2), Key(kKeys)};
  Range ranges[] = {Range(k[0], k[1]), Range(k[1], k[2]), Range(k[2], k[3]),
                    Range(k[3], k[0])};
  uint64_t sizes[4];
  ASSERT_TRUE(h_.db()->GetApproximateSizes(ranges, 4, sizes).ok());
  EXPECT_EQ(Size(k[0], k[1]), sizes[0]);
  EXPECT_EQ(Size(k[1], k[2]), sizes[1]);
  EXPECT_EQ(Size(k[2], k[3]), sizes[2]);
  EXPECT_EQ(0u, sizes[3]);
  EXPECT_EQ(TotalTableBytes(), sizes[0] + sizes[1] + sizes[2]);
}

TEST_F(ApproximateSizesTest, MemTablesOnlyWhenAsked) {
  const int n = 1000;
  uint64_t expected = 0;
  for (int i = 0; i < n; i++) {
    ASSERT_TRUE(h_.Put(Key(i), Value(i)).ok());
    expected += Key(i).size() + 8 + kValueSize;  // internal key + value
  }
  const SizeApproximationFlags mems = SizeApproximationFlags::INCLUDE_MEMTABLES;
  EXPECT_EQ(0u, Size(Key(0), Key(n)));  // files only: none yet
  EXPECT_EQ(expected, Size(Key(0), Key(n), mems));
  EXPECT_EQ(expected / 2, Size(Key(n / 4), Key(n * 3 / 4), mems));
  EXPECT_EQ(0u, Size(Key(n), "zzz", mems));
  // A second version of a key is a second entry.
  ASSERT_TRUE(h_.Put(Key(0), Value(0)).ok());
  expected += Key(0).size() + 8 + kValueSize;
  EXPECT_EQ(expected, Size(Key(0), Key(n), mems));

  // Flushed, the data moves from the memtable answer to the table one.
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  EXPECT_EQ(0u, Size(Key(0), Key(n), mems));
  const uint64_t files = Size(Key(0), Key(n));
  EXPECT_EQ(TotalTableBytes(), files);
  ASSERT_TRUE(h_.Put(Key(n), Value(n)).ok());
  const uint64_t one = Key(n).size() + 8 + kValueSize;
  EXPECT_EQ(files + one, Size(Key(0), Key(n + 1),
                              mems | SizeApproximationFlags::INCLUDE_FILES));
}

TEST_F(ApproximateSizesTest, InvalidArguments) {
  Range r("a", "b");
  uint64_t size;
  EXPECT_TRUE(
      h_.db()
          ->GetApproximateSizes(&r, 1, &size, SizeApproximationFlags::NONE)
          .IsInvalidArgument());
  EXPECT_TRUE(h_.db()->GetApproximateSizes(&r, -1, &size).IsInvalidArgument());
  EXPECT_TRUE(
      h_.db()->GetApproximateSizes(nullptr, 1, &size).IsInvalidArgument());
  EXPECT_TRUE(h_.db()->GetApproximateSizes(&r, 1, nullptr).IsInvalidArgument());
  EXPECT_TRUE(h_.db()->GetApproximateSizes(nullptr, 0, nullptr).ok());
}

}  // namespace
}  // namespace strata
