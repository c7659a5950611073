// The pessimistic transactions' lock manager without a DB: lock modes,
// waits and timeouts, upgrades, the lock limit, expiration with a fake
// clock, the lock status report and the default mutex factory.

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/utilities/transactions/lock/point_lock_manager.h"
#include "db/utilities/transactions/lock/transaction_db_mutex_impl.h"
#include "gtest/gtest.h"
#include "test/db/utilities/transaction_lock_test_util.h"

namespace strata {
namespace test {
namespace {

bool IsLockTimeout(const Status& s) {
  return s.IsTimedOut() && s.subcode() == Status::kLockTimeout;
}

class TransactionLockTest : public testing::Test {
 protected:
  TransactionLockTest() { Reset(TransactionDBOptions()); }

  void Reset(const TransactionDBOptions& options) {
    mgr_.reset(new PointLockManager(options, &env_, &stealer_));
  }

  // The holders and mode of (cf, key) in GetLockStatusData(); "" if free.
  std::string Holders(uint32_t cf, const std::string& key) {
    auto data = mgr_->GetLockStatusData();
    auto range = data.equal_range(cf);
    for (auto it = range.first; it != range.second; ++it) {
      if (it->second.key != key) continue;
      std::string out = it->second.exclusive ? "X" : "S";
      for (TransactionID id : it->second.ids) out += std::to_string(id);
      return out;
    }
    return "";
  }

  LockClockEnv env_;
  TestStealer stealer_;
  std::unique_ptr<PointLockManager> mgr_;
};

TEST_F(TransactionLockTest, SharedLocksAreCompatible) {
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "k", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(2), 0, "k", false).ok());
  EXPECT_EQ("S12", Holders(0, "k"));
  mgr_->UnLock(1, 0, "k");
  EXPECT_EQ("S2", Holders(0, "k"));
  mgr_->UnLock(2, 0, "k");
  EXPECT_EQ("", Holders(0, "k"));
}

TEST_F(TransactionLockTest, ExclusiveExcludesEveryone) {
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "s", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "x", true).ok());
  Status s = mgr_->TryLock(Req(2), 0, "s", true);
  EXPECT_TRUE(IsLockTimeout(s)) << s.ToString();
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(2), 0, "x", false)));
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(2), 0, "x", true)));
  // The same key in another family is another lock.
  EXPECT_TRUE(mgr_->TryLock(Req(2), 1, "x", true).ok());
  EXPECT_EQ("S1", Holders(0, "s"));
  EXPECT_EQ("X1", Holders(0, "x"));
  EXPECT_EQ("X2", Holders(1, "x"));
}

TEST_F(TransactionLockTest, TimedWaitEndsWithLockTimeout) {
  Reset(TransactionDBOptions());  // the real clock is not needed: waits
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "k", true).ok());
  const auto start = std::chrono::steady_clock::now();
  Status s = mgr_->TryLock(Req(2, /*timeout_us=*/5000), 0, "k", true);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(IsLockTimeout(s)) << s.ToString();
  EXPECT_GE(waited, std::chrono::microseconds(5000));
  // A timed-out waiter leaves no trace.
  EXPECT_TRUE(mgr_->GetWaitingTxns(2, nullptr, nullptr).empty());
  EXPECT_EQ("X1", Holders(0, "k"));
}

TEST_F(TransactionLockTest, WaiterIsGrantedWhenHolderUnlocks) {
  ASSERT_TRUE(mgr_->TryLock(Req(1), 3, "k", true).ok());
  Status waited;
  std::thread waiter([&] {
    waited = mgr_->TryLock(Req(2, /*timeout_us=*/-1), 3, "k", false);
  });
  uint32_t cf = 0;
  std::string key;
  while (mgr_->GetWaitingTxns(2, &cf, &key).empty()) std::this_thread::yield();
  EXPECT_EQ(3u, cf);
  EXPECT_EQ("k", key);
  EXPECT_EQ(std::vector<TransactionID>{1}, mgr_->GetWaitingTxns(2, &cf, &key));
  mgr_->UnLock(1, 3, "k");
  waiter.join();
  EXPECT_TRUE(waited.ok()) << waited.ToString();
  EXPECT_EQ("S2", Holders(3, "k"));
  EXPECT_TRUE(mgr_->GetWaitingTxns(2, nullptr, nullptr).empty());
}

