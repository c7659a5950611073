// DBImpl: Close (waiting for background work, flushing writes made
// without the WAL, releasing the files and the lock) and DestroyDB.

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/version_edit.h"
#include "db/write_batch_internal.h"
#include "memtable/memtable.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

Status DBImpl::Close() { return CloseImpl(/*force=*/false); }

Status DBImpl::CloseImpl(bool force) {
  // One Close at a time; a later one reports what the first returned.
  MutexLock close_lock(&close_mutex_);
  bool was_open;
  {
    MutexLock l(&mutex_);
    if (closing_) return close_status_;
    if (!force && !snapshots_.empty()) {
      return Status::Aborted("Close: the DB has unreleased snapshots");
    }
    closing_ = true;
    was_open = opened_;
    bg_cv_.SignalAll();  // writers waiting out a stall give up
    EndWriteBufferStall();
    error_handler_.EndAutoRecovery();
  }
  // A retry running now sees closing_ and ends (a Resume holds the flush
  // slot: the wait for flush_scheduled_ below outlasts it).
  error_handler_.JoinRecovery();
  // A read-only DB wrote nothing and writes nothing now.
  if (read_only_) was_open = false;
  if (was_open) {
    // A barrier: groups behind it fail PrepareGroup (closing_), and when
    // it returns every earlier group is done with the WAL and memtable.
    WriteOptions options;
    options.disableWAL = true;
    WriteThread::Writer barrier(options, nullptr);
    write_thread_.Write(&barrier);
  }
  Status s;
  bool wal_failed;
  {
    MutexLock l(&mutex_);
    // Unordered inserts of groups before the barrier may still run.
    WaitForMemTableWrites();
    // Running compactions stop at their next check; their outputs are
    // deleted and nothing is installed.
    shutting_down_.store(true, std::memory_order_release);
    while (flush_scheduled_ || bg_compactions_scheduled_ > 0 ||
           manual_compactions_ > 0) {
      bg_cv_.Wait();
    }
    // Writes that skipped the WAL live only in memtables: a clean close
    // puts them in a table. After a background error it cannot, and
    // Close reports that error.
    if (was_open && has_unlogged_writes_) {
      const std::vector<ColumnFamilyData*> families =
          versions_->column_families()->All();
      std::vector<ColumnFamilyData*> active, waiting;
      for (ColumnFamilyData* cfd : families) {
        if (cfd->mem->num_entries() > 0) active.push_back(cfd);
        if (cfd->mem->num_entries() > 0 || cfd->imm.NumNotFlushed() > 0) {
          waiting.push_back(cfd);
        }
      }
      if (!waiting.empty()) {
        s = WriteStopStatus();
        if (s.ok() && !active.empty()) s = SwitchMemTables(active);
        if (s.ok()) s = FlushMemTables(waiting, FlushReason::kShutDown);
        if (s.ok()) DeleteObsoleteFiles();
        if (!s.ok()) SetBackgroundError(s, BackgroundErrorReason::kFlush);
      }
    }
    // After a background error the WAL's or MANIFEST's end is unknown:
    // no marker may vouch for what comes before it.
    if (was_open && s.ok() && error_handler_.GetBGError().ok()) {
      s = MarkCleanClose();
    }
    wal_failed = error_handler_.wal_failed();
  }
  // The first error is what Close reports.
  Status logs = CloseLogs(wal_failed);
  if (s.ok()) s = logs;
  MutexLock l(&mutex_);
  // The handles the program still holds let go of their families; what
  // the families hold goes with them (or with the version set).
  for (ColumnFamilyHandleImpl* handle : handles_) handle->Release();
  if (default_handle_ != nullptr) default_handle_->Release();
  ColumnFamilyRoutes* routes = routes_.exchange(nullptr);
  if (routes != nullptr) {
    routes->UnrefAll();
    delete routes;
  }
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    // Whatever the memtables reported to the budget is given back (the
    // manager may outlive this DB, and serve others).
    cfd->charges.ReleaseAll(write_buffer_manager_);
    if (cfd->mem != nullptr) {
      cfd->mem->Unref();
      cfd->mem = nullptr;
    }
    cfd->imm.RemoveOldest(cfd->imm.NumNotFlushed());
    cfd->imm_next_logs.clear();
  }
  if (db_lock_ != nullptr) {
    Status u = env_->UnlockFile(db_lock_);
    if (s.ok()) s = u;
    db_lock_ = nullptr;
  }
  if (was_open) STRATA_LOG_INFO(info_log_, "closed %s", dbname_.c_str());
  if (info_log_ != nullptr) info_log_->Flush();
  close_status_ = s;
  return s;
}

Status DBImpl::MarkCleanClose() {
  // Damage to the last record of a WAL or MANIFEST looks like a torn
  // write, which recovery drops; a record after it that no crash can
  // leave behind a torn one (synced, after every earlier record) turns
  // such damage into Corruption. The markers themselves may be dropped:
  // they hold nothing.
  //
  // The MANIFEST's first: an edit of no change (LogAndApply records the
  // counters and syncs it). The WAL's marker then records the MANIFEST's
  // number and synced size, so an open that finds the marker but reads
  // that MANIFEST back shorter knows it lost edits (its end cut off, which
  // a crash after this point cannot do) and fails instead of deleting the
  // tables the lost edits added. A crash between the two leaves no WAL
  // marker: the open is a crash's.
  VersionEdit edit;
  Status s = versions_->LogAndApply(&edit, &mutex_);
  if (!s.ok()) return s;
  const uint64_t manifest_number = versions_->ManifestFileNumber();
  const uint64_t manifest_size = versions_->ManifestFileSize();
  MutexLock l(&log_mutex_);
  if (log_ == nullptr) return s;
  WriteBatch marker;
  WriteBatchInternal::SetCloseMarker(&marker, last_published_.load(),
                                     manifest_number, manifest_size);
  s = log_->AddRecord(WriteBatchInternal::Contents(&marker));
  if (s.ok()) s = log_->file()->Flush();
  // The retired WALs too: the marker vouches for them.
  if (s.ok()) s = SyncLogs();
  return s;
}

Status DestroyDB(const std::string& name, const Options& options) {
  Env* env = options.env;
  std::vector<std::string> children;
  Status s = env->FileExists(name);
  if (s.IsNotFound()) return Status::OK();
  if (s.ok()) s = env->GetChildren(name, &children);
  if (!s.ok()) return s;
  FileLock* lock = nullptr;
  const std::string lock_name = LockFileName(name);
  s = env->LockFile(lock_name, &lock);
  if (!s.ok()) return s;
  // CURRENT first: a destroy cut short leaves no half DB that an open
  // would take for a whole one.
  Status current = env->RemoveFile(CurrentFileName(name));
  if (!current.ok() && !current.IsNotFound()) s = current;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(child, &number, &type) && type != FileType::kDBLockFile &&
        type != FileType::kCurrentFile) {
      Status del = env->RemoveFile(name + "/" + child);
      if (s.ok() && !del.ok()) s = del;
    }
  }
  env->UnlockFile(lock);
  env->RemoveFile(lock_name);
  env->RemoveDir(name);  // fails, harmlessly, if other files remain
  return s;
}

}  // namespace strata
