// BackupEngine: numbered backups of a live DB in a directory of their own,
// restorable into any directory (docs/operations.md, "Backups"; the
// directory's layout and the metadata file: docs/formats/backup.md).
//
// A backup holds exactly the writes up to one sequence number across every
// column family, as a checkpoint does. Table files are shared between the
// backups of a directory: a table already stored is not copied again, so a
// new backup costs the tables written since the last one plus the small
// files (MANIFEST, CURRENT, OPTIONS, the WALs' needed part). A backup
// exists once its metadata file does; that file is written last, so an
// interrupted backup leaves the earlier ones intact and what it copied is
// removed by the next writable Open or GarbageCollect.
//
// Thread safety: an engine's calls may come from many threads. Reads
// (listing, verifying, restoring) run together; CreateNewBackup,
// DeleteBackup, PurgeOldBackups and GarbageCollect run one at a time and
// exclude the reads. StopBackup may be called at any time. Two engines
// may read one directory at once; only one should change it.

#ifndef STRATA_INCLUDE_UTILITIES_BACKUP_ENGINE_H_
#define STRATA_INCLUDE_UTILITIES_BACKUP_ENGINE_H_

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/export.h"
#include "strata/io_status.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "strata/status.h"

namespace strata {

class DB;
class Logger;
class RateLimiter;

// The names RocksDB gives the checksum of a DB's files and the checksum a
// backup keeps of each of its files (crc32c, in either case).
constexpr char kDbFileChecksumFuncName[] = "FileChecksumCrc32c";
constexpr char kBackupFileChecksumFuncName[] = "crc32c";

struct STRATA_EXPORT BackupEngineOptions {
  // The directory holding the backups; required. It must not be the DB's
  // own directory (a directory inside it is fine).
  std::string backup_dir;

  // The Env the backup directory is read and written through; null: the
  // Env given to Open (the DB's).
  Env* backup_env;

  // Store each table once for all the backups that hold it (under shared/
  // or shared_checksum/). When false every backup has its own copy.
  bool share_table_files;

  // Where the engine logs what it does; null: nowhere.
  Logger* info_log;

  // Sync every file and directory written, so that a backup (or a
  // restored DB) survives a power loss once its call has returned. When
  // false, only a crash of the process is survived.
  bool sync;

  // Delete every backup in backup_dir when the engine opens.
  bool destroy_old_data;

  // Copy the WALs' needed part into the backup. Without them a backup
  // holds only what the tables hold (flush_before_backup puts everything
  // there).
  bool backup_log_files;

  // Bytes per second for copying (0: no limit): a generic limiter is made.
  uint64_t backup_rate_limit;
  // The limiter of a backup's copies, at IO_LOW; if set, the rate is unused.
  std::shared_ptr<RateLimiter> backup_rate_limiter{nullptr};

  // As backup_rate_limit / backup_rate_limiter, for restoring.
  uint64_t restore_rate_limit;
  std::shared_ptr<RateLimiter> restore_rate_limiter{nullptr};

  // With share_table_files: name a shared table by its number, crc32c and
  // size (shared_checksum/<number>_<crc32c>_<size>.sst) rather than by its
  // number alone (shared/<number>.sst). Two different tables with the
  // same number (say, from a DB restored from an older backup and written
  // since) are then kept apart; with false the second is refused.
  bool share_files_with_checksum;

  // Threads copying files. strata copies on the calling thread; the value
  // is kept and otherwise ignored.
  int max_background_operations;

  // CreateBackupOptions::progress_callback runs after each file once this
  // many more bytes have been copied since it last ran.
  uint64_t callback_trigger_interval_size;

  // A BackupEngineReadOnly opens only this many of the newest backups
  // that load without error; the others are not listed. A writable engine
  // opens them all (it must know every shared file's users).
  int max_valid_backups_to_open;

  // RocksDB's naming schemes for shared tables. strata's tables carry no
  // DB session id: every scheme names them by number, crc32c and size.
  enum ShareFilesNaming : uint32_t {
    kLegacyCrc32cAndFileSize = 1U,
    kUseDbSessionId = 2U,
    kMaskNoNamingFlags = 0xffffU,
    kFlagIncludeFileSize = 1U << 31,
    kMaskNamingFlags = ~kMaskNoNamingFlags,
  };
  // Kept, not honoured (above).
  ShareFilesNaming share_files_with_checksum_naming;

  // The version of RocksDB's metadata format and the temperature option;
  // strata writes its own format (docs/formats/backup.md). Kept, not
  // honoured.
  int schema_version = 1;
  bool current_temperatures_override_manifest = false;

