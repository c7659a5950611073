#include "db/utilities/backup/backup_writer.h"

#include <algorithm>
#include <utility>

#include "db/filename.h"
#include "db/utilities/backup/backup_layout.h"
#include "env/file_copy.h"
#include "env/io_util.h"
#include "strata/env.h"
#include "util/crc32c.h"
#include "util/kill_point.h"

namespace strata {
namespace backup {

BackupWriter::BackupWriter(const BackupEngineOptions& options, Env* db_env,
                           Env* backup_env, const CreateBackupOptions& create,
                           const std::atomic<bool>* stop,
                           std::map<std::string, BackupFile> known,
                           BackupMeta meta)
    : options_(options),
      db_env_(db_env),
      backup_env_(backup_env),
      create_(create),
      stop_(stop),
      known_(std::move(known)),
      meta_(std::move(meta)) {}

std::string BackupWriter::Path(const std::string& relative) const {
  return JoinPath(options_.backup_dir, relative);
}

Status BackupWriter::Start() {
  return backup_env_->CreateDirIfMissing(Path(PrivateDir(meta_.id)));
}

Status BackupWriter::Add(const LiveFileStorageInfo& file) {
  const std::string& listed = file.relative_filename;
  const std::string name = listed.substr(listed.find_last_of("/\\") + 1);
  if (!IsRestorableName(name)) {
    return Status::NotSupported("BackupEngine: cannot back up", listed);
  }
  const std::string src = file.directory + "/" + listed;
  BackupFile entry;
  entry.db_name = name;
  entry.size = file.size;
  Status s;
  if (file.file_type == kTableFile && options_.share_table_files) {
    s = AddShared(src, name, file.size, &entry);
  } else {
    entry.stored = PrivateDir(meta_.id) + "/" + name;
    if (!file.replacement_contents.empty()) {
      // CURRENT as the listing saw it: the DB may have replaced it since.
      TEST_KILL_POINT("Backup::CopyFile");
      entry.size = file.replacement_contents.size();
      entry.crc32c = crc32c::Value(file.replacement_contents.data(),
                                   file.replacement_contents.size());
      s = WriteStringToFile(backup_env_, file.replacement_contents,
                            Path(entry.stored), options_.sync);
    } else {
      s = Copy(src, entry.stored, file.size, &entry.crc32c);
    }
  }
  if (s.ok()) meta_.files.push_back(std::move(entry));
  return s;
}

Status BackupWriter::AddShared(const std::string& src, const std::string& name,
                               uint64_t size, BackupFile* file) {
  const bool with_checksum = options_.share_files_with_checksum;
  uint32_t crc = 0;
  if (with_checksum) {
    // The name holds the checksum: read the table to learn it, and copy
    // it only if no backup stores it yet.
    uint64_t read = 0;
    Status s = FileCrc32c(db_env_, src, size, &crc, &read);
    if (!s.ok()) return s;
    if (read < size) {
      return Status::Corruption(src, "is shorter than the " +
                                         std::to_string(size) +
                                         " bytes the DB lists");
    }
  }
  file->stored = SharedTablePath(name, crc, size, with_checksum);
  auto stored = known_.find(file->stored);
  if (stored != known_.end()) {
    if (stored->second.size != size) {
      return Status::InvalidArgument(
          Path(file->stored), "is another table of the same number (" +
                                  std::to_string(stored->second.size) +
                                  " bytes, this one " + std::to_string(size) +
                                  "); back up with share_files_with_checksum");
    }
    // Stored already, unless the file is gone or cut (its backups are
    // corrupt): then this copy puts it back for them too.
    uint64_t on_disk = 0;
    if (backup_env_->GetFileSize(Path(file->stored), &on_disk).ok() &&
        on_disk == size) {
      file->crc32c = stored->second.crc32c;
      return Status::OK();
    }
  }
  auto copied = copied_.find(file->stored);
  if (copied != copied_.end()) {  // listed twice
    file->crc32c = copied->second;
    return Status::OK();
  }
  const std::string tmp = file->stored + kTempSuffix;
  uint32_t copied_crc = 0;
  Status s = Copy(src, tmp, size, &copied_crc);
  if (s.ok() && with_checksum && copied_crc != crc) {
    s = Status::Corruption(src, "changed while it was copied");
  }
  TEST_KILL_POINT("Backup::RenameShared");
  if (s.ok()) s = backup_env_->RenameFile(Path(tmp), Path(file->stored));
  if (!s.ok()) {
    Status ignored = backup_env_->RemoveFile(Path(tmp));
    (void)ignored;
    return s;
  }
  copied_[file->stored] = copied_crc;
  file->crc32c = copied_crc;
  return Status::OK();
}

Status BackupWriter::Copy(const std::string& src, const std::string& relative,
                          uint64_t size, uint32_t* crc32c) {
  TEST_KILL_POINT("Backup::CopyFile");
  if (stop_->load()) return Status::Incomplete("Backup stopped");
  uint64_t reported = 0;
  FileCopyOptions copy;
  copy.sync = options_.sync;
  copy.crc32c = crc32c;
  copy.rate_limiter = options_.backup_rate_limiter.get();
  copy.on_chunk = [this, &reported](uint64_t copied) {
    TEST_KILL_POINT("Backup::CopyChunk");
    const uint64_t delta = copied - reported;
    reported = copied;
    return OnChunk(delta);
  };
  return CopyFileBetween(db_env_, src, backup_env_, Path(relative), size, copy);
}

Status BackupWriter::OnChunk(uint64_t bytes) {
  // One call per interval copied (per chunk if the interval is 0).
  const uint64_t interval =
      std::max<uint64_t>(options_.callback_trigger_interval_size, 1);
  bytes_since_progress_ +=
      options_.callback_trigger_interval_size == 0 ? interval : bytes;
  while (bytes_since_progress_ >= interval) {
    bytes_since_progress_ -= interval;
    if (create_.progress_callback) create_.progress_callback();
  }
  if (stop_->load()) return Status::Incomplete("Backup stopped");
  return Status::OK();
}

Status BackupWriter::Commit(SequenceNumber sequence) {
  meta_.sequence = sequence;
  // CURRENT is restored last, after the files it names.
  std::stable_partition(
      meta_.files.begin(), meta_.files.end(),
      [](const BackupFile& f) { return f.db_name != "CURRENT"; });
  Status s;
  if (options_.sync) {
    s = SyncDBDirectory(backup_env_, Path(PrivateDir(meta_.id)));
    const char* shared =
        options_.share_files_with_checksum ? kSharedChecksumDir : kSharedDir;
    if (s.ok() && !copied_.empty()) {
      s = SyncDBDirectory(backup_env_, Path(shared));
    }
  }
  TEST_KILL_POINT("Backup::WriteMeta");
  const std::string tmp = Path(MetaTempFile(meta_.id));
  if (s.ok()) {
    s = WriteStringToFile(backup_env_, EncodeBackupMeta(meta_), tmp,
                          options_.sync);
  }
  TEST_KILL_POINT("Backup::RenameMeta");
  if (s.ok()) s = backup_env_->RenameFile(tmp, Path(MetaFile(meta_.id)));
  meta_renamed_ = s.ok();
  TEST_KILL_POINT("Backup::SyncMeta");
  if (s.ok() && options_.sync) {
    s = SyncDBDirectory(backup_env_, Path(kMetaDir));
  }
  return s;
}

void BackupWriter::Abandon() {
  // The metadata first: without it nothing below is a backup.
  const std::string meta =
      meta_renamed_ ? MetaFile(meta_.id) : MetaTempFile(meta_.id);
  Status ignored = backup_env_->RemoveFile(Path(meta));
  RemoveDirAndFiles(backup_env_, Path(PrivateDir(meta_.id)));
  for (const auto& shared : copied_) {
    ignored = backup_env_->RemoveFile(Path(shared.first));
  }
  (void)ignored;
}

}  // namespace backup
}  // namespace strata
