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
//           |  kTypeColumnFamilyValue           varint32 cf  (as Put)
//           |  kTypeColumnFamilyDeletion        varint32 cf  (as Delete)
//           |  kTypeColumnFamilySingleDeletion  varint32 cf  (as SingleDelete)
//           |  kTypeColumnFamilyRangeDeletion   varint32 cf  (as DeleteRange)
//           |  kTypeColumnFamilyMerge           varint32 cf  (as Merge)
//           |  kTypeBeginPrepareXID                        (not counted)
//           |  kTypeEndPrepareXID   varstring xid          (not counted)
//           |  kTypeCommitXID       varstring xid          (not counted)
//           |  kTypeRollbackXID     varstring xid          (not counted)
//           |  kTypeNoop                                   (not counted)
//   varstring := varint32 length, then length bytes
//
// The tag is one byte, the ValueType of db/dbformat.h. An update of the
// default family (id 0) is written with the plain tag, any other with the
// column-family tag and the id, so batches without families are encoded as
// before families existed.
//
// A batch built by the update methods always holds at least the header and
// is well-formed by construction. One whose rep_ came from outside (the
// constructors from bytes, SetContents) may be anything: it is scanned
// once, and marked kUnchecked unless well-formed, so that DB::Write
// validates exactly those batches. Its rep_ may even be shorter than the
// header: the accessors that read the header check its size.

#include "strata/write_batch.h"

#include <cassert>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "db/write_batch_internal.h"
#include "strata/db.h"
#include "util/coding.h"
#include "util/logging.h"

