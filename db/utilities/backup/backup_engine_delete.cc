// Deleting backups and collecting garbage: DeleteBackup, PurgeOldBackups,
// GarbageCollect.
//
// A backup is deleted by removing its metadata file first: from then on
// it does not exist, whatever else a crash leaves. Its private directory
// goes next; shared tables go when no loaded backup names them any more,
// found by listing the shared directories, so that what an interrupted
// deletion or backup left is found the same way.

#include <string>
#include <vector>

#include "db/filename.h"
#include "db/utilities/backup/backup_engine_impl.h"
#include "env/file_copy.h"
#include "strata/env.h"
#include "util/mutexlock.h"

namespace strata {
namespace backup {

IOStatus BackupEngineImpl::RemoveBackup(BackupID backup_id) {
  Status s = backup_env_->RemoveFile(Path(MetaFile(backup_id)));
  if (s.IsNotFound()) s = Status::OK();  // removed by someone else
  if (s.ok() && options_.sync) s = SyncDBDirectory(backup_env_, Path(kMetaDir));
  if (!s.ok()) return status_to_io_status(std::move(s));
  backups_.erase(backup_id);
  Log(options_.info_log, "BackupEngine: deleted backup %u", backup_id);
  // Best effort: what is left has no metadata file and is collected later.
  RemoveDirAndFiles(backup_env_, Path(PrivateDir(backup_id)));
  return IOStatus::OK();
}

std::set<std::string> BackupEngineImpl::ReferencedFiles() const {
  std::set<std::string> referenced;
  for (const auto& entry : backups_) {
    for (const BackupFile& f : entry.second.meta.files) {
      referenced.insert(f.stored);
    }
  }
  return referenced;
}

IOStatus BackupEngineImpl::CollectGarbage() {
  Status first_error;
  auto note = [&first_error](const Status& s) {
    if (!s.ok() && !s.IsNotFound() && first_error.ok()) first_error = s;
  };
  auto children = [this, &note](const char* dir) {
    std::vector<std::string> names;
    Status s = backup_env_->GetChildren(Path(dir), &names);
    if (!s.IsNotFound()) note(s);  // a shared directory may never be made
    return names;
  };

  for (const std::string& name : children(kMetaDir)) {
    if (IsTempName(name)) {
      note(backup_env_->RemoveFile(Path(std::string(kMetaDir) + "/" + name)));
    }
  }
  for (const std::string& name : children(kPrivateDir)) {
    BackupID id;
    const bool is_id = ParseBackupId(name, &id);
    if ((is_id && backups_.count(id) == 0) || IsTempName(name)) {
      Log(options_.info_log, "BackupEngine: removing %s/%s", kPrivateDir,
          name.c_str());
      RemoveDirAndFiles(backup_env_,
                        Path(std::string(kPrivateDir) + "/" + name));
    }
  }
  const std::set<std::string> referenced = ReferencedFiles();
  for (const char* dir : {kSharedDir, kSharedChecksumDir}) {
    for (const std::string& name : children(dir)) {
      const std::string relative = std::string(dir) + "/" + name;
      if (referenced.count(relative) == 0) {
        Log(options_.info_log, "BackupEngine: removing %s", relative.c_str());
        note(backup_env_->RemoveFile(Path(relative)));
      }
    }
  }
  return status_to_io_status(std::move(first_error));
}

IOStatus BackupEngineImpl::GarbageCollect() {
  WriteLock l(&mu_);
  return CollectGarbage();
}

IOStatus BackupEngineImpl::DeleteBackup(BackupID backup_id) {
  WriteLock l(&mu_);
  if (backups_.count(backup_id) == 0) {
    return status_to_io_status(Unknown(backup_id));
  }
  IOStatus s = RemoveBackup(backup_id);
  if (s.ok()) s = CollectGarbage();
  return s;
}

IOStatus BackupEngineImpl::PurgeOldBackups(uint32_t num_backups_to_keep) {
  WriteLock l(&mu_);
  std::vector<BackupID> good;  // oldest first
  for (const auto& entry : backups_) {
    if (entry.second.problem.ok()) good.push_back(entry.first);
  }
  IOStatus s;
  for (size_t i = 0; s.ok() && i + num_backups_to_keep < good.size(); i++) {
    s = RemoveBackup(good[i]);
  }
  if (s.ok()) s = CollectGarbage();
  return s;
}

}  // namespace backup
}  // namespace strata