TEST_F(TransactionLockTest, ReentranceAndUpgrade) {
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "k", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "k", false).ok());
  EXPECT_EQ("S1", Holders(0, "k"));                       // not listed twice
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "k", true).ok());  // sole holder
  EXPECT_EQ("X1", Holders(0, "k"));
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "k", false).ok());
  EXPECT_EQ("X1", Holders(0, "k"));  // never downgraded
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(2), 0, "k", false)));
  mgr_->UnLock(1, 0, "k");  // one release frees it, however often taken
  EXPECT_EQ("", Holders(0, "k"));
}

TEST_F(TransactionLockTest, UpgradeWaitsForOtherSharedHolders) {
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "k", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(2), 0, "k", false).ok());
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(1), 0, "k", true)));
  EXPECT_EQ("S12", Holders(0, "k"));
  Status upgraded;
  std::thread waiter([&] {
    upgraded = mgr_->TryLock(Req(1, /*timeout_us=*/-1), 0, "k", true);
  });
  // It waits on the other holder only, never on itself.
  EXPECT_EQ(std::vector<TransactionID>{2}, AwaitWaiting(mgr_.get(), 1));
  mgr_->UnLock(2, 0, "k");
  waiter.join();
  EXPECT_TRUE(upgraded.ok()) << upgraded.ToString();
  EXPECT_EQ("X1", Holders(0, "k"));
}

TEST_F(TransactionLockTest, MaxNumLocksPerColumnFamily) {
  TransactionDBOptions options;
  options.max_num_locks = 2;
  Reset(options);
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "a", true).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(2), 0, "b", false).ok());
  Status s = mgr_->TryLock(Req(1), 0, "c", true);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_EQ(Status::kLockLimit, s.subcode());
  // With a timeout it waits for a release, then gives up the same way.
  s = mgr_->TryLock(Req(1, /*timeout_us=*/2000), 0, "c", true);
  EXPECT_TRUE(s.IsBusy() && s.subcode() == Status::kLockLimit) << s.ToString();
  // Keys already locked are not new locks; other families count apart.
  EXPECT_TRUE(mgr_->TryLock(Req(1), 0, "a", true).ok());
  EXPECT_TRUE(mgr_->TryLock(Req(3), 0, "b", false).ok());
  EXPECT_TRUE(mgr_->TryLock(Req(1), 1, "c", true).ok());
  // A shared key counts once, until its last holder leaves.
  mgr_->UnLock(2, 0, "b");
  EXPECT_TRUE(mgr_->TryLock(Req(1), 0, "c", true).IsBusy());
  mgr_->UnLock(3, 0, "b");
  EXPECT_TRUE(mgr_->TryLock(Req(1), 0, "c", true).ok());
  EXPECT_EQ("X1", Holders(0, "c"));
}

TEST_F(TransactionLockTest, ReleaseManyAtOnce) {
  TransactionDBOptions options;
  options.num_stripes = 2;  // several keys per stripe
  Reset(options);
  LockedKeys keys;
  for (int i = 0; i < 20; i++) {
    const std::string key = "k" + std::to_string(i);
    ASSERT_TRUE(mgr_->TryLock(Req(1), i % 2, key, i % 3 == 0).ok());
    keys[i % 2].push_back(key);
  }
  ASSERT_TRUE(mgr_->TryLock(Req(2), 0, "k2", false).ok());  // shared with 1
  ASSERT_TRUE(mgr_->TryLock(Req(2), 0, "other", true).ok());
  keys[7].push_back("none");  // a family never locked: ignored
  mgr_->UnLock(1, keys);
  auto data = mgr_->GetLockStatusData();
  ASSERT_EQ(2u, data.size());
  EXPECT_EQ("S2", Holders(0, "k2"));
  EXPECT_EQ("X2", Holders(0, "other"));
}

