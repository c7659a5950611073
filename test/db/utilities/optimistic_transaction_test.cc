// OptimisticTransactionDB and Transaction: reads of the transaction's own
// writes (Get, MultiGet, iterators both ways), the commit-time conflict
// check (GetForUpdate reads, written keys, snapshots, evidence flushed
// and compacted away), save points and column families. The rest of the
// API and misuse: optimistic_transaction_api_test.cc.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/write_batch_with_index.h"
#include "test/db/utilities/optimistic_transaction_fixture.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {
namespace {

TEST_F(OptimisticTransactionTest, ReadsItsOwnWrites) {
  Put("a", "1");
  Put("c", "3");
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
  Put("e", "5");
  Put("g", "7");
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(txn->Put("b", "2").ok());
  ASSERT_TRUE(txn->Delete("c").ok());
  ASSERT_TRUE(txn->Put("e", "50").ok());
  ASSERT_TRUE(txn->Merge("g", "8").ok());
  EXPECT_EQ(TxnGet(txn.get(), "a"), "1");
  EXPECT_EQ(TxnGet(txn.get(), "b"), "2");
  EXPECT_EQ(TxnGet(txn.get(), "c"), "NOT_FOUND");
  EXPECT_EQ(TxnGet(txn.get(), "e"), "50");
  EXPECT_EQ(TxnGet(txn.get(), "g"), "7,8");
  PinnableSlice pinned;
  ASSERT_TRUE(txn->Get(ReadOptions(), "b", &pinned).ok());
  EXPECT_EQ(pinned.ToString(), "2");
  // Nothing reached the DB.
  EXPECT_EQ(DbGet("b"), "NOT_FOUND");
  EXPECT_EQ(DbGet("c"), "3");

  std::vector<std::string> values;
  std::vector<Status> statuses =
      txn->MultiGet(ReadOptions(), {"a", "b", "c", "e", "z"}, &values);
  ASSERT_EQ(statuses.size(), 5u);
  EXPECT_TRUE(statuses[0].ok() && values[0] == "1");
  EXPECT_TRUE(statuses[1].ok() && values[1] == "2");
  EXPECT_TRUE(statuses[2].IsNotFound());
  EXPECT_TRUE(statuses[3].ok() && values[3] == "50");
  EXPECT_TRUE(statuses[4].IsNotFound());

  std::unique_ptr<Iterator> it(txn->GetIterator(ReadOptions()));
  EXPECT_EQ(Scan(it.get(), true), "a=1 b=2 e=50 g=7,8");
  EXPECT_EQ(Scan(it.get(), false), "g=7,8 e=50 b=2 a=1");
  it->Seek("c");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), "e");
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), "b");
  it.reset();

  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("b"), "2");
  EXPECT_EQ(DbGet("c"), "NOT_FOUND");
  EXPECT_EQ(DbGet("e"), "50");
  EXPECT_EQ(DbGet("g"), "7,8");
}

TEST_F(OptimisticTransactionTest, ReadsAtTheReadOptionsSnapshot) {
  Put("a", "1");
  std::unique_ptr<Transaction> txn(Begin(/*set_snapshot=*/true));
  Put("a", "2");
  Put("b", "2");
  ASSERT_TRUE(txn->Put("c", "3").ok());
  ReadOptions at_snapshot;
  at_snapshot.snapshot = txn->GetSnapshot();
  ASSERT_NE(at_snapshot.snapshot, nullptr);
  EXPECT_EQ(TxnGet(txn.get(), "a", at_snapshot), "1");
  EXPECT_EQ(TxnGet(txn.get(), "a"), "2");  // no snapshot asked for
  std::unique_ptr<Iterator> it(txn->GetIterator(at_snapshot));
  EXPECT_EQ(Scan(it.get(), true), "a=1 c=3");
}

TEST_F(OptimisticTransactionTest, GetForUpdateThenOtherWriteConflicts) {
  Put("a", "1");
  std::unique_ptr<Transaction> txn(Begin());
  std::string value;
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "a", &value).ok());
  EXPECT_EQ(value, "1");
  Put("a", "2");
  ASSERT_TRUE(txn->Put("a", "3").ok());
  ASSERT_TRUE(txn->Put("z", "1").ok());
  Status s = txn->Commit();
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_EQ(DbGet("a"), "2");
  EXPECT_EQ(DbGet("z"), "NOT_FOUND");
  // The failed transaction keeps its writes until rolled back.
  EXPECT_EQ(TxnGet(txn.get(), "z"), "1");
  ASSERT_TRUE(txn->Rollback().ok());
  EXPECT_EQ(TxnGet(txn.get(), "z"), "NOT_FOUND");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("z"), "NOT_FOUND");
}

TEST_F(OptimisticTransactionTest, ReadOnlyKeyConflictsToo) {
  // A key only read with GetForUpdate (pessimistic's shared lock, too).
  std::unique_ptr<Transaction> txn(Begin());
  std::string value;
  EXPECT_TRUE(
      txn->GetForUpdate(ReadOptions(), "r", &value, false).IsNotFound());
  ASSERT_TRUE(txn->Put("w", "1").ok());
  ASSERT_TRUE(db_->Delete(WriteOptions(), "r").ok());
  EXPECT_TRUE(txn->Commit().IsBusy());
  EXPECT_EQ(DbGet("w"), "NOT_FOUND");
}

