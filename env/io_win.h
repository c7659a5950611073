// The Windows half of the Env's files: the helpers that turn Win32 errors
// into a Status and read, write, sync and align through handles, and
// WinDirectory. The file classes both platforms share are declared in
// env/os_file.h, env/os_writable_file.h and env/mmap_writer.h; io_win.cc
// and mmap_win.cc define their Windows members.
//
// Every data file is opened through CreateFileW with FILE_SHARE_READ |
// FILE_SHARE_WRITE | FILE_SHARE_DELETE, so it can be renamed or deleted
// while open; positional transfers are
// ReadFile/WriteFile with an OVERLAPPED offset on one shared handle, which
// is safe from many threads; end of file is a short read. Random-access
// files are opened FILE_FLAG_OVERLAPPED so that their reads run in
// parallel (env/read_win.h); the other files are synchronous.
//
// With direct I/O the handle is opened with FILE_FLAG_NO_BUFFERING and every
// transfer is checked for alignment — max(page size, the volume's sector
// size) — before it reaches the OS: Windows requires it, Wine does not
// enforce it, and the check keeps the two alike (and is counted, see
// IOStats).
//
// Each file owns its handles through ScopedHandle (env/native_file.h),
// which closes them on destruction. This header keeps <windows.h> out: a
// handle is a void*.

#ifndef STRATA_ENV_IO_WIN_H_
#define STRATA_ENV_IO_WIN_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "env/native_file.h"
#include "strata/env.h"

