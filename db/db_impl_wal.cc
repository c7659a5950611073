// DBImpl: the WAL files — starting one, retiring the full one at a
// memtable switch, syncing, and closing retired ones once a flush has made
// them obsolete (docs/write_path.md, "WAL files").
//
// At a switch the finished WAL is already in the OS (every group flushes
// its record), so a process crash loses nothing. Syncing it there would
// stall every writer for the length of an fsync. With kPointInTimeRecovery,
// the default, it is not synced at the switch: it stays open in
// retired_logs_ until a sync=true write or SyncWAL syncs it — before the
// current WAL, so what a synced write follows is durable first — or until
// a flush has put its data in a table (with several families a flush
// syncs it first: another family's half of a batch may be in it). Nor is
// the directory synced for the new WAL's name until then. What is still
// exposed is a power loss that takes the end of the older WAL (or the
// start of the newer one) and keeps data of the newer one; so every new
// WAL begins with a predecessor record naming the older WAL and its
// length, and recovery stops where the older one came back short
// (RecoverLogFiles). The other modes do not stop there (tolerate-tail and
// absolute consistency fail the open, skip-any goes on), so they sync the
// finished WAL and the directory at the switch: for them such a hole can
// only be damage.

#include <utility>

#include "db/db_impl.h"
#include "db/filename.h"
#include "util/kill_point.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

bool DBImpl::DefersWALSync() const {
  return options_.wal_recovery_mode == WALRecoveryMode::kPointInTimeRecovery;
}

Status DBImpl::NewLogFile(uint64_t number, bool sync_dir,
                          std::unique_ptr<log::Writer>* result) {
  const std::string fname = LogFileName(dbname_, number);
  const EnvOptions env_options =
      env_->OptimizeForLogWrite(EnvOptions(options_), options_);
  std::unique_ptr<WritableFile> file;
  Status s = env_->NewWritableFile(fname, &file, env_options);
  if (!s.ok()) return s;
  if (sync_dir) s = SyncDBDirectory(env_, dbname_);
  if (!s.ok()) return s;
  result->reset(new log::Writer(
      std::make_unique<WritableFileWriter>(std::move(file), fname, env_options),
      number));
  return Status::OK();
}

Status DBImpl::RetireLog(std::unique_ptr<log::Writer> next, bool failed,
                         uint64_t* finished_size) {
  // Every group flushed its record: this is the finished WAL's length. A
  // failed WAL is not written again: its buffer may hold a record whose
  // start the failed write already put in the file, so writing it again
  // would repeat bytes. Its length is where its last complete record
  // ended; recovery reads what a failed write left after it as a torn
  // tail.
  Status s;
  if (!failed) s = log_->file()->Flush();
  const uint64_t size = failed ? log_bytes_.load(std::memory_order_relaxed)
                               : log_->file()->GetFileSize();
  *finished_size = size;
  if (s.ok() && !failed && !DefersWALSync()) {
    // A later sync=true write, synced in the new WAL only, must never
    // survive a power loss that drops writes before it.
    s = log_->file()->Sync(options_.use_fsync);
  }
  if (s.ok()) s = next->AddPredecessor(log_->log_number(), size);
  if (!s.ok()) {
    // The writes stop (background error); no WAL may name this one as
    // its predecessor.
    next->Close();
    env_->RemoveFile(LogFileName(dbname_, next->log_number()));
    return s;
  }
  if (failed) {
    // Its data goes into tables before writes resume (DB::Resume): it is
    // never synced or read again.
    Status a = log_->file()->Abandon();
    if (!a.ok()) {
      STRATA_LOG_WARN(info_log_, "closing failed WAL %llu: %s",
                      static_cast<unsigned long long>(log_->log_number()),
                      a.ToString().c_str());
    }
    if (DefersWALSync()) log_dir_synced_ = false;
  } else if (DefersWALSync()) {
    retired_logs_.push_back(std::move(log_));
    log_dir_synced_ = false;
  } else {
    CloseLog(log_.get());
  }
  log_ = std::move(next);
  log_bytes_.store(log_->file()->GetFileSize(), std::memory_order_relaxed);
  return Status::OK();
}

Status DBImpl::SyncLogs() {
  // Oldest first: a power loss in between leaves a prefix.
  while (!retired_logs_.empty()) {
    Status s = retired_logs_.front()->file()->Sync(options_.use_fsync);
    if (!s.ok()) return s;
    CloseLog(retired_logs_.front().get());
    retired_logs_.pop_front();
  }
  if (!log_dir_synced_) {
    Status s = SyncDBDirectory(env_, dbname_);
    if (!s.ok()) return s;
    log_dir_synced_ = true;
  }
  TEST_KILL_POINT("WAL::Sync");
  return log_->file()->Sync(options_.use_fsync);
}

void DBImpl::CloseLog(log::Writer* log) {
  // Only WALs whose data is in the OS (synced, obsolete, or the DB
  // closing) are closed: a failure loses nothing and is only logged.
  Status s = log->Close();
  if (!s.ok()) {
    STRATA_LOG_WARN(info_log_, "closing WAL %llu: %s",
                    static_cast<unsigned long long>(log->log_number()),
                    s.ToString().c_str());
  }
}

void DBImpl::CloseRetiredLogsBelow(uint64_t min_log) {
  std::vector<std::unique_ptr<log::Writer>> obsolete;
  {
    MutexLock l(&log_mutex_);
    while (!retired_logs_.empty() &&
           retired_logs_.front()->log_number() < min_log) {
      obsolete.push_back(std::move(retired_logs_.front()));
      retired_logs_.pop_front();
    }
  }
  for (const auto& log : obsolete) CloseLog(log.get());
}

Status DBImpl::CloseLogs(bool wal_failed) {
  MutexLock l(&log_mutex_);
  // The retired WALs were flushed whole when retired (a failed one is
  // abandoned then): closing them writes nothing.
  for (const auto& retired : retired_logs_) CloseLog(retired.get());
  retired_logs_.clear();
  Status s;
  if (log_ != nullptr) {
    // A failed WAL keeps what it holds on disk, which recovery reads as
    // it would after a crash: a partial record at its end is a torn tail.
    s = wal_failed ? log_->file()->Abandon() : log_->Close();
    log_.reset();
  }
  return s;
}

Status DBImpl::SyncWAL() {
  Status s;
  {
    MutexLock l(&log_mutex_);
    if (log_ == nullptr) return Status::ShutdownInProgress("the DB is closed");
    s = log_->file()->Flush();
    if (s.ok()) s = SyncLogs();
  }
  if (!s.ok()) {
    // As for a failed sync=true write: what should now be durable is
    // unknown (after a failed fsync the OS may drop the pages and report
    // the next fsync done), so no later write may be acknowledged.
    MutexLock l(&mutex_);
    SetBackgroundError(s, BackgroundErrorReason::kWriteCallback);
  }
  return s;
}

}  // namespace strata