TEST_F(TransactionLockTest, LockStatusData) {
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "a", true).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(2), 0, "b", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(3), 0, "b", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(3), 5, "a", true).ok());
  auto data = mgr_->GetLockStatusData();
  ASSERT_EQ(3u, data.size());
  EXPECT_EQ(2u, data.count(0));
  EXPECT_EQ(1u, data.count(5));
  const KeyLockInfo& five = data.find(5)->second;
  EXPECT_EQ("a", five.key);
  EXPECT_TRUE(five.exclusive);
  EXPECT_EQ(std::vector<TransactionID>{3}, five.ids);
  EXPECT_EQ("X1", Holders(0, "a"));
  EXPECT_EQ("S23", Holders(0, "b"));
  mgr_->RemoveColumnFamily(5);
  EXPECT_EQ(0u, mgr_->GetLockStatusData().count(5));
}

// Expiration: the fake clock decides when a holder has expired; the
// stealer decides whether its locks may be taken.
TEST_F(TransactionLockTest, ExpiredHolderLosesItsLockOnlyIfTheStealerAgrees) {
  env_.Set(1000);
  ASSERT_TRUE(
      mgr_->TryLock(Req(1, 0, false, 50, /*expiration=*/2000), 0, "k", true)
          .ok());
  // Not yet expired: the stealer is not even asked.
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(2), 0, "k", true)));
  EXPECT_TRUE(stealer_.Asked().empty());
  env_.Set(2000);
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(2), 0, "k", true)));
  EXPECT_EQ(std::vector<TransactionID>{1}, stealer_.Asked());
  // Refused, a timed request waits its timeout out.
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(2, 2000), 0, "k", true)));
  EXPECT_EQ("X1", Holders(0, "k"));
  stealer_.Agree(1);
  ASSERT_TRUE(mgr_->TryLock(Req(2), 0, "k", false).ok());
  EXPECT_EQ("S2", Holders(0, "k"));
  // The former holder's release does not touch the new holder's lock.
  mgr_->UnLock(1, 0, "k");
  EXPECT_EQ("S2", Holders(0, "k"));
  mgr_->UnLock(2, 0, "k");
  EXPECT_EQ("", Holders(0, "k"));
}

TEST_F(TransactionLockTest, WaiterTakesTheLockWhenTheHolderExpires) {
  env_.Set(1000);
  stealer_.Agree(1);
  ASSERT_TRUE(mgr_->TryLock(Req(1, 0, false, 50, 5000), 0, "k", true).ok());
  Status s;
  std::thread waiter([&] { s = mgr_->TryLock(Req(2, -1), 0, "k", true); });
  AwaitWaiting(mgr_.get(), 2);
  EXPECT_TRUE(stealer_.Asked().empty());
  // The waiter looks again when the holder's expiration time comes (it
  // sleeps until then by the clock), without any release.
  env_.Set(5000);
  waiter.join();
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(std::vector<TransactionID>{1}, stealer_.Asked());
  EXPECT_EQ("X2", Holders(0, "k"));
}

TEST_F(TransactionLockTest, SharedLockExpiresOnlyWhenEveryHolderDoes) {
  env_.Set(1000);
  ASSERT_TRUE(mgr_->TryLock(Req(1, 0, false, 50, 2000), 0, "k", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(2, 0, false, 50, 3000), 0, "k", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(3, 0, false, 50, 0), 0, "n", false).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(4, 0, false, 50, 2000), 0, "n", false).ok());
  stealer_.Agree(1);
  stealer_.Agree(2);
  stealer_.Agree(3);
  stealer_.Agree(4);
  env_.Set(2500);  // 1 has expired, 2 has not
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(9), 0, "k", true)));
  EXPECT_TRUE(stealer_.Asked().empty());
  env_.Set(1000000);  // 3 never expires, so neither does "n"
  EXPECT_TRUE(IsLockTimeout(mgr_->TryLock(Req(9), 0, "n", true)));
  EXPECT_TRUE(stealer_.Asked().empty());
  ASSERT_TRUE(mgr_->TryLock(Req(9), 0, "k", true).ok());
  EXPECT_EQ(2u, stealer_.Asked().size());
  EXPECT_EQ("X9", Holders(0, "k"));
}

TEST_F(TransactionLockTest, NoStealerNoStealing) {
  PointLockManager mgr(TransactionDBOptions(), &env_, nullptr);
  env_.Set(1000);
  ASSERT_TRUE(mgr.TryLock(Req(1, 0, false, 50, 1500), 0, "k", true).ok());
  env_.Set(9000);
  EXPECT_TRUE(IsLockTimeout(mgr.TryLock(Req(2), 0, "k", true)));
}

