// TransactionDB's locking: conflicts and timeouts, a waiter granted at
// commit, shared locks, the snapshot validation, deadlocks, expiration,
// writes outside transactions, save points, dropped families. Waiters are
// seen through GetWaitingTxns, never by sleeping.

#include <memory>
#include <thread>

#include "strata/utilities/optimistic_transaction_db.h"
#include "test/db/utilities/pessimistic_transaction_fixture.h"

namespace strata {
namespace test {
namespace {

TEST_F(PessimisticTransactionTest, WriteLockConflictTimesOut) {
  std::unique_ptr<Transaction> t1(Begin());
  std::unique_ptr<Transaction> t2(Begin(1));
  ASSERT_TRUE(t1->Put("a", "1").ok());
  EXPECT_EQ(LockOf("a"), "X:" + std::to_string(t1->GetID()));
  Status s = t2->Put("a", "2");
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_EQ(s.subcode(), Status::kLockTimeout);
  std::string value;
  s = t2->GetForUpdate(ReadOptions(), "a", &value);
  EXPECT_EQ(s.subcode(), Status::kLockTimeout) << s.ToString();
  // Another key is free.
  EXPECT_TRUE(t2->Put("b", "2").ok());
  ASSERT_TRUE(t1->Commit().ok());
  EXPECT_EQ(LockOf("a"), "");
  EXPECT_TRUE(t2->Put("a", "2").ok());
  ASSERT_TRUE(t2->Commit().ok());
  EXPECT_EQ(DbGet("a"), "2");
  EXPECT_TRUE(db_->GetLockStatusData().empty());
}

TEST_F(PessimisticTransactionTest, WaiterGrantedAtCommit) {
  std::unique_ptr<Transaction> t1(Begin());
  std::unique_ptr<Transaction> t2(Begin(60000));
  ASSERT_TRUE(t1->Put("a", "1").ok());
  Status waited;
  std::thread waiter([&] { waited = t2->Put("a", "2"); });
  WaitUntilWaiting(t2.get(), t1->GetID(), "a");
  EXPECT_EQ(DbGet("a"), "NOT_FOUND");
  ASSERT_TRUE(t1->Commit().ok());
  waiter.join();
  ASSERT_TRUE(waited.ok()) << waited.ToString();
  EXPECT_EQ(LockOf("a"), "X:" + std::to_string(t2->GetID()));
  EXPECT_EQ(DbGet("a"), "1");
  ASSERT_TRUE(t2->Commit().ok());
  EXPECT_EQ(DbGet("a"), "2");
}

TEST_F(PessimisticTransactionTest, SharedLocks) {
  std::unique_ptr<Transaction> t1(Begin());
  std::unique_ptr<Transaction> t2(Begin());
  std::unique_ptr<Transaction> t3(Begin(0));
  ASSERT_TRUE(db_->Put(WriteOptions(), "a", "0").ok());
  std::string v;
  ASSERT_TRUE(t1->GetForUpdate(ReadOptions(), "a", &v, false).ok());
  ASSERT_TRUE(t2->GetForUpdate(ReadOptions(), "a", &v, false).ok());
  EXPECT_EQ(v, "0");
  EXPECT_EQ(LockOf("a").substr(0, 1), "S");
  EXPECT_TRUE(t3->GetForUpdate(ReadOptions(), "a", &v, false).ok());
  ASSERT_TRUE(t3->Rollback().ok());
  EXPECT_TRUE(t3->Put("a", "3").IsTimedOut());
  EXPECT_TRUE(db_->Put(WriteOptions(), "a", "x").IsTimedOut());
  // t1 cannot upgrade while t2 shares the lock; alone it can.
  t1->SetLockTimeout(0);
  EXPECT_TRUE(t1->Put("a", "1").IsTimedOut());
  ASSERT_TRUE(t2->Rollback().ok());
  ASSERT_TRUE(t1->Put("a", "1").ok());
  EXPECT_EQ(LockOf("a"), "X:" + std::to_string(t1->GetID()));
  ASSERT_TRUE(t1->Commit().ok());
  EXPECT_EQ(DbGet("a"), "1");
}

TEST_F(PessimisticTransactionTest, SnapshotWriteConflictIsBusy) {
  ASSERT_TRUE(db_->Put(WriteOptions(), "before", "0").ok());
  std::unique_ptr<Transaction> txn(Begin(-1, /*set_snapshot=*/true));
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "outside").ok());
  EXPECT_TRUE(txn->Put("before", "1").ok());  // written before the snapshot
  Status s = txn->Put("k", "mine");
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  // The lock taken for nothing was given back.
  EXPECT_EQ(LockOf("k"), "");
  std::string v;
  EXPECT_TRUE(txn->GetForUpdate(ReadOptions(), "k", &v).IsBusy());
  EXPECT_EQ(LockOf("k"), "");
  // Without validation the newer value is read and the key locked.
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "k", &v, true, false).ok());
  EXPECT_EQ(v, "outside");
  EXPECT_EQ(LockOf("k"), "X:" + std::to_string(txn->GetID()));
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("before"), "1");
  EXPECT_EQ(DbGet("k"), "outside");

  // SetSnapshot later: only writes after it conflict; a flushed write
  // (found in a table) as well as one in the memtable.
  std::unique_ptr<Transaction> t2(Begin());
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "o2").ok());
  t2->SetSnapshot();
  EXPECT_TRUE(t2->Put("k", "t2").ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), "flushed", "o").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
  EXPECT_TRUE(t2->Put("flushed", "t2").IsBusy());
  ASSERT_TRUE(t2->Commit().ok());
  EXPECT_EQ(DbGet("k"), "t2");
  EXPECT_EQ(DbGet("flushed"), "o");
}

