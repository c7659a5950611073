// The engine's readers. They hide direct I/O from the code above: a read of
// any offset and length is widened to whole aligned pages, read into an
// aligned buffer, and the requested bytes copied out. For buffered files
// they pass the call straight through.
//
// Thread safety: SequentialFileReader is used by one thread at a time;
// RandomAccessFileReader::Read is safe from many threads (each call uses its
// own buffer).

#ifndef STRATA_ENV_FILE_READER_H_
#define STRATA_ENV_FILE_READER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "strata/env.h"
#include "strata/rate_limiter.h"

namespace strata {

class SequentialFileReader {
 public:
  SequentialFileReader(std::unique_ptr<SequentialFile> file,
                       std::string file_name);
  SequentialFileReader(const SequentialFileReader&) = delete;
  SequentialFileReader& operator=(const SequentialFileReader&) = delete;

  // Reads up to n bytes into scratch; fewer at end of file.
  Status Read(size_t n, Slice* result, char* scratch);
  Status Skip(uint64_t n);

  const std::string& file_name() const { return file_name_; }
  SequentialFile* file() const { return file_.get(); }

 private:
  std::unique_ptr<SequentialFile> file_;
  const std::string file_name_;
  const bool direct_;
  uint64_t offset_ = 0;  // direct I/O: the next byte to return
};

class RandomAccessFileReader {
 public:
  RandomAccessFileReader(std::unique_ptr<RandomAccessFile> file,
                         std::string file_name);
  RandomAccessFileReader(const RandomAccessFileReader&) = delete;
  RandomAccessFileReader& operator=(const RandomAccessFileReader&) = delete;

  // Reads up to n bytes at offset. *result points into scratch, or, for an
  // mmap file, into the mapping.
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const;

  const std::string& file_name() const { return file_name_; }
  RandomAccessFile* file() const { return file_.get(); }
  bool use_direct_io() const { return direct_; }

 private:
  std::unique_ptr<RandomAccessFile> file_;
  const std::string file_name_;
  const bool direct_;
};

// How a scan of a table (a compaction's input) reads its file: in chunks
// of at least readahead_size bytes, and each chunk first granted by
// rate_limiter when that limits reads. Neither: read as other reads are.
struct FileScanOptions {
  size_t readahead_size = 0;
  RateLimiter* rate_limiter = nullptr;  // not owned
  Env::IOPriority io_priority = Env::IO_LOW;

  bool Active() const {
    return readahead_size > 0 ||
           (rate_limiter != nullptr &&
            rate_limiter->IsRateLimited(RateLimiter::OpType::kRead));
  }
};

// A readahead buffer over one RandomAccessFileReader for one scan: a read
// it does not hold makes it read max(n, readahead_size) bytes from the
// read's offset, so that a scan's small reads (a block each) become a few
// large ones -- what the OS does by itself for buffered files, and nobody
// does for direct I/O.
//
// Thread safety: one thread at a time (the scan's).
class FilePrefetchBuffer {
 public:
  // file must outlive the buffer.
  FilePrefetchBuffer(const RandomAccessFileReader* file,
                     const FileScanOptions& options);
  FilePrefetchBuffer(const FilePrefetchBuffer&) = delete;
  FilePrefetchBuffer& operator=(const FilePrefetchBuffer&) = delete;

  // As RandomAccessFileReader::Read, except that *result always points
  // into scratch.
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch);

 private:
  Status Fill(uint64_t offset, size_t n);

  const RandomAccessFileReader* const file_;
  const FileScanOptions options_;
  std::unique_ptr<char[]> buf_;
  size_t capacity_ = 0;
  uint64_t start_ = 0;   // the file offset of buf_[0]
  size_t size_ = 0;      // bytes of the file in buf_
  bool at_end_ = false;  // buf_ holds the file up to its end
};

// Reads [offset, offset + n) of a direct-I/O file through an aligned
// bounce buffer and copies what exists into scratch.
Status AlignedRead(
    uint64_t offset, size_t n, size_t alignment, Slice* result, char* scratch,
    const std::function<Status(uint64_t, size_t, Slice*, char*)>& read_aligned);

}  // namespace strata

#endif  // STRATA_ENV_FILE_READER_H_
