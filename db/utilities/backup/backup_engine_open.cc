// Opening a backup directory: BackupEngine::Open and
// BackupEngineReadOnly::Open, the directory's checks, and loading each
// backup's metadata file.

#include <algorithm>
#include <cstdint>
#include <memory>

#include "db/utilities/backup/backup_engine_impl.h"
#include "strata/env.h"
#include "strata/rate_limiter.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {
namespace backup {

namespace {

// options with a limiter made for a rate given in bytes per second where
// no limiter is given, as RocksDB does.
BackupEngineOptions WithRateLimiters(BackupEngineOptions options) {
  if (options.backup_rate_limiter == nullptr && options.backup_rate_limit > 0) {
    options.backup_rate_limiter.reset(
        NewGenericRateLimiter(static_cast<int64_t>(
            std::min<uint64_t>(options.backup_rate_limit, INT64_MAX))));
  }
  if (options.restore_rate_limiter == nullptr &&
      options.restore_rate_limit > 0) {
    options.restore_rate_limiter.reset(
        NewGenericRateLimiter(static_cast<int64_t>(
            std::min<uint64_t>(options.restore_rate_limit, INT64_MAX))));
  }
  return options;
}

}  // namespace

BackupEngineImpl::BackupEngineImpl(const BackupEngineOptions& options,
                                   Env* db_env, bool read_only)
    : options_(WithRateLimiters(options)),
      db_env_(db_env),
      backup_env_(options.backup_env != nullptr ? options.backup_env : db_env),
      read_only_(read_only) {}

IOStatus BackupEngineImpl::Initialize() {
  IOStatus s = OpenDirectory();
  if (!s.ok()) return s;
  WriteLock l(&mu_);
  s = status_to_io_status(LoadBackups());
  if (!s.ok() || read_only_) return s;
  if (options_.destroy_old_data) {
    Log(options_.info_log, "BackupEngine: deleting the %zu old backups",
        backups_.size());
    while (!backups_.empty()) {
      s = RemoveBackup(backups_.begin()->first);
      if (!s.ok()) return s;
    }
    next_id_ = 1;
  }
  // What an interrupted backup or deletion left. Failing to remove it
  // does not keep the engine from working: the next collection retries.
  IOStatus collected = CollectGarbage();
  if (!collected.ok()) {
    Log(options_.info_log, "BackupEngine: garbage collection failed: %s",
        collected.ToString().c_str());
  }
  return IOStatus::OK();
}

IOStatus BackupEngineImpl::OpenDirectory() {
  const std::string& dir = options_.backup_dir;
  if (dir.empty()) {
    return IOStatus::InvalidArgument("BackupEngine: backup_dir is empty");
  }
  bool is_dir = false;
  Status s = backup_env_->IsDirectory(dir, &is_dir);
  if (s.ok() && !is_dir) {
    return IOStatus::IOError(dir, "exists but is not a directory");
  }
  if (read_only_) {
    // A read-only engine creates nothing: no meta/, no backups.
    const std::string meta = Path(kMetaDir);
    s = backup_env_->FileExists(meta);
    if (s.IsNotFound()) return IOStatus::NotFound(meta + " is missing");
    return status_to_io_status(std::move(s));
  }
  s = backup_env_->CreateDirIfMissing(dir);
  std::vector<std::string> subdirs = {kMetaDir, kPrivateDir};
  if (options_.share_table_files) {
    subdirs.push_back(options_.share_files_with_checksum ? kSharedChecksumDir
                                                         : kSharedDir);
  }
  for (const std::string& subdir : subdirs) {
    if (s.ok()) s = backup_env_->CreateDirIfMissing(Path(subdir));
  }
  return status_to_io_status(std::move(s));
}

Status BackupEngineImpl::LoadBackups() {
  std::vector<std::string> names;
  Status s = backup_env_->GetChildren(Path(kMetaDir), &names);
  if (!s.ok()) return s;
  for (const std::string& name : names) {
    BackupID id;
    if (!ParseBackupId(name, &id)) continue;  // a temp file, or not ours
    backups_[id] = LoadBackup(id);
    next_id_ = std::max<BackupID>(next_id_, id + 1);
    if (!backups_[id].problem.ok()) {
      Log(options_.info_log, "BackupEngine: backup %u is corrupt: %s", id,
          backups_[id].problem.ToString().c_str());
    }
  }
  if (read_only_ && options_.max_valid_backups_to_open >= 0) {
    // Only the newest good ones are opened; the others stay unknown.
    std::vector<BackupID> good;
    for (const auto& entry : backups_) {
      if (entry.second.problem.ok()) good.push_back(entry.first);
    }
    const size_t keep = static_cast<size_t>(options_.max_valid_backups_to_open);
    for (size_t i = 0; i + keep < good.size(); i++) backups_.erase(good[i]);
  }
  return Status::OK();
}

BackupEngineImpl::Backup BackupEngineImpl::LoadBackup(BackupID id) const {
  Backup backup;
  const std::string path = Path(MetaFile(id));
  std::string text;
  backup.problem = ReadFileToString(backup_env_, path, &text);
  if (backup.problem.ok()) {
    backup.problem = DecodeBackupMeta(path, id, text, &backup.meta);
  }
  backup.loaded = backup.problem.ok();
  if (backup.loaded) backup.problem = VerifyFiles(backup.meta, false);
  return backup;
}

namespace {

// BackupEngineReadOnly: the reading half of an engine opened read-only.
class BackupEngineReadOnlyImpl final : public BackupEngineReadOnly {
 public:
  explicit BackupEngineReadOnlyImpl(std::unique_ptr<BackupEngineImpl> engine)
      : engine_(std::move(engine)) {}

