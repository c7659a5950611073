#include "env/io_win.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <utility>

#include "env/io_util.h"
#include "port/port.h"
#include "port/win32.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

// One ReadFile/WriteFile moves at most a DWORD's worth; stay well below.
constexpr size_t kMaxChunk = size_t{1} << 30;

// The system's text for err, in UTF-8, without the trailing ".\r\n".
std::string SystemMessage(DWORD err) {
  wchar_t* buffer = nullptr;
  const DWORD n = FormatMessageW(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
          FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, err, MAKELANGID(LANG_NEUTRAL, SUBLANG_DEFAULT),
      reinterpret_cast<LPWSTR>(&buffer), 0, nullptr);
  std::string text;
  if (n > 0 && buffer != nullptr) {
    text = port::WideToUtf8(std::wstring(buffer, n));
    LocalFree(buffer);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' ||
                             text.back() == '.' || text.back() == ' ')) {
      text.pop_back();
    }
  }
  if (text.empty()) text = "Windows error " + std::to_string(err);
  return text;
}

OVERLAPPED OverlappedAt(uint64_t offset) {
  OVERLAPPED ov;
  std::memset(&ov, 0, sizeof(ov));
  ov.Offset = static_cast<DWORD>(offset);
  ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
  return ov;
}

}  // namespace

Status WinError(const std::string& path, const char* op, unsigned long err) {
  switch (err) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_PATHNAME:
      return Status::PathNotFound(path, op);
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return Status::NoSpace(path, op);
    default:
      break;
  }
  const std::string detail = std::string(op) + ": " + SystemMessage(err);
  if (err == ERROR_INVALID_PARAMETER) {
    return Status::InvalidArgument(path, detail);
  }
  return Status::IOError(path, detail);
}

namespace {

// The sector size of the volume whose root is device ("C:\" or
// "\\?\Volume{...}\"), or 0 if the device will not say.
size_t QuerySectorSize(std::wstring device) {
  if (!device.empty() && device.back() == L'\\') device.pop_back();
  if (device.size() == 2 && device[1] == L':') device = L"\\\\.\\" + device;
  // No access rights are needed to ask about alignment.
  HANDLE h = CreateFileW(device.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE,
                         nullptr, OPEN_EXISTING, 0, nullptr);
  if (h == INVALID_HANDLE_VALUE) return 0;
  size_t sector = 0;
  DWORD bytes = 0;
  STORAGE_PROPERTY_QUERY query;
  std::memset(&query, 0, sizeof(query));
  query.PropertyId = StorageAccessAlignmentProperty;
  query.QueryType = PropertyStandardQuery;
  STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR alignment;
  std::memset(&alignment, 0, sizeof(alignment));
  if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof(query),
                      &alignment, sizeof(alignment), &bytes, nullptr) &&
      bytes >= offsetof(STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR,
                        BytesPerPhysicalSector) +
                   sizeof(DWORD)) {
    sector = std::max<size_t>(alignment.BytesPerPhysicalSector,
                              alignment.BytesPerLogicalSector);
  }
  if (sector == 0) {
    DISK_GEOMETRY geometry;
    if (DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY, nullptr, 0, &geometry,
                        sizeof(geometry), &bytes, nullptr)) {
      sector = geometry.BytesPerSector;
    }
  }
  CloseHandle(h);
  return sector;
}

// The volume holding path, named the same however path is spelled: its
// GUID path ("\\?\Volume{...}\") where the system has one, else its root
// ("C:\") without any "\\?\" prefix. Empty if unknown.
std::wstring VolumeOf(const std::string& path) {
  wchar_t root[MAX_PATH + 1];
  if (!GetVolumePathNameW(port::ToWinPath(path).c_str(), root, MAX_PATH + 1)) {
    return std::wstring();
  }
  std::wstring volume = root;
  if (volume.compare(0, 4, L"\\\\?\\") == 0 &&
      volume.compare(0, 10, L"\\\\?\\Volume") != 0) {
    volume = volume.substr(4);
  }
  wchar_t guid[64];
  if (GetVolumeNameForVolumeMountPointW(volume.c_str(), guid, 64)) {
    volume = guid;
  }
  return volume;
}

}  // namespace

size_t WinDirectIOAlignment(const std::string& path) {
  const std::wstring volume = VolumeOf(path);
  static port::Mutex mu;
  static NoDestructor<std::map<std::wstring, size_t>> cache;
  MutexLock l(&mu);
  auto it = cache->find(volume);
  if (it != cache->end()) return it->second;
  GetIOStats().alignment_queries.fetch_add(1, std::memory_order_relaxed);
  size_t sector = volume.empty() ? 0 : QuerySectorSize(volume);
  if (sector == 0 || (sector & (sector - 1)) != 0) sector = kDefaultPageSize;
  const size_t alignment = std::max(port::GetPageSize(), sector);
  cache->emplace(volume, alignment);
  return alignment;
}

