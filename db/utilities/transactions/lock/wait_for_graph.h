// WaitForGraph: which transaction waits for which, the graph deadlock
// detection searches. A transaction about to wait for a lock records the
// key and the lock's holders (its out-edges); it removes the record when
// its wait ends, whether granted, timed out or refused. A transaction
// waits for at most one lock at a time, so it has at most one record.
//
// A cycle through the new waiter means none of its members can proceed
// until one gives up: AddWaiter reports it (and does not record the
// wait), so the newest waiter is the one refused, as in RocksDB.
//
// Thread safety: every method may be called from any thread; one mutex
// guards the graph, apart from the lock stripes' mutexes (a caller may
// hold a stripe's mutex while calling in, never the other way round).

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_WAIT_FOR_GRAPH_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_WAIT_FOR_GRAPH_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/utilities/transaction_db.h"

namespace strata {

// What a waiting transaction waits for.
struct WaitingFor {
  uint32_t cf_id = 0;
  std::string key;
  bool exclusive = false;              // the mode it asked for
  std::vector<TransactionID> holders;  // never itself
};

class WaitForGraph {
 public:
  WaitForGraph() = default;
  WaitForGraph(const WaitForGraph&) = delete;
  WaitForGraph& operator=(const WaitForGraph&) = delete;

  // Records that `id` waits for `waiting.holders`, unless `detect` and a
  // breadth-first search from those holders along the recorded waits
  // meets `id` again within `depth` visited transactions. Then returns
  // true and leaves *path (its deadlock_time 0) as the cycle, from a
  // transaction `id` waits for to `id` itself; a search that visits
  // `depth` transactions without an answer is taken for a deadlock too,
  // with limit_exceeded and no hops.
  // REQUIRES: `id` has no record.
  bool AddWaiter(TransactionID id, WaitingFor waiting, bool detect,
                 int64_t depth, DeadlockPath* path) LOCKS_EXCLUDED(mutex_);

  // Forgets the wait of `id`, if recorded.
  void RemoveWaiter(TransactionID id) LOCKS_EXCLUDED(mutex_);

  // What `id` waits for; false if it is not waiting.
  bool GetWaiting(TransactionID id, WaitingFor* waiting) const
      LOCKS_EXCLUDED(mutex_);

 private:
  bool FindCycle(TransactionID id, int64_t depth, DeadlockPath* path) const
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void RemoveLocked(TransactionID id) EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  mutable port::Mutex mutex_;
  std::unordered_map<TransactionID, WaitingFor> waits_ GUARDED_BY(mutex_);
  // How many recorded waits name each transaction as a holder: a waiter
  // nobody waits for cannot be on a cycle, and needs no search.
  std::unordered_map<TransactionID, int> waited_for_ GUARDED_BY(mutex_);
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_WAIT_FOR_GRAPH_H_
