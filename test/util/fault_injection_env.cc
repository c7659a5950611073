#include "test/util/fault_injection_env.h"

#include <utility>
#include <vector>

#include "strata/io_status.h"
#include "util/mutexlock.h"

namespace strata {
namespace test {

namespace {

std::string ParentDir(const std::string& path) {
  const size_t sep = path.find_last_of("/\\");
  return sep == std::string::npos ? std::string() : path.substr(0, sep);
}

// A read: the injected failure, with an empty result, or read().
template <typename ReadFn>
Status CountedRead(FaultInjectionEnv* env, const std::string& name,
                   Slice* result, char* scratch, ReadFn read) {
  Status s = env->MaybeFail(IOKind::kRead, name, "read");
  if (!s.ok()) {
    *result = Slice(scratch, 0);
    return s;
  }
  return read();
}

// A close, counted once: the file is closed even when the close fails.
template <typename File>
Status CountedClose(FaultInjectionEnv* env, const std::string& name,
                    const char* op, bool* closed, File* target) {
  if (*closed) return Status::OK();
  *closed = true;
  Status s = env->MaybeFail(IOKind::kClose, name, op);
  Status close = target->Close();
  return s.ok() ? close : s;
}

class FaultSequentialFile : public SequentialFile {
 public:
  FaultSequentialFile(std::unique_ptr<SequentialFile> target, std::string name,
                      FaultInjectionEnv* env)
      : target_(std::move(target)), name_(std::move(name)), env_(env) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    return CountedRead(env_, name_, result, scratch,
                       [&] { return target_->Read(n, result, scratch); });
  }
  Status Skip(uint64_t n) override { return target_->Skip(n); }
  Status PositionedRead(uint64_t offset, size_t n, Slice* result,
                        char* scratch) override {
    return CountedRead(env_, name_, result, scratch, [&] {
      return target_->PositionedRead(offset, n, result, scratch);
    });
  }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }

 private:
  std::unique_ptr<SequentialFile> target_;
  const std::string name_;
  FaultInjectionEnv* const env_;
};

class FaultRandomAccessFile : public RandomAccessFile {
 public:
  FaultRandomAccessFile(std::unique_ptr<RandomAccessFile> target,
                        std::string name, FaultInjectionEnv* env)
      : target_(std::move(target)), name_(std::move(name)), env_(env) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    return CountedRead(env_, name_, result, scratch, [&] {
      return target_->Read(offset, n, result, scratch);
    });
  }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }

 private:
  std::unique_ptr<RandomAccessFile> target_;
  const std::string name_;
  FaultInjectionEnv* const env_;
};

class FaultWritableFile : public WritableFile {
 public:
  FaultWritableFile(std::unique_ptr<WritableFile> target, std::string name,
                    FaultInjectionEnv* env)
      : target_(std::move(target)), name_(std::move(name)), env_(env) {}

  ~FaultWritableFile() override {
    Status ignored = Close();
    (void)ignored;
  }

  Status Append(const Slice& data) override {
    Status s = env_->MaybeFail(IOKind::kWrite, name_, "append");
    if (s.ok()) s = target_->Append(data);
    if (s.ok()) env_->OnWrite(name_, target_->GetFileSize());
    return s;
  }
  Status PositionedAppend(const Slice& data, uint64_t offset) override {
    Status s = env_->MaybeFail(IOKind::kWrite, name_, "positioned append");
    if (s.ok()) s = target_->PositionedAppend(data, offset);
    if (s.ok()) env_->OnWrite(name_, target_->GetFileSize());
    return s;
  }
  Status Truncate(uint64_t size) override {
    Status s = env_->MaybeFail(IOKind::kTruncate, name_, "truncate");
    if (s.ok()) s = target_->Truncate(size);
    if (s.ok()) env_->OnWrite(name_, size);
    return s;
  }
  Status Close() override {
    return CountedClose(env_, name_, "close", &closed_, target_.get());
  }
  Status Flush() override {
    Status s = env_->MaybeFail(IOKind::kWrite, name_, "flush");
    return s.ok() ? target_->Flush() : s;
  }
  Status Sync() override { return SyncWith(false); }
  Status Fsync() override { return SyncWith(true); }
  bool IsSyncThreadSafe() const override { return target_->IsSyncThreadSafe(); }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  uint64_t GetFileSize() override { return target_->GetFileSize(); }
  Status Allocate(uint64_t offset, uint64_t len) override {
    Status s = env_->MaybeFail(IOKind::kAllocate, name_, "allocate");
    return s.ok() ? target_->Allocate(offset, len) : s;
  }
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    // Starts write-back only: nothing becomes durable for a power loss.
    Status s = env_->MaybeFail(IOKind::kRangeSync, name_, "range sync");
    return s.ok() ? target_->RangeSync(offset, nbytes) : s;
  }
  Status InvalidateCache(size_t offset, size_t length) override {
    return target_->InvalidateCache(offset, length);
  }

 private:
  Status SyncWith(bool fsync) {
    Status s = env_->MaybeFail(IOKind::kSync, name_, fsync ? "fsync" : "sync");
    if (s.ok()) s = fsync ? target_->Fsync() : target_->Sync();
    if (s.ok()) s = env_->OnSync(name_, target_->GetFileSize());
    return s;
  }

  std::unique_ptr<WritableFile> target_;
  const std::string name_;
  FaultInjectionEnv* const env_;
  bool closed_ = false;
};

