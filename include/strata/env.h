// Env: everything strata needs from the operating system — files,
// directories, locks, background threads and clocks — behind one abstract
// class, so the engine never calls the OS itself.
//
// Env::Default() is the platform's Env (POSIX or Windows); NewMemEnv() keeps
// files in memory; EnvWrapper forwards every call to another Env so that a
// subclass can change a few of them (fault injection, counting, ...).
//
// Errors are Status values whose message is UTF-8 and names the path:
//   a missing file or directory   NotFound, IsPathNotFound()
//   a full device                 IOError,  IsNoSpace()
//   a lock held by someone else   IOError,  IsLockHeld() (and IsBusy())
//   a misaligned direct transfer  InvalidArgument
//   anything else from the OS     IOError
//
// Thread safety: an Env is safe to use from many threads at once. A file
// object is used by one thread at a time unless its class says otherwise
// (RandomAccessFile::Read and RandomRWFile's positional calls are safe from
// many threads).

#ifndef STRATA_INCLUDE_ENV_H_
#define STRATA_INCLUDE_ENV_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

struct DBOptions;
class Directory;
class FileLock;
class Logger;
class MemoryMappedFileBuffer;
class RandomAccessFile;
class RandomRWFile;
class SequentialFile;
class WritableFile;

// The alignment direct I/O falls back to when a device does not say.
constexpr size_t kDefaultPageSize = 4096;

// How files are opened. The defaults are buffered I/O through the OS cache.
struct STRATA_EXPORT EnvOptions {
  EnvOptions() = default;
  // The file options a DB with these options uses for its data files.
  explicit EnvOptions(const DBOptions& options);

  // Read table files through a memory map.
  bool use_mmap_reads = false;
  // Write files through a memory map. (RocksDB's EnvOptions defaults this to
  // true and then takes DBOptions::allow_mmap_writes, false; strata's
  // default is the value files actually get.)
  bool use_mmap_writes = false;
  // Bypass the OS cache for reads (O_DIRECT / FILE_FLAG_NO_BUFFERING).
  // Every transfer must then be aligned to the file's
  // GetRequiredBufferAlignment() in offset, length and buffer address.
  bool use_direct_reads = false;
  // Bypass the OS cache for writes, with the same alignment rule.
  bool use_direct_writes = false;
  // Let writable files reserve space ahead of the data (fallocate /
  // FileAllocationInfo). Where the file system refuses, writes go on.
  bool allow_fallocate = true;
  // Give writable files a second, write-through handle
  // (FILE_FLAG_WRITE_THROUGH on Windows, O_DSYNC on POSIX) for
  // WritableFile::AppendAndSync: that write returns once its data is
  // durable and needs no flush, while Append still goes through the
  // buffered handle and does not wait for the device. Meant for the WAL
  // (DBOptions::wal_write_through), where a synced commit then costs one
  // write instead of write + flush. A direct-I/O file has no second
  // handle: it is opened write-through as a whole.
  bool use_write_through = false;
  // Keep file descriptors from leaking into child processes.
  bool set_fd_cloexec = true;
  // Ask the OS to start writing back every this many bytes (0 = never).
  uint64_t bytes_per_sync = 0;
  // Largest buffer the engine-side writer keeps before writing to the file.
  size_t writable_file_max_buffer_size = 1024 * 1024;
};

// The scheduling priority of a thread, lowest first (RocksDB's values).
// strata's own threads always run at the OS default (kNormal); the enum is
// here for the options that name it.
enum class CpuPriority {
  kIdle = 0,
  kLow = 1,
  kNormal = 2,
  kHigh = 3,
};

class STRATA_EXPORT Env {
 public:
  // Background thread pools. Work in HIGH runs before LOW and BOTTOM work
  // only in the sense that each has its own threads.
  enum Priority { BOTTOM, LOW, HIGH, TOTAL };
  // The priority of a file's I/O (RocksDB's; strata's files take no
  // notice of it).
  enum IOPriority { IO_LOW = 0, IO_MID, IO_HIGH, IO_USER, IO_TOTAL };

  Env() = default;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;
  virtual ~Env();

  // The platform's Env. It belongs to strata: never delete it.
  static Env* Default();

  // ---- Files --------------------------------------------------------------

