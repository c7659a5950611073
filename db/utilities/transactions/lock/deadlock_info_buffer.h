// DeadlockInfoBuffer: the latest deadlocks the lock manager detected, a
// ring of at most `capacity` DeadlockPaths. Once full, a new deadlock
// replaces the oldest. Read newest first (as RocksDB 7.8 returns them).
// Resizing keeps the newest paths that fit.
//
// Thread safety: every method may be called from any thread.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_DEADLOCK_INFO_BUFFER_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_DEADLOCK_INFO_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/utilities/transaction_db.h"

namespace strata {

class DeadlockInfoBuffer {
 public:
  explicit DeadlockInfoBuffer(uint32_t capacity);

  DeadlockInfoBuffer(const DeadlockInfoBuffer&) = delete;
  DeadlockInfoBuffer& operator=(const DeadlockInfoBuffer&) = delete;

  // Records a deadlock; dropped when the capacity is 0.
  void Add(DeadlockPath path) LOCKS_EXCLUDED(mutex_);

  // The recorded deadlocks, newest first.
  std::vector<DeadlockPath> Get() const LOCKS_EXCLUDED(mutex_);

  // From now on keep capacity paths; the newest ones recorded stay.
  void Resize(uint32_t capacity) LOCKS_EXCLUDED(mutex_);

 private:
  // The recorded paths, oldest first.
  std::vector<DeadlockPath> OldestFirst() const
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  mutable port::Mutex mutex_;
  // Invariant: slots_.size() == capacity; slots [0, used_) hold paths
  // and next_ is where the next one goes (the oldest one once full).
  std::vector<DeadlockPath> slots_ GUARDED_BY(mutex_);
  size_t used_ GUARDED_BY(mutex_) = 0;
  size_t next_ GUARDED_BY(mutex_) = 0;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_LOCK_DEADLOCK_INFO_BUFFER_H_
