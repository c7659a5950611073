#include "db/log_reader.h"

#include <utility>

#include "util/coding.h"
#include "util/crc32c.h"
#include "util/logging.h"

namespace strata {
namespace log {

namespace {

const char* TypeName(unsigned int type) {
  switch (type) {
    case kFullType:
      return "FULL";
    case kFirstType:
      return "FIRST";
    case kMiddleType:
      return "MIDDLE";
    case kLastType:
      return "LAST";
    case kPredecessorType:
      return "PREDECESSOR";
  }
  return "?";
}

// The offset in tail of the first intact FULL or FIRST fragment at or
// after from: its header whole, its payload inside tail, its crc valid.
// tail.size() if there is none. A torn write cannot leave one behind the
// torn fragment: the bytes there are the lost rest of its own payload.
size_t FindIntactFragment(const Slice& tail, size_t from) {
  for (size_t pos = from; pos + kHeaderSize <= tail.size(); pos++) {
    const char* header = tail.data() + pos;
    const unsigned int type = static_cast<unsigned char>(header[6]);
    if (type != kFullType && type != kFirstType) continue;
    const size_t length =
        static_cast<unsigned char>(header[4]) |
        (static_cast<size_t>(static_cast<unsigned char>(header[5])) << 8);
    if (length > tail.size() - pos - kHeaderSize) continue;
    const uint32_t expected = crc32c::Unmask(DecodeFixed32(header));
    if (crc32c::Value(header + 6, 1 + length) == expected) return pos;
  }
  return tail.size();
}

}  // namespace

Reader::Reporter::~Reporter() = default;

Reader::Reader(std::unique_ptr<SequentialFileReader> file, Reporter* reporter,
               bool checksum, uint64_t log_number)
    : file_(std::move(file)),
      reporter_(reporter),
      checksum_(checksum),
      log_number_(log_number),
      backing_store_(new char[kBlockSize]) {}

Reader::~Reader() = default;

void Reader::DropAfterDamage(Slice dropped, Fragment* f) {
  f->dropped = dropped.size();
  buffer_ = Slice();
  if (!resync_after_damage_) return;
  // From the second byte: the damaged header itself is no fragment.
  const size_t intact = FindIntactFragment(dropped, 1);
  if (intact < dropped.size()) {
    f->dropped = intact;
    buffer_ = Slice(dropped.data() + intact, dropped.size() - intact);
  }
}

void Reader::Report(size_t bytes, uint64_t offset, const std::string& reason) {
  if (reporter_ == nullptr) return;
  std::string msg = "log #";
  AppendNumberTo(&msg, log_number_);
  msg += " offset ";
  AppendNumberTo(&msg, offset);
  msg += ": ";
  msg += reason;
  reporter_->Corruption(bytes, Status::Corruption(msg));
}

bool Reader::ReadRecord(Slice* record, std::string* scratch,
                        WALRecoveryMode mode) {
  scratch->clear();
  *record = Slice();
  // A fragmented record being assembled in *scratch: where it starts and
  // where its next fragment must start (a FIRST or MIDDLE fills its block,
  // so that is the next block's first byte).
  bool in_record = false;
  uint64_t record_offset = 0;
  uint64_t next_fragment_offset = 0;
  // Drops the open record, if any, because of what happened at offset.
  auto drop_open_record = [&](uint64_t offset, const std::string& why) {
    if (!in_record) return;
    Report(scratch->size(), record_offset,
           "partial record dropped: " + why + " at offset " +
               NumberToString(offset));
    scratch->clear();
    in_record = false;
  };

  Fragment f;
  while (true) {
    ReadFragment(&f);
    switch (f.outcome) {
      case kFullType:
        drop_open_record(f.offset, "a FULL fragment starts a new record");
        scratch->clear();
        *record = f.payload;
        last_record_offset_ = f.offset;
        end_of_last_record_ = f.offset + kHeaderSize + f.payload.size();
        return true;

      case kPredecessorType:
        // Only the file's first fragment; not returned as a record.
        if (f.offset != 0) {
          drop_open_record(f.offset, "a PREDECESSOR fragment");
          Report(kHeaderSize + f.payload.size(), f.offset,
                 "PREDECESSOR fragment not at the start of the log");
        } else if (f.payload.size() != kPredecessorPayloadSize) {
          Report(kHeaderSize + f.payload.size(), f.offset,
                 "PREDECESSOR fragment of " + NumberToString(f.payload.size()) +
                     " bytes, not " + NumberToString(kPredecessorPayloadSize));
        } else {
          has_predecessor_ = true;
          predecessor_ = DecodeFixed64(f.payload.data());
          predecessor_size_ = DecodeFixed64(f.payload.data() + 8);
          end_of_last_record_ = kHeaderSize + f.payload.size();
        }
        break;

      case kFirstType:
        drop_open_record(f.offset, "a FIRST fragment starts a new record");
        scratch->assign(f.payload.data(), f.payload.size());
        in_record = true;
        record_offset = f.offset;
        next_fragment_offset = end_of_buffer_offset_ - buffer_.size();
        break;

      case kMiddleType:
      case kLastType:
        if (!in_record) {
          Report(
              kHeaderSize + f.payload.size(), f.offset,
              std::string(TypeName(f.outcome)) + " fragment without a FIRST");
          break;
        }
        if (f.offset != next_fragment_offset) {
          // The fragments in between were zeroed: the record has a hole.
          Report(scratch->size() + kHeaderSize + f.payload.size(),
                 record_offset,
                 "fragmented record broken: expected its next fragment at "
                 "offset " +
                     NumberToString(next_fragment_offset) + ", found a " +
                     TypeName(f.outcome) + " fragment at offset " +
                     NumberToString(f.offset));
          scratch->clear();
          in_record = false;
          break;
        }
        scratch->append(f.payload.data(), f.payload.size());
        next_fragment_offset = end_of_buffer_offset_ - buffer_.size();
        if (f.outcome == kLastType) {
          *record = Slice(*scratch);
          last_record_offset_ = record_offset;
          end_of_last_record_ = f.offset + kHeaderSize + f.payload.size();
          return true;
        }
        break;

      case kDamaged:
        if (in_record) {
          f.reason += " (dropping the partial record from offset " +
                      NumberToString(record_offset) + ")";
          f.dropped += scratch->size();
          scratch->clear();
          in_record = false;
        }
        Report(f.dropped, f.offset, f.reason);
        break;

      case kTornTail:
      case kEof:
        if (mode == WALRecoveryMode::kAbsoluteConsistency) {
          if (f.outcome == kTornTail) {
            Report(f.dropped + scratch->size(), f.offset, f.reason);
          } else if (in_record) {
            Report(scratch->size(), record_offset,
                   "fragmented record without its LAST fragment at the end "
                   "of the file");
          }
        }
        scratch->clear();
        return false;

      case kReadError:
        if (reporter_ != nullptr) {
          reporter_->Corruption(
              0, Status::IOError("log #" + NumberToString(log_number_) +
                                     " offset " + NumberToString(f.offset) +
                                     ": read failed",
                                 f.read_status.ToString()));
        }
        scratch->clear();
        return false;
    }
  }
}

bool Reader::ReadBlock(Fragment* f) {
  Status s = file_->Read(kBlockSize, &buffer_, backing_store_.get());
  if (!s.ok()) {
    f->outcome = kReadError;
    f->offset = end_of_buffer_offset_;
    f->read_status = std::move(s);
    buffer_ = Slice();
    eof_ = true;
    return false;
  }
  end_of_buffer_offset_ += buffer_.size();
  // Blocks are read from the start of the file, so a short read is the end.
  if (buffer_.size() < kBlockSize) eof_ = true;
  return true;
}

void Reader::ReadFragment(Fragment* f) {
  f->payload = Slice();
  f->dropped = 0;
  f->reason.clear();
  while (true) {
    if (buffer_.size() < kHeaderSize) {
      if (!eof_) {
        // A block trailer (zeros the writer left), or the start.
        if (!ReadBlock(f)) return;
        continue;
      }
      f->offset = end_of_buffer_offset_ - buffer_.size();
      if (buffer_.empty()) {
        f->outcome = kEof;
      } else {
        f->outcome = kTornTail;
        f->dropped = buffer_.size();
        f->reason = "fragment header cut short by the end of the file";
        buffer_ = Slice();
      }
      return;
    }

    const char* header = buffer_.data();
    const size_t length =
        static_cast<unsigned char>(header[4]) |
        (static_cast<size_t>(static_cast<unsigned char>(header[5])) << 8);
    const unsigned int type = static_cast<unsigned char>(header[6]);
    f->offset = end_of_buffer_offset_ - buffer_.size();

    if (type == kZeroType && length == 0) {
      // Rule b: zeroed space. The crc is not looked at, so a header torn
      // over preallocated zeros ends the block the same way.
      buffer_ = Slice();
      continue;
    }

    if (kHeaderSize + length > buffer_.size()) {
      const Slice tail = buffer_;  // eof_: it runs to the end of the file
      f->dropped = buffer_.size();
      buffer_ = Slice();
      const size_t in_block = static_cast<size_t>(f->offset % kBlockSize);
      if (eof_ && in_block + kHeaderSize + length <= kBlockSize) {
        // It would have fitted in its block: the file ends inside it —
        // unless a whole fragment follows, which no torn write leaves.
        const size_t intact = check_torn_tails_
                                  ? FindIntactFragment(tail, kHeaderSize)
                                  : tail.size();
        if (intact == tail.size()) {
          f->outcome = kTornTail;
          f->reason = "fragment payload cut short by the end of the file";
        } else {
          f->outcome = kDamaged;
          f->reason = "fragment length " + NumberToString(length) +
                      " runs past the end of the file, but an intact "
                      "fragment follows at offset " +
                      NumberToString(f->offset + intact) +
                      ": damage, not a torn tail";
          DropAfterDamage(tail, f);
        }
      } else {
        f->outcome = kDamaged;
        f->reason = "bad fragment length " + NumberToString(length) +
                    ", past the end of its block";
        DropAfterDamage(tail, f);
      }
      return;
    }

    if (checksum_) {
      const uint32_t expected = crc32c::Unmask(DecodeFixed32(header));
      const uint32_t actual = crc32c::Value(header + 6, 1 + length);
      if (actual != expected) {
        // The length may be what is damaged: nothing more in this block
        // can be trusted to start where it claims to (but an intact
        // fragment found in it, with ResyncAfterDamage, can).
        f->outcome = kDamaged;
        f->reason = "checksum mismatch";
        DropAfterDamage(buffer_, f);
        return;
      }
    }

    buffer_.remove_prefix(kHeaderSize + length);
    if (type == kZeroType || type > kMaxRecordType) {
      f->outcome = kDamaged;
      f->dropped = kHeaderSize + length;
      f->reason = "unknown fragment type " + NumberToString(type);
      return;
    }
    f->outcome = type;
    f->payload = Slice(header + kHeaderSize, length);
    return;
  }
}

}  // namespace log
}  // namespace strata
