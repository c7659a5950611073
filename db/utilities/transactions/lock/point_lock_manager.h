// PointLockManager: the row locks of a pessimistic TransactionDB. A lock
// is on one (column family id, key), shared or exclusive, held by one or
// more transactions named by their ids; the manager knows nothing else of
// transactions, so the transaction side calls it with a LockRequest.
//
// - Shared locks are compatible with each other; an exclusive one with
//   none. A holder asking again succeeds (an exclusive holder asking for
//   shared keeps exclusive); the only holder of a shared lock asking for
//   exclusive is upgraded at once, otherwise it waits like anyone else.
// - A request that cannot be granted waits on its stripe's condition
//   variable for a release, up to its timeout, then fails with TimedOut
//   (kLockTimeout). Before each wait it records whom it waits for in the
//   WaitForGraph; with deadlock_detect, a wait closing a cycle fails at
//   once with Busy (kDeadlock) and the cycle goes to the deadlock buffer.
// - A column family holding max_num_locks keys (when positive) refuses a
//   new key, after waiting as a conflict does (woken by a release in any
//   stripe of the family), with Busy (kLockLimit) --
//   RocksDB's code for it, although its Status::IsLockLimit() tests for
//   Aborted.
// - Expiration: each lock carries its holders' expiration time (Env
//   clock). A request meeting a lock past that time asks the
//   ExpiredLockStealer whether the holders are now expired; only if it
//   agrees for every holder is the lock handed to the requester. The
//   former holder's UnLock of that key is then a no-op; it learns of the
//   theft through the stealer's side (its commit fails with Expired).
//
// Thread safety: every method may be called from any thread. Locking
// order: a stripe's mutex, then the wait-for graph's or the buffer's
// mutex; the ExpiredLockStealer is called with a stripe's mutex held and
// must not call back into the manager.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_POINT_LOCK_MANAGER_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_POINT_LOCK_MANAGER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/utilities/transactions/lock/deadlock_info_buffer.h"
#include "db/utilities/transactions/lock/lock_map.h"
#include "db/utilities/transactions/lock/wait_for_graph.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/env.h"
#include "strata/status.h"
#include "strata/utilities/transaction_db.h"

namespace strata {

// Who asks for a lock, and how long it may wait.
struct LockRequest {
  TransactionID id = 0;
  // Microseconds: < 0 waits as long as it takes, 0 never waits.
  int64_t timeout_us = 0;
  bool deadlock_detect = false;
  int64_t deadlock_detect_depth = 50;
  // When the requester expires (Env::NowMicros time); 0: never.
  uint64_t expiration_time_us = 0;
};

// The DB side of expiration.
class ExpiredLockStealer {
 public:
  virtual ~ExpiredLockStealer() = default;

  // `holder`'s expiration time has passed. Returns true if `holder` is
  // now marked expired -- it will never commit and its locks may be
  // taken; false if it may still commit (it is committing already, say).
  virtual bool TryStealingLocks(TransactionID holder) = 0;
};

// Keys to release at once: column family id -> keys.
using LockedKeys = std::unordered_map<uint32_t, std::vector<std::string>>;

class PointLockManager {
 public:
  // Uses txn_db_options' num_stripes, max_num_locks, max_num_deadlocks
  // and custom_mutex_factory. env (its NowMicros) and stealer must
  // outlive the manager; stealer may be nullptr: locks are never stolen.
  PointLockManager(const TransactionDBOptions& txn_db_options, Env* env,
                   ExpiredLockStealer* stealer);

  PointLockManager(const PointLockManager&) = delete;
  PointLockManager& operator=(const PointLockManager&) = delete;

  // Takes, upgrades or re-takes the lock of (cf_id, key) for request.id:
  // OK, TimedOut(kLockTimeout), Busy(kDeadlock), Busy(kLockLimit), or a
  // status the mutex factory's primitives returned.
  Status TryLock(const LockRequest& request, uint32_t cf_id,
                 const std::string& key, bool exclusive)
      LOCKS_EXCLUDED(maps_mutex_);

  // Releases id's hold on (cf_id, key); nothing if it holds none (never
  // taken, or stolen).
  void UnLock(TransactionID id, uint32_t cf_id, const std::string& key)
      LOCKS_EXCLUDED(maps_mutex_);

  // Releases id's hold on each key, taking each stripe's mutex once.
  void UnLock(TransactionID id, const LockedKeys& keys)
      LOCKS_EXCLUDED(maps_mutex_);

  // Forgets a dropped column family's locks (its id is never reused).
  void RemoveColumnFamily(uint32_t cf_id) LOCKS_EXCLUDED(maps_mutex_);

  // Every lock held: column family id -> key, holders, mode. Each column
  // family's view is taken with all its stripes locked at once.
  std::unordered_multimap<uint32_t, KeyLockInfo> GetLockStatusData()
      LOCKS_EXCLUDED(maps_mutex_);

  // The latest deadlocks, newest first; and the buffer's new capacity.
  std::vector<DeadlockPath> GetDeadlockInfoBuffer() const;
  void Resize(uint32_t target_size);

  // If id is waiting for a lock: the column family and key it waits for
  // and the holders it waits on. Otherwise an empty vector.
  std::vector<TransactionID> GetWaitingTxns(TransactionID id, uint32_t* cf_id,
                                            std::string* key) const;

 private:
  // The lock map of cf_id; created if missing and create is true.
  std::shared_ptr<LockMap> GetLockMap(uint32_t cf_id, bool create)
      LOCKS_EXCLUDED(maps_mutex_);

  // One attempt with the stripe's mutex held: OK, or why not with the
  // holders to wait on (without request.id) and, when the lock expires
  // later, that time in *expire_hint (0 otherwise).
  Status AcquireLocked(LockMap* map, LockStripe* stripe,
                       const LockRequest& request, const std::string& key,
                       bool exclusive, std::vector<TransactionID>* holders,
                       uint64_t* expire_hint);

  // Counts one more locked key in map, unless max_num_locks (when
  // positive) is reached: then false.
  bool TakeLockSlot(LockMap* map);

  // Whether the lock's holders other than requester are expired and the
  // stealer agrees; else *expire_hint is when to look again (0: never).
  bool IsExpired(const LockInfo& info, TransactionID requester,
                 uint64_t* expire_hint);

  // Drops id from key's holders, with the stripe's mutex held; true if
  // the stripe changed.
  bool UnLockKey(LockMap* map, LockStripe* stripe, TransactionID id,
                 const std::string& key);

  // Wakes the family's lock-limit waiters, if any, in every stripe; called
  // after a release, with no stripe's mutex held.
  void WakeLimitWaiters(LockMap* map);

  // The waits of TryLock once the first attempt has failed.
  Status WaitForLock(LockMap* map, LockStripe* stripe,
                     const LockRequest& request, uint32_t cf_id,
                     const std::string& key, bool exclusive, Status result,
                     std::vector<TransactionID> holders, uint64_t expire_hint);

  const size_t num_stripes_;
  const int64_t max_num_locks_;
  Env* const env_;
  ExpiredLockStealer* const stealer_;
  const std::shared_ptr<TransactionDBMutexFactory> mutex_factory_;

  port::Mutex maps_mutex_;
  std::unordered_map<uint32_t, std::shared_ptr<LockMap>> maps_
      GUARDED_BY(maps_mutex_);

  WaitForGraph wait_for_;
  DeadlockInfoBuffer deadlocks_;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_POINT_LOCK_MANAGER_H_
