// NewMemEnv: an Env whose files and directories live in memory.
//
// It follows the POSIX Env's contract so that tests written against one
// hold against the other: a file needs an existing parent directory, an
// open file survives rename and delete, a second LockFile fails, direct I/O
// demands kDefaultPageSize alignment. Threads and clocks come from the base
// Env.

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "env/env_logger.h"
#include "env/io_util.h"
#include "env/lock_table.h"
#include "port/port.h"
#include "strata/env.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// The contents of one file, shared by every handle open on it.
class FileState {
 public:
  explicit FileState(uint64_t mtime) : mtime_(mtime) {}

  uint64_t Size() {
    MutexLock l(&mu_);
    return data_.size();
  }

  uint64_t ModificationTime() {
    MutexLock l(&mu_);
    return mtime_;
  }

  // Copies up to n bytes at offset into scratch; returns how many.
  size_t Read(uint64_t offset, size_t n, char* scratch) {
    MutexLock l(&mu_);
    if (offset >= data_.size()) return 0;
    const size_t available = data_.size() - static_cast<size_t>(offset);
    const size_t count = std::min(n, available);
    std::memcpy(scratch, data_.data() + offset, count);
    return count;
  }

  // Writes data at offset, extending (with zeros) if needed.
  void Write(uint64_t offset, const Slice& data, uint64_t mtime) {
    MutexLock l(&mu_);
    const size_t end = static_cast<size_t>(offset) + data.size();
    if (end > data_.size()) data_.resize(end, '\0');
    std::memcpy(&data_[static_cast<size_t>(offset)], data.data(), data.size());
    mtime_ = mtime;
  }

  void Truncate(uint64_t size, uint64_t mtime) {
    MutexLock l(&mu_);
    data_.resize(static_cast<size_t>(size), '\0');
    mtime_ = mtime;
  }

 private:
  port::Mutex mu_;
  std::string data_ GUARDED_BY(mu_);
  uint64_t mtime_ GUARDED_BY(mu_);
};

constexpr size_t kMemAlignment = kDefaultPageSize;

Status CheckAlignment(bool direct, const std::string& fname, const char* op,
                      uint64_t offset, size_t n, const void* buf) {
  if (!direct) return Status::OK();
  return CheckDirectIOAlignment(fname, op, offset, n, buf, kMemAlignment);
}

// A positional read through any handle on file.
Status ReadAt(FileState* file, const std::string& fname, bool direct,
              uint64_t offset, size_t n, Slice* result, char* scratch) {
  *result = Slice(scratch, 0);
  Status s = CheckAlignment(direct, fname, "read", offset, n, scratch);
  if (s.ok()) *result = Slice(scratch, file->Read(offset, n, scratch));
  return s;
}

class MemSequentialFile : public SequentialFile {
 public:
  MemSequentialFile(std::string fname, std::shared_ptr<FileState> file,
                    bool direct)
      : fname_(std::move(fname)), file_(std::move(file)), direct_(direct) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    Status s = PositionedRead(pos_, n, result, scratch);
    if (s.ok()) pos_ += result->size();
    return s;
  }

  Status Skip(uint64_t n) override {
    pos_ = std::min(pos_ + n, file_->Size());
    return Status::OK();
  }

  Status PositionedRead(uint64_t offset, size_t n, Slice* result,
                        char* scratch) override {
    return ReadAt(file_.get(), fname_, direct_, offset, n, result, scratch);
  }

  bool use_direct_io() const override { return direct_; }
  size_t GetRequiredBufferAlignment() const override { return kMemAlignment; }

 private:
  const std::string fname_;
  const std::shared_ptr<FileState> file_;
  const bool direct_;
  uint64_t pos_ = 0;
};

class MemRandomAccessFile : public RandomAccessFile {
 public:
  MemRandomAccessFile(std::string fname, std::shared_ptr<FileState> file,
                      bool direct)
      : fname_(std::move(fname)), file_(std::move(file)), direct_(direct) {}

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    return ReadAt(file_.get(), fname_, direct_, offset, n, result, scratch);
  }

  bool use_direct_io() const override { return direct_; }
  size_t GetRequiredBufferAlignment() const override { return kMemAlignment; }

 private:
  const std::string fname_;
  const std::shared_ptr<FileState> file_;
  const bool direct_;
};

