// PosixEnv: Env::Default() on Linux and other POSIX systems.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "env/env_logger.h"
#include "env/io_posix.h"
#include "env/io_util.h"
#include "env/lock_table.h"
#include "env/thread_pool_env.h"
#include "port/port.h"
#include "port/port_dirent.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

int OpenFlags(int base, const EnvOptions& options, bool direct) {
  int flags = base;
  if (options.set_fd_cloexec) flags |= O_CLOEXEC;
  // Write-through: each write returns once its data is durable, so a sync
  // needs no fdatasync (the POSIX counterpart of FILE_FLAG_WRITE_THROUGH).
  if (options.use_write_through && (base & (O_WRONLY | O_RDWR))) {
    flags |= O_DSYNC;
  }
#if defined(O_DIRECT)
  if (direct) flags |= O_DIRECT;
#else
  (void)direct;
#endif
  return flags;
}

// open(2), retried on EINTR. Returns the descriptor or -1 with errno set.
int OpenRetry(const std::string& fname, int flags, mode_t mode = 0644) {
  int fd;
  do {
    fd = ::open(fname.c_str(), flags, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

// Opening with O_DIRECT on a file system that cannot do it fails with
// EINVAL; say so rather than "invalid argument".
Status OpenError(const std::string& fname, const char* op, int err,
                 bool direct) {
  if (direct && err == EINVAL) {
    return Status::InvalidArgument(
        fname,
        std::string(op) + ": the file system does not support direct I/O");
  }
  return PosixError(fname, op, err);
}

// The fcntl lock of a LOCK file plus its name, for the in-process table.
// The lock of a LOCK file: its descriptor, its name for messages, and its
// key in the in-process table.
class PosixFileLock : public FileLock {
 public:
  PosixFileLock(int fd, std::string name, std::string key)
      : fd_(fd), name_(std::move(name)), key_(std::move(key)) {}
  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  const std::string& key() const { return key_; }

 private:
  const int fd_;
  const std::string name_;
  const std::string key_;
};

// Locks (or unlocks) the whole file. Linux's open-file-description locks
// belong to this descriptor: closing another descriptor of the same file in
// this process does not drop them, as it would a classic fcntl lock.
int LockOrUnlock(int fd, bool lock) {
  struct flock f;
  std::memset(&f, 0, sizeof(f));
  f.l_type = static_cast<short>(lock ? F_WRLCK : F_UNLCK);
  f.l_whence = SEEK_SET;
  f.l_start = 0;
  f.l_len = 0;  // the whole file
#if defined(F_OFD_SETLK)
  if (::fcntl(fd, F_OFD_SETLK, &f) == 0) return 0;
  if (errno != EINVAL) return -1;  // EINVAL: a kernel without OFD locks
#endif
  return ::fcntl(fd, F_SETLK, &f);
}

// The file's identity, the same for every path that names it.
std::string FileKey(const struct stat& st) {
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

class PosixEnv : public ThreadPoolEnv {
 public:
  PosixEnv() = default;

  Status NewSequentialFile(const std::string& fname,
                           std::unique_ptr<SequentialFile>* result,
                           const EnvOptions& options) override {
    result->reset();
    const bool direct = options.use_direct_reads;
    const int fd = OpenRetry(fname, OpenFlags(O_RDONLY, options, direct));
    if (fd < 0) return OpenError(fname, "open for reading", errno, direct);
    const size_t alignment =
        direct ? GetDirectIOAlignment(fd) : kDefaultPageSize;
    result->reset(new PosixSequentialFile(fname, fd, direct, alignment));
    return Status::OK();
  }

  Status NewRandomAccessFile(const std::string& fname,
                             std::unique_ptr<RandomAccessFile>* result,
                             const EnvOptions& options) override {
    result->reset();
    const bool direct = options.use_direct_reads;
    const int fd = OpenRetry(fname, OpenFlags(O_RDONLY, options, direct));
    if (fd < 0) return OpenError(fname, "open for reading", errno, direct);
    if (options.use_mmap_reads && !direct) {
      struct stat st;
      if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return PosixError(fname, "fstat", err);
      }
      const size_t size = static_cast<size_t>(st.st_size);
      void* base = nullptr;
      if (size > 0) {
        base = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
        if (base == MAP_FAILED) {
          const int err = errno;
          ::close(fd);
          return PosixError(fname, "mmap", err);
        }
      }
      ::close(fd);  // the mapping outlives the descriptor
      result->reset(new PosixMmapReadableFile(fname, base, size));
      return Status::OK();
    }
    const size_t alignment =
        direct ? GetDirectIOAlignment(fd) : kDefaultPageSize;
    result->reset(new PosixRandomAccessFile(fname, fd, direct, alignment));
    return Status::OK();
  }

  Status NewWritableFile(const std::string& fname,
                         std::unique_ptr<WritableFile>* result,
                         const EnvOptions& options) override {
    return OpenWritable(fname, O_WRONLY | O_CREAT | O_TRUNC, result, options);
  }

  Status ReopenWritableFile(const std::string& fname,
                            std::unique_ptr<WritableFile>* result,
                            const EnvOptions& options) override {
    return OpenWritable(fname, O_WRONLY | O_CREAT, result, options);
  }

  Status NewRandomRWFile(const std::string& fname,
                         std::unique_ptr<RandomRWFile>* result,
                         const EnvOptions& options) override {
    result->reset();
    const bool direct = options.use_direct_writes || options.use_direct_reads;
    const int fd =
        OpenRetry(fname, OpenFlags(O_RDWR | O_CREAT, options, direct));
    if (fd < 0) return OpenError(fname, "open for read/write", errno, direct);
    const size_t alignment =
        direct ? GetDirectIOAlignment(fd) : kDefaultPageSize;
    result->reset(new PosixRandomRWFile(fname, fd, direct, alignment));
    return Status::OK();
  }

  Status NewDirectory(const std::string& name,
                      std::unique_ptr<Directory>* result) override {
    result->reset();
    const int fd = OpenRetry(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return PosixError(name, "open directory", errno);
    result->reset(new PosixDirectory(name, fd));
    return Status::OK();
  }

  Status NewLogger(const std::string& fname,
                   std::shared_ptr<Logger>* result) override {
    return NewEnvLogger(this, fname, result);
  }

  Status FileExists(const std::string& fname) override {
    if (::access(fname.c_str(), F_OK) == 0) return Status::OK();
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return Status::NotFound(fname);
    return PosixError(fname, "access", err);
  }

  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* result) override {
    result->clear();
    port::DIR* d = port::opendir(dir.c_str());
    if (d == nullptr) return PosixError(dir, "opendir", errno);
    while (port::dirent* entry = port::readdir(d)) {
      if (std::strcmp(entry->d_name, ".") == 0 ||
          std::strcmp(entry->d_name, "..") == 0) {
        continue;
      }
      result->emplace_back(entry->d_name);
    }
    port::closedir(d);
    return Status::OK();
  }

  Status RemoveFile(const std::string& fname) override {
    if (::unlink(fname.c_str()) != 0) return PosixError(fname, "unlink", errno);
    return Status::OK();
  }

  Status CreateDir(const std::string& name) override {
    if (::mkdir(name.c_str(), 0755) != 0)
      return PosixError(name, "mkdir", errno);
    return Status::OK();
  }

  Status CreateDirIfMissing(const std::string& name) override {
    if (::mkdir(name.c_str(), 0755) == 0) return Status::OK();
    const int err = errno;
    if (err != EEXIST) return PosixError(name, "mkdir", err);
    bool is_dir = false;
    Status s = IsDirectory(name, &is_dir);
    if (s.ok() && !is_dir) {
      return Status::IOError(name, "exists but is not a directory");
    }
    return s;
  }

  Status RemoveDir(const std::string& name) override {
    if (::rmdir(name.c_str()) != 0) return PosixError(name, "rmdir", errno);
    return Status::OK();
  }

  Status GetFileSize(const std::string& fname, uint64_t* size) override {
    struct stat st;
    if (::stat(fname.c_str(), &st) != 0) {
      *size = 0;
      return PosixError(fname, "stat", errno);
    }
    *size = static_cast<uint64_t>(st.st_size);
    return Status::OK();
  }

  Status GetFileModificationTime(const std::string& fname,
                                 uint64_t* file_mtime) override {
    struct stat st;
    if (::stat(fname.c_str(), &st) != 0) {
      return PosixError(fname, "stat", errno);
    }
    *file_mtime = static_cast<uint64_t>(st.st_mtime);
    return Status::OK();
  }

  Status RenameFile(const std::string& src,
                    const std::string& target) override {
    if (::rename(src.c_str(), target.c_str()) != 0) {
      return PosixError(src, ("rename to " + target).c_str(), errno);
    }
    return Status::OK();
  }

  Status LinkFile(const std::string& src, const std::string& target) override {
    if (::link(src.c_str(), target.c_str()) != 0) {
      return PosixError(src, ("link to " + target).c_str(), errno);
    }
    return Status::OK();
  }

  Status GetFreeDiskSpace(const std::string& path,
                          uint64_t* diskfree) override {
    struct statvfs sbuf;
    if (::statvfs(path.c_str(), &sbuf) != 0) {
      return PosixError(path, "statvfs", errno);
    }
    *diskfree = static_cast<uint64_t>(sbuf.f_bavail) * sbuf.f_frsize;
    return Status::OK();
  }

  Status IsDirectory(const std::string& path, bool* is_dir) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return PosixError(path, "stat", errno);
    *is_dir = S_ISDIR(st.st_mode);
    return Status::OK();
  }

  Status GetAbsolutePath(const std::string& db_path,
                         std::string* output_path) override {
    if (!db_path.empty() && db_path[0] == '/') {
      *output_path = db_path;
      return Status::OK();
    }
    char buf[port::kMaxPathLength];
    if (::getcwd(buf, sizeof(buf)) == nullptr) {
      return PosixError(db_path, "getcwd", errno);
    }
    *output_path = JoinPath(buf, db_path);
    return Status::OK();
  }

  Status LockFile(const std::string& fname, FileLock** lock) override {
    *lock = nullptr;
    const int fd = OpenRetry(fname, O_RDWR | O_CREAT | O_CLOEXEC);
    if (fd < 0) return PosixError(fname, "open lock file", errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      const int err = errno;
      ::close(fd);
      return PosixError(fname, "fstat lock file", err);
    }
    // Keyed by identity, so "d/LOCK" and "d//LOCK" are one lock.
    const std::string key = FileKey(st);
    if (!Locks()->Insert(key, static_cast<uint64_t>(::getpid()))) {
      ::close(fd);
      return Status::LockHeld(fname, "lock held by this process");
    }
    if (LockOrUnlock(fd, true) != 0) {
      const int err = errno;
      ::close(fd);
      Locks()->Remove(key);
      if (err == EAGAIN || err == EACCES) {
        return Status::LockHeld(fname, "lock held by another process");
      }
      return PosixError(fname, "lock", err);
    }
    *lock = new PosixFileLock(fd, fname, key);
    return Status::OK();
  }

  Status UnlockFile(FileLock* lock) override {
    PosixFileLock* l = static_cast<PosixFileLock*>(lock);
    Status s;
    if (LockOrUnlock(l->fd(), false) != 0) {
      s = PosixError(l->name(), "unlock", errno);
    }
    // Close before the table lets another LockFile in: closing would drop
    // a classic fcntl lock that another thread had just taken.
    ::close(l->fd());
    Locks()->Remove(l->key());
    delete l;
    return s;
  }

  uint64_t NowMicros() override {
    struct timespec ts;
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000 +
           static_cast<uint64_t>(ts.tv_nsec) / 1000;
  }

  uint64_t NowNanos() override {
    struct timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000 +
           static_cast<uint64_t>(ts.tv_nsec);
  }

  Status GetTestDirectory(std::string* path) override {
    const char* env = std::getenv("TEST_TMPDIR");
    if (env != nullptr && env[0] != '\0') {
      *path = env;
    } else {
      *path = "/tmp/strata-test-" + std::to_string(::geteuid());
    }
    return CreateDirIfMissing(*path);
  }

 private:
  static LockTable* Locks() {
    static NoDestructor<LockTable> table;
    return table.get();
  }

  Status OpenWritable(const std::string& fname, int base_flags,
                      std::unique_ptr<WritableFile>* result,
                      const EnvOptions& options) {
    result->reset();
    const bool direct = options.use_direct_writes;
    // Direct I/O and mmap exclude each other; direct wins. A shared
    // writable mapping needs the file open for reading too.
    const bool mmap = options.use_mmap_writes && !direct;
    EnvOptions file_options = options;
    if (mmap) {
      base_flags = (base_flags & ~O_WRONLY) | O_RDWR;
      file_options.use_write_through = false;  // msync + fdatasync instead
    }
    const int fd =
        OpenRetry(fname, OpenFlags(base_flags, file_options, direct));
    if (fd < 0) return OpenError(fname, "open for writing", errno, direct);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      const int err = errno;
      ::close(fd);
      return PosixError(fname, "fstat", err);
    }
    const uint64_t initial_size = static_cast<uint64_t>(st.st_size);
    if (mmap) {
      result->reset(new PosixMmapFile(fname, fd, initial_size));
      return Status::OK();
    }
    const size_t alignment =
        direct ? GetDirectIOAlignment(fd) : kDefaultPageSize;
    result->reset(new PosixWritableFile(fname, fd, initial_size, file_options,
                                        alignment));
    return Status::OK();
  }
};

}  // namespace

Env* Env::Default() {
  // Never destroyed: background threads and static destructors elsewhere
  // may still use it while the process exits.
  static NoDestructor<PosixEnv> env;
  return env.get();
}

}  // namespace strata
