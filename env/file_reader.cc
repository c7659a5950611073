#include "env/file_reader.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "env/io_util.h"
#include "util/aligned_buffer.h"
#include "util/rate_limiter.h"

namespace strata {

Status AlignedRead(uint64_t offset, size_t n, size_t alignment, Slice* result,
                   char* scratch,
                   const std::function<Status(uint64_t, size_t, Slice*, char*)>&
                       read_aligned) {
  const uint64_t start = TruncateToAlignment(offset, alignment);
  const uint64_t end = RoundUpToAlignment(offset + n, alignment);
  const size_t span = static_cast<size_t>(end - start);
  AlignedBuffer buf;
  buf.Alignment(alignment);
  buf.AllocateNewBuffer(span);
  Slice got;
  Status s = read_aligned(start, span, &got, buf.BufferStart());
  *result = Slice(scratch, 0);
  if (!s.ok()) return s;
  const size_t skip = static_cast<size_t>(offset - start);
  if (got.size() <= skip) return Status::OK();  // offset at or past the end
  const size_t count = std::min(n, got.size() - skip);
  std::memcpy(scratch, got.data() + skip, count);
  *result = Slice(scratch, count);
  return Status::OK();
}

SequentialFileReader::SequentialFileReader(std::unique_ptr<SequentialFile> file,
                                           std::string file_name)
    : file_(std::move(file)),
      file_name_(std::move(file_name)),
      direct_(file_->use_direct_io()) {}

Status SequentialFileReader::Read(size_t n, Slice* result, char* scratch) {
  if (!direct_) return file_->Read(n, result, scratch);
  SequentialFile* f = file_.get();
  Status s =
      AlignedRead(offset_, n, f->GetRequiredBufferAlignment(), result, scratch,
                  [f](uint64_t off, size_t len, Slice* r, char* buf) {
                    return f->PositionedRead(off, len, r, buf);
                  });
  if (s.ok()) offset_ += result->size();
  return s;
}

Status SequentialFileReader::Skip(uint64_t n) {
  if (!direct_) return file_->Skip(n);
  offset_ += n;
  return Status::OK();
}

RandomAccessFileReader::RandomAccessFileReader(
    std::unique_ptr<RandomAccessFile> file, std::string file_name)
    : file_(std::move(file)),
      file_name_(std::move(file_name)),
      direct_(file_->use_direct_io()) {}

Status RandomAccessFileReader::Read(uint64_t offset, size_t n, Slice* result,
                                    char* scratch) const {
  if (!direct_) return file_->Read(offset, n, result, scratch);
  RandomAccessFile* f = file_.get();
  return AlignedRead(offset, n, f->GetRequiredBufferAlignment(), result,
                     scratch,
                     [f](uint64_t off, size_t len, Slice* r, char* buf) {
                       return f->Read(off, len, r, buf);
                     });
}

FilePrefetchBuffer::FilePrefetchBuffer(const RandomAccessFileReader* file,
                                       const FileScanOptions& options)
    : file_(file), options_(options) {}

Status FilePrefetchBuffer::Fill(uint64_t offset, size_t n) {
  const size_t want = std::max(n, options_.readahead_size);
  if (want > capacity_) {
    buf_.reset(new char[want]);
    capacity_ = want;
  }
  RequestInBursts(options_.rate_limiter, want, options_.io_priority,
                  RateLimiter::OpType::kRead);
  size_ = 0;
  at_end_ = false;
  Slice got;
  Status s = file_->Read(offset, want, &got, buf_.get());
  if (!s.ok()) return s;
  // An mmap file answers with a pointer into its mapping.
  if (got.data() != buf_.get())
    std::memmove(buf_.get(), got.data(), got.size());
  start_ = offset;
  size_ = got.size();
  // Short: the buffer reaches the end of the file.
  at_end_ = size_ < want;
  return Status::OK();
}

Status FilePrefetchBuffer::Read(uint64_t offset, size_t n, Slice* result,
                                char* scratch) {
  // What lies past the end of a buffer that reaches the end of the file
  // is not read again.
  const bool held = offset >= start_ && (offset + n <= start_ + size_ ||
                                         (at_end_ && offset <= start_ + size_));
  if (!held) {
    Status s = Fill(offset, n);
    if (!s.ok()) return s;
  }
  // Fewer bytes than asked only at the end of the file.
  const size_t skip = static_cast<size_t>(offset - start_);
  const size_t got = skip < size_ ? std::min(n, size_ - skip) : 0;
  if (got > 0) std::memcpy(scratch, buf_.get() + skip, got);
  *result = Slice(scratch, got);
  return Status::OK();
}

}  // namespace strata
