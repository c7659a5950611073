// port::opendir / readdir / closedir over FindFirstFileExW / FindNextFileW.

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "port/port.h"
#include "port/port_dirent.h"
#include "port/win32.h"

namespace strata {
namespace port {

struct DIR {
  HANDLE find = INVALID_HANDLE_VALUE;
  WIN32_FIND_DATAW data;
  bool first_pending = true;  // data holds an entry not yet returned
  dirent entry;
};

namespace {

std::atomic<DWORD> g_readdir_fault{0};

// FindNextFileW, or the failure a test asked for.
BOOL FindNext(DIR* dirp) {
  const DWORD fault = g_readdir_fault.exchange(0, std::memory_order_relaxed);
  if (fault != 0) {
    SetLastError(fault);
    return FALSE;
  }
  return FindNextFileW(dirp->find, &dirp->data);
}

}  // namespace

DIR* opendir(const char* name) {
  std::wstring pattern;
  if (!ToWinPath(name, &pattern)) {
    errno = EINVAL;
    return nullptr;  // GetLastError() says why
  }
  if (!pattern.empty() && pattern.back() != L'/' && pattern.back() != L'\\') {
    pattern.push_back(L'\\');
  }
  pattern.push_back(L'*');
  DIR* dir = new DIR;
  dir->find = FindFirstFileExW(pattern.c_str(), FindExInfoBasic, &dir->data,
                               FindExSearchNameMatch, nullptr, 0);
  if (dir->find == INVALID_HANDLE_VALUE) {
    const DWORD err = GetLastError();
    delete dir;
    errno = (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND)
                ? ENOENT
                : EACCES;
    SetLastError(err);  // kept for the caller's error mapping
    return nullptr;
  }
  return dir;
}

dirent* readdir(DIR* dirp) {
  errno = 0;
  if (!dirp->first_pending && !FindNext(dirp)) {
    const DWORD err = GetLastError();
    if (err != ERROR_NO_MORE_FILES) {
      errno = EIO;
      SetLastError(err);  // kept for the caller's error mapping
    }
    return nullptr;
  }
  dirp->first_pending = false;
  const std::string name = WideToUtf8(dirp->data.cFileName);
  const size_t n = name.size() < sizeof(dirp->entry.d_name) - 1
                       ? name.size()
                       : sizeof(dirp->entry.d_name) - 1;
  std::memcpy(dirp->entry.d_name, name.data(), n);
  dirp->entry.d_name[n] = '\0';
  return &dirp->entry;
}

int closedir(DIR* dirp) {
  const BOOL ok = FindClose(dirp->find);
  delete dirp;
  return ok ? 0 : -1;
}

void TEST_FailNextReaddir(int error) {
  g_readdir_fault.store(static_cast<DWORD>(error), std::memory_order_relaxed);
}

}  // namespace port
}  // namespace strata
