// Directory listing in the port namespace: opendir / readdir / closedir
// with POSIX semantics on every platform. Names are UTF-8.
//
// On Windows these wrap FindFirstFileW/FindNextFileW; when opendir fails,
// GetLastError() still holds the system's reason for the Env to map.
//
// Thread safety: one DIR is used by one thread at a time.

#ifndef STRATA_PORT_PORT_DIRENT_H_
#define STRATA_PORT_PORT_DIRENT_H_

#if defined(STRATA_PLATFORM_WINDOWS)

namespace strata {
namespace port {

struct dirent {
  // A name of up to 255 UTF-16 units takes at most 765 bytes of UTF-8.
  char d_name[1024];
};

struct DIR;

DIR* opendir(const char* name);
// The next entry, or nullptr at the end.
dirent* readdir(DIR* dirp);
int closedir(DIR* dirp);

}  // namespace port
}  // namespace strata

#else  // POSIX

#include <dirent.h>

namespace strata {
namespace port {

using ::DIR;
using ::dirent;

inline DIR* opendir(const char* name) { return ::opendir(name); }
inline dirent* readdir(DIR* dirp) { return ::readdir(dirp); }
inline int closedir(DIR* dirp) { return ::closedir(dirp); }

}  // namespace port
}  // namespace strata

#endif

#endif  // STRATA_PORT_PORT_DIRENT_H_
