#include "env/os_writable_file.h"

#include <algorithm>
#include <utility>

#include "env/io_util.h"

namespace strata {

OsWritableFile::OsWritableFile(std::string fname, NativeFile file,
                               NativeFile durable, uint64_t initial_size,
                               const EnvOptions& options, bool write_through,
                               size_t alignment)
    : filename_(std::move(fname)),
      file_(std::move(file)),
      durable_(std::move(durable)),
      use_direct_io_(options.use_direct_writes),
      write_through_(write_through),
      allow_fallocate_(options.allow_fallocate),
      alignment_(alignment),
      filesize_(initial_size),
      synced_(initial_size) {}

OsWritableFile::~OsWritableFile() {
  Status ignored = Close();
  (void)ignored;
}

Status OsWritableFile::Append(const Slice& data) {
  return PositionedAppend(data, filesize_.load(std::memory_order_relaxed));
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
  Status s = WriteAt(file_, data.data(), data.size(), offset);
  if (s.ok()) filesize_.store(offset + data.size(), std::memory_order_release);
  return s;
}

Status OsWritableFile::Truncate(uint64_t size) {
  if (!file_.is_valid()) {
    return Status::IOError(filename_, "truncate after close");
  }
  Status s = SetEndOfFile(size);
  if (s.ok()) {
    filesize_.store(size, std::memory_order_release);
    if (synced_.load(std::memory_order_relaxed) > size) {
      synced_.store(size, std::memory_order_relaxed);
    }
  }
  return s;
}

Status OsWritableFile::Close() {
  if (!file_.is_valid()) return Status::OK();
  Status s;
  if (reserved_end_ > 0) s = SetEndOfFile(GetFileSize());
  Status closed = CloseFile(&file_);
  if (durable_.is_valid()) {
    Status second = CloseFile(&durable_);
    if (closed.ok()) closed = second;
  }
  return s.ok() ? closed : s;
}

Status OsWritableFile::Sync() {
  if (write_through_) {
    // Every write returned once its data was durable.
    GetIOStats().write_through_syncs.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  if (!durable_.is_valid()) return FlushData();
  const uint64_t end = filesize_.load(std::memory_order_acquire);
  if (synced_.load(std::memory_order_acquire) >= end) {
    // All of it went through the durable handle.
    GetIOStats().write_through_syncs.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  Status s = FlushData();
  if (s.ok()) MarkSynced(end);
  return s;
}

Status OsWritableFile::AppendAndSync(const Slice& data) {
  if (!durable_.is_valid() || use_direct_io_ || !file_.is_valid()) {
    return WritableFile::AppendAndSync(data);
  }
  const uint64_t offset = filesize_.load(std::memory_order_relaxed);
  Status s;
  // What plain appends wrote before is in the OS cache only; the record
  // must not become durable without it.
  if (synced_.load(std::memory_order_acquire) < offset) {
    s = FlushData();
    if (!s.ok()) return s;
  }
  s = WriteAt(durable_, data.data(), data.size(), offset);
  if (!s.ok()) return s;
  filesize_.store(offset + data.size(), std::memory_order_release);
  MarkSynced(offset + data.size());
  GetIOStats().write_through_syncs.fetch_add(1, std::memory_order_relaxed);
  return Status::OK();
}

void OsWritableFile::MarkSynced(uint64_t end) {
  uint64_t seen = synced_.load(std::memory_order_relaxed);
  while (seen < end &&
         !synced_.compare_exchange_weak(seen, end, std::memory_order_release,
                                        std::memory_order_relaxed)) {
  }
}

Status OsWritableFile::Allocate(uint64_t offset, uint64_t len) {
  if (!allow_fallocate_) return Status::OK();
  // Already reserved or written: nothing to ask for.
  if (offset + len <= std::max(reserved_end_, GetFileSize())) {
    return Status::OK();
  }
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
