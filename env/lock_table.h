// LockTable: the lock files this process holds. OS locks do not stop a
// second lock from the same process (fcntl locks belong to the process;
// and a clear "held by this process" message is worth having anyway), so
// every Env checks this table before asking the OS.
//
// An entry records its owner (the process id on POSIX): a child created by
// fork() inherits the table but not the OS locks, and must not be refused
// because of its parent's entries.
//
// Thread safety: safe from many threads.

#ifndef STRATA_ENV_LOCK_TABLE_H_
#define STRATA_ENV_LOCK_TABLE_H_

#include <cstdint>
#include <map>
#include <string>

#include "port/port.h"
#include "util/mutexlock.h"

namespace strata {

class LockTable {
 public:
  // False if owner already holds fname.
  bool Insert(const std::string& fname, uint64_t owner) {
    MutexLock l(&mu_);
    auto it = locked_.find(fname);
    if (it != locked_.end() && it->second == owner) return false;
    locked_[fname] = owner;
    return true;
  }

  void Remove(const std::string& fname) {
    MutexLock l(&mu_);
    locked_.erase(fname);
  }

 private:
  port::Mutex mu_;
  std::map<std::string, uint64_t> locked_ GUARDED_BY(mu_);
};

}  // namespace strata

#endif  // STRATA_ENV_LOCK_TABLE_H_
