// Deadlock detection in the lock manager: cycles of two and three
// transactions (the path recorded hop by hop), the search's depth limit,
// waits without detection, and the ring of recorded deadlocks.

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/utilities/transactions/lock/deadlock_info_buffer.h"
#include "db/utilities/transactions/lock/point_lock_manager.h"
#include "gtest/gtest.h"
#include "test/db/utilities/transaction_lock_test_util.h"

namespace strata {
namespace test {
namespace {

// "id:cf:key:X|S" for each hop, or "limit" when the depth was exceeded.
std::string PathString(const DeadlockPath& path) {
  if (path.limit_exceeded) return "limit";
  std::string out;
  for (const DeadlockInfo& hop : path.path) {
    if (!out.empty()) out += " ";
    out += std::to_string(hop.m_txn_id) + ":" + std::to_string(hop.m_cf_id) +
           ":" + hop.m_waiting_key + ":" + (hop.m_exclusive ? "X" : "S");
  }
  return out;
}

std::vector<std::string> Paths(const std::vector<DeadlockPath>& paths) {
  std::vector<std::string> out;
  for (const DeadlockPath& p : paths) out.push_back(PathString(p));
  return out;
}

class TransactionDeadlockTest : public testing::Test {
 protected:
  TransactionDeadlockTest() : mgr_(Options(5), &env_, nullptr) {
    env_.Set(7000000);  // deadlock times are in seconds: 7
  }

  static TransactionDBOptions Options(uint32_t max_deadlocks) {
    TransactionDBOptions options;
    options.max_num_deadlocks = max_deadlocks;
    return options;
  }

  // Runs TryLock in a thread that waits forever; Join() returns its
  // status.
  struct Waiter {
    std::thread thread;
    Status status;
    Status Join() {
      thread.join();
      return status;
    }
  };
  std::unique_ptr<Waiter> StartWaiting(TransactionID id, uint32_t cf,
                                       const std::string& key, bool exclusive,
                                       bool detect = true) {
    std::unique_ptr<Waiter> w(new Waiter);
    Waiter* raw = w.get();
    w->thread = std::thread([this, raw, id, cf, key, exclusive, detect] {
      raw->status = mgr_.TryLock(Req(id, -1, detect), cf, key, exclusive);
    });
    AwaitWaiting(&mgr_, id);
    return w;
  }

  // A two-transaction deadlock on keys named after tag: returns what the
  // second transaction got.
  Status MakeDeadlock(const std::string& tag) {
    const std::string a = tag + "a", b = tag + "b";
    EXPECT_TRUE(mgr_.TryLock(Req(1), 0, a, true).ok());
    EXPECT_TRUE(mgr_.TryLock(Req(2), 0, b, true).ok());
    std::unique_ptr<Waiter> w = StartWaiting(1, 0, b, true);
    Status s = mgr_.TryLock(Req(2, -1, true), 0, a, true);
    mgr_.UnLock(2, 0, b);
    EXPECT_TRUE(w->Join().ok());
    mgr_.UnLock(1, LockedKeys{{0, {a, b}}});
    return s;
  }