// Positional writes are counted and can fail, but a power loss does not
// cut these files back: nothing in strata writes them yet.
class FaultRandomRWFile : public RandomRWFile {
 public:
  FaultRandomRWFile(std::unique_ptr<RandomRWFile> target, std::string name,
                    FaultInjectionEnv* env)
      : target_(std::move(target)), name_(std::move(name)), env_(env) {}

  ~FaultRandomRWFile() override {
    Status ignored = Close();
    (void)ignored;
  }

  Status Write(uint64_t offset, const Slice& data) override {
    Status s = env_->MaybeFail(IOKind::kWrite, name_, "positioned write");
    return s.ok() ? target_->Write(offset, data) : s;
  }
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    return CountedRead(env_, name_, result, scratch, [&] {
      return target_->Read(offset, n, result, scratch);
    });
  }
  Status Flush() override {
    Status s = env_->MaybeFail(IOKind::kWrite, name_, "flush");
    return s.ok() ? target_->Flush() : s;
  }
  Status Sync() override {
    Status s = env_->MaybeFail(IOKind::kSync, name_, "sync");
    return s.ok() ? target_->Sync() : s;
  }
  Status Fsync() override {
    Status s = env_->MaybeFail(IOKind::kSync, name_, "fsync");
    return s.ok() ? target_->Fsync() : s;
  }
  Status Close() override {
    return CountedClose(env_, name_, "close", &closed_, target_.get());
  }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }

 private:
  std::unique_ptr<RandomRWFile> target_;
  const std::string name_;
  FaultInjectionEnv* const env_;
  bool closed_ = false;
};

class FaultDirectory : public Directory {
 public:
  FaultDirectory(std::unique_ptr<Directory> target, std::string name,
                 FaultInjectionEnv* env)
      : target_(std::move(target)), name_(std::move(name)), env_(env) {}

  ~FaultDirectory() override {
    Status ignored = Close();
    (void)ignored;
  }

  Status Fsync() override {
    Status s = env_->MaybeFail(IOKind::kDirSync, name_, "fsync directory");
    if (s.ok()) s = target_->Fsync();
    if (s.ok()) s = env_->OnDirectorySync(name_);
    return s;
  }
  Status Close() override {
    return CountedClose(env_, name_, "close directory", &closed_,
                        target_.get());
  }

 private:
  std::unique_ptr<Directory> target_;
  const std::string name_;
  FaultInjectionEnv* const env_;
  bool closed_ = false;
};

// The kinds SetFilesystemActive(false) fails: those that change a file or
// a directory. A dead disk deletes and renames nothing either: a process
// still running after its simulated power loss must not change what the
// restart finds.
bool ChangesAFile(IOKind kind) {
  switch (kind) {
    case IOKind::kWrite:
    case IOKind::kSync:
    case IOKind::kDirSync:
    case IOKind::kRangeSync:
    case IOKind::kTruncate:
    case IOKind::kAllocate:
    case IOKind::kRename:
    case IOKind::kLink:
    case IOKind::kDelete:
    case IOKind::kCreateDir:
      return true;
    default:
      return false;
  }
}

