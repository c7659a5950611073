// DBOptions::wal_write_through (docs/windows.md, "Write-through WAL"): a
// sync=true write's WAL record is written through the WAL's write-through
// handle and needs no flush; sync=false writes go through its buffered
// handle and wait for nothing; and a synced write after unsynced ones
// flushes those first, so none of them can be lost while it survives.
// Counted with IOStats on the real Env, with every write in one WAL.

#include <cstdint>
#include <string>

#include "env/io_util.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/options.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;
using test::Key;

class DBWalWriteThroughTest : public testing::Test {
 protected:
  // Opens the DB, makes one synced write (the first may also sync the
  // directory for the WAL's name) and notes the counters after it.
  void Open(bool write_through) {
    h_.options().wal_write_through = write_through;
    h_.options().disable_auto_compactions = true;
    ASSERT_TRUE(h_.Open().ok());
    synced_.sync = true;
    ASSERT_TRUE(h_.db()->Put(synced_, "first", "v").ok());
    flushes_ = io_.flushes.load();
    through_ = io_.write_through_syncs.load();
  }

  uint64_t Flushes() const { return io_.flushes.load() - flushes_; }
  uint64_t Through() const { return io_.write_through_syncs.load() - through_; }

  DBHolder h_;
  WriteOptions synced_;
  IOStats& io_ = GetIOStats();
  uint64_t flushes_ = 0;
  uint64_t through_ = 0;
};

TEST_F(DBWalWriteThroughTest, OnlySyncedWritesGoThrough) {
  Open(/*write_through=*/true);
  for (int i = 0; i < 20; i++) {
    ASSERT_TRUE(h_.db()->Put(synced_, Key(i), "synced").ok());
  }
  EXPECT_EQ(0u, Flushes());
  EXPECT_EQ(20u, Through());

  for (int i = 20; i < 40; i++) {
    ASSERT_TRUE(h_.Put(Key(i), "buffered").ok());
  }
  EXPECT_EQ(0u, Flushes());
  EXPECT_EQ(20u, Through());

  ASSERT_TRUE(h_.db()->Put(synced_, Key(40), "synced").ok());
  EXPECT_EQ(1u, Flushes());
  EXPECT_EQ(21u, Through());

  ASSERT_TRUE(h_.Reopen().ok());
  for (int i = 0; i < 41; i++) {
    EXPECT_EQ(i < 20 || i == 40 ? "synced" : "buffered", h_.Get(Key(i))) << i;
  }
}

// Without the option a synced write is write + flush, as before.
TEST_F(DBWalWriteThroughTest, WithoutTheOptionASyncedWriteFlushes) {
  Open(/*write_through=*/false);
  for (int i = 0; i < 5; i++) {
    ASSERT_TRUE(h_.db()->Put(synced_, Key(i), "v").ok());
  }
  EXPECT_EQ(5u, Flushes());
  EXPECT_EQ(0u, Through());
}

}  // namespace
}  // namespace strata
