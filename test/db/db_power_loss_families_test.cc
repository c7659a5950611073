// A write batch over several column families must survive a power loss
// whole or not at all, also when one of the families was flushed after
// it: the DB comes back in the state after a prefix of its writes
// (docs/reliability.md), and a prefix never holds half a batch.
//
// Found by tools/db_crashtest.py whitebox --power_loss with
// --test_batches_snapshots: a flush of one family made its half of a
// batch durable in a table while the other half stayed in a WAL that was
// never synced, and the power loss took it.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/write_batch.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

class PowerLossFamiliesTest : public testing::Test {
 protected:
  PowerLossFamiliesTest()
      : base_(NewMemEnv(Env::Default())), env_(base_.get()) {
    options_.env = &env_;
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
  }
  ~PowerLossFamiliesTest() override { Close(); }

  void Open() {
    std::vector<ColumnFamilyDescriptor> families = {
        {kDefaultColumnFamilyName, ColumnFamilyOptions(options_)},
        {"b", ColumnFamilyOptions(options_)}};
    ASSERT_TRUE(
        DB::Open(DBOptions(options_), "/db", families, &handles_, &db_).ok());
  }

  void Close() {
    if (db_ == nullptr) return;
    for (ColumnFamilyHandle* h : handles_) db_->DestroyColumnFamilyHandle(h);
    handles_.clear();
    delete db_;
    db_ = nullptr;
  }

  // The machine loses power: nothing more is written, and only what was
  // synced is on disk when the DB opens again.
  void PowerLoss() {
    env_.SetFilesystemActive(false);
    ASSERT_TRUE(env_.DropUnsyncedFileData().ok());
    ASSERT_TRUE(env_.DeleteFilesCreatedAfterLastDirSync().ok());
    Close();
    env_.SetFilesystemActive(true);
    env_.ResetState();
  }

  std::string Get(int cf, const std::string& k) {
    std::string v;
    Status s = db_->Get(ReadOptions(), handles_[cf], k, &v);
    return s.ok() ? v : s.ToString();
  }

  std::unique_ptr<Env> base_;
  test::FaultInjectionEnv env_;
  Options options_;
  DB* db_ = nullptr;
  std::vector<ColumnFamilyHandle*> handles_;
};

TEST_F(PowerLossFamiliesTest, BatchSurvivesWholeWhenOneFamilyIsFlushed) {
  Open();
  // Durable before the batch, so the DB has something to come back to.
  ASSERT_TRUE(db_->Put(WriteOptions(), handles_[0], "k", "old").ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), handles_[1], "k", "old").ok());
  ASSERT_TRUE(db_->SyncWAL().ok());

  WriteBatch batch;
  ASSERT_TRUE(batch.Put(handles_[0], "k", "new").ok());
  ASSERT_TRUE(batch.Put(handles_[1], "k", "new").ok());
  ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());  // sync=false
  // Only the default family: its half of the batch goes into a table.
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[0]).ok());

  PowerLoss();
  Open();
  const std::string a = Get(0, "k");
  const std::string b = Get(1, "k");
  EXPECT_EQ(a, b) << "the batch came back torn: default has " << a << ", b has "
                  << b;
  EXPECT_TRUE(a == "old" || a == "new") << a;
}

}  // namespace
}  // namespace strata
