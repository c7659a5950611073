// File classes of the Windows Env. Every data file is opened through
// CreateFileW with FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, so
// it can be renamed or deleted while open; positional transfers are
// ReadFile/WriteFile with an OVERLAPPED offset on one shared handle, which
// is safe from many threads; end of file is a short read.
//
// With direct I/O the handle is opened with FILE_FLAG_NO_BUFFERING and every
// transfer is checked for alignment before it reaches the OS: Windows
// requires it, Wine does not enforce it, and a check here keeps the two
// alike.
//
// This header keeps <windows.h> out: handles are stored as void*.

#ifndef STRATA_ENV_IO_WIN_H_
#define STRATA_ENV_IO_WIN_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "strata/env.h"
#include "strata/export.h"

namespace strata {

// The Status for Win32 error err (GetLastError()) from operation op on path:
//   file/path not found, bad drive        -> PathNotFound
//   disk full                             -> NoSpace
//   invalid parameter                     -> InvalidArgument
//   sharing violation, access denied, ... -> IOError
// The message names the path and the operation and carries the system's
// text for the error, in UTF-8.
STRATA_EXPORT Status WinError(const std::string& path, const char* op,
                              unsigned long err);

// The alignment unbuffered I/O on this system needs (the page size).
STRATA_EXPORT size_t WinDirectIOAlignment();

// Reads or writes exactly at offset through an OVERLAPPED structure; shared
// by the file classes. With direct, the read's alignment is checked first.
STRATA_EXPORT Status WinPositionedRead(void* handle, const std::string& fname,
                                       bool direct, uint64_t offset, size_t n,
                                       Slice* result, char* scratch);
STRATA_EXPORT Status WinPositionedWrite(void* handle, const std::string& fname,
                                        uint64_t offset, const char* data,
                                        size_t n);

class STRATA_EXPORT WinSequentialFile : public SequentialFile {
 public:
  WinSequentialFile(std::string fname, void* handle, bool use_direct_io);
  ~WinSequentialFile() override;

  Status Read(size_t n, Slice* result, char* scratch) override;
  Status Skip(uint64_t n) override;
  Status PositionedRead(uint64_t offset, size_t n, Slice* result,
                        char* scratch) override;
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override;

 private:
  const std::string filename_;
  void* const handle_;
  const bool use_direct_io_;
  uint64_t offset_ = 0;  // the next byte Read returns
};

class STRATA_EXPORT WinRandomAccessFile : public RandomAccessFile {
 public:
  WinRandomAccessFile(std::string fname, void* handle, bool use_direct_io);
  ~WinRandomAccessFile() override;

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override;

 private:
  const std::string filename_;
  void* const handle_;
  const bool use_direct_io_;
};

// Reads through a read-only view of the whole file.
class STRATA_EXPORT WinMmapReadableFile : public RandomAccessFile {
 public:
  // Takes ownership of the file handle, the mapping handle and the view.
  WinMmapReadableFile(std::string fname, void* file, void* mapping,
                      const void* base, size_t length);
  ~WinMmapReadableFile() override;

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;

 private:
  const std::string filename_;
  void* const file_;
  void* const mapping_;
  const void* const base_;
  const size_t length_;
};

class STRATA_EXPORT WinWritableFile : public WritableFile {
 public:
  WinWritableFile(std::string fname, void* handle, uint64_t initial_size,
                  const EnvOptions& options);
  ~WinWritableFile() override;

  Status Append(const Slice& data) override;
  Status PositionedAppend(const Slice& data, uint64_t offset) override;
  Status Truncate(uint64_t size) override;
  Status Close() override;
  Status Flush() override { return Status::OK(); }
  Status Sync() override;
  bool IsSyncThreadSafe() const override { return true; }
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override;
  uint64_t GetFileSize() override { return filesize_; }
  Status Allocate(uint64_t offset, uint64_t len) override;

 private:
  Status WriteAt(const char* data, size_t n, uint64_t offset);

  const std::string filename_;
  void* handle_;
  const bool use_direct_io_;
  const bool allow_fallocate_;
  uint64_t filesize_;
  bool preallocated_ = false;
};

class STRATA_EXPORT WinRandomRWFile : public RandomRWFile {
 public:
  WinRandomRWFile(std::string fname, void* handle, bool use_direct_io);
  ~WinRandomRWFile() override;

  Status Write(uint64_t offset, const Slice& data) override;
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  Status Flush() override { return Status::OK(); }
  Status Sync() override;
  Status Close() override;
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override;

 private:
  const std::string filename_;
  void* handle_;
  const bool use_direct_io_;
};

// Windows cannot flush a directory's entries on their own: NTFS journals
// metadata, so a rename is durable once the volume's log is. Fsync is a
// successful no-op, after checking the directory exists at open.
class WinDirectory : public Directory {
 public:
  Status Fsync() override { return Status::OK(); }
};

}  // namespace strata

#endif  // STRATA_ENV_IO_WIN_H_
