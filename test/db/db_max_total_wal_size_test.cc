// max_total_wal_size: with several column families, families that were
// written once and then left alone would keep every WAL since alive; once
// the live WALs pass the limit their memtables are flushed and the old
// WALs deleted. Recovery then still finds everything, in every
// WALRecoveryMode.

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test/db/column_family_test_util.h"
#include "test/db/db_test_util.h"
#include "test/db/wal_recovery_modes.h"
#include "test/util/testutil.h"

namespace strata {
namespace test {
namespace {

std::string WalSizeKey(const char* prefix, int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%s%06d", prefix, i);
  return buf;
}
std::string WalSizeValue(int i) {
  return std::string(kKiB, static_cast<char>('a' + i % 26));
}

size_t WALFiles(const FamilyDB& db) {
  return ListDBFiles(db.options_.env, db.name_).logs.size();
}

class MaxTotalWALSizeTest : public testing::TestWithParam<WALRecoveryMode>,
                            public FamilyDB {
 protected:
  MaxTotalWALSizeTest() {
    options_.create_missing_column_families = true;
    options_.write_buffer_size = 64 * kKiB;
    options_.wal_recovery_mode = GetParam();
  }
  // Writes n keys of 1 KiB to the default family from *next on; returns
  // the most WAL files seen meanwhile.
  size_t WriteDefault(int n, int* next) {
    size_t most = 0;
    for (int end = *next + n; *next < end; ++*next) {
      EXPECT_TRUE(Put(0, WalSizeKey("d", *next), WalSizeValue(*next)).ok());
      if (*next % 16 == 0) most = std::max(most, WALFiles(*this));
    }
    return most;
  }
};

// Families b and c, written once at the start, are flushed once the WALs
// they pin pass 256 KiB, and the WAL count stays bounded while the
// default family writes 2 MiB (some 40 memtables, each with its WAL).
TEST_P(MaxTotalWALSizeTest, IdleFamiliesAreFlushedPastTheLimit) {
  options_.max_total_wal_size = 256 * kKiB;
  Open({"b", "c"});
  ASSERT_TRUE(Put(1, "b-first", "1").ok());
  ASSERT_TRUE(Put(2, "c-first", "1").ok());
  int next = 0;
  WriteDefault(128, &next);  // 128 KiB: below the limit
  EXPECT_EQ(0u, TableCount(db_, handles_[1]));
  EXPECT_EQ(0u, TableCount(db_, handles_[2]));
  EXPECT_GE(WALFiles(*this), 2u);  // b and c keep the first one

  const size_t most = WriteDefault(2048, &next);
  ASSERT_TRUE(WaitForBackgroundWork().ok());
  // Flushed once each (after that their memtables are empty).
  EXPECT_EQ(1u, TableCount(db_, handles_[1]));
  EXPECT_EQ(1u, TableCount(db_, handles_[2]));
  // 256 KiB of WALs of about 60 KiB each, the current one, and those
  // whose flushes are still to run. Without the limit: about 40.
  std::printf("most WAL files: %zu, at the end: %zu\n", most, WALFiles(*this));
  EXPECT_LE(most, 12u);
  EXPECT_LE(WALFiles(*this), 8u);

  // Writes after the flushes live only in the WALs: recovery replays
  // them into the right families.
  ASSERT_TRUE(Put(1, "b-second", "2").ok());
  WriteDefault(64, &next);
  ASSERT_TRUE(Put(2, "c-second", "2").ok());
  Reopen({"b", "c"});
  EXPECT_EQ("1", Get(1, "b-first"));
  EXPECT_EQ("2", Get(1, "b-second"));
  EXPECT_EQ("1", Get(2, "c-first"));
  EXPECT_EQ("2", Get(2, "c-second"));
  for (int i = 0; i < next; i++) {
    ASSERT_EQ(WalSizeValue(i), Get(0, WalSizeKey("d", i))) << i;
  }
  EXPECT_EQ("NOT_FOUND", Get(1, WalSizeKey("d", 0)));
}

// 0: four times the families' write_buffer_size * max_write_buffer_number
// (3 * 64 KiB * 2 * 4 = 1.5 MiB), as RocksDB derives it.
TEST_P(MaxTotalWALSizeTest, DerivedLimit) {
  Open({"b", "c"});
  ASSERT_TRUE(Put(1, "b-first", "1").ok());
  ASSERT_TRUE(Put(2, "c-first", "1").ok());
  int next = 0;
  WriteDefault(1200, &next);  // about 1.2 MiB of WAL
  EXPECT_EQ(0u, TableCount(db_, handles_[1]));
  WriteDefault(1200, &next);
  ASSERT_TRUE(WaitForBackgroundWork().ok());
  EXPECT_EQ(1u, TableCount(db_, handles_[1]));
  EXPECT_EQ(1u, TableCount(db_, handles_[2]));
  EXPECT_LE(WALFiles(*this), 30u);
  Reopen({"b", "c"});
  EXPECT_EQ("1", Get(1, "b-first"));
  EXPECT_EQ("1", Get(2, "c-first"));
  for (int i = 0; i < next; i++)
    ASSERT_EQ(WalSizeValue(i), Get(0, WalSizeKey("d", i)));
}

// One family: its memtables bound its WALs, and the limit is not looked
// at (RocksDB's rule too).
TEST_P(MaxTotalWALSizeTest, OneFamilyIgnoresTheLimit) {
  options_.max_total_wal_size = 1;
  Open({});
  int next = 0;
  WriteDefault(20, &next);
  EXPECT_EQ(0u, TableCount(db_, handles_[0]));
  EXPECT_EQ(1u, WALFiles(*this));
}

INSTANTIATE_TEST_SUITE_P(RecoveryModes, MaxTotalWALSizeTest,
                         AllWALRecoveryModes(), WALRecoveryModeName);

}  // namespace
}  // namespace test
}  // namespace strata
