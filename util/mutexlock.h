// Scoped lock holders for port::Mutex and port::RWMutex, annotated so that
// clang's -Wthread-safety sees the lock taken and released.

#ifndef STRATA_UTIL_MUTEXLOCK_H_
#define STRATA_UTIL_MUTEXLOCK_H_

#include "port/port.h"
#include "port/thread_annotations.h"

namespace strata {

// Holds mu for the lifetime of the object:
//   { MutexLock l(&mu_); ... }
class SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(port::Mutex* mu) EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  ~MutexLock() UNLOCK_FUNCTION() { mu_->Unlock(); }

  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  port::Mutex* const mu_;
};

// Holds mu shared (read) for the lifetime of the object.
class SCOPED_LOCKABLE ReadLock {
 public:
  explicit ReadLock(port::RWMutex* mu) SHARED_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->ReadLock();
  }
  ~ReadLock() UNLOCK_FUNCTION() { mu_->ReadUnlock(); }

  ReadLock(const ReadLock&) = delete;
  ReadLock& operator=(const ReadLock&) = delete;

 private:
  port::RWMutex* const mu_;
};

// Holds mu exclusively (write) for the lifetime of the object.
class SCOPED_LOCKABLE WriteLock {
 public:
  explicit WriteLock(port::RWMutex* mu) EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->WriteLock();
  }
  ~WriteLock() UNLOCK_FUNCTION() { mu_->WriteUnlock(); }

  WriteLock(const WriteLock&) = delete;
  WriteLock& operator=(const WriteLock&) = delete;

 private:
  port::RWMutex* const mu_;
};

}  // namespace strata

#endif  // STRATA_UTIL_MUTEXLOCK_H_