  // Opens an existing file for reading from the start.
  virtual Status NewSequentialFile(const std::string& fname,
                                   std::unique_ptr<SequentialFile>* result,
                                   const EnvOptions& options) = 0;

  // Opens an existing file for positional reads.
  virtual Status NewRandomAccessFile(const std::string& fname,
                                     std::unique_ptr<RandomAccessFile>* result,
                                     const EnvOptions& options) = 0;

  // Creates a file (truncating any existing one) for appending.
  virtual Status NewWritableFile(const std::string& fname,
                                 std::unique_ptr<WritableFile>* result,
                                 const EnvOptions& options) = 0;

  // Opens a file for appending after its current end, creating it if
  // missing.
  virtual Status ReopenWritableFile(const std::string& fname,
                                    std::unique_ptr<WritableFile>* result,
                                    const EnvOptions& options) = 0;

  // Opens a file for positional reads and writes, creating it if missing.
  virtual Status NewRandomRWFile(const std::string& fname,
                                 std::unique_ptr<RandomRWFile>* result,
                                 const EnvOptions& options);

  // Maps the whole of an existing file for reading and writing in place
  // (the file's size does not change); stores in place are the file's
  // contents, kept by the OS through a crash of the process. An empty file
  // gives a buffer of length 0. NotSupported by Envs that cannot map.
  virtual Status NewMemoryMappedFileBuffer(
      const std::string& fname,
      std::unique_ptr<MemoryMappedFileBuffer>* result);

  // Opens a directory so that its entries can be synced.
  virtual Status NewDirectory(const std::string& name,
                              std::unique_ptr<Directory>* result) = 0;

  // Creates a logger that writes to fname (truncated).
  virtual Status NewLogger(const std::string& fname,
                           std::shared_ptr<Logger>* result) = 0;

  // ---- File-system operations ---------------------------------------------

  // OK if fname exists, NotFound if it does not, IOError if that cannot be
  // told (permissions, ...).
  virtual Status FileExists(const std::string& fname) = 0;

  // The names (not paths) of the entries of dir, without "." and "..".
  virtual Status GetChildren(const std::string& dir,
                             std::vector<std::string>* result) = 0;

  virtual Status RemoveFile(const std::string& fname) = 0;
  virtual Status CreateDir(const std::string& dirname) = 0;
  // OK if dirname exists as a directory afterwards.
  virtual Status CreateDirIfMissing(const std::string& dirname) = 0;
  // Removes an empty directory.
  virtual Status RemoveDir(const std::string& dirname) = 0;

  virtual Status GetFileSize(const std::string& fname, uint64_t* file_size) = 0;
  // Seconds since the Unix epoch.
  virtual Status GetFileModificationTime(const std::string& fname,
                                         uint64_t* file_mtime) = 0;

  // Atomically replaces target, if it exists, with src.
  virtual Status RenameFile(const std::string& src,
                            const std::string& target) = 0;

  // Creates target as a hard link to src.
  virtual Status LinkFile(const std::string& src, const std::string& target);

  // Bytes available to this user on the file system holding path.
  virtual Status GetFreeDiskSpace(const std::string& path, uint64_t* diskfree);

  virtual Status IsDirectory(const std::string& path, bool* is_dir) = 0;

  virtual Status GetAbsolutePath(const std::string& db_path,
                                 std::string* output_path) = 0;

  // Locks fname (creating it if missing) against other openers, in this
  // process or another; a held lock fails with IsLockHeld(). *lock
  // is released with UnlockFile, and by the OS if the process dies.
  virtual Status LockFile(const std::string& fname, FileLock** lock) = 0;
  virtual Status UnlockFile(FileLock* lock) = 0;

  // ---- Threads --------------------------------------------------------------

  // Runs function(arg) once on a thread of pool pri. A job scheduled with a
  // tag can be taken back with UnSchedule(tag, pri) while it waits; then
  // unschedFunction(arg), if given, runs instead.
  virtual void Schedule(void (*function)(void* arg), void* arg,
                        Priority pri = LOW, void* tag = nullptr,
                        void (*unschedFunction)(void* arg) = nullptr) = 0;

  // Removes the waiting jobs of pool pri scheduled with tag. Returns how
  // many were removed.
  virtual int UnSchedule(void* tag, Priority pri);