TEST_F(PessimisticTransactionTest, DeadlockIsDetectedAndRecorded) {
  TransactionOptions detect;
  detect.deadlock_detect = true;
  detect.lock_timeout = 60000;
  std::unique_ptr<Transaction> t1(
      db_->BeginTransaction(WriteOptions(), detect));
  std::unique_ptr<Transaction> t2(
      db_->BeginTransaction(WriteOptions(), detect));
  EXPECT_TRUE(t1->IsDeadlockDetect());
  ASSERT_TRUE(t1->Put("a", "1").ok());
  ASSERT_TRUE(t2->Put("b", "2").ok());
  Status waited;
  std::thread waiter([&] { waited = t1->Put("b", "1"); });
  WaitUntilWaiting(t1.get(), t2->GetID(), "b");
  Status s = t2->Put("a", "2");
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_EQ(s.subcode(), Status::kDeadlock);
  ASSERT_TRUE(t2->Rollback().ok());
  waiter.join();
  ASSERT_TRUE(waited.ok()) << waited.ToString();
  ASSERT_TRUE(t1->Commit().ok());
  EXPECT_EQ(DbGet("a"), "1");
  EXPECT_EQ(DbGet("b"), "1");

  std::vector<DeadlockPath> paths = db_->GetDeadlockInfoBuffer();
  ASSERT_FALSE(paths.empty());
  const DeadlockPath& path = paths[0];
  EXPECT_FALSE(path.limit_exceeded);
  ASSERT_EQ(path.path.size(), 2u);
  EXPECT_EQ(path.path[0].m_txn_id, t1->GetID());
  EXPECT_EQ(path.path[0].m_waiting_key, "b");
  EXPECT_EQ(path.path[1].m_txn_id, t2->GetID());
  EXPECT_EQ(path.path[1].m_waiting_key, "a");
  EXPECT_TRUE(path.path[1].m_exclusive);
  db_->SetDeadlockInfoBufferSize(0);
  EXPECT_TRUE(db_->GetDeadlockInfoBuffer().empty());
}

