// The memory-mapped file classes of the Windows Env.

#include <algorithm>
#include <cstring>
#include <utility>

#include "env/io_util.h"
#include "env/io_win.h"
#include "port/port.h"
#include "port/win32.h"

namespace strata {

namespace {

// Views start at multiples of the allocation granularity (64 KiB); regions
// grow from one granule to kMaxRegion as the file grows.
size_t Granularity() {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwAllocationGranularity;
}

constexpr size_t kMaxRegion = 1024 * 1024;

}  // namespace

// ---- WinMmapReadableFile ---------------------------------------------------

WinMmapReadableFile::WinMmapReadableFile(std::string fname, void* file,
                                         void* mapping, const void* base,
                                         size_t length)
    : filename_(std::move(fname)),
      file_(file),
      mapping_(mapping),
      base_(base),
      length_(length) {}

WinMmapReadableFile::~WinMmapReadableFile() {
  if (base_ != nullptr) UnmapViewOfFile(base_);
  if (mapping_ != nullptr) CloseHandle(mapping_);
  CloseHandle(file_);
}

Status WinMmapReadableFile::Read(uint64_t offset, size_t n, Slice* result,
                                 char* /*scratch*/) const {
  if (offset >= length_) {
    *result = Slice();
    return Status::OK();
  }
  const size_t available = length_ - static_cast<size_t>(offset);
  *result =
      Slice(static_cast<const char*>(base_) + offset, std::min(n, available));
  return Status::OK();
}

// ---- WinMmapFile
// -------------------------------------------------------------

WinMmapFile::WinMmapFile(std::string fname, void* handle, uint64_t initial_size)
    : filename_(std::move(fname)),
      handle_(handle),
      region_size_(Granularity()),
      // A reopened file continues in the granule holding its end.
      region_offset_(TruncateToAlignment(initial_size, Granularity())),
      pending_(static_cast<size_t>(initial_size - region_offset_)) {}

WinMmapFile::~WinMmapFile() {
  if (handle_ != nullptr) {
    Status ignored = Close();
    (void)ignored;
  }
}

uint64_t WinMmapFile::GetFileSize() {
  return region_offset_ + (base_ != nullptr ? dst_ - base_ : pending_);
}

Status WinMmapFile::MapRegion() {
  const uint64_t end = region_offset_ + region_size_;
  // A mapping larger than the file grows the file to its size.
  HANDLE mapping = CreateFileMappingW(
      static_cast<HANDLE>(handle_), nullptr, PAGE_READWRITE,
      static_cast<DWORD>(end >> 32), static_cast<DWORD>(end), nullptr);
  if (mapping == nullptr) {
    return WinError(filename_, "CreateFileMapping", GetLastError());
  }
  void* view = MapViewOfFile(mapping, FILE_MAP_WRITE,
                             static_cast<DWORD>(region_offset_ >> 32),
                             static_cast<DWORD>(region_offset_), region_size_);
  if (view == nullptr) {
    const DWORD err = GetLastError();
    CloseHandle(mapping);
    return WinError(filename_, "MapViewOfFile", err);
  }
  mapping_ = mapping;
  base_ = static_cast<char*>(view);
  limit_ = base_ + region_size_;
  dst_ = base_ + pending_;
  synced_ = base_;
  pending_ = 0;
  return Status::OK();
}

Status WinMmapFile::UnmapRegion() {
  Status s;
  if (!UnmapViewOfFile(base_))
    s = WinError(filename_, "UnmapViewOfFile", GetLastError());
  CloseHandle(static_cast<HANDLE>(mapping_));
  const size_t used = static_cast<size_t>(dst_ - base_);
  mapping_ = nullptr;
  base_ = limit_ = dst_ = synced_ = nullptr;
  if (used == region_size_) {
    region_offset_ += used;
    region_size_ = std::min(2 * region_size_, kMaxRegion);
  } else {
    pending_ = used;  // closing mid-region
  }
  return s;
}

Status WinMmapFile::Append(const Slice& data) {
  if (handle_ == nullptr)
    return Status::IOError(filename_, "append after close");
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

Status WinMmapFile::Sync() {
  if (base_ != nullptr && dst_ > synced_) {
    if (!FlushViewOfFile(synced_, static_cast<SIZE_T>(dst_ - synced_))) {
      return WinError(filename_, "FlushViewOfFile", GetLastError());
    }
    synced_ = dst_;
  }
  // The pages of regions already unmapped, and the file's metadata.
  return WinFlushFileBuffers(handle_, filename_);
}

Status WinMmapFile::Close() {
  if (handle_ == nullptr) return Status::OK();
  const uint64_t size = GetFileSize();
  Status s;
  if (base_ != nullptr) s = UnmapRegion();
  // The last region was grown to its full size: trim to the data.
  FILE_END_OF_FILE_INFO info;
  info.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
  if (!SetFileInformationByHandle(static_cast<HANDLE>(handle_),
                                  FileEndOfFileInfo, &info, sizeof(info)) &&
      s.ok()) {
    s = WinError(filename_, "SetFileInformationByHandle(EndOfFile)",
                 GetLastError());
  }
  if (!CloseHandle(static_cast<HANDLE>(handle_)) && s.ok()) {
    s = WinError(filename_, "CloseHandle", GetLastError());
  }
  handle_ = nullptr;
  return s;
}

}  // namespace strata