class MemWritableFile : public WritableFile {
 public:
  MemWritableFile(std::string fname, std::shared_ptr<FileState> file,
                  bool direct, Env* clock)
      : fname_(std::move(fname)),
        file_(std::move(file)),
        direct_(direct),
        clock_(clock),
        size_(file_->Size()) {}

  Status Append(const Slice& data) override {
    return PositionedAppend(data, size_);
  }

  Status PositionedAppend(const Slice& data, uint64_t offset) override {
    if (closed_) return Status::IOError(fname_, "append after close");
    Status s = CheckAlignment(direct_, fname_, "write", offset, data.size(),
                              data.data());
    if (!s.ok()) return s;
    file_->Write(offset, data, Seconds());
    size_ = offset + data.size();
    return Status::OK();
  }

  Status Truncate(uint64_t size) override {
    file_->Truncate(size, Seconds());
    size_ = size;
    return Status::OK();
  }

  Status Close() override {
    closed_ = true;
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  bool IsSyncThreadSafe() const override { return true; }
  bool use_direct_io() const override { return direct_; }
  size_t GetRequiredBufferAlignment() const override { return kMemAlignment; }
  uint64_t GetFileSize() override { return size_; }

 private:
  uint64_t Seconds() { return clock_->NowMicros() / 1000000; }

  const std::string fname_;
  const std::shared_ptr<FileState> file_;
  const bool direct_;
  Env* const clock_;
  uint64_t size_;
  bool closed_ = false;
};

class MemRandomRWFile : public RandomRWFile {
 public:
  MemRandomRWFile(std::string fname, std::shared_ptr<FileState> file,
                  bool direct, Env* clock)
      : fname_(std::move(fname)),
        file_(std::move(file)),
        direct_(direct),
        clock_(clock) {}

  Status Write(uint64_t offset, const Slice& data) override {
    Status s = CheckAlignment(direct_, fname_, "write", offset, data.size(),
                              data.data());
    if (!s.ok()) return s;
    file_->Write(offset, data, clock_->NowMicros() / 1000000);
    return Status::OK();
  }

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override {
    return ReadAt(file_.get(), fname_, direct_, offset, n, result, scratch);
  }

  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  bool use_direct_io() const override { return direct_; }
  size_t GetRequiredBufferAlignment() const override { return kMemAlignment; }

 private:
  const std::string fname_;
  const std::shared_ptr<FileState> file_;
  const bool direct_;
  Env* const clock_;
};

class MemDirectory : public Directory {
 public:
  Status Fsync() override { return Status::OK(); }
};

class MemFileLock : public FileLock {
 public:
  explicit MemFileLock(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }

 private:
  const std::string name_;
};

// "a//b/" -> "a/b"; both separators accepted, '/' kept.
std::string Normalize(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '\\') c = '/';
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out.push_back(c);
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

class MemEnv : public EnvWrapper {
 public:
  explicit MemEnv(Env* base) : EnvWrapper(base) {
    dirs_.insert("/");
    dirs_.insert("");  // the "current directory" of relative names
  }

  Status NewSequentialFile(const std::string& name,
                           std::unique_ptr<SequentialFile>* result,
                           const EnvOptions& options) override {
    std::shared_ptr<FileState> file;
    Status s = Find(name, &file);
    if (s.ok()) {
      result->reset(
          new MemSequentialFile(name, file, options.use_direct_reads));
    }
    return s;
  }

  Status NewRandomAccessFile(const std::string& name,
                             std::unique_ptr<RandomAccessFile>* result,
                             const EnvOptions& options) override {
    std::shared_ptr<FileState> file;
    Status s = Find(name, &file);
    if (s.ok()) {
      result->reset(
          new MemRandomAccessFile(name, file, options.use_direct_reads));
    }
    return s;
  }

  Status NewWritableFile(const std::string& name,
                         std::unique_ptr<WritableFile>* result,
                         const EnvOptions& options) override {
    return OpenWritable(name, /*truncate=*/true, result, options);
  }

  Status ReopenWritableFile(const std::string& name,
                            std::unique_ptr<WritableFile>* result,
                            const EnvOptions& options) override {
    return OpenWritable(name, /*truncate=*/false, result, options);
  }

  Status NewRandomRWFile(const std::string& name,
                         std::unique_ptr<RandomRWFile>* result,
                         const EnvOptions& options) override {
    std::shared_ptr<FileState> file;
    Status s = Create(name, /*truncate=*/false, &file);
    if (s.ok()) {
      const bool direct = options.use_direct_reads || options.use_direct_writes;
      result->reset(new MemRandomRWFile(name, file, direct, target()));
    }
    return s;
  }