TEST_F(PessimisticTransactionTest, ExpiredHolderLosesItsLocks) {
  TransactionOptions expiring;
  expiring.expiration = 100;
  std::unique_ptr<Transaction> holder(
      db_->BeginTransaction(WriteOptions(), expiring));
  ASSERT_TRUE(holder->Put("a", "holder").ok());
  ASSERT_TRUE(holder->Put("b", "holder").ok());
  std::unique_ptr<Transaction> waiter(Begin(0));
  // Not expired yet: nothing is stolen.
  EXPECT_TRUE(waiter->Put("a", "waiter").IsTimedOut());
  env_.AdvanceMillis(1000);
  ASSERT_TRUE(waiter->Put("a", "waiter").ok());
  EXPECT_EQ(holder->GetState(), Transaction::LOCKS_STOLEN);
  EXPECT_EQ(LockOf("a"), "X:" + std::to_string(waiter->GetID()));
  EXPECT_TRUE(holder->Commit().IsExpired());
  EXPECT_TRUE(waiter->Commit().ok());
  EXPECT_EQ(DbGet("a"), "waiter");
  EXPECT_EQ(DbGet("b"), "NOT_FOUND");
  // Deleting the robbed holder releases the lock it still had.
  EXPECT_NE(LockOf("b"), "");
  holder.reset();
  EXPECT_EQ(LockOf("b"), "");

  // Expired with nobody stealing: the commit still fails, the locks go.
  std::unique_ptr<Transaction> late(
      db_->BeginTransaction(WriteOptions(), expiring));
  ASSERT_TRUE(late->Put("c", "late").ok());
  env_.AdvanceMillis(1000);
  EXPECT_TRUE(late->Commit().IsExpired());
  EXPECT_EQ(late->GetState(), Transaction::STARTED);
  EXPECT_TRUE(late->Rollback().ok());
  EXPECT_EQ(LockOf("c"), "");
  EXPECT_EQ(DbGet("c"), "NOT_FOUND");

  // A transaction without expiration keeps its lock however late.
  std::unique_ptr<Transaction> forever(Begin());
  ASSERT_TRUE(forever->Put("d", "1").ok());
  env_.AdvanceMillis(1000000);
  EXPECT_TRUE(waiter->Put("d", "2").IsTimedOut());
  EXPECT_TRUE(forever->Commit().ok());
}

TEST_F(PessimisticTransactionTest, WritesOutsideTransactionsLock) {
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(txn->Put("a", "txn").ok());
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("x", "batch").ok());
  ASSERT_TRUE(batch.Put("a", "batch").ok());
  Status s = db_->Write(WriteOptions(), &batch);
  EXPECT_EQ(s.subcode(), Status::kLockTimeout) << s.ToString();
  EXPECT_EQ(DbGet("x"), "NOT_FOUND");  // all or nothing
  EXPECT_EQ(LockOf("x"), "");          // the locks it took are back
  EXPECT_TRUE(db_->Put(WriteOptions(), "a", "p").IsTimedOut());
  EXPECT_TRUE(db_->Delete(WriteOptions(), "a").IsTimedOut());
  EXPECT_TRUE(db_->SingleDelete(WriteOptions(), "a").IsTimedOut());
  EXPECT_TRUE(db_->Merge(WriteOptions(), "a", "m").IsTimedOut());
  // A promise of no conflict skips the locks.
  TransactionDBWriteOptimizations skip;
  skip.skip_concurrency_control = true;
  WriteBatch y;
  ASSERT_TRUE(y.Put("y", "skip").ok());
  EXPECT_TRUE(db_->Write(WriteOptions(), skip, &y).ok());
  EXPECT_EQ(DbGet("y"), "skip");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_TRUE(db_->Write(WriteOptions(), &batch).ok());
  EXPECT_TRUE(db_->Merge(WriteOptions(), "a", "m").ok());
  EXPECT_EQ(DbGet("a"), "batch,m");
  EXPECT_TRUE(db_->GetLockStatusData().empty());
  EXPECT_TRUE(
      db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "a", "b")
          .IsNotSupported());
}

