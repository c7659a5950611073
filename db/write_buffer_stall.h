// WriteBufferStall: how a DB's write group leader waits out a stall of
// the WriteBufferManager (strata/write_buffer_manager.h). The leader arms
// it, asks the manager to queue it (BeginWriteStall), releases the DB
// mutex and blocks; the manager signals it when the stall ends, and the
// DB itself when it closes or stops on a background error.
//
// Arming before queueing is what keeps a wake-up from being lost: a
// Signal between BeginWriteStall and Block finds the object armed and
// disarms it, and Block then returns at once.
//
// Thread safety: every method may be called from any thread; the lock is
// a leaf (nothing else is locked while it is held).

#ifndef STRATA_DB_WRITE_BUFFER_STALL_H_
#define STRATA_DB_WRITE_BUFFER_STALL_H_

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/write_buffer_manager.h"
#include "util/mutexlock.h"

namespace strata {

class WriteBufferStall final : public StallInterface {
 public:
  WriteBufferStall() : cv_(&mu_) {}

  // The next Block waits for a Signal.
  void Arm() LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    blocked_ = true;
  }
  void Block() override LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    while (blocked_) cv_.Wait();
  }
  void Signal() override LOCKS_EXCLUDED(mu_) {
    MutexLock l(&mu_);
    blocked_ = false;
    cv_.SignalAll();
  }

 private:
  port::Mutex mu_;
  port::CondVar cv_;
  bool blocked_ GUARDED_BY(mu_) = false;
};

}  // namespace strata

#endif  // STRATA_DB_WRITE_BUFFER_STALL_H_
