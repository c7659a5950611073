// The two validation policies of OptimisticTransactionDB: kValidateSerial
// (the check inside the write path) and kValidateParallel (RocksDB's
// default: the check under the tracked keys' bucket locks, the write in
// the ordinary write path), and the bucket locks themselves.

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/utilities/transactions/occ_lock_buckets.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {
namespace {

TEST(OccLockBucketsTest, SizeIsClampedAndLocksAreTakenOnce) {
  EXPECT_EQ(1u, OccLockBuckets(0).size());
  EXPECT_EQ(7u, OccLockBuckets(7).size());
  EXPECT_EQ(OccLockBuckets::kMaxBuckets, OccLockBuckets(1u << 20).size());

  OccLockBuckets buckets(16);
  std::vector<size_t> mine;
  for (int i = 0; i < 100; i++) {
    const size_t b = buckets.BucketOf(i % 3, "k" + std::to_string(i));
    ASSERT_LT(b, 16u);
    mine.push_back(b);
  }
  mine.push_back(mine.front());  // a duplicate: locked once, not twice
  buckets.Lock(&mine);
  EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end()));
  EXPECT_TRUE(std::adjacent_find(mine.begin(), mine.end()) == mine.end());

  // Another thread waits for a bucket held here, and gets it on Unlock.
  std::atomic<bool> got{false};
  std::thread other([&] {
    std::vector<size_t> one{mine.back()};
    buckets.Lock(&one);
    got = true;
    buckets.Unlock(one);
  });
  EXPECT_FALSE(got.load());
  buckets.Unlock(mine);
  other.join();
  EXPECT_TRUE(got.load());
}

class OccPolicyTest : public testing::TestWithParam<OccValidationPolicy> {
 protected:
  OccPolicyTest() : dir_(Env::Default(), "occ_policy") {
    Options options;
    options.create_if_missing = true;
    OptimisticTransactionDBOptions occ_options;
    occ_options.validate_policy = GetParam();
    occ_options.occ_lock_buckets = 4;  // few: unrelated keys share some
    std::vector<ColumnFamilyHandle*> handles;
    OptimisticTransactionDB* db = nullptr;
    Status s = OptimisticTransactionDB::Open(
        options, occ_options, dir_.path(),
        {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)}, &handles,
        &db);
    EXPECT_TRUE(s.ok()) << s.ToString();
    for (ColumnFamilyHandle* handle : handles) delete handle;
    db_.reset(db);
  }

  TempDir dir_;
  std::unique_ptr<OptimisticTransactionDB> db_;
};

TEST_P(OccPolicyTest, WritesSinceTheReadFailTheCommit) {
  std::unique_ptr<Transaction> txn(db_->BeginTransaction(WriteOptions()));
  std::string value;
  ASSERT_TRUE(txn->GetForUpdate(ReadOptions(), "k", &value).IsNotFound());
  ASSERT_TRUE(txn->Put("k", "txn").ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "plain").ok());
  EXPECT_TRUE(txn->Commit().IsBusy());
  ASSERT_TRUE(db_->Get(ReadOptions(), "k", &value).ok());
  EXPECT_EQ("plain", value);

  // Another transaction's commit counts the same.
  std::unique_ptr<Transaction> a(db_->BeginTransaction(WriteOptions()));
  std::unique_ptr<Transaction> b(db_->BeginTransaction(WriteOptions()));
  ASSERT_TRUE(a->GetForUpdate(ReadOptions(), "k", &value).ok());
  ASSERT_TRUE(b->GetForUpdate(ReadOptions(), "k", &value).ok());
  ASSERT_TRUE(a->Put("k", "a").ok());
  ASSERT_TRUE(b->Put("k", "b").ok());
  ASSERT_TRUE(a->Commit().ok());
  EXPECT_TRUE(b->Commit().IsBusy());
  ASSERT_TRUE(db_->Get(ReadOptions(), "k", &value).ok());
  EXPECT_EQ("a", value);
}

// Increments of one counter from many threads, each a read-modify-write
// retried on Busy: none is lost, whichever policy checks them.
TEST_P(OccPolicyTest, ConcurrentIncrementsAreNeverLost) {
  constexpr int kThreads = 6;
  constexpr int kIncrements = 150;
  ASSERT_TRUE(db_->Put(WriteOptions(), "counter", "0").ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Transaction* txn = nullptr;
      for (int done = 0; done < kIncrements;) {
        txn = db_->BeginTransaction(WriteOptions(),
                                    OptimisticTransactionOptions(), txn);
        std::string value;
        Status s = txn->GetForUpdate(ReadOptions(), "counter", &value);
        ASSERT_TRUE(s.ok()) << s.ToString();
        // A key of this thread's own in the same commit: the buckets of
        // several keys are locked together.
        ASSERT_TRUE(txn->Put("own" + std::to_string(t), value).ok());
        ASSERT_TRUE(
            txn->Put("counter", std::to_string(std::stoi(value) + 1)).ok());
        s = txn->Commit();
        if (s.ok()) {
          done++;
        } else {
          ASSERT_TRUE(s.IsBusy()) << s.ToString();
        }
      }
      delete txn;
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::string value;
  ASSERT_TRUE(db_->Get(ReadOptions(), "counter", &value).ok());
  EXPECT_EQ(std::to_string(kThreads * kIncrements), value);
}

INSTANTIATE_TEST_SUITE_P(
    Policies, OccPolicyTest,
    testing::Values(OccValidationPolicy::kValidateSerial,
                    OccValidationPolicy::kValidateParallel),
    [](const testing::TestParamInfo<OccValidationPolicy>& info) {
      return std::string(info.param == OccValidationPolicy::kValidateSerial
                             ? "Serial"
                             : "Parallel");
    });

}  // namespace
}  // namespace test
}  // namespace strata
