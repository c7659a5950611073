// The bank-transfer test: accounts holding money, eight threads moving
// random amounts between random accounts in transactions (GetForUpdate
// both, Put both, Commit, retried on Busy), while a checker sums every
// account at a snapshot — by Get and through an iterator — and the sum
// must never change. A lost update or a half-visible transfer changes it.
//
// Each kind of transaction DB is a parameter (a name OpenBank knows, seen
// through BankDB). In CI a run is a bounded number of transfers;
// STRATA_BANK_TEST_SECONDS=N runs for N seconds instead (the long run,
// docs/transactions.md).

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/transaction_db.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {
namespace {

constexpr int kAccounts = 32;
constexpr int kThreads = 8;
constexpr int kInitialBalance = 1000;
constexpr int kCiTransfers = 1600;

// A transaction DB of one kind, seen by the test through what all kinds
// share: the DB and a way to begin (or restart) a transaction.
class BankDB {
 public:
  virtual ~BankDB() = default;
  virtual DB* db() = 0;
  virtual Transaction* Begin(Transaction* old_txn) = 0;
  // Commits txn (a kind may prepare it first).
  virtual Status Commit(Transaction* txn) { return txn->Commit(); }
  // Whether a transfer failing with s is retried: a conflict.
  virtual bool Retry(const Status& s) { return s.IsBusy(); }
};

class OptimisticBankDB : public BankDB {
 public:
  explicit OptimisticBankDB(OptimisticTransactionDB* db) : db_(db) {}
  DB* db() override { return db_.get(); }
  Transaction* Begin(Transaction* old_txn) override {
    return db_->BeginTransaction(WriteOptions(), OptimisticTransactionOptions(),
                                 old_txn);
  }

 private:
  std::unique_ptr<OptimisticTransactionDB> db_;
};

// Row locks: a transfer waits for its accounts; two transfers locking the
// same two accounts in opposite orders are a deadlock, detected, and one
// of them retries (as after a lock timeout). With two_phase every
// transfer is named and prepared before it commits.
class PessimisticBankDB : public BankDB {
 public:
  PessimisticBankDB(TransactionDB* db, bool two_phase)
      : db_(db), two_phase_(two_phase) {}
  DB* db() override { return db_.get(); }
  Transaction* Begin(Transaction* old_txn) override {
    TransactionOptions txn_options;
    txn_options.deadlock_detect = true;
    txn_options.lock_timeout = 10000;
    Transaction* txn =
        db_->BeginTransaction(WriteOptions(), txn_options, old_txn);
    if (two_phase_) {
      EXPECT_TRUE(
          txn->SetName("transfer-" + std::to_string(txn->GetID())).ok());
    }
    return txn;
  }
  Status Commit(Transaction* txn) override {
    if (two_phase_) {
      Status s = txn->Prepare();
      if (!s.ok()) return s;
    }
    return txn->Commit();
  }
  bool Retry(const Status& s) override { return s.IsBusy() || s.IsTimedOut(); }

 private:
  std::unique_ptr<TransactionDB> db_;
  const bool two_phase_;
};

Status OpenBank(const std::string& kind, const Options& options,
                const std::string& path, std::unique_ptr<BankDB>* bank) {
  if (kind == "optimistic" || kind == "optimistic_serial") {
    // The default validation is RocksDB's default, kValidateParallel.
    OptimisticTransactionDBOptions occ_options;
    if (kind == "optimistic_serial") {
      occ_options.validate_policy = OccValidationPolicy::kValidateSerial;
    }
    std::vector<ColumnFamilyHandle*> handles;
    OptimisticTransactionDB* db = nullptr;
    Status s = OptimisticTransactionDB::Open(
        options, occ_options, path,
        {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)}, &handles,
        &db);
    // The default family's handle: the DB's own serves instead.
    for (ColumnFamilyHandle* handle : handles) delete handle;
    if (s.ok()) bank->reset(new OptimisticBankDB(db));
    return s;
  }
  if (kind == "pessimistic" || kind == "pessimistic_2pc") {
    const bool two_phase = kind == "pessimistic_2pc";
    Options txn_options = options;
    txn_options.allow_2pc = two_phase;
    TransactionDB* db = nullptr;
    Status s =
        TransactionDB::Open(txn_options, TransactionDBOptions(), path, &db);
    if (s.ok()) bank->reset(new PessimisticBankDB(db, two_phase));
    return s;
  }
  return Status::InvalidArgument("unknown transaction DB kind ", kind);
}

std::string AccountKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "acct%03d", i);
  return buf;
}

class TransactionBankTest : public testing::TestWithParam<std::string> {};

