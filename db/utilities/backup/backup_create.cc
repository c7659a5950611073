// Making a backup: CreateNewBackupWithMetadata. The DB's side is as a
// checkpoint's (db/utilities/checkpoint/checkpoint.cc): file deletions
// disabled, the files listed at one sequence number (after a flush if
// asked), copied, deletions enabled again. The backup directory's side is
// BackupWriter's.

#include <memory>
#include <vector>

#include "db/db_impl.h"
#include "db/db_impl_readonly.h"
#include "db/utilities/backup/backup_engine_impl.h"
#include "db/utilities/backup/backup_writer.h"
#include "strata/db.h"
#include "strata/env.h"
#include "util/mutexlock.h"

namespace strata {
namespace backup {

namespace {

// The files a copy of db needs, at one sequence number (*sequence).
// REQUIRES: db deletes none of them meanwhile.
Status ListDbFiles(DB* db, bool flush, std::vector<LiveFileStorageInfo>* files,
                   SequenceNumber* sequence) {
  LiveFilesStorageInfoOptions opts;
  // A read-only DB has nothing to flush: its files are as they are.
  const bool read_only = dynamic_cast<DBImplReadOnly*>(db) != nullptr;
  opts.wal_size_for_flush = flush && !read_only ? 0 : UINT64_MAX;
  if (auto* impl = dynamic_cast<DBImpl*>(db)) {
    return impl->LiveFilesAt(opts, files, sequence);
  }
  // A DB of the caller's own: its latest sequence number before the
  // listing is at least part of the copy.
  *sequence = db->GetLatestSequenceNumber();
  return db->GetLiveFilesStorageInfo(opts, files);
}

// Copies the files of db into writer (deletions disabled by the caller).
Status AddDbFiles(DB* db, const CreateBackupOptions& create,
                  bool backup_log_files, BackupWriter* writer,
                  SequenceNumber* sequence) {
  std::vector<LiveFileStorageInfo> files;
  Status s = ListDbFiles(db, create.flush_before_backup, &files, sequence);
  for (size_t i = 0; s.ok() && i < files.size(); i++) {
    if (files[i].file_type == kWalFile && !backup_log_files) continue;
    s = writer->Add(files[i]);
  }
  return s;
}

}  // namespace

IOStatus BackupEngineImpl::CreateNewBackupWithMetadata(
    const CreateBackupOptions& options, DB* db, const std::string& app_metadata,
    BackupID* new_backup_id) {
  if (db == nullptr) {
    return IOStatus::InvalidArgument("CreateNewBackup: the DB is null");
  }
  WriteLock l(&mu_);
  if (stop_.load()) {
    return status_to_io_status(Status::Incomplete("Backup stopped"));
  }
  if (next_id_ == 0) {
    return IOStatus::NotSupported("CreateNewBackup: no backup ids left");
  }
  // What an earlier attempt left must go: its private directory may have
  // this backup's id, and its shared tables are named in no backup.
  IOStatus collected = CollectGarbage();
  if (!collected.ok()) {
    Log(options_.info_log, "BackupEngine: garbage collection failed: %s",
        collected.ToString().c_str());
    const std::string leftover = Path(PrivateDir(next_id_));
    if (!backup_env_->FileExists(leftover).IsNotFound()) {
      return IOStatus::IOError(leftover,
                               "is left from an earlier backup and "
                               "cannot be removed: " +
                                   collected.ToString());
    }
  }

  BackupMeta meta;
  meta.id = next_id_;
  meta.timestamp = static_cast<int64_t>(db_env_->NowMicros() / 1000000);
  meta.app_metadata = app_metadata;
  std::map<std::string, BackupFile> known;
  for (const auto& entry : backups_) {
    for (const BackupFile& f : entry.second.meta.files) known[f.stored] = f;
  }
  BackupWriter writer(options_, db_env_, backup_env_, options, &stop_,
                      std::move(known), std::move(meta));
  Log(options_.info_log, "BackupEngine: starting backup %u", next_id_);

  // A read-only DB deletes nothing (and refuses to be asked).
  const bool read_only_db = dynamic_cast<DBImplReadOnly*>(db) != nullptr;
  Status disabled =
      read_only_db ? Status::NotSupported("") : db->DisableFileDeletions();
  if (!read_only_db && !disabled.ok()) {
    return IOStatus::NotSupported(
        "CreateNewBackup: the DB cannot pause its file deletions",
        disabled.ToString());
  }
  SequenceNumber sequence = 0;
  Status s = writer.Start();
  if (s.ok()) {
    s = AddDbFiles(db, options, options_.backup_log_files, &writer, &sequence);
  }
  if (disabled.ok()) {
    // Counted: this undoes only this backup's disabling.
    Status enabled = db->EnableFileDeletions(/*force=*/false);
    if (s.ok()) s = enabled;
  }
  if (s.ok()) s = writer.Commit(sequence);
  if (!s.ok()) {
    writer.Abandon();
    Log(options_.info_log, "BackupEngine: backup %u failed: %s", next_id_,
        s.ToString().c_str());
    return status_to_io_status(std::move(s));
  }
  Backup& backup = backups_[next_id_];
  backup.meta = writer.meta();
  backup.loaded = true;
  Log(options_.info_log, "BackupEngine: backup %u done: %zu files", next_id_,
      backup.meta.files.size());
  if (new_backup_id != nullptr) *new_backup_id = next_id_;
  next_id_++;
  return IOStatus::OK();
}

}  // namespace backup
}  // namespace strata