Status WinPositionedRead(void* handle, const std::string& fname,
                         size_t direct_alignment, uint64_t offset, size_t n,
                         Slice* result, char* scratch) {
  *result = Slice(scratch, 0);
  if (direct_alignment != 0) {
    Status s = CheckDirectIOAlignment(fname, "read", offset, n, scratch,
                                      direct_alignment);
    if (!s.ok()) return s;
  }
  size_t done = 0;
  while (done < n) {
    const DWORD want = static_cast<DWORD>(std::min(n - done, kMaxChunk));
    OVERLAPPED ov = OverlappedAt(offset + done);
    DWORD got = 0;
    if (!ReadFile(static_cast<HANDLE>(handle), scratch + done, want, &got,
                  &ov)) {
      const DWORD err = GetLastError();
      if (err == ERROR_HANDLE_EOF) break;  // a short read, not an error
      *result = Slice(scratch, 0);
      return WinError(fname, "ReadFile", err);
    }
    if (got == 0) break;
    done += got;
    // A short unbuffered read is the end of the file; the remainder would
    // be misaligned and refused.
    if (direct_alignment != 0 && got < want) break;
  }
  *result = Slice(scratch, done);
  return Status::OK();
}

Status WinPositionedWrite(void* handle, const std::string& fname,
                          size_t direct_alignment, uint64_t offset,
                          const char* data, size_t n) {
  if (direct_alignment != 0) {
    Status s = CheckDirectIOAlignment(fname, "write", offset, n, data,
                                      direct_alignment);
    if (!s.ok()) return s;
  }
  while (n > 0) {
    const DWORD want = static_cast<DWORD>(std::min(n, kMaxChunk));
    OVERLAPPED ov = OverlappedAt(offset);
    DWORD wrote = 0;
    if (!WriteFile(static_cast<HANDLE>(handle), data, want, &wrote, &ov)) {
      return WinError(fname, "WriteFile", GetLastError());
    }
    data += wrote;
    n -= wrote;
    offset += wrote;
  }
  return Status::OK();
}

bool WinIsWriteThrough(void* handle) {
  // FileModeInformation (16) reports the handle's FILE_WRITE_THROUGH (0x2)
  // option; ntdll's entry point is looked up once.
  using QueryFn = LONG(NTAPI*)(HANDLE, void*, void*, ULONG, int);
  struct IoStatus {
    union {
      LONG status;
      void* pointer;
    };
    ULONG_PTR information;
  };
  static const QueryFn query = [] {
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    FARPROC proc = ntdll != nullptr
                       ? GetProcAddress(ntdll, "NtQueryInformationFile")
                       : nullptr;
    return reinterpret_cast<QueryFn>(reinterpret_cast<void*>(proc));
  }();
  if (query == nullptr) return false;
  IoStatus io;
  ULONG mode = 0;
  if (query(static_cast<HANDLE>(handle), &io, &mode, sizeof(mode), 16) != 0) {
    return false;
  }
  return (mode & 0x2) != 0;
}

Status WinFlushFileBuffers(void* handle, const std::string& fname) {
  GetIOStats().flushes.fetch_add(1, std::memory_order_relaxed);
  if (!FlushFileBuffers(static_cast<HANDLE>(handle))) {
    return WinError(fname, "FlushFileBuffers", GetLastError());
  }
  return Status::OK();
}

namespace {
// What GetRequiredBufferAlignment reports for a buffered file.
size_t BufferedAlignment() { return port::GetPageSize(); }
}  // namespace

// ---- WinSequentialFile -----------------------------------------------------

WinSequentialFile::WinSequentialFile(std::string fname, void* handle,
                                     size_t alignment)
    : filename_(std::move(fname)), handle_(handle), alignment_(alignment) {}

WinSequentialFile::~WinSequentialFile() { CloseHandle(handle_); }

size_t WinSequentialFile::GetRequiredBufferAlignment() const {
  return alignment_ != 0 ? alignment_ : BufferedAlignment();
}

Status WinSequentialFile::Read(size_t n, Slice* result, char* scratch) {
  Status s = PositionedRead(offset_, n, result, scratch);
  if (s.ok()) offset_ += result->size();
  return s;
}

Status WinSequentialFile::Skip(uint64_t n) {
  offset_ += n;
  return Status::OK();
}

Status WinSequentialFile::PositionedRead(uint64_t offset, size_t n,
                                         Slice* result, char* scratch) {
  return WinPositionedRead(handle_, filename_, alignment_, offset, n, result,
                           scratch);
}

// ---- WinRandomAccessFile ---------------------------------------------------

WinRandomAccessFile::WinRandomAccessFile(std::string fname, void* handle,
                                         size_t alignment)
    : filename_(std::move(fname)), handle_(handle), alignment_(alignment) {}

WinRandomAccessFile::~WinRandomAccessFile() { CloseHandle(handle_); }

size_t WinRandomAccessFile::GetRequiredBufferAlignment() const {
  return alignment_ != 0 ? alignment_ : BufferedAlignment();
}

