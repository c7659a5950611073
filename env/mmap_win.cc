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

// Views start at multiples of the allocation granularity (64 KiB).
size_t Granularity() {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwAllocationGranularity;
}

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
    : MmapWriter(std::move(fname), initial_size, Granularity()),
      handle_(handle) {}

WinMmapFile::~WinMmapFile() {
  if (handle_ != nullptr) {
    Status ignored = Close();
    (void)ignored;
  }
}

Status WinMmapFile::MapView(uint64_t offset, size_t size, char** view) {
  const uint64_t end = offset + size;
  // A mapping larger than the file grows the file to its size.
  HANDLE mapping = CreateFileMappingW(
      static_cast<HANDLE>(handle_), nullptr, PAGE_READWRITE,
      static_cast<DWORD>(end >> 32), static_cast<DWORD>(end), nullptr);
  if (mapping == nullptr) {
    return WinError(filename_, "CreateFileMapping", GetLastError());
  }
  void* p =
      MapViewOfFile(mapping, FILE_MAP_WRITE, static_cast<DWORD>(offset >> 32),
                    static_cast<DWORD>(offset), size);
  if (p == nullptr) {
    const DWORD err = GetLastError();
    CloseHandle(mapping);
    return WinError(filename_, "MapViewOfFile", err);
  }
  mapping_ = mapping;
  *view = static_cast<char*>(p);
  return Status::OK();
}

Status WinMmapFile::UnmapView(char* view, size_t /*size*/) {
  Status s;
  if (!UnmapViewOfFile(view)) {
    s = WinError(filename_, "UnmapViewOfFile", GetLastError());
  }
  CloseHandle(static_cast<HANDLE>(mapping_));
  mapping_ = nullptr;
  return s;
}

Status WinMmapFile::Sync() {
  if (mapped() && dst_ > synced_) {
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
  Status s = UnmapRegion();
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
