// db_bench randomtransaction: its flags (RocksDB's names and defaults, and
// its refusals), the set-sum verifier (which must notice a broken
// invariant), and runs on both transaction DBs that leave equal, non-zero
// sums behind.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/options.h"
#include "test/util/temp_dir.h"
#include "tools/db_bench/bench_options.h"
#include "tools/db_bench/flags.h"
#include "tools/db_bench/transaction_sets.h"
#include "tools/db_bench/workloads.h"

namespace strata {
namespace bench {
namespace {

Flags Defaults() {
  Flags f;
  SetDefaultFlags(&f);
  return f;
}

TEST(DbBenchTransactionTest, FlagsAreRocksDbs) {
  const Flags f = Defaults();
  EXPECT_FALSE(f.transaction_db);
  EXPECT_FALSE(f.optimistic_transaction_db);
  EXPECT_EQ(2u, f.transaction_sets);
  EXPECT_FALSE(f.transaction_set_snapshot);
  EXPECT_EQ(0, f.transaction_sleep);
  EXPECT_EQ(100u, f.transaction_lock_timeout);
}

TEST(DbBenchTransactionTest, ValidationRefusesWhatRocksDbCannotRun) {
  Flags f = Defaults();
  f.benchmarks = "fillrandom,randomtransaction";
  Status s = ValidateFlags(f);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("--transaction_db"));

  f.transaction_db = true;
  EXPECT_TRUE(ValidateFlags(f).ok());
  f.optimistic_transaction_db = true;
  s = ValidateFlags(f);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos,
            s.ToString().find("--optimistic_transaction_db"));
  f.transaction_db = false;
  EXPECT_TRUE(ValidateFlags(f).ok());
  // Both kinds at once are refused whatever the benchmarks.
  f.transaction_db = true;
  f.benchmarks = "fillseq";
  EXPECT_TRUE(ValidateFlags(f).IsInvalidArgument());

  f = Defaults();
  f.transaction_sets = 0;
  EXPECT_TRUE(ValidateFlags(f).IsInvalidArgument());
  f.transaction_sets = 10000;
  EXPECT_TRUE(ValidateFlags(f).IsInvalidArgument());
  f.transaction_sets = 9999;
  EXPECT_TRUE(ValidateFlags(f).ok());
  f.transaction_sleep = -1;
  EXPECT_TRUE(ValidateFlags(f).IsInvalidArgument());
}

TEST(DbBenchTransactionTest, KeysAndValues) {
  EXPECT_EQ("00010", TransactionSetKey(0, 0));
  EXPECT_EQ("0002123", TransactionSetKey(1, 123));
  EXPECT_EQ("99995", TransactionSetKey(9998, 5));
  uint64_t n = 7;
  ASSERT_TRUE(ParseTransactionSetValue(TransactionSetValue(42), &n));
  EXPECT_EQ(42u, n);
  ASSERT_TRUE(ParseTransactionSetValue("18446744073709551615", &n));
  EXPECT_EQ(18446744073709551615ull, n);
  n = 7;
  EXPECT_FALSE(ParseTransactionSetValue("18446744073709551616", &n));
  EXPECT_FALSE(ParseTransactionSetValue("", &n));
  EXPECT_FALSE(ParseTransactionSetValue("-1", &n));
  EXPECT_FALSE(ParseTransactionSetValue("12a", &n));
  EXPECT_FALSE(ParseTransactionSetValue(" 1", &n));
  EXPECT_EQ(7u, n);
}

class TransactionSetsTest : public testing::Test {
 protected:
  TransactionSetsTest() : dir_(Env::Default(), "db_bench_txn_sets") {
    Options options;
    options.create_if_missing = true;
    EXPECT_TRUE(DB::Open(options, dir_.File("db"), &db_).ok());
  }

  void Put(const std::string& key, const std::string& value) {
    ASSERT_TRUE(db_->Put(WriteOptions(), key, value).ok());
  }

