#include "env/file_writer.h"

#include <algorithm>
#include <utility>

#include "env/io_util.h"
#include "util/rate_limiter.h"

namespace strata {

namespace {
constexpr size_t kInitialBufferSize = 64 * 1024;
}  // namespace

WritableFileWriter::WritableFileWriter(std::unique_ptr<WritableFile> file,
                                       std::string file_name,
                                       const EnvOptions& options)
    : file_(std::move(file)),
      file_name_(std::move(file_name)),
      direct_(file_->use_direct_io()),
      bytes_per_sync_(options.bytes_per_sync),
      max_buffer_size_(std::max<size_t>(options.writable_file_max_buffer_size,
                                        file_->GetRequiredBufferAlignment())) {
  buf_.Alignment(direct_ ? file_->GetRequiredBufferAlignment() : 1);
  buf_.AllocateNewBuffer(std::min(kInitialBufferSize, max_buffer_size_));
  // A reopened file continues after its current end.
  filesize_ = file_->GetFileSize();
  flushed_size_ = filesize_;
  last_range_sync_ = filesize_;
  if (direct_) {
    // Start at the page holding the end of the file; its partial contents
    // cannot be read back here, so a direct writer only appends to files
    // whose size is page-aligned (new files always are).
    next_write_offset_ = filesize_;
  }
}

WritableFileWriter::~WritableFileWriter() {
  if (!closed_) {
    Status ignored = Close();
    (void)ignored;
  }
}

Status WritableFileWriter::Append(const Slice& data) {
  if (closed_) return Status::IOError(file_name_, "append after close");
  if (direct_ && !IsAligned(next_write_offset_, buf_.Alignment())) {
    return Status::InvalidArgument(
        file_name_, "direct I/O append to a file whose size is not aligned");
  }
  const char* src = data.data();
  size_t left = data.size();
  file_->PrepareWrite(static_cast<size_t>(filesize_), left);

  // Grow the buffer toward the maximum before writing anything out.
  if (buf_.Capacity() - buf_.CurrentSize() < left &&
      buf_.Capacity() < max_buffer_size_) {
    size_t desired = buf_.Capacity();
    while (desired < buf_.CurrentSize() + left && desired < max_buffer_size_) {
      desired *= 2;
    }
    buf_.AllocateNewBuffer(std::min(desired, max_buffer_size_),
                           /*copy_data=*/true);
  }

  Status s;
  if (!direct_ && left >= buf_.Capacity()) {
    // Larger than the whole buffer: write it straight through.
    s = WriteBuffered();
    if (s.ok()) {
      RequestBytes(data.size());
      s = file_->Append(data);
    }
    if (s.ok()) {
      filesize_ += left;
      flushed_size_ = filesize_;
      s = MaybeRangeSync();
    }
    return s;
  }
  while (left > 0) {
    const size_t taken = buf_.Append(src, left);
    src += taken;
    left -= taken;
    filesize_ += taken;
    if (left > 0) {
      s = direct_ ? WriteDirect() : WriteBuffered();
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

Status WritableFileWriter::WriteBuffered() {
  if (buf_.CurrentSize() == 0) return Status::OK();
  RequestBytes(buf_.CurrentSize());
  Status s = file_->Append(Slice(buf_.BufferStart(), buf_.CurrentSize()));
  if (!s.ok()) return s;
  flushed_size_ += buf_.CurrentSize();
  buf_.Size(0);
  return MaybeRangeSync();
}

Status WritableFileWriter::WriteDirect() {
  const size_t data_size = buf_.CurrentSize();
  // Nothing appended since the last write (the buffer may still hold the
  // partial page already on disk).
  if (filesize_ == flushed_size_) return Status::OK();
  const size_t whole_pages = buf_.TruncateToAlignment(data_size);
  const size_t tail = data_size - whole_pages;
  // The partial last page goes out padded with zeros; Close trims them.
  buf_.PadToAlignment();
  RequestBytes(buf_.CurrentSize());
  Status s = file_->PositionedAppend(
      Slice(buf_.BufferStart(), buf_.CurrentSize()), next_write_offset_);
  if (!s.ok()) {
    buf_.Size(data_size);
    return s;
  }
  // Keep the partial page: the next write rewrites it at the same offset.
  buf_.RefitTail(whole_pages, tail);
  next_write_offset_ += whole_pages;
  flushed_size_ = next_write_offset_ + tail;
  return MaybeRangeSync();
}

void WritableFileWriter::RequestBytes(size_t n) {
  RequestInBursts(rate_limiter_, n, io_priority_, RateLimiter::OpType::kWrite);
}

Status WritableFileWriter::MaybeRangeSync() {
  if (bytes_per_sync_ == 0 || direct_) return Status::OK();
  if (flushed_size_ - last_range_sync_ < bytes_per_sync_) return Status::OK();
  // Leave the last page alone: it may still change.
  const uint64_t end = flushed_size_ & ~uint64_t{4095};
  if (end <= last_range_sync_) return Status::OK();
  Status s = file_->RangeSync(last_range_sync_, end - last_range_sync_);
  if (s.ok()) last_range_sync_ = end;
  return s;
}

Status WritableFileWriter::Flush() {
  if (closed_) return Status::IOError(file_name_, "flush after close");
  Status s = direct_ ? WriteDirect() : WriteBuffered();
  if (s.ok()) s = file_->Flush();
  return s;
}

Status WritableFileWriter::Sync(bool use_fsync) {
  if (closed_) return Status::IOError(file_name_, "sync after close");
  if (!direct_ && !use_fsync && buf_.CurrentSize() > 0) {
    // The buffered bytes and the sync in one call: a write-through file
    // makes that a single durable write.
    // The buffer is the file's from here, even if the call fails: whether
    // its bytes reached the file, in whole or in part, is then unknown, and
    // writing them again could repeat them (as a failed Sync after a
    // successful Flush leaves them written once).
    RequestBytes(buf_.CurrentSize());
    Status s =
        file_->AppendAndSync(Slice(buf_.BufferStart(), buf_.CurrentSize()));
    flushed_size_ += buf_.CurrentSize();
    buf_.Size(0);
    return s;
  }
  Status s = Flush();
  if (!s.ok()) return s;
  return use_fsync ? file_->Fsync() : file_->Sync();
}

Status WritableFileWriter::Abandon() {
  if (closed_) return Status::OK();
  buf_.Size(0);
  filesize_ = flushed_size_;
  closed_ = true;
  return file_->Close();
}

Status WritableFileWriter::Close() {
  if (closed_) return Status::OK();
  Status s = Flush();
  // Drop the zero padding of the last page: the file ends where the data
  // does.
  if (s.ok() && direct_) s = file_->Truncate(filesize_);
  Status close = file_->Close();
  if (s.ok()) s = close;
  closed_ = true;
  return s;
}

}  // namespace strata
