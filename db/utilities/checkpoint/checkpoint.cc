// Checkpoint (docs/operations.md, "Checkpoints"): the files of
// DB::GetLiveFilesStorageInfo written into <dir>.tmp — tables hard-linked
// or copied, the others copied up to their listed size, CURRENT written
// from its listed contents — then synced and renamed to <dir>. Deletions
// are disabled while the files are copied, so none goes meanwhile.

#include "strata/utilities/checkpoint.h"

#include <memory>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "env/file_copy.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/metadata.h"

namespace strata {

namespace {

std::string ParentDir(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  if (slash == std::string::npos) return ".";
  if (slash == 0) return path.substr(0, 1);
  return path.substr(0, slash);
}

class CheckpointImpl : public Checkpoint {
 public:
  explicit CheckpointImpl(DB* db) : db_(db) {}

  Status CreateCheckpoint(const std::string& checkpoint_dir,
                          uint64_t log_size_for_flush,
                          uint64_t* sequence_number_ptr) override;

 private:
  // Lists the live files (deletions disabled by the caller) and writes
  // them into dir.
  Status CopyInto(const std::string& dir, uint64_t log_size_for_flush,
                  SequenceNumber* sequence);
  // Writes one listed file into dir; *link: tables may still be linked.
  Status CopyFileInto(const LiveFileStorageInfo& file, const std::string& dir,
                      bool* link);

  DB* const db_;
};

Status CheckpointImpl::CreateCheckpoint(const std::string& checkpoint_dir,
                                        uint64_t log_size_for_flush,
                                        uint64_t* sequence_number_ptr) {
  if (checkpoint_dir.empty()) {
    return Status::InvalidArgument("CreateCheckpoint: empty directory name");
  }
  Env* env = db_->GetEnv();
  Status s = env->FileExists(checkpoint_dir);
  if (s.ok()) {
    return Status::InvalidArgument("CreateCheckpoint: directory exists",
                                   checkpoint_dir);
  }
  if (!s.IsNotFound()) return s;
  // A <dir>.tmp is what an earlier attempt left behind: its files go. (On
  // Windows without POSIX deletes, a removed link to a table the DB holds
  // open stays, under a hidden name, until the DB closes the table; the
  // directory then stays too, and is used as it is.)
  const std::string tmp = checkpoint_dir + ".tmp";
  if (env->FileExists(tmp).ok()) RemoveDirAndFiles(env, tmp);
  s = env->CreateDirIfMissing(tmp);
  if (!s.ok()) return s;

  SequenceNumber sequence = 0;
  s = db_->DisableFileDeletions();
  if (s.ok()) {
    s = CopyInto(tmp, log_size_for_flush, &sequence);
    // Counted: this undoes only this checkpoint's disabling.
    Status enabled = db_->EnableFileDeletions(/*force=*/false);
    if (s.ok()) s = enabled;
  }
  if (s.ok()) s = SyncDBDirectory(env, tmp);
  if (s.ok()) s = env->RenameFile(tmp, checkpoint_dir);
  if (s.ok()) s = SyncDBDirectory(env, ParentDir(checkpoint_dir));
  if (!s.ok()) {
    RemoveDirAndFiles(env, tmp);
    // Renamed, but the rename may not survive a power loss: no checkpoint
    // is promised, so none is left.
    if (env->FileExists(checkpoint_dir).ok()) {
      RemoveDirAndFiles(env, checkpoint_dir);
    }
    return s;
  }
  if (sequence_number_ptr != nullptr) *sequence_number_ptr = sequence;
  return Status::OK();
}

Status CheckpointImpl::CopyInto(const std::string& dir,
                                uint64_t log_size_for_flush,
                                SequenceNumber* sequence) {
  LiveFilesStorageInfoOptions opts;
  opts.wal_size_for_flush = log_size_for_flush;
  std::vector<LiveFileStorageInfo> files;
  Status s;
  if (auto* impl = dynamic_cast<DBImpl*>(db_)) {
    s = impl->LiveFilesAt(opts, &files, sequence);
  } else {
    // A DB of the caller's own: its latest sequence number before the
    // listing is at least part of the copy.
    *sequence = db_->GetLatestSequenceNumber();
    s = db_->GetLiveFilesStorageInfo(opts, &files);
  }
  bool link = true;
  for (size_t i = 0; s.ok() && i < files.size(); i++) {
    s = CopyFileInto(files[i], dir, &link);
  }
  return s;
}

Status CheckpointImpl::CopyFileInto(const LiveFileStorageInfo& file,
                                    const std::string& dir, bool* link) {
  Env* env = db_->GetEnv();
  const std::string src = file.directory + "/" + file.relative_filename;
  const std::string dst = dir + "/" + file.relative_filename;
  if (!file.replacement_contents.empty()) {
    return WriteStringToFile(env, file.replacement_contents, dst,
                             /*should_sync=*/true);
  }
  if (file.file_type == kTableFile && *link) {
    if (env->LinkFile(src, dst).ok()) return Status::OK();
    // Another file system, or one without hard links: copy from here on.
    *link = false;
  }
  return CopyFile(env, src, dst, file.size, /*sync=*/true);
}

}  // namespace

Status Checkpoint::Create(DB* db, Checkpoint** checkpoint_ptr) {
  if (db == nullptr || checkpoint_ptr == nullptr) {
    return Status::InvalidArgument("Checkpoint::Create: null argument");
  }
  *checkpoint_ptr = new CheckpointImpl(db);
  return Status::OK();
}

Status Checkpoint::CreateCheckpoint(const std::string& /*checkpoint_dir*/,
                                    uint64_t /*log_size_for_flush*/,
                                    uint64_t* /*sequence_number_ptr*/) {
  return Status::NotSupported("Checkpoint::CreateCheckpoint");
}

Status Checkpoint::ExportColumnFamily(
    ColumnFamilyHandle* /*handle*/, const std::string& /*export_dir*/,
    ExportImportFilesMetaData** /*metadata*/) {
  return Status::NotSupported("Checkpoint::ExportColumnFamily",
                              "not supported by strata");
}

}  // namespace strata