TEST_F(PessimisticTransactionTest, OutsideWritesInOppositeOrdersNeverDeadlock) {
  // Locked in one order whatever the batch's: no cycle of waits, so no
  // write times out even with the keys in opposite orders.
  txn_db_options_.default_lock_timeout = 30000;
  Reopen();
  auto writer = [this](bool reverse, Status* result) {
    for (int i = 0; i < 200 && result->ok(); i++) {
      WriteBatch batch;
      batch.Put(reverse ? "b" : "a", std::to_string(i));
      batch.Put(reverse ? "a" : "b", std::to_string(i));
      *result = db_->Write(WriteOptions(), &batch);
    }
  };
  Status forward, backward;
  std::thread t1(writer, false, &forward);
  std::thread t2(writer, true, &backward);
  t1.join();
  t2.join();
  EXPECT_TRUE(forward.ok()) << forward.ToString();
  EXPECT_TRUE(backward.ok()) << backward.ToString();
  EXPECT_EQ(DbGet("a"), DbGet("b"));
}

TEST_F(PessimisticTransactionTest, SavePointsReleaseOnlyNewLocks) {
  std::unique_ptr<Transaction> txn(Begin());
  std::unique_ptr<Transaction> other(Begin(0));
  ASSERT_TRUE(txn->Put("a", "1").ok());
  txn->SetSavePoint();
  ASSERT_TRUE(txn->Put("b", "1").ok());
  std::string v;
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "c", &v).IsNotFound());
  ASSERT_TRUE(txn->Put("a", "2").ok());
  ASSERT_TRUE(txn->RollbackToSavePoint().ok());
  EXPECT_NE(LockOf("a"), "");
  EXPECT_EQ(LockOf("b"), "");
  EXPECT_EQ(LockOf("c"), "");
  EXPECT_TRUE(other->Put("a", "o").IsTimedOut());
  ASSERT_TRUE(other->Put("b", "o").ok());
  ASSERT_TRUE(other->Commit().ok());
  // UndoGetForUpdate frees a key only read, not one written.
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "r", &v).IsNotFound());
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "a", &v).ok());
  txn->UndoGetForUpdate("r");
  txn->UndoGetForUpdate("a");
  EXPECT_EQ(LockOf("r"), "");
  EXPECT_NE(LockOf("a"), "");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("a"), "1");
  EXPECT_EQ(DbGet("b"), "o");
  EXPECT_TRUE(db_->GetLockStatusData().empty());
}

TEST_F(PessimisticTransactionTest, SkipConcurrencyControlTakesNoLocks) {
  TransactionOptions skip;
  skip.skip_concurrency_control = true;
  std::unique_ptr<Transaction> txn(db_->BeginTransaction(WriteOptions(), skip));
  ASSERT_TRUE(txn->Put("a", "1").ok());
  EXPECT_TRUE(db_->GetLockStatusData().empty());
  EXPECT_EQ(txn->GetNumKeys(), 0u);
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(DbGet("a"), "1");

  // A transaction that only read commits nothing and frees its lock.
  std::unique_ptr<Transaction> reader(Begin());
  std::string v;
  ASSERT_TRUE(reader->GetForUpdate(ReadOptions(), "a", &v).ok());
  EXPECT_EQ(LockOf("a"), "X:" + std::to_string(reader->GetID()));
  ASSERT_TRUE(reader->Commit().ok());
  EXPECT_EQ(LockOf("a"), "");
  EXPECT_EQ(DbGet("a"), "1");
}

