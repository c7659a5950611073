#include "db/utilities/transactions/lock/wait_for_graph.h"

#include <algorithm>
#include <cassert>
#include <unordered_set>
#include <utility>

#include "util/mutexlock.h"

namespace strata {

bool WaitForGraph::AddWaiter(TransactionID id, WaitingFor waiting, bool detect,
                             int64_t depth, DeadlockPath* path) {
  MutexLock l(&mutex_);
  assert(waits_.find(id) == waits_.end());
  for (TransactionID holder : waiting.holders) waited_for_[holder]++;
  waits_.emplace(id, std::move(waiting));
  if (!detect || waited_for_.find(id) == waited_for_.end()) return false;
  if (!FindCycle(id, depth, path)) return false;
  RemoveLocked(id);
  return true;
}

bool WaitForGraph::FindCycle(TransactionID id, int64_t depth,
                             DeadlockPath* path) const {
  // The queue keeps every transaction visited with the index of the one
  // whose wait led to it, so that a cycle found can be walked back.
  struct Visit {
    TransactionID txn;
    int64_t parent;
  };
  std::vector<Visit> queue;
  std::unordered_set<TransactionID> seen;
  for (TransactionID holder : waits_.at(id).holders) {
    if (seen.insert(holder).second) queue.push_back({holder, -1});
  }
  for (size_t head = 0; head < queue.size(); head++) {
    if (static_cast<int64_t>(head) >= depth) {
      *path = DeadlockPath(0, /*limit=*/true);
      return true;
    }
    const TransactionID txn = queue[head].txn;
    if (txn == id) {
      std::vector<DeadlockInfo> hops;
      for (int64_t at = static_cast<int64_t>(head); at != -1;
           at = queue[at].parent) {
        const WaitingFor& w = waits_.at(queue[at].txn);
        hops.push_back({queue[at].txn, w.cf_id, w.exclusive, w.key});
      }
      std::reverse(hops.begin(), hops.end());
      *path = DeadlockPath(std::move(hops), 0);
      return true;
    }
    auto it = waits_.find(txn);
    if (it == waits_.end()) continue;  // running, not waiting: a dead end
    for (TransactionID next : it->second.holders) {
      if (seen.insert(next).second) {
        queue.push_back({next, static_cast<int64_t>(head)});
      }
    }
  }
  return false;
}

void WaitForGraph::RemoveWaiter(TransactionID id) {
  MutexLock l(&mutex_);
  RemoveLocked(id);
}

void WaitForGraph::RemoveLocked(TransactionID id) {
  auto it = waits_.find(id);
  if (it == waits_.end()) return;
  for (TransactionID holder : it->second.holders) {
    auto count = waited_for_.find(holder);
    assert(count != waited_for_.end());
    if (--count->second == 0) waited_for_.erase(count);
  }
  waits_.erase(it);
}

bool WaitForGraph::GetWaiting(TransactionID id, WaitingFor* waiting) const {
  MutexLock l(&mutex_);
  auto it = waits_.find(id);
  if (it == waits_.end()) return false;
  *waiting = it->second;
  return true;
}

}  // namespace strata
