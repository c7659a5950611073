// WriteBatch encoding (docs/formats/write_batch.md):
//
//   +------------------+---------------+----------+-----+----------+
//   | fixed64 sequence | fixed32 count | record 1 | ... | record n |
//   +------------------+---------------+----------+-----+----------+
//
//   record :=  kTypeValue           varstring key  varstring value
//           |  kTypeDeletion        varstring key
//           |  kTypeSingleDeletion  varstring key
//           |  kTypeRangeDeletion   varstring begin_key  varstring end_key
//           |  kTypeMerge           varstring key  varstring value
//           |  kTypeLogData         varstring blob          (not counted)
//   varstring := varint32 length, then length bytes
//
// The tag is one byte, the ValueType of db/dbformat.h. rep_ always holds at
// least the header, so Count() and the internal accessors never check.

#include "strata/write_batch.h"

#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "db/write_batch_internal.h"
#include "util/coding.h"
#include "util/logging.h"

namespace strata {

namespace {

constexpr size_t kHeader = WriteBatchInternal::kHeader;

bool IsCounted(char tag) { return tag != static_cast<char>(kTypeLogData); }

// Appends a record (tag, then each part as a varstring) to rep, or fails
// without touching rep if the record cannot be encoded.
Status AppendRecord(std::string* rep, ValueType tag,
                    std::initializer_list<Slice> parts) {
  for (const Slice& part : parts) {
    if (part.size() > std::numeric_limits<uint32_t>::max()) {
      return Status::InvalidArgument(
          "WriteBatch key or value larger than 4 GiB: ",
          NumberToString(part.size()));
    }
  }
  if (IsCounted(static_cast<char>(tag)) &&
      DecodeFixed32(rep->data() + 8) == std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("WriteBatch holds 2^32-1 updates already");
  }
  rep->push_back(static_cast<char>(tag));
  for (const Slice& part : parts) PutLengthPrefixedSlice(rep, part);
  return Status::OK();
}

// One decoded record; for LogData the blob is in a, for DeleteRange the
// begin and end keys are in a and b.
struct Record {
  char tag = 0;
  Slice a;
  Slice b;
};

Status RecordCorruption(size_t offset, const char* problem,
                        const std::string& detail = std::string()) {
  std::string msg = "WriteBatch record at offset ";
  AppendNumberTo(&msg, offset);
  msg += ": ";
  msg += problem;
  msg += detail;
  return Status::Corruption(msg);
}

// Decodes the record at the front of *input, offset bytes into the batch.
// Never reads outside *input.
Status DecodeRecord(size_t offset, Slice* input, Record* record) {
  record->tag = (*input)[0];
  input->remove_prefix(1);
  int parts = 0;
  switch (static_cast<unsigned char>(record->tag)) {
    case kTypeValue:
    case kTypeMerge:
    case kTypeRangeDeletion:
      parts = 2;
      break;
    case kTypeDeletion:
    case kTypeSingleDeletion:
    case kTypeLogData:
      parts = 1;
      break;
    default: {
      std::string tag = "0x";
      const char* const kHex = "0123456789abcdef";
      tag += kHex[static_cast<unsigned char>(record->tag) >> 4];
      tag += kHex[static_cast<unsigned char>(record->tag) & 0xf];
      return RecordCorruption(offset, "unknown tag ", tag);
    }
  }
  if (!GetLengthPrefixedSlice(input, &record->a)) {
    return RecordCorruption(offset, parts == 2 ? "truncated or malformed key"
                                               : "truncated or malformed body");
  }
  if (parts == 2 && !GetLengthPrefixedSlice(input, &record->b)) {
    return RecordCorruption(offset, "truncated or malformed value");
  }
  return Status::OK();
}

Status UnsupportedColumnFamily(uint32_t column_family_id) {
  return Status::InvalidArgument("column family " +
                                 NumberToString(column_family_id) +
                                 " not supported by this WriteBatch::Handler");
}

// Accepts every record, so that Iterate only checks the encoding.
class ValidatingHandler : public WriteBatch::Handler {
 public:
  Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
};

}  // namespace

// ---- WriteBatch -------------------------------------------------------------

WriteBatch::WriteBatch(size_t reserved_bytes, size_t max_bytes)
    : max_bytes_(max_bytes) {
  rep_.reserve(reserved_bytes > kHeader ? reserved_bytes : kHeader);
  rep_.resize(kHeader);
}

WriteBatch::WriteBatch(const WriteBatch&) = default;
WriteBatch& WriteBatch::operator=(const WriteBatch&) = default;

// A moved-from batch is left empty (12 bytes fit in every std::string's
// inline buffer, so this does not allocate).
WriteBatch::WriteBatch(WriteBatch&& other) noexcept
    : rep_(std::move(other.rep_)),
      max_bytes_(other.max_bytes_),
      content_flags_(other.content_flags_) {
  other.Clear();
}

WriteBatch& WriteBatch::operator=(WriteBatch&& other) noexcept {
  if (this != &other) {
    rep_ = std::move(other.rep_);
    max_bytes_ = other.max_bytes_;
    content_flags_ = other.content_flags_;
    other.Clear();
  }
  return *this;
}

WriteBatch::~WriteBatch() = default;

uint32_t WriteBatch::ContentFlagOf(char tag) {
  switch (static_cast<unsigned char>(tag)) {
    case kTypeMerge:
      return kHasMerge;
    case kTypeRangeDeletion:
      return kHasDeleteRange;
    default:
      return 0;
  }
}

// Admits the record appended at old_size: counts it, or, if it took the
// batch past max_bytes_, removes it again.
Status WriteBatch::CheckSize(size_t old_size) {
  if (max_bytes_ != 0 && rep_.size() > max_bytes_) {
    const size_t wanted = rep_.size();
    rep_.resize(old_size);
    return Status::InvalidArgument("WriteBatch would exceed its max_bytes (" +
                                   NumberToString(wanted) + " > " +
                                   NumberToString(max_bytes_) + ")");
  }
  if (IsCounted(rep_[old_size])) {
    WriteBatchInternal::SetCount(this, Count() + 1);
  }
  content_flags_ |= ContentFlagOf(rep_[old_size]);
  return Status::OK();
}

Status WriteBatch::Put(const Slice& key, const Slice& value) {
  const size_t old_size = rep_.size();
  Status s = AppendRecord(&rep_, kTypeValue, {key, value});
  return s.ok() ? CheckSize(old_size) : s;
}

Status WriteBatch::Delete(const Slice& key) {
  const size_t old_size = rep_.size();
  Status s = AppendRecord(&rep_, kTypeDeletion, {key});
  return s.ok() ? CheckSize(old_size) : s;
}

Status WriteBatch::SingleDelete(const Slice& key) {
  const size_t old_size = rep_.size();
  Status s = AppendRecord(&rep_, kTypeSingleDeletion, {key});
  return s.ok() ? CheckSize(old_size) : s;
}

Status WriteBatch::DeleteRange(const Slice& begin_key, const Slice& end_key) {
  const size_t old_size = rep_.size();
  Status s = AppendRecord(&rep_, kTypeRangeDeletion, {begin_key, end_key});
  return s.ok() ? CheckSize(old_size) : s;
}

Status WriteBatch::Merge(const Slice& key, const Slice& value) {
  const size_t old_size = rep_.size();
  Status s = AppendRecord(&rep_, kTypeMerge, {key, value});
  return s.ok() ? CheckSize(old_size) : s;
}

Status WriteBatch::PutLogData(const Slice& blob) {
  const size_t old_size = rep_.size();
  Status s = AppendRecord(&rep_, kTypeLogData, {blob});
  return s.ok() ? CheckSize(old_size) : s;
}

void WriteBatch::Clear() {
  rep_.assign(kHeader, '\0');
  content_flags_ = 0;
}

uint32_t WriteBatch::Count() const { return WriteBatchInternal::Count(this); }

Status WriteBatch::Iterate(Handler* handler) const {
  if (rep_.size() < kHeader) {
    // Constructors, Clear and SetContents keep the header; checked anyway
    // because Iterate is the decoder of bytes read back from disk.
    return Status::Corruption("WriteBatch smaller than its 12-byte header: ",
                              NumberToString(rep_.size()) + " bytes");
  }
  Slice input(rep_);
  input.remove_prefix(kHeader);
  uint32_t found = 0;
  while (!input.empty()) {
    if (!handler->Continue()) return Status::OK();
    const size_t offset = rep_.size() - input.size();
    Record r;
    Status s = DecodeRecord(offset, &input, &r);
    if (!s.ok()) return s;
    switch (static_cast<unsigned char>(r.tag)) {
      case kTypeValue:
        s = handler->PutCF(0, r.a, r.b);
        break;
      case kTypeDeletion:
        s = handler->DeleteCF(0, r.a);
        break;
      case kTypeSingleDeletion:
        s = handler->SingleDeleteCF(0, r.a);
        break;
      case kTypeRangeDeletion:
        s = handler->DeleteRangeCF(0, r.a, r.b);
        break;
      case kTypeMerge:
        s = handler->MergeCF(0, r.a, r.b);
        break;
      case kTypeLogData:
        handler->LogData(r.a);
        break;
    }
    if (!s.ok()) return s;
    if (IsCounted(r.tag)) found++;
  }
  if (found != Count()) {
    return Status::Corruption("WriteBatch header count " +
                              NumberToString(Count()) + " differs from the " +
                              NumberToString(found) + " records found");
  }
  return Status::OK();
}

// ---- WriteBatch::Handler
// ------------------------------------------------------

WriteBatch::Handler::~Handler() = default;

Status WriteBatch::Handler::PutCF(uint32_t column_family_id, const Slice& key,
                                  const Slice& value) {
  if (column_family_id != 0) return UnsupportedColumnFamily(column_family_id);
  Put(key, value);
  return Status::OK();
}
void WriteBatch::Handler::Put(const Slice&, const Slice&) {}

Status WriteBatch::Handler::DeleteCF(uint32_t column_family_id,
                                     const Slice& key) {
  if (column_family_id != 0) return UnsupportedColumnFamily(column_family_id);
  Delete(key);
  return Status::OK();
}
void WriteBatch::Handler::Delete(const Slice&) {}

Status WriteBatch::Handler::SingleDeleteCF(uint32_t column_family_id,
                                           const Slice& key) {
  if (column_family_id != 0) return UnsupportedColumnFamily(column_family_id);
  SingleDelete(key);
  return Status::OK();
}
void WriteBatch::Handler::SingleDelete(const Slice&) {}

Status WriteBatch::Handler::DeleteRangeCF(uint32_t, const Slice&,
                                          const Slice&) {
  return Status::InvalidArgument("DeleteRange not implemented by this handler");
}

Status WriteBatch::Handler::MergeCF(uint32_t column_family_id, const Slice& key,
                                    const Slice& value) {
  if (column_family_id != 0) return UnsupportedColumnFamily(column_family_id);
  Merge(key, value);
  return Status::OK();
}
void WriteBatch::Handler::Merge(const Slice&, const Slice&) {}

void WriteBatch::Handler::LogData(const Slice&) {}

bool WriteBatch::Handler::Continue() { return true; }

// ---- WriteBatchInternal
// -------------------------------------------------------

uint32_t WriteBatchInternal::Count(const WriteBatch* batch) {
  return DecodeFixed32(batch->rep_.data() + 8);
}

void WriteBatchInternal::SetCount(WriteBatch* batch, uint32_t n) {
  EncodeFixed32(&batch->rep_[8], n);
}

SequenceNumber WriteBatchInternal::Sequence(const WriteBatch* batch) {
  return DecodeFixed64(batch->rep_.data());
}

void WriteBatchInternal::SetSequence(WriteBatch* batch, SequenceNumber seq) {
  EncodeFixed64(&batch->rep_[0], seq);
}

Status WriteBatchInternal::SetContents(WriteBatch* batch,
                                       const Slice& contents) {
  if (contents.size() < kHeader) {
    return Status::Corruption("WriteBatch smaller than its 12-byte header: ",
                              NumberToString(contents.size()) + " bytes");
  }
  batch->rep_.assign(contents.data(), contents.size());
  // The flags of the records that decode; a damaged batch fails Iterate.
  batch->content_flags_ = 0;
  Slice input(batch->rep_);
  input.remove_prefix(kHeader);
  Record r;
  while (!input.empty() &&
         DecodeRecord(batch->rep_.size() - input.size(), &input, &r).ok()) {
    batch->content_flags_ |= WriteBatch::ContentFlagOf(r.tag);
  }
  return Status::OK();
}

void WriteBatchInternal::Append(WriteBatch* dst, const WriteBatch* src) {
  SetCount(dst, Count(dst) + Count(src));
  dst->rep_.append(src->rep_.data() + kHeader, src->rep_.size() - kHeader);
  dst->content_flags_ |= src->content_flags_;
}

Status WriteBatchInternal::Validate(const WriteBatch* batch) {
  ValidatingHandler handler;
  return batch->Iterate(&handler);
}

}  // namespace strata
