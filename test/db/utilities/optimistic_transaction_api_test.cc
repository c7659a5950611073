// OptimisticTransactionDB and Transaction, the rest of the API: untracked
// writes and undone GetForUpdates, SetSnapshotOnNextOperation, use after
// commit and misuse, reuse through BeginTransaction, DisableIndexing,
// RebuildFromWriteBatch, SliceParts writes, and the options Open refuses.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"
#include "test/db/utilities/optimistic_transaction_fixture.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {
namespace {

class OptimisticTransactionApiTest : public OptimisticTransactionTest {};

TEST_F(OptimisticTransactionApiTest, UntrackedAndUndoneKeysAreNotChecked) {
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(txn->PutUntracked("u", "txn").ok());
  std::string value;
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "r", &value).IsNotFound());
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "r", &value).IsNotFound());
  txn->UndoGetForUpdate("r");
  EXPECT_EQ(txn->GetNumKeys(), 1u);  // one GetForUpdate still to undo
  txn->UndoGetForUpdate("r");
  EXPECT_EQ(txn->GetNumKeys(), 0u);
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "v", &value, true, false)
                  .IsNotFound());  // do_validate = false
  EXPECT_EQ(txn->GetNumKeys(), 0u);
  EXPECT_EQ(txn->GetNumPuts(), 1u);
  Put("u", "other");
  Put("r", "other");
  Put("v", "other");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("u"), "txn");
}

TEST_F(OptimisticTransactionApiTest,
       UndoGetForUpdateKeepsReadsBeforeASavePoint) {
  std::unique_ptr<Transaction> txn(Begin());
  std::string value;
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "before", &value).IsNotFound());
  txn->SetSavePoint();
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "after", &value).IsNotFound());
  // Reads made before the save point cannot be undone; those after can.
  txn->UndoGetForUpdate("before");
  txn->UndoGetForUpdate("after");
  EXPECT_EQ(txn->GetNumKeys(), 1u);
  // Once the save point is popped, its reads join the earlier ones.
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "after", &value).IsNotFound());
  ASSERT_TRUE(txn->PopSavePoint().ok());
  txn->UndoGetForUpdate("before");
  EXPECT_EQ(txn->GetNumKeys(), 1u);  // "after" is still read
  Put("before", "other");            // no longer checked: the commit succeeds
  ASSERT_TRUE(txn->Commit().ok());

  // A key read before the save point stays checked.
  txn.reset(Begin());
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "kept", &value).IsNotFound());
  txn->SetSavePoint();
  txn->UndoGetForUpdate("kept");
  Put("kept", "other");
  EXPECT_TRUE(txn->Commit().IsBusy());
}

TEST_F(OptimisticTransactionApiTest, SnapshotOnNextOperation) {
  struct Notifier : public TransactionNotifier {
    void SnapshotCreated(const Snapshot* s) override { snapshot = s; }
    const Snapshot* snapshot = nullptr;
  };
  auto notifier = std::make_shared<Notifier>();
  std::unique_ptr<Transaction> txn(Begin());
  txn->SetSnapshotOnNextOperation(notifier);
  EXPECT_EQ(txn->GetSnapshot(), nullptr);
  Put("x", "before");
  ASSERT_TRUE(txn->Put("y", "1").ok());
  ASSERT_NE(txn->GetSnapshot(), nullptr);
  EXPECT_EQ(notifier->snapshot, txn->GetSnapshot());
  ReadOptions ro;
  ro.snapshot = txn->GetSnapshot();
  Put("x", "after");
  EXPECT_EQ(TxnGet(txn.get(), "x", ro), "before");
}

TEST_F(OptimisticTransactionApiTest, UseAfterCommitAndMisuse) {
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(txn->Put("a", "1").ok());
  ASSERT_TRUE(txn->Commit().ok());
  // As RocksDB: a committed optimistic transaction is empty and can be
  // used again; a second Commit writes nothing.
  EXPECT_EQ(txn->GetNumKeys(), 0u);
  EXPECT_EQ(txn->GetWriteBatch()->GetWriteBatch()->Count(), 0u);
  Put("a", "other");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("a"), "other");
  ASSERT_TRUE(txn->Put("b", "2").ok());
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("b"), "2");
  ASSERT_TRUE(txn->Rollback().ok());
  EXPECT_TRUE(txn->Prepare().IsInvalidArgument());
  EXPECT_TRUE(txn->SetName("n").IsInvalidArgument());
  EXPECT_EQ(txn->GetName(), "");
  EXPECT_EQ(txn->GetState(), Transaction::STARTED);
  EXPECT_TRUE(txn->GetWaitingTxns(nullptr, nullptr).empty());
}

