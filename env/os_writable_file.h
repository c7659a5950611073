// OsWritableFile: the writable file of the OS Envs, declared once for every
// platform. It keeps the logical size and appends with positional writes
// at it; checks every direct (unbuffered) transfer for alignment before it
// reaches the OS; reserves space ahead of the data when asked
// (EnvOptions::allow_fallocate), counting grants and refusals in IOStats;
// trims a reservation back to the data on Close; and answers Sync without
// a flush for a write-through file. With a second, write-through handle
// (EnvOptions::use_write_through) AppendAndSync writes through it, and
// Sync flushes only what plain appends left since the last durable point.
//
// The platform-free half is env/os_writable_file.cc. The system calls
// (the private members below, and Fsync, RangeSync and InvalidateCache)
// are defined by env/io_posix.cc (pwrite, fallocate with
// FALLOC_FL_KEEP_SIZE, ftruncate, fdatasync) and env/io_win.cc (WriteFile
// with an OVERLAPPED offset, FileAllocationInfo, FileEndOfFileInfo,
// FlushFileBuffers).
//
// Thread safety: Sync and Fsync may run concurrently with Append (they only
// read the handle); everything else is used by one thread at a time.

#ifndef STRATA_ENV_OS_WRITABLE_FILE_H_
#define STRATA_ENV_OS_WRITABLE_FILE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "env/native_file.h"
#include "strata/env.h"

namespace strata {

class OsWritableFile final : public WritableFile {
 public:
  // file: open for writing. durable: invalid, or a second handle on the
  // same file whose every write is durable when it returns, as the OS
  // reports it (not merely as asked). initial_size: the size when opened (0
  // unless reopened). write_through: every write of file itself is durable
  // when it returns (as the OS reports it). alignment: what direct
  // transfers are checked against, or the buffer alignment a buffered
  // file reports.
  OsWritableFile(std::string fname, NativeFile file, NativeFile durable,
                 uint64_t initial_size, const EnvOptions& options,
                 bool write_through, size_t alignment);
  // Closes, ignoring the error (Close reports it).
  ~OsWritableFile() override;

  Status Append(const Slice& data) override;
  Status PositionedAppend(const Slice& data, uint64_t offset) override;
  Status Truncate(uint64_t size) override;
  // Trims space reserved past the data, then closes. The first error is
  // returned; the file is closed either way.
  Status Close() override;
  Status Flush() override { return Status::OK(); }
  // A flush only if something written through the buffered handle is not
  // yet known durable.
  Status Sync() override;
  // Through the durable handle, after flushing what plain appends left;
  // without one, as WritableFile's.
  Status AppendAndSync(const Slice& data) override;
  // POSIX: fsync, even for a write-through file. Windows, which cannot
  // flush data and metadata apart: Sync.
  Status Fsync() override;
  bool IsSyncThreadSafe() const override { return true; }
  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override { return alignment_; }
  uint64_t GetFileSize() override {
    return filesize_.load(std::memory_order_relaxed);
  }
  Status Allocate(uint64_t offset, uint64_t len) override;
  Status RangeSync(uint64_t offset, uint64_t nbytes) override;
  Status InvalidateCache(size_t offset, size_t length) override;

 private:
  // Defined by the platform.
  //
  // Writes all n bytes at offset through file (file_ or durable_;
  // alignment already checked).
  Status WriteAt(const NativeFile& file, const char* data, size_t n,
                 uint64_t offset);
  // Moves the end of file to size, giving back reserved space past it.
  Status SetEndOfFile(uint64_t size);
  // Asks the file system to reserve [offset, offset + len) without moving
  // the end of file. OK with *granted false if the file system cannot
  // reserve (writes then allocate as they go); an error only for a real
  // failure. Never asked for an end below the data.
  Status Reserve(uint64_t offset, uint64_t len, bool* granted);
  // Makes the written data durable (fdatasync, FlushFileBuffers).
  Status FlushData();
  // Closes *file (file_ or durable_).
  Status CloseFile(NativeFile* file);

  // synced_ moves up to end (never down: a concurrent Sync may have
  // covered more).
  void MarkSynced(uint64_t end);

  const std::string filename_;
  NativeFile file_;
  NativeFile durable_;
  const bool use_direct_io_;
  const bool write_through_;
  const bool allow_fallocate_;
  const size_t alignment_;
  // Atomic: a Sync may run beside Append (IsSyncThreadSafe).
  std::atomic<uint64_t> filesize_;
  // The end of what is known durable: written through durable_, or flushed.
  std::atomic<uint64_t> synced_;
  // The end of the space reserved so far (0: none); Close trims what lies
  // past the data.
  uint64_t reserved_end_ = 0;
};

}  // namespace strata

#endif  // STRATA_ENV_OS_WRITABLE_FILE_H_
