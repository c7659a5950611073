// FaultInjectionEnv: wraps any Env to simulate what a test cannot provoke
// for real.
//
// Power loss: every writable file's size at its last Sync is remembered;
// DropUnsyncedFileData() cuts each file back to it, and
// DeleteFilesCreatedAfterLastDirSync() removes files whose directory was
// not synced after they were created, and undoes renames whose directory
// was not synced (the source name, if it was durable, gets the data back,
// and a replaced target its old contents) — together, what a machine that
// lost power would show on restart.
//
// Failures: every I/O through the Env or its files is counted and has a
// kind (IOKind below). FailNthIO(n, s) makes the n-th I/O from now fail
// once; FailAll(kind, s) makes every I/O of that kind fail until
// ClearFailures(). A failed I/O does not reach the wrapped Env. The failing
// Status keeps the code, sub-code and retryable mark (strata/io_status.h)
// of s and names the path and the operation. SetFilesystemActive(false)
// fails every I/O that changes a file or a directory (write, sync,
// truncate, create, delete, rename, ...), as a dead disk; a sync already
// running then fails too. RecordIOs(true) keeps a log of the I/Os, for
// telling what the n-th one was.
//
// Not counted: hints that cannot lose data and whose errors nobody acts on
// (Skip, Prefetch, InvalidateCache), the clock and thread calls, paths
// (GetAbsolutePath, GetTestDirectory), UnlockFile (a lock is released when
// its descriptor is closed, whatever the call returns: failing it would
// leave the lock held in this process forever, which no OS does), and what
// is written through a Logger (the info log; its creation is counted).
//
// Thread safety: safe from many threads, as any Env.

#ifndef STRATA_TEST_UTIL_FAULT_INJECTION_ENV_H_
#define STRATA_TEST_UTIL_FAULT_INJECTION_ENV_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "port/port.h"
#include "strata/env.h"

namespace strata {
namespace test {

enum class IOKind {
  kOpen,       // opening a file or directory, creating a logger
  kRead,       // Read / PositionedRead of any file
  kWrite,      // Append, PositionedAppend, Flush, RandomRWFile::Write
  kSync,       // Sync / Fsync of a file
  kDirSync,    // Fsync of a directory
  kRangeSync,  // WritableFile::RangeSync (starting write-back)
  kTruncate,   // WritableFile::Truncate
  kAllocate,   // WritableFile::Allocate (preallocation)
  kClose,      // Close of a writable or read-write file, or a directory
  kRename,
  kLink,
  kDelete,  // RemoveFile, RemoveDir
  kCreateDir,
  kLock,  // LockFile
  kStat,  // FileExists, GetFileSize, GetFileModificationTime, IsDirectory,
          // GetFreeDiskSpace
  kList,  // GetChildren
  kNumKinds,
};

// "open", "read", ...: for messages and tallies.
const char* IOKindName(IOKind kind);

// One counted I/O, as RecordIOs keeps it.
struct IOEvent {
  IOKind kind;
  std::string path;
  std::string op;
};

// s with its code, sub-code and retryable mark, its message prefixed by
// "path: op".
Status StatusForPath(const Status& s, const std::string& path, const char* op);

class FaultInjectionEnv : public EnvWrapper {
 public:
  explicit FaultInjectionEnv(Env* base);
  ~FaultInjectionEnv() override;

  // ---- Power loss ----------------------------------------------------------
  // Truncates every file written through this Env to its size at its last
  // Sync (0 if never synced).
  Status DropUnsyncedFileData();
  // Removes files created since their directory's last NewDirectory()->Fsync.
  Status DeleteFilesCreatedAfterLastDirSync();
  // Forgets all tracking (after a simulated restart).
  void ResetState();
  // path's size at its last Sync (0: never synced, or not written here).
  uint64_t SyncedSize(const std::string& path);

  // ---- Failures ------------------------------------------------------------
  // The n-th I/O from now (n >= 1) fails with s, once.
  void FailNthIO(uint64_t n, const Status& s);
  // Every I/O of kind fails with s until ClearFailures().
  void FailAll(IOKind kind, const Status& s);
  void ClearFailures();
  // When inactive, every write and sync fails with IOError.
  void SetFilesystemActive(bool active);
  // I/Os seen so far.
  uint64_t io_count();
  // Keeps (or stops keeping) a log of every I/O from now on.
  void RecordIOs(bool on);
  // The I/Os recorded so far, oldest first; the log starts empty again.
  std::vector<IOEvent> TakeRecordedIOs();

