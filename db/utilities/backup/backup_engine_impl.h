// BackupEngineImpl: the engine behind BackupEngine and (opened read-only)
// BackupEngineReadOnly. It keeps every backup of the directory in memory,
// loaded from the metadata files when it opens, and changes the directory
// only through its own calls.
//
// Its calls are spread over files by concern: opening and loading
// (backup_engine_open.cc), listing and verifying (backup_engine_info.cc),
// deleting and garbage collection (backup_engine_delete.cc), making a
// backup (backup_create.cc) and restoring one (backup_restore.cc).
//
// Invariants (between calls): every backup in backups_ has its metadata
// file; each file a loaded backup names exists unless the backup is
// marked corrupt; nothing the engine wrote is left outside a backup
// except when a removal failed (the next garbage collection retries it).
//
// Thread safety: mu_ is held shared by the reading calls and exclusively
// by the changing ones; stop_ is read and written without it.

#ifndef STRATA_DB_UTILITIES_BACKUP_BACKUP_ENGINE_IMPL_H_
#define STRATA_DB_UTILITIES_BACKUP_BACKUP_ENGINE_IMPL_H_

#include <atomic>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "db/utilities/backup/backup_layout.h"
#include "db/utilities/backup/backup_meta.h"
#include "env/io_util.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/utilities/backup_engine.h"

namespace strata {
namespace backup {

class BackupEngineImpl final : public BackupEngine {
 public:
  // db_env reads the DBs' files and writes restored ones; the backup
  // directory goes through options.backup_env, or db_env if that is null.
  BackupEngineImpl(const BackupEngineOptions& options, Env* db_env,
                   bool read_only);

  // Checks (and, writable, creates) the directory and loads every
  // metadata file; a writable engine then deletes the old backups if
  // asked and collects garbage.
  IOStatus Initialize() LOCKS_EXCLUDED(mu_);

  // Reading (shared lock).
  Status GetLatestBackupInfo(BackupInfo* backup_info,
                             bool include_file_details) const override
      LOCKS_EXCLUDED(mu_);
  Status GetBackupInfo(BackupID backup_id, BackupInfo* backup_info,
                       bool include_file_details) const override
      LOCKS_EXCLUDED(mu_);
  void GetBackupInfo(std::vector<BackupInfo>* backup_infos,
                     bool include_file_details) const override
      LOCKS_EXCLUDED(mu_);
  void GetCorruptedBackups(std::vector<BackupID>* corrupt_backup_ids)
      const override LOCKS_EXCLUDED(mu_);
  using BackupEngineReadOnlyBase::RestoreDBFromBackup;
  IOStatus RestoreDBFromBackup(const RestoreOptions& options,
                               BackupID backup_id, const std::string& db_dir,
                               const std::string& wal_dir) const override
      LOCKS_EXCLUDED(mu_);
  using BackupEngineReadOnlyBase::RestoreDBFromLatestBackup;
  IOStatus RestoreDBFromLatestBackup(const RestoreOptions& options,
                                     const std::string& db_dir,
                                     const std::string& wal_dir) const override
      LOCKS_EXCLUDED(mu_);
  IOStatus VerifyBackup(BackupID backup_id,
                        bool verify_with_checksum) const override
      LOCKS_EXCLUDED(mu_);

  // Changing (exclusive lock).
  using BackupEngineAppendOnlyBase::CreateNewBackupWithMetadata;
  IOStatus CreateNewBackupWithMetadata(const CreateBackupOptions& options,
                                       DB* db, const std::string& app_metadata,
                                       BackupID* new_backup_id) override
      LOCKS_EXCLUDED(mu_);
  void StopBackup() override { stop_.store(true); }
  IOStatus GarbageCollect() override LOCKS_EXCLUDED(mu_);
  IOStatus PurgeOldBackups(uint32_t num_backups_to_keep) override
      LOCKS_EXCLUDED(mu_);
  IOStatus DeleteBackup(BackupID backup_id) override LOCKS_EXCLUDED(mu_);

 private:
  struct Backup {
    BackupMeta meta;      // empty unless loaded
    bool loaded = false;  // the metadata file parsed
    Status problem;       // why the backup is corrupt; OK if it is not
  };

  std::string Path(const std::string& relative) const {
    return JoinPath(options_.backup_dir, relative);
  }

  // backup_engine_open.cc
  IOStatus OpenDirectory();
  Status LoadBackups() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  Backup LoadBackup(BackupID id) const;

  // backup_engine_info.cc
  // The backup backup_id if it can be read: NotFound if there is none,
  // Corruption (with the reason) if its metadata did not load.
  Status FindLoaded(BackupID backup_id, const Backup** backup) const
      SHARED_LOCKS_REQUIRED(mu_);
  // FindLoaded, and Corruption (with the reason) if the backup is corrupt
  // at all.
  Status FindWhole(BackupID backup_id, const Backup** backup) const
      SHARED_LOCKS_REQUIRED(mu_);
  // NotFound naming backup_id and the directory.
  Status Unknown(BackupID backup_id) const;
  // The newest backup that is not corrupt, or null.
  const Backup* Latest() const SHARED_LOCKS_REQUIRED(mu_);
  BackupInfo Describe(const Backup& backup, bool include_file_details) const;
  // OK if every file of meta exists with its recorded size (and, with
  // with_checksum, its crc32c); else the first that does not, named.
  Status VerifyFiles(const BackupMeta& meta, bool with_checksum) const;

  // backup_engine_delete.cc
  // Removes temporary files, private directories of no backup and shared
  // tables no loaded backup names.
  IOStatus CollectGarbage() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::set<std::string> ReferencedFiles() const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Removes the metadata file, then the private directory; shared tables
  // are left to CollectGarbage.
  IOStatus RemoveBackup(BackupID backup_id) EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // backup_restore.cc
  IOStatus Restore(const RestoreOptions& options, const Backup& backup,
                   const std::string& db_dir) const SHARED_LOCKS_REQUIRED(mu_);

  const BackupEngineOptions options_;
  Env* const db_env_;
  Env* const backup_env_;
  const bool read_only_;
  std::atomic<bool> stop_{false};

  mutable port::RWMutex mu_;
  // Every backup with a metadata file, loaded or corrupt.
  std::map<BackupID, Backup> backups_ GUARDED_BY(mu_);
  // The next backup's id: above every id seen in this directory.
  BackupID next_id_ GUARDED_BY(mu_) = 1;
};

}  // namespace backup
}  // namespace strata

#endif  // STRATA_DB_UTILITIES_BACKUP_BACKUP_ENGINE_IMPL_H_