  // Starts function(arg) on a new thread; WaitForJoin waits for all such.
  // The platform Envs' WaitForJoin also lets their pools run what is queued
  // and joins the pools' threads (they start again for the next job): call
  // it, with every DB closed, before unloading strata.dll.
  virtual void StartThread(void (*function)(void* arg), void* arg) = 0;
  virtual void WaitForJoin() {}

  // Jobs waiting (not running) in pool pri.
  virtual unsigned int GetThreadPoolQueueLen(Priority pri = LOW) const;

  // Sets the number of threads of pool pri; extra threads exit when their
  // current job ends.
  virtual void SetBackgroundThreads(int number, Priority pri = LOW) = 0;
  virtual int GetBackgroundThreads(Priority pri = LOW) = 0;
  // Raises pool pri to at least number threads.
  virtual void IncBackgroundThreadsIfNeeded(int number, Priority pri) = 0;

  // An identifier of the calling thread, for logs.
  virtual uint64_t GetThreadID() const;

  // ---- Time ---------------------------------------------------------------

  // Wall-clock microseconds since the Unix epoch.
  virtual uint64_t NowMicros() = 0;
  // A monotonic clock in nanoseconds, for measuring intervals only.
  virtual uint64_t NowNanos() = 0;
  virtual void SleepForMicroseconds(int micros) = 0;

  // A directory for tests: $TEST_TMPDIR if set, else one under the system's
  // temporary directory. Created if missing.
  virtual Status GetTestDirectory(std::string* path) = 0;

  // ---- File options by purpose --------------------------------------------

  // The options for a write-ahead log: buffered (never direct or mmap),
  // wal_bytes_per_sync, and write-through if db_options.wal_write_through.
  virtual EnvOptions OptimizeForLogWrite(const EnvOptions& env_options,
                                         const DBOptions& db_options) const;
  // The options for a MANIFEST: buffered, not write-through.
  virtual EnvOptions OptimizeForManifestWrite(
      const EnvOptions& env_options) const;
};

// Reads sequentially. Not safe from many threads at once.
class STRATA_EXPORT SequentialFile {
 public:
  SequentialFile() = default;
  SequentialFile(const SequentialFile&) = delete;
  SequentialFile& operator=(const SequentialFile&) = delete;
  virtual ~SequentialFile();

  // Reads up to n bytes. *result points into scratch[0..n-1] or into memory
  // owned by the file that stays valid until the next call. Fewer than n
  // bytes means end of file was reached; 0 bytes, at end of file.
  virtual Status Read(size_t n, Slice* result, char* scratch) = 0;

  // Skips n bytes (stopping at end of file).
  virtual Status Skip(uint64_t n) = 0;

  // For direct I/O: reads at offset; offset, n and scratch must be aligned
  // to GetRequiredBufferAlignment().
  virtual Status PositionedRead(uint64_t offset, size_t n, Slice* result,
                                char* scratch);

  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }

  // Asks the OS to drop cached pages of [offset, offset + length).
  virtual Status InvalidateCache(size_t offset, size_t length);
};

// One read of RandomAccessFile::MultiRead.
struct ReadRequest {
  // Where the read starts in the file, and how many bytes it asks for.
  uint64_t offset = 0;
  size_t len = 0;
  // Where the bytes go (len bytes, aligned as Read requires). A file may
  // instead point result at memory of its own (mmap).
  char* scratch = nullptr;
  // Set by MultiRead: the bytes read, fewer than len only at the end of
  // the file or when status is not OK.
  Slice result;
  Status status;
};

// Reads at any offset. Read is safe from many threads at once.
class STRATA_EXPORT RandomAccessFile {
 public:
  RandomAccessFile() = default;
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;
  virtual ~RandomAccessFile();

  // Reads up to n bytes at offset; fewer at end of file. *result points
  // into scratch or into memory owned by the file (mmap) that lives as long
  // as the file. With direct I/O, offset, n and scratch must be aligned.
  virtual Status Read(uint64_t offset, size_t n, Slice* result,
                      char* scratch) const = 0;

