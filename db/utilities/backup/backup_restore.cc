// Restoring a backup: RestoreDBFromBackup, RestoreDBFromLatestBackup.
//
// The target directory's LOCK is held throughout, as an open DB holds it,
// so a restore never writes under a running DB and no DB opens a
// half-restored directory. The backup's files are checked to be there
// before the target is touched; then the DB's files in the target are
// removed, the backup's copied (each checked against its crc32c), and
// CURRENT written last: a restore cut short leaves no CURRENT and so no
// DB that opens as if whole.

#include <algorithm>
#include <string>
#include <vector>

#include "db/filename.h"
#include "db/utilities/backup/backup_engine_impl.h"
#include "env/file_copy.h"
#include "strata/env.h"
#include "util/mutexlock.h"

namespace strata {
namespace backup {

namespace {

// Path without trailing separators, so that "db/" and "db" compare equal.
std::string Trimmed(std::string path) {
  while (path.size() > 1 && (path.back() == '/' || path.back() == '\\')) {
    path.pop_back();
  }
  return path;
}

// strata reads WALs from the DB directory only.
Status CheckWalDir(const std::string& db_dir, const std::string& wal_dir) {
  if (wal_dir.empty() || Trimmed(wal_dir) == Trimmed(db_dir)) {
    return Status::OK();
  }
  return Status::NotSupported(
      "RestoreDBFromBackup: strata keeps the WALs in the DB directory; "
      "wal_dir must be db_dir",
      wal_dir);
}

// Removes the files of a DB from dir (not LOCK, not the info logs, not
// files of other kinds); the WALs stay with keep_log_files, counted in
// *kept. *max_number is the highest file number found.
Status ClearDbFiles(Env* env, const std::string& dir, bool keep_log_files,
                    uint64_t* max_number, int* kept) {
  std::vector<std::string> names;
  Status s = env->GetChildren(dir, &names);
  for (size_t i = 0; s.ok() && i < names.size(); i++) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(names[i], &number, &type)) continue;
    *max_number = std::max(*max_number, number);
    if (type == kWalFile && keep_log_files) {
      ++*kept;
    } else if (type != kDBLockFile && type != kInfoLogFile) {
      s = env->RemoveFile(dir + "/" + names[i]);
    }
  }
  return s;
}

}  // namespace

IOStatus BackupEngineImpl::RestoreDBFromBackup(
    const RestoreOptions& options, BackupID backup_id,
    const std::string& db_dir, const std::string& wal_dir) const {
  ReadLock l(&mu_);
  const Backup* backup = nullptr;
  Status s = FindWhole(backup_id, &backup);
  if (s.ok()) s = CheckWalDir(db_dir, wal_dir);
  if (!s.ok()) return status_to_io_status(std::move(s));
  return Restore(options, *backup, db_dir);
}

IOStatus BackupEngineImpl::RestoreDBFromLatestBackup(
    const RestoreOptions& options, const std::string& db_dir,
    const std::string& wal_dir) const {
  ReadLock l(&mu_);
  const Backup* latest = Latest();
  if (latest == nullptr) {
    return IOStatus::NotFound("No backup in " + options_.backup_dir);
  }
  Status s = CheckWalDir(db_dir, wal_dir);
  if (!s.ok()) return status_to_io_status(std::move(s));
  return Restore(options, *latest, db_dir);
}

IOStatus BackupEngineImpl::Restore(const RestoreOptions& options,
                                   const Backup& backup,
                                   const std::string& db_dir) const {
  const BackupMeta& meta = backup.meta;
  const std::string name = "backup " + std::to_string(meta.id);
  if (db_dir.empty()) {
    return IOStatus::InvalidArgument("RestoreDBFromBackup: empty db_dir");
  }
  // Every file must still be there before the target loses anything.
  Status s = VerifyFiles(meta, /*with_checksum=*/false);
  if (!s.ok()) {
    return IOStatus::Corruption(name + " cannot be restored", s.ToString());
  }
  s = db_env_->CreateDirIfMissing(db_dir);
  if (!s.ok()) return status_to_io_status(std::move(s));
  FileLock* lock = nullptr;
  s = db_env_->LockFile(LockFileName(db_dir), &lock);
  if (s.IsBusy()) {
    return IOStatus::Busy(db_dir, "is in use: an open DB holds its LOCK, and " +
                                      name + " cannot be restored over it");
  }
  if (!s.ok()) return status_to_io_status(std::move(s));

  uint64_t max_number = 0;
  int kept_wals = 0;
  s = ClearDbFiles(db_env_, db_dir, options.keep_log_files, &max_number,
                   &kept_wals);
  // A kept WAL's clean-close marker names the MANIFEST of its DB and that
  // file's length (docs/formats/wal.md). The restored MANIFEST may have
  // the same number and be shorter: it is given a number no file in the
  // target or the backup had, and CURRENT names it.
  std::string manifest_name;
  for (const BackupFile& f : meta.files) {
    uint64_t number;
    FileType type;
    if (ParseFileName(f.db_name, &number, &type)) {
      max_number = std::max(max_number, number);
    }
  }
  if (kept_wals > 0) {
    const std::string path = DescriptorFileName(db_dir, max_number + 1);
    manifest_name = path.substr(path.rfind('/') + 1);
  }
  std::vector<std::string> written;
  for (size_t i = 0; s.ok() && i < meta.files.size(); i++) {
    const BackupFile& f = meta.files[i];
    uint64_t number;
    FileType type = kTempFile;
    ParseFileName(f.db_name, &number, &type);
    const bool renamed = type == kDescriptorFile && !manifest_name.empty();
    const std::string dst =
        db_dir + "/" + (renamed ? manifest_name : f.db_name);
    if (options.keep_log_files && type == kWalFile &&
        db_env_->FileExists(dst).ok()) {
      continue;  // the WAL already there wins
    }
    uint32_t crc = 0;
    FileCopyOptions copy;
    copy.sync = options_.sync;
    copy.crc32c = &crc;
    copy.rate_limiter = options_.restore_rate_limiter.get();
    s = CopyFileBetween(backup_env_, Path(f.stored), db_env_, dst, f.size,
                        copy);
    if (!s.ok()) break;
    written.push_back(dst);
    if (crc != f.crc32c) {
      s = Status::Corruption(name + ": " + Path(f.stored),
                             "crc32c " + std::to_string(crc) +
                                 ", its metadata says " +
                                 std::to_string(f.crc32c));
    } else if (type == kCurrentFile && !manifest_name.empty()) {
      s = WriteStringToFile(db_env_, manifest_name + "\n", dst, options_.sync);
    }
  }
  if (s.ok() && options_.sync) s = SyncDBDirectory(db_env_, db_dir);
  if (!s.ok()) {
    // No half-restored DB: CURRENT (written last) goes first.
    for (auto it = written.rbegin(); it != written.rend(); ++it) {
      Status ignored = db_env_->RemoveFile(*it);
      (void)ignored;
    }
  }
  Status unlocked = db_env_->UnlockFile(lock);
  if (s.ok()) s = unlocked;
  Log(options_.info_log, "BackupEngine: restoring %s into %s: %s", name.c_str(),
      db_dir.c_str(), s.ToString().c_str());
  return status_to_io_status(std::move(s));
}

}  // namespace backup
}  // namespace strata
