// WinEnv: Env::Default() on Windows. Paths are UTF-8 and go to the W APIs;
// '/' and '\' are both accepted.

#include <atomic>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "env/env_logger.h"
#include "env/io_util.h"
#include "env/io_win.h"
#include "env/lock_table.h"
#include "env/thread_pool_env.h"
#include "port/port.h"
#include "port/port_dirent.h"
#include "port/win32.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

// 100-ns intervals between 1601-01-01 (FILETIME) and 1970-01-01.
constexpr uint64_t kEpochOffset100ns = 116444736000000000ull;

uint64_t FileTimeTo100ns(const FILETIME& ft) {
  return (static_cast<uint64_t>(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
}

constexpr DWORD kShareAll =
    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

HANDLE Open(const std::string& fname, DWORD access, DWORD disposition,
            DWORD flags) {
  return CreateFileW(port::ToWinPath(fname).c_str(), access, kShareAll, nullptr,
                     disposition, flags, nullptr);
}

DWORD DataFlags(bool direct) {
  return FILE_ATTRIBUTE_NORMAL | (direct ? FILE_FLAG_NO_BUFFERING : 0);
}

// The direct-I/O alignment of an open file, or 0 for a buffered one.
size_t AlignmentFor(const std::string& fname, bool direct) {
  return direct ? WinDirectIOAlignment(fname) : 0;
}

// Windows 10 (1607/1709) can rename and delete with POSIX semantics: the
// name goes away, or is replaced, at once even while other handles are
// open. The classes and flags, by their documented values (older headers
// hide them):
constexpr FILE_INFO_BY_HANDLE_CLASS kFileDispositionInfoEx =
    static_cast<FILE_INFO_BY_HANDLE_CLASS>(21);
constexpr FILE_INFO_BY_HANDLE_CLASS kFileRenameInfoEx =
    static_cast<FILE_INFO_BY_HANDLE_CLASS>(22);
constexpr DWORD kDispositionDelete = 0x1;
constexpr DWORD kDispositionPosix = 0x2;
constexpr DWORD kRenameReplace = 0x1;
constexpr DWORD kRenamePosix = 0x2;

// Names given to files that were deleted while open, on systems without
// POSIX deletes; GetChildren does not list them, and they vanish when the
// last handle closes.
constexpr char kTrashPrefix[] = ".strata-trash-";

// Deletes with POSIX semantics. False (with the error set) where the system
// does not offer them.
// Opened without FILE_FLAG_BACKUP_SEMANTICS, so a directory cannot be
// removed this way (RemoveFile of a directory fails, as unlink does).
bool PosixDelete(const std::wstring& path) {
  HANDLE h = CreateFileW(path.c_str(), DELETE, kShareAll, nullptr,
                         OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) return false;
  DWORD flags = kDispositionDelete | kDispositionPosix;
  const BOOL ok = SetFileInformationByHandle(h, kFileDispositionInfoEx, &flags,
                                             sizeof(flags));
  const DWORD err = ok ? ERROR_SUCCESS : GetLastError();
  CloseHandle(h);
  SetLastError(err);
  return ok != FALSE;
}

// Renames with POSIX semantics, replacing target even if it is open.
bool PosixRename(const std::wstring& src, const std::wstring& target) {
  HANDLE h = CreateFileW(src.c_str(), DELETE, kShareAll, nullptr, OPEN_EXISTING,
                         FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return false;
  // FILE_RENAME_INFO with its Windows 10 Flags word in place of the
  // ReplaceIfExists byte (same offset), followed by the new name.
  const size_t name_bytes = target.size() * sizeof(wchar_t);
  std::vector<char> buf(offsetof(FILE_RENAME_INFO, FileName) + name_bytes +
                        sizeof(wchar_t));
  FILE_RENAME_INFO* info = reinterpret_cast<FILE_RENAME_INFO*>(buf.data());
  const DWORD flags = kRenameReplace | kRenamePosix;
  std::memcpy(info, &flags, sizeof(flags));
  info->RootDirectory = nullptr;
  info->FileNameLength = static_cast<DWORD>(name_bytes);
  std::memcpy(info->FileName, target.c_str(), name_bytes + sizeof(wchar_t));
  const BOOL ok = SetFileInformationByHandle(h, kFileRenameInfoEx, info,
                                             static_cast<DWORD>(buf.size()));
  const DWORD err = ok ? ERROR_SUCCESS : GetLastError();
  CloseHandle(h);
  SetLastError(err);
  return ok != FALSE;
}

bool IsTrash(const char* name) {
  return std::strncmp(name, kTrashPrefix, sizeof(kTrashPrefix) - 1) == 0;
}

class WinFileLock : public FileLock {
 public:
  WinFileLock(HANDLE handle, std::string name, std::string key)
      : handle_(handle), name_(std::move(name)), key_(std::move(key)) {}
  HANDLE handle() const { return handle_; }
  const std::string& name() const { return name_; }
  const std::string& key() const { return key_; }

 private:
  const HANDLE handle_;
  const std::string name_;
  const std::string key_;
};

// The file's identity (volume serial number and file index), the same for
// every path that names it. Empty if the system cannot say.
std::string FileKey(HANDLE h) {
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(h, &info)) return std::string();
  return std::to_string(info.dwVolumeSerialNumber) + ":" +
         std::to_string((static_cast<uint64_t>(info.nFileIndexHigh) << 32) |
                        info.nFileIndexLow);
}

class WinEnv : public ThreadPoolEnv {
 public:
  WinEnv() {
    LARGE_INTEGER freq;
    QueryPerformanceFrequency(&freq);
    perf_frequency_ = static_cast<uint64_t>(freq.QuadPart);
  }

  Status NewSequentialFile(const std::string& fname,
                           std::unique_ptr<SequentialFile>* result,
                           const EnvOptions& options) override {
    result->reset();
    const bool direct = options.use_direct_reads;
    HANDLE h = Open(fname, GENERIC_READ, OPEN_EXISTING,
                    DataFlags(direct) | FILE_FLAG_SEQUENTIAL_SCAN);
    if (h == INVALID_HANDLE_VALUE) {
      return WinError(fname, "open for reading", GetLastError());
    }
    result->reset(new WinSequentialFile(fname, h, AlignmentFor(fname, direct)));
    return Status::OK();
  }

  Status NewRandomAccessFile(const std::string& fname,
                             std::unique_ptr<RandomAccessFile>* result,
                             const EnvOptions& options) override {
    result->reset();
    const bool direct = options.use_direct_reads;
    HANDLE h = Open(fname, GENERIC_READ, OPEN_EXISTING,
                    DataFlags(direct) | FILE_FLAG_RANDOM_ACCESS);
    if (h == INVALID_HANDLE_VALUE) {
      return WinError(fname, "open for reading", GetLastError());
    }
    if (options.use_mmap_reads && !direct) return MapFile(fname, h, result);
    result->reset(
        new WinRandomAccessFile(fname, h, AlignmentFor(fname, direct)));
    return Status::OK();
  }

  Status NewWritableFile(const std::string& fname,
                         std::unique_ptr<WritableFile>* result,
                         const EnvOptions& options) override {
    return OpenWritable(fname, CREATE_ALWAYS, result, options);
  }

  Status ReopenWritableFile(const std::string& fname,
                            std::unique_ptr<WritableFile>* result,
                            const EnvOptions& options) override {
    return OpenWritable(fname, OPEN_ALWAYS, result, options);
  }

  Status NewRandomRWFile(const std::string& fname,
                         std::unique_ptr<RandomRWFile>* result,
                         const EnvOptions& options) override {
    result->reset();
    const bool direct = options.use_direct_reads || options.use_direct_writes;
    HANDLE h = Open(fname, GENERIC_READ | GENERIC_WRITE, OPEN_ALWAYS,
                    DataFlags(direct));
    if (h == INVALID_HANDLE_VALUE) {
      return WinError(fname, "open for read/write", GetLastError());
    }
    result->reset(new WinRandomRWFile(fname, h, AlignmentFor(fname, direct)));
    return Status::OK();
  }

  Status NewDirectory(const std::string& name,
                      std::unique_ptr<Directory>* result) override {
    result->reset();
    bool is_dir = false;
    Status s = IsDirectory(name, &is_dir);
    if (!s.ok()) return s;
    if (!is_dir)
      return Status::IOError(name, "open directory: not a directory");
    result->reset(new WinDirectory);
    return Status::OK();
  }

  Status NewLogger(const std::string& fname,
                   std::shared_ptr<Logger>* result) override {
    return NewEnvLogger(this, fname, result);
  }

  Status FileExists(const std::string& fname) override {
    if (GetFileAttributesW(port::ToWinPath(fname).c_str()) !=
        INVALID_FILE_ATTRIBUTES) {
      return Status::OK();
    }
    const DWORD err = GetLastError();
    if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND) {
      return Status::NotFound(fname);
    }
    return WinError(fname, "GetFileAttributes", err);
  }

  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* result) override {
    result->clear();
    port::DIR* d = port::opendir(dir.c_str());
    if (d == nullptr) return WinError(dir, "opendir", GetLastError());
    while (port::dirent* entry = port::readdir(d)) {
      if (std::strcmp(entry->d_name, ".") == 0 ||
          std::strcmp(entry->d_name, "..") == 0 || IsTrash(entry->d_name)) {
        continue;
      }
      result->emplace_back(entry->d_name);
    }
    port::closedir(d);
    return Status::OK();
  }

  // As on POSIX, the name is gone when RemoveFile returns, even if the file
  // is still open; the data lives until the last handle closes.
  Status RemoveFile(const std::string& fname) override {
    const std::wstring path = port::ToWinPath(fname);
    if (PosixDelete(path)) return Status::OK();
    DWORD err = GetLastError();
    if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND ||
        err == ERROR_ACCESS_DENIED) {
      return WinError(fname, "DeleteFile", err);
    }
    // No POSIX deletes here: a plain delete of an open file would leave its
    // name behind until the file is closed. Move it aside under a trash
    // name first, then delete that.
    const std::wstring trash = TrashName(path);
    if (MoveFileExW(path.c_str(), trash.c_str(), 0)) {
      if (DeleteFileW(trash.c_str())) return Status::OK();
      err = GetLastError();
      return WinError(fname, "DeleteFile (moved aside)", err);
    }
    if (!DeleteFileW(path.c_str())) {
      return WinError(fname, "DeleteFile", GetLastError());
    }
    return Status::OK();
  }

  Status CreateDir(const std::string& name) override {
    if (!CreateDirectoryW(port::ToWinPath(name).c_str(), nullptr)) {
      return WinError(name, "CreateDirectory", GetLastError());
    }
    return Status::OK();
  }

  Status CreateDirIfMissing(const std::string& name) override {
    if (CreateDirectoryW(port::ToWinPath(name).c_str(), nullptr))
      return Status::OK();
    const DWORD err = GetLastError();
    if (err != ERROR_ALREADY_EXISTS) {
      return WinError(name, "CreateDirectory", err);
    }
    bool is_dir = false;
    Status s = IsDirectory(name, &is_dir);
    if (s.ok() && !is_dir) {
      return Status::IOError(name, "exists but is not a directory");
    }
    return s;
  }

  Status RemoveDir(const std::string& name) override {
    if (!RemoveDirectoryW(port::ToWinPath(name).c_str())) {
      return WinError(name, "RemoveDirectory", GetLastError());
    }
    return Status::OK();
  }

  Status GetFileSize(const std::string& fname, uint64_t* size) override {
    WIN32_FILE_ATTRIBUTE_DATA attrs;
    *size = 0;
    Status s = Attributes(fname, &attrs);
    if (s.ok()) {
      *size = (static_cast<uint64_t>(attrs.nFileSizeHigh) << 32) |
              attrs.nFileSizeLow;
    }
    return s;
  }

  Status GetFileModificationTime(const std::string& fname,
                                 uint64_t* file_mtime) override {
    WIN32_FILE_ATTRIBUTE_DATA attrs;
    Status s = Attributes(fname, &attrs);
    if (s.ok()) {
      *file_mtime =
          (FileTimeTo100ns(attrs.ftLastWriteTime) - kEpochOffset100ns) /
          10000000;
    }
    return s;
  }

  // Atomically replaces target. With POSIX renames (Windows 10) even an
  // open target is replaced; elsewhere an open target refuses.
  Status RenameFile(const std::string& src,
                    const std::string& target) override {
    const std::wstring from = port::ToWinPath(src);
    const std::wstring to = port::ToWinPath(target);
    if (PosixRename(from, to)) return Status::OK();
    if (!MoveFileExW(from.c_str(), to.c_str(), MOVEFILE_REPLACE_EXISTING)) {
      return WinError(src, ("rename to " + target).c_str(), GetLastError());
    }
    return Status::OK();
  }

  Status LinkFile(const std::string& src, const std::string& target) override {
    if (!CreateHardLinkW(port::ToWinPath(target).c_str(),
                         port::ToWinPath(src).c_str(), nullptr)) {
      return WinError(src, ("link to " + target).c_str(), GetLastError());
    }
    return Status::OK();
  }

  Status GetFreeDiskSpace(const std::string& path,
                          uint64_t* diskfree) override {
    ULARGE_INTEGER available;
    if (!GetDiskFreeSpaceExW(port::ToWinPath(path).c_str(), &available, nullptr,
                             nullptr)) {
      return WinError(path, "GetDiskFreeSpaceEx", GetLastError());
    }
    *diskfree = available.QuadPart;
    return Status::OK();
  }

  Status IsDirectory(const std::string& path, bool* is_dir) override {
    const DWORD attrs = GetFileAttributesW(port::ToWinPath(path).c_str());
    if (attrs == INVALID_FILE_ATTRIBUTES) {
      return WinError(path, "GetFileAttributes", GetLastError());
    }
    *is_dir = (attrs & FILE_ATTRIBUTE_DIRECTORY) != 0;
    return Status::OK();
  }

  Status GetAbsolutePath(const std::string& db_path,
                         std::string* output_path) override {
    const std::wstring in = port::ToWinPath(db_path);
    const DWORD n = GetFullPathNameW(in.c_str(), 0, nullptr, nullptr);
    if (n == 0) return WinError(db_path, "GetFullPathName", GetLastError());
    std::wstring out(n, L'\0');
    const DWORD written = GetFullPathNameW(in.c_str(), n, &out[0], nullptr);
    if (written == 0 || written >= n) {
      return WinError(db_path, "GetFullPathName", GetLastError());
    }
    out.resize(written);
    *output_path = port::WideToUtf8(out);
    return Status::OK();
  }

  Status LockFile(const std::string& fname, FileLock** lock) override {
    *lock = nullptr;
    HANDLE h = CreateFileW(
        port::ToWinPath(fname).c_str(), GENERIC_READ | GENERIC_WRITE,
        FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
        OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
      return WinError(fname, "open lock file", GetLastError());
    }
    std::string key = FileKey(h);
    if (key.empty()) key = fname;
    if (!Locks()->Insert(key, GetCurrentProcessId())) {
      CloseHandle(h);
      return Status::LockHeld(fname, "lock held by this process");
    }
    OVERLAPPED ov;
    std::memset(&ov, 0, sizeof(ov));
    // The whole file (a range of 2^64 - 1 bytes from 0). The OS releases
    // the lock when the process dies.
    if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0,
                    MAXDWORD, MAXDWORD, &ov)) {
      const DWORD err = GetLastError();
      CloseHandle(h);
      Locks()->Remove(key);
      if (err == ERROR_LOCK_VIOLATION || err == ERROR_SHARING_VIOLATION ||
          err == ERROR_IO_PENDING) {
        return Status::LockHeld(fname, "lock held by another process");
      }
      return WinError(fname, "LockFileEx", err);
    }
    *lock = new WinFileLock(h, fname, key);
    return Status::OK();
  }

  Status UnlockFile(FileLock* lock) override {
    WinFileLock* l = static_cast<WinFileLock*>(lock);
    Status s;
    OVERLAPPED ov;
    std::memset(&ov, 0, sizeof(ov));
    if (!UnlockFileEx(l->handle(), 0, MAXDWORD, MAXDWORD, &ov)) {
      s = WinError(l->name(), "UnlockFileEx", GetLastError());
    }
    CloseHandle(l->handle());
    Locks()->Remove(l->key());
    delete l;
    return s;
  }

  uint64_t NowMicros() override {
    FILETIME ft;
    GetSystemTimePreciseAsFileTime(&ft);
    return (FileTimeTo100ns(ft) - kEpochOffset100ns) / 10;
  }

  uint64_t NowNanos() override {
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    const uint64_t ticks = static_cast<uint64_t>(now.QuadPart);
    // Split to avoid overflowing ticks * 1e9.
    const uint64_t seconds = ticks / perf_frequency_;
    const uint64_t rest = ticks % perf_frequency_;
    return seconds * 1000000000ull + rest * 1000000000ull / perf_frequency_;
  }

  Status GetTestDirectory(std::string* path) override {
    wchar_t buf[MAX_PATH + 1];
    const DWORD n = GetEnvironmentVariableW(L"TEST_TMPDIR", buf, MAX_PATH);
    if (n > 0 && n < MAX_PATH) {
      *path = port::WideToUtf8(std::wstring(buf, n));
    } else {
      const DWORD t = GetTempPathW(MAX_PATH, buf);
      if (t == 0 || t > MAX_PATH) {
        return WinError("%TEMP%", "GetTempPath", GetLastError());
      }
      *path = port::WideToUtf8(std::wstring(buf, t)) + "strata-test";
    }
    return CreateDirIfMissing(*path);
  }

 private:
  static Status Attributes(const std::string& fname,
                           WIN32_FILE_ATTRIBUTE_DATA* attrs) {
    if (!GetFileAttributesExW(port::ToWinPath(fname).c_str(),
                              GetFileExInfoStandard, attrs)) {
      return WinError(fname, "GetFileAttributesEx", GetLastError());
    }
    return Status::OK();
  }

  // A unique name next to path for a file being deleted.
  std::wstring TrashName(const std::wstring& path) {
    const size_t sep = path.find_last_of(L"\\/");
    const std::wstring dir =
        sep == std::wstring::npos ? std::wstring() : path.substr(0, sep + 1);
    const uint64_t n = trash_counter_.fetch_add(1);
    return dir + port::Utf8ToWide(kTrashPrefix) +
           std::to_wstring(GetCurrentProcessId()) + L"-" + std::to_wstring(n);
  }

  static LockTable* Locks() {
    static NoDestructor<LockTable> table;
    return table.get();
  }

  Status OpenWritable(const std::string& fname, DWORD disposition,
                      std::unique_ptr<WritableFile>* result,
                      const EnvOptions& options) {
    result->reset();
    const bool direct = options.use_direct_writes;
    // A mapping needs read access too; direct I/O and mmap exclude each
    // other, direct wins.
    const bool mmap = options.use_mmap_writes && !direct;
    DWORD flags = DataFlags(direct);
    if (options.use_write_through && !mmap) flags |= FILE_FLAG_WRITE_THROUGH;
    HANDLE h = Open(fname, mmap ? GENERIC_READ | GENERIC_WRITE : GENERIC_WRITE,
                    disposition, flags);
    if (h == INVALID_HANDLE_VALUE) {
      return WinError(fname, "open for writing", GetLastError());
    }
    LARGE_INTEGER size;
    if (!GetFileSizeEx(h, &size)) {
      const DWORD err = GetLastError();
      CloseHandle(h);
      return WinError(fname, "GetFileSizeEx", err);
    }
    const uint64_t initial_size = static_cast<uint64_t>(size.QuadPart);
    if (mmap) {
      result->reset(new WinMmapFile(fname, h, initial_size));
    } else {
      result->reset(new WinWritableFile(fname, h, initial_size, options,
                                        AlignmentFor(fname, direct)));
    }
    return Status::OK();
  }

  Status MapFile(const std::string& fname, HANDLE h,
                 std::unique_ptr<RandomAccessFile>* result) {
    LARGE_INTEGER size;
    if (!GetFileSizeEx(h, &size)) {
      const DWORD err = GetLastError();
      CloseHandle(h);
      return WinError(fname, "GetFileSizeEx", err);
    }
    const size_t length = static_cast<size_t>(size.QuadPart);
    HANDLE mapping = nullptr;
    const void* base = nullptr;
    if (length > 0) {  // an empty file cannot be mapped
      mapping = CreateFileMappingW(h, nullptr, PAGE_READONLY, 0, 0, nullptr);
      if (mapping == nullptr) {
        const DWORD err = GetLastError();
        CloseHandle(h);
        return WinError(fname, "CreateFileMapping", err);
      }
      base = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0);
      if (base == nullptr) {
        const DWORD err = GetLastError();
        CloseHandle(mapping);
        CloseHandle(h);
        return WinError(fname, "MapViewOfFile", err);
      }
    }
    result->reset(new WinMmapReadableFile(fname, h, mapping, base, length));
    return Status::OK();
  }

  uint64_t perf_frequency_;
  std::atomic<uint64_t> trash_counter_{0};
};

}  // namespace

Env* Env::Default() {
  static NoDestructor<WinEnv> env;
  return env.get();
}

}  // namespace strata
