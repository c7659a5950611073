// Names in the file system on Windows: opening a data file, and deleting
// and renaming with POSIX semantics where the system has them, with the
// fallbacks (a replace retried while the target is held open; a file
// deleted while open moved aside under a trash name first). WinEnv's
// RemoveFile and RenameFile are these.

#ifndef STRATA_ENV_FS_WIN_H_
#define STRATA_ENV_FS_WIN_H_

#include <cstddef>
#include <string>

#include "env/native_file.h"
#include "strata/status.h"

namespace strata {

// Opens fname through CreateFileW, shared for reading, writing and
// deleting; op names the open in an error. access, disposition and flags
// are CreateFileW's.
Status WinOpen(const std::string& fname, unsigned long access,
               unsigned long disposition, unsigned long flags, const char* op,
               ScopedHandle* file);

// As on POSIX, the name is gone when WinRemoveFile returns, even if the
// file is still open; the data lives until the last handle closes.
Status WinRemoveFile(const std::string& fname);

// Atomically replaces target. With POSIX renames (Windows 10) even an
// open target is replaced; elsewhere an open target refuses, and the
// replace is tried again for a while.
Status WinRenameFile(const std::string& src, const std::string& target);

// True for the names the delete fallback gives files deleted while open;
// GetChildren does not list them.
bool WinIsTrash(const char* name);

// Deletes the trash files in dir that can be deleted: those the delete
// fallback left when its process died (or the system crashed) before the
// last handle closed, or when its delete of the trash name failed. One
// another process holds open without FILE_SHARE_DELETE, or already marked
// for deletion, stays, without an error. Returns how many were deleted or
// marked for deletion.
size_t WinSweepTrash(const std::string& dir);

}  // namespace strata

#endif  // STRATA_ENV_FS_WIN_H_