  // Files here are not the OS's: there is nothing to map (passing the call
  // on would map a file of the same name on disk).
  Status NewMemoryMappedFileBuffer(
      const std::string& name,
      std::unique_ptr<MemoryMappedFileBuffer>* result) override {
    result->reset();
    return Status::NotSupported("NewMemoryMappedFileBuffer (in-memory Env)",
                                name);
  }

  Status NewDirectory(const std::string& name,
                      std::unique_ptr<Directory>* result) override {
    MutexLock l(&mu_);
    if (dirs_.count(Normalize(name)) == 0) {
      return Status::PathNotFound(name, "open directory");
    }
    result->reset(new MemDirectory);
    return Status::OK();
  }

  Status NewLogger(const std::string& fname,
                   std::shared_ptr<Logger>* result) override {
    return NewEnvLogger(this, fname, result);
  }

  Status FileExists(const std::string& name) override {
    const std::string path = Normalize(name);
    MutexLock l(&mu_);
    if (files_.count(path) != 0 || dirs_.count(path) != 0) return Status::OK();
    return Status::NotFound(name);
  }

  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* result) override {
    result->clear();
    const std::string path = Normalize(dir);
    MutexLock l(&mu_);
    if (dirs_.count(path) == 0) {
      return files_.count(path) != 0 ? Status::IOError(dir, "not a directory")
                                     : Status::PathNotFound(dir, "opendir");
    }
    for (const auto& f : files_) {
      if (Parent(f.first) == path) result->push_back(BaseName(f.first));
    }
    for (const std::string& d : dirs_) {
      if (d != path && !d.empty() && d != "/" && Parent(d) == path) {
        result->push_back(BaseName(d));
      }
    }
    return Status::OK();
  }

  Status RemoveFile(const std::string& name) override {
    MutexLock l(&mu_);
    if (files_.erase(Normalize(name)) == 0) {
      return Status::PathNotFound(name, "unlink");
    }
    return Status::OK();
  }

  Status CreateDir(const std::string& name) override {
    return MakeDir(name, /*ok_if_exists=*/false);
  }

  Status CreateDirIfMissing(const std::string& name) override {
    return MakeDir(name, /*ok_if_exists=*/true);
  }

  Status RemoveDir(const std::string& name) override {
    const std::string path = Normalize(name);
    MutexLock l(&mu_);
    if (dirs_.count(path) == 0) return Status::PathNotFound(name, "rmdir");
    for (const auto& f : files_) {
      if (Parent(f.first) == path) {
        return Status::IOError(name, "rmdir: Directory not empty");
      }
    }
    for (const std::string& d : dirs_) {
      if (d != path && Parent(d) == path) {
        return Status::IOError(name, "rmdir: Directory not empty");
      }
    }
    dirs_.erase(path);
    return Status::OK();
  }

  Status GetFileSize(const std::string& name, uint64_t* size) override {
    std::shared_ptr<FileState> file;
    Status s = Find(name, &file);
    *size = s.ok() ? file->Size() : 0;
    return s;
  }

  Status GetFileModificationTime(const std::string& name,
                                 uint64_t* mtime) override {
    std::shared_ptr<FileState> file;
    Status s = Find(name, &file);
    if (s.ok()) *mtime = file->ModificationTime();
    return s;
  }

  Status RenameFile(const std::string& src,
                    const std::string& target) override {
    const std::string from = Normalize(src);
    const std::string to = Normalize(target);
    MutexLock l(&mu_);
    auto it = files_.find(from);
    if (it == files_.end()) {
      if (dirs_.count(from) != 0) {
        return Status::NotSupported(src, "rename of a directory");
      }
      return Status::PathNotFound(src, "rename");
    }
    if (dirs_.count(Parent(to)) == 0) {
      return Status::PathNotFound(target, "rename target");
    }
    if (dirs_.count(to) != 0) {
      return Status::IOError(target, "rename: Is a directory");
    }
    std::shared_ptr<FileState> file = it->second;
    files_.erase(it);
    files_[to] = file;
    return Status::OK();
  }

  Status LinkFile(const std::string& src, const std::string& target) override {
    const std::string from = Normalize(src);
    const std::string to = Normalize(target);
    MutexLock l(&mu_);
    auto it = files_.find(from);
    if (it == files_.end()) return Status::PathNotFound(src, "link");
    if (files_.count(to) != 0)
      return Status::IOError(target, "link: File exists");
    if (dirs_.count(Parent(to)) == 0) {
      return Status::PathNotFound(target, "link target");
    }
    files_[to] = it->second;
    return Status::OK();
  }

