// WritableFileWriter: the engine's way of writing a file. It buffers small
// appends into large writes and, for a file opened for direct I/O, turns a
// byte stream into the aligned whole-page transfers the OS demands:
//
//   * the buffer is aligned (address) and sized in whole pages;
//   * Flush writes every buffered page, the last one padded with zeros;
//   * the partial last page stays in the buffer and is written again, now
//     longer, at the same offset by the next Flush;
//   * Close trims the file from its padded size to the bytes appended.
//
// Preallocation (WritableFile::PrepareWrite) runs before each write, and
// with EnvOptions::bytes_per_sync the OS is asked to start write-back
// every that many bytes. With a rate limiter (SetRateLimiter: the tables of
// flushes and compactions), every write to the file first asks it for its
// bytes, a burst at a time.
//
// Thread safety: an instance is used by one thread at a time.

#ifndef STRATA_ENV_FILE_WRITER_H_
#define STRATA_ENV_FILE_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "strata/env.h"
#include "strata/rate_limiter.h"
#include "util/aligned_buffer.h"

namespace strata {

class WritableFileWriter {
 public:
  WritableFileWriter(std::unique_ptr<WritableFile> file, std::string file_name,
                     const EnvOptions& options);
  WritableFileWriter(const WritableFileWriter&) = delete;
  WritableFileWriter& operator=(const WritableFileWriter&) = delete;
  // Closes the file if Close() was not called (its status is lost).
  ~WritableFileWriter();

  Status Append(const Slice& data);
  // Hands everything appended so far to the OS.
  Status Flush();
  // Flush, then make durable (Fsync with use_fsync, else Sync). Without
  // use_fsync, bytes still buffered go to the file with the sync in one
  // WritableFile::AppendAndSync.
  Status Sync(bool use_fsync);
  // Flush, trim a direct-I/O file to its logical size, close.
  Status Close();
  // Closes the file as it is, dropping what is buffered: for a file whose
  // write failed, where writing the buffer again could repeat bytes the
  // failed write already put in the file. The writer is closed after it.
  Status Abandon();

  // Bytes appended so far: the file's size once flushed.
  uint64_t GetFileSize() const { return filesize_; }
  const std::string& file_name() const { return file_name_; }
  WritableFile* writable_file() const { return file_.get(); }
  bool use_direct_io() const { return direct_; }
  // Writes from now on wait for limiter (null: none) at priority pri.
  // limiter must outlive the writer.
  void SetRateLimiter(RateLimiter* limiter, Env::IOPriority pri) {
    rate_limiter_ = limiter;
    io_priority_ = pri;
  }

 private:
  // Writes the buffer with Append (buffered files).
  Status WriteBuffered();
  // Writes the buffer as whole pages at next_write_offset_, keeping a
  // partial last page in the buffer (direct files).
  Status WriteDirect();
  Status MaybeRangeSync();
  // Waits until the rate limiter, if any, grants n bytes.
  void RequestBytes(size_t n);

  std::unique_ptr<WritableFile> file_;
  const std::string file_name_;
  const bool direct_;
  const uint64_t bytes_per_sync_;
  const size_t max_buffer_size_;
  AlignedBuffer buf_;
  uint64_t filesize_ = 0;
  // Direct I/O: the file offset of buf_'s first byte (page-aligned).
  uint64_t next_write_offset_ = 0;
  // Bytes handed to the file and the end of the last RangeSync.
  uint64_t flushed_size_ = 0;
  uint64_t last_range_sync_ = 0;
  bool closed_ = false;
  RateLimiter* rate_limiter_ = nullptr;
  Env::IOPriority io_priority_ = Env::IO_TOTAL;
};

}  // namespace strata

#endif  // STRATA_ENV_FILE_WRITER_H_
