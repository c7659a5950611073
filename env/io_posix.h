// File classes of the POSIX Env: pread/pwrite on a file descriptor,
// O_DIRECT when asked (every transfer then checked for alignment before it
// reaches the kernel), mmap for reads, fallocate for preallocation.
//
// Each class owns its descriptor and closes it on destruction. Errors go
// through PosixError, the one place errno becomes a Status.

#ifndef STRATA_ENV_IO_POSIX_H_
#define STRATA_ENV_IO_POSIX_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "env/mmap_writer.h"
#include "strata/env.h"

namespace strata {

// The Status for errno value err from operation op on path:
//   ENOENT, ENOTDIR -> PathNotFound     ENOSPC, EDQUOT -> NoSpace
//   EINVAL          -> InvalidArgument  anything else  -> IOError
// The message names the path and the operation.
Status PosixError(const std::string& path, const char* op, int err);

// True if fd's writes are synchronous (O_DSYNC or O_SYNC), as the kernel
// reports it.
bool IsWriteThrough(int fd);

// fdatasync (or fsync, with metadata), counted in IOStats::flushes.
Status SyncFd(int fd, const std::string& fname, bool metadata);

// The alignment direct I/O on fd needs: the logical block size of the device
// holding it, or kDefaultPageSize when that cannot be found. Looked up once
// per device.
size_t GetDirectIOAlignment(int fd);

class PosixSequentialFile : public SequentialFile {
 public:
  PosixSequentialFile(std::string fname, int fd, bool use_direct_io,
                      size_t alignment);
  ~PosixSequentialFile() override;

  Status Read(size_t n, Slice* result, char* scratch) override;
  Status Skip(uint64_t n) override;
  Status PositionedRead(uint64_t offset, size_t n, Slice* result,
                        char* scratch) override;
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override { return alignment_; }
  Status InvalidateCache(size_t offset, size_t length) override;

 private:
  const std::string filename_;
  const int fd_;
  const bool use_direct_io_;
  const size_t alignment_;
  uint64_t offset_ = 0;  // next read position, for direct I/O
};

class PosixRandomAccessFile : public RandomAccessFile {
 public:
  PosixRandomAccessFile(std::string fname, int fd, bool use_direct_io,
                        size_t alignment);
  ~PosixRandomAccessFile() override;

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  Status Prefetch(uint64_t offset, size_t n) override;
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override { return alignment_; }
  Status InvalidateCache(size_t offset, size_t length) override;

 private:
  const std::string filename_;
  const int fd_;
  const bool use_direct_io_;
  const size_t alignment_;
};

// Reads through a read-only memory map of the whole file.
class PosixMmapReadableFile : public RandomAccessFile {
 public:
  // Takes ownership of the mapping [base, base + length).
  PosixMmapReadableFile(std::string fname, void* base, size_t length);
  ~PosixMmapReadableFile() override;

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;

 private:
  const std::string filename_;
  void* const base_;
  const size_t length_;
};

class PosixWritableFile : public WritableFile {
 public:
  // initial_size: the file's size when opened (0 unless reopened).
  PosixWritableFile(std::string fname, int fd, uint64_t initial_size,
                    const EnvOptions& options, size_t alignment);
  ~PosixWritableFile() override;

  Status Append(const Slice& data) override;
  Status PositionedAppend(const Slice& data, uint64_t offset) override;
  Status Truncate(uint64_t size) override;
  Status Close() override;
  Status Flush() override { return Status::OK(); }
  Status Sync() override;
  Status Fsync() override;
  bool IsSyncThreadSafe() const override { return true; }
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override { return alignment_; }
  uint64_t GetFileSize() override { return filesize_; }
  Status Allocate(uint64_t offset, uint64_t len) override;
  Status RangeSync(uint64_t offset, uint64_t nbytes) override;
  Status InvalidateCache(size_t offset, size_t length) override;

 private:
  Status WriteAt(const char* data, size_t n, uint64_t offset);

  const std::string filename_;
  int fd_;
  const bool use_direct_io_;
  // Opened with O_DSYNC (EnvOptions::use_write_through).
  const bool write_through_;
  const bool allow_fallocate_;
  const size_t alignment_;
  uint64_t filesize_;
  // The end of the space reserved so far (0: none); Close trims what
  // lies past the data.
  uint64_t reserved_end_ = 0;
};

// Appends through a read-write shared mapping, a region at a time (see
// MmapWriter); regions extend the file with ftruncate, and close trims it
// to the bytes appended. Sync is msync of the written part, then fdatasync.
class PosixMmapFile : public MmapWriter {
 public:
  PosixMmapFile(std::string fname, int fd, uint64_t initial_size);
  ~PosixMmapFile() override;

  Status Close() override;
  Status Sync() override;
  Status Fsync() override;

 private:
  Status MapView(uint64_t offset, size_t size, char** view) override;
  Status UnmapView(char* view, size_t size) override;
  bool IsOpen() const override { return fd_ >= 0; }
  Status SyncMapped();

  int fd_;
};

class PosixRandomRWFile : public RandomRWFile {
 public:
  PosixRandomRWFile(std::string fname, int fd, bool use_direct_io,
                    size_t alignment);
  ~PosixRandomRWFile() override;

  Status Write(uint64_t offset, const Slice& data) override;
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  Status Flush() override { return Status::OK(); }
  Status Sync() override;
  Status Fsync() override;
  Status Close() override;
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override { return alignment_; }

 private:
  const std::string filename_;
  int fd_;
  const bool use_direct_io_;
  const size_t alignment_;
};

class PosixDirectory : public Directory {
 public:
  PosixDirectory(std::string name, int fd);
  ~PosixDirectory() override;
  Status Fsync() override;
  Status Close() override;

 private:
  const std::string name_;
  int fd_;
};

}  // namespace strata

#endif  // STRATA_ENV_IO_POSIX_H_
