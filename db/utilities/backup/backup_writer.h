// BackupWriter: the writing of one new backup into the backup directory.
// Its files are added one by one (copied, or found already stored), then
// the metadata file is written, last, under a temporary name, synced and
// renamed into place: the backup exists from that rename on. A backup
// that fails before then is abandoned, and what it wrote is removed.
//
// The kill points (util/kill_point.h) a crash test stops it at:
//   Backup::CopyFile      before each file is written
//   Backup::CopyChunk     after each chunk of a copy
//   Backup::RenameShared  a shared table copied, before its rename
//   Backup::WriteMeta     every file in place, before the metadata
//   Backup::RenameMeta    the metadata synced, before its rename
//   Backup::SyncMeta      renamed, before meta/ is synced
//
// Thread safety: used by one thread (the engine holds its lock).

#ifndef STRATA_DB_UTILITIES_BACKUP_BACKUP_WRITER_H_
#define STRATA_DB_UTILITIES_BACKUP_BACKUP_WRITER_H_

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "db/utilities/backup/backup_meta.h"
#include "strata/metadata.h"
#include "strata/utilities/backup_engine.h"

namespace strata {
namespace backup {

class BackupWriter {
 public:
  // known: every file the directory's loaded backups hold, by stored
  // path; a shared table among them is not copied again. stop is the
  // engine's StopBackup flag.
  BackupWriter(const BackupEngineOptions& options, Env* db_env, Env* backup_env,
               const CreateBackupOptions& create, const std::atomic<bool>* stop,
               std::map<std::string, BackupFile> known, BackupMeta meta);

  // Makes private/<id>/.
  Status Start();
  // Adds one of the DB's files as listed by GetLiveFilesStorageInfo.
  Status Add(const LiveFileStorageInfo& file);
  // Writes the metadata file, recording that the backup holds the writes
  // up to sequence: the backup exists once this returns OK.
  Status Commit(SequenceNumber sequence);
  // Removes what this backup wrote (after a failure).
  void Abandon();

  const BackupMeta& meta() const { return meta_; }

 private:
  Status AddShared(const std::string& src, const std::string& name,
                   uint64_t size, BackupFile* file);
  // Copies the first size bytes of src (in the DB's Env) to relative.
  Status Copy(const std::string& src, const std::string& relative,
              uint64_t size, uint32_t* crc32c);
  Status OnChunk(uint64_t bytes);
  std::string Path(const std::string& relative) const;

  const BackupEngineOptions& options_;
  Env* const db_env_;
  Env* const backup_env_;
  const CreateBackupOptions& create_;
  const std::atomic<bool>* const stop_;
  // Every file stored before this backup, by stored path.
  const std::map<std::string, BackupFile> known_;
  BackupMeta meta_;
  // Shared tables this backup copied, with their crc32c (removed if it is
  // abandoned).
  std::map<std::string, uint32_t> copied_;
  bool meta_renamed_ = false;
  uint64_t bytes_since_progress_ = 0;
};

}  // namespace backup
}  // namespace strata

#endif  // STRATA_DB_UTILITIES_BACKUP_BACKUP_WRITER_H_