  // Writes the options to logger, one per line.
  void Dump(Logger* logger) const;

  explicit BackupEngineOptions(
      const std::string& _backup_dir, Env* _backup_env = nullptr,
      bool _share_table_files = true, Logger* _info_log = nullptr,
      bool _sync = true, bool _destroy_old_data = false,
      bool _backup_log_files = true, uint64_t _backup_rate_limit = 0,
      uint64_t _restore_rate_limit = 0, int _max_background_operations = 1,
      uint64_t _callback_trigger_interval_size = 4 * 1024 * 1024,
      int _max_valid_backups_to_open = INT_MAX,
      ShareFilesNaming _share_files_with_checksum_naming =
          static_cast<ShareFilesNaming>(kUseDbSessionId | kFlagIncludeFileSize))
      : backup_dir(_backup_dir),
        backup_env(_backup_env),
        share_table_files(_share_table_files),
        info_log(_info_log),
        sync(_sync),
        destroy_old_data(_destroy_old_data),
        backup_log_files(_backup_log_files),
        backup_rate_limit(_backup_rate_limit),
        restore_rate_limit(_restore_rate_limit),
        share_files_with_checksum(true),
        max_background_operations(_max_background_operations),
        callback_trigger_interval_size(_callback_trigger_interval_size),
        max_valid_backups_to_open(_max_valid_backups_to_open),
        share_files_with_checksum_naming(_share_files_with_checksum_naming) {}
};

inline BackupEngineOptions::ShareFilesNaming operator&(
    BackupEngineOptions::ShareFilesNaming lhs,
    BackupEngineOptions::ShareFilesNaming rhs) {
  return static_cast<BackupEngineOptions::ShareFilesNaming>(
      static_cast<uint32_t>(lhs) & static_cast<uint32_t>(rhs));
}

inline BackupEngineOptions::ShareFilesNaming operator|(
    BackupEngineOptions::ShareFilesNaming lhs,
    BackupEngineOptions::ShareFilesNaming rhs) {
  return static_cast<BackupEngineOptions::ShareFilesNaming>(
      static_cast<uint32_t>(lhs) | static_cast<uint32_t>(rhs));
}

struct STRATA_EXPORT CreateBackupOptions {
  // Flush every family first, so that the backup needs no WAL. Without it
  // the memtables' writes reach the backup through the WALs (unless
  // backup_log_files is false); writes made with disableWAL then miss it.
  bool flush_before_backup = false;

  // Called on the backing-up thread as the copy progresses (see
  // callback_trigger_interval_size). It must not throw.
  std::function<void()> progress_callback = []() {};

  // Lowering the copying threads' priority. strata copies on the calling
  // thread and leaves its priority alone: kept, not honoured.
  bool decrease_background_thread_cpu_priority = false;
  CpuPriority background_thread_cpu_priority = CpuPriority::kNormal;
};

struct STRATA_EXPORT RestoreOptions {
  // Leave the WALs already in the target directory in place (the
  // backup's own WALs do not replace them; the restored MANIFEST takes a
  // number above every file's, so that a kept WAL's record of its own DB's
  // MANIFEST does not apply to it). With false every WAL there is removed
  // first. Meant for backups made with backup_log_files = false of a DB
  // whose WALs outlive its tables.
  bool keep_log_files;

  explicit RestoreOptions(bool _keep_log_files = false)
      : keep_log_files(_keep_log_files) {}
};

// Backups are numbered 1, 2, ... in the order they were made.
using BackupID = uint32_t;

// A file of a backup: relative_filename is its path under directory (the
// backup directory), file_number and file_type those of the DB file it
// restores to, file_checksum its crc32c (4 bytes, most significant first)
// named by file_checksum_func_name (kBackupFileChecksumFuncName).
using BackupFileInfo = FileStorageInfo;

struct STRATA_EXPORT BackupInfo {
  BackupID backup_id = 0U;
  // When the backup was made: seconds since the Unix epoch.
  int64_t timestamp = 0;
  // The bytes of its files (shared ones counted in each backup holding
  // them), without the metadata file.
  uint64_t size = 0U;
  // Its files, shared ones included; the metadata file not counted.
  uint32_t number_files = 0U;
  // What the application stored with CreateNewBackupWithMetadata.
  std::string app_metadata;
  // Each file, when asked for with include_file_details.
  std::vector<BackupFileInfo> file_details;
  // With include_file_details: a DB name and an Env under which the backup
  // opens in place as a read-only DB (DB::OpenForReadOnly with
  // options.env = env_for_open.get()). The Env maps the shared tables into
  // the private directory; it lives as long as any copy of the pointer.
  std::string name_for_open;
  std::shared_ptr<Env> env_for_open;