// Counts what it allocates, so the manager is seen using it.
class CountingFactory : public TransactionDBMutexFactoryImpl {
 public:
  std::shared_ptr<TransactionDBMutex> AllocateMutex() override {
    mutexes++;
    return TransactionDBMutexFactoryImpl::AllocateMutex();
  }
  std::shared_ptr<TransactionDBCondVar> AllocateCondVar() override {
    condvars++;
    return TransactionDBMutexFactoryImpl::AllocateCondVar();
  }
  int mutexes = 0;
  int condvars = 0;
};

TEST_F(TransactionLockTest, StripesComeFromTheMutexFactory) {
  auto factory = std::make_shared<CountingFactory>();
  TransactionDBOptions options;
  options.num_stripes = 3;
  options.custom_mutex_factory = factory;
  Reset(options);
  EXPECT_EQ(0,
            factory->mutexes);  // a family's stripes come with its first lock
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "a", true).ok());
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "b", true).ok());
  EXPECT_EQ(3, factory->mutexes);
  EXPECT_EQ(3, factory->condvars);
  ASSERT_TRUE(mgr_->TryLock(Req(1), 2, "a", true).ok());
  EXPECT_EQ(6, factory->mutexes);
}

// Condition variables whose waits fail: a waiting request fails with
// their status (not a lock timeout) and leaves no wait recorded.
class RefusingCondVar : public TransactionDBCondVar {
 public:
  Status Wait(std::shared_ptr<TransactionDBMutex>) override {
    return Status::Aborted("wait refused");
  }
  Status WaitFor(std::shared_ptr<TransactionDBMutex>, int64_t) override {
    return Status::Aborted("wait refused");
  }
  void Notify() override {}
  void NotifyAll() override {}
};

class RefusingWaitFactory : public TransactionDBMutexFactoryImpl {
 public:
  std::shared_ptr<TransactionDBCondVar> AllocateCondVar() override {
    return std::make_shared<RefusingCondVar>();
  }
};

TEST_F(TransactionLockTest, FailedWaitEndsTheRequest) {
  TransactionDBOptions options;
  options.custom_mutex_factory = std::make_shared<RefusingWaitFactory>();
  Reset(options);
  ASSERT_TRUE(mgr_->TryLock(Req(1), 0, "k", true).ok());
  for (int64_t timeout : {int64_t{-1}, int64_t{100000}}) {
    Status s = mgr_->TryLock(Req(2, timeout), 0, "k", true);
    EXPECT_TRUE(s.IsAborted()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("wait refused"));
    EXPECT_TRUE(mgr_->GetWaitingTxns(2, nullptr, nullptr).empty());
  }
  EXPECT_EQ("X1", Holders(0, "k"));
}

TEST(TransactionDBMutexImplTest, TimedWaitsAndTryLock) {
  TransactionDBMutexFactoryImpl factory;
  std::shared_ptr<TransactionDBMutex> mu = factory.AllocateMutex();
  std::shared_ptr<TransactionDBCondVar> cv = factory.AllocateCondVar();
  ASSERT_TRUE(mu->Lock().ok());
  std::thread other([&] { EXPECT_TRUE(mu->TryLockFor(0).IsTimedOut()); });
  other.join();
  EXPECT_TRUE(cv->WaitFor(mu, 1000).IsTimedOut());  // nobody notifies
  mu->UnLock();
  // A notification ends a wait that would otherwise last forever.
  bool ready = false;
  Status woke;
  ASSERT_TRUE(mu->Lock().ok());
  std::thread waiter([&] {
    ASSERT_TRUE(mu->Lock().ok());
    ready = true;
    cv->NotifyAll();
    mu->UnLock();
  });
  while (!ready) woke = cv->Wait(mu);
  mu->UnLock();
  waiter.join();
  EXPECT_TRUE(woke.ok());
  EXPECT_TRUE(mu->TryLockFor(0).ok());
  mu->UnLock();
}

}  // namespace
}  // namespace test
}  // namespace strata
