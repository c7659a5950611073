// The POSIX half of the Env's files: the helpers that turn errno into a
// Status and sync, size and align descriptors, and PosixDirectory. The
// file classes both platforms share are declared in env/os_file.h,
// env/os_writable_file.h and env/mmap_writer.h; io_posix.cc and
// mmap_posix.cc define their POSIX members: pread/pwrite on a descriptor,
// O_DIRECT when asked, mmap, fallocate for preallocation.
//
// Errors go through PosixError, the one place errno becomes a Status.

#ifndef STRATA_ENV_IO_POSIX_H_
#define STRATA_ENV_IO_POSIX_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "env/native_file.h"
#include "strata/env.h"

namespace strata {

// The Status for errno value err from operation op on path:
//   ENOENT, ENOTDIR -> PathNotFound     ENOSPC, EDQUOT -> NoSpace
//   EINVAL          -> InvalidArgument  anything else  -> IOError
// The message names the path and the operation.
Status PosixError(const std::string& path, const char* op, int err);

// True if fd's writes are synchronous (O_DSYNC or O_SYNC), as the kernel
// reports it.
bool IsWriteThrough(int fd);

// One positional write: ::pwrite, or a test's fake.
using PosixWriteCall = ssize_t (*)(int fd, const void* buf, size_t n,
                                   off_t offset);

// Writes all n bytes of data at offset through write, going on after short
// writes and EINTR. A call that succeeds but writes nothing fails the
// write (IOError naming fname) instead of being made again forever.
Status PosixWriteAll(PosixWriteCall write, int fd, const std::string& fname,
                     uint64_t offset, const char* data, size_t n);

// ftruncate to size.
Status TruncateFd(int fd, const std::string& fname, uint64_t size);

// Closes *fd now (see ScopedFd::Close); op names the step in an error.
Status CloseFd(ScopedFd* fd, const std::string& fname, const char* op);

// fdatasync (or fsync, with metadata), counted in IOStats::flushes.
Status SyncFd(int fd, const std::string& fname, bool metadata);

// The alignment direct I/O on fd needs: the logical block size of the device
// holding it, or kDefaultPageSize when that cannot be found. Looked up once
// per device.
size_t GetDirectIOAlignment(int fd);

class PosixDirectory : public Directory {
 public:
  PosixDirectory(std::string name, ScopedFd fd);
  Status Fsync() override;
  Status Close() override;

 private:
  const std::string name_;
  ScopedFd fd_;
};

}  // namespace strata

#endif  // STRATA_ENV_IO_POSIX_H_
