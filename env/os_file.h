// The read and read-write file classes of the OS Envs, declared once for
// every platform: each owns one NativeFile and reads (or writes) at an
// offset through it. The members are defined by env/io_posix.cc (pread,
// pwrite, read for a buffered sequential file, posix_fadvise) and
// env/io_win.cc (ReadFile/WriteFile with an OVERLAPPED offset; end of file
// is a short read).
//
// With direct I/O every transfer is checked for alignment before it
// reaches the OS (CheckDirectIOAlignment) and refused if misaligned.
// alignment is then what transfers are checked against; for a buffered
// file it is the buffer alignment GetRequiredBufferAlignment reports.
//
// MmapReadableFile, for EnvOptions::use_mmap_reads, reads through a view
// of the whole file (mmap, MapViewOfFile) instead.
//
// Thread safety: OsRandomAccessFile, OsRandomRWFile and MmapReadableFile
// are safe from many threads (positional transfers on one handle);
// OsSequentialFile is used by one thread at a time.

#ifndef STRATA_ENV_OS_FILE_H_
#define STRATA_ENV_OS_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "env/native_file.h"
#include "strata/env.h"

namespace strata {

// What the three classes below hold, and the two answers that come from
// it. Interface: SequentialFile, RandomAccessFile or RandomRWFile.
template <typename Interface>
class OsFile : public Interface {
 public:
  OsFile(std::string fname, NativeFile file, bool use_direct_io,
         size_t alignment)
      : filename_(std::move(fname)),
        file_(std::move(file)),
        use_direct_io_(use_direct_io),
        alignment_(alignment) {}

  bool use_direct_io() const override { return use_direct_io_; }
  size_t GetRequiredBufferAlignment() const override { return alignment_; }

 protected:
  const std::string filename_;
  NativeFile file_;
  const bool use_direct_io_;
  const size_t alignment_;
};

class OsSequentialFile final : public OsFile<SequentialFile> {
 public:
  using OsFile<SequentialFile>::OsFile;

  Status Read(size_t n, Slice* result, char* scratch) override;
  Status Skip(uint64_t n) override;
  Status PositionedRead(uint64_t offset, size_t n, Slice* result,
                        char* scratch) override;
  Status InvalidateCache(size_t offset, size_t length) override;

 private:
  // The next byte Read returns, where reads are positional (direct I/O;
  // every read on Windows). A buffered POSIX file reads at the
  // descriptor's own position instead.
  uint64_t offset_ = 0;
};

class OsRandomAccessFile final : public OsFile<RandomAccessFile> {
 public:
  using OsFile<RandomAccessFile>::OsFile;

  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  Status Prefetch(uint64_t offset, size_t n) override;
  Status InvalidateCache(size_t offset, size_t length) override;
};

class OsRandomRWFile final : public OsFile<RandomRWFile> {
 public:
  using OsFile<RandomRWFile>::OsFile;

  Status Write(uint64_t offset, const Slice& data) override;
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* scratch) const override;
  Status Flush() override { return Status::OK(); }
  Status Sync() override;
  Status Fsync() override;
  // The first close reports the OS's error; later ones are no-ops.
  Status Close() override;
};

// Reads through a read-only view of the whole file.
class MmapReadableFile final : public RandomAccessFile {
 public:
  // Takes ownership of the view [base, base + length) (none for an empty
  // file) and of what keeps it: on Windows the file and the mapping behind
  // the view; on POSIX nothing (a view outlives its descriptor), and both
  // handles are empty.
  MmapReadableFile(std::string fname, NativeFile file, NativeFile mapping,
                   const void* base, size_t length)
      : filename_(std::move(fname)),
        file_(std::move(file)),
        mapping_(std::move(mapping)),
        base_(base),
        length_(length) {}
  // Unmaps the view (defined by the platform), then closes the handles.
  ~MmapReadableFile() override;

  // A read at or past the end is short (empty); scratch is not used.
  Status Read(uint64_t offset, size_t n, Slice* result,
              char* /*scratch*/) const override {
    *result = Slice();
    if (offset < length_) {
      const size_t available = length_ - static_cast<size_t>(offset);
      *result = Slice(static_cast<const char*>(base_) + offset,
                      available < n ? available : n);
    }
    return Status::OK();
  }

 private:
  const std::string filename_;
  // Declared in the order they are made: destroyed in reverse.
  const NativeFile file_;
  const NativeFile mapping_;
  const void* const base_;
  const size_t length_;
};

}  // namespace strata

#endif  // STRATA_ENV_OS_FILE_H_
