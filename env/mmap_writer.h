// MmapWriter: the platform-free half of a writable file written through a
// memory map. It appends into a view of the current region, asks the
// platform for the next region when the view is full, and keeps the
// logical size; regions start at one granule (page or allocation
// granularity) and double up to 1 MiB. PosixMmapFile and WinMmapFile supply
// mapping, syncing and closing.
//
// Thread safety: an instance is used by one thread at a time.

#ifndef STRATA_ENV_MMAP_WRITER_H_
#define STRATA_ENV_MMAP_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "strata/env.h"

namespace strata {

class MmapWriter : public WritableFile {
 public:
  Status Append(const Slice& data) override;
  Status Flush() override { return Status::OK(); }
  // Not offered: the engine truncates only direct-I/O files.
  Status Truncate(uint64_t size) override;
  // Bytes appended (including those there when the file was reopened).
  uint64_t GetFileSize() override;

 protected:
  // granule: the alignment of a region's file offset.
  MmapWriter(std::string fname, uint64_t initial_size, size_t granule);

  // Maps [offset, offset + size) writable, growing the file to cover it.
  virtual Status MapView(uint64_t offset, size_t size, char** view) = 0;
  virtual Status UnmapView(char* view, size_t size) = 0;
  // Whether Append may still be called (false once closed).
  virtual bool IsOpen() const = 0;

  // Unmaps the current region if one is mapped (for Close and Sync).
  Status UnmapRegion();
  bool mapped() const { return base_ != nullptr; }

  const std::string filename_;
  // The current view; dst_ is the next byte to write, synced_ the first
  // byte not yet flushed to the file.
  char* base_ = nullptr;
  char* limit_ = nullptr;
  char* dst_ = nullptr;
  char* synced_ = nullptr;

 private:
  Status MapRegion();

  size_t region_size_;
  uint64_t region_offset_;  // file offset of the current region
  size_t pending_;          // bytes of the region in use while unmapped
};

}  // namespace strata

#endif  // STRATA_ENV_MMAP_WRITER_H_
