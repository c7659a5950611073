#include "db/error_handler.h"

#include <utility>

#include "strata/io_status.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

ErrorHandler::ErrorHandler(port::Mutex* mu, Env* env,
                           const std::shared_ptr<Logger>& info_log,
                           int max_resume_count, uint64_t retry_interval,
                           std::function<Status()> resume)
    : mu_(mu),
      env_(env),
      info_log_(info_log),
      max_resume_count_(max_resume_count),
      retry_interval_(retry_interval),
      resume_(std::move(resume)),
      cv_(mu) {}

ErrorHandler::~ErrorHandler() {
  // Only a thread that already ended can still be joinable here.
  if (recovery_thread_.joinable()) recovery_thread_.join();
}

Status::Severity ErrorHandler::Classify(BackgroundErrorReason reason,
                                        const Status& s, bool* retryable) {
  *retryable = false;
  if (s.IsCorruption()) return Status::kUnrecoverableError;
  // A batch half in the memtable and whole in the WAL: only a replay of
  // the WAL (a reopen) makes the two agree again.
  if (reason == BackgroundErrorReason::kMemTable) return Status::kFatalError;
  if (s.code() == Status::kBusy) {
    // A file another process holds for now (a Windows sharing violation):
    // a retry may find it free.
    *retryable = true;
  } else if (!s.IsIOError()) {
    return Status::kFatalError;
  } else {
    *retryable = s.IsNoSpace() || status_to_io_status(Status(s)).GetRetryable();
  }
  if (reason == BackgroundErrorReason::kCompaction && *retryable) {
    // Nothing a compaction does is needed by a write: they go on.
    return Status::kSoftError;
  }
  return Status::kHardError;
}

bool ErrorHandler::SetBGError(const Status& s, BackgroundErrorReason reason) {
  mu_->AssertHeld();
  if (s.ok()) return false;
  if (reason == BackgroundErrorReason::kWriteCallback) wal_failed_ = true;
  bool retryable = false;
  const Status::Severity severity = Classify(reason, s, &retryable);
  if (!bg_error_.ok() && severity <= bg_error_.severity()) return false;
  bg_error_ = Status(s, severity);
  retryable_ = retryable;
  return true;
}

void ErrorHandler::ClearBGError() {
  mu_->AssertHeld();
  bg_error_ = Status::OK();
  retryable_ = false;
}

void ErrorHandler::MaybeStartAutoRecovery() {
  mu_->AssertHeld();
  if (!retryable_ || max_resume_count_ <= 0 || auto_recovery_ended_ ||
      recovery_running_) {
    return;
  }
  // A thread that ended (it cleared recovery_running_ under mu_, its last
  // use of it) is joined before the next starts.
  if (recovery_thread_.joinable()) recovery_thread_.join();
  recovery_running_ = true;
  recovery_thread_ = std::thread(&ErrorHandler::RecoveryThread, this);
}

void ErrorHandler::EndAutoRecovery() {
  mu_->AssertHeld();
  auto_recovery_ended_ = true;
  cv_.SignalAll();
}

void ErrorHandler::JoinRecovery() {
  std::thread thread;
  {
    MutexLock l(mu_);
    thread = std::move(recovery_thread_);
  }
  if (thread.joinable()) thread.join();
}

void ErrorHandler::RecoveryThread(ErrorHandler* handler) {
  port::SetCurrentThreadName("strata:resume");
  handler->RecoveryLoop();
}

void ErrorHandler::RecoveryLoop() {
  MutexLock l(mu_);
  for (int attempt = 1;; attempt++) {
    // Each attempt waits out the interval first: the cause (a full
    // device) rarely clears the instant it is reported.
    const uint64_t start = env_->NowNanos() / 1000;
    bool waited = false;
    while (!auto_recovery_ended_ && retryable_ && !bg_error_.ok()) {
      const uint64_t elapsed = env_->NowNanos() / 1000 - start;
      if (elapsed >= retry_interval_) {
        waited = true;
        break;
      }
      cv_.TimedWait(retry_interval_ - elapsed);
    }
    if (!waited) break;  // closing, resumed meanwhile, or no longer retryable
    STRATA_LOG_INFO(info_log_, "automatic resume, attempt %d: %s", attempt,
                    bg_error_.ToString().c_str());
    const Status s = resume_();
    if (s.ok()) {
      STRATA_LOG_INFO(info_log_, "automatic resume succeeded");
      break;
    }
    STRATA_LOG_WARN(info_log_, "automatic resume, attempt %d failed: %s",
                    attempt, s.ToString().c_str());
    if (attempt >= max_resume_count_) {
      STRATA_LOG_ERROR(info_log_,
                       "automatic resume gave up after %d attempts; "
                       "DB::Resume() may still clear %s",
                       attempt, bg_error_.ToString().c_str());
      break;
    }
  }
  recovery_running_ = false;
}

}  // namespace strata