TEST_F(OptimisticTransactionApiTest, BeginTransactionReusesOldOne) {
  Transaction* txn = Begin(/*set_snapshot=*/true);
  ASSERT_TRUE(txn->Put("a", "1").ok());
  txn->SetSavePoint();
  txn->DisableIndexing();
  OptimisticTransactionOptions plain;
  Transaction* again = db_->BeginTransaction(WriteOptions(), plain, txn);
  EXPECT_EQ(again, txn);
  EXPECT_EQ(again->GetSnapshot(), nullptr);
  EXPECT_EQ(again->GetNumKeys(), 0u);
  EXPECT_EQ(TxnGet(again, "a"), "NOT_FOUND");
  EXPECT_TRUE(again->RollbackToSavePoint().IsNotFound());
  ASSERT_TRUE(again->Put("b", "1").ok());
  // Indexing is on again, as in a new transaction: it reads its write.
  EXPECT_EQ(TxnGet(again, "b"), "1");
  ASSERT_TRUE(again->Commit().ok());
  EXPECT_EQ(DbGet("a"), "NOT_FOUND");
  EXPECT_EQ(DbGet("b"), "1");
  delete again;
}

TEST_F(OptimisticTransactionApiTest, DisabledIndexingHidesWritesFromReads) {
  std::unique_ptr<Transaction> txn(Begin());
  txn->DisableIndexing();
  ASSERT_TRUE(txn->Put("a", "1").ok());
  txn->EnableIndexing();
  ASSERT_TRUE(txn->Put("b", "2").ok());
  EXPECT_EQ(TxnGet(txn.get(), "a"), "NOT_FOUND");
  EXPECT_EQ(TxnGet(txn.get(), "b"), "2");
  EXPECT_EQ(txn->GetNumKeys(), 2u);
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("a"), "1");
}

TEST_F(OptimisticTransactionApiTest, RebuildFromWriteBatch) {
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("a", "1").ok());
  ASSERT_TRUE(batch.Delete("b").ok());
  ASSERT_TRUE(batch.Merge("c", "x").ok());
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(txn->RebuildFromWriteBatch(&batch).ok());
  EXPECT_EQ(txn->GetNumKeys(), 3u);
  EXPECT_EQ(txn->GetNumPuts(), 1u);
  EXPECT_EQ(txn->GetNumDeletes(), 1u);
  EXPECT_EQ(txn->GetNumMerges(), 1u);
  EXPECT_EQ(TxnGet(txn.get(), "a"), "1");
  Put("b", "other");
  EXPECT_TRUE(txn->Commit().IsBusy());  // rebuilt writes are tracked
}

TEST_F(OptimisticTransactionApiTest, SlicePartsWrites) {
  std::unique_ptr<Transaction> txn(Begin());
  Slice key_parts[] = {"ke", "y"};
  Slice value_parts[] = {"va", "l", "ue"};
  ASSERT_TRUE(
      txn->Put(SliceParts(key_parts, 2), SliceParts(value_parts, 3)).ok());
  EXPECT_EQ(TxnGet(txn.get(), "key"), "value");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("key"), "value");
}

class OptimisticTransactionOpenTest : public testing::Test {
 protected:
  OptimisticTransactionOpenTest() : dir_(Env::Default(), "otxn_open") {}
  TempDir dir_;
};

TEST_F(OptimisticTransactionOpenTest, RefusesUnsoundOptions) {
  Options options;
  options.create_if_missing = true;
  options.unordered_write = true;
  OptimisticTransactionDB* db = nullptr;
  Status s = OptimisticTransactionDB::Open(options, dir_.path(), &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("unordered_write"), std::string::npos);
  EXPECT_EQ(db, nullptr);

  options.unordered_write = false;
  options.allow_concurrent_memtable_write = false;
  options.inplace_update_support = true;
  s = OptimisticTransactionDB::Open(options, dir_.path(), &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("inplace_update_support"), std::string::npos);
  EXPECT_EQ(db, nullptr);

  // In one family of the descriptors' form.
  ColumnFamilyOptions in_place;
  in_place.inplace_update_support = true;
  std::vector<ColumnFamilyDescriptor> families = {
      ColumnFamilyDescriptor(kDefaultColumnFamilyName, ColumnFamilyOptions()),
      ColumnFamilyDescriptor("f", in_place)};
  std::vector<ColumnFamilyHandle*> handles;
  DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  s = OptimisticTransactionDB::Open(db_options, dir_.path(), families, &handles,
                                    &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("column family f"), std::string::npos);

  families[1].options = ColumnFamilyOptions();
  s = OptimisticTransactionDB::Open(db_options, dir_.path(), families, &handles,
                                    &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(handles.size(), 2u);
  std::unique_ptr<Transaction> txn(db->BeginTransaction(WriteOptions()));
  ASSERT_TRUE(txn->Put(handles[1], "k", "v").ok());
  ASSERT_TRUE(txn->Commit().ok());
  std::string value;
  ASSERT_TRUE(db->Get(ReadOptions(), handles[1], "k", &value).ok());
  EXPECT_EQ(value, "v");
  EXPECT_NE(db->GetBaseDB(), nullptr);
  txn.reset();
  for (ColumnFamilyHandle* h : handles) {
    ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  }
  delete db;
}

}  // namespace
}  // namespace test
}  // namespace strata