  BackupInfo() {}
  BackupInfo(BackupID _backup_id, int64_t _timestamp, uint64_t _size,
             uint32_t _number_files, const std::string& _app_metadata)
      : backup_id(_backup_id),
        timestamp(_timestamp),
        size(_size),
        number_files(_number_files),
        app_metadata(_app_metadata) {}
};

// Counts of backups made and failed (RocksDB's class; strata's engine does
// not report one).
class STRATA_EXPORT BackupStatistics {
 public:
  BackupStatistics() : number_success_backup(0), number_fail_backup(0) {}
  BackupStatistics(uint32_t _number_success_backup,
                   uint32_t _number_fail_backup)
      : number_success_backup(_number_success_backup),
        number_fail_backup(_number_fail_backup) {}
  ~BackupStatistics() {}

  void IncrementNumberSuccessBackup();
  void IncrementNumberFailBackup();
  uint32_t GetNumberSuccessBackup() const;
  uint32_t GetNumberFailBackup() const;
  std::string ToString() const;

 private:
  uint32_t number_success_backup;
  uint32_t number_fail_backup;
};

// What both kinds of engine do: read the backup directory, and restore
// (which writes only into the target directory).
class STRATA_EXPORT BackupEngineReadOnlyBase {
 public:
  virtual ~BackupEngineReadOnlyBase() {}

  // The newest backup that is not corrupt; NotFound if there is none.
  virtual Status GetLatestBackupInfo(
      BackupInfo* backup_info, bool include_file_details = false) const = 0;

  // Backup backup_id: NotFound if there is no such backup, Corruption if
  // it is known to be damaged (GetCorruptedBackups).
  virtual Status GetBackupInfo(BackupID backup_id, BackupInfo* backup_info,
                               bool include_file_details = false) const = 0;

  // Every backup that is not corrupt, oldest first.
  virtual void GetBackupInfo(std::vector<BackupInfo>* backup_infos,
                             bool include_file_details = false) const = 0;

  // The backups found damaged when the engine opened: a metadata file
  // that does not parse, or a file it lists missing or of another size.
  // A writable engine's DeleteBackup may remove them; nothing else does,
  // though GarbageCollect may remove shared tables only they name (those
  // of a metadata file that does not parse are unknown).
  virtual void GetCorruptedBackups(
      std::vector<BackupID>* corrupt_backup_ids) const = 0;

  // Writes backup backup_id into db_dir (created if missing) as a DB that
  // opens with its data: the files there of the DB's kinds are removed
  // first (the WALs too, unless options.keep_log_files), each file is
  // copied and its crc32c checked, and CURRENT is written last. strata
  // keeps WALs in the DB directory: wal_dir must be db_dir or empty.
  // Refused with Busy while a DB has db_dir open (its LOCK is held);
  // NotFound for an unknown backup_id; Corruption naming the backup and
  // the file when one is missing or damaged.
  virtual IOStatus RestoreDBFromBackup(const RestoreOptions& options,
                                       BackupID backup_id,
                                       const std::string& db_dir,
                                       const std::string& wal_dir) const = 0;

  // The older argument order.
  virtual IOStatus RestoreDBFromBackup(
      BackupID backup_id, const std::string& db_dir, const std::string& wal_dir,
      const RestoreOptions& options = RestoreOptions()) const {
    return RestoreDBFromBackup(options, backup_id, db_dir, wal_dir);
  }

  // RestoreDBFromBackup of the newest backup that is not corrupt.
  virtual IOStatus RestoreDBFromLatestBackup(
      const RestoreOptions& options, const std::string& db_dir,
      const std::string& wal_dir) const = 0;

  // The older argument order.
  virtual IOStatus RestoreDBFromLatestBackup(
      const std::string& db_dir, const std::string& wal_dir,
      const RestoreOptions& options = RestoreOptions()) const {
    return RestoreDBFromLatestBackup(options, db_dir, wal_dir);
  }

