#include "env/io_win.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "env/io_util.h"
#include "port/port.h"
#include "port/win32.h"

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

size_t WinDirectIOAlignment() {
  return std::max(port::GetPageSize(), kDefaultPageSize);
}

Status WinPositionedRead(void* handle, const std::string& fname, bool direct,
                         uint64_t offset, size_t n, Slice* result,
                         char* scratch) {
  *result = Slice(scratch, 0);
  if (direct) {
    Status s = CheckDirectIOAlignment(fname, "read", offset, n, scratch,
                                      WinDirectIOAlignment());
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
    if (direct && got < want) break;
  }
  *result = Slice(scratch, done);
  return Status::OK();
}

Status WinPositionedWrite(void* handle, const std::string& fname,
                          uint64_t offset, const char* data, size_t n) {
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

// ---- WinSequentialFile -----------------------------------------------------

WinSequentialFile::WinSequentialFile(std::string fname, void* handle,
                                     bool use_direct_io)
    : filename_(std::move(fname)),
      handle_(handle),
      use_direct_io_(use_direct_io) {}

WinSequentialFile::~WinSequentialFile() { CloseHandle(handle_); }

size_t WinSequentialFile::GetRequiredBufferAlignment() const {
  return WinDirectIOAlignment();
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
  return WinPositionedRead(handle_, filename_, use_direct_io_, offset, n,
                           result, scratch);
}

// ---- WinRandomAccessFile ---------------------------------------------------

WinRandomAccessFile::WinRandomAccessFile(std::string fname, void* handle,
                                         bool use_direct_io)
    : filename_(std::move(fname)),
      handle_(handle),
      use_direct_io_(use_direct_io) {}

WinRandomAccessFile::~WinRandomAccessFile() { CloseHandle(handle_); }

size_t WinRandomAccessFile::GetRequiredBufferAlignment() const {
  return WinDirectIOAlignment();
}

Status WinRandomAccessFile::Read(uint64_t offset, size_t n, Slice* result,
                                 char* scratch) const {
  return WinPositionedRead(handle_, filename_, use_direct_io_, offset, n,
                           result, scratch);
}

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

// ---- WinWritableFile -------------------------------------------------------

WinWritableFile::WinWritableFile(std::string fname, void* handle,
                                 uint64_t initial_size,
                                 const EnvOptions& options)
    : filename_(std::move(fname)),
      handle_(handle),
      use_direct_io_(options.use_direct_writes),
      allow_fallocate_(options.allow_fallocate),
      filesize_(initial_size) {}

WinWritableFile::~WinWritableFile() {
  if (handle_ != nullptr) {
    Status ignored = Close();
    (void)ignored;
  }
}

size_t WinWritableFile::GetRequiredBufferAlignment() const {
  return WinDirectIOAlignment();
}

Status WinWritableFile::WriteAt(const char* data, size_t n, uint64_t offset) {
  if (handle_ == nullptr)
    return Status::IOError(filename_, "write after close");
  if (use_direct_io_) {
    Status s = CheckDirectIOAlignment(filename_, "write", offset, n, data,
                                      WinDirectIOAlignment());
    if (!s.ok()) return s;
  }
  return WinPositionedWrite(handle_, filename_, offset, data, n);
}

Status WinWritableFile::Append(const Slice& data) {
  Status s = WriteAt(data.data(), data.size(), filesize_);
  if (s.ok()) filesize_ += data.size();
  return s;
}

Status WinWritableFile::PositionedAppend(const Slice& data, uint64_t offset) {
  Status s = WriteAt(data.data(), data.size(), offset);
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
  if (preallocated_) s = Truncate(filesize_);
  if (!CloseHandle(static_cast<HANDLE>(handle_)) && s.ok()) {
    s = WinError(filename_, "CloseHandle", GetLastError());
  }
  handle_ = nullptr;
  return s;
}

Status WinWritableFile::Sync() {
  if (!FlushFileBuffers(static_cast<HANDLE>(handle_))) {
    return WinError(filename_, "FlushFileBuffers", GetLastError());
  }
  return Status::OK();
}

Status WinWritableFile::Allocate(uint64_t offset, uint64_t len) {
  if (!allow_fallocate_) return Status::OK();
  FILE_ALLOCATION_INFO info;
  info.AllocationSize.QuadPart = static_cast<LONGLONG>(offset + len);
  if (SetFileInformationByHandle(static_cast<HANDLE>(handle_),
                                 FileAllocationInfo, &info, sizeof(info))) {
    preallocated_ = true;
  }
  // A file system that refuses is not an error: writes allocate as they go.
  return Status::OK();
}

// ---- WinRandomRWFile -------------------------------------------------------

WinRandomRWFile::WinRandomRWFile(std::string fname, void* handle,
                                 bool use_direct_io)
    : filename_(std::move(fname)),
      handle_(handle),
      use_direct_io_(use_direct_io) {}

WinRandomRWFile::~WinRandomRWFile() {
  if (handle_ != nullptr) CloseHandle(static_cast<HANDLE>(handle_));
}

size_t WinRandomRWFile::GetRequiredBufferAlignment() const {
  return WinDirectIOAlignment();
}

Status WinRandomRWFile::Write(uint64_t offset, const Slice& data) {
  if (use_direct_io_) {
    Status s = CheckDirectIOAlignment(filename_, "write", offset, data.size(),
                                      data.data(), WinDirectIOAlignment());
    if (!s.ok()) return s;
  }
  return WinPositionedWrite(handle_, filename_, offset, data.data(),
                            data.size());
}

Status WinRandomRWFile::Read(uint64_t offset, size_t n, Slice* result,
                             char* scratch) const {
  return WinPositionedRead(handle_, filename_, use_direct_io_, offset, n,
                           result, scratch);
}

Status WinRandomRWFile::Sync() {
  if (!FlushFileBuffers(static_cast<HANDLE>(handle_))) {
    return WinError(filename_, "FlushFileBuffers", GetLastError());
  }
  return Status::OK();
}

Status WinRandomRWFile::Close() {
  if (handle_ == nullptr) return Status::OK();
  const BOOL ok = CloseHandle(static_cast<HANDLE>(handle_));
  handle_ = nullptr;
  if (!ok) return WinError(filename_, "CloseHandle", GetLastError());
  return Status::OK();
}

}  // namespace strata