TEST_F(PessimisticTransactionTest, DroppedFamilyForgetsItsLocks) {
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamily(ColumnFamilyOptions(), "cf", &cf).ok());
  const uint32_t id = cf->GetID();
  std::unique_ptr<Transaction> txn(Begin());
  ASSERT_TRUE(txn->Put(cf, "k", "v").ok());
  EXPECT_EQ(db_->GetLockStatusData().count(id), 1u);
  ASSERT_TRUE(db_->DropColumnFamily(cf).ok());
  EXPECT_EQ(db_->GetLockStatusData().count(id), 0u);
  // Its keys can no longer be locked, by a transaction or a write
  // (RocksDB's status); other families' can.
  std::string v;
  Status s = txn->GetForUpdate(ReadOptions(), cf, "b", &v);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("Column family id not found"), std::string::npos);
  EXPECT_TRUE(txn->Put(cf, "c", "v").IsInvalidArgument());
  EXPECT_TRUE(db_->Put(WriteOptions(), cf, "z", "v").IsInvalidArgument());
  EXPECT_TRUE(txn->Put("d", "v").ok());
  EXPECT_EQ(db_->GetLockStatusData().count(id), 0u);
  ASSERT_TRUE(txn->Rollback().ok());
  txn.reset();
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(cf).ok());
}

TEST_F(PessimisticTransactionTest, OpenRefusesUnsupportedOptions) {
  delete db_;
  db_ = nullptr;
  TransactionDB* db = nullptr;
  TransactionDBOptions prepared;
  prepared.write_policy = WRITE_PREPARED;
  Status s = TransactionDB::Open(options_, prepared, dir_.path(), &db);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("write_policy"), std::string::npos);
  Options unordered = options_;
  unordered.unordered_write = true;
  s = TransactionDB::Open(unordered, txn_db_options_, dir_.path(), &db);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("unordered_write"), std::string::npos);
  Options inplace = options_;
  inplace.inplace_update_support = true;
  s = TransactionDB::Open(inplace, txn_db_options_, dir_.path(), &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("inplace_update_support"), std::string::npos);
  EXPECT_EQ(db, nullptr);
}

// BeginTransaction(old_txn) reuses only a transaction of the same DB;
// one of another DB, or of the optimistic kind, is replaced, and the new
// transaction writes into this DB.
TEST_F(PessimisticTransactionTest, BeginReusesOnlyItsOwnTransactions) {
  Transaction* txn = Begin();
  const TransactionID first_id = txn->GetID();
  ASSERT_TRUE(txn->Put("own", "1").ok());
  ASSERT_TRUE(txn->Commit().ok());
  txn = db_->BeginTransaction(WriteOptions(), TransactionOptions(), txn);
  EXPECT_NE(first_id, txn->GetID());  // reused, with a new id
  delete txn;

  TempDir other_dir(Env::Default(), "ptxn_other");
  Options options;
  options.create_if_missing = true;
  TransactionDB* other = nullptr;
  ASSERT_TRUE(TransactionDB::Open(options, TransactionDBOptions(),
                                  other_dir.path(), &other)
                  .ok());
  OptimisticTransactionDB* optimistic = nullptr;
  TempDir optimistic_dir(Env::Default(), "ptxn_optimistic");
  ASSERT_TRUE(
      OptimisticTransactionDB::Open(options, optimistic_dir.path(), &optimistic)
          .ok());
  for (Transaction* foreign : {other->BeginTransaction(WriteOptions()),
                               optimistic->BeginTransaction(WriteOptions())}) {
    ASSERT_TRUE(foreign->Put("foreign", "lost").ok());
    txn = db_->BeginTransaction(WriteOptions(), TransactionOptions(), foreign);
    ASSERT_TRUE(txn->Put("mine", "2").ok());
    ASSERT_TRUE(txn->Commit().ok());
    delete txn;
  }
  EXPECT_EQ("2", DbGet("mine"));
  std::string value;
  EXPECT_TRUE(other->Get(ReadOptions(), "foreign", &value).IsNotFound());
  EXPECT_TRUE(
      other->GetLockStatusData().empty());  // the foreign one rolled back
  EXPECT_TRUE(optimistic->Get(ReadOptions(), "foreign", &value).IsNotFound());
  delete optimistic;
  delete other;
}

}  // namespace
}  // namespace test
}  // namespace strata