  // Checks that every file of backup backup_id exists with the size its
  // metadata records and, with verify_with_checksum, reads each and
  // compares its crc32c too. NotFound for an unknown backup_id; otherwise
  // the first problem, naming the file.
  virtual IOStatus VerifyBackup(BackupID backup_id,
                                bool verify_with_checksum = false) const = 0;
};

// Adding to the backup directory.
class STRATA_EXPORT BackupEngineAppendOnlyBase {
 public:
  virtual ~BackupEngineAppendOnlyBase() {}

  // Makes a new backup of db, the newest, storing app_metadata with it
  // (any bytes); *new_backup_id (if not null) receives its number. File
  // deletions in db are disabled while its files are copied. A read-only
  // DB is backed up as its files are (nothing is flushed).
  virtual IOStatus CreateNewBackupWithMetadata(
      const CreateBackupOptions& options, DB* db,
      const std::string& app_metadata, BackupID* new_backup_id = nullptr) = 0;

  // The older form.
  virtual IOStatus CreateNewBackupWithMetadata(
      DB* db, const std::string& app_metadata, bool flush_before_backup = false,
      std::function<void()> progress_callback = []() {}) {
    CreateBackupOptions options;
    options.flush_before_backup = flush_before_backup;
    options.progress_callback = progress_callback;
    return CreateNewBackupWithMetadata(options, db, app_metadata);
  }

  // CreateNewBackupWithMetadata without metadata.
  virtual IOStatus CreateNewBackup(const CreateBackupOptions& options, DB* db,
                                   BackupID* new_backup_id = nullptr) {
    return CreateNewBackupWithMetadata(options, db, "", new_backup_id);
  }

  // The older form.
  virtual IOStatus CreateNewBackup(
      DB* db, bool flush_before_backup = false,
      std::function<void()> progress_callback = []() {}) {
    CreateBackupOptions options;
    options.flush_before_backup = flush_before_backup;
    options.progress_callback = progress_callback;
    return CreateNewBackup(options, db);
  }

  // Asks a CreateNewBackup running on another thread to stop before its
  // next file; it then returns Incomplete and leaves no backup. Returns at
  // once. Every later CreateNewBackup of this engine is refused likewise.
  virtual void StopBackup() = 0;

  // Removes what interrupted backups and deletions left: temporary files,
  // private directories without a metadata file, and shared tables no
  // metadata file names. Backups found corrupt keep their files, except
  // shared tables only an unparseable metadata file could name.
  virtual IOStatus GarbageCollect() = 0;
};

// The writable engine: adds deleting backups.
class STRATA_EXPORT BackupEngine : public BackupEngineReadOnlyBase,
                                   public BackupEngineAppendOnlyBase {
 public:
  virtual ~BackupEngine() {}

  // Opens the backups in options.backup_dir, creating the directory (not
  // its parent) if missing, and garbage-collects what an interrupted
  // backup left. db_env is the DB's Env (for reading a DB's files and
  // writing restored ones). A backup_dir that is a file is an IOError.
  // The caller deletes *backup_engine_ptr.
  static IOStatus Open(const BackupEngineOptions& options, Env* db_env,
                       BackupEngine** backup_engine_ptr);

  // The older argument order.
  static IOStatus Open(Env* db_env, const BackupEngineOptions& options,
                       BackupEngine** backup_engine_ptr) {
    return BackupEngine::Open(options, db_env, backup_engine_ptr);
  }

  // Deletes every backup but the num_backups_to_keep newest (corrupt
  // backups are neither counted nor deleted).
  virtual IOStatus PurgeOldBackups(uint32_t num_backups_to_keep) = 0;

  // Deletes backup backup_id (a corrupt one too): its metadata file first,
  // then its private files and the shared tables no other backup holds.
  // NotFound for an unknown id. A deletion cut short is finished by the
  // next DeleteBackup, PurgeOldBackups, GarbageCollect or writable Open.
  virtual IOStatus DeleteBackup(BackupID backup_id) = 0;
};

// An engine that only reads the backup directory: it never creates,
// deletes or changes a file there. The directory must exist and hold
// meta/ (NotFound otherwise).
class STRATA_EXPORT BackupEngineReadOnly : public BackupEngineReadOnlyBase {
 public:
  virtual ~BackupEngineReadOnly() {}

  static IOStatus Open(const BackupEngineOptions& options, Env* db_env,
                       BackupEngineReadOnly** backup_engine_ptr);
  // The older argument order.
  static IOStatus Open(Env* db_env, const BackupEngineOptions& options,
                       BackupEngineReadOnly** backup_engine_ptr) {
    return BackupEngineReadOnly::Open(options, db_env, backup_engine_ptr);
  }
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_BACKUP_ENGINE_H_
