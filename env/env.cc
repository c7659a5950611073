// The parts of the Env API that are the same on every platform: default
// method bodies, destructors, WriteStringToFile / ReadFileToString and the
// Log functions.

#include "strata/env.h"

#include <cstdio>

#include "port/port.h"
#include "strata/options.h"

namespace strata {

Env::~Env() = default;

EnvOptions::EnvOptions(const DBOptions& options)
    : use_mmap_reads(options.allow_mmap_reads),
      use_mmap_writes(options.allow_mmap_writes),
      use_direct_reads(options.use_direct_reads),
      use_direct_writes(options.use_direct_io_for_flush_and_compaction),
      allow_fallocate(options.allow_fallocate),
      bytes_per_sync(options.bytes_per_sync),
      writable_file_max_buffer_size(options.writable_file_max_buffer_size) {}

EnvOptions Env::OptimizeForLogWrite(const EnvOptions& env_options,
                                    const DBOptions& db_options) const {
  EnvOptions o = env_options;
  o.use_mmap_writes = false;
  o.use_direct_writes = false;
  o.bytes_per_sync = db_options.wal_bytes_per_sync;
  o.allow_fallocate = db_options.allow_fallocate;
  o.use_write_through = db_options.wal_write_through;
  return o;
}

EnvOptions Env::OptimizeForManifestWrite(const EnvOptions& env_options) const {
  EnvOptions o = env_options;
  o.use_mmap_writes = false;
  o.use_direct_writes = false;
  o.use_write_through = false;
  return o;
}

Status Env::NewRandomRWFile(const std::string& fname,
                            std::unique_ptr<RandomRWFile>* /*result*/,
                            const EnvOptions& /*options*/) {
  return Status::NotSupported("NewRandomRWFile", fname);
}

Status Env::NewMemoryMappedFileBuffer(
    const std::string& fname,
    std::unique_ptr<MemoryMappedFileBuffer>* /*result*/) {
  return Status::NotSupported("NewMemoryMappedFileBuffer", fname);
}

Status Env::LinkFile(const std::string& src, const std::string& /*target*/) {
  return Status::NotSupported("LinkFile", src);
}

Status Env::GetFreeDiskSpace(const std::string& path, uint64_t* /*diskfree*/) {
  return Status::NotSupported("GetFreeDiskSpace", path);
}

int Env::UnSchedule(void* /*tag*/, Priority /*pri*/) { return 0; }

unsigned int Env::GetThreadPoolQueueLen(Priority /*pri*/) const { return 0; }

uint64_t Env::GetThreadID() const { return port::CurrentThreadId(); }

EnvWrapper::~EnvWrapper() = default;

SequentialFile::~SequentialFile() = default;

Status SequentialFile::PositionedRead(uint64_t /*offset*/, size_t /*n*/,
                                      Slice* /*result*/, char* /*scratch*/) {
  return Status::NotSupported("PositionedRead");
}

Status SequentialFile::InvalidateCache(size_t /*offset*/, size_t /*length*/) {
  return Status::NotSupported("InvalidateCache");
}

RandomAccessFile::~RandomAccessFile() = default;

Status RandomAccessFile::MultiRead(ReadRequest* reqs, size_t num_reqs) {
  for (size_t i = 0; i < num_reqs; i++) {
    reqs[i].status =
        Read(reqs[i].offset, reqs[i].len, &reqs[i].result, reqs[i].scratch);
  }
  return Status::OK();
}

Status RandomAccessFile::Prefetch(uint64_t /*offset*/, size_t /*n*/) {
  return Status::OK();
}

Status RandomAccessFile::InvalidateCache(size_t /*offset*/, size_t /*length*/) {
  return Status::NotSupported("InvalidateCache");
}

WritableFile::~WritableFile() = default;

Status WritableFile::PositionedAppend(const Slice& /*data*/,
                                      uint64_t /*offset*/) {
  return Status::NotSupported("PositionedAppend");
}

Status WritableFile::Truncate(uint64_t /*size*/) { return Status::OK(); }

Status WritableFile::AppendAndSync(const Slice& data) {
  Status s = Append(data);
  if (s.ok()) s = Flush();
  if (s.ok()) s = Sync();
  return s;
}

Status WritableFile::Allocate(uint64_t /*offset*/, uint64_t /*len*/) {
  return Status::OK();
}

Status WritableFile::RangeSync(uint64_t /*offset*/, uint64_t /*nbytes*/) {
  return Status::OK();
}

Status WritableFile::InvalidateCache(size_t /*offset*/, size_t /*length*/) {
  return Status::NotSupported("InvalidateCache");
}

void WritableFile::PrepareWrite(size_t offset, size_t len) {
  if (preallocation_block_size_ == 0) return;
  // Reserve whole blocks up to the one holding the write's last byte.
  const size_t block = preallocation_block_size_;
  const size_t new_last_block = (offset + len + block - 1) / block;
  if (new_last_block > last_preallocated_block_) {
    const size_t num_blocks = new_last_block - last_preallocated_block_;
    // A refused reservation is not an error: the write itself will still
    // allocate what it needs.
    Status ignored =
        Allocate(static_cast<uint64_t>(block) * last_preallocated_block_,
                 static_cast<uint64_t>(block) * num_blocks);
    (void)ignored;
    last_preallocated_block_ = new_last_block;
  }
}

RandomRWFile::~RandomRWFile() = default;

MemoryMappedFileBuffer::~MemoryMappedFileBuffer() = default;

Directory::~Directory() = default;

FileLock::~FileLock() = default;

Logger::~Logger() = default;

void Logger::Logv(const InfoLogLevel level, const char* format, va_list ap) {
  if (level < log_level_) return;
  Logv(format, ap);
}

Status WriteStringToFile(Env* env, const Slice& data, const std::string& fname,
                         bool should_sync) {
  std::unique_ptr<WritableFile> file;
  EnvOptions options;
  Status s = env->NewWritableFile(fname, &file, options);
  if (!s.ok()) return s;
  s = file->Append(data);
  if (s.ok() && should_sync) s = file->Sync();
  Status close = file->Close();
  if (s.ok()) s = close;
  if (!s.ok()) {
    Status ignored = env->RemoveFile(fname);  // best effort: no half file
    (void)ignored;
  }
  return s;
}

Status ReadFileToString(Env* env, const std::string& fname, std::string* data) {
  data->clear();
  std::unique_ptr<SequentialFile> file;
  EnvOptions options;
  Status s = env->NewSequentialFile(fname, &file, options);
  if (!s.ok()) return s;
  constexpr size_t kBufferSize = 64 * 1024;
  std::unique_ptr<char[]> space(new char[kBufferSize]);
  while (true) {
    Slice fragment;
    s = file->Read(kBufferSize, &fragment, space.get());
    if (!s.ok() || fragment.empty()) break;
    data->append(fragment.data(), fragment.size());
  }
  return s;
}

namespace {

void LogList(InfoLogLevel level, Logger* info_log, const char* format,
             va_list ap) {
  if (info_log != nullptr && level >= info_log->GetInfoLogLevel()) {
    info_log->Logv(level, format, ap);
  }
}

}  // namespace

void Log(const InfoLogLevel log_level, Logger* info_log, const char* format,
         ...) {
  va_list ap;
  va_start(ap, format);
  LogList(log_level, info_log, format, ap);
  va_end(ap);
}

void Log(const InfoLogLevel log_level, const std::shared_ptr<Logger>& info_log,
         const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  LogList(log_level, info_log.get(), format, ap);
  va_end(ap);
}

void Log(Logger* info_log, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  LogList(INFO_LEVEL, info_log, format, ap);
  va_end(ap);
}

void Log(const std::shared_ptr<Logger>& info_log, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  LogList(INFO_LEVEL, info_log.get(), format, ap);
  va_end(ap);
}

}  // namespace strata
