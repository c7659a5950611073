// TransactionDB's state machine and two-phase commit: RocksDB 7.8's
// statuses for calls out of order (checked against librocksdb), names,
// Prepare / Commit / Rollback, and prepared transactions recovered on
// reopen (no flush in between: the WAL holds their sections).

#include <algorithm>
#include <memory>

#include "test/db/utilities/pessimistic_transaction_fixture.h"

namespace strata {
namespace test {
namespace {

class TwoPhaseCommitTest : public PessimisticTransactionTest {
 protected:
  TwoPhaseCommitTest() { options_.allow_2pc = true; }

  Transaction* BeginNamed(const std::string& name) {
    Transaction* txn = Begin();
    EXPECT_TRUE(txn->SetName(name).ok());
    return txn;
  }
};

TEST_F(TwoPhaseCommitTest, MisuseStatuses) {
  std::unique_ptr<Transaction> t(Begin());
  EXPECT_EQ(t->GetState(), Transaction::STARTED);
  ASSERT_TRUE(t->Put("a", "1").ok());
  Status s = t->Prepare();
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("not been named"), std::string::npos);
  EXPECT_TRUE(t->SetName("").IsInvalidArgument());
  EXPECT_TRUE(t->SetName(std::string(513, 'n')).IsInvalidArgument());
  ASSERT_TRUE(t->SetName("x").ok());
  EXPECT_EQ(t->GetName(), "x");
  EXPECT_NE(t->SetName("y").ToString().find("already been named"),
            std::string::npos);
  std::unique_ptr<Transaction> dup(Begin());
  EXPECT_NE(dup->SetName("x").ToString().find("must be unique"),
            std::string::npos);
  EXPECT_EQ(db_->GetTransactionByName("x"), t.get());
  // Named but committed without Prepare (skip_prepare): allowed.
  ASSERT_TRUE(t->Commit().ok());
  EXPECT_EQ(t->GetState(), Transaction::COMMITTED);
  EXPECT_EQ(db_->GetTransactionByName("x"), nullptr);
  EXPECT_TRUE(dup->SetName("x").ok());
  EXPECT_NE(t->Commit().ToString().find("already been committed"),
            std::string::npos);
  EXPECT_NE(t->Rollback().ToString().find("already been committed"),
            std::string::npos);
  EXPECT_TRUE(t->Prepare().IsInvalidArgument());
  EXPECT_TRUE(t->SetName("z").IsInvalidArgument());
  EXPECT_EQ(DbGet("a"), "1");

  ASSERT_TRUE(dup->Put("b", "1").ok());
  ASSERT_TRUE(dup->Prepare().ok());
  EXPECT_EQ(dup->GetState(), Transaction::PREPARED);
  EXPECT_NE(dup->Prepare().ToString().find("already been prepared"),
            std::string::npos);
  EXPECT_NE(dup->SetName("w").ToString().find("beyond state for naming"),
            std::string::npos);
  ASSERT_TRUE(dup->Rollback().ok());
  EXPECT_EQ(dup->GetState(), Transaction::ROLLEDBACK);
  EXPECT_NE(dup->Commit().ToString().find("already been rolledback"),
            std::string::npos);
  EXPECT_NE(dup->Rollback().ToString().find("not in state for rollback"),
            std::string::npos);
  EXPECT_EQ(DbGet("b"), "NOT_FOUND");

  // A rollback before Prepare leaves the transaction usable.
  std::unique_ptr<Transaction> t3(Begin());
  ASSERT_TRUE(t3->Put("c", "1").ok());
  ASSERT_TRUE(t3->Rollback().ok());
  EXPECT_EQ(t3->GetState(), Transaction::STARTED);
  ASSERT_TRUE(t3->Put("c", "2").ok());
  ASSERT_TRUE(t3->Commit().ok());
  EXPECT_EQ(DbGet("c"), "2");

  // skip_prepare = false: Commit wants Prepare first.
  TransactionOptions must_prepare;
  must_prepare.skip_prepare = false;
  std::unique_ptr<Transaction> t4(
      db_->BeginTransaction(WriteOptions(), must_prepare));
  ASSERT_TRUE(t4->SetName("n4").ok());
  ASSERT_TRUE(t4->Put("d", "1").ok());
  EXPECT_TRUE(t4->Commit().IsTxnNotPrepared());
  ASSERT_TRUE(t4->Prepare().ok());
  ASSERT_TRUE(t4->Commit().ok());
  EXPECT_EQ(DbGet("d"), "1");

