// The lock limit (TransactionDBOptions::max_num_locks) across stripes: a
// request waiting for a free slot is woken by a release in any stripe of
// its column family, not only in its own; and the stripes never take
// more slots between them than the limit.

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/utilities/transactions/lock/point_lock_manager.h"
#include "db/utilities/transactions/lock/transaction_db_mutex_impl.h"
#include "gtest/gtest.h"
#include "test/db/utilities/transaction_lock_test_util.h"
#include "util/hash.h"

namespace strata {
namespace test {
namespace {

// Condition variables that count the waits begun, so a test knows a
// request is asleep before it releases what the request waits for.
class WaitCountingCondVar : public TransactionDBCondVar {
 public:
  WaitCountingCondVar(std::shared_ptr<TransactionDBCondVar> target,
                      std::atomic<int>* waits)
      : target_(std::move(target)), waits_(waits) {}
  Status Wait(std::shared_ptr<TransactionDBMutex> mutex) override {
    waits_->fetch_add(1);
    return target_->Wait(std::move(mutex));
  }
  Status WaitFor(std::shared_ptr<TransactionDBMutex> mutex,
                 int64_t timeout_time) override {
    waits_->fetch_add(1);
    return target_->WaitFor(std::move(mutex), timeout_time);
  }
  void Notify() override { target_->Notify(); }
  void NotifyAll() override { target_->NotifyAll(); }

 private:
  std::shared_ptr<TransactionDBCondVar> target_;
  std::atomic<int>* waits_;
};

class WaitCountingFactory : public TransactionDBMutexFactoryImpl {
 public:
  std::shared_ptr<TransactionDBCondVar> AllocateCondVar() override {
    return std::make_shared<WaitCountingCondVar>(
        TransactionDBMutexFactoryImpl::AllocateCondVar(), &waits);
  }
  std::atomic<int> waits{0};
};

TEST(TransactionLockLimitTest, ReleaseInAnotherStripeWakesALimitWaiter) {
  constexpr size_t kStripes = 16;
  auto factory = std::make_shared<WaitCountingFactory>();
  TransactionDBOptions options;
  options.num_stripes = kStripes;
  options.max_num_locks = 1;
  options.custom_mutex_factory = factory;
  LockClockEnv env;
  TestStealer stealer;
  PointLockManager mgr(options, &env, &stealer);

  // Two keys in different stripes (the manager picks a stripe by
  // GetSliceHash modulo the number of stripes).
  const std::string held = "a";
  std::string wanted;
  for (int i = 0; wanted.empty(); i++) {
    const std::string candidate = "b" + std::to_string(i);
    if (GetSliceHash(candidate) % kStripes != GetSliceHash(held) % kStripes) {
      wanted = candidate;
    }
  }

  ASSERT_TRUE(mgr.TryLock(Req(1), 0, held, true).ok());
  Status s = mgr.TryLock(Req(2), 0, wanted, true);
  ASSERT_TRUE(s.IsBusy() && s.subcode() == Status::kLockLimit) << s.ToString();

  // No timeout: only a wake-up ends this wait.
  Status waited;
  std::thread waiter([&] {
    waited = mgr.TryLock(Req(2, /*timeout_us=*/-1), 0, wanted, true);
  });
  while (factory->waits.load() == 0) std::this_thread::yield();
  mgr.UnLock(1, 0, held);
  waiter.join();
  EXPECT_TRUE(waited.ok()) << waited.ToString();

  // The same through the release of a transaction's whole key set.
  ASSERT_TRUE(mgr.TryLock(Req(3), 0, held, true).IsBusy());
  const int waits_before = factory->waits.load();
  std::thread second(
      [&] { waited = mgr.TryLock(Req(3, /*timeout_us=*/-1), 0, held, true); });
  while (factory->waits.load() == waits_before) std::this_thread::yield();
  LockedKeys keys;
  keys[0].push_back(wanted);
  mgr.UnLock(2, keys);
  second.join();
  EXPECT_TRUE(waited.ok()) << waited.ToString();
}

// Threads locking new keys in many stripes at once never take more than
// max_num_locks keys between them: the slots are counted family-wide.
TEST(TransactionLockLimitTest, ConcurrentStripesNeverOvershoot) {
  constexpr int kLimit = 5;
  constexpr int kThreads = 8;
  TransactionDBOptions options;
  options.num_stripes = 64;
  options.max_num_locks = kLimit;
  LockClockEnv env;
  TestStealer stealer;
  PointLockManager mgr(options, &env, &stealer);
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; i++) {
        const std::string key = std::to_string(t) + "." + std::to_string(i);
        Status s = mgr.TryLock(Req(t + 1), 0, key, true);
        if (s.ok()) {
          granted.fetch_add(1);
        } else {
          EXPECT_EQ(Status::kLockLimit, s.subcode()) << s.ToString();
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(kLimit, granted.load());
  EXPECT_EQ(static_cast<size_t>(kLimit), mgr.GetLockStatusData().size());
}

}  // namespace
}  // namespace test
}  // namespace strata