  // Reads every request of reqs[0, num_reqs), each as Read would read it,
  // setting its result and status. The files of the OS Envs have many
  // reads in flight at once (io_uring on Linux, overlapped ReadFile on
  // Windows); the default reads one request after another. Returns OK
  // when every request was tried (each says how it went), or the error
  // that kept them all from being tried.
  virtual Status MultiRead(ReadRequest* reqs, size_t num_reqs);

  // Hints that [offset, offset + n) will be read soon.
  virtual Status Prefetch(uint64_t offset, size_t n);

  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual Status InvalidateCache(size_t offset, size_t length);
};

// Appends to a file. Not safe from many threads at once (except Sync where
// IsSyncThreadSafe()).
class STRATA_EXPORT WritableFile {
 public:
  WritableFile() = default;
  WritableFile(const WritableFile&) = delete;
  WritableFile& operator=(const WritableFile&) = delete;
  virtual ~WritableFile();

  virtual Status Append(const Slice& data) = 0;

  // For direct I/O: writes data at offset; offset, size and address must be
  // aligned to GetRequiredBufferAlignment(). Rewriting the last (partial)
  // page is allowed, so the logical size may shrink to offset + size.
  virtual Status PositionedAppend(const Slice& data, uint64_t offset);

  // Sets the file's size to size (used to trim a direct-I/O file's padded
  // last page).
  virtual Status Truncate(uint64_t size);

  virtual Status Close() = 0;
  // Hands buffered data to the OS.
  virtual Status Flush() = 0;
  // Makes the data durable (fdatasync / FlushFileBuffers).
  virtual Status Sync() = 0;
  // Makes data and metadata durable.
  virtual Status Fsync() { return Sync(); }
  virtual bool IsSyncThreadSafe() const { return false; }

  // strata: appends data and makes the file durable up to its new end, as
  // Append, Flush and Sync in turn do (the default). A file opened with
  // EnvOptions::use_write_through writes data through a second,
  // write-through handle instead, so the write is the sync, while its
  // plain appends go through a buffered one and never wait for the device.
  // After a failure, data may be in the file in whole, in part or not at
  // all: the caller does not write it again.
  virtual Status AppendAndSync(const Slice& data);

  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }

  // The logical size: bytes appended so far (after any Truncate).
  virtual uint64_t GetFileSize() = 0;

  // Space is reserved ahead of the data in steps of size (0 = never).
  void SetPreallocationBlockSize(size_t size) {
    preallocation_block_size_ = size;
  }
  void GetPreallocationStatus(size_t* block_size,
                              size_t* last_allocated_block) const {
    *block_size = preallocation_block_size_;
    *last_allocated_block = last_preallocated_block_;
  }

  // Called before writing [offset, offset + len): reserves the blocks that
  // cover it, if preallocation is on and they are not reserved yet.
  void PrepareWrite(size_t offset, size_t len);

  // Reserves [offset, offset + len) without changing the file's size.
  virtual Status Allocate(uint64_t offset, uint64_t len);

  // Starts write-back of [offset, offset + nbytes) without waiting.
  virtual Status RangeSync(uint64_t offset, uint64_t nbytes);

  virtual Status InvalidateCache(size_t offset, size_t length);

 private:
  size_t preallocation_block_size_ = 0;
  size_t last_preallocated_block_ = 0;
};

// Reads and writes at any offset. Read and Write are safe from many threads
// at once on disjoint ranges.
class STRATA_EXPORT RandomRWFile {
 public:
  RandomRWFile() = default;
  RandomRWFile(const RandomRWFile&) = delete;
  RandomRWFile& operator=(const RandomRWFile&) = delete;
  virtual ~RandomRWFile();

  virtual Status Write(uint64_t offset, const Slice& data) = 0;
  virtual Status Read(uint64_t offset, size_t n, Slice* result,
                      char* scratch) const = 0;
  virtual Status Flush() = 0;
  virtual Status Sync() = 0;
  virtual Status Fsync() { return Sync(); }
  virtual Status Close() = 0;

  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
};

// The bytes of a file mapped by Env::NewMemoryMappedFileBuffer; the
// mapping goes with the object. Safe to use from many threads as far as
// their stores are.
class STRATA_EXPORT MemoryMappedFileBuffer {
 public:
  MemoryMappedFileBuffer(void* base, size_t length)
      : base_(base), length_(length) {}
  MemoryMappedFileBuffer(const MemoryMappedFileBuffer&) = delete;
  MemoryMappedFileBuffer& operator=(const MemoryMappedFileBuffer&) = delete;
  virtual ~MemoryMappedFileBuffer() = 0;

