#include "env/file_copy.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "strata/env.h"
#include "util/crc32c.h"
#include "util/rate_limiter.h"

namespace strata {

namespace {

constexpr size_t kBufferSize = 256 * 1024;

// Reads from up to size bytes, chunk by chunk, handing each to sink; stops
// early at end of file, with *read telling how far it got.
Status ReadChunks(SequentialFile* from, uint64_t size, uint64_t* read,
                  const std::function<Status(const Slice&)>& sink) {
  std::unique_ptr<char[]> buffer(new char[kBufferSize]);
  *read = 0;
  while (*read < size) {
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(size - *read, kBufferSize));
    Slice chunk;
    Status s = from->Read(n, &chunk, buffer.get());
    if (!s.ok()) return s;
    if (chunk.empty()) break;
    *read += chunk.size();
    s = sink(chunk);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status CopyBytes(SequentialFile* from, const std::string& src, WritableFile* to,
                 uint64_t size, const FileCopyOptions& options) {
  uint32_t crc = 0;
  uint64_t read = 0;
  Status s = ReadChunks(from, size, &read, [&](const Slice& chunk) {
    crc = crc32c::Extend(crc, chunk.data(), chunk.size());
    // The chunk was read and is about to be written: each direction is
    // charged where the limiter's mode limits it.
    RequestInBursts(options.rate_limiter, chunk.size(), Env::IO_LOW,
                    RateLimiter::OpType::kRead);
    RequestInBursts(options.rate_limiter, chunk.size(), Env::IO_LOW,
                    RateLimiter::OpType::kWrite);
    Status appended = to->Append(chunk);
    if (appended.ok() && options.on_chunk) {
      appended = options.on_chunk(read);
    }
    return appended;
  });
  if (s.ok() && read < size) {
    return Status::Corruption(src, "ended " + std::to_string(size - read) +
                                       " bytes before the " +
                                       std::to_string(size) + " to copy");
  }
  if (s.ok() && options.crc32c != nullptr) *options.crc32c = crc;
  return s;
}

}  // namespace

Status CopyFileBetween(Env* src_env, const std::string& src, Env* dst_env,
                       const std::string& dst, uint64_t size,
                       const FileCopyOptions& options) {
  std::unique_ptr<SequentialFile> from;
  Status s = src_env->NewSequentialFile(src, &from, EnvOptions());
  if (!s.ok()) return s;
  std::unique_ptr<WritableFile> to;
  s = dst_env->NewWritableFile(dst, &to, EnvOptions());
  if (!s.ok()) return s;
  s = CopyBytes(from.get(), src, to.get(), size, options);
  if (s.ok() && options.sync) s = to->Sync();
  Status close = to->Close();
  if (s.ok()) s = close;
  if (!s.ok()) {
    Status ignored = dst_env->RemoveFile(dst);  // best effort: no half copy
    (void)ignored;
  }
  return s;
}

Status CopyFile(Env* env, const std::string& src, const std::string& dst,
                uint64_t size, bool sync) {
  FileCopyOptions options;
  options.sync = sync;
  return CopyFileBetween(env, src, env, dst, size, options);
}

Status FileCrc32c(Env* env, const std::string& fname, uint64_t max_bytes,
                  uint32_t* crc32c, uint64_t* bytes_read) {
  std::unique_ptr<SequentialFile> file;
  Status s = env->NewSequentialFile(fname, &file, EnvOptions());
  if (!s.ok()) return s;
  uint32_t crc = 0;
  s = ReadChunks(file.get(), max_bytes, bytes_read, [&crc](const Slice& chunk) {
    crc = crc32c::Extend(crc, chunk.data(), chunk.size());
    return Status::OK();
  });
  if (s.ok()) *crc32c = crc;
  return s;
}

void RemoveDirAndFiles(Env* env, const std::string& dir) {
  std::vector<std::string> children;
  if (env->GetChildren(dir, &children).ok()) {
    for (const std::string& child : children) {
      Status ignored = env->RemoveFile(dir + "/" + child);
      (void)ignored;
    }
  }
  Status ignored = env->RemoveDir(dir);
  (void)ignored;
}

}  // namespace strata