Status WinRandomAccessFile::Read(uint64_t offset, size_t n, Slice* result,
                                 char* scratch) const {
  return WinPositionedRead(handle_, filename_, alignment_, offset, n, result,
                           scratch);
}

// ---- WinWritableFile -------------------------------------------------------

WinWritableFile::WinWritableFile(std::string fname, void* handle,
                                 uint64_t initial_size,
                                 const EnvOptions& options, size_t alignment)
    : filename_(std::move(fname)),
      handle_(handle),
      alignment_(alignment),
      // What the handle really is, not what was asked: a sync may skip the
      // flush only if every write went through.
      write_through_(options.use_write_through && WinIsWriteThrough(handle)),
      allow_fallocate_(options.allow_fallocate),
      filesize_(initial_size) {}

WinWritableFile::~WinWritableFile() {
  if (handle_ != nullptr) {
    Status ignored = Close();
    (void)ignored;
  }
}

size_t WinWritableFile::GetRequiredBufferAlignment() const {
  return alignment_ != 0 ? alignment_ : BufferedAlignment();
}

Status WinWritableFile::Append(const Slice& data) {
  return PositionedAppend(data, filesize_);
}

Status WinWritableFile::PositionedAppend(const Slice& data, uint64_t offset) {
  if (handle_ == nullptr)
    return Status::IOError(filename_, "write after close");
  Status s = WinPositionedWrite(handle_, filename_, alignment_, offset,
                                data.data(), data.size());
  if (s.ok()) filesize_ = offset + data.size();
  return s;
}

Status WinWritableFile::Truncate(uint64_t size) {
  FILE_END_OF_FILE_INFO info;
  info.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
  if (!SetFileInformationByHandle(static_cast<HANDLE>(handle_),
                                  FileEndOfFileInfo, &info, sizeof(info))) {
    return WinError(filename_, "SetFileInformationByHandle(EndOfFile)",
                    GetLastError());
  }
  filesize_ = size;
  return Status::OK();
}

Status WinWritableFile::Close() {
  if (handle_ == nullptr) return Status::OK();
  Status s;
  // Reserved space past the data is released by setting the end of file
  // to the logical size.
  if (reserved_end_ > 0) s = Truncate(filesize_);
  if (!CloseHandle(static_cast<HANDLE>(handle_)) && s.ok()) {
    s = WinError(filename_, "CloseHandle", GetLastError());
  }
  handle_ = nullptr;
  return s;
}

Status WinWritableFile::Sync() {
  if (write_through_) {
    // Every WriteFile went through to the device before it returned.
    GetIOStats().write_through_syncs.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  return WinFlushFileBuffers(handle_, filename_);
}

Status WinWritableFile::Allocate(uint64_t offset, uint64_t len) {
  if (!allow_fallocate_) return Status::OK();
  // An allocation size below the end of file would move the end of file
  // down to it: never ask for less than is written or already reserved.
  if (offset + len <= std::max(reserved_end_, filesize_)) return Status::OK();
  FILE_ALLOCATION_INFO info;
  info.AllocationSize.QuadPart = static_cast<LONGLONG>(offset + len);
  if (SetFileInformationByHandle(static_cast<HANDLE>(handle_),
                                 FileAllocationInfo, &info, sizeof(info))) {
    reserved_end_ = offset + len;
    GetIOStats().preallocations.fetch_add(1, std::memory_order_relaxed);
  } else {
    // A file system that refuses is not an error: writes allocate as they
    // go.
    GetIOStats().preallocation_refusals.fetch_add(1, std::memory_order_relaxed);
  }
  return Status::OK();
}

// ---- WinRandomRWFile -------------------------------------------------------

WinRandomRWFile::WinRandomRWFile(std::string fname, void* handle,
                                 size_t alignment)
    : filename_(std::move(fname)), handle_(handle), alignment_(alignment) {}

WinRandomRWFile::~WinRandomRWFile() {
  if (handle_ != nullptr) CloseHandle(static_cast<HANDLE>(handle_));
}

size_t WinRandomRWFile::GetRequiredBufferAlignment() const {
  return alignment_ != 0 ? alignment_ : BufferedAlignment();
}

Status WinRandomRWFile::Write(uint64_t offset, const Slice& data) {
  return WinPositionedWrite(handle_, filename_, alignment_, offset, data.data(),
                            data.size());
}

Status WinRandomRWFile::Read(uint64_t offset, size_t n, Slice* result,
                             char* scratch) const {
  return WinPositionedRead(handle_, filename_, alignment_, offset, n, result,
                           scratch);
}

Status WinRandomRWFile::Sync() {
  return WinFlushFileBuffers(handle_, filename_);
}

Status WinRandomRWFile::Close() {
  if (handle_ == nullptr) return Status::OK();
  const BOOL ok = CloseHandle(static_cast<HANDLE>(handle_));
  handle_ = nullptr;
  if (!ok) return WinError(filename_, "CloseHandle", GetLastError());
  return Status::OK();
}

}  // namespace strata
