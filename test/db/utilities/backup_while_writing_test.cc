// A backup taken while the DB is written and read holds exactly the
// writes up to one sequence number across every family. Writers put
// batches writing one key into each of three families, each writer's
// keys numbered in order; restored, each backup must hold, for each
// writer, keys 0..n-1 in every family with the same n, and its batches
// must account for every sequence number up to the one it records. In
// each write mode, with a flush first and from the WALs.

#include <thread>

#include "strata/utilities/backup_engine.h"
#include "test/db/utilities/backup_test_util.h"
#include "test/db/utilities/family_writers.h"

namespace strata {
namespace {

class BackupWhileWritingTest
    : public test::BackupTestBase,
      public ::testing::WithParamInterface<std::tuple<int, bool>> {};

TEST_P(BackupWhileWritingTest, EachBackupHoldsEveryWritersPrefix) {
  const int mode = std::get<0>(GetParam());
  CreateBackupOptions create;
  create.flush_before_backup = std::get<1>(GetParam());
  CloseDB(&db_, &handles_);
  options_.enable_pipelined_write = mode == 1;
  options_.unordered_write = mode == 2;
  options_.write_buffer_size = 64 * 1024;  // flushes while it runs
  ReopenDB();
  const SequenceNumber start = db_->GetLatestSequenceNumber();
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());

  constexpr int kWriters = 4, kReaders = 2, kBackups = 2;
  test::FamilyWriters load(db_.get(), handles_, kWriters, kReaders);
  Status backed_up;
  for (int b = 0; b < kBackups && backed_up.ok(); b++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    backed_up = engine->CreateNewBackup(create, db_.get());
  }
  ASSERT_EQ(0, load.Stop());
  ASSERT_TRUE(backed_up.ok()) << backed_up.ToString();

  options_.create_if_missing = false;
  for (BackupID id = 1; id <= kBackups; id++) {
    SCOPED_TRACE("backup " + std::to_string(id));
    const std::string restored = dir_.File("restored" + std::to_string(id));
    ASSERT_TRUE(
        engine->RestoreDBFromBackup(RestoreOptions(), id, restored, restored)
            .ok());
    std::unique_ptr<DB> rdb;
    std::vector<ColumnFamilyHandle*> rh;
    ASSERT_TRUE(OpenDB(restored, &rdb, &rh).ok());
    const uint64_t batches = test::CountWriterBatches(rdb.get(), rh, kWriters);
    CloseDB(&rdb, &rh);
    EXPECT_GT(batches, 0u);
    // Each batch took one sequence number per family.
    EXPECT_EQ(ReadBackupMeta(id).sequence - start,
              batches * test::BackupFamilies().size());
  }
}

std::string ModeName(
    const ::testing::TestParamInfo<std::tuple<int, bool>>& info) {
  static const char* kModes[] = {"Ordered", "Pipelined", "Unordered"};
  return std::string(kModes[std::get<0>(info.param)]) +
         (std::get<1>(info.param) ? "Flushed" : "FromWals");
}

INSTANTIATE_TEST_SUITE_P(WriteModes, BackupWhileWritingTest,
                         ::testing::Combine(::testing::Values(0, 1, 2),
                                            ::testing::Bool()),
                         ModeName);

}  // namespace
}  // namespace strata