// s's code and sub-code with path and op in the message.
Status WithPath(const Status& s, const std::string& path, const char* op) {
  const std::string msg = path + ": " + op;
  const Slice detail(s.getState());
  switch (s.subcode()) {
    case Status::kNoSpace:
      return Status::NoSpace(msg, detail);
    case Status::kPathNotFound:
      return Status::PathNotFound(msg, detail);
    case Status::kLockHeld:
      return Status::LockHeld(msg, detail);
    default:
      break;
  }
  switch (s.code()) {
    case Status::kOk:
      return Status::OK();
    case Status::kNotFound:
      return Status::NotFound(msg, detail);
    case Status::kCorruption:
      return Status::Corruption(msg, detail);
    case Status::kNotSupported:
      return Status::NotSupported(msg, detail);
    case Status::kInvalidArgument:
      return Status::InvalidArgument(msg, detail);
    case Status::kBusy:
      return Status::Busy(msg, detail);
    case Status::kTimedOut:
      return Status::TimedOut(msg, detail);
    case Status::kIncomplete:
      return Status::Incomplete(msg, detail);
    case Status::kAborted:
      return Status::Aborted(msg, detail);
    case Status::kColumnFamilyDropped:
      return Status::ColumnFamilyDropped(msg, detail);
    case Status::kMergeInProgress:
      return Status::MergeInProgress(msg, detail);
    case Status::kShutdownInProgress:
      return Status::ShutdownInProgress(msg, detail);
    case Status::kExpired:
      return Status::Expired(msg, detail);
    case Status::kTryAgain:
      return Status::TryAgain(msg, detail);
    case Status::kIOError:
      break;
  }
  return Status::IOError(msg, detail);
}

}  // namespace

const char* IOKindName(IOKind kind) {
  switch (kind) {
    case IOKind::kOpen:
      return "open";
    case IOKind::kRead:
      return "read";
    case IOKind::kWrite:
      return "write";
    case IOKind::kSync:
      return "sync";
    case IOKind::kDirSync:
      return "directory sync";
    case IOKind::kRangeSync:
      return "range sync";
    case IOKind::kTruncate:
      return "truncate";
    case IOKind::kAllocate:
      return "allocate";
    case IOKind::kClose:
      return "close";
    case IOKind::kRename:
      return "rename";
    case IOKind::kLink:
      return "link";
    case IOKind::kDelete:
      return "delete";
    case IOKind::kCreateDir:
      return "create directory";
    case IOKind::kLock:
      return "lock";
    case IOKind::kStat:
      return "stat";
    case IOKind::kList:
      return "list";
    case IOKind::kNumKinds:
      break;
  }
  return "?";
}

Status StatusForPath(const Status& s, const std::string& path, const char* op) {
  IOStatus result = status_to_io_status(WithPath(s, path, op));
  result.SetRetryable(status_to_io_status(Status(s)).GetRetryable());
  return result;
}

FaultInjectionEnv::FaultInjectionEnv(Env* base) : EnvWrapper(base) {}

FaultInjectionEnv::~FaultInjectionEnv() = default;

Status FaultInjectionEnv::MaybeFail(IOKind kind, const std::string& path,
                                    const char* op) {
  MutexLock l(&mu_);
  io_count_++;
  if (recording_) recorded_.push_back(IOEvent{kind, path, op});
  if (!active_ && ChangesAFile(kind)) {
    return Status::IOError(path + ": " + op, "file system inactive");
  }
  if (fail_at_ != 0 && io_count_ == fail_at_) {
    fail_at_ = 0;
    return StatusForPath(fail_at_status_, path, op);
  }
  const int k = static_cast<int>(kind);
  if (fail_all_[k]) return StatusForPath(fail_all_status_[k], path, op);
  return Status::OK();
}

void FaultInjectionEnv::FailNthIO(uint64_t n, const Status& s) {
  MutexLock l(&mu_);
  fail_at_ = io_count_ + (n == 0 ? 1 : n);
  fail_at_status_ = s;
}

void FaultInjectionEnv::FailAll(IOKind kind, const Status& s) {
  MutexLock l(&mu_);
  fail_all_[static_cast<int>(kind)] = true;
  fail_all_status_[static_cast<int>(kind)] = s;
}

void FaultInjectionEnv::ClearFailures() {
  MutexLock l(&mu_);
  fail_at_ = 0;
  for (bool& f : fail_all_) f = false;
}

void FaultInjectionEnv::SetFilesystemActive(bool active) {
  MutexLock l(&mu_);
  active_ = active;
}

