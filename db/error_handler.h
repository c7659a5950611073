// ErrorHandler: the DB's background error -- what a failed flush,
// compaction, WAL write or memtable insert leaves behind -- graded by how
// hard it hits the DB, and the automatic retries that clear the errors a
// retry may clear (docs/reliability.md, "Recovery without reopening").
//
// Grading (Classify), as RocksDB 7.8 grades with paranoid_checks (strata
// always checks), except where noted:
//
//   where it failed    no space, busy, or  other I/O error  corruption
//                      an I/O error marked
//                      retryable
//   compaction         soft, retried       hard (RocksDB:   unrecoverable
//                                          fatal)
//   flush              hard, retried       hard (RocksDB:   unrecoverable
//                                          fatal)
//   WAL write or sync  hard, retried       hard (RocksDB:   unrecoverable
//                                          fatal)
//   memtable insert    fatal               fatal            unrecoverable
//
// Busy, a file another process holds for now (a Windows sharing
// violation, say by a virus scanner), grades as the first column. Any other
// code is fatal. Soft: writes and
// flushes go on, compactions wait for a retry. Hard: writes fail with the error
// until a retry succeeds. Fatal and unrecoverable: until the DB is reopened.
// Where RocksDB makes a plain I/O error fatal strata lets DB::Resume() retry:
// the retry only succeeds once the interrupted work has (a WAL failure's
// retry moves every memtable into tables through a new WAL first), so a
// DB that resumes has lost nothing.
//
// The first error stays the background error unless a more severe one
// follows. "Retried": with DBOptions::max_bgerror_resume_count > 0 a
// thread of the handler's retries the DB's resume step every
// bgerror_resume_retry_interval microseconds until it succeeds, the error
// is no longer retryable, or the attempts run out. DB::Resume() runs the
// same step on demand.
//
// Thread safety: every method but JoinRecovery requires the DB's mutex
// (given to the constructor), which each asserts (AssertHeld: checked in
// debug builds, and what lets the compiler check the fields here); the
// retry thread takes it, and runs the resume step with it held.

#ifndef STRATA_DB_ERROR_HANDLER_H_
#define STRATA_DB_ERROR_HANDLER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <thread>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/env.h"
#include "strata/listener.h"  // BackgroundErrorReason
#include "strata/status.h"

namespace strata {

class ErrorHandler {
 public:
  // resume: the DB's resume step (DBImpl::ResumeImpl), called by the
  // retry thread with *mu held. max_resume_count and retry_interval:
  // DBOptions::max_bgerror_resume_count, bgerror_resume_retry_interval.
  // info_log: the DB's (set once the DB opens), for the retries' record.
  ErrorHandler(port::Mutex* mu, Env* env,
               const std::shared_ptr<Logger>& info_log, int max_resume_count,
               uint64_t retry_interval, std::function<Status()> resume);
  // REQUIRES: no retry thread runs (EndAutoRecovery and JoinRecovery
  // were called, or none was started).
  ~ErrorHandler();

  ErrorHandler(const ErrorHandler&) = delete;
  ErrorHandler& operator=(const ErrorHandler&) = delete;

  // The severity of s (not OK) failing in reason; *retryable: whether a
  // retry may clear it (no space, or marked retryable by the Env).
  static Status::Severity Classify(BackgroundErrorReason reason,
                                   const Status& s, bool* retryable);

  // Grades s (not OK) and makes it the background error if there is none
  // or it is more severe. True if the background error changed.
  bool SetBGError(const Status& s, BackgroundErrorReason reason);
  // Back to healthy (the resume step succeeded).
  void ClearBGError();

  // The background error, its severity set; OK if none.
  const Status& GetBGError() const {
    mu_->AssertHeld();
    return bg_error_;
  }
  // Writes (and flushes) fail with GetBGError(): a hard error or worse.
  bool IsDBStopped() const {
    mu_->AssertHeld();
    return bg_error_.severity() >= Status::kHardError;
  }
  // Compactions wait: any background error.
  bool IsBGWorkStopped() const {
    mu_->AssertHeld();
    return !bg_error_.ok();
  }
  // A WAL write, sync or switch failed since the last WAL switch: the
  // current WAL may end in a partial record, or hold data an fsync failed
  // to make durable. The resume step must start a new WAL.
  bool wal_failed() const {
    mu_->AssertHeld();
    return wal_failed_;
  }
  void WALSwitched() {
    mu_->AssertHeld();
    wal_failed_ = false;
  }

  // Starts the retry thread if the background error is retryable,
  // automatic retries are on, none runs and EndAutoRecovery was not
  // called.
  void MaybeStartAutoRecovery();
  // No retry thread starts after this; a running one ends at its next
  // step (the DB is closing).
  void EndAutoRecovery();
  // Waits for the retry thread to end. REQUIRES: EndAutoRecovery was
  // called, and mu_ is not held.
  void JoinRecovery() LOCKS_EXCLUDED(mu_);

 private:
  static void RecoveryThread(ErrorHandler* handler);
  void RecoveryLoop() LOCKS_EXCLUDED(mu_);

  port::Mutex* const mu_;
  Env* const env_;
  const std::shared_ptr<Logger>& info_log_;
  const int max_resume_count_;
  const uint64_t retry_interval_;
  const std::function<Status()> resume_;

  Status bg_error_ GUARDED_BY(mu_);
  bool retryable_ GUARDED_BY(mu_) = false;
  bool wal_failed_ GUARDED_BY(mu_) = false;
  // Signalled by EndAutoRecovery, to cut the retry thread's wait short.
  port::CondVar cv_;
  bool auto_recovery_ended_ GUARDED_BY(mu_) = false;
  bool recovery_running_ GUARDED_BY(mu_) = false;
  // The retry thread (joinable once started, until joined).
  std::thread recovery_thread_ GUARDED_BY(mu_);
};

}  // namespace strata

#endif  // STRATA_DB_ERROR_HANDLER_H_
