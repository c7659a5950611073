// The lock table of one column family, split into stripes. A key's
// stripe is picked by its hash; each stripe has its own mutex, condition
// variable and map of locked keys, so that transactions locking
// unrelated keys rarely contend. Internal to the PointLockManager.
//
// Thread safety: a stripe's `keys` are read and changed only with its
// `mutex` held (a TransactionDBMutex, which the compiler's lock analysis
// cannot see); `lock_count` is atomic.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_LOCK_MAP_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_LOCK_MAP_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/utilities/transaction_db.h"
#include "strata/utilities/transaction_db_mutex.h"

namespace strata {

// The holders of one locked key.
struct LockInfo {
  bool exclusive = false;
  // Invariant: not empty, no duplicates, one element when exclusive.
  std::vector<TransactionID> holders;
  // When the lock may be taken from its holders (Env::NowMicros time);
  // 0: never. With several shared holders, the latest of theirs, or 0 if
  // any of them never expires.
  uint64_t expiration_time = 0;
};

struct LockStripe {
  explicit LockStripe(TransactionDBMutexFactory* factory)
      : mutex(factory->AllocateMutex()), cv(factory->AllocateCondVar()) {}

  std::shared_ptr<TransactionDBMutex> mutex;
  // Notified (all waiters) whenever a key of the stripe is released, so
  // that waiters for it look again; and, while lock-limit waiters exist,
  // when a key of any stripe of the family is.
  std::shared_ptr<TransactionDBCondVar> cv;
  std::unordered_map<std::string, LockInfo> keys;
};

struct LockMap {
  LockMap(size_t num_stripes, TransactionDBMutexFactory* factory) {
    stripes.reserve(num_stripes);
    for (size_t i = 0; i < num_stripes; i++) {
      stripes.emplace_back(new LockStripe(factory));
    }
  }

  LockStripe* StripeOf(const std::string& key) const;

  // Keys locked in this column family, for max_num_locks.
  std::atomic<int64_t> lock_count{0};
  // Requests waiting for lock_count to drop below max_num_locks. A release
  // in one stripe must wake them in every stripe; both counters are
  // sequentially consistent so that a waiter that counted itself and then
  // saw the family full is seen by the release that empties a slot.
  std::atomic<int64_t> limit_waiters{0};
  std::vector<std::unique_ptr<LockStripe>> stripes;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_LOCK_MAP_H_
