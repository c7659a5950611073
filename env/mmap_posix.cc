// The memory-mapped file classes of the POSIX Env.

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "env/io_posix.h"
#include "env/io_util.h"
#include "port/port.h"

namespace strata {

namespace {
constexpr size_t kMaxRegion = 1024 * 1024;
}  // namespace

// ---- PosixMmapReadableFile -------------------------------------------------

PosixMmapReadableFile::PosixMmapReadableFile(std::string fname, void* base,
                                             size_t length)
    : filename_(std::move(fname)), base_(base), length_(length) {}

PosixMmapReadableFile::~PosixMmapReadableFile() {
  if (base_ != nullptr) ::munmap(base_, length_);
}

Status PosixMmapReadableFile::Read(uint64_t offset, size_t n, Slice* result,
                                   char* /*scratch*/) const {
  if (offset >= length_) {
    *result = Slice();
    return Status::OK();  // at or past the end: a short (empty) read
  }
  const size_t available = length_ - static_cast<size_t>(offset);
  *result =
      Slice(static_cast<const char*>(base_) + offset, std::min(n, available));
  return Status::OK();
}

// ---- PosixMmapFile
// -----------------------------------------------------------

PosixMmapFile::PosixMmapFile(std::string fname, int fd, uint64_t initial_size)
    : filename_(std::move(fname)),
      fd_(fd),
      region_size_(port::GetPageSize() * 16),
      // A reopened file continues in the page holding its end.
      region_offset_(TruncateToAlignment(initial_size, port::GetPageSize())),
      pending_(static_cast<size_t>(initial_size - region_offset_)) {}

PosixMmapFile::~PosixMmapFile() {
  if (fd_ >= 0) {
    Status ignored = Close();
    (void)ignored;
  }
}

uint64_t PosixMmapFile::GetFileSize() {
  return region_offset_ + (base_ != nullptr ? dst_ - base_ : pending_);
}

Status PosixMmapFile::MapRegion() {
  const uint64_t end = region_offset_ + region_size_;
  if (::ftruncate(fd_, static_cast<off_t>(end)) != 0) {
    return PosixError(filename_, "ftruncate", errno);
  }
  void* view = ::mmap(nullptr, region_size_, PROT_READ | PROT_WRITE, MAP_SHARED,
                      fd_, static_cast<off_t>(region_offset_));
  if (view == MAP_FAILED) return PosixError(filename_, "mmap", errno);
  base_ = static_cast<char*>(view);
  limit_ = base_ + region_size_;
  dst_ = base_ + pending_;
  synced_ = base_;
  pending_ = 0;
  return Status::OK();
}

Status PosixMmapFile::UnmapRegion() {
  Status s;
  if (::munmap(base_, region_size_) != 0) {
    s = PosixError(filename_, "munmap", errno);
  }
  const size_t used = static_cast<size_t>(dst_ - base_);
  base_ = limit_ = dst_ = synced_ = nullptr;
  if (used == region_size_) {
    region_offset_ += used;
    region_size_ = std::min(2 * region_size_, kMaxRegion);
  } else {
    pending_ = used;  // closing mid-region
  }
  return s;
}

Status PosixMmapFile::Append(const Slice& data) {
  if (fd_ < 0) return Status::IOError(filename_, "append after close");
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

Status PosixMmapFile::SyncMapped() {
  if (base_ == nullptr || dst_ == synced_) return Status::OK();
  // msync wants a page-aligned start.
  char* start =
      base_ + TruncateToAlignment(static_cast<uint64_t>(synced_ - base_),
                                  port::GetPageSize());
  if (::msync(start, static_cast<size_t>(dst_ - start), MS_SYNC) != 0) {
    return PosixError(filename_, "msync", errno);
  }
  synced_ = dst_;
  return Status::OK();
}

Status PosixMmapFile::Sync() {
  Status s = SyncMapped();
  if (!s.ok()) return s;
  // Regions already unmapped are in the page cache: fdatasync writes them.
  GetIOStats().flushes.fetch_add(1, std::memory_order_relaxed);
  if (::fdatasync(fd_) != 0) return PosixError(filename_, "fdatasync", errno);
  return Status::OK();
}

Status PosixMmapFile::Fsync() {
  Status s = SyncMapped();
  if (!s.ok()) return s;
  GetIOStats().flushes.fetch_add(1, std::memory_order_relaxed);
  if (::fsync(fd_) != 0) return PosixError(filename_, "fsync", errno);
  return Status::OK();
}

Status PosixMmapFile::Close() {
  if (fd_ < 0) return Status::OK();
  const uint64_t size = GetFileSize();
  Status s;
  if (base_ != nullptr) s = UnmapRegion();
  // The last region was grown to its full size: trim to the data.
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0 && s.ok()) {
    s = PosixError(filename_, "ftruncate", errno);
  }
  if (::close(fd_) != 0 && s.ok()) s = PosixError(filename_, "close", errno);
  fd_ = -1;
  return s;
}

}  // namespace strata
