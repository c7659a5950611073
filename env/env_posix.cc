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

#include "env/io_posix.h"
#include "env/io_util.h"
#include "env/os_env.h"
#include "env/os_file.h"
#include "port/port.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

// The open(2) flags for a data file.
int OpenFlags(const OpenRequest& request) {
  int flags = 0;
  switch (request.access) {
    case OpenRequest::kSequentialRead:
    case OpenRequest::kRandomRead:
      flags = O_RDONLY;
      break;
    case OpenRequest::kReadWrite:
      flags = O_RDWR | (request.create ? O_CREAT : 0);
      break;
    case OpenRequest::kWrite:
      // A shared writable mapping needs the file open for reading too.
      flags = O_CREAT | (request.truncate ? O_TRUNC : 0) |
              (request.mmap ? O_RDWR : O_WRONLY);
      break;
  }
  if (request.close_on_exec) flags |= O_CLOEXEC;
  // Write-through: each write returns once its data is durable, so a sync
  // needs no fdatasync (the POSIX counterpart of FILE_FLAG_WRITE_THROUGH).
  if (request.write_through && (flags & (O_WRONLY | O_RDWR))) {
    flags |= O_DSYNC;
  }
#if defined(O_DIRECT)
  if (request.direct) flags |= O_DIRECT;
#endif
  return flags;
}

// open(2), retried on EINTR. Owns nothing (with errno set) on failure.
ScopedFd OpenRetry(const std::string& fname, int flags, mode_t mode = 0644) {
  int fd;
  do {
    fd = ::open(fname.c_str(), flags, mode);
  } while (fd < 0 && errno == EINTR);
  return ScopedFd(fd);
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

// A LOCK file's descriptor, which holds the lock once Lock succeeds.
class PosixFileLock : public OsFileLock {
 public:
  PosixFileLock(ScopedFd fd, std::string name, std::string key)
      : OsFileLock(std::move(name), std::move(key),
                   static_cast<uint64_t>(::getpid())),
        fd_(std::move(fd)) {}

  Status Lock() override {
    if (LockOrUnlock(fd_.get(), true) == 0) return Status::OK();
    const int err = errno;
    if (err == EAGAIN || err == EACCES) {
      return Status::LockHeld(name(), "lock held by another process");
    }
    return PosixError(name(), "lock", err);
  }

  Status Unlock() override {
    if (LockOrUnlock(fd_.get(), false) == 0) return Status::OK();
    return PosixError(name(), "unlock", errno);
  }

 private:
  const ScopedFd fd_;
};

class PosixEnv : public OsEnv {
 public:
  PosixEnv() = default;

  Status NewDirectory(const std::string& name,
                      std::unique_ptr<Directory>* result) override {
    result->reset();
    ScopedFd fd = OpenRetry(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (!fd.is_valid()) return PosixError(name, "open directory", errno);
    result->reset(new PosixDirectory(name, std::move(fd)));
    return Status::OK();
  }

  Status FileExists(const std::string& fname) override {
    if (::access(fname.c_str(), F_OK) == 0) return Status::OK();
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return Status::NotFound(fname);
    return PosixError(fname, "access", err);
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
  Status OpenDataFile(const std::string& fname, const OpenRequest& request,
                      ScopedFd* fd, size_t* alignment) override {
    *fd = OpenRetry(fname, OpenFlags(request));
    if (!fd->is_valid()) {
      return OpenError(fname, request.op(), errno, request.direct);
    }
    *alignment =
        request.direct ? GetDirectIOAlignment(fd->get()) : kDefaultPageSize;
    return Status::OK();
  }

  Status FileSize(const ScopedFd& fd, const std::string& fname,
                  uint64_t* size) override {
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return PosixError(fname, "fstat", errno);
    *size = static_cast<uint64_t>(st.st_size);
    return Status::OK();
  }

  bool WritesAreDurable(const ScopedFd& fd) override {
    return IsWriteThrough(fd.get());
  }

  // The mapping outlives the descriptor, which closes on return.
  Status MapWhole(const std::string& fname, ScopedFd fd, bool writable,
                  std::unique_ptr<FileView>* view) override {
    uint64_t size = 0;
    Status s = FileSize(fd, fname, &size);
    if (!s.ok()) return s;
    std::unique_ptr<FileView> v(new FileView);
    if (size > 0) {
      void* base = ::mmap(nullptr, static_cast<size_t>(size),
                          writable ? PROT_READ | PROT_WRITE : PROT_READ,
                          MAP_SHARED, fd.get(), 0);
      if (base == MAP_FAILED) return PosixError(fname, "mmap", errno);
      v->base = base;
      v->length = static_cast<size_t>(size);
    }
    *view = std::move(v);
    return Status::OK();
  }

  Status OpenLockFile(const std::string& fname,
                      std::unique_ptr<OsFileLock>* lock) override {
    ScopedFd fd = OpenRetry(fname, O_RDWR | O_CREAT | O_CLOEXEC);
    if (!fd.is_valid()) return PosixError(fname, "open lock file", errno);
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) {
      return PosixError(fname, "fstat lock file", errno);
    }
    lock->reset(new PosixFileLock(std::move(fd), fname, FileKey(st)));
    return Status::OK();
  }

  Status LastError(const std::string& path, const char* op) const override {
    return PosixError(path, op, errno);
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
