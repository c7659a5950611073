// The lock manager under many threads: transactions lock random keys in
// random modes, with deadlock detection and short timeouts, while the
// test keeps its own record of the holders and checks that no grant ever
// breaks the modes' rules.

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "db/utilities/transactions/lock/point_lock_manager.h"
#include "gtest/gtest.h"
#include "test/db/utilities/transaction_lock_test_util.h"
#include "util/random.h"

namespace strata {
namespace test {
namespace {

// What the test believes is held: per key, the exclusive holder (0 if
// none) and the shared holders.
class HolderModel {
 public:
  // Records a grant; false if it contradicts what is held.
  bool Grant(TransactionID id, const std::string& key, bool exclusive) {
    std::lock_guard<std::mutex> l(mu_);
    Held& h = held_[key];
    if (h.exclusive != 0 && h.exclusive != id) return false;
    if (exclusive) {
      for (TransactionID other : h.shared) {
        if (other != id) return false;
      }
      h.shared.erase(id);
      h.exclusive = id;
    } else if (h.exclusive != id) {
      h.shared.insert(id);
    }
    return true;
  }

  // Forgets id's holds, before the manager releases them.
  void Release(TransactionID id, const std::vector<std::string>& keys) {
    std::lock_guard<std::mutex> l(mu_);
    for (const std::string& key : keys) {
      Held& h = held_[key];
      if (h.exclusive == id) h.exclusive = 0;
      h.shared.erase(id);
    }
  }

 private:
  struct Held {
    TransactionID exclusive = 0;
    std::set<TransactionID> shared;
  };
  std::mutex mu_;
  std::map<std::string, Held> held_;
};

TEST(TransactionLockStressTest, RandomLocksKeepTheModesRules) {
  TransactionDBOptions options;
  options.num_stripes = 4;  // keys share stripes
  PointLockManager mgr(options, Env::Default(), nullptr);
  HolderModel model;
  const int kThreads = 8, kTxnsPerThread = 300, kKeys = 12;
  std::atomic<int> violations{0}, committed{0}, timeouts{0}, deadlocks{0},
      other{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Random rnd(301 + t);
      for (int n = 0; n < kTxnsPerThread; n++) {
        const TransactionID id = (t + 1) * 100000 + n;
        LockRequest req = Req(id, 1000 + rnd.Uniform(2000), rnd.OneIn(2));
        std::vector<std::string> keys;
        Status s;
        const int wanted = 1 + rnd.Uniform(3);
        for (int i = 0; i < wanted && s.ok(); i++) {
          const std::string key = "k" + std::to_string(rnd.Uniform(kKeys));
          const bool exclusive = rnd.OneIn(2);
          s = mgr.TryLock(req, 0, key, exclusive);
          if (s.ok()) {
            keys.push_back(key);
            if (!model.Grant(id, key, exclusive)) violations++;
          }
        }
        if (s.ok()) {
          committed++;
        } else if (s.IsTimedOut() && s.subcode() == Status::kLockTimeout) {
          timeouts++;
        } else if (s.IsDeadlock()) {
          deadlocks++;
        } else {
          other++;
        }
        model.Release(id, keys);
        mgr.UnLock(id, LockedKeys{{0, keys}});
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(0, violations.load());
  EXPECT_EQ(0, other.load());
  EXPECT_GT(committed.load(), 0);
  EXPECT_EQ(kThreads * kTxnsPerThread, committed + timeouts + deadlocks);
  EXPECT_TRUE(mgr.GetLockStatusData().empty());
  for (int t = 0; t < kThreads; t++) {
    EXPECT_TRUE(mgr.GetWaitingTxns((t + 1) * 100000, nullptr, nullptr).empty());
  }
}

}  // namespace
}  // namespace test
}  // namespace strata