namespace strata {

// ERROR_DISK_QUOTA_EXCEEDED, which MinGW-w64's <winerror.h> lacks.
constexpr unsigned long kWinErrorDiskQuotaExceeded = 1295;

// The Status for Win32 error err (GetLastError()) from operation op on path:
//   file/path not found, bad drive           -> PathNotFound
//   disk full, quota exceeded                -> NoSpace
//   invalid parameter, path not UTF-8        -> InvalidArgument
//   not supported, not the same device       -> NotSupported
//   sharing violation                        -> Busy
//   access denied, the rest                  -> IOError
// The message names the path and the operation and carries the system's
// text for the error, in UTF-8.
Status WinError(const std::string& path, const char* op, unsigned long err);

// path for the W APIs (port::ToWinPath), or InvalidArgument naming it if it
// is not valid UTF-8.
Status WinPath(const std::string& path, std::wstring* wide);

// The alignment unbuffered I/O on the volume holding path needs:
// max(page size, the volume's physical sector size). The sector size comes
// from IOCTL_STORAGE_QUERY_PROPERTY (StorageAccessAlignmentProperty), else
// IOCTL_DISK_GET_DRIVE_GEOMETRY, else 4096; it is asked once per volume
// (IOStats::alignment_queries) and remembered.
size_t WinDirectIOAlignment(const std::string& path);

// Reads or writes exactly at offset through an OVERLAPPED structure; shared
// by the file classes. A non-zero direct_alignment is checked first. A read
// may go through an overlapped or a synchronous handle and waits on the
// calling thread's event (env/read_win.cc); a write needs a synchronous
// handle.
Status WinPositionedRead(void* handle, const std::string& fname,
                         size_t direct_alignment, uint64_t offset, size_t n,
                         Slice* result, char* scratch);
Status WinPositionedWrite(void* handle, const std::string& fname,
                          size_t direct_alignment, uint64_t offset,
                          const char* data, size_t n);

// One positional write: up to want bytes of data at offset through handle,
// *wrote set to what was written; false, with GetLastError() set, on
// failure. WinPositionedWrite passes WriteFile with an OVERLAPPED offset;
// a test passes a fake.
using WinWriteCall = bool (*)(void* handle, uint64_t offset, const char* data,
                              unsigned long want, unsigned long* wrote);

// WinPositionedWrite's loop: writes all n bytes at offset through write, in
// calls of at most 1 GiB. A call that succeeds but writes nothing fails
// the write (IOError naming fname) instead of being made again forever.
Status WinWriteAll(WinWriteCall write, void* handle, const std::string& fname,
                   uint64_t offset, const char* data, size_t n);

// True if handle was opened FILE_FLAG_WRITE_THROUGH, as the OS reports it
// (FileModeInformation); false if it cannot tell.
bool WinIsWriteThrough(void* handle);

// True if handle was opened FILE_FLAG_OVERLAPPED, as the OS reports it
// (FileModeInformation has neither FILE_SYNCHRONOUS_IO_ALERT nor
// FILE_SYNCHRONOUS_IO_NONALERT); false if it cannot tell.
bool WinIsOverlapped(void* handle);

// FlushFileBuffers, counted (IOStats::flushes).
Status WinFlushFileBuffers(void* handle, const std::string& fname);

// Moves the end of file to size (FileEndOfFileInfo).
Status WinSetEndOfFile(void* handle, const std::string& fname, uint64_t size);

// Closes *handle now (see ScopedHandle::Close).
Status WinCloseHandle(ScopedHandle* handle, const std::string& fname);

// The identity of the file open as handle: the same through every handle
// and every path (hard links too) that names the file, and different for
// different files. From FILE_ID_INFO — the volume's 64-bit serial number
// and the 128-bit file id, which is what identifies a file on ReFS — where
// the system answers for it, else from BY_HANDLE_FILE_INFORMATION's 32-bit
// serial number and 64-bit file index. Empty if the system cannot say.
std::string WinFileIdentity(void* handle);
// The two sources, each empty where the system does not answer (for tests:
// the fallback must hold on its own where FILE_ID_INFO is missing).
std::string WinFileIdFromIdInfo(void* handle);
std::string WinFileIdFromIndex(void* handle);

// A directory opened by WinEnv::NewDirectory. Each Fsync opens it with
// FILE_FLAG_BACKUP_SEMANTICS (which a directory needs) and FILE_ADD_FILE
// access (the write right FlushFileBuffers asks of a directory handle),
// flushes that handle (IOStats::directory_flushes) and closes it. No
// handle is held in between: an open directory handle would keep a
// removed directory's name until it closed, where POSIX lets rmdir
// succeed beside an open descriptor.
//
// Where the system cannot flush a directory, Fsync is a counted no-op
// (IOStats::directory_flushes_skipped) rather than an error, as fsync's
// EINVAL is on POSIX:
//   - the directory cannot be opened for writing (access denied, write
//     protected): this process cannot add or rename entries in it either;
//   - the flush failed with an error WinDirectoryFlushUnsupported names:
//     the volume is remembered (by serial number) and not asked again.
// Any other error is an IOError naming the directory.
// docs/windows.md says which file systems do what.
//
// Thread safety: Fsync may be called from any thread; Close from one.
class WinDirectory : public Directory {
 public:
  // The existing directory name; PathNotFound if missing, IOError if it is
  // a file.
  static Status Open(const std::string& name,
                     std::unique_ptr<Directory>* result);

  Status Fsync() override;
  Status Close() override;

 private:
  WinDirectory(std::string name, std::wstring path);

  const std::string name_;
  const std::wstring path_;  // name_ for the W APIs
  bool closed_ = false;
};

// Whether err (GetLastError() of FlushFileBuffers on a directory handle)
// says the file system or server does not flush directories, rather than
// that the flush failed: ERROR_INVALID_FUNCTION (STATUS_INVALID_DEVICE_
// REQUEST, STATUS_NOT_IMPLEMENTED), ERROR_NOT_SUPPORTED and
// ERROR_ACCESS_DENIED (an SMB server that refuses a flush of a directory;
// the handle itself has the access the flush needs).
bool WinDirectoryFlushUnsupported(unsigned long err);

// The flush WinDirectory::Fsync makes: FlushFileBuffers(handle); false
// with GetLastError() set on failure.
using WinFlushCall = bool (*)(void* handle);

// For tests: makes Fsync flush through call instead (nullptr: back to
// FlushFileBuffers), and forgets the volumes found unable to flush a
// directory.
void TEST_SetDirectoryFlush(WinFlushCall call);
void TEST_ForgetUnflushableVolumes();

}  // namespace strata

#endif  // STRATA_ENV_IO_WIN_H_
