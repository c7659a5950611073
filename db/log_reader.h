// log::Reader reads the records of a write-ahead log (db/log_format.h,
// docs/formats/wal.md) back, for recovery.
//
// The contract recovery builds on:
//   a. A torn tail — a fragment whose header or payload is cut short by the
//      end of the file, or a FIRST/MIDDLE run without its LAST before the
//      end — ends the reading. With WALRecoveryMode::kAbsoluteConsistency
//      it is reported to the Reporter; in every other mode it is not.
//   b. A header of type 0 and length 0 (preallocated or mmap-padded space)
//      ends its block silently.
//   c. Every other damage (checksum mismatch, a length running past the
//      block, an unknown type, a MIDDLE/LAST without FIRST, a FIRST/FULL
//      while a fragmented record is open, a fragmented record whose
//      fragments do not follow one another, a PREDECESSOR fragment past
//      offset 0 or of the wrong size) is always reported, as
//      Corruption "log #<n> offset <o>: <reason>"; the damaged bytes (and
//      any partial record they belong to) are dropped and reading goes on.
//   d. A read error from the file is reported with its IOError and ends the
//      reading.
// With CheckTornTails() on (the MANIFEST reader), rule a has one exception:
// a fragment whose payload the end of the file cuts short, while an intact
// FULL or FIRST fragment (its crc valid, its payload before the end of the
// file) begins after its header, is damage under rule c ("... length N
// runs past the end of the file, but an intact fragment follows at offset
// X"): a crash tears only the last write, so a damaged length, not a
// crash, made the file look cut short. WAL recovery turns it on too.
// With ResyncAfterDamage() on (the scan point-in-time recovery makes for
// intact records after damage), damage that drops the rest of a block
// under rule c (a checksum mismatch, a length past the block, the torn
// tail above) drops bytes only up to the first intact FULL or FIRST
// fragment in them, and reading goes on there: a record in the same block
// as the damage is found too.
// What to do about a report — fail, stop, or skip — is the caller's
// decision for its WALRecoveryMode, not the reader's.
//
// The reader never reads outside the bytes it got from the file, and a
// record is assembled in scratch from bytes actually read: a hostile file
// cannot make it allocate more than the file's size.
//
// Thread safety: one thread at a time.

#ifndef STRATA_DB_LOG_READER_H_
#define STRATA_DB_LOG_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "db/log_format.h"
#include "env/file_reader.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {
namespace log {

class Reader {
 public:
  // Told about damage found while reading.
  class Reporter {
   public:
    virtual ~Reporter();
    // bytes were dropped because of status: a Corruption, or the IOError
    // of a failed read (then bytes is 0).
    virtual void Corruption(size_t bytes, const Status& status) = 0;
  };
  // A Reporter that keeps the first status reported (OK while none is).
  class FirstReporter final : public Reporter {
   public:
    void Corruption(size_t, const Status& status) override {
      if (first_.ok()) first_ = status;
    }
    const Status& first() const { return first_; }

   private:
    Status first_;
  };

  // Reads file from its start. reporter (may be null: nothing is reported)
  // must outlive the reader. checksum=false skips the crc checks. The
  // log_number is used in messages only.
  Reader(std::unique_ptr<SequentialFileReader> file, Reporter* reporter,
         bool checksum, uint64_t log_number);
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  ~Reader();

  // Reads the next whole record into *record: true, or false at the end of
  // the log. *record points into *scratch or into the reader's buffer, and
  // stays valid until the next call. mode decides only whether a torn tail
  // is reported (rule a above).
  bool ReadRecord(Slice* record, std::string* scratch, WALRecoveryMode mode);

  // Turns on the check of torn tails described above. Costs nothing until
  // a torn tail is met; then at most one scan of the last block.
  void CheckTornTails() { check_torn_tails_ = true; }

  // Turns on the resynchronization after damage described above. Costs
  // nothing until damage is met; then at most one scan of its block.
  void ResyncAfterDamage() { resync_after_damage_ = true; }

  // The file offset of the first fragment of the record ReadRecord last
  // returned.
  uint64_t LastRecordOffset() const { return last_record_offset_; }
  // The file offset just past the last record read whole: the one
  // ReadRecord last returned, or the predecessor record. 0 before any.
  uint64_t EndOfLastRecord() const { return end_of_last_record_; }

  // The log's predecessor record (docs/formats/wal.md), read with the
  // first ReadRecord call: true, with the log it follows and that log's
  // length in bytes; false when the log has none. A PREDECESSOR fragment
  // anywhere but at offset 0, or of the wrong size, is damage (rule c).
  bool Predecessor(uint64_t* number, uint64_t* size) const {
    *number = predecessor_;
    *size = predecessor_size_;
    return has_predecessor_;
  }

  uint64_t log_number() const { return log_number_; }
  SequentialFileReader* file() { return file_.get(); }

 private:
  // What ReadFragment found: a fragment of a RecordType, or one of these.
  enum Outcome : unsigned int {
    kEof = kMaxRecordType + 1,  // the clean end of the file
    kTornTail,                  // rule a; reading ends
    kDamaged,                   // rule c; bytes dropped, reading goes on
    kReadError,                 // rule d
  };

  struct Fragment {
    unsigned int outcome = kEof;
    uint64_t offset = 0;  // of the header in the file
    Slice payload;
    size_t dropped = 0;  // kTornTail, kDamaged: bytes given up
    std::string reason;  // kTornTail, kDamaged, kReadError
    Status read_status;  // kReadError
  };

  // The next fragment, skipping block trailers and zeroed space (rule b).
  void ReadFragment(Fragment* fragment);
  // Reads the next block into buffer_; false (fragment filled in) on a read
  // error.
  bool ReadBlock(Fragment* fragment);
  // Damage at the start of dropped (the rest of the block): with
  // ResyncAfterDamage on and an intact fragment in dropped, reading
  // resumes there and fragment->dropped is what lies before it. Else the
  // whole of dropped is given up.
  void DropAfterDamage(Slice dropped, Fragment* fragment);
  // Reports bytes dropped because of reason, found at offset.
  void Report(size_t bytes, uint64_t offset, const std::string& reason);

  const std::unique_ptr<SequentialFileReader> file_;
  Reporter* const reporter_;
  const bool checksum_;
  const uint64_t log_number_;
  bool check_torn_tails_ = false;
  bool resync_after_damage_ = false;
  const std::unique_ptr<char[]> backing_store_;  // kBlockSize bytes
  // The unread bytes of the current block.
  Slice buffer_;
  // The last read returned less than a block: buffer_ ends the file.
  bool eof_ = false;
  // The file offset just past buffer_.
  uint64_t end_of_buffer_offset_ = 0;
  uint64_t last_record_offset_ = 0;
  uint64_t end_of_last_record_ = 0;
  bool has_predecessor_ = false;
  uint64_t predecessor_ = 0;
  uint64_t predecessor_size_ = 0;
};

}  // namespace log
}  // namespace strata

#endif  // STRATA_DB_LOG_READER_H_
