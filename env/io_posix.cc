#include "env/io_posix.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>

#include "env/io_util.h"
#include "port/port.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

bool IsWriteThrough(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  return flags != -1 && (flags & O_DSYNC) == O_DSYNC;
}

Status SyncFd(int fd, const std::string& fname, bool metadata) {
  GetIOStats().flushes.fetch_add(1, std::memory_order_relaxed);
#if defined(__linux__)
  const int r = metadata ? ::fsync(fd) : ::fdatasync(fd);
#else
  (void)metadata;
  const int r = ::fsync(fd);
#endif
  if (r != 0) return PosixError(fname, metadata ? "fsync" : "fdatasync", errno);
  return Status::OK();
}

Status PosixError(const std::string& path, const char* op, int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return Status::PathNotFound(path, op);
    case ENOSPC:
    case EDQUOT:
      return Status::NoSpace(path, op);
    default:
      break;
  }
  std::string detail(op);
  detail.append(": ");
  detail.append(std::strerror(err));
  if (err == EINVAL) return Status::InvalidArgument(path, detail);
  return Status::IOError(path, detail);
}

namespace {

// Reads sysfs' logical_block_size for the device (or, for a partition, its
// parent disk). 0 when unknown.
size_t ReadLogicalBlockSize(dev_t dev) {
  char dir[64];
  std::snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev),
                minor(dev));
  for (const char* suffix :
       {"/queue/logical_block_size", "/../queue/logical_block_size"}) {
    const std::string path = std::string(dir) + suffix;
    FILE* f = std::fopen(path.c_str(), "r");
    if (f == nullptr) continue;
    unsigned long size = 0;
    const int matched = std::fscanf(f, "%lu", &size);
    std::fclose(f);
    // Only a power of two is a usable alignment.
    if (matched == 1 && size > 0 && (size & (size - 1)) == 0) {
      return static_cast<size_t>(size);
    }
  }
  return 0;
}

}  // namespace

size_t GetDirectIOAlignment(int fd) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return kDefaultPageSize;
  static port::Mutex mu;
  static NoDestructor<std::map<dev_t, size_t>> cache;
  MutexLock l(&mu);
  auto it = cache->find(st.st_dev);
  if (it != cache->end()) return it->second;
  GetIOStats().alignment_queries.fetch_add(1, std::memory_order_relaxed);
  size_t size = ReadLogicalBlockSize(st.st_dev);
  if (size == 0) size = kDefaultPageSize;
  cache->emplace(st.st_dev, size);
  return size;
}

