// Directory listing in the port namespace: opendir / readdir / closedir
// with POSIX semantics on every platform. Names are UTF-8.
//
// readdir returns nullptr both at the end of the directory and on an
// error, and tells them apart as POSIX does: errno is 0 at the end and the
// error's code otherwise. A caller that stopped at an error would miss the
// entries after it (a WAL, for the DB), so it must check errno at once.
//
// On Windows these wrap FindFirstFileExW/FindNextFileW; after a failed
// opendir or readdir, GetLastError() still holds the system's reason for
// the Env to map (ERROR_NO_UNICODE_TRANSLATION for a name that is not
// UTF-8), and a readdir error sets errno to EIO.
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

}  // namespace port
}  // namespace strata

#else  // POSIX

#include <dirent.h>

namespace strata {
namespace port {

using ::DIR;
using ::dirent;

}  // namespace port
}  // namespace strata

#endif

namespace strata {
namespace port {

DIR* opendir(const char* name);
// The next entry; nullptr at the end (errno 0) or on an error (errno set).
dirent* readdir(DIR* dirp);
int closedir(DIR* dirp);

// Test seam: the next readdir in this process that asks the system for an
// entry, on any DIR, fails as if the system had reported error: an errno
// value, or on Windows a Win32 error code from FindNextFileW (so
// ERROR_NO_MORE_FILES ends the listing; the first entry comes with opendir
// and is not affected). 0 cancels. A listing cannot otherwise be made to
// fail mid-way on demand.
void TEST_FailNextReaddir(int error);

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_PORT_DIRENT_H_
