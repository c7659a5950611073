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
    : MmapWriter(std::move(fname), initial_size, port::GetPageSize()),
      fd_(fd) {}

PosixMmapFile::~PosixMmapFile() {
  if (fd_ >= 0) {
    Status ignored = Close();
    (void)ignored;
  }
}

Status PosixMmapFile::MapView(uint64_t offset, size_t size, char** view) {
  if (::ftruncate(fd_, static_cast<off_t>(offset + size)) != 0) {
    return PosixError(filename_, "ftruncate", errno);
  }
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                   static_cast<off_t>(offset));
  if (p == MAP_FAILED) return PosixError(filename_, "mmap", errno);
  *view = static_cast<char*>(p);
  return Status::OK();
}

Status PosixMmapFile::UnmapView(char* view, size_t size) {
  if (::munmap(view, size) != 0) return PosixError(filename_, "munmap", errno);
  return Status::OK();
}

Status PosixMmapFile::SyncMapped() {
  if (!mapped() || dst_ == synced_) return Status::OK();
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

// Regions already unmapped are in the page cache: the fdatasync (or fsync)
// after the msync writes them.
Status PosixMmapFile::Sync() {
  Status s = SyncMapped();
  return s.ok() ? SyncFd(fd_, filename_, false) : s;
}

Status PosixMmapFile::Fsync() {
  Status s = SyncMapped();
  return s.ok() ? SyncFd(fd_, filename_, true) : s;
}

Status PosixMmapFile::Close() {
  if (fd_ < 0) return Status::OK();
  const uint64_t size = GetFileSize();
  Status s = UnmapRegion();
  // The last region was grown to its full size: trim to the data.
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0 && s.ok()) {
    s = PosixError(filename_, "ftruncate", errno);
  }
  if (::close(fd_) != 0 && s.ok()) s = PosixError(filename_, "close", errno);
  fd_ = -1;
  return s;
}

}  // namespace strata
