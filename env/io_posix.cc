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
#include "env/os_file.h"
#include "env/os_writable_file.h"
#include "port/port.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

bool IsWriteThrough(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  return flags != -1 && (flags & O_DSYNC) == O_DSYNC;
}

Status TruncateFd(int fd, const std::string& fname, uint64_t size) {
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    return PosixError(fname, "ftruncate", errno);
  }
  return Status::OK();
}

Status CloseFd(ScopedFd* fd, const std::string& fname, const char* op) {
  if (!fd->Close()) return PosixError(fname, op, errno);
  return Status::OK();
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

Status PosixWriteAll(PosixWriteCall write, int fd, const std::string& fname,
                     uint64_t offset, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t r = write(fd, data, n, static_cast<off_t>(offset));
    if (r < 0) {
      if (errno == EINTR) continue;
      return PosixError(fname, "pwrite", errno);
    }
    if (r == 0) {
      // Nothing written and no error: asking again would ask forever.
      return Status::IOError(fname,
                             "pwrite wrote 0 bytes of " + std::to_string(n));
    }
    data += r;
    n -= static_cast<size_t>(r);
    offset += static_cast<uint64_t>(r);
  }
  return Status::OK();
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

// ---- OsSequentialFile -------------------------------------------------------

Status OsSequentialFile::Read(size_t n, Slice* result, char* scratch) {
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
    const ssize_t r = ::read(file_.get(), scratch + done, n - done);
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

Status OsSequentialFile::Skip(uint64_t n) {
  if (use_direct_io_) {
    offset_ += n;
    return Status::OK();
  }
  if (::lseek(file_.get(), static_cast<off_t>(n), SEEK_CUR) ==
      static_cast<off_t>(-1)) {
    return PosixError(filename_, "lseek", errno);
  }
  return Status::OK();
}

Status OsSequentialFile::PositionedRead(uint64_t offset, size_t n,
                                        Slice* result, char* scratch) {
  return CheckedPread(file_.get(), filename_, use_direct_io_, alignment_,
                      offset, n, result, scratch);
}

Status OsSequentialFile::InvalidateCache(size_t offset, size_t length) {
  if (use_direct_io_) return Status::OK();
  return Fadvise(file_.get(), filename_, offset, length, POSIX_FADV_DONTNEED);
}

// ---- OsRandomAccessFile -----------------------------------------------------

Status OsRandomAccessFile::Read(uint64_t offset, size_t n, Slice* result,
                                char* scratch) const {
  return CheckedPread(file_.get(), filename_, use_direct_io_, alignment_,
                      offset, n, result, scratch);
}

Status OsRandomAccessFile::Prefetch(uint64_t offset, size_t n) {
  if (use_direct_io_) return Status::OK();
  return Fadvise(file_.get(), filename_, static_cast<size_t>(offset), n,
                 POSIX_FADV_WILLNEED);
}

Status OsRandomAccessFile::InvalidateCache(size_t offset, size_t length) {
  if (use_direct_io_) return Status::OK();
  return Fadvise(file_.get(), filename_, offset, length, POSIX_FADV_DONTNEED);
}

// ---- OsWritableFile: the POSIX system calls ---------------------------------

Status OsWritableFile::WriteAt(const NativeFile& file, const char* data,
                               size_t n, uint64_t offset) {
  return PosixWriteAll(::pwrite, file.get(), filename_, offset, data, n);
}

Status OsWritableFile::SetEndOfFile(uint64_t size) {
  return TruncateFd(file_.get(), filename_, size);
}

Status OsWritableFile::Reserve(uint64_t offset, uint64_t len, bool* granted) {
  *granted = false;
#if defined(__linux__)
  if (::fallocate(file_.get(), FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                  static_cast<off_t>(len)) == 0) {
    *granted = true;
    return Status::OK();
  }
  const int err = errno;
  // A file system without fallocate: writes allocate as they go.
  if (err == EOPNOTSUPP || err == ENOSYS) return Status::OK();
  return PosixError(filename_, "fallocate", err);
#else
  (void)offset, (void)len;
  return Status::OK();
#endif
}

Status OsWritableFile::FlushData() {
  return SyncFd(file_.get(), filename_, false);
}

Status OsWritableFile::CloseFile(NativeFile* file) {
  return CloseFd(file, filename_, "close");
}

Status OsWritableFile::Fsync() { return SyncFd(file_.get(), filename_, true); }

Status OsWritableFile::RangeSync(uint64_t offset, uint64_t nbytes) {
#if defined(__linux__)
  if (::sync_file_range(file_.get(), static_cast<off_t>(offset),
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

Status OsWritableFile::InvalidateCache(size_t offset, size_t length) {
  if (use_direct_io_) return Status::OK();
  return Fadvise(file_.get(), filename_, offset, length, POSIX_FADV_DONTNEED);
}

// ---- OsRandomRWFile ---------------------------------------------------------

Status OsRandomRWFile::Write(uint64_t offset, const Slice& data) {
  if (use_direct_io_) {
    Status s = CheckDirectIOAlignment(filename_, "write", offset, data.size(),
                                      data.data(), alignment_);
    if (!s.ok()) return s;
  }
  return PosixWriteAll(::pwrite, file_.get(), filename_, offset, data.data(),
                       data.size());
}

Status OsRandomRWFile::Read(uint64_t offset, size_t n, Slice* result,
                            char* scratch) const {
  return CheckedPread(file_.get(), filename_, use_direct_io_, alignment_,
                      offset, n, result, scratch);
}

Status OsRandomRWFile::Sync() { return SyncFd(file_.get(), filename_, false); }

Status OsRandomRWFile::Fsync() { return SyncFd(file_.get(), filename_, true); }

Status OsRandomRWFile::Close() { return CloseFd(&file_, filename_, "close"); }

// ---- PosixDirectory ---------------------------------------------------------

PosixDirectory::PosixDirectory(std::string name, ScopedFd fd)
    : name_(std::move(name)), fd_(std::move(fd)) {}

Status PosixDirectory::Fsync() {
  if (!fd_.is_valid()) return Status::IOError(name_, "fsync after close");
  if (::fsync(fd_.get()) != 0) {
    // Some file systems cannot sync a directory; that is not a failure of
    // the data.
    if (errno == EINVAL || errno == EBADF) return Status::OK();
    return PosixError(name_, "fsync directory", errno);
  }
  return Status::OK();
}

Status PosixDirectory::Close() {
  return CloseFd(&fd_, name_, "close directory");
}

}  // namespace strata