TEST_F(OptimisticTransactionTest, WrittenKeyIsCheckedWithoutSnapshot) {
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(txn->Put("w", "txn").ok());
  Put("w", "other");
  EXPECT_TRUE(txn->Commit().IsBusy());
  EXPECT_EQ(DbGet("w"), "other");
}

TEST_F(OptimisticTransactionTest, SnapshotMakesEarlierWritesConflict) {
  std::unique_ptr<Transaction> txn(Begin(/*set_snapshot=*/true));
  Put("k", "other");  // after the snapshot, before the transaction's write
  ASSERT_TRUE(txn->Put("k", "txn").ok());
  EXPECT_TRUE(txn->Commit().IsBusy());
  EXPECT_EQ(DbGet("k"), "other");

  // Without the snapshot the key is tracked from its write on: no conflict.
  std::unique_ptr<Transaction> plain(Begin());
  Put("k", "other2");
  ASSERT_TRUE(plain->Put("k", "txn").ok());
  ASSERT_TRUE(plain->Commit().ok());
  EXPECT_EQ(DbGet("k"), "txn");
}

TEST_F(OptimisticTransactionTest, OtherWriteBeforeTheReadIsNoConflict) {
  Put("a", "1");
  std::unique_ptr<Transaction> txn(Begin());
  Put("a", "2");
  std::string value;
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "a", &value).ok());
  EXPECT_EQ(value, "2");
  ASSERT_TRUE(txn->Put("a", "3").ok());
  Put("b", "unrelated");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("a"), "3");
}

TEST_F(OptimisticTransactionTest, ConflictFoundInTables) {
  Put("a", "1");
  std::unique_ptr<Transaction> txn(Begin());
  std::string value;
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "a", &value).ok());
  Put("a", "2");
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
  Put("other", "x");  // the memtable holds something, not the key
  ASSERT_TRUE(txn->Put("a", "3").ok());
  EXPECT_TRUE(txn->Commit().IsBusy());
  EXPECT_EQ(DbGet("a"), "2");
}

TEST_F(OptimisticTransactionTest, CompactedDeletionStillConflicts) {
  Put("a", "1");
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
  std::unique_ptr<Transaction> txn(Begin());
  std::string value;
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "a", &value).ok());
  EXPECT_EQ(value, "1");
  ASSERT_TRUE(db_->Delete(WriteOptions(), "a").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
  // To the bottom level: with no snapshot older than it the deletion and
  // the value it hides would both go, and the key would look unwritten.
  ASSERT_TRUE(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  ASSERT_TRUE(txn->Put("a", "from-txn").ok());
  EXPECT_TRUE(txn->Commit().IsBusy());
  EXPECT_EQ(DbGet("a"), "NOT_FOUND");
  ASSERT_TRUE(txn->Rollback().ok());

  // Once the transaction ends its snapshot is gone and compaction drops
  // the history; a new transaction starts after it.
  ASSERT_TRUE(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "a", &value).IsNotFound());
  ASSERT_TRUE(txn->Put("a", "again").ok());
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("a"), "again");
}

TEST_F(OptimisticTransactionTest, PairCompactedAwayAfterTheSnapshotConflicts) {
  // A Put and the (single) deletion of it, both after the transaction's
  // snapshot, meet in one compaction to the bottom level: they read as
  // nothing, but the key was written after the snapshot, so the commit
  // must still fail.
  for (bool single : {true, false}) {
    SCOPED_TRACE(single ? "SingleDelete" : "Delete");
    std::unique_ptr<Transaction> txn(Begin());
    std::string value;
    ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "a", &value).IsNotFound());
    Put("a", "1");
    ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
    ASSERT_TRUE((single ? db_->SingleDelete(WriteOptions(), "a")
                        : db_->Delete(WriteOptions(), "a"))
                    .ok());
    ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
    ASSERT_TRUE(
        db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
    ASSERT_TRUE(txn->Put("a", "from-txn").ok());
    EXPECT_TRUE(txn->Commit().IsBusy());
    EXPECT_EQ(DbGet("a"), "NOT_FOUND");
  }
}