  void* GetBase() const { return base_; }
  size_t GetLen() const { return length_; }

 protected:
  void* base_;
  const size_t length_;
};

// An open directory, so that creations and renames in it can be synced.
class STRATA_EXPORT Directory {
 public:
  virtual ~Directory();
  virtual Status Fsync() = 0;
  virtual Status Close() { return Status::OK(); }
};

// A lock obtained from Env::LockFile.
class STRATA_EXPORT FileLock {
 public:
  FileLock() = default;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  virtual ~FileLock();
};

enum InfoLogLevel : unsigned char {
  DEBUG_LEVEL = 0,
  INFO_LEVEL,
  WARN_LEVEL,
  ERROR_LEVEL,
  FATAL_LEVEL,
  HEADER_LEVEL,
  NUM_INFO_LOG_LEVELS,
};

// A sink for the DB's informational log (Options::info_log). Safe from many
// threads at once.
class STRATA_EXPORT Logger {
 public:
  explicit Logger(InfoLogLevel log_level = INFO_LEVEL)
      : log_level_(log_level) {}
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;
  virtual ~Logger();

  // Writes one entry, formatted as printf does.
  virtual void Logv(const char* format, va_list ap) = 0;
  // Writes the entry if level is at or above GetInfoLogLevel().
  virtual void Logv(const InfoLogLevel level, const char* format, va_list ap);

  virtual void Flush() {}
  virtual Status Close() { return Status::OK(); }

  virtual InfoLogLevel GetInfoLogLevel() const { return log_level_; }
  virtual void SetInfoLogLevel(const InfoLogLevel log_level) {
    log_level_ = log_level;
  }

 private:
  InfoLogLevel log_level_;
};

// Forwards every call to another Env (not owned), so that a subclass can
// override just what it changes.
class STRATA_EXPORT EnvWrapper : public Env {
 public:
  explicit EnvWrapper(Env* target) : target_(target) {}
  ~EnvWrapper() override;

  Env* target() const { return target_; }

