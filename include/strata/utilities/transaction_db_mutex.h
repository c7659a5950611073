// The mutex and condition variable a TransactionDB's lock manager waits
// on, as RocksDB 7.8 declares them. An application that wants lock waits
// to go through its own primitives (a thread pool's fibres, instrumented
// locks) implements these three classes and sets
// TransactionDBOptions::custom_mutex_factory; otherwise the DB uses a
// default built on std::mutex and std::condition_variable.
//
// Thread safety: implementations are shared by every thread that locks
// keys; each method may be called from any thread.

#ifndef STRATA_INCLUDE_UTILITIES_TRANSACTION_DB_MUTEX_H_
#define STRATA_INCLUDE_UTILITIES_TRANSACTION_DB_MUTEX_H_

#include <cstdint>
#include <memory>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT TransactionDBMutex {
 public:
  virtual ~TransactionDBMutex() {}

  // Blocks until the mutex is held. On OK the caller later calls UnLock().
  virtual Status Lock() = 0;

  // As Lock(), but a non-negative timeout_time (microseconds) lets the
  // call give up after that long with TimedOut; a negative one waits as
  // long as it takes. On OK the caller later calls UnLock().
  virtual Status TryLockFor(int64_t timeout_time) = 0;

  // Releases a mutex taken by Lock() or TryLockFor().
  virtual void UnLock() = 0;
};

class STRATA_EXPORT TransactionDBCondVar {
 public:
  virtual ~TransactionDBCondVar() {}

  // REQUIRES: mutex is held by the caller. Releases it, sleeps until
  // Notify()/NotifyAll() (or spuriously), and takes it again. OK means
  // "look again"; any other status makes the waiting lock request fail
  // with it.
  virtual Status Wait(std::shared_ptr<TransactionDBMutex> mutex) = 0;

  // As Wait(), but with a non-negative timeout_time (microseconds) the
  // sleep ends after that long at the latest, returning TimedOut. A
  // custom implementation may ignore the timeout; the lock manager then
  // waits until it is notified.
  virtual Status WaitFor(std::shared_ptr<TransactionDBMutex> mutex,
                         int64_t timeout_time) = 0;

  // Wakes at least one waiter, if there is one.
  virtual void Notify() = 0;

  // Wakes every waiter.
  virtual void NotifyAll() = 0;
};

// Hands out the mutexes and condition variables, one pair per lock stripe.
class STRATA_EXPORT TransactionDBMutexFactory {
 public:
  virtual std::shared_ptr<TransactionDBMutex> AllocateMutex() = 0;
  virtual std::shared_ptr<TransactionDBCondVar> AllocateCondVar() = 0;

  virtual ~TransactionDBMutexFactory() {}
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_TRANSACTION_DB_MUTEX_H_
