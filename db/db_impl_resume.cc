// DBImpl: the background error -- setting it, DB::Resume, and the step
// the automatic retries run (db/error_handler.h grades the errors;
// docs/reliability.md, "Recovery without reopening").
//
// Resume's step, under mutex_:
//   - healthy: OK; closing: ShutdownInProgress; fatal or worse: the error;
//   - soft (a compaction found no space): cleared, compactions scheduled
//     again;
//   - hard: the work the error interrupted is done again before the error
//     is cleared. A flush's failure left its memtables and their WALs
//     untouched, so flushing them is enough. A WAL failure leaves the WAL
//     untrusted: it may end in a partial record, and after a failed fsync
//     the OS may have dropped pages of it while reporting later syncs
//     done. So every write queued before Resume is first let through the
//     write thread (they fail with the error, as everything after them
//     does until it is cleared), every family's active memtable is
//     retired with one switch to a new WAL, and every immutable memtable
//     is flushed: the MANIFEST edit that installs the tables moves every
//     family's log number past the failed WAL, so no recovery reads it
//     again, and every write acknowledged before the failure is in a
//     synced table. Only then do writes resume.
// The step takes the DB's one flush slot (flush_scheduled_) for its
// whole length: no background flush runs beside it, a second Resume (or
// an automatic retry) waits for it, and so does Close.

#include <vector>

#include "db/db_impl.h"
#include "memtable/memtable.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

void DBImpl::SetBackgroundError(const Status& s, BackgroundErrorReason reason) {
  Status error = s;
  if (!options_.listeners.empty()) {
    // The listeners may change the error, or suppress it (OK).
    mutex_.Unlock();
    for (const auto& listener : options_.listeners) {
      listener->OnBackgroundError(reason, &error);
    }
    mutex_.Lock();
    if (error.ok()) {
      STRATA_LOG_WARN(info_log_, "a listener suppressed background error %s",
                      s.ToString().c_str());
      return;
    }
  }
  const bool was_stopped = error_handler_.IsDBStopped();
  if (!error_handler_.SetBGError(error, reason)) return;
  STRATA_LOG_ERROR(info_log_, "background error (severity %d): %s",
                   static_cast<int>(error_handler_.GetBGError().severity()),
                   error.ToString().c_str());
  if (!was_stopped && error_handler_.IsDBStopped() &&
      write_buffer_manager_ != nullptr) {
    // No flush will free the immutable memtables now: nobody may stall
    // waiting for that, this DB's leader included.
    for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
      cfd->charges.KeepImmutable(write_buffer_manager_);
    }
    EndWriteBufferStall();
  }
  bg_cv_.SignalAll();
  if (opened_ && !closing_) error_handler_.MaybeStartAutoRecovery();
}

Status DBImpl::Resume() {
  MutexLock l(&mutex_);
  return ResumeImpl();
}

Status DBImpl::ResumeImpl() {
  mutex_.AssertHeld();
  for (;;) {
    if (!opened_ || closing_) {
      return Status::ShutdownInProgress("Resume: the DB is closed");
    }
    if (!error_handler_.IsBGWorkStopped()) return Status::OK();
    const Status& error = error_handler_.GetBGError();
    if (error.severity() >= Status::kFatalError) return error;
    if (error.severity() == Status::kSoftError) {
      // Only compactions stopped; the next one tries again.
      STRATA_LOG_INFO(info_log_, "resumed after %s", error.ToString().c_str());
      error_handler_.ClearBGError();
      MaybeScheduleCompaction();
      return Status::OK();
    }
    if (!flush_scheduled_) break;
    // A background flush, or another Resume, is running.
    bg_cv_.Wait();
  }
  flush_scheduled_ = true;
  Status s = RetryInterruptedWork();
  // The step released mutex_: a compaction may have met corruption, or a
  // SyncWAL failed, meanwhile. Neither is what the step cleared up.
  if (s.ok() &&
      (error_handler_.wal_failed() ||
       error_handler_.GetBGError().severity() >= Status::kFatalError)) {
    s = error_handler_.GetBGError();
  }
  if (s.ok()) {
    STRATA_LOG_INFO(info_log_, "resumed after %s",
                    error_handler_.GetBGError().ToString().c_str());
    error_handler_.ClearBGError();
    // Flushes run again: the immutable memtables count as on their way
    // out of the budget again.
    for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
      cfd->charges.ScheduleImmutable(write_buffer_manager_);
    }
  } else if (!s.IsShutdownInProgress()) {
    // The retry met an error of its own; a more severe one replaces the
    // first (and may end the automatic retries).
    SetBackgroundError(s, error_handler_.wal_failed()
                              ? BackgroundErrorReason::kWriteCallback
                              : BackgroundErrorReason::kFlush);
  }
  flush_scheduled_ = false;
  MaybeScheduleFlush();
  MaybeScheduleCompaction();
  bg_cv_.SignalAll();
  return s;
}

Status DBImpl::RetryInterruptedWork() {
  mutex_.AssertHeld();
  const bool switch_wal = error_handler_.wal_failed();
  if (switch_wal) {
    // A barrier: when it returns, every group queued before it is done
    // with the WAL and the memtables. It fails (the error still stands),
    // as does every group after it until the error is cleared, so no
    // leader touches the WAL or a memtable while this step runs.
    mutex_.Unlock();
    WriteOptions options;
    options.disableWAL = true;
    WriteThread::Writer barrier(options, nullptr);
    write_thread_.Write(&barrier);
    mutex_.Lock();
    if (closing_) return Status::ShutdownInProgress("Resume: the DB closed");
    WaitForMemTableWrites();  // unordered inserts of earlier groups
    std::vector<ColumnFamilyData*> active;
    for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
      if (cfd->mem->num_entries() > 0) active.push_back(cfd);
    }
    // Also with no data anywhere: the failed WAL must stop being the one
    // written to.
    Status s = SwitchMemTables(active, /*wal_failed=*/true);
    if (!s.ok()) return s;
    error_handler_.WALSwitched();
  }
  std::vector<ColumnFamilyData*> waiting;
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    if (cfd->imm.NumNotFlushed() > 0) waiting.push_back(cfd);
  }
  // After a switch, even with nothing to flush: the flush's edit moves
  // every family's log number to the new WAL.
  if (waiting.empty() && !switch_wal) return Status::OK();
  Status s = FlushMemTables(waiting, FlushReason::kErrorRecovery);
  if (s.ok()) DeleteObsoleteFiles();
  return s;
}

}  // namespace strata