  Status GetFreeDiskSpace(const std::string& path,
                          uint64_t* /*diskfree*/) override {
    return Status::NotSupported("free space of an in-memory file system", path);
  }

  Status IsDirectory(const std::string& name, bool* is_dir) override {
    const std::string path = Normalize(name);
    MutexLock l(&mu_);
    if (dirs_.count(path) != 0) {
      *is_dir = true;
      return Status::OK();
    }
    if (files_.count(path) != 0) {
      *is_dir = false;
      return Status::OK();
    }
    return Status::PathNotFound(name, "stat");
  }

  Status GetAbsolutePath(const std::string& db_path,
                         std::string* output_path) override {
    const std::string path = Normalize(db_path);
    *output_path = (!path.empty() && path[0] == '/') ? path : "/" + path;
    return Status::OK();
  }

  Status LockFile(const std::string& name, FileLock** lock) override {
    *lock = nullptr;
    const std::string path = Normalize(name);
    if (!locks_.Insert(path, /*owner=*/0)) {
      return Status::LockHeld(name, "lock held by this process");
    }
    // Like the OS Envs, LockFile creates the file if it is missing.
    std::shared_ptr<FileState> file;
    Status s = Create(name, /*truncate=*/false, &file);
    if (!s.ok()) {
      locks_.Remove(path);
      return s;
    }
    *lock = new MemFileLock(path);
    return Status::OK();
  }

  Status UnlockFile(FileLock* lock) override {
    MemFileLock* l = static_cast<MemFileLock*>(lock);
    locks_.Remove(l->name());
    delete l;
    return Status::OK();
  }

  Status GetTestDirectory(std::string* path) override {
    *path = "/strata-test";
    return CreateDirIfMissing(*path);
  }

 private:
  static std::string BaseName(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
  }

  Status MakeDir(const std::string& name, bool ok_if_exists) {
    const std::string path = Normalize(name);
    MutexLock l(&mu_);
    if (dirs_.count(path) != 0) {
      return ok_if_exists ? Status::OK()
                          : Status::IOError(name, "mkdir: File exists");
    }
    if (files_.count(path) != 0) {
      return Status::IOError(name, "exists but is not a directory");
    }
    if (dirs_.count(Parent(path)) == 0) {
      return Status::PathNotFound(name, "mkdir");
    }
    dirs_.insert(path);
    return Status::OK();
  }

  Status OpenWritable(const std::string& name, bool truncate,
                      std::unique_ptr<WritableFile>* result,
                      const EnvOptions& options) {
    std::shared_ptr<FileState> file;
    Status s = Create(name, truncate, &file);
    if (s.ok()) {
      result->reset(
          new MemWritableFile(name, file, options.use_direct_writes, target()));
    }
    return s;
  }

  Status Find(const std::string& name, std::shared_ptr<FileState>* file) {
    const std::string path = Normalize(name);
    MutexLock l(&mu_);
    auto it = files_.find(path);
    if (it == files_.end()) {
      if (dirs_.count(path) != 0)
        return Status::IOError(name, "is a directory");
      return Status::PathNotFound(name, "open");
    }
    *file = it->second;
    return Status::OK();
  }

  Status Create(const std::string& name, bool truncate,
                std::shared_ptr<FileState>* file) {
    const std::string path = Normalize(name);
    const uint64_t now = target()->NowMicros() / 1000000;
    MutexLock l(&mu_);
    if (dirs_.count(path) != 0) return Status::IOError(name, "is a directory");
    if (dirs_.count(Parent(path)) == 0) {
      return Status::PathNotFound(name, "open for writing");
    }
    auto it = files_.find(path);
    if (it == files_.end()) {
      it = files_.emplace(path, std::make_shared<FileState>(now)).first;
    } else if (truncate) {
      // In place, as O_TRUNC: handles already open see the file emptied.
      it->second->Truncate(0, now);
    }
    *file = it->second;
    return Status::OK();
  }

  port::Mutex mu_;
  std::map<std::string, std::shared_ptr<FileState>> files_ GUARDED_BY(mu_);
  std::set<std::string> dirs_ GUARDED_BY(mu_);
  LockTable locks_;
};

}  // namespace

Env* NewMemEnv(Env* base_env) { return new MemEnv(base_env); }

}  // namespace strata
