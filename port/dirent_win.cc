// port::opendir / readdir / closedir over FindFirstFileW / FindNextFileW.

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
  if (!dirp->first_pending) {
    if (!FindNextFileW(dirp->find, &dirp->data)) return nullptr;
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

}  // namespace port
}  // namespace strata
