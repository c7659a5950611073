#include "env/os_env.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include "env/env_logger.h"
#include "env/lock_table.h"
#include "env/mmap_writer.h"
#include "env/os_file.h"
#include "env/os_writable_file.h"
#include "port/port_dirent.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

// The lock files this process holds, across every OsEnv.
LockTable* Locks() {
  static NoDestructor<LockTable> table;
  return table.get();
}

}  // namespace

template <typename File, typename Interface>
Status OsEnv::OpenAs(const std::string& fname, const OpenRequest& request,
                     std::unique_ptr<Interface>* result) {
  result->reset();
  NativeFile file;
  size_t alignment = 0;
  Status s = OpenDataFile(fname, request, &file, &alignment);
  if (!s.ok()) return s;
  result->reset(new File(fname, std::move(file), request.direct, alignment));
  return Status::OK();
}

Status OsEnv::NewSequentialFile(const std::string& fname,
                                std::unique_ptr<SequentialFile>* result,
                                const EnvOptions& options) {
  return OpenAs<OsSequentialFile>(
      fname,
      OpenRequest(OpenRequest::kSequentialRead, options.use_direct_reads,
                  options),
      result);
}

Status OsEnv::NewRandomAccessFile(const std::string& fname,
                                  std::unique_ptr<RandomAccessFile>* result,
                                  const EnvOptions& options) {
  const OpenRequest request(OpenRequest::kRandomRead, options.use_direct_reads,
                            options);
  if (!options.use_mmap_reads || request.direct) {
    return OpenAs<OsRandomAccessFile>(fname, request, result);
  }
  result->reset();
  NativeFile file;
  size_t alignment = 0;
  Status s = OpenDataFile(fname, request, &file, &alignment);
  if (!s.ok()) return s;
  std::unique_ptr<FileView> view;
  s = MapWhole(fname, std::move(file), /*writable=*/false, &view);
  if (!s.ok()) return s;
  result->reset(new MmapReadableFile(fname, std::move(view)));
  return Status::OK();
}

Status OsEnv::NewRandomRWFile(const std::string& fname,
                              std::unique_ptr<RandomRWFile>* result,
                              const EnvOptions& options) {
  OpenRequest request(OpenRequest::kReadWrite,
                      options.use_direct_reads || options.use_direct_writes,
                      options);
  request.write_through = options.use_write_through;
  return OpenAs<OsRandomRWFile>(fname, request, result);
}

Status OsEnv::NewMemoryMappedFileBuffer(
    const std::string& fname, std::unique_ptr<MemoryMappedFileBuffer>* result) {
  result->reset();
  OpenRequest request(OpenRequest::kReadWrite, /*unbuffered=*/false,
                      EnvOptions());
  request.create = false;
  NativeFile file;
  size_t alignment = 0;
  Status s = OpenDataFile(fname, request, &file, &alignment);
  if (!s.ok()) return s;
  std::unique_ptr<FileView> view;
  s = MapWhole(fname, std::move(file), /*writable=*/true, &view);
  if (!s.ok()) return s;
  result->reset(new OsMemoryMappedFileBuffer(std::move(view)));
  return Status::OK();
}

Status OsEnv::NewWritableFile(const std::string& fname,
                              std::unique_ptr<WritableFile>* result,
                              const EnvOptions& options) {
  return OpenWritable(fname, /*truncate=*/true, result, options);
}

Status OsEnv::ReopenWritableFile(const std::string& fname,
                                 std::unique_ptr<WritableFile>* result,
                                 const EnvOptions& options) {
  return OpenWritable(fname, /*truncate=*/false, result, options);
}

