// Helpers of the lock manager's suites: a settable clock, a stealer the
// test answers for, requests, and waiting for a waiter to be recorded.

#ifndef STRATA_TEST_DB_UTILITIES_TRANSACTION_LOCK_TEST_UTIL_H_
#define STRATA_TEST_DB_UTILITIES_TRANSACTION_LOCK_TEST_UTIL_H_

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "db/utilities/transactions/lock/point_lock_manager.h"
#include "strata/env.h"

namespace strata {
namespace test {

// Env::Default() with a clock (microseconds) the test sets.
class LockClockEnv : public EnvWrapper {
 public:
  LockClockEnv() : EnvWrapper(Env::Default()) {}
  uint64_t NowMicros() override { return now_.load(); }
  void Set(uint64_t micros) { now_.store(micros); }

 private:
  std::atomic<uint64_t> now_{1000000};
};

// Agrees to steal or not as told, and records whom it was asked about.
class TestStealer : public ExpiredLockStealer {
 public:
  bool TryStealingLocks(TransactionID holder) override {
    std::lock_guard<std::mutex> l(mu_);
    asked_.push_back(holder);
    return std::find(agree_.begin(), agree_.end(), holder) != agree_.end();
  }
  void Agree(TransactionID holder) {
    std::lock_guard<std::mutex> l(mu_);
    agree_.push_back(holder);
  }
  std::vector<TransactionID> Asked() {
    std::lock_guard<std::mutex> l(mu_);
    return asked_;
  }

 private:
  std::mutex mu_;
  std::vector<TransactionID> agree_;
  std::vector<TransactionID> asked_;
};

inline LockRequest Req(TransactionID id, int64_t timeout_us = 0,
                       bool detect = false, int64_t depth = 50,
                       uint64_t expiration = 0) {
  LockRequest r;
  r.id = id;
  r.timeout_us = timeout_us;
  r.deadlock_detect = detect;
  r.deadlock_detect_depth = depth;
  r.expiration_time_us = expiration;
  return r;
}

// Blocks until the manager records `id` as waiting (its own state, no
// sleeps); returns the holders it waits on.
inline std::vector<TransactionID> AwaitWaiting(PointLockManager* m,
                                               TransactionID id) {
  std::vector<TransactionID> holders;
  while ((holders = m->GetWaitingTxns(id, nullptr, nullptr)).empty()) {
    std::this_thread::yield();
  }
  return holders;
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_UTILITIES_TRANSACTION_LOCK_TEST_UTIL_H_
