#include "env/mmap_writer.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "env/io_util.h"

namespace strata {

namespace {
constexpr size_t kMaxRegion = 1024 * 1024;
}  // namespace

MmapWriter::MmapWriter(std::string fname, NativeFile file,
                       uint64_t initial_size)
    : filename_(std::move(fname)),
      file_(std::move(file)),
      region_size_(Granule()),
      // A reopened file continues in the granule holding its end.
      region_offset_(TruncateToAlignment(initial_size, region_size_)),
      pending_(static_cast<size_t>(initial_size - region_offset_)) {}

MmapWriter::~MmapWriter() {
  Status ignored = Close();
  (void)ignored;
}

Status MmapWriter::Truncate(uint64_t /*size*/) {
  return Status::NotSupported(filename_, "truncate of a memory-mapped file");
}

uint64_t MmapWriter::GetFileSize() {
  return region_offset_ + (base_ != nullptr ? dst_ - base_ : pending_);
}

Status MmapWriter::MapRegion() {
  char* view = nullptr;
  Status s = MapView(region_offset_, region_size_, &view);
  if (!s.ok()) return s;
  base_ = view;
  limit_ = base_ + region_size_;
  dst_ = base_ + pending_;
  synced_ = base_;
  pending_ = 0;
  return Status::OK();
}

Status MmapWriter::UnmapRegion() {
  if (base_ == nullptr) return Status::OK();
  Status s = UnmapView(base_, region_size_);
  const size_t used = static_cast<size_t>(dst_ - base_);
  base_ = limit_ = dst_ = synced_ = nullptr;
  if (used == region_size_) {
    region_offset_ += used;
    region_size_ = std::min(2 * region_size_, kMaxRegion);
  } else {
    pending_ = used;  // the region is mapped again by the next Append
  }
  return s;
}

Status MmapWriter::Sync() { return SyncFile(/*metadata=*/false); }

Status MmapWriter::Fsync() { return SyncFile(/*metadata=*/true); }

Status MmapWriter::SyncFile(bool metadata) {
  if (base_ != nullptr && dst_ > synced_) {
    Status s = FlushView(synced_, static_cast<size_t>(dst_ - synced_));
    if (!s.ok()) return s;
    synced_ = dst_;
  }
  return FlushFile(metadata);
}

Status MmapWriter::Close() {
  if (!file_.is_valid()) return Status::OK();
  const uint64_t size = GetFileSize();
  Status s = UnmapRegion();
  Status trimmed = SetEndOfFile(size);
  if (s.ok()) s = trimmed;
  Status closed = CloseFile();
  return s.ok() ? closed : s;
}

Status MmapWriter::Append(const Slice& data) {
  if (!file_.is_valid()) {
    return Status::IOError(filename_, "append after close");
  }
  const char* src = data.data();
  size_t left = data.size();
  while (left > 0) {
    if (base_ == nullptr) {
      Status s = MapRegion();
      if (!s.ok()) return s;
    }
    const size_t n = std::min(left, static_cast<size_t>(limit_ - dst_));
    std::memcpy(dst_, src, n);
    dst_ += n;
    src += n;
    left -= n;
    if (dst_ == limit_) {
      Status s = UnmapRegion();
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

}  // namespace strata
