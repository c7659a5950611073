// log::Writer appends records to a write-ahead log in the block format of
// db/log_format.h (docs/formats/wal.md).
//
// AddRecord only hands bytes to the WritableFileWriter, which buffers them:
// a record is durable once the caller has called file()->Flush() (survives
// a process crash) or file()->Sync() (survives power loss). Keeping flush
// and sync out of AddRecord lets the write path issue one sync for a whole
// write group, and none when no member asked for it.
//
// The writer may start on a file that already holds a log (a reopened
// WAL): it continues the block structure at dest->GetFileSize() %
// kBlockSize.
//
// After an AddRecord fails, how much of the record reached the file is
// unknown and the block position can no longer be trusted: every later
// AddRecord returns the same error.
//
// Thread safety: one thread at a time (the write group leader).

#ifndef STRATA_DB_LOG_WRITER_H_
#define STRATA_DB_LOG_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "db/log_format.h"
#include "env/file_writer.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {
namespace log {

class Writer {
 public:
  // log_number names the log in the DB (its file number).
  Writer(std::unique_ptr<WritableFileWriter> dest, uint64_t log_number);
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  // Closes the file if Close() was not called (the status is lost).
  ~Writer();

  // Appends record (any size, empty included) as one log record.
  Status AddRecord(const Slice& record);

  // Writes the predecessor record (docs/formats/wal.md): this log follows
  // log predecessor, which is size bytes long. Only as the first thing in
  // an empty file (InvalidArgument otherwise).
  Status AddPredecessor(uint64_t predecessor, uint64_t size);

  WritableFileWriter* file() { return dest_.get(); }
  const WritableFileWriter* file() const { return dest_.get(); }
  uint64_t log_number() const { return log_number_; }

  // Flushes and closes the file.
  Status Close();

 private:
  Status EmitFragment(RecordType type, const char* data, size_t length);

  std::unique_ptr<WritableFileWriter> dest_;
  const uint64_t log_number_;
  // Where the next byte goes within the current block.
  size_t block_offset_;
  // crc32c of each type byte: a fragment's crc is extended from it.
  uint32_t type_crc_[kMaxRecordType + 1];
  // The first failure; sticky (see above).
  Status error_;
};

}  // namespace log
}  // namespace strata

#endif  // STRATA_DB_LOG_WRITER_H_
