// WinEnv: Env::Default() on Windows. Paths are UTF-8 and go to the W APIs;
// '/' and '\' are both accepted.

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

#include "env/fs_win.h"
#include "env/io_util.h"
#include "env/io_win.h"
#include "env/os_env.h"
#include "env/os_file.h"
#include "port/module_ref.h"
#include "port/port.h"
#include "port/win32.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

// 100-ns intervals between 1601-01-01 (FILETIME) and 1970-01-01.
constexpr uint64_t kEpochOffset100ns = 116444736000000000ull;

uint64_t FileTimeTo100ns(const FILETIME& ft) {
  return (static_cast<uint64_t>(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
}

DWORD DataFlags(bool direct) {
  return FILE_ATTRIBUTE_NORMAL | (direct ? FILE_FLAG_NO_BUFFERING : 0);
}

// What the transfers of a file need aligned: the volume's unbuffered-I/O
// alignment for direct I/O, else the page size (the buffer alignment a
// buffered file reports).
size_t AlignmentFor(const std::string& fname, bool direct) {
  return direct ? WinDirectIOAlignment(fname) : port::GetPageSize();
}

// The directory holding the file at path ("." if path names none); a root
// ("C:\\", "\\") keeps its separator.
std::string DirOf(const std::string& path) {
  const size_t sep = path.find_last_of("/\\");
  if (sep == std::string::npos) return ".";
  const bool root = sep == 0 || path[sep - 1] == ':';
  return path.substr(0, root ? sep + 1 : sep);
}

// A LOCK file's handle, which holds the lock once Lock succeeds. The OS
// releases the lock when the process dies.
class WinFileLock : public OsFileLock {
 public:
  WinFileLock(ScopedHandle handle, std::string name, std::string key)
      : OsFileLock(std::move(name), std::move(key), GetCurrentProcessId()),
        handle_(std::move(handle)) {}

  // The whole file: a range of 2^64 - 1 bytes from 0.
  Status Lock() override {
    OVERLAPPED ov;
    std::memset(&ov, 0, sizeof(ov));
    if (LockFileEx(handle_.get(),
                   LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0,
                   MAXDWORD, MAXDWORD, &ov)) {
      // The directory is this process's now (DB::Open, RepairDB and
      // DestroyDB all lock it first): the files an earlier process's
      // deletes left under trash names go (docs/windows.md).
      WinSweepTrash(DirOf(name()));
      return Status::OK();
    }
    const DWORD err = GetLastError();
    if (err == ERROR_LOCK_VIOLATION || err == ERROR_SHARING_VIOLATION ||
        err == ERROR_IO_PENDING) {
      return Status::LockHeld(name(), "lock held by another process");
    }
    return WinError(name(), "LockFileEx", err);
  }

  Status Unlock() override {
    OVERLAPPED ov;
    std::memset(&ov, 0, sizeof(ov));
    if (UnlockFileEx(handle_.get(), 0, MAXDWORD, MAXDWORD, &ov)) {
      return Status::OK();
    }
    return WinError(name(), "UnlockFileEx", GetLastError());
  }

 private:
  const ScopedHandle handle_;
};

class WinEnv : public OsEnv {
 public:
  WinEnv() {
    LARGE_INTEGER freq;
    QueryPerformanceFrequency(&freq);
    perf_frequency_ = static_cast<uint64_t>(freq.QuadPart);
  }

  Status NewDirectory(const std::string& name,
                      std::unique_ptr<Directory>* result) override {
    return WinDirectory::Open(name, result);
  }

  Status FileExists(const std::string& fname) override {
    std::wstring path;
    Status s = WinPath(fname, &path);
    if (!s.ok()) return s;
    if (GetFileAttributesW(path.c_str()) != INVALID_FILE_ATTRIBUTES) {
      return Status::OK();
    }
    const DWORD err = GetLastError();
    if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND) {
      return Status::NotFound(fname);
    }
    return WinError(fname, "GetFileAttributes", err);
  }

  Status RemoveFile(const std::string& fname) override {
    return WinRemoveFile(fname);
  }

  Status RenameFile(const std::string& src,
                    const std::string& target) override {
    return WinRenameFile(src, target);
  }

  Status CreateDir(const std::string& name) override {
    std::wstring path;
    Status s = WinPath(name, &path);
    if (!s.ok()) return s;
    if (!CreateDirectoryW(path.c_str(), nullptr)) {
      return WinError(name, "CreateDirectory", GetLastError());
    }
    return Status::OK();
  }

  Status RemoveDir(const std::string& name) override {
    std::wstring path;
    Status s = WinPath(name, &path);
    if (!s.ok()) return s;
    if (!RemoveDirectoryW(path.c_str())) {
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

  Status LinkFile(const std::string& src, const std::string& target) override {
    std::wstring from;
    std::wstring to;
    Status s = WinPath(src, &from);
    if (s.ok()) s = WinPath(target, &to);
    if (!s.ok()) return s;
    if (!CreateHardLinkW(to.c_str(), from.c_str(), nullptr)) {
      return WinError(src, ("link to " + target).c_str(), GetLastError());
    }
    return Status::OK();
  }

  Status GetFreeDiskSpace(const std::string& path,
                          uint64_t* diskfree) override {
    std::wstring wide;
    Status s = WinPath(path, &wide);
    if (!s.ok()) return s;
    ULARGE_INTEGER available;
    if (!GetDiskFreeSpaceExW(wide.c_str(), &available, nullptr, nullptr)) {
      return WinError(path, "GetDiskFreeSpaceEx", GetLastError());
    }
    *diskfree = available.QuadPart;
    return Status::OK();
  }

  Status IsDirectory(const std::string& path, bool* is_dir) override {
    std::wstring wide;
    Status s = WinPath(path, &wide);
    if (!s.ok()) return s;
    const DWORD attrs = GetFileAttributesW(wide.c_str());
    if (attrs == INVALID_FILE_ATTRIBUTES) {
      return WinError(path, "GetFileAttributes", GetLastError());
    }
    *is_dir = (attrs & FILE_ATTRIBUTE_DIRECTORY) != 0;
    return Status::OK();
  }

  Status GetAbsolutePath(const std::string& db_path,
                         std::string* output_path) override {
    std::wstring in;
    Status s = WinPath(db_path, &in);
    if (!s.ok()) return s;
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
    std::wstring path;
    Status s = WinPath(fname, &path);
    if (!s.ok()) return s;
    if (!GetFileAttributesExW(path.c_str(), GetFileExInfoStandard, attrs)) {
      return WinError(fname, "GetFileAttributesEx", GetLastError());
    }
    return Status::OK();
  }

  Status OpenDataFile(const std::string& fname, const OpenRequest& request,
                      ScopedHandle* file, size_t* alignment) override {
    DWORD access = GENERIC_READ;
    DWORD disposition = OPEN_EXISTING;
    DWORD flags = DataFlags(request.direct);
    switch (request.access) {
      case OpenRequest::kSequentialRead:
        flags |= FILE_FLAG_SEQUENTIAL_SCAN;
        break;
      case OpenRequest::kRandomRead:
        // Overlapped, so that reads from many threads on one table run at
        // once: the I/O manager serializes a synchronous handle's
        // transfers (env/read_win.h). A mapping of it reads as any other.
        flags |= FILE_FLAG_RANDOM_ACCESS | FILE_FLAG_OVERLAPPED;
        break;
      case OpenRequest::kReadWrite:
        access = GENERIC_READ | GENERIC_WRITE;
        disposition = request.create ? OPEN_ALWAYS : OPEN_EXISTING;
        break;
      case OpenRequest::kWrite:
        // A mapping needs read access too.
        access = request.mmap ? GENERIC_READ | GENERIC_WRITE : GENERIC_WRITE;
        disposition = request.truncate ? CREATE_ALWAYS : OPEN_ALWAYS;
        if (request.write_through) flags |= FILE_FLAG_WRITE_THROUGH;
        break;
    }
    Status s = WinOpen(fname, access, disposition, flags, request.op(), file);
    if (!s.ok()) return s;
    *alignment = AlignmentFor(fname, request.direct);
    return Status::OK();
  }

  bool WritesAreDurable(const ScopedHandle& file) override {
    return WinIsWriteThrough(file.get());
  }

  Status FileSize(const ScopedHandle& file, const std::string& fname,
                  uint64_t* size) override {
    LARGE_INTEGER li;
    if (!GetFileSizeEx(file.get(), &li)) {
      return WinError(fname, "GetFileSizeEx", GetLastError());
    }
    *size = static_cast<uint64_t>(li.QuadPart);
    return Status::OK();
  }

  Status MapWhole(const std::string& fname, ScopedHandle file, bool writable,
                  std::unique_ptr<FileView>* view) override {
    uint64_t size = 0;
    Status s = FileSize(file, fname, &size);
    if (!s.ok()) return s;
    std::unique_ptr<FileView> v(new FileView);
    v->file = std::move(file);
    if (size > 0) {  // an empty file cannot be mapped
      v->mapping.Reset(CreateFileMappingW(
          v->file.get(), nullptr, writable ? PAGE_READWRITE : PAGE_READONLY, 0,
          0, nullptr));
      if (!v->mapping.is_valid()) {
        return WinError(fname, "CreateFileMapping", GetLastError());
      }
      v->base = MapViewOfFile(
          v->mapping.get(), writable ? FILE_MAP_WRITE : FILE_MAP_READ, 0, 0, 0);
      if (v->base == nullptr) {
        return WinError(fname, "MapViewOfFile", GetLastError());
      }
      v->length = static_cast<size_t>(size);
    }
    *view = std::move(v);
    return Status::OK();
  }

  Status OpenLockFile(const std::string& fname,
                      std::unique_ptr<OsFileLock>* lock) override {
    ScopedHandle h;
    Status s = WinOpen(fname, GENERIC_READ | GENERIC_WRITE, OPEN_ALWAYS,
                       FILE_ATTRIBUTE_NORMAL, "open lock file", &h);
    if (!s.ok()) return s;
    std::string key = WinFileIdentity(h.get());
    if (key.empty()) key = fname;
    lock->reset(new WinFileLock(std::move(h), fname, std::move(key)));
    return Status::OK();
  }

  Status LastError(const std::string& path, const char* op) const override {
    return WinError(path, op, GetLastError());
  }

  bool IsHidden(const char* name) const override { return WinIsTrash(name); }

  uint64_t perf_frequency_;
};

}  // namespace

Env* Env::Default() {
  // Never destroyed: static destructors elsewhere may still use it.
  static NoDestructor<WinEnv> env;
  // Its pools are joined when the process exits through exit() (main
  // returning) — where strata is part of the EXE, whose atexit handlers run
  // before ExitProcess, outside the loader lock, while the threads still
  // live. In a DLL the handler would run at DLL_PROCESS_DETACH: on process
  // exit the threads are already gone (and a lock they held stays held), on
  // FreeLibrary the loader lock is held and no pool thread can exist (each
  // pool holds a reference on the DLL while it has threads). So nothing is
  // registered there. docs/windows.md, "Threads at exit and unloading".
  static const bool joined_at_exit = [] {
    return port::CodeInMainExecutable() &&
           std::atexit([] {
             static_cast<WinEnv*>(Env::Default())->JoinPoolsWhenIdle();
           }) == 0;
  }();
  (void)joined_at_exit;
  return env.get();
}

}  // namespace strata