namespace {

// pread until n bytes or end of file. *bytes_read is what was read.
// A direct read stops at the first short transfer: that is the end of the
// file, and asking again at the unaligned remainder would be refused.
int ReadFully(int fd, char* buf, size_t n, uint64_t offset, bool direct,
              size_t* bytes_read) {
  size_t done = 0;
  while (done < n) {
    const ssize_t r =
        ::pread(fd, buf + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      *bytes_read = done;
      return errno;
    }
    if (r == 0) break;  // end of file
    done += static_cast<size_t>(r);
    if (direct && done < n) break;
  }
  *bytes_read = done;
  return 0;
}

// pwrite all n bytes.
int WriteFully(int fd, const char* buf, size_t n, uint64_t offset) {
  while (n > 0) {
    const ssize_t r = ::pwrite(fd, buf, n, static_cast<off_t>(offset));
    if (r < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    buf += r;
    n -= static_cast<size_t>(r);
    offset += static_cast<uint64_t>(r);
  }
  return 0;
}

// A positional read, its alignment checked first for a direct-I/O file.
Status CheckedPread(int fd, const std::string& fname, bool direct,
                    size_t alignment, uint64_t offset, size_t n, Slice* result,
                    char* scratch) {
  *result = Slice(scratch, 0);
  if (direct) {
    Status s =
        CheckDirectIOAlignment(fname, "read", offset, n, scratch, alignment);
    if (!s.ok()) return s;
  }
  size_t bytes_read = 0;
  const int err = ReadFully(fd, scratch, n, offset, direct, &bytes_read);
  if (err != 0) return PosixError(fname, "pread", err);
  *result = Slice(scratch, bytes_read);
  return Status::OK();
}

Status Fadvise(int fd, const std::string& fname, size_t offset, size_t length,
               int advice) {
#if defined(__linux__)
  const int r = ::posix_fadvise(fd, static_cast<off_t>(offset),
                                static_cast<off_t>(length), advice);
  if (r != 0) return PosixError(fname, "posix_fadvise", r);
  return Status::OK();
#else
  (void)fd, (void)offset, (void)length, (void)advice;
  return Status::NotSupported("fadvise", fname);
#endif
}

}  // namespace

// ---- PosixSequentialFile -------------------------------------------------

PosixSequentialFile::PosixSequentialFile(std::string fname, int fd,
                                         bool use_direct_io, size_t alignment)
    : filename_(std::move(fname)),
      fd_(fd),
      use_direct_io_(use_direct_io),
      alignment_(alignment) {}

PosixSequentialFile::~PosixSequentialFile() { ::close(fd_); }

Status PosixSequentialFile::Read(size_t n, Slice* result, char* scratch) {
  if (use_direct_io_) {
    Status s = PositionedRead(offset_, n, result, scratch);
    if (s.ok()) offset_ += result->size();
    return s;
  }
  // read(2) may return less than asked before the end (signals, network
  // file systems); only 0 means the end, and callers take a short result
  // to mean it.
  size_t done = 0;
  while (done < n) {
    const ssize_t r = ::read(fd_, scratch + done, n - done);
    if (r < 0) {
      if (errno == EINTR) continue;
      *result = Slice(scratch, 0);
      return PosixError(filename_, "read", errno);
    }
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  *result = Slice(scratch, done);
  return Status::OK();
}

Status PosixSequentialFile::Skip(uint64_t n) {
  if (use_direct_io_) {
    offset_ += n;
    return Status::OK();
  }
  if (::lseek(fd_, static_cast<off_t>(n), SEEK_CUR) == static_cast<off_t>(-1)) {
    return PosixError(filename_, "lseek", errno);
  }
  return Status::OK();
}

Status PosixSequentialFile::PositionedRead(uint64_t offset, size_t n,
                                           Slice* result, char* scratch) {
  return CheckedPread(fd_, filename_, use_direct_io_, alignment_, offset, n,
                      result, scratch);
}

Status PosixSequentialFile::InvalidateCache(size_t offset, size_t length) {
  if (use_direct_io_) return Status::OK();
  return Fadvise(fd_, filename_, offset, length, POSIX_FADV_DONTNEED);
}

// ---- PosixRandomAccessFile -------------------------------------------------

PosixRandomAccessFile::PosixRandomAccessFile(std::string fname, int fd,
                                             bool use_direct_io,
                                             size_t alignment)
    : filename_(std::move(fname)),
      fd_(fd),
      use_direct_io_(use_direct_io),
      alignment_(alignment) {}

PosixRandomAccessFile::~PosixRandomAccessFile() { ::close(fd_); }

Status PosixRandomAccessFile::Read(uint64_t offset, size_t n, Slice* result,
                                   char* scratch) const {
  return CheckedPread(fd_, filename_, use_direct_io_, alignment_, offset, n,
                      result, scratch);
}

Status PosixRandomAccessFile::Prefetch(uint64_t offset, size_t n) {
  if (use_direct_io_) return Status::OK();
  return Fadvise(fd_, filename_, static_cast<size_t>(offset), n,
                 POSIX_FADV_WILLNEED);
}

Status PosixRandomAccessFile::InvalidateCache(size_t offset, size_t length) {
  if (use_direct_io_) return Status::OK();
  return Fadvise(fd_, filename_, offset, length, POSIX_FADV_DONTNEED);
}

// ---- PosixWritableFile -----------------------------------------------------

PosixWritableFile::PosixWritableFile(std::string fname, int fd,
                                     uint64_t initial_size,
                                     const EnvOptions& options,
                                     size_t alignment)
    : filename_(std::move(fname)),
      fd_(fd),
      use_direct_io_(options.use_direct_writes),
      // What the descriptor really is, not what was asked: a sync may skip
      // the flush only if every write was synchronous.
      write_through_(options.use_write_through && IsWriteThrough(fd)),
      allow_fallocate_(options.allow_fallocate),
      alignment_(alignment),
      filesize_(initial_size) {}

PosixWritableFile::~PosixWritableFile() {
  if (fd_ >= 0) {
    Status ignored = Close();
    (void)ignored;
  }
}

Status PosixWritableFile::WriteAt(const char* data, size_t n, uint64_t offset) {
  if (use_direct_io_) {
    Status s =
        CheckDirectIOAlignment(filename_, "write", offset, n, data, alignment_);
    if (!s.ok()) return s;
  }
  const int err = WriteFully(fd_, data, n, offset);
  if (err != 0) return PosixError(filename_, "write", err);
  return Status::OK();
}

Status PosixWritableFile::Append(const Slice& data) {
  if (fd_ < 0) return Status::IOError(filename_, "append after close");
  Status s = WriteAt(data.data(), data.size(), filesize_);
  if (s.ok()) filesize_ += data.size();
  return s;
}

Status PosixWritableFile::PositionedAppend(const Slice& data, uint64_t offset) {
  if (fd_ < 0) return Status::IOError(filename_, "append after close");
  Status s = WriteAt(data.data(), data.size(), offset);
  if (s.ok()) filesize_ = offset + data.size();
  return s;
}

Status PosixWritableFile::Truncate(uint64_t size) {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    return PosixError(filename_, "ftruncate", errno);
  }
  filesize_ = size;
  return Status::OK();
}

Status PosixWritableFile::Close() {
  if (fd_ < 0) return Status::OK();
  Status s;
  // Space reserved past the data (fallocate KEEP_SIZE) is given back by
  // trimming the file to its logical size.
  if (reserved_end_ > 0 &&
      ::ftruncate(fd_, static_cast<off_t>(filesize_)) != 0) {
    s = PosixError(filename_, "ftruncate", errno);
  }
  if (::close(fd_) != 0 && s.ok()) s = PosixError(filename_, "close", errno);
  fd_ = -1;
  return s;
}

Status PosixWritableFile::Sync() {
  if (write_through_) {
    // Opened O_DSYNC: every write returned once its data was durable.
    GetIOStats().write_through_syncs.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  return SyncFd(fd_, filename_, false);
}

Status PosixWritableFile::Fsync() { return SyncFd(fd_, filename_, true); }

Status PosixWritableFile::Allocate(uint64_t offset, uint64_t len) {
  if (!allow_fallocate_) return Status::OK();
  // Already reserved or written: nothing to ask for.
  if (offset + len <= std::max(reserved_end_, filesize_)) return Status::OK();
#if defined(__linux__)
  const int r =
      ::fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                  static_cast<off_t>(len));
  if (r == 0) {
    reserved_end_ = offset + len;
    GetIOStats().preallocations.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  const int err = errno;
  // File systems without fallocate: writing allocates as it goes.
  if (err == EOPNOTSUPP || err == ENOSYS) {
    GetIOStats().preallocation_refusals.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  return PosixError(filename_, "fallocate", err);
#else
  (void)offset, (void)len;
  return Status::OK();
#endif
}

Status PosixWritableFile::RangeSync(uint64_t offset, uint64_t nbytes) {
#if defined(__linux__)
  if (::sync_file_range(fd_, static_cast<off_t>(offset),
                        static_cast<off_t>(nbytes),
                        SYNC_FILE_RANGE_WRITE) != 0) {
    return PosixError(filename_, "sync_file_range", errno);
  }
  return Status::OK();
#else
  (void)offset, (void)nbytes;
  return Status::OK();
#endif
}

Status PosixWritableFile::InvalidateCache(size_t offset, size_t length) {
  if (use_direct_io_) return Status::OK();
  return Fadvise(fd_, filename_, offset, length, POSIX_FADV_DONTNEED);
}

// ---- PosixRandomRWFile -----------------------------------------------------

PosixRandomRWFile::PosixRandomRWFile(std::string fname, int fd,
                                     bool use_direct_io, size_t alignment)
    : filename_(std::move(fname)),
      fd_(fd),
      use_direct_io_(use_direct_io),
      alignment_(alignment) {}

PosixRandomRWFile::~PosixRandomRWFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status PosixRandomRWFile::Write(uint64_t offset, const Slice& data) {
  if (use_direct_io_) {
    Status s = CheckDirectIOAlignment(filename_, "write", offset, data.size(),
                                      data.data(), alignment_);
    if (!s.ok()) return s;
  }
  const int err = WriteFully(fd_, data.data(), data.size(), offset);
  if (err != 0) return PosixError(filename_, "pwrite", err);
  return Status::OK();
}

Status PosixRandomRWFile::Read(uint64_t offset, size_t n, Slice* result,
                               char* scratch) const {
  return CheckedPread(fd_, filename_, use_direct_io_, alignment_, offset, n,
                      result, scratch);
}

Status PosixRandomRWFile::Sync() { return SyncFd(fd_, filename_, false); }

Status PosixRandomRWFile::Fsync() { return SyncFd(fd_, filename_, true); }

Status PosixRandomRWFile::Close() {
  if (fd_ < 0) return Status::OK();
  const int r = ::close(fd_);
  fd_ = -1;
  if (r != 0) return PosixError(filename_, "close", errno);
  return Status::OK();
}

// ---- PosixDirectory
// ----------------------------------------------------------

PosixDirectory::PosixDirectory(std::string name, int fd)
    : name_(std::move(name)), fd_(fd) {}

PosixDirectory::~PosixDirectory() {
  if (fd_ >= 0) ::close(fd_);
}

Status PosixDirectory::Fsync() {
  if (fd_ < 0) return Status::IOError(name_, "fsync after close");
  if (::fsync(fd_) != 0) {
    // Some file systems cannot sync a directory; that is not a failure of
    // the data.
    if (errno == EINVAL || errno == EBADF) return Status::OK();
    return PosixError(name_, "fsync directory", errno);
  }
  return Status::OK();
}

Status PosixDirectory::Close() {
  if (fd_ < 0) return Status::OK();
  const int r = ::close(fd_);
  fd_ = -1;
  if (r != 0) return PosixError(name_, "close directory", errno);
  return Status::OK();
}

}  // namespace strata
