// File classes of the Windows Env. Every data file is opened through
// CreateFileW with FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, so
// it can be renamed or deleted while open; positional transfers are
// ReadFile/WriteFile with an OVERLAPPED offset on one shared handle, which
// is safe from many threads; end of file is a short read.
//
// With direct I/O the handle is opened with FILE_FLAG_NO_BUFFERING and every
// transfer is checked for alignment — max(page size, the volume's sector
// size) — before it reaches the OS: Windows requires it, Wine does not
// enforce it, and the check keeps the two alike (and is counted, see
// IOStats).
//
// This header keeps <windows.h> out: handles are stored as void*.

#ifndef STRATA_ENV_IO_WIN_H_
#define STRATA_ENV_IO_WIN_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "env/mmap_writer.h"
#include "strata/env.h"

namespace strata {

// The Status for Win32 error err (GetLastError()) from operation op on path:
//   file/path not found, bad drive        -> PathNotFound
//   disk full                             -> NoSpace
//   invalid parameter                     -> InvalidArgument
//   sharing violation, access denied, ... -> IOError
// The message names the path and the operation and carries the system's
// text for the error, in UTF-8.
Status WinError(const std::string& path, const char* op, unsigned long err);

// The alignment unbuffered I/O on the volume holding path needs:
// max(page size, the volume's physical sector size). The sector size comes
// from IOCTL_STORAGE_QUERY_PROPERTY (StorageAccessAlignmentProperty), else
// IOCTL_DISK_GET_DRIVE_GEOMETRY, else 4096; it is asked once per volume
// (IOStats::alignment_queries) and remembered.
size_t WinDirectIOAlignment(const std::string& path);

// Reads or writes exactly at offset through an OVERLAPPED structure; shared
// by the file classes. A non-zero direct_alignment is checked first.
Status WinPositionedRead(void* handle, const std::string& fname,
                         size_t direct_alignment, uint64_t offset, size_t n,
                         Slice* result, char* scratch);
Status WinPositionedWrite(void* handle, const std::string& fname,
                          size_t direct_alignment, uint64_t offset,
                          const char* data, size_t n);

// True if handle was opened FILE_FLAG_WRITE_THROUGH, as the OS reports it
// (FileModeInformation); false if it cannot tell.
bool WinIsWriteThrough(void* handle);

// FlushFileBuffers, counted (IOStats::flushes).
Status WinFlushFileBuffers(void* handle, const std::string& fname);

// Reads, sequentially or positionally, through one handle. alignment is
// the direct-I/O alignment, or 0 for a buffered file.
class WinSequentialFile : public SequentialFile {
 public:
  WinSequentialFile(std::string fname, void* handle, size_t alignment);
  ~WinSequentialFile() override;

  Status Read(size_t n, Slice* result, char* scratch) override;
  Status Skip(uint64_t n) override;
  Status PositionedRead(uint64_t offset, size_t n, Slice* result,
                        char* scratch) override;
  bool use_direct_io() const override { return alignment_ != 0; }
  size_t GetRequiredBufferAlignment() const override;

 private:
  const std::string filename_;
  void* const handle_;
  const size_t alignment_;
  uint64_t offset_ = 0;  // the next byte Read returns
};

class WinRandomAccessFile : public RandomAccessFile {
 public:
  WinRandomAccessFile(std::string fname, void* handle, size_t alignment);
  ~WinRandomAccessFile() override;

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  bool use_direct_io() const override { return alignment_ != 0; }
  size_t GetRequiredBufferAlignment() const override;

 private:
  const std::string filename_;
  void* const handle_;
  const size_t alignment_;
};

// Reads through a read-only view of the whole file.
class WinMmapReadableFile : public RandomAccessFile {
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

// Appends with WriteFile at the logical end. Space is reserved with
// FileAllocationInfo (the end of file does not move) and the file is
// trimmed to its logical size with FileEndOfFileInfo on close. Opened with
// FILE_FLAG_WRITE_THROUGH (EnvOptions::use_write_through), every write is
// durable when it returns and Sync() issues no FlushFileBuffers.
class WinWritableFile : public WritableFile {
 public:
  WinWritableFile(std::string fname, void* handle, uint64_t initial_size,
                  const EnvOptions& options, size_t alignment);
  ~WinWritableFile() override;

  Status Append(const Slice& data) override;
  Status PositionedAppend(const Slice& data, uint64_t offset) override;
  Status Truncate(uint64_t size) override;
  Status Close() override;
  Status Flush() override { return Status::OK(); }
  Status Sync() override;
  bool IsSyncThreadSafe() const override { return true; }
  bool use_direct_io() const override { return alignment_ != 0; }
  size_t GetRequiredBufferAlignment() const override;
  uint64_t GetFileSize() override { return filesize_; }
  Status Allocate(uint64_t offset, uint64_t len) override;

 private:
  const std::string filename_;
  void* handle_;
  const size_t alignment_;  // 0: buffered
  const bool write_through_;
  const bool allow_fallocate_;
  uint64_t filesize_;
  // The end of the space reserved so far (0: none); Close trims what
  // lies past the data.
  uint64_t reserved_end_ = 0;
};

// Appends through views of a file mapping, a region at a time (see
// MmapWriter; views start at multiples of the 64 KiB allocation
// granularity); a mapping grows the file, and close trims it to the bytes
// appended. Sync is FlushViewOfFile of the written part, then
// FlushFileBuffers.
class WinMmapFile : public MmapWriter {
 public:
  WinMmapFile(std::string fname, void* handle, uint64_t initial_size);
  ~WinMmapFile() override;

  Status Close() override;
  Status Sync() override;

 private:
  Status MapView(uint64_t offset, size_t size, char** view) override;
  Status UnmapView(char* view, size_t size) override;
  bool IsOpen() const override { return handle_ != nullptr; }

  void* handle_;
  void* mapping_ = nullptr;  // the mapping of the current view
};

class WinRandomRWFile : public RandomRWFile {
 public:
  WinRandomRWFile(std::string fname, void* handle, size_t alignment);
  ~WinRandomRWFile() override;

  Status Write(uint64_t offset, const Slice& data) override;
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  Status Flush() override { return Status::OK(); }
  Status Sync() override;
  Status Close() override;
  bool use_direct_io() const override { return alignment_ != 0; }
  size_t GetRequiredBufferAlignment() const override;

 private:
  const std::string filename_;
  void* handle_;
  const size_t alignment_;
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