  test::TempDir dir_;
  std::unique_ptr<DB> db_;
};

TEST_F(TransactionSetsTest, EqualSumsPass) {
  Put(TransactionSetKey(0, 1), "5");
  Put(TransactionSetKey(0, 22), "7");
  Put(TransactionSetKey(1, 3), "12");
  Put(TransactionSetKey(2, 9), "10");
  Put(TransactionSetKey(2, 90), "2");
  // Keys of no set (another fill's, a set beyond --transaction_sets when
  // fewer are checked) do not count.
  Put("0000000000000001", "not a count");
  std::vector<uint64_t> sums;
  ASSERT_TRUE(VerifyTransactionSets(db_.get(), 3, &sums).ok());
  EXPECT_EQ(std::vector<uint64_t>({12, 12, 12}), sums);
  Put(TransactionSetKey(2, 91), "1");
  ASSERT_TRUE(VerifyTransactionSets(db_.get(), 2, &sums).ok());
  EXPECT_EQ(std::vector<uint64_t>({12, 12}), sums);
}

TEST_F(TransactionSetsTest, UnequalSumsAreReported) {
  Put(TransactionSetKey(0, 1), "5");
  Put(TransactionSetKey(1, 1), "5");
  Put(TransactionSetKey(2, 4), "6");
  std::vector<uint64_t> sums;
  Status s = VerifyTransactionSets(db_.get(), 3, &sums);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("set 3 sums to 6, set 1 to 5"))
      << s.ToString();

  // A set with no keys sums to 0: a lost write to all of a set's keys.
  Put(TransactionSetKey(2, 4), "5");
  s = VerifyTransactionSets(db_.get(), 4, &sums);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("set 4 sums to 0"));
  EXPECT_TRUE(VerifyTransactionSets(db_.get(), 3, &sums).ok());
}

TEST_F(TransactionSetsTest, MalformedValueIsReported) {
  Put(TransactionSetKey(0, 1), "5");
  Put(TransactionSetKey(1, 17), "5x");
  std::vector<uint64_t> sums;
  const Status s = VerifyTransactionSets(db_.get(), 2, &sums);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("key 000217")) << s.ToString();
}

// A whole run on each kind of transaction DB, several threads on few keys
// so that transactions collide: the sums stay equal and grew.
void RunAndVerify(bool optimistic, bool snapshot) {
  test::TempDir dir(Env::Default(), "db_bench_txn_run");
  Flags f = Defaults();
  f.db = dir.File("db");
  f.benchmarks = "fillrandom,randomtransaction";
  f.num = 20;
  f.reads = 400;
  f.threads = 4;
  f.seed = 3;
  f.compression_type = "none";
  f.transaction_sets = 3;
  f.transaction_set_snapshot = snapshot;
  f.transaction_sleep = 50;
  f.transaction_lock_timeout = 1;
  f.transaction_db = !optimistic;
  f.optimistic_transaction_db = optimistic;
  ASSERT_TRUE(ValidateFlags(f).ok());
  testing::internal::CaptureStdout();
  Status s;
  {
    Benchmark run(f);
    s = run.Run();
  }
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(s.ok()) << s.ToString() << "\n" << out;
  EXPECT_NE(std::string::npos, out.find("RandomTransactionVerify Success."))
      << out;
  EXPECT_NE(std::string::npos, out.find("( transactions:")) << out;

  Options options;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(options, f.db, &db).ok());
  std::vector<uint64_t> sums;
  ASSERT_TRUE(VerifyTransactionSets(db.get(), 3, &sums).ok());
  EXPECT_GT(sums[0], 0u);
}

TEST(DbBenchTransactionTest, PessimisticRunKeepsTheSetsEqual) {
  RunAndVerify(/*optimistic=*/false, /*snapshot=*/false);
}

TEST(DbBenchTransactionTest, PessimisticWithSnapshot) {
  RunAndVerify(/*optimistic=*/false, /*snapshot=*/true);
}

TEST(DbBenchTransactionTest, OptimisticRunKeepsTheSetsEqual) {
  RunAndVerify(/*optimistic=*/true, /*snapshot=*/false);
}

TEST(DbBenchTransactionTest, OptimisticWithSnapshot) {
  RunAndVerify(/*optimistic=*/true, /*snapshot=*/true);
}

}  // namespace
}  // namespace bench
}  // namespace strata
