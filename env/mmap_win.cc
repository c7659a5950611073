// The Windows members of the memory-mapped file classes (env/os_file.h,
// env/mmap_writer.h).

#include <utility>

#include "env/io_util.h"
#include "env/io_win.h"
#include "env/mmap_writer.h"
#include "env/os_file.h"
#include "port/port.h"
#include "port/win32.h"

namespace strata {

FileView::~FileView() {
  if (base != nullptr) UnmapViewOfFile(base);
}

// Views start at multiples of the allocation granularity (64 KiB).
size_t MmapWriter::Granule() {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwAllocationGranularity;
}

// Each view has a mapping of its own, as large as the view's end: a
// mapping larger than the file grows the file to its size.
Status MmapWriter::MapView(uint64_t offset, size_t size, char** view) {
  const uint64_t end = offset + size;
  ScopedHandle mapping(CreateFileMappingW(file_.get(), nullptr, PAGE_READWRITE,
                                          static_cast<DWORD>(end >> 32),
                                          static_cast<DWORD>(end), nullptr));
  if (!mapping.is_valid()) {
    return WinError(filename_, "CreateFileMapping", GetLastError());
  }
  void* p = MapViewOfFile(mapping.get(), FILE_MAP_WRITE,
                          static_cast<DWORD>(offset >> 32),
                          static_cast<DWORD>(offset), size);
  if (p == nullptr) return WinError(filename_, "MapViewOfFile", GetLastError());
  view_mapping_ = std::move(mapping);
  *view = static_cast<char*>(p);
  return Status::OK();
}

Status MmapWriter::UnmapView(char* view, size_t /*size*/) {
  Status s;
  if (!UnmapViewOfFile(view)) {
    s = WinError(filename_, "UnmapViewOfFile", GetLastError());
  }
  view_mapping_.Reset();
  return s;
}

Status MmapWriter::FlushView(char* start, size_t n) {
  if (!FlushViewOfFile(start, static_cast<SIZE_T>(n))) {
    return WinError(filename_, "FlushViewOfFile", GetLastError());
  }
  return Status::OK();
}

// The pages of regions already unmapped, and the file's metadata: Windows
// flushes both or neither.
Status MmapWriter::FlushFile(bool /*metadata*/) {
  return WinFlushFileBuffers(file_.get(), filename_);
}

Status MmapWriter::SetEndOfFile(uint64_t size) {
  return WinSetEndOfFile(file_.get(), filename_, size);
}

Status MmapWriter::CloseFile() { return WinCloseHandle(&file_, filename_); }

}  // namespace strata