namespace strata {

namespace {

constexpr size_t kHeader = WriteBatchInternal::kHeader;
constexpr uint32_t kMaxVarstring = std::numeric_limits<uint32_t>::max();

uint32_t FamilyId(ColumnFamilyHandle* column_family) {
  return column_family == nullptr ? 0 : column_family->GetID();
}

// The tag of an update of type to a family other than the default.
// REQUIRES: type is one of the five update types.
ValueType ColumnFamilyTagOf(unsigned char type) {
  switch (type) {
    case kTypeValue:
      return kTypeColumnFamilyValue;
    case kTypeDeletion:
      return kTypeColumnFamilyDeletion;
    case kTypeSingleDeletion:
      return kTypeColumnFamilySingleDeletion;
    case kTypeRangeDeletion:
      return kTypeColumnFamilyRangeDeletion;
    default:
      assert(type == kTypeMerge);
      return kTypeColumnFamilyMerge;
  }
}

// The length of the concatenation of parts, saturating rather than
// wrapping (a caller may repeat one large Slice many times).
uint64_t JoinedSize(const SliceParts& parts) {
  uint64_t total = 0;
  for (int i = 0; i < parts.num_parts; i++) {
    const uint64_t n = parts.parts[i].size();
    total = n > std::numeric_limits<uint64_t>::max() - total
                ? std::numeric_limits<uint64_t>::max()
                : total + n;
  }
  return total;
}

// One decoded record. type is that of the default-family form (a
// kTypeColumnFamilyValue record decodes to kTypeValue, with its family in
// column_family). For LogData the blob is in a; for DeleteRange the begin
// and end keys are in a and b.
struct Record {
  ValueType type = kTypeValue;
  uint32_t column_family = 0;
  Slice a;
  Slice b;
};

// Updates are counted in the header; LogData and the markers are not.
bool IsCounted(ValueType type) {
  return type == kTypeValue || type == kTypeDeletion ||
         type == kTypeSingleDeletion || type == kTypeRangeDeletion ||
         type == kTypeMerge;
}

std::string HexByte(unsigned char byte) {
  const char* const kHex = "0123456789abcdef";
  std::string hex = "0x";
  hex += kHex[byte >> 4];
  hex += kHex[byte & 0xf];
  return hex;
}

std::string AtOffset(size_t offset) {
  std::string msg = "WriteBatch record at offset ";
  AppendNumberTo(&msg, offset);
  msg += ": ";
  return msg;
}

Status RecordCorruption(size_t offset, const char* problem,
                        const std::string& detail = std::string()) {
  return Status::Corruption(AtOffset(offset) + problem + detail);
}

// The record tags RocksDB 7.8 writes in a batch that strata does not
// implement: BlobDB indexes, wide-column entities and the markers of its
// WritePrepared and WriteUnprepared transactions. Null for any other tag.
const char* UnsupportedRocksDBTag(unsigned char tag) {
  switch (tag) {
    case 0x10:
      return "ColumnFamilyBlobIndex";
    case 0x11:
      return "BlobIndex";
    case 0x12:
      return "BeginPersistedPrepareXID";
    case 0x13:
      return "BeginUnprepareXID";
    case 0x15:
      return "CommitXIDAndTimestamp";
    case 0x16:
      return "WideColumnEntity";
    case 0x17:
      return "ColumnFamilyWideColumnEntity";
    default:
      return nullptr;
  }
}

Status UnknownTag(size_t offset, unsigned char tag) {
  const char* rocksdb_name = UnsupportedRocksDBTag(tag);
  if (rocksdb_name != nullptr) {
    return Status::NotSupported(AtOffset(offset) + "RocksDB record type " +
                                HexByte(tag) + " (" + rocksdb_name +
                                ") not supported by strata");
  }
  return RecordCorruption(offset, "unknown tag ", HexByte(tag));
}

// Decodes the record at the front of *input, offset bytes into the batch.
// Never reads outside *input.
Status DecodeRecord(size_t offset, Slice* input, Record* record) {
  const unsigned char tag = static_cast<unsigned char>((*input)[0]);
  input->remove_prefix(1);
  bool has_family = false;
  switch (tag) {
    case kTypeValue:
    case kTypeDeletion:
    case kTypeSingleDeletion:
    case kTypeRangeDeletion:
    case kTypeMerge:
    case kTypeLogData:
      record->type = static_cast<ValueType>(tag);
      break;
    case kTypeBeginPrepareXID:
    case kTypeNoop:
      record->type = static_cast<ValueType>(tag);
      return Status::OK();  // no body
    case kTypeEndPrepareXID:
    case kTypeCommitXID:
    case kTypeRollbackXID:
      record->type = static_cast<ValueType>(tag);
      if (!GetLengthPrefixedSlice(input, &record->a)) {
        return RecordCorruption(offset, "truncated or malformed xid");
      }
      return Status::OK();
    case kTypeColumnFamilyValue:
      record->type = kTypeValue;
      has_family = true;
      break;
    case kTypeColumnFamilyDeletion:
      record->type = kTypeDeletion;
      has_family = true;
      break;
    case kTypeColumnFamilySingleDeletion:
      record->type = kTypeSingleDeletion;
      has_family = true;
      break;
    case kTypeColumnFamilyRangeDeletion:
      record->type = kTypeRangeDeletion;
      has_family = true;
      break;
    case kTypeColumnFamilyMerge:
      record->type = kTypeMerge;
      has_family = true;
      break;
    default:
      return UnknownTag(offset, tag);
  }
  record->column_family = 0;
  if (has_family && !GetVarint32(input, &record->column_family)) {
    return RecordCorruption(offset, "truncated or malformed column family id");
  }
  const bool two_fields = record->type == kTypeValue ||
                          record->type == kTypeMerge ||
                          record->type == kTypeRangeDeletion;
  if (!GetLengthPrefixedSlice(input, &record->a)) {
    return RecordCorruption(offset, two_fields ? "truncated or malformed key"
                                               : "truncated or malformed body");
  }
  if (two_fields && !GetLengthPrefixedSlice(input, &record->b)) {
    return RecordCorruption(offset, "truncated or malformed value");
  }
  return Status::OK();
}

}  // namespace

// ---- WriteBatch -------------------------------------------------------------

WriteBatch::WriteBatch(size_t reserved_bytes, size_t max_bytes)
    : max_bytes_(max_bytes) {
  rep_.reserve(reserved_bytes > kHeader ? reserved_bytes : kHeader);
  rep_.resize(kHeader);
}

WriteBatch::WriteBatch(const std::string& rep) : rep_(rep), max_bytes_(0) {
  ScanContents();
}

WriteBatch::WriteBatch(std::string&& rep)
    : rep_(std::move(rep)), max_bytes_(0) {
  ScanContents();
}

WriteBatch::WriteBatch(const WriteBatch&) = default;
WriteBatch& WriteBatch::operator=(const WriteBatch&) = default;

// A moved-from batch is left empty (12 bytes fit in every std::string's
// inline buffer, so this does not allocate).
WriteBatch::WriteBatch(WriteBatch&& other) noexcept
    : rep_(std::move(other.rep_)),
      max_bytes_(other.max_bytes_),
      save_points_(std::move(other.save_points_)),
      content_flags_(other.content_flags_) {
  other.Clear();
}

WriteBatch& WriteBatch::operator=(WriteBatch&& other) noexcept {
  if (this != &other) {
    rep_ = std::move(other.rep_);
    max_bytes_ = other.max_bytes_;
    save_points_ = std::move(other.save_points_);
    content_flags_ = other.content_flags_;
    other.Clear();
  }
  return *this;
}

WriteBatch::~WriteBatch() = default;

uint32_t WriteBatch::ContentFlagsOf(unsigned char type,
                                    uint32_t column_family_id) {
  uint32_t flags = 0;
  if (column_family_id != 0) flags |= kHasNonDefaultColumnFamily;
  if (type == kTypeMerge) flags |= kHasMerge;
  if (type == kTypeRangeDeletion) flags |= kHasDeleteRange;
  if (type == kTypeBeginPrepareXID) flags |= kHasBeginPrepare;
  if (type == kTypeEndPrepareXID) flags |= kHasEndPrepare;
  if (type == kTypeCommitXID) flags |= kHasCommit;
  if (type == kTypeRollbackXID) flags |= kHasRollback;
  return flags;
}

void WriteBatch::ScanContents() {
  content_flags_ = 0;
  if (rep_.size() < kHeader) {
    content_flags_ = kUnchecked;
    return;
  }
  Slice input(rep_);
  input.remove_prefix(kHeader);
  uint32_t found = 0;
  Record r;
  while (!input.empty()) {
    if (!DecodeRecord(rep_.size() - input.size(), &input, &r).ok()) {
      content_flags_ |= kUnchecked;
      return;
    }
    content_flags_ |= ContentFlagsOf(r.type, r.column_family);
    if (IsCounted(r.type)) found++;
  }
  if (found != Count()) content_flags_ |= kUnchecked;
}

Status WriteBatch::AddRecord(unsigned char type, uint32_t column_family_id,
                             std::initializer_list<SliceParts> fields) {
  if (rep_.size() < kHeader) {
    // Only a batch from outside can be this short; there is no count to
    // add to.
    return Status::InvalidArgument(
        "WriteBatch smaller than its 12-byte header takes no update: ",
        NumberToString(rep_.size()) + " bytes");
  }
  for (const SliceParts& field : fields) {
    const uint64_t size = JoinedSize(field);
    if (size > kMaxVarstring) {
      return Status::InvalidArgument(
          "WriteBatch key or value larger than 4 GiB: ", NumberToString(size));
    }
  }
  const bool counted = IsCounted(static_cast<ValueType>(type));
  if (counted && Count() == std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("WriteBatch holds 2^32-1 updates already");
  }

  const size_t old_size = rep_.size();
  if (column_family_id == 0) {
    rep_.push_back(static_cast<char>(type));
  } else {
    rep_.push_back(static_cast<char>(ColumnFamilyTagOf(type)));
    PutVarint32(&rep_, column_family_id);
  }
  for (const SliceParts& field : fields) {
    PutVarint32(&rep_, static_cast<uint32_t>(JoinedSize(field)));
    for (int i = 0; i < field.num_parts; i++) {
      rep_.append(field.parts[i].data(), field.parts[i].size());
    }
  }

  if (max_bytes_ != 0 && rep_.size() > max_bytes_) {
    const size_t wanted = rep_.size();
    rep_.resize(old_size);
    return Status::InvalidArgument("WriteBatch would exceed its max_bytes (" +
                                   NumberToString(wanted) + " > " +
                                   NumberToString(max_bytes_) + ")");
  }
  if (counted) WriteBatchInternal::SetCount(this, Count() + 1);
  content_flags_ |= ContentFlagsOf(type, column_family_id);
  return Status::OK();
}

Status WriteBatch::Put(ColumnFamilyHandle* column_family, const Slice& key,
                       const Slice& value) {
  return AddRecord(kTypeValue, FamilyId(column_family),
                   {SliceParts(&key, 1), SliceParts(&value, 1)});
}

Status WriteBatch::Put(const Slice& key, const Slice& value) {
  return Put(nullptr, key, value);
}

Status WriteBatch::Put(ColumnFamilyHandle* column_family, const SliceParts& key,
                       const SliceParts& value) {
  return AddRecord(kTypeValue, FamilyId(column_family), {key, value});
}

Status WriteBatch::Put(const SliceParts& key, const SliceParts& value) {
  return Put(nullptr, key, value);
}

Status WriteBatch::Delete(ColumnFamilyHandle* column_family, const Slice& key) {
  return AddRecord(kTypeDeletion, FamilyId(column_family),
                   {SliceParts(&key, 1)});
}

Status WriteBatch::Delete(const Slice& key) { return Delete(nullptr, key); }

Status WriteBatch::Delete(ColumnFamilyHandle* column_family,
                          const SliceParts& key) {
  return AddRecord(kTypeDeletion, FamilyId(column_family), {key});
}

Status WriteBatch::Delete(const SliceParts& key) {
  return Delete(nullptr, key);
}

Status WriteBatch::SingleDelete(ColumnFamilyHandle* column_family,
                                const Slice& key) {
  return AddRecord(kTypeSingleDeletion, FamilyId(column_family),
                   {SliceParts(&key, 1)});
}

Status WriteBatch::SingleDelete(const Slice& key) {
  return SingleDelete(nullptr, key);
}

Status WriteBatch::SingleDelete(ColumnFamilyHandle* column_family,
                                const SliceParts& key) {
  return AddRecord(kTypeSingleDeletion, FamilyId(column_family), {key});
}

Status WriteBatch::SingleDelete(const SliceParts& key) {
  return SingleDelete(nullptr, key);
}

Status WriteBatch::DeleteRange(ColumnFamilyHandle* column_family,
                               const Slice& begin_key, const Slice& end_key) {
  return AddRecord(kTypeRangeDeletion, FamilyId(column_family),
                   {SliceParts(&begin_key, 1), SliceParts(&end_key, 1)});
}

Status WriteBatch::DeleteRange(const Slice& begin_key, const Slice& end_key) {
  return DeleteRange(nullptr, begin_key, end_key);
}

Status WriteBatch::DeleteRange(ColumnFamilyHandle* column_family,
                               const SliceParts& begin_key,
                               const SliceParts& end_key) {
  return AddRecord(kTypeRangeDeletion, FamilyId(column_family),
                   {begin_key, end_key});
}

Status WriteBatch::DeleteRange(const SliceParts& begin_key,
                               const SliceParts& end_key) {
  return DeleteRange(nullptr, begin_key, end_key);
}

Status WriteBatch::Merge(ColumnFamilyHandle* column_family, const Slice& key,
                         const Slice& value) {
  return AddRecord(kTypeMerge, FamilyId(column_family),
                   {SliceParts(&key, 1), SliceParts(&value, 1)});
}

Status WriteBatch::Merge(const Slice& key, const Slice& value) {
  return Merge(nullptr, key, value);
}

Status WriteBatch::Merge(ColumnFamilyHandle* column_family,
                         const SliceParts& key, const SliceParts& value) {
  return AddRecord(kTypeMerge, FamilyId(column_family), {key, value});
}

Status WriteBatch::Merge(const SliceParts& key, const SliceParts& value) {
  return Merge(nullptr, key, value);
}

Status WriteBatch::PutLogData(const Slice& blob) {
  return AddRecord(kTypeLogData, 0, {SliceParts(&blob, 1)});
}

void WriteBatch::Clear() {
  rep_.assign(kHeader, '\0');
  content_flags_ = 0;
  save_points_.clear();
}

uint32_t WriteBatch::Count() const { return WriteBatchInternal::Count(this); }

Status WriteBatch::Iterate(Handler* handler) const {
  if (rep_.size() < kHeader) {
    return Status::Corruption("WriteBatch smaller than its 12-byte header: ",
                              NumberToString(rep_.size()) + " bytes");
  }
  Slice input(rep_);
  input.remove_prefix(kHeader);
  uint32_t found = 0;
  bool empty_batch = true;
  while (!input.empty()) {
    if (!handler->Continue()) return Status::OK();
    const size_t offset = rep_.size() - input.size();
    Record r;
    Status s = DecodeRecord(offset, &input, &r);
    if (!s.ok()) return s;
    switch (r.type) {
      case kTypeValue:
        s = handler->PutCF(r.column_family, r.a, r.b);
        break;
      case kTypeDeletion:
        s = handler->DeleteCF(r.column_family, r.a);
        break;
      case kTypeSingleDeletion:
        s = handler->SingleDeleteCF(r.column_family, r.a);
        break;
      case kTypeRangeDeletion:
        s = handler->DeleteRangeCF(r.column_family, r.a, r.b);
        break;
      case kTypeMerge:
        s = handler->MergeCF(r.column_family, r.a, r.b);
        break;
      case kTypeBeginPrepareXID:
        s = handler->MarkBeginPrepare(false);
        break;
      case kTypeEndPrepareXID:
        s = handler->MarkEndPrepare(r.a);
        break;
      case kTypeCommitXID:
        s = handler->MarkCommit(r.a);
        break;
      case kTypeRollbackXID:
        s = handler->MarkRollback(r.a);
        break;
      case kTypeNoop:
        s = handler->MarkNoop(empty_batch);
        break;
      default:  // kTypeLogData
        handler->LogData(r.a);
        break;
    }
    if (!s.ok()) return s;
    if (IsCounted(r.type)) {
      found++;
      empty_batch = false;
    }
  }
  if (found != Count()) {
    return Status::Corruption("WriteBatch header count " +
                              NumberToString(Count()) + " differs from the " +
                              NumberToString(found) + " records found");
  }
  return Status::OK();
}

// ---- WriteBatchInternal -----------------------------------------------------

uint32_t WriteBatchInternal::Count(const WriteBatch* batch) {
  if (batch->rep_.size() < kHeader) return 0;
  return DecodeFixed32(batch->rep_.data() + 8);
}

void WriteBatchInternal::SetCount(WriteBatch* batch, uint32_t n) {
  EncodeFixed32(&batch->rep_[8], n);
}

SequenceNumber WriteBatchInternal::Sequence(const WriteBatch* batch) {
  if (batch->rep_.size() < kHeader) return 0;
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
  batch->ScanContents();
  return Status::OK();
}

void WriteBatchInternal::Append(WriteBatch* dst, const WriteBatch* src) {
  SetCount(dst, Count(dst) + Count(src));
  dst->rep_.append(src->rep_.data() + kHeader, src->rep_.size() - kHeader);
  dst->content_flags_ |= src->content_flags_;
}

Status WriteBatchInternal::Validate(const WriteBatch* batch) {
  // Iterate alone checks the encoding.
  AcceptingHandler handler;
  return batch->Iterate(&handler);
}

Status WriteBatchInternal::ValidateUnchecked(WriteBatch* batch) {
  Status s = Validate(batch);
  // The flags so far cover only the records before the first malformed
  // one, and updates since may have made the bytes decode differently:
  // rebuilt from the records that now all decode (clearing kUnchecked).
  if (s.ok()) batch->ScanContents();
  return s;
}

namespace {

// The close marker's blob begins with this text; any other LogData-only
// batch is no marker.
constexpr char kCloseMarkerText[] = "strata: clean close";
constexpr size_t kCloseMarkerTextSize = sizeof(kCloseMarkerText) - 1;

}  // namespace

void WriteBatchInternal::SetCloseMarker(WriteBatch* batch, SequenceNumber seq,
                                        uint64_t manifest_number,
                                        uint64_t manifest_size) {
  batch->Clear();
  std::string blob(kCloseMarkerText, kCloseMarkerTextSize);
  PutFixed64(&blob, manifest_number);
  PutFixed64(&blob, manifest_size);
  batch->PutLogData(blob);
  SetSequence(batch, seq);
}

bool WriteBatchInternal::IsCloseMarker(const Slice& record, SequenceNumber* seq,
                                       uint64_t* manifest_number,
                                       uint64_t* manifest_size) {
  if (record.size() < kHeader) return false;
  *seq = DecodeFixed64(record.data());
  uint64_t number = 0;
  uint64_t size = 0;
  WriteBatch marker;
  // The form without the MANIFEST's number and size (written before they
  // were recorded) is a marker too; its numbers read as 0.
  marker.PutLogData(Slice(kCloseMarkerText, kCloseMarkerTextSize));
  SetSequence(&marker, *seq);
  if (record != Contents(&marker)) {
    // The numbers are the record's last 16 bytes; whether the rest is a
    // marker is checked by building the marker they would make.
    if (record.size() < kHeader + 16) return false;
    number = DecodeFixed64(record.data() + record.size() - 16);
    size = DecodeFixed64(record.data() + record.size() - 8);
    SetCloseMarker(&marker, *seq, number, size);
    if (record != Contents(&marker)) return false;
  }
  if (manifest_number != nullptr) *manifest_number = number;
  if (manifest_size != nullptr) *manifest_size = size;
  return true;
}

}  // namespace strata