  LockClockEnv env_;
  PointLockManager mgr_;
};

TEST_F(TransactionDeadlockTest, TwoTransactions) {
  ASSERT_TRUE(mgr_.TryLock(Req(1), 0, "a", true).ok());
  ASSERT_TRUE(mgr_.TryLock(Req(2), 4, "b", false).ok());
  std::unique_ptr<Waiter> w = StartWaiting(1, 4, "b", true);
  Status s = mgr_.TryLock(Req(2, -1, true), 0, "a", false);
  ASSERT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_TRUE(s.IsDeadlock());
  // Refused, 2 is not recorded as waiting; 1 still waits for it.
  EXPECT_TRUE(mgr_.GetWaitingTxns(2, nullptr, nullptr).empty());
  EXPECT_EQ(std::vector<TransactionID>{2},
            mgr_.GetWaitingTxns(1, nullptr, nullptr));
  std::vector<DeadlockPath> paths = mgr_.GetDeadlockInfoBuffer();
  ASSERT_EQ(1u, paths.size());
  // From the one the refused transaction waited for, to itself.
  EXPECT_EQ("1:4:b:X 2:0:a:S", PathString(paths[0]));
  EXPECT_EQ(7, paths[0].deadlock_time);
  EXPECT_FALSE(paths[0].empty());
  mgr_.UnLock(2, 4, "b");
  EXPECT_TRUE(w->Join().ok());
}

// A shared holder joining a key someone waits for is added to that
// waiter's wait: a cycle through the newcomer is found.
TEST_F(TransactionDeadlockTest, CycleThroughAHolderWhoJoinedLater) {
  ASSERT_TRUE(mgr_.TryLock(Req(1), 0, "m", true).ok());
  ASSERT_TRUE(mgr_.TryLock(Req(2), 0, "k", false).ok());
  std::unique_ptr<Waiter> w1 = StartWaiting(1, 0, "k", true);
  ASSERT_TRUE(mgr_.TryLock(Req(3), 0, "k", false).ok());
  // 1 records its wait afresh, now for 2 and 3 (bounded: without the
  // wake-up it never would).
  std::vector<TransactionID> holders;
  for (int i = 0; i < 2000000; i++) {
    holders = mgr_.GetWaitingTxns(1, nullptr, nullptr);
    if (holders.size() == 2) break;
    std::this_thread::yield();
  }
  std::sort(holders.begin(), holders.end());
  ASSERT_EQ((std::vector<TransactionID>{2, 3}), holders);
  Status s = mgr_.TryLock(Req(3, 2000000, true), 0, "m", true);
  EXPECT_TRUE(s.IsDeadlock()) << s.ToString();
  mgr_.UnLock(2, 0, "k");
  mgr_.UnLock(3, 0, "k");
  EXPECT_TRUE(w1->Join().ok());
}

TEST_F(TransactionDeadlockTest, ThreeTransactions) {
  ASSERT_TRUE(mgr_.TryLock(Req(1), 0, "k1", true).ok());
  ASSERT_TRUE(mgr_.TryLock(Req(2), 0, "k2", true).ok());
  ASSERT_TRUE(mgr_.TryLock(Req(3), 1, "k3", true).ok());
  std::unique_ptr<Waiter> w1 = StartWaiting(1, 0, "k2", true);
  std::unique_ptr<Waiter> w2 = StartWaiting(2, 1, "k3", false);
  Status s = mgr_.TryLock(Req(3, -1, true), 0, "k1", true);
  ASSERT_TRUE(s.IsDeadlock()) << s.ToString();
  EXPECT_EQ(std::vector<std::string>{"1:0:k2:X 2:1:k3:S 3:0:k1:X"},
            Paths(mgr_.GetDeadlockInfoBuffer()));
  // 3 gives up; the others proceed in turn.
  mgr_.UnLock(3, 1, "k3");
  EXPECT_TRUE(w2->Join().ok());
  mgr_.UnLock(2, LockedKeys{{0, {"k2"}}, {1, {"k3"}}});
  EXPECT_TRUE(w1->Join().ok());
}

TEST_F(TransactionDeadlockTest, WithoutDetectionTheWaitTimesOut) {
  ASSERT_TRUE(mgr_.TryLock(Req(1), 0, "a", true).ok());
  ASSERT_TRUE(mgr_.TryLock(Req(2), 0, "b", true).ok());
  std::unique_ptr<Waiter> w = StartWaiting(1, 0, "b", true);
  Status s = mgr_.TryLock(Req(2, 3000, /*detect=*/false), 0, "a", true);
  EXPECT_TRUE(s.IsTimedOut() && s.subcode() == Status::kLockTimeout)
      << s.ToString();
  EXPECT_TRUE(mgr_.GetDeadlockInfoBuffer().empty());
  mgr_.UnLock(2, 0, "b");
  EXPECT_TRUE(w->Join().ok());
}

TEST_F(TransactionDeadlockTest, DepthLimit) {
  // A chain of waits 1 -> 2 -> 3 -> 4 -> 5, 5 running: no cycle. 9 will
  // ask for 1's key while 8 waits for 9 (a transaction nobody waits for
  // cannot close a cycle, and is not searched from).
  const int kChain = 5;
  for (int i = 1; i <= kChain; i++) {
    ASSERT_TRUE(mgr_.TryLock(Req(i), 0, "k" + std::to_string(i), true).ok());
  }
  ASSERT_TRUE(mgr_.TryLock(Req(9), 0, "k9", true).ok());
  std::unique_ptr<Waiter> w8 = StartWaiting(8, 0, "k9", true, false);
  std::vector<std::unique_ptr<Waiter>> chain;
  for (int i = kChain - 1; i >= 1; i--) {
    chain.push_back(
        StartWaiting(i, 0, "k" + std::to_string(i + 1), true, false));
  }
  // Deep enough, the search ends at 5 and the wait times out.
  Status s = mgr_.TryLock(Req(9, 2000, true, /*depth=*/kChain), 0, "k1", true);
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_TRUE(mgr_.GetDeadlockInfoBuffer().empty());
  // Too shallow, it is taken for a deadlock.
  s = mgr_.TryLock(Req(9, 2000, true, /*depth=*/kChain - 1), 0, "k1", true);
  EXPECT_TRUE(s.IsDeadlock()) << s.ToString();
  std::vector<DeadlockPath> paths = mgr_.GetDeadlockInfoBuffer();
  ASSERT_EQ(1u, paths.size());
  EXPECT_TRUE(paths[0].limit_exceeded);
  EXPECT_TRUE(paths[0].path.empty());
  EXPECT_FALSE(paths[0].empty());
  // Releasing 5 lets the chain unwind: each waiter, once granted,
  // releases both its keys.
  mgr_.UnLock(kChain, 0, "k" + std::to_string(kChain));
  for (int i = kChain - 1; i >= 1; i--) {
    EXPECT_TRUE(chain[kChain - 1 - i]->Join().ok());
    mgr_.UnLock(
        i, LockedKeys{
               {0, {"k" + std::to_string(i), "k" + std::to_string(i + 1)}}});
  }
  mgr_.UnLock(9, 0, "k9");
  EXPECT_TRUE(w8->Join().ok());
  mgr_.UnLock(8, 0, "k9");
  EXPECT_TRUE(mgr_.GetLockStatusData().empty());
}

TEST_F(TransactionDeadlockTest, BufferKeepsTheNewestAndResizes) {
  mgr_.Resize(2);
  EXPECT_TRUE(MakeDeadlock("x").IsDeadlock());
  EXPECT_TRUE(MakeDeadlock("y").IsDeadlock());
  EXPECT_TRUE(MakeDeadlock("z").IsDeadlock());  // overwrites x's
  EXPECT_EQ(
      (std::vector<std::string>{"1:0:zb:X 2:0:za:X", "1:0:yb:X 2:0:ya:X"}),
      Paths(mgr_.GetDeadlockInfoBuffer()));
  mgr_.Resize(3);  // grows: keeps both, room for one more
  EXPECT_TRUE(MakeDeadlock("w").IsDeadlock());
  EXPECT_EQ(3u, mgr_.GetDeadlockInfoBuffer().size());
  EXPECT_EQ("1:0:wb:X 2:0:wa:X",
            PathString(mgr_.GetDeadlockInfoBuffer().front()));
  mgr_.Resize(1);  // shrinks to the newest
  EXPECT_EQ(std::vector<std::string>{"1:0:wb:X 2:0:wa:X"},
            Paths(mgr_.GetDeadlockInfoBuffer()));
  mgr_.Resize(0);  // records nothing, detects all the same
  EXPECT_TRUE(MakeDeadlock("v").IsDeadlock());
  EXPECT_TRUE(mgr_.GetDeadlockInfoBuffer().empty());
}

DeadlockPath Hop(TransactionID id) {
  return DeadlockPath({DeadlockInfo{id, 0, true, "k"}}, 0);
}

std::vector<TransactionID> Ids(const DeadlockInfoBuffer& buffer) {
  std::vector<TransactionID> ids;
  for (const DeadlockPath& p : buffer.Get()) ids.push_back(p.path[0].m_txn_id);
  return ids;
}

TEST(DeadlockInfoBufferTest, RingOrderAcrossWrapsAndResizes) {
  DeadlockInfoBuffer buffer(3);
  EXPECT_TRUE(buffer.Get().empty());
  buffer.Add(Hop(1));
  buffer.Add(Hop(2));
  EXPECT_EQ((std::vector<TransactionID>{2, 1}), Ids(buffer));
  for (TransactionID id = 3; id <= 7; id++) buffer.Add(Hop(id));
  EXPECT_EQ((std::vector<TransactionID>{7, 6, 5}), Ids(buffer));
  buffer.Resize(5);
  EXPECT_EQ((std::vector<TransactionID>{7, 6, 5}), Ids(buffer));
  buffer.Add(Hop(8));
  buffer.Add(Hop(9));
  buffer.Add(Hop(10));
  EXPECT_EQ((std::vector<TransactionID>{10, 9, 8, 7, 6}), Ids(buffer));
  buffer.Resize(2);
  EXPECT_EQ((std::vector<TransactionID>{10, 9}), Ids(buffer));
  buffer.Add(Hop(11));
  EXPECT_EQ((std::vector<TransactionID>{11, 10}), Ids(buffer));
}

}  // namespace
}  // namespace test
}  // namespace strata
