#include "env/file_reader.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "env/io_util.h"
#include "util/aligned_buffer.h"

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

}  // namespace strata