uint64_t FaultInjectionEnv::io_count() {
  MutexLock l(&mu_);
  return io_count_;
}

void FaultInjectionEnv::RecordIOs(bool on) {
  MutexLock l(&mu_);
  recording_ = on;
}

std::vector<IOEvent> FaultInjectionEnv::TakeRecordedIOs() {
  MutexLock l(&mu_);
  std::vector<IOEvent> result;
  result.swap(recorded_);
  return result;
}

uint64_t FaultInjectionEnv::SyncedSize(const std::string& path) {
  MutexLock l(&mu_);
  const auto it = files_.find(path);
  return it == files_.end() ? 0 : it->second.synced_size;
}

void FaultInjectionEnv::OnWrite(const std::string& path, uint64_t new_size) {
  MutexLock l(&mu_);
  files_[path].size = new_size;
}

Status FaultInjectionEnv::OnSync(const std::string& path,
                                 uint64_t synced_size) {
  MutexLock l(&mu_);
  // The power loss began while this sync ran: the cut keeps only what was
  // synced before, so the caller must not be told this data is durable.
  if (!active_) return Status::IOError(path + ": sync", "file system inactive");
  FileState& f = files_[path];
  f.size = synced_size;
  f.synced_size = synced_size;
  return Status::OK();
}

Status FaultInjectionEnv::OnDirectorySync(const std::string& dir) {
  MutexLock l(&mu_);
  if (!active_) {
    return Status::IOError(dir + ": fsync directory", "file system inactive");
  }
  for (auto it = unsynced_new_files_.begin();
       it != unsynced_new_files_.end();) {
    if (ParentDir(*it) == dir) {
      it = unsynced_new_files_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = renames_.begin(); it != renames_.end();) {
    if (ParentDir(it->first) == dir) {
      it = renames_.erase(it);
    } else {
      ++it;
    }
  }
  return Status::OK();
}

void FaultInjectionEnv::ResetState() {
  MutexLock l(&mu_);
  files_.clear();
  unsynced_new_files_.clear();
  renames_.clear();
}

Status FaultInjectionEnv::DropUnsyncedFileData() {
  std::map<std::string, FileState> files;
  {
    MutexLock l(&mu_);
    files = files_;
  }
  for (const auto& f : files) {
    if (f.second.size == f.second.synced_size) continue;
    // ReopenWritableFile would create a file deleted behind our back.
    if (target()->FileExists(f.first).IsNotFound()) continue;
    std::unique_ptr<WritableFile> file;
    EnvOptions options;
    Status s = target()->ReopenWritableFile(f.first, &file, options);
    if (s.ok()) s = file->Truncate(f.second.synced_size);
    if (s.ok()) s = file->Close();
    if (!s.ok()) return s;
    MutexLock l(&mu_);
    files_[f.first].size = f.second.synced_size;
  }
  return Status::OK();
}

Status FaultInjectionEnv::DeleteFilesCreatedAfterLastDirSync() {
  std::set<std::string> doomed;
  {
    MutexLock l(&mu_);
    doomed.swap(unsynced_new_files_);
  }
  std::map<std::string, RenameUndo> renames;
  {
    MutexLock l(&mu_);
    renames.swap(renames_);
  }
  for (const std::string& name : doomed) {
    auto undo = renames.find(name);
    if (undo != renames.end()) {
      // The rename did not reach the disk: the source name (if it was
      // durable) holds the data again, and the target its old contents.
      std::string data;
      Status s = ReadFileToString(target(), name, &data);
      if (s.ok() && undo->second.src_durable) {
        s = WriteStringToFile(target(), data, undo->second.src, true);
      }
      if (s.ok() && undo->second.target_durable) {
        s = WriteStringToFile(target(), undo->second.target_contents, name,
                              true);
        if (!s.ok()) return s;
        continue;
      }
      if (!s.ok()) return s;
    }
    Status s = target()->RemoveFile(name);
    if (!s.ok() && !s.IsNotFound()) return s;
    MutexLock l(&mu_);
    files_.erase(name);
  }
  return Status::OK();
}

Status FaultInjectionEnv::NewSequentialFile(const std::string& f,
                                            std::unique_ptr<SequentialFile>* r,
                                            const EnvOptions& options) {
  Status s = MaybeFail(IOKind::kOpen, f, "open for reading");
  if (s.ok()) s = target()->NewSequentialFile(f, r, options);
  if (s.ok()) r->reset(new FaultSequentialFile(std::move(*r), f, this));
  return s;
}

Status FaultInjectionEnv::NewRandomAccessFile(
    const std::string& f, std::unique_ptr<RandomAccessFile>* r,
    const EnvOptions& options) {
  Status s = MaybeFail(IOKind::kOpen, f, "open for reading");
  if (s.ok()) s = target()->NewRandomAccessFile(f, r, options);
  if (s.ok()) r->reset(new FaultRandomAccessFile(std::move(*r), f, this));
  return s;
}

Status FaultInjectionEnv::WrapWritable(const std::string& f,
                                       std::unique_ptr<WritableFile>* r) {
  {
    MutexLock l(&mu_);
    FileState& state = files_[f];
    state.size = (*r)->GetFileSize();
  }
  r->reset(new FaultWritableFile(std::move(*r), f, this));
  return Status::OK();
}

Status FaultInjectionEnv::NewWritableFile(const std::string& f,
                                          std::unique_ptr<WritableFile>* r,
                                          const EnvOptions& options) {
  Status s = MaybeFail(IOKind::kOpen, f, "open for writing");
  if (s.ok()) {
    MutexLock l(&mu_);
    if (!active_) s = Status::IOError(f + ": create", "file system inactive");
  }
  const bool existed = s.ok() && target()->FileExists(f).ok();
  if (s.ok()) s = target()->NewWritableFile(f, r, options);
  if (!s.ok()) return s;
  {
    MutexLock l(&mu_);
    files_[f] = FileState();  // truncated: nothing of it is synced now
    if (!existed) unsynced_new_files_.insert(f);
  }
  return WrapWritable(f, r);
}

Status FaultInjectionEnv::ReopenWritableFile(const std::string& f,
                                             std::unique_ptr<WritableFile>* r,
                                             const EnvOptions& options) {
  Status s = MaybeFail(IOKind::kOpen, f, "reopen for writing");
  if (s.ok()) s = target()->ReopenWritableFile(f, r, options);
  if (!s.ok()) return s;
  {
    MutexLock l(&mu_);
    // What is there already counts as durable unless this Env wrote it.
    if (files_.count(f) == 0) {
      files_[f].synced_size = (*r)->GetFileSize();
    }
  }
  return WrapWritable(f, r);
}

Status FaultInjectionEnv::NewRandomRWFile(const std::string& f,
                                          std::unique_ptr<RandomRWFile>* r,
                                          const EnvOptions& options) {
  Status s = MaybeFail(IOKind::kOpen, f, "open for reading and writing");
  if (s.ok()) s = target()->NewRandomRWFile(f, r, options);
  if (s.ok()) r->reset(new FaultRandomRWFile(std::move(*r), f, this));
  return s;
}

Status FaultInjectionEnv::NewDirectory(const std::string& name,
                                       std::unique_ptr<Directory>* result) {
  Status s = MaybeFail(IOKind::kOpen, name, "open directory");
  if (s.ok()) s = target()->NewDirectory(name, result);
  if (s.ok()) result->reset(new FaultDirectory(std::move(*result), name, this));
  return s;
}

Status FaultInjectionEnv::NewLogger(const std::string& fname,
                                    std::shared_ptr<Logger>* result) {
  Status s = MaybeFail(IOKind::kOpen, fname, "open log");
  return s.ok() ? target()->NewLogger(fname, result) : s;
}

Status FaultInjectionEnv::FileExists(const std::string& f) {
  Status s = MaybeFail(IOKind::kStat, f, "exists");
  return s.ok() ? target()->FileExists(f) : s;
}

Status FaultInjectionEnv::GetChildren(const std::string& dir,
                                      std::vector<std::string>* r) {
  Status s = MaybeFail(IOKind::kList, dir, "list");
  if (!s.ok()) {
    r->clear();
    return s;
  }
  return target()->GetChildren(dir, r);
}

Status FaultInjectionEnv::GetFileSize(const std::string& f, uint64_t* size) {
  Status s = MaybeFail(IOKind::kStat, f, "size");
  return s.ok() ? target()->GetFileSize(f, size) : s;
}

Status FaultInjectionEnv::GetFileModificationTime(const std::string& f,
                                                  uint64_t* t) {
  Status s = MaybeFail(IOKind::kStat, f, "modification time");
  return s.ok() ? target()->GetFileModificationTime(f, t) : s;
}

Status FaultInjectionEnv::GetFreeDiskSpace(const std::string& path,
                                           uint64_t* diskfree) {
  Status s = MaybeFail(IOKind::kStat, path, "free space");
  return s.ok() ? target()->GetFreeDiskSpace(path, diskfree) : s;
}

Status FaultInjectionEnv::IsDirectory(const std::string& path, bool* is_dir) {
  Status s = MaybeFail(IOKind::kStat, path, "is directory");
  return s.ok() ? target()->IsDirectory(path, is_dir) : s;
}

Status FaultInjectionEnv::RemoveFile(const std::string& f) {
  Status s = MaybeFail(IOKind::kDelete, f, "delete");
  if (s.ok()) s = target()->RemoveFile(f);
  if (s.ok()) {
    MutexLock l(&mu_);
    files_.erase(f);
    unsynced_new_files_.erase(f);
  }
  return s;
}

Status FaultInjectionEnv::RenameFile(const std::string& src,
                                     const std::string& target_name) {
  Status s = MaybeFail(IOKind::kRename, src, "rename");
  if (!s.ok()) return s;
  // Until the target's directory is synced, a power loss may undo the
  // rename: remember what the two names held durably.
  RenameUndo undo;
  bool read_target = false;
  {
    MutexLock l(&mu_);
    undo.src = src;
    undo.src_durable = unsynced_new_files_.count(src) == 0;
    auto earlier = renames_.find(target_name);
    if (earlier != renames_.end()) {
      // Replaced again before its directory was synced: what survives a
      // power loss is still what it held before the first rename.
      undo.target_durable = earlier->second.target_durable;
      undo.target_contents = earlier->second.target_contents;
    } else {
      undo.target_durable = unsynced_new_files_.count(target_name) == 0;
      read_target = undo.target_durable;
    }
  }
  if (read_target) {
    s = ReadFileToString(target(), target_name, &undo.target_contents);
    if (s.IsNotFound()) {
      undo.target_durable = false;
    } else if (!s.ok()) {
      return s;
    }
  }
  s = target()->RenameFile(src, target_name);
  if (!s.ok()) return s;
  MutexLock l(&mu_);
  auto it = files_.find(src);
  if (it != files_.end()) {
    files_[target_name] = it->second;
    files_.erase(src);
  }
  auto chained = renames_.find(src);
  if (chained != renames_.end()) {
    // src was itself renamed into place unsynced: undoing goes back to the
    // first name.
    undo.src = chained->second.src;
    undo.src_durable = chained->second.src_durable;
    renames_.erase(chained);
  }
  renames_[target_name] = undo;
  // The new name is an unsynced directory entry until the dir is synced.
  unsynced_new_files_.erase(src);
  unsynced_new_files_.insert(target_name);
  return Status::OK();
}

Status FaultInjectionEnv::CreateDir(const std::string& d) {
  Status s = MaybeFail(IOKind::kCreateDir, d, "mkdir");
  return s.ok() ? target()->CreateDir(d) : s;
}

Status FaultInjectionEnv::CreateDirIfMissing(const std::string& d) {
  Status s = MaybeFail(IOKind::kCreateDir, d, "mkdir");
  return s.ok() ? target()->CreateDirIfMissing(d) : s;
}

Status FaultInjectionEnv::RemoveDir(const std::string& d) {
  Status s = MaybeFail(IOKind::kDelete, d, "rmdir");
  return s.ok() ? target()->RemoveDir(d) : s;
}

Status FaultInjectionEnv::LinkFile(const std::string& src,
                                   const std::string& target_name) {
  Status s = MaybeFail(IOKind::kLink, src, "link");
  if (s.ok()) s = target()->LinkFile(src, target_name);
  if (!s.ok()) return s;
  // The new name holds the same data, and is an unsynced directory entry
  // until its directory is synced.
  MutexLock l(&mu_);
  auto it = files_.find(src);
  if (it != files_.end()) files_[target_name] = it->second;
  unsynced_new_files_.insert(target_name);
  return Status::OK();
}

Status FaultInjectionEnv::LockFile(const std::string& f, FileLock** l) {
  Status s = MaybeFail(IOKind::kLock, f, "lock");
  return s.ok() ? target()->LockFile(f, l) : s;
}

}  // namespace test
}  // namespace strata