  // A commit-time batch needs Prepare.
  std::unique_ptr<Transaction> t5(Begin());
  ASSERT_TRUE(t5->GetCommitTimeWriteBatch()->Put("e", "ct").ok());
  EXPECT_TRUE(t5->Commit().IsInvalidArgument());
}

TEST_F(TwoPhaseCommitTest, IdsAndReuse) {
  std::unique_ptr<Transaction> a(Begin());
  std::unique_ptr<Transaction> b(Begin());
  EXPECT_NE(a->GetID(), b->GetID());
  ASSERT_TRUE(a->SetName("a").ok());
  ASSERT_TRUE(a->Put("k", "v").ok());
  const TransactionID old_id = a->GetID();
  Transaction* again =
      db_->BeginTransaction(WriteOptions(), TransactionOptions(), a.get());
  EXPECT_EQ(again, a.get());
  EXPECT_NE(a->GetID(), old_id);
  EXPECT_EQ(a->GetState(), Transaction::STARTED);
  EXPECT_EQ(a->GetName(), "");
  EXPECT_EQ(db_->GetTransactionByName("a"), nullptr);
  EXPECT_EQ(a->GetNumKeys(), 0u);
  EXPECT_TRUE(db_->GetLockStatusData().empty());
}

TEST_F(TwoPhaseCommitTest, PrepareThenCommitOrRollback) {
  std::unique_ptr<Transaction> t(BeginNamed("x"));
  ASSERT_TRUE(t->Put("a", "1").ok());
  ASSERT_TRUE(t->Merge("m", "x").ok());
  ASSERT_TRUE(t->GetCommitTimeWriteBatch()->Put("ct", "1").ok());
  ASSERT_TRUE(t->Prepare().ok());
  EXPECT_EQ(DbGet("a"), "NOT_FOUND");
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  ASSERT_EQ(prepared.size(), 1u);
  EXPECT_EQ(prepared[0], t.get());
  // Its locks stay until the commit.
  std::unique_ptr<Transaction> other(Begin(0));
  EXPECT_TRUE(other->Put("a", "o").IsTimedOut());
  ASSERT_TRUE(t->Commit().ok());
  EXPECT_EQ(DbGet("a"), "1");
  EXPECT_EQ(DbGet("m"), "x");
  EXPECT_EQ(DbGet("ct"), "1");
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());