Status OsEnv::OpenWritable(const std::string& fname, bool truncate,
                           std::unique_ptr<WritableFile>* result,
                           const EnvOptions& options) {
  result->reset();
  OpenRequest request(OpenRequest::kWrite, options.use_direct_writes, options);
  request.truncate = truncate;
  // Direct I/O and mmap exclude each other; direct wins.
  request.mmap = options.use_mmap_writes && !request.direct;
  // A mapping is made durable by flushing the view, then the file.
  const bool through = options.use_write_through && !request.mmap;
  // A direct-I/O file is written through as a whole (its transfers are
  // aligned pages that bypass the cache anyway); any other gets a second,
  // write-through handle for AppendAndSync.
  request.write_through = through && request.direct;
  NativeFile file;
  size_t alignment = 0;
  Status s = OpenDataFile(fname, request, &file, &alignment);
  if (!s.ok()) return s;
  uint64_t initial_size = 0;
  s = FileSize(file, fname, &initial_size);
  if (!s.ok()) return s;
  if (request.mmap) {
    result->reset(new MmapWriter(fname, std::move(file), initial_size));
    return Status::OK();
  }
  NativeFile durable;
  if (through && !request.direct) {
    OpenRequest second = request;
    second.truncate = false;
    second.write_through = true;
    size_t ignored = 0;
    s = OpenDataFile(fname, second, &durable, &ignored);
    if (!s.ok()) return s;
    // What the handle really is, not what was asked: a write through it
    // may count as a sync only if the OS made it durable.
    if (!WritesAreDurable(durable)) durable = NativeFile();
  }
  // As the OS reports the handle: a plain append that waited for the
  // device would show here (its Sync then needs no flush).
  const bool write_through = WritesAreDurable(file);
  result->reset(new OsWritableFile(fname, std::move(file), std::move(durable),
                                   initial_size, options, write_through,
                                   alignment));
  return Status::OK();
}

Status OsEnv::NewLogger(const std::string& fname,
                        std::shared_ptr<Logger>* result) {
  return NewEnvLogger(this, fname, result);
}

Status OsEnv::GetChildren(const std::string& dir,
                          std::vector<std::string>* result) {
  result->clear();
  port::DIR* d = port::opendir(dir.c_str());
  if (d == nullptr) return LastError(dir, "opendir");
  Status s;
  while (true) {
    port::dirent* entry = port::readdir(d);
    if (entry == nullptr) {
      // A listing cut short by an error is no listing: recovery would
      // miss the WALs after the error. errno tells end from error.
      if (errno != 0) {
        s = LastError(dir, "readdir");
        result->clear();
      }
      break;
    }
    if (std::strcmp(entry->d_name, ".") == 0 ||
        std::strcmp(entry->d_name, "..") == 0 || IsHidden(entry->d_name)) {
      continue;
    }
    result->emplace_back(entry->d_name);
  }
  port::closedir(d);
  return s;
}

Status OsEnv::CreateDirIfMissing(const std::string& name) {
  Status s = CreateDir(name);
  if (s.ok()) return s;
  // Refused: fine if a directory is there already.
  bool is_dir = false;
  if (!IsDirectory(name, &is_dir).ok()) return s;
  if (!is_dir) return Status::IOError(name, "exists but is not a directory");
  return Status::OK();
}

Status OsEnv::LockFile(const std::string& fname, FileLock** lock) {
  *lock = nullptr;
  std::unique_ptr<OsFileLock> l;
  Status s = OpenLockFile(fname, &l);
  if (!s.ok()) return s;
  const std::string key = l->key();
  if (!Locks()->Insert(key, l->owner())) {
    return Status::LockHeld(fname, "lock held by this process");
  }
  s = l->Lock();
  if (!s.ok()) {
    l.reset();  // closed before the table lets another LockFile in
    Locks()->Remove(key);
    return s;
  }
  *lock = l.release();
  return Status::OK();
}

Status OsEnv::UnlockFile(FileLock* lock) {
  std::unique_ptr<OsFileLock> l(static_cast<OsFileLock*>(lock));
  Status s = l->Unlock();
  const std::string key = l->key();
  // Close before the table lets another LockFile in: on POSIX, closing
  // would drop a classic fcntl lock that another thread had just taken.
  l.reset();
  Locks()->Remove(key);
  return s;
}

}  // namespace strata