  // Called by this Env and its files before each I/O: OK, or the injected
  // failure for it.
  virtual Status MaybeFail(IOKind kind, const std::string& path,
                           const char* op);
  // Bookkeeping calls from the wrapped files. A sync that returns once the
  // file system is inactive (its power loss began while it ran) is not
  // recorded and fails: the power loss cuts to what was recorded before.
  void OnWrite(const std::string& path, uint64_t new_size);
  Status OnSync(const std::string& path, uint64_t synced_size);
  Status OnDirectorySync(const std::string& dir);

  // ---- Env -----------------------------------------------------------------
  Status NewSequentialFile(const std::string& f,
                           std::unique_ptr<SequentialFile>* r,
                           const EnvOptions& options) override;
  Status NewRandomAccessFile(const std::string& f,
                             std::unique_ptr<RandomAccessFile>* r,
                             const EnvOptions& options) override;
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override;
  Status ReopenWritableFile(const std::string& f,
                            std::unique_ptr<WritableFile>* r,
                            const EnvOptions& options) override;
  Status NewRandomRWFile(const std::string& f, std::unique_ptr<RandomRWFile>* r,
                         const EnvOptions& options) override;
  // Stores through a mapping bypass every call this Env sees, so no power
  // loss could be simulated for them: NotSupported.
  Status NewMemoryMappedFileBuffer(
      const std::string& f,
      std::unique_ptr<MemoryMappedFileBuffer>* r) override {
    r->reset();
    return Status::NotSupported("NewMemoryMappedFileBuffer (fault injection)",
                                f);
  }
  Status NewDirectory(const std::string& name,
                      std::unique_ptr<Directory>* result) override;
  Status NewLogger(const std::string& fname,
                   std::shared_ptr<Logger>* result) override;
  Status FileExists(const std::string& f) override;
  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* r) override;
  Status RemoveFile(const std::string& f) override;
  Status CreateDir(const std::string& d) override;
  Status CreateDirIfMissing(const std::string& d) override;
  Status RemoveDir(const std::string& d) override;
  Status GetFileSize(const std::string& f, uint64_t* s) override;
  Status GetFileModificationTime(const std::string& f, uint64_t* t) override;
  Status RenameFile(const std::string& s, const std::string& t) override;
  Status LinkFile(const std::string& s, const std::string& t) override;
  Status GetFreeDiskSpace(const std::string& path, uint64_t* diskfree) override;
  Status IsDirectory(const std::string& path, bool* is_dir) override;
  Status LockFile(const std::string& f, FileLock** l) override;

 private:
  struct FileState {
    uint64_t size = 0;
    uint64_t synced_size = 0;
  };

  // How to undo a rename whose directory entry is not yet durable.
  struct RenameUndo {
    std::string src;           // the name the data came from
    bool src_durable = false;  // src's entry survives a power loss
    bool target_durable = false;
    std::string target_contents;  // what the target held before
  };

  Status WrapWritable(const std::string& f, std::unique_ptr<WritableFile>* r);

  port::Mutex mu_;
  uint64_t io_count_ GUARDED_BY(mu_) = 0;
  uint64_t fail_at_ GUARDED_BY(mu_) = 0;  // 0: none
  Status fail_at_status_ GUARDED_BY(mu_);
  bool fail_all_[static_cast<int>(IOKind::kNumKinds)] GUARDED_BY(mu_) = {};
  Status fail_all_status_[static_cast<int>(IOKind::kNumKinds)] GUARDED_BY(mu_);
  bool active_ GUARDED_BY(mu_) = true;
  bool recording_ GUARDED_BY(mu_) = false;
  std::vector<IOEvent> recorded_ GUARDED_BY(mu_);
  std::map<std::string, FileState> files_ GUARDED_BY(mu_);
  // Files created (or renamed into place) since their directory was last
  // synced.
  std::set<std::string> unsynced_new_files_ GUARDED_BY(mu_);
  // Renames not yet made durable, by target name.
  std::map<std::string, RenameUndo> renames_ GUARDED_BY(mu_);
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_UTIL_FAULT_INJECTION_ENV_H_
