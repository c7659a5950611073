#include "env/os_writable_file.h"

#include <algorithm>
#include <utility>

#include "env/io_util.h"

namespace strata {

OsWritableFile::OsWritableFile(std::string fname, NativeFile file,
                               uint64_t initial_size, const EnvOptions& options,
                               bool write_through, size_t alignment)
    : filename_(std::move(fname)),
      file_(std::move(file)),
      use_direct_io_(options.use_direct_writes),
      write_through_(write_through),
      allow_fallocate_(options.allow_fallocate),
      alignment_(alignment),
      filesize_(initial_size) {}

OsWritableFile::~OsWritableFile() {
  Status ignored = Close();
  (void)ignored;
}

Status OsWritableFile::Append(const Slice& data) {
  return PositionedAppend(data, filesize_);
}

Status OsWritableFile::PositionedAppend(const Slice& data, uint64_t offset) {
  if (!file_.is_valid()) {
    return Status::IOError(filename_, "append after close");
  }
  if (use_direct_io_) {
    Status s = CheckDirectIOAlignment(filename_, "write", offset, data.size(),
                                      data.data(), alignment_);
    if (!s.ok()) return s;
  }
  Status s = WriteAt(data.data(), data.size(), offset);
  if (s.ok()) filesize_ = offset + data.size();
  return s;
}

Status OsWritableFile::Truncate(uint64_t size) {
  if (!file_.is_valid()) {
    return Status::IOError(filename_, "truncate after close");
  }
  Status s = SetEndOfFile(size);
  if (s.ok()) filesize_ = size;
  return s;
}

Status OsWritableFile::Close() {
  if (!file_.is_valid()) return Status::OK();
  Status s;
  if (reserved_end_ > 0) s = SetEndOfFile(filesize_);
  Status closed = CloseFile();
  return s.ok() ? closed : s;
}

Status OsWritableFile::Sync() {
  if (write_through_) {
    // Every write returned once its data was durable.
    GetIOStats().write_through_syncs.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  return FlushData();
}

Status OsWritableFile::Allocate(uint64_t offset, uint64_t len) {
  if (!allow_fallocate_) return Status::OK();
  // Already reserved or written: nothing to ask for.
  if (offset + len <= std::max(reserved_end_, filesize_)) return Status::OK();
  bool granted = false;
  Status s = Reserve(offset, len, &granted);
  if (!s.ok()) return s;
  if (granted) {
    reserved_end_ = offset + len;
    GetIOStats().preallocations.fetch_add(1, std::memory_order_relaxed);
  } else {
    GetIOStats().preallocation_refusals.fetch_add(1, std::memory_order_relaxed);
  }
  return Status::OK();
}

}  // namespace strata
