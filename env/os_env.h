// OsEnv: the platform-free half of the Envs over the operating system
// (PosixEnv, WinEnv). On top of the threads (ThreadPoolEnv) it writes once
// what both do alike: the file factories (which options pick which file
// class of env/os_file.h, env/os_writable_file.h, env/mmap_writer.h), the
// info log, directory listing, CreateDirIfMissing, and the bookkeeping of
// lock files — the process's LockTable consulted before the OS lock is
// asked for, and the handle closed before the table forgets the lock. A
// subclass supplies the system calls and the rest of Env.
//
// Thread safety: every method is safe from any thread.

#ifndef STRATA_ENV_OS_ENV_H_
#define STRATA_ENV_OS_ENV_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "env/native_file.h"
#include "env/thread_pool_env.h"
#include "strata/env.h"

namespace strata {

// A lock file held open: the subclass owns the handle and closes it on
// destruction, which also drops an OS lock still held.
struct FileView;

class OsFileLock : public FileLock {
 public:
  // key: the file's identity, the same for every path that names it.
  // owner: the locking process, for the LockTable.
  OsFileLock(std::string name, std::string key, uint64_t owner)
      : name_(std::move(name)), key_(std::move(key)), owner_(owner) {}

  const std::string& name() const { return name_; }
  const std::string& key() const { return key_; }
  uint64_t owner() const { return owner_; }

  // Takes the OS's exclusive lock on the whole file without waiting;
  // LockHeld ("lock held by another process") if another process has it.
  virtual Status Lock() = 0;
  virtual Status Unlock() = 0;

 private:
  const std::string name_;
  const std::string key_;
  const uint64_t owner_;
};

// How OsEnv::OpenDataFile opens a data file.
struct OpenRequest {
  enum Access { kSequentialRead, kRandomRead, kReadWrite, kWrite };

  OpenRequest(Access a, bool unbuffered, const EnvOptions& options)
      : access(a), direct(unbuffered), close_on_exec(options.set_fd_cloexec) {}

  // What an error calls the open: "open for reading", ...
  const char* op() const {
    switch (access) {
      case kReadWrite:
        return "open for read/write";
      case kWrite:
        return "open for writing";
      default:
        return "open for reading";
    }
  }

  Access access;
  // Unbuffered transfers (O_DIRECT, FILE_FLAG_NO_BUFFERING).
  bool direct;
  // kReadWrite: create the file if it is missing (else NotFound).
  bool create = true;
  // kWrite: empty the file rather than keep its contents.
  bool truncate = false;
  // kWrite: for a writable memory map, which needs read access too.
  bool mmap = false;
  // Writing: each write durable when it returns (O_DSYNC,
  // FILE_FLAG_WRITE_THROUGH), where the platform offers it for access.
  bool write_through = false;
  // POSIX: close the descriptor in a child at exec (O_CLOEXEC).
  bool close_on_exec;
};

class OsEnv : public ThreadPoolEnv {
 public:
  Status NewSequentialFile(const std::string& fname,
                           std::unique_ptr<SequentialFile>* result,
                           const EnvOptions& options) override;
  // A memory map for use_mmap_reads, unless use_direct_reads.
  Status NewRandomAccessFile(const std::string& fname,
                             std::unique_ptr<RandomAccessFile>* result,
                             const EnvOptions& options) override;
  // A memory map for use_mmap_writes, unless use_direct_writes.
  Status NewWritableFile(const std::string& fname,
                         std::unique_ptr<WritableFile>* result,
                         const EnvOptions& options) override;
  Status ReopenWritableFile(const std::string& fname,
                            std::unique_ptr<WritableFile>* result,
                            const EnvOptions& options) override;
  // Direct if either use_direct_reads or use_direct_writes is set.
  Status NewRandomRWFile(const std::string& fname,
                         std::unique_ptr<RandomRWFile>* result,
                         const EnvOptions& options) override;
  Status NewMemoryMappedFileBuffer(
      const std::string& fname,
      std::unique_ptr<MemoryMappedFileBuffer>* result) override;
  Status NewLogger(const std::string& fname,
                   std::shared_ptr<Logger>* result) override;
  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* result) override;
  Status CreateDirIfMissing(const std::string& name) override;
  Status LockFile(const std::string& fname, FileLock** lock) override;
  Status UnlockFile(FileLock* lock) override;

 protected:
  // Opens fname as asked; kWrite, and kReadWrite with create, create it if
  // missing.
  // *alignment: what direct transfers must be aligned to, or for a
  // buffered file the page size.
  virtual Status OpenDataFile(const std::string& fname,
                              const OpenRequest& request, NativeFile* file,
                              size_t* alignment) = 0;
  // The size of the open file.
  virtual Status FileSize(const NativeFile& file, const std::string& fname,
                          uint64_t* size) = 0;
  // Whether every write of file is durable when it returns, as the OS
  // reports the handle (not merely as asked).
  virtual bool WritesAreDurable(const NativeFile& file) = 0;
  // A view of the whole of file, writable if asked (file was opened for
  // writing then).
  virtual Status MapWhole(const std::string& fname, NativeFile file,
                          bool writable, std::unique_ptr<FileView>* view) = 0;
  // Opens fname, creating it if missing, for LockFile.
  virtual Status OpenLockFile(const std::string& fname,
                              std::unique_ptr<OsFileLock>* lock) = 0;
  // The Status for the calling thread's last OS error (errno or
  // GetLastError()) from op on path.
  virtual Status LastError(const std::string& path, const char* op) const = 0;
  // Whether GetChildren leaves name out (it always leaves out "." and "..").
  virtual bool IsHidden(const char* /*name*/) const { return false; }

 private:
  // Opens fname as request asks and wraps it in a File (OsSequentialFile,
  // OsRandomAccessFile, OsRandomRWFile).
  template <typename File, typename Interface>
  Status OpenAs(const std::string& fname, const OpenRequest& request,
                std::unique_ptr<Interface>* result);
  Status OpenWritable(const std::string& fname, bool truncate,
                      std::unique_ptr<WritableFile>* result,
                      const EnvOptions& options);
};

}  // namespace strata

#endif  // STRATA_ENV_OS_ENV_H_
