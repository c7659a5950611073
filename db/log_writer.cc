#include "db/log_writer.h"

#include <utility>

#include "util/coding.h"
#include "util/crc32c.h"
#include "util/logging.h"

namespace strata {
namespace log {

namespace {
// A zero trailer is at most kHeaderSize - 1 bytes.
constexpr char kZeros[kHeaderSize] = {0, 0, 0, 0, 0, 0, 0};
}  // namespace

Writer::Writer(std::unique_ptr<WritableFileWriter> dest, uint64_t log_number)
    : dest_(std::move(dest)),
      log_number_(log_number),
      block_offset_(static_cast<size_t>(dest_->GetFileSize() % kBlockSize)) {
  for (unsigned char t = 0; t <= kMaxRecordType; t++) {
    const char type_byte = static_cast<char>(t);
    type_crc_[t] = crc32c::Value(&type_byte, 1);
  }
}

Writer::~Writer() = default;

Status Writer::AddRecord(const Slice& record) {
  if (!error_.ok()) return error_;
  const char* data = record.data();
  size_t left = record.size();
  bool first = true;
  // An empty record is one empty kFullType fragment, hence do-while.
  do {
    const size_t room = kBlockSize - block_offset_;
    if (room < kHeaderSize) {
      if (room > 0) error_ = dest_->Append(Slice(kZeros, room));
      if (!error_.ok()) return error_;
      block_offset_ = 0;
    }
    const size_t avail = kBlockSize - block_offset_ - kHeaderSize;
    const size_t length = left < avail ? left : avail;
    const bool last = (length == left);
    RecordType type;
    if (first && last) {
      type = kFullType;
    } else if (first) {
      type = kFirstType;
    } else if (last) {
      type = kLastType;
    } else {
      type = kMiddleType;
    }
    error_ = EmitFragment(type, data, length);
    if (!error_.ok()) return error_;
    data += length;
    left -= length;
    first = false;
  } while (left > 0);
  return Status::OK();
}

Status Writer::AddPredecessor(uint64_t predecessor, uint64_t size) {
  if (!error_.ok()) return error_;
  if (dest_->GetFileSize() != 0) {
    return Status::InvalidArgument(
        "log #" + NumberToString(log_number_) +
        ": a predecessor record must be the first record of its log");
  }
  char payload[kPredecessorPayloadSize];
  EncodeFixed64(payload, predecessor);
  EncodeFixed64(payload + 8, size);
  error_ = EmitFragment(kPredecessorType, payload, sizeof(payload));
  return error_;
}

Status Writer::EmitFragment(RecordType type, const char* data, size_t length) {
  // length <= kBlockSize - kHeaderSize, so it fits in two bytes.
  char header[kHeaderSize];
  header[4] = static_cast<char>(length & 0xff);
  header[5] = static_cast<char>(length >> 8);
  header[6] = static_cast<char>(type);
  const uint32_t crc = crc32c::Extend(type_crc_[type], data, length);
  EncodeFixed32(header, crc32c::Mask(crc));
  Status s = dest_->Append(Slice(header, kHeaderSize));
  if (s.ok()) s = dest_->Append(Slice(data, length));
  block_offset_ += kHeaderSize + length;
  return s;
}

Status Writer::Close() {
  Status s = dest_->Close();
  if (error_.ok() && !s.ok()) error_ = s;
  return s;
}

}  // namespace log
}  // namespace strata
