#include "env/io_win.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <utility>

#include "env/io_util.h"
#include "env/os_file.h"
#include "env/os_writable_file.h"
#include "env/read_win.h"
#include "port/port.h"
#include "port/win32.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

// One WriteFile moves at most a DWORD's worth; stay well below.
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

// Writes go to synchronous handles only: WriteFile returns when done.
bool WriteAt(void* handle, uint64_t offset, const char* data, DWORD want,
             DWORD* wrote) {
  OVERLAPPED ov = WinOverlappedAt(offset, nullptr);
  return WriteFile(static_cast<HANDLE>(handle), data, want, wrote, &ov) !=
         FALSE;
}

}  // namespace

bool Win32HandleTraits::Close(void* h) {
  return CloseHandle(static_cast<HANDLE>(h)) != FALSE;
}

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
    case kWinErrorDiskQuotaExceeded:  // EDQUOT
      return Status::NoSpace(path, op);
    default:
      break;
  }
  const std::string detail = std::string(op) + ": " + SystemMessage(err);
  switch (err) {
    case ERROR_INVALID_PARAMETER:
    case ERROR_NO_UNICODE_TRANSLATION:  // a path that is not UTF-8
      return Status::InvalidArgument(path, detail);
    case ERROR_NOT_SUPPORTED:
    case ERROR_NOT_SAME_DEVICE:  // EXDEV: a link or move across volumes
      return Status::NotSupported(path, detail);
    case ERROR_SHARING_VIOLATION:
      // Another program (a backup, a virus scanner) opened the file without
      // sharing it; strata's own handles always share everything.
      return Status::Busy(path, detail);
    default:
      return Status::IOError(path, detail);
  }
}

Status WinPath(const std::string& path, std::wstring* wide) {
  if (!port::ToWinPath(path, wide)) {
    return Status::InvalidArgument(path, "path is not valid UTF-8");
  }
  return Status::OK();
}

