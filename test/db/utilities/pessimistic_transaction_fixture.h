// The fixture of the TransactionDB suites: a DB (a string-append merge
// operator, a clock the test can move forward) in a fresh directory, and
// helpers to begin transactions, read, and wait for a waiter.

#ifndef STRATA_TEST_DB_UTILITIES_PESSIMISTIC_TRANSACTION_FIXTURE_H_
#define STRATA_TEST_DB_UTILITIES_PESSIMISTIC_TRANSACTION_FIXTURE_H_

#include <atomic>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/merge_operator.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/transaction_db.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {

// The real clock plus an offset the test advances: expiration without
// sleeping.
class SkewedClockEnv : public EnvWrapper {
 public:
  SkewedClockEnv() : EnvWrapper(Env::Default()) {}
  uint64_t NowMicros() override {
    return target()->NowMicros() + offset_us_.load();
  }
  void AdvanceMillis(uint64_t ms) { offset_us_.fetch_add(ms * 1000); }

 private:
  std::atomic<uint64_t> offset_us_{0};
};

class PessimisticTransactionTest : public testing::Test {
 protected:
  PessimisticTransactionTest() : dir_(Env::Default(), "ptxn") {
    options_.create_if_missing = true;
    options_.env = &env_;
    options_.merge_operator = MergeOperators::CreateStringAppendOperator(',');
    txn_db_options_.default_lock_timeout = 10;
    txn_db_options_.transaction_lock_timeout = 10;
  }
  ~PessimisticTransactionTest() override { delete db_; }

  void SetUp() override { Reopen(); }

  void Reopen() {
    delete db_;
    db_ = nullptr;
    Status s =
        TransactionDB::Open(options_, txn_db_options_, dir_.path(), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // lock_timeout in ms (negative: the DB's default).
  Transaction* Begin(int64_t lock_timeout = -1, bool set_snapshot = false) {
    TransactionOptions txn_options;
    txn_options.lock_timeout = lock_timeout;
    txn_options.set_snapshot = set_snapshot;
    return db_->BeginTransaction(WriteOptions(), txn_options);
  }

  std::string DbGet(const std::string& key) {
    std::string value;
    Status s = db_->Get(ReadOptions(), key, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }

  // Waits (yielding) until txn waits for a lock held by holder.
  static void WaitUntilWaiting(Transaction* txn, TransactionID holder,
                               const std::string& key) {
    for (;;) {
      std::string waiting_key;
      uint32_t cf_id = 0;
      for (TransactionID id : txn->GetWaitingTxns(&cf_id, &waiting_key)) {
        if (id == holder && waiting_key == key) return;
      }
      std::this_thread::yield();
    }
  }

  // The holders of key's lock in the default family, and its mode.
  std::string LockOf(const std::string& key) {
    std::string out;
    for (const auto& entry : db_->GetLockStatusData()) {
      if (entry.first != 0 || entry.second.key != key) continue;
      out += entry.second.exclusive ? "X" : "S";
      for (TransactionID id : entry.second.ids) out += ":" + std::to_string(id);
    }
    return out;
  }

  SkewedClockEnv env_;
  TempDir dir_;
  Options options_;
  TransactionDBOptions txn_db_options_;
  TransactionDB* db_ = nullptr;
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_UTILITIES_PESSIMISTIC_TRANSACTION_FIXTURE_H_