  Status NewSequentialFile(const std::string& f,
                           std::unique_ptr<SequentialFile>* r,
                           const EnvOptions& options) override {
    return target_->NewSequentialFile(f, r, options);
  }
  Status NewRandomAccessFile(const std::string& f,
                             std::unique_ptr<RandomAccessFile>* r,
                             const EnvOptions& options) override {
    return target_->NewRandomAccessFile(f, r, options);
  }
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    return target_->NewWritableFile(f, r, options);
  }
  Status ReopenWritableFile(const std::string& f,
                            std::unique_ptr<WritableFile>* r,
                            const EnvOptions& options) override {
    return target_->ReopenWritableFile(f, r, options);
  }
  Status NewRandomRWFile(const std::string& f, std::unique_ptr<RandomRWFile>* r,
                         const EnvOptions& options) override {
    return target_->NewRandomRWFile(f, r, options);
  }
  Status NewMemoryMappedFileBuffer(
      const std::string& f,
      std::unique_ptr<MemoryMappedFileBuffer>* r) override {
    return target_->NewMemoryMappedFileBuffer(f, r);
  }
  Status NewDirectory(const std::string& name,
                      std::unique_ptr<Directory>* result) override {
    return target_->NewDirectory(name, result);
  }
  Status NewLogger(const std::string& fname,
                   std::shared_ptr<Logger>* result) override {
    return target_->NewLogger(fname, result);
  }
  Status FileExists(const std::string& f) override {
    return target_->FileExists(f);
  }
  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* r) override {
    return target_->GetChildren(dir, r);
  }
  Status RemoveFile(const std::string& f) override {
    return target_->RemoveFile(f);
  }
  Status CreateDir(const std::string& d) override {
    return target_->CreateDir(d);
  }
  Status CreateDirIfMissing(const std::string& d) override {
    return target_->CreateDirIfMissing(d);
  }
  Status RemoveDir(const std::string& d) override {
    return target_->RemoveDir(d);
  }
  Status GetFileSize(const std::string& f, uint64_t* s) override {
    return target_->GetFileSize(f, s);
  }
  Status GetFileModificationTime(const std::string& f, uint64_t* t) override {
    return target_->GetFileModificationTime(f, t);
  }
  Status RenameFile(const std::string& s, const std::string& t) override {
    return target_->RenameFile(s, t);
  }
  Status LinkFile(const std::string& s, const std::string& t) override {
    return target_->LinkFile(s, t);
  }
  Status GetFreeDiskSpace(const std::string& path,
                          uint64_t* diskfree) override {
    return target_->GetFreeDiskSpace(path, diskfree);
  }
  Status IsDirectory(const std::string& path, bool* is_dir) override {
    return target_->IsDirectory(path, is_dir);
  }
  Status GetAbsolutePath(const std::string& db_path,
                         std::string* output_path) override {
    return target_->GetAbsolutePath(db_path, output_path);
  }
  Status LockFile(const std::string& f, FileLock** l) override {
    return target_->LockFile(f, l);
  }
  Status UnlockFile(FileLock* l) override { return target_->UnlockFile(l); }

  void Schedule(void (*f)(void* arg), void* a, Priority pri, void* tag,
                void (*u)(void* arg)) override {
    target_->Schedule(f, a, pri, tag, u);
  }
  int UnSchedule(void* tag, Priority pri) override {
    return target_->UnSchedule(tag, pri);
  }
  void StartThread(void (*f)(void*), void* a) override {
    target_->StartThread(f, a);
  }
  void WaitForJoin() override { target_->WaitForJoin(); }
  unsigned int GetThreadPoolQueueLen(Priority pri) const override {
    return target_->GetThreadPoolQueueLen(pri);
  }
  void SetBackgroundThreads(int num, Priority pri) override {
    target_->SetBackgroundThreads(num, pri);
  }
  int GetBackgroundThreads(Priority pri) override {
    return target_->GetBackgroundThreads(pri);
  }
  void IncBackgroundThreadsIfNeeded(int num, Priority pri) override {
    target_->IncBackgroundThreadsIfNeeded(num, pri);
  }
  uint64_t GetThreadID() const override { return target_->GetThreadID(); }

  uint64_t NowMicros() override { return target_->NowMicros(); }
  uint64_t NowNanos() override { return target_->NowNanos(); }
  void SleepForMicroseconds(int micros) override {
    target_->SleepForMicroseconds(micros);
  }
  Status GetTestDirectory(std::string* path) override {
    return target_->GetTestDirectory(path);
  }
  EnvOptions OptimizeForLogWrite(const EnvOptions& env_options,
                                 const DBOptions& db_options) const override {
    return target_->OptimizeForLogWrite(env_options, db_options);
  }
  EnvOptions OptimizeForManifestWrite(
      const EnvOptions& env_options) const override {
    return target_->OptimizeForManifestWrite(env_options);
  }

 private:
  Env* target_;
};

// An Env whose files and directories live in memory; threads and clocks
// come from base_env. The caller owns the result (and keeps base_env alive).
STRATA_EXPORT Env* NewMemEnv(Env* base_env);

// Writes data to fname (truncating it), syncing if asked.
STRATA_EXPORT Status WriteStringToFile(Env* env, const Slice& data,
                                       const std::string& fname,
                                       bool should_sync = false);

// Reads the whole of fname into *data.
STRATA_EXPORT Status ReadFileToString(Env* env, const std::string& fname,
                                      std::string* data);

// Write an entry to info_log (no-op if it is null): at the given level, or
// at INFO_LEVEL.
STRATA_EXPORT void Log(const InfoLogLevel log_level,
                       const std::shared_ptr<Logger>& info_log,
                       const char* format, ...) STRATA_PRINTF_FORMAT(3, 4);
STRATA_EXPORT void Log(const std::shared_ptr<Logger>& info_log,
                       const char* format, ...) STRATA_PRINTF_FORMAT(2, 3);
STRATA_EXPORT void Log(const InfoLogLevel log_level, Logger* info_log,
                       const char* format, ...) STRATA_PRINTF_FORMAT(3, 4);
STRATA_EXPORT void Log(Logger* info_log, const char* format, ...)
    STRATA_PRINTF_FORMAT(2, 3);

}  // namespace strata

#endif  // STRATA_INCLUDE_ENV_H_
