// MmapWriter: the writable file of the OS Envs written through a memory
// map, declared once for every platform. It appends into a view of the
// current region, maps the next region when the view is full, and keeps
// the logical size; regions start at one granule (the page size on POSIX,
// the 64 KiB allocation granularity on Windows) and double up to 1 MiB.
// Mapping a region grows the file to the region's end; Close unmaps and
// trims the file to the bytes appended. Sync flushes the written part of
// the view, then the file (regions already unmapped are in the page cache).
//
// The platform-free half is env/mmap_writer.cc; the system calls (the
// private members below) are defined by env/mmap_posix.cc (ftruncate,
// mmap, msync, fdatasync) and env/mmap_win.cc (CreateFileMapping,
// MapViewOfFile, FlushViewOfFile, FlushFileBuffers).
//
// Thread safety: an instance is used by one thread at a time.

#ifndef STRATA_ENV_MMAP_WRITER_H_
#define STRATA_ENV_MMAP_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "env/native_file.h"
#include "strata/env.h"

namespace strata {

class MmapWriter final : public WritableFile {
 public:
  // file: open for reading and writing. initial_size: its size when opened
  // (0 unless reopened).
  MmapWriter(std::string fname, NativeFile file, uint64_t initial_size);
  // Closes, ignoring the error (Close reports it).
  ~MmapWriter() override;

  Status Append(const Slice& data) override;
  Status Flush() override { return Status::OK(); }
  // The first error is returned; the file is closed either way.
  Status Close() override;
  Status Sync() override;
  // Sync, with the file's metadata (fsync) where the platform tells them
  // apart.
  Status Fsync() override;
  // Not offered: the engine truncates only direct-I/O files.
  Status Truncate(uint64_t size) override;
  // Bytes appended (including those there when the file was reopened).
  uint64_t GetFileSize() override;

 private:
  Status MapRegion();
  // Unmaps the current region if one is mapped.
  Status UnmapRegion();
  Status SyncFile(bool metadata);

  // Defined by the platform.
  //
  // The alignment of a region's file offset.
  static size_t Granule();
  // Maps [offset, offset + size) writable, growing the file to cover it.
  Status MapView(uint64_t offset, size_t size, char** view);
  Status UnmapView(char* view, size_t size);
  // Writes [start, start + n) of the current view back to the file.
  Status FlushView(char* start, size_t n);
  // Makes the file's data (and, with metadata, its metadata) durable.
  Status FlushFile(bool metadata);
  // Moves the end of file to size.
  Status SetEndOfFile(uint64_t size);
  Status CloseFile();

  const std::string filename_;
  NativeFile file_;
  // Windows: the file mapping behind the current view. POSIX maps views
  // straight from the descriptor and leaves it empty.
  NativeFile view_mapping_;

  // The current view; dst_ is the next byte to write, synced_ the first
  // byte not yet flushed to the file.
  char* base_ = nullptr;
  char* limit_ = nullptr;
  char* dst_ = nullptr;
  char* synced_ = nullptr;

  size_t region_size_;
  uint64_t region_offset_;  // file offset of the current region
  size_t pending_;          // bytes of the region in use while unmapped
};

}  // namespace strata

#endif  // STRATA_ENV_MMAP_WRITER_H_