  Status GetLatestBackupInfo(BackupInfo* backup_info,
                             bool include_file_details) const override {
    return engine_->GetLatestBackupInfo(backup_info, include_file_details);
  }
  Status GetBackupInfo(BackupID backup_id, BackupInfo* backup_info,
                       bool include_file_details) const override {
    return engine_->GetBackupInfo(backup_id, backup_info, include_file_details);
  }
  void GetBackupInfo(std::vector<BackupInfo>* backup_infos,
                     bool include_file_details) const override {
    engine_->GetBackupInfo(backup_infos, include_file_details);
  }
  void GetCorruptedBackups(
      std::vector<BackupID>* corrupt_backup_ids) const override {
    engine_->GetCorruptedBackups(corrupt_backup_ids);
  }
  using BackupEngineReadOnlyBase::RestoreDBFromBackup;
  IOStatus RestoreDBFromBackup(const RestoreOptions& options,
                               BackupID backup_id, const std::string& db_dir,
                               const std::string& wal_dir) const override {
    return engine_->RestoreDBFromBackup(options, backup_id, db_dir, wal_dir);
  }
  using BackupEngineReadOnlyBase::RestoreDBFromLatestBackup;
  IOStatus RestoreDBFromLatestBackup(
      const RestoreOptions& options, const std::string& db_dir,
      const std::string& wal_dir) const override {
    return engine_->RestoreDBFromLatestBackup(options, db_dir, wal_dir);
  }
  IOStatus VerifyBackup(BackupID backup_id,
                        bool verify_with_checksum) const override {
    return engine_->VerifyBackup(backup_id, verify_with_checksum);
  }

 private:
  const std::unique_ptr<BackupEngineImpl> engine_;
};

IOStatus OpenEngine(const BackupEngineOptions& options, Env* db_env,
                    bool read_only, std::unique_ptr<BackupEngineImpl>* engine) {
  *engine = std::make_unique<BackupEngineImpl>(
      options, db_env != nullptr ? db_env : Env::Default(), read_only);
  IOStatus s = (*engine)->Initialize();
  if (!s.ok()) engine->reset();
  return s;
}

}  // namespace

}  // namespace backup

IOStatus BackupEngine::Open(const BackupEngineOptions& options, Env* db_env,
                            BackupEngine** backup_engine_ptr) {
  if (backup_engine_ptr == nullptr) {
    return IOStatus::InvalidArgument("BackupEngine::Open: null result pointer");
  }
  *backup_engine_ptr = nullptr;
  std::unique_ptr<backup::BackupEngineImpl> engine;
  IOStatus s =
      backup::OpenEngine(options, db_env, /*read_only=*/false, &engine);
  if (s.ok()) *backup_engine_ptr = engine.release();
  return s;
}

IOStatus BackupEngineReadOnly::Open(const BackupEngineOptions& options,
                                    Env* db_env,
                                    BackupEngineReadOnly** backup_engine_ptr) {
  if (backup_engine_ptr == nullptr) {
    return IOStatus::InvalidArgument(
        "BackupEngineReadOnly::Open: null result pointer");
  }
  *backup_engine_ptr = nullptr;
  std::unique_ptr<backup::BackupEngineImpl> engine;
  IOStatus s = backup::OpenEngine(options, db_env, /*read_only=*/true, &engine);
  if (s.ok()) {
    *backup_engine_ptr =
        new backup::BackupEngineReadOnlyImpl(std::move(engine));
  }
  return s;
}

}  // namespace strata
