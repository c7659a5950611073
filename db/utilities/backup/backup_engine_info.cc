// Listing and verifying backups: GetBackupInfo, GetLatestBackupInfo,
// GetCorruptedBackups, VerifyBackup.

#include <string>

#include "db/filename.h"
#include "db/utilities/backup/backup_engine_impl.h"
#include "db/utilities/backup/backup_open_env.h"
#include "env/file_copy.h"
#include "strata/env.h"
#include "util/mutexlock.h"

namespace strata {
namespace backup {

namespace {

std::string BackupName(BackupID id) { return "backup " + std::to_string(id); }

// The crc32c as BackupFileInfo::file_checksum holds it: 4 bytes, most
// significant first.
std::string ChecksumBytes(uint32_t crc) {
  std::string bytes;
  for (int shift = 24; shift >= 0; shift -= 8) {
    bytes.push_back(static_cast<char>((crc >> shift) & 0xff));
  }
  return bytes;
}

}  // namespace

Status BackupEngineImpl::FindLoaded(BackupID backup_id,
                                    const Backup** backup) const {
  auto it = backups_.find(backup_id);
  if (it == backups_.end()) return Unknown(backup_id);
  if (!it->second.loaded) {
    return Status::Corruption(BackupName(backup_id) + " is corrupt",
                              it->second.problem.ToString());
  }
  *backup = &it->second;
  return Status::OK();
}

Status BackupEngineImpl::FindWhole(BackupID backup_id,
                                   const Backup** backup) const {
  Status s = FindLoaded(backup_id, backup);
  if (s.ok() && !(*backup)->problem.ok()) {
    s = Status::Corruption(BackupName(backup_id) + " is corrupt",
                           (*backup)->problem.ToString());
  }
  return s;
}

Status BackupEngineImpl::Unknown(BackupID backup_id) const {
  return Status::NotFound("Backup not found",
                          BackupName(backup_id) + " in " + options_.backup_dir);
}

const BackupEngineImpl::Backup* BackupEngineImpl::Latest() const {
  for (auto it = backups_.rbegin(); it != backups_.rend(); ++it) {
    if (it->second.problem.ok()) return &it->second;
  }
  return nullptr;
}

BackupInfo BackupEngineImpl::Describe(const Backup& backup,
                                      bool include_file_details) const {
  const BackupMeta& meta = backup.meta;
  BackupInfo info(meta.id, meta.timestamp, meta.TotalSize(),
                  static_cast<uint32_t>(meta.files.size()), meta.app_metadata);
  if (!include_file_details) return info;
  std::map<std::string, std::string> shared_tables;
  for (const BackupFile& f : meta.files) {
    BackupFileInfo file;
    file.relative_filename = f.stored;
    file.directory = options_.backup_dir;
    ParseFileName(f.db_name, &file.file_number, &file.file_type);
    file.size = f.size;
    file.file_checksum = ChecksumBytes(f.crc32c);
    file.file_checksum_func_name = kBackupFileChecksumFuncName;
    info.file_details.push_back(std::move(file));
    if (f.stored.compare(0, sizeof(kPrivateDir) - 1, kPrivateDir) != 0) {
      shared_tables[f.db_name] = Path(f.stored);
    }
  }
  info.name_for_open = Path(PrivateDir(meta.id));
  info.env_for_open =
      NewBackupOpenEnv(backup_env_, info.name_for_open, shared_tables);
  return info;
}

Status BackupEngineImpl::GetLatestBackupInfo(BackupInfo* backup_info,
                                             bool include_file_details) const {
  ReadLock l(&mu_);
  const Backup* latest = Latest();
  if (latest == nullptr) {
    return Status::NotFound("No backup in " + options_.backup_dir);
  }
  *backup_info = Describe(*latest, include_file_details);
  return Status::OK();
}

Status BackupEngineImpl::GetBackupInfo(BackupID backup_id,
                                       BackupInfo* backup_info,
                                       bool include_file_details) const {
  ReadLock l(&mu_);
  const Backup* backup = nullptr;
  Status s = FindWhole(backup_id, &backup);
  if (!s.ok()) return s;
  *backup_info = Describe(*backup, include_file_details);
  return Status::OK();
}

void BackupEngineImpl::GetBackupInfo(std::vector<BackupInfo>* backup_infos,
                                     bool include_file_details) const {
  ReadLock l(&mu_);
  backup_infos->clear();
  for (const auto& entry : backups_) {
    if (entry.second.problem.ok()) {
      backup_infos->push_back(Describe(entry.second, include_file_details));
    }
  }
}

void BackupEngineImpl::GetCorruptedBackups(
    std::vector<BackupID>* corrupt_backup_ids) const {
  ReadLock l(&mu_);
  corrupt_backup_ids->clear();
  for (const auto& entry : backups_) {
    if (!entry.second.problem.ok()) corrupt_backup_ids->push_back(entry.first);
  }
}

IOStatus BackupEngineImpl::VerifyBackup(BackupID backup_id,
                                        bool verify_with_checksum) const {
  ReadLock l(&mu_);
  const Backup* backup = nullptr;
  Status s = FindLoaded(backup_id, &backup);
  // The files are checked as they are now, whatever Open found.
  if (s.ok()) s = VerifyFiles(backup->meta, verify_with_checksum);
  return status_to_io_status(std::move(s));
}

Status BackupEngineImpl::VerifyFiles(const BackupMeta& meta,
                                     bool with_checksum) const {
  const std::string owner = " (" + BackupName(meta.id) + ")";
  for (const BackupFile& f : meta.files) {
    const std::string path = Path(f.stored);
    uint64_t size = 0;
    Status s = backup_env_->GetFileSize(path, &size);
    if (s.IsNotFound()) return Status::NotFound(path, "is missing" + owner);
    if (!s.ok()) return s;
    if (size != f.size) {
      return Status::Corruption(path, "has " + std::to_string(size) +
                                          " bytes, its metadata says " +
                                          std::to_string(f.size) + owner);
    }
    if (!with_checksum) continue;
    uint32_t crc = 0;
    uint64_t read = 0;
    s = FileCrc32c(backup_env_, path, f.size, &crc, &read);
    if (!s.ok()) return s;
    if (crc != f.crc32c) {
      return Status::Corruption(path, "crc32c " + std::to_string(crc) +
                                          ", its metadata says " +
                                          std::to_string(f.crc32c) + owner);
    }
  }
  return Status::OK();
}

}  // namespace backup
}  // namespace strata