namespace {

// The sector size of the volume whose root is device ("C:\" or
// "\\?\Volume{...}\"), or 0 if the device will not say.
size_t QuerySectorSize(std::wstring device) {
  if (!device.empty() && device.back() == L'\\') device.pop_back();
  if (device.size() == 2 && device[1] == L':') device = L"\\\\.\\" + device;
  // No access rights are needed to ask about alignment.
  ScopedHandle h(CreateFileW(device.c_str(), 0,
                             FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                             OPEN_EXISTING, 0, nullptr));
  if (!h.is_valid()) return 0;
  size_t sector = 0;
  DWORD bytes = 0;
  STORAGE_PROPERTY_QUERY query;
  std::memset(&query, 0, sizeof(query));
  query.PropertyId = StorageAccessAlignmentProperty;
  query.QueryType = PropertyStandardQuery;
  STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR alignment;
  std::memset(&alignment, 0, sizeof(alignment));
  if (DeviceIoControl(h.get(), IOCTL_STORAGE_QUERY_PROPERTY, &query,
                      sizeof(query), &alignment, sizeof(alignment), &bytes,
                      nullptr) &&
      bytes >= offsetof(STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR,
                        BytesPerPhysicalSector) +
                   sizeof(DWORD)) {
    sector = std::max<size_t>(alignment.BytesPerPhysicalSector,
                              alignment.BytesPerLogicalSector);
  }
  if (sector == 0) {
    DISK_GEOMETRY geometry;
    if (DeviceIoControl(h.get(), IOCTL_DISK_GET_DRIVE_GEOMETRY, nullptr, 0,
                        &geometry, sizeof(geometry), &bytes, nullptr)) {
      sector = geometry.BytesPerSector;
    }
  }
  return sector;
}

// The volume holding path, named the same however path is spelled: its
// GUID path ("\\?\Volume{...}\") where the system has one, else its root
// ("C:\") without any "\\?\" prefix. Empty if unknown.
std::wstring VolumeOf(const std::string& path) {
  std::wstring wide;
  wchar_t root[MAX_PATH + 1];
  if (!port::ToWinPath(path, &wide) ||
      !GetVolumePathNameW(wide.c_str(), root, MAX_PATH + 1)) {
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

Status WinPositionedWrite(void* handle, const std::string& fname,
                          size_t direct_alignment, uint64_t offset,
                          const char* data, size_t n) {
  if (direct_alignment != 0) {
    Status s = CheckDirectIOAlignment(fname, "write", offset, n, data,
                                      direct_alignment);
    if (!s.ok()) return s;
  }
  return WinWriteAll(WriteAt, handle, fname, offset, data, n);
}

Status WinWriteAll(WinWriteCall write, void* handle, const std::string& fname,
                   uint64_t offset, const char* data, size_t n) {
  while (n > 0) {
    const DWORD want = static_cast<DWORD>(std::min(n, kMaxChunk));
    DWORD wrote = 0;
    if (!write(handle, offset, data, want, &wrote)) {
      return WinError(fname, "WriteFile", GetLastError());
    }
    if (wrote == 0) {
      // Nothing written and no error: asking again would ask forever.
      return Status::IOError(
          fname, "WriteFile wrote 0 bytes of " + std::to_string(want));
    }
    data += wrote;
    n -= wrote;
    offset += wrote;
  }
  return Status::OK();
}

namespace {

// The handle's options as the OS reports them (NtQueryInformationFile,
// FileModeInformation); ntdll's entry point is looked up once.
bool QueryFileMode(void* handle, ULONG* mode) {
  using QueryFn = LONG(NTAPI*)(HANDLE, void*, void*, ULONG, int);
  struct IoStatus {
    union {
      LONG status;
      void* pointer;
    };
    ULONG_PTR information;
  };
  constexpr int kFileModeInformation = 16;
  static const QueryFn query = [] {
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    FARPROC proc = ntdll != nullptr
                       ? GetProcAddress(ntdll, "NtQueryInformationFile")
                       : nullptr;
    return reinterpret_cast<QueryFn>(reinterpret_cast<void*>(proc));
  }();
  if (query == nullptr) return false;
  IoStatus io;
  *mode = 0;
  return query(static_cast<HANDLE>(handle), &io, mode, sizeof(*mode),
               kFileModeInformation) == 0;
}

// FileModeInformation's flags.
constexpr ULONG kFileWriteThrough = 0x2;
constexpr ULONG kFileSynchronousIoAlert = 0x10;
constexpr ULONG kFileSynchronousIoNonalert = 0x20;

}  // namespace

bool WinIsWriteThrough(void* handle) {
  ULONG mode = 0;
  return QueryFileMode(handle, &mode) && (mode & kFileWriteThrough) != 0;
}

bool WinIsOverlapped(void* handle) {
  ULONG mode = 0;
  return QueryFileMode(handle, &mode) &&
         (mode & (kFileSynchronousIoAlert | kFileSynchronousIoNonalert)) == 0;
}

Status WinFlushFileBuffers(void* handle, const std::string& fname) {
  GetIOStats().flushes.fetch_add(1, std::memory_order_relaxed);
  if (!FlushFileBuffers(static_cast<HANDLE>(handle))) {
    return WinError(fname, "FlushFileBuffers", GetLastError());
  }
  return Status::OK();
}

Status WinSetEndOfFile(void* handle, const std::string& fname, uint64_t size) {
  FILE_END_OF_FILE_INFO info;
  info.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
  if (!SetFileInformationByHandle(static_cast<HANDLE>(handle),
                                  FileEndOfFileInfo, &info, sizeof(info))) {
    return WinError(fname, "SetFileInformationByHandle(EndOfFile)",
                    GetLastError());
  }
  return Status::OK();
}

std::string WinFileIdFromIdInfo(void* handle) {
  FILE_ID_INFO info;
  if (!GetFileInformationByHandleEx(static_cast<HANDLE>(handle), FileIdInfo,
                                    &info, sizeof(info))) {
    return std::string();
  }
  // "id:" keeps the two forms of identity apart.
  std::string key = "id:" + std::to_string(info.VolumeSerialNumber) + ":";
  static const char kHex[] = "0123456789abcdef";
  for (unsigned char byte : info.FileId.Identifier) {
    key.push_back(kHex[byte >> 4]);
    key.push_back(kHex[byte & 0xf]);
  }
  return key;
}

std::string WinFileIdFromIndex(void* handle) {
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(static_cast<HANDLE>(handle), &info)) {
    return std::string();
  }
  return "index:" + std::to_string(info.dwVolumeSerialNumber) + ":" +
         std::to_string((static_cast<uint64_t>(info.nFileIndexHigh) << 32) |
                        info.nFileIndexLow);
}

std::string WinFileIdentity(void* handle) {
  std::string key = WinFileIdFromIdInfo(handle);
  if (key.empty()) key = WinFileIdFromIndex(handle);
  return key;
}

Status WinCloseHandle(ScopedHandle* handle, const std::string& fname) {
  if (!handle->Close()) return WinError(fname, "CloseHandle", GetLastError());
  return Status::OK();
}

// ---- OsSequentialFile -------------------------------------------------------

Status OsSequentialFile::Read(size_t n, Slice* result, char* scratch) {
  Status s = PositionedRead(offset_, n, result, scratch);
  if (s.ok()) offset_ += result->size();
  return s;
}

Status OsSequentialFile::Skip(uint64_t n) {
  offset_ += n;
  return Status::OK();
}

Status OsSequentialFile::PositionedRead(uint64_t offset, size_t n,
                                        Slice* result, char* scratch) {
  return WinPositionedRead(file_.get(), filename_,
                           use_direct_io_ ? alignment_ : 0, offset, n, result,
                           scratch);
}

Status OsSequentialFile::InvalidateCache(size_t offset, size_t length) {
  return SequentialFile::InvalidateCache(offset, length);
}

// ---- OsRandomAccessFile -----------------------------------------------------

Status OsRandomAccessFile::Read(uint64_t offset, size_t n, Slice* result,
                                char* scratch) const {
  return WinPositionedRead(file_.get(), filename_,
                           use_direct_io_ ? alignment_ : 0, offset, n, result,
                           scratch);
}

Status OsRandomAccessFile::Prefetch(uint64_t offset, size_t n) {
  return RandomAccessFile::Prefetch(offset, n);
}

Status OsRandomAccessFile::InvalidateCache(size_t offset, size_t length) {
  return RandomAccessFile::InvalidateCache(offset, length);
}

// ---- OsWritableFile: the Windows system calls -------------------------------

Status OsWritableFile::WriteAt(const NativeFile& file, const char* data,
                               size_t n, uint64_t offset) {
  return WinPositionedWrite(file.get(), filename_, 0, offset, data, n);
}

Status OsWritableFile::SetEndOfFile(uint64_t size) {
  return WinSetEndOfFile(file_.get(), filename_, size);
}

Status OsWritableFile::Reserve(uint64_t offset, uint64_t len, bool* granted) {
  // The allocation size counts from the start of the file; one below the
  // end of file would move the end of file down to it. A file system that
  // refuses is not an error: writes allocate as they go.
  FILE_ALLOCATION_INFO info;
  info.AllocationSize.QuadPart = static_cast<LONGLONG>(offset + len);
  *granted = SetFileInformationByHandle(file_.get(), FileAllocationInfo, &info,
                                        sizeof(info)) != FALSE;
  return Status::OK();
}

Status OsWritableFile::FlushData() {
  return WinFlushFileBuffers(file_.get(), filename_);
}

Status OsWritableFile::CloseFile(NativeFile* file) {
  return WinCloseHandle(file, filename_);
}

Status OsWritableFile::Fsync() { return Sync(); }

// Win32 has no call that starts write-back of a range without waiting;
// FlushFileBuffers flushes the whole file and the device cache and waits,
// the stall bytes_per_sync exists to avoid. The lazy writer writes dirty
// pages back by itself, so this is a no-op (docs/windows.md, "Range sync").
Status OsWritableFile::RangeSync(uint64_t offset, uint64_t nbytes) {
  return WritableFile::RangeSync(offset, nbytes);
}

Status OsWritableFile::InvalidateCache(size_t offset, size_t length) {
  return WritableFile::InvalidateCache(offset, length);
}

// ---- OsRandomRWFile ---------------------------------------------------------

Status OsRandomRWFile::Write(uint64_t offset, const Slice& data) {
  return WinPositionedWrite(file_.get(), filename_,
                            use_direct_io_ ? alignment_ : 0, offset,
                            data.data(), data.size());
}

Status OsRandomRWFile::Read(uint64_t offset, size_t n, Slice* result,
                            char* scratch) const {
  return WinPositionedRead(file_.get(), filename_,
                           use_direct_io_ ? alignment_ : 0, offset, n, result,
                           scratch);
}

Status OsRandomRWFile::Sync() {
  return WinFlushFileBuffers(file_.get(), filename_);
}

Status OsRandomRWFile::Fsync() { return Sync(); }

Status OsRandomRWFile::Close() { return WinCloseHandle(&file_, filename_); }

}  // namespace strata