TEST_P(TransactionBankTest, TotalNeverChanges) {
  TempDir dir(Env::Default(), "bank");
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;  // flushes, so checks read tables
  std::unique_ptr<BankDB> bank;
  ASSERT_TRUE(OpenBank(GetParam(), options, dir.path(), &bank).ok());
  DB* db = bank->db();
  for (int i = 0; i < kAccounts; i++) {
    ASSERT_TRUE(
        db->Put(WriteOptions(), AccountKey(i), std::to_string(kInitialBalance))
            .ok());
  }
  const int64_t expected = int64_t{kAccounts} * kInitialBalance;

  const char* seconds_env = std::getenv("STRATA_BANK_TEST_SECONDS");
  const int seconds = seconds_env != nullptr ? std::atoi(seconds_env) : 0;
  Env* env = Env::Default();
  const uint64_t deadline = env->NowMicros() + uint64_t(seconds) * 1000000;
  std::atomic<int> remaining(kCiTransfers);
  std::atomic<int> committed(0);
  std::atomic<int> conflicts(0);
  std::atomic<bool> done(false);
  std::atomic<bool> failed(false);
  auto more = [&]() {
    if (failed.load()) return false;
    if (seconds > 0) return env->NowMicros() < deadline;
    return remaining.fetch_sub(1) > 0;
  };

  auto transfer = [&](int seed) {
    std::mt19937 rng(seed);
    Transaction* txn = nullptr;
    while (more()) {
      const int from = rng() % kAccounts;
      const int to = (from + 1 + rng() % (kAccounts - 1)) % kAccounts;
      const int amount = rng() % 50;
      for (;;) {  // until committed
        txn = bank->Begin(txn);
        std::string a, b;
        Status s = txn->GetForUpdate(ReadOptions(), AccountKey(from), &a);
        if (s.ok()) s = txn->GetForUpdate(ReadOptions(), AccountKey(to), &b);
        if (s.ok()) {
          s = txn->Put(AccountKey(from),
                       std::to_string(std::stoll(a) - amount));
        }
        if (s.ok()) {
          s = txn->Put(AccountKey(to), std::to_string(std::stoll(b) + amount));
        }
        if (s.ok()) s = bank->Commit(txn);
        if (s.ok()) {
          committed++;
          break;
        }
        if (!bank->Retry(s)) {
          ADD_FAILURE() << "transfer: " << s.ToString();
          failed = true;
          break;
        }
        conflicts++;
        EXPECT_TRUE(txn->Rollback().ok());
      }
    }
    delete txn;
  };

  int checks = 0;
  auto check = [&]() {
    while (!done.load() && !failed.load()) {
      const Snapshot* snapshot = db->GetSnapshot();
      ReadOptions ro;
      ro.snapshot = snapshot;
      int64_t by_get = 0;
      for (int i = 0; i < kAccounts; i++) {
        std::string v;
        Status s = db->Get(ro, AccountKey(i), &v);
        if (!s.ok()) {
          ADD_FAILURE() << "Get: " << s.ToString();
          failed = true;
          break;
        }
        by_get += std::stoll(v);
      }
      int64_t by_iterator = 0;
      int seen = 0;
      std::unique_ptr<Iterator> it(db->NewIterator(ro));
      for (it->SeekToFirst(); it->Valid(); it->Next(), seen++) {
        by_iterator += std::stoll(it->value().ToString());
      }
      EXPECT_TRUE(it->status().ok());
      it.reset();
      db->ReleaseSnapshot(snapshot);
      EXPECT_EQ(by_get, expected);
      EXPECT_EQ(by_iterator, expected);
      EXPECT_EQ(seen, kAccounts);
      if (by_get != expected || by_iterator != expected) failed = true;
      if (++checks % 16 == 0) {
        EXPECT_TRUE(db->Flush(FlushOptions()).ok());
      }
    }
  };

  std::thread checker(check);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) threads.emplace_back(transfer, 301 + t);
  for (std::thread& t : threads) t.join();
  done = true;
  checker.join();

  // The final state, through a transaction's own iterator too.
  std::unique_ptr<Transaction> txn(bank->Begin(nullptr));
  std::unique_ptr<Iterator> it(txn->GetIterator(ReadOptions()));
  int64_t total = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    total += std::stoll(it->value().ToString());
  }
  EXPECT_EQ(total, expected);
  EXPECT_GT(committed.load(), 0);
  EXPECT_GT(checks, 0);
  std::fprintf(stderr, "%s: %d transfers committed, %d conflicts, %d checks\n",
               GetParam().c_str(), committed.load(), conflicts.load(), checks);
}

INSTANTIATE_TEST_SUITE_P(Kinds, TransactionBankTest,
                         testing::Values(std::string("optimistic"),
                                         std::string("optimistic_serial"),
                                         std::string("pessimistic"),
                                         std::string("pessimistic_2pc")));

}  // namespace
}  // namespace test
}  // namespace strata