  std::unique_ptr<Transaction> r(BeginNamed("r"));
  ASSERT_TRUE(r->Put("b", "1").ok());
  ASSERT_TRUE(r->Prepare().ok());
  ASSERT_TRUE(r->Rollback().ok());
  EXPECT_EQ(DbGet("b"), "NOT_FOUND");
  EXPECT_TRUE(other->Put("b", "o").ok());
  ASSERT_TRUE(other->Commit().ok());
  // Reopened, the WAL's records replay to the same state.
  t.reset();
  r.reset();
  other.reset();
  Reopen();
  EXPECT_EQ(DbGet("a"), "1");
  EXPECT_EQ(DbGet("b"), "o");
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
}

TEST_F(TwoPhaseCommitTest, PreparedTransactionRecoveredOnReopen) {
  {
    std::unique_ptr<Transaction> c(BeginNamed("commit-me"));
    ASSERT_TRUE(c->Put("a", "1").ok());
    ASSERT_TRUE(c->Delete("gone").ok());
    ASSERT_TRUE(db_->Put(WriteOptions(), "gone", "0").IsTimedOut());
    ASSERT_TRUE(c->Prepare().ok());
    std::unique_ptr<Transaction> r(BeginNamed("roll-me"));
    ASSERT_TRUE(r->Put("b", "1").ok());
    ASSERT_TRUE(r->Prepare().ok());
    std::unique_ptr<Transaction> u(BeginNamed("unprepared"));
    ASSERT_TRUE(u->Put("u", "1").ok());
  }
  Reopen();
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  ASSERT_EQ(prepared.size(), 2u);
  // Left unresolved, with flushes in between, they survive another open
  // (their WALs are kept).
  ASSERT_TRUE(db_->Put(WriteOptions(), "other", "1").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
  Reopen();
  EXPECT_EQ(DbGet("a"), "NOT_FOUND");
  EXPECT_EQ(DbGet("b"), "NOT_FOUND");
  EXPECT_EQ(DbGet("other"), "1");
  db_->GetAllPreparedTransactions(&prepared);
  ASSERT_EQ(prepared.size(), 2u);
  Transaction* c = db_->GetTransactionByName("commit-me");
  Transaction* r = db_->GetTransactionByName("roll-me");
  ASSERT_NE(c, nullptr);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(db_->GetTransactionByName("unprepared"), nullptr);
  EXPECT_EQ(c->GetState(), Transaction::PREPARED);
  EXPECT_EQ(c->GetNumKeys(), 2u);
  std::string v;
  ASSERT_TRUE(c->Get(ReadOptions(), "a", &v).ok());  // its own write
  EXPECT_EQ(v, "1");
  // The recovered locks hold.
  EXPECT_TRUE(db_->Put(WriteOptions(), "a", "o").IsTimedOut());
  EXPECT_TRUE(db_->Put(WriteOptions(), "b", "o").IsTimedOut());
  ASSERT_TRUE(c->Commit().ok());
  ASSERT_TRUE(r->Rollback().ok());
  delete c;
  delete r;
  EXPECT_EQ(DbGet("a"), "1");
  EXPECT_EQ(DbGet("b"), "NOT_FOUND");
  EXPECT_TRUE(db_->GetLockStatusData().empty());
  Reopen();
  EXPECT_EQ(DbGet("a"), "1");
  EXPECT_EQ(DbGet("b"), "NOT_FOUND");
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
}

TEST_F(TwoPhaseCommitTest, RecoveredInColumnFamilies) {
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamily(ColumnFamilyOptions(), "cf", &cf).ok());
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(cf).ok());
  delete db_;
  db_ = nullptr;
  std::vector<ColumnFamilyDescriptor> families = {
      ColumnFamilyDescriptor(kDefaultColumnFamilyName, options_),
      ColumnFamilyDescriptor("cf", options_)};
  std::vector<ColumnFamilyHandle*> handles;
  auto reopen = [&]() {
    for (ColumnFamilyHandle* h : handles) {
      ASSERT_TRUE(db_->DestroyColumnFamilyHandle(h).ok());
    }
    delete db_;
    db_ = nullptr;
    ASSERT_TRUE(TransactionDB::Open(options_, txn_db_options_, dir_.path(),
                                    families, &handles, &db_)
                    .ok());
  };
  ASSERT_TRUE(TransactionDB::Open(options_, txn_db_options_, dir_.path(),
                                  families, &handles, &db_)
                  .ok());
  // Two rounds: the recovered transaction left for the DB to delete at
  // close (round 0, prepared while open), then committed (round 1).
  // Each round prepares afresh: a prepared section outlives only the
  // next open (docs/transactions.md, "Not yet").
  for (int round = 0; round < 2; round++) {
    const std::string name = "x" + std::to_string(round);
    {
      std::unique_ptr<Transaction> t(BeginNamed(name));
      ASSERT_TRUE(t->Put(handles[1], name, "in-cf" + name).ok());
      ASSERT_TRUE(t->Put(name, "in-default" + name).ok());
      ASSERT_TRUE(t->Prepare().ok());
    }
    reopen();
    Transaction* t = db_->GetTransactionByName(name);
    ASSERT_NE(t, nullptr);
    std::string v;
    if (round == 0) {
      EXPECT_TRUE(db_->Get(ReadOptions(), handles[1], name, &v).IsNotFound());
    }
    ASSERT_TRUE(t->Get(ReadOptions(), handles[1], name, &v).ok());
    EXPECT_EQ(v, "in-cf" + name);
    EXPECT_TRUE(db_->Put(WriteOptions(), handles[1], name, "o").IsTimedOut());
    if (round == 1) {
      ASSERT_TRUE(t->Commit().ok());
      delete t;
      ASSERT_TRUE(db_->Get(ReadOptions(), handles[1], name, &v).ok());
      EXPECT_EQ(v, "in-cfx1");
      EXPECT_EQ(DbGet(name), "in-defaultx1");
    }
  }
  for (ColumnFamilyHandle* h : handles) {
    ASSERT_TRUE(db_->DestroyColumnFamilyHandle(h).ok());
  }
}

}  // namespace
}  // namespace test
}  // namespace strata
