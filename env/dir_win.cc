// WinDirectory: Env::NewDirectory on Windows, and its Fsync through
// FlushFileBuffers on a handle to the directory. See env/io_win.h for the
// contract and docs/windows.md ("Directory durability") for what each file
// system does with the flush.

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "env/io_util.h"
#include "env/io_win.h"
#include "port/port.h"
#include "port/win32.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

bool FlushHandle(void* handle) {
  return FlushFileBuffers(static_cast<HANDLE>(handle)) != FALSE;
}

std::atomic<WinFlushCall> flush_call{&FlushHandle};

// The serial numbers of the volumes whose file system answered a directory
// flush with an error WinDirectoryFlushUnsupported names.
class UnflushableVolumes {
 public:
  bool Contains(uint32_t volume) {
    MutexLock l(&mu_);
    return volumes_.count(volume) != 0;
  }
  void Add(uint32_t volume) {
    MutexLock l(&mu_);
    volumes_.insert(volume);
  }
  void Clear() {
    MutexLock l(&mu_);
    volumes_.clear();
  }

 private:
  port::Mutex mu_;
  std::set<uint32_t> volumes_ GUARDED_BY(mu_);
};

UnflushableVolumes* Unflushable() {
  static NoDestructor<UnflushableVolumes> volumes;
  return volumes.get();
}

void CountSkipped() {
  GetIOStats().directory_flushes_skipped.fetch_add(1,
                                                   std::memory_order_relaxed);
}

}  // namespace

bool WinDirectoryFlushUnsupported(unsigned long err) {
  return err == ERROR_INVALID_FUNCTION || err == ERROR_NOT_SUPPORTED ||
         err == ERROR_ACCESS_DENIED;
}

void TEST_SetDirectoryFlush(WinFlushCall call) {
  flush_call.store(call != nullptr ? call : &FlushHandle);
}

void TEST_ForgetUnflushableVolumes() { Unflushable()->Clear(); }

WinDirectory::WinDirectory(std::string name, std::wstring path)
    : name_(std::move(name)), path_(std::move(path)) {}

Status WinDirectory::Open(const std::string& name,
                          std::unique_ptr<Directory>* result) {
  result->reset();
  std::wstring path;
  Status s = WinPath(name, &path);
  if (!s.ok()) return s;
  const DWORD attributes = GetFileAttributesW(path.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) {
    return WinError(name, "open directory", GetLastError());
  }
  if ((attributes & FILE_ATTRIBUTE_DIRECTORY) == 0) {
    return Status::IOError(name, "open directory: not a directory");
  }
  result->reset(new WinDirectory(name, std::move(path)));
  return Status::OK();
}

Status WinDirectory::Fsync() {
  if (closed_) return Status::IOError(name_, "fsync after close");
  ScopedHandle h(
      CreateFileW(path_.c_str(), FILE_ADD_FILE,
                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                  nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr));
  if (!h.is_valid()) {
    const DWORD err = GetLastError();
    if (err == ERROR_ACCESS_DENIED || err == ERROR_WRITE_PROTECT) {
      CountSkipped();  // not writable here
      return Status::OK();
    }
    return WinError(name_, "open directory to flush", err);
  }
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(h.get(), &info)) {
    return WinError(name_, "open directory to flush", GetLastError());
  }
  const uint32_t volume = info.dwVolumeSerialNumber;
  if (Unflushable()->Contains(volume)) {
    CountSkipped();
    return Status::OK();
  }
  GetIOStats().directory_flushes.fetch_add(1, std::memory_order_relaxed);
  if (flush_call.load()(h.get())) return Status::OK();
  const DWORD err = GetLastError();
  if (WinDirectoryFlushUnsupported(err)) {
    Unflushable()->Add(volume);
    CountSkipped();
    return Status::OK();
  }
  return WinError(name_, "FlushFileBuffers (directory)", err);
}

Status WinDirectory::Close() {
  closed_ = true;
  return Status::OK();
}

}  // namespace strata