TEST_F(OptimisticTransactionTest, ClearedSnapshotKeepsHistory) {
  // The user's snapshot is the one held; clearing it must not let the
  // history the check needs go.
  Put("a", "1");
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());  // a table for each version
  std::unique_ptr<Transaction> txn(Begin(/*set_snapshot=*/true));
  ASSERT_TRUE(txn->Put("a", "txn").ok());
  txn->ClearSnapshot();
  EXPECT_EQ(txn->GetSnapshot(), nullptr);
  ASSERT_TRUE(db_->Delete(WriteOptions(), "a").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
  ASSERT_TRUE(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_TRUE(txn->Commit().IsBusy());
}

TEST_F(OptimisticTransactionTest, SavePointsRollBackWritesAndTracking) {
  std::unique_ptr<Transaction> txn(Begin());
  EXPECT_TRUE(txn->RollbackToSavePoint().IsNotFound());
  EXPECT_TRUE(txn->PopSavePoint().IsNotFound());
  ASSERT_TRUE(txn->Put("a", "1").ok());
  txn->SetSavePoint();
  ASSERT_TRUE(txn->Put("b", "2").ok());
  ASSERT_TRUE(txn->Put("a", "1b").ok());
  std::string value;
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "c", &value).IsNotFound());
  txn->SetSavePoint();
  ASSERT_TRUE(txn->Delete("d").ok());
  EXPECT_EQ(txn->GetNumKeys(), 4u);
  EXPECT_EQ(txn->GetNumPuts(), 3u);
  EXPECT_EQ(txn->GetNumDeletes(), 1u);
  ASSERT_TRUE(txn->PopSavePoint().ok());  // "d" joins the first save point
  ASSERT_TRUE(txn->RollbackToSavePoint().ok());
  EXPECT_EQ(txn->GetNumKeys(), 1u);
  EXPECT_EQ(txn->GetNumPuts(), 1u);
  EXPECT_EQ(txn->GetNumDeletes(), 0u);
  EXPECT_EQ(TxnGet(txn.get(), "a"), "1");
  EXPECT_EQ(TxnGet(txn.get(), "b"), "NOT_FOUND");
  EXPECT_TRUE(txn->RollbackToSavePoint().IsNotFound());
  // c and d are no longer tracked: others' writes to them do not conflict.
  Put("c", "other");
  Put("d", "other");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("a"), "1");
  EXPECT_EQ(DbGet("b"), "NOT_FOUND");
  EXPECT_EQ(DbGet("d"), "other");

  // A key tracked before the save point stays tracked after rolling back.
  ASSERT_TRUE(txn->Put("a", "2").ok());
  txn->SetSavePoint();
  ASSERT_TRUE(txn->Put("a", "3").ok());
  ASSERT_TRUE(txn->RollbackToSavePoint().ok());
  EXPECT_EQ(TxnGet(txn.get(), "a"), "2");
  Put("a", "other");
  EXPECT_TRUE(txn->Commit().IsBusy());
}

TEST_F(OptimisticTransactionTest, SavePointRestoresSnapshot) {
  std::unique_ptr<Transaction> txn(Begin());
  txn->SetSavePoint();
  txn->SetSnapshot();
  ASSERT_NE(txn->GetSnapshot(), nullptr);
  ASSERT_TRUE(txn->RollbackToSavePoint().ok());
  EXPECT_EQ(txn->GetSnapshot(), nullptr);
}

TEST_F(OptimisticTransactionTest, ColumnFamilies) {
  ColumnFamilyHandle* cf = nullptr;
  ColumnFamilyOptions cf_options;
  cf_options.comparator = ReverseBytewiseComparator();
  ASSERT_TRUE(db_->CreateColumnFamily(cf_options, "rev", &cf).ok());
  std::unique_ptr<ColumnFamilyHandle> owned(cf);
  ASSERT_TRUE(db_->Put(WriteOptions(), cf, "k1", "cf").ok());
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(txn->Put(cf, "k2", "txn").ok());
  ASSERT_TRUE(txn->Put("k1", "default").ok());
  std::string value;
  ASSERT_TRUE(txn->Get(ReadOptions(), cf, "k1", &value).ok());
  EXPECT_EQ(value, "cf");
  ASSERT_TRUE(txn->Get(ReadOptions(), "k1", &value).ok());
  EXPECT_EQ(value, "default");
  std::unique_ptr<Iterator> it(txn->GetIterator(ReadOptions(), cf));
  EXPECT_EQ(Scan(it.get(), true), "k2=txn k1=cf");
  it.reset();
  std::vector<std::string> values;
  std::vector<Status> statuses = txn->MultiGetForUpdate(
      ReadOptions(), {cf, db_->DefaultColumnFamily()}, {"k1", "k1"}, &values);
  ASSERT_TRUE(statuses[0].ok() && statuses[1].ok());
  EXPECT_EQ(values[0], "cf");
  EXPECT_EQ(values[1], "default");
  // The same key written in the default family is another key.
  Put("k2", "other family");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("k2", cf), "txn");

  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), cf, "k1", &value).ok());
  ASSERT_TRUE(txn->Put("k9", "1").ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), cf, "k1", "changed").ok());
  EXPECT_TRUE(txn->Commit().IsBusy());
  EXPECT_EQ(DbGet("k9"), "NOT_FOUND");
}

TEST_F(OptimisticTransactionTest, DroppedFamilyFailsTheCommit) {
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamily(ColumnFamilyOptions(), "x", &cf).ok());
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(db_->DropColumnFamily(cf).ok());
  std::string value;
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), cf, "k", &value).IsNotFound());
  ASSERT_TRUE(txn->Put("d", "1").ok());
  Status s = txn->Commit();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("dropped"), std::string::npos) << s.ToString();
  EXPECT_EQ(DbGet("d"), "NOT_FOUND");
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(cf).ok());
}

}  // namespace
}  // namespace test
}  // namespace strata
