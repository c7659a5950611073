#include "env/file_copy.h"

#include <algorithm>
#include <memory>

#include "strata/env.h"

namespace strata {

namespace {

Status CopyBytes(SequentialFile* from, const std::string& src, WritableFile* to,
                 uint64_t size) {
  constexpr size_t kBufferSize = 256 * 1024;
  std::unique_ptr<char[]> buffer(new char[kBufferSize]);
  uint64_t left = size;
  while (left > 0) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(left, kBufferSize));
    Slice chunk;
    Status s = from->Read(n, &chunk, buffer.get());
    if (!s.ok()) return s;
    if (chunk.empty()) {
      return Status::Corruption(src, "ended " + std::to_string(left) +
                                         " bytes before the " +
                                         std::to_string(size) + " to copy");
    }
    s = to->Append(chunk);
    if (!s.ok()) return s;
    left -= chunk.size();
  }
  return Status::OK();
}

}  // namespace

Status CopyFile(Env* env, const std::string& src, const std::string& dst,
                uint64_t size, bool sync) {
  std::unique_ptr<SequentialFile> from;
  Status s = env->NewSequentialFile(src, &from, EnvOptions());
  if (!s.ok()) return s;
  std::unique_ptr<WritableFile> to;
  s = env->NewWritableFile(dst, &to, EnvOptions());
  if (!s.ok()) return s;
  s = CopyBytes(from.get(), src, to.get(), size);
  if (s.ok() && sync) s = to->Sync();
  Status close = to->Close();
  if (s.ok()) s = close;
  if (!s.ok()) {
    Status ignored = env->RemoveFile(dst);  // best effort: no half copy
    (void)ignored;
  }
  return s;
}

}  // namespace strata
