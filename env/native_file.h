// NativeFile: the platform's owned file handle, the one type the
// platform-free file classes (OsWritableFile) hold. On POSIX it is ScopedFd
// (a file descriptor), on Windows ScopedHandle (a HANDLE); both are an
// OwnedHandle, closed on destruction. The system calls made on a
// NativeFile are defined by the platform's .cc files in env/.
//
// This header keeps <windows.h> out: a HANDLE is a void* here.

#ifndef STRATA_ENV_NATIVE_FILE_H_
#define STRATA_ENV_NATIVE_FILE_H_

#include <cstdint>

#include "env/owned_handle.h"

#if defined(STRATA_PLATFORM_POSIX)
#include <unistd.h>
#endif

namespace strata {

#if defined(STRATA_PLATFORM_POSIX)

struct FdTraits {
  using Handle = int;
  static int Invalid() { return -1; }
  static bool IsValid(int fd) { return fd >= 0; }
  // Not retried on EINTR: Linux has released the descriptor by then, and
  // it may already belong to another thread's open.
  static bool Close(int fd) { return ::close(fd) == 0; }
};

using ScopedFd = OwnedHandle<FdTraits>;
using NativeFile = ScopedFd;

#elif defined(STRATA_PLATFORM_WINDOWS)

struct Win32HandleTraits {
  using Handle = void*;  // HANDLE
  static void* Invalid() { return nullptr; }
  // Win32 has two "no handle" values: null (CreateFileMapping's failure)
  // and INVALID_HANDLE_VALUE, all ones (CreateFile's).
  static bool IsValid(void* h) {
    return h != nullptr && h != reinterpret_cast<void*>(~uintptr_t{0});
  }
  // CloseHandle (env/io_win.cc).
  static bool Close(void* h);
};

// A file or a file mapping.
using ScopedHandle = OwnedHandle<Win32HandleTraits>;
using NativeFile = ScopedHandle;

#else
#error "CMake must define STRATA_PLATFORM_POSIX or STRATA_PLATFORM_WINDOWS"
#endif

}  // namespace strata

#endif  // STRATA_ENV_NATIVE_FILE_H_
