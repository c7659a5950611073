// Internal keys: how the engine stores versions of user keys.
//
// An internal key is the user key followed by an 8-byte trailer,
//
//   +-----------------+----------------------------------------+
//   | user key        | fixed64( sequence << 8 | value type )  |
//   +-----------------+----------------------------------------+
//
// so one user key can have many versions, told apart by sequence number.
// InternalKeyComparator orders by user key ascending, then by trailer
// descending: the newest version of a key comes first, and a seek to
// (key, s, kValueTypeForSeek) lands on the newest version visible at s.
// The format is on disk (WAL payloads decode to it; tables store it):
// docs/formats/files.md.

#ifndef STRATA_DB_DBFORMAT_H_
#define STRATA_DB_DBFORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "strata/comparator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/types.h"
#include "util/coding.h"

namespace strata {

// The kind of a version. The values are on disk and match the WriteBatch
// record tags of the same meaning. The column-family tags mark a WriteBatch
// record of a family other than the default (docs/formats/write_batch.md);
// like kTypeLogData they never appear in an internal key.
enum ValueType : unsigned char {
  kTypeDeletion = 0x0,
  kTypeValue = 0x1,
  kTypeMerge = 0x2,
  kTypeLogData = 0x3,               // WriteBatch only
  kTypeColumnFamilyDeletion = 0x4,  // WriteBatch only
  kTypeColumnFamilyValue = 0x5,     // WriteBatch only
  kTypeColumnFamilyMerge = 0x6,     // WriteBatch only
  kTypeSingleDeletion = 0x7,
  kTypeColumnFamilySingleDeletion = 0x8,  // WriteBatch only
  // Two-phase commit's markers (WriteBatch only, not counted): a prepared
  // section's start and end (the end carries the transaction's name), and
  // the commit or rollback of a named transaction; a Noop holds a place.
  kTypeBeginPrepareXID = 0x9,
  kTypeEndPrepareXID = 0xA,
  kTypeCommitXID = 0xB,
  kTypeRollbackXID = 0xC,
  kTypeNoop = 0xD,
  kTypeColumnFamilyRangeDeletion = 0xE,  // WriteBatch only
  kTypeRangeDeletion = 0xF,
  kMaxValueType = 0x7F,
};

// The largest type a seek key carries, so that a seek to (key, s) finds
// every version with sequence <= s (trailers sort descending).
constexpr ValueType kValueTypeForSeek = kTypeRangeDeletion;

// Whether t may appear in an internal key.
inline bool IsValueType(ValueType t) {
  return t == kTypeDeletion || t == kTypeValue || t == kTypeMerge ||
         t == kTypeSingleDeletion || t == kTypeRangeDeletion;
}

constexpr SequenceNumber kMaxSequenceNumber = (uint64_t{1} << 56) - 1;
constexpr size_t kInternalKeyTrailerSize = 8;

inline uint64_t PackSequenceAndType(SequenceNumber seq, ValueType t) {
  return (seq << 8) | t;
}

inline void UnpackSequenceAndType(uint64_t packed, SequenceNumber* seq,
                                  ValueType* t) {
  *seq = packed >> 8;
  *t = static_cast<ValueType>(packed & 0xff);
}

struct ParsedInternalKey {
  Slice user_key;
  SequenceNumber sequence = 0;
  ValueType type = kTypeDeletion;

  ParsedInternalKey() = default;
  ParsedInternalKey(const Slice& u, SequenceNumber seq, ValueType t)
      : user_key(u), sequence(seq), type(t) {}
  std::string DebugString() const;
};

// Appends the internal key of key to *result.
void AppendInternalKey(std::string* result, const ParsedInternalKey& key);

// Parses internal_key into *result; Corruption (naming the problem) if it
// is shorter than a trailer or carries an unknown type.
Status ParseInternalKey(const Slice& internal_key, ParsedInternalKey* result);

// REQUIRES: internal_key.size() >= kInternalKeyTrailerSize
inline Slice ExtractUserKey(const Slice& internal_key) {
  return Slice(internal_key.data(),
               internal_key.size() - kInternalKeyTrailerSize);
}

// REQUIRES: internal_key.size() >= kInternalKeyTrailerSize
inline uint64_t ExtractTrailer(const Slice& internal_key) {
  return DecodeFixed64(internal_key.data() + internal_key.size() -
                       kInternalKeyTrailerSize);
}

inline SequenceNumber ExtractSequence(const Slice& internal_key) {
  return ExtractTrailer(internal_key) >> 8;
}

inline ValueType ExtractValueType(const Slice& internal_key) {
  return static_cast<ValueType>(ExtractTrailer(internal_key) & 0xff);
}

// Orders internal keys: user key ascending (by the user comparator), then
// sequence and type descending. Its Name() is the user comparator's, which
// is what the DB records.
class InternalKeyComparator : public Comparator {
 public:
  explicit InternalKeyComparator(const Comparator* user_comparator)
      : user_comparator_(user_comparator),
        bytewise_(user_comparator == BytewiseComparator()) {}

  // The bytewise order is compared in place (no second virtual call):
  // every search of a block or memtable runs through here.
  int Compare(const Slice& a, const Slice& b) const override;
  const char* Name() const override;
  void FindShortestSeparator(std::string* start,
                             const Slice& limit) const override;
  void FindShortSuccessor(std::string* key) const override;

  const Comparator* user_comparator() const { return user_comparator_; }
  bool bytewise() const { return bytewise_; }

 private:
  const Comparator* user_comparator_;
  const bool bytewise_;  // user_comparator_ is BytewiseComparator()
};

// InternalKeyComparator's order, for callers that compare keys in a loop
// and want no call: user keys by ucmp (bytewise: ucmp is
// BytewiseComparator(), compared in place), then trailers descending.
// REQUIRES: both keys are at least kInternalKeyTrailerSize long.
inline int CompareInternalKeys(const Comparator* ucmp, bool bytewise,
                               const Slice& a, const Slice& b) {
  const Slice ua = ExtractUserKey(a);
  const Slice ub = ExtractUserKey(b);
  const int r = bytewise ? ua.compare(ub) : ucmp->Compare(ua, ub);
  if (r != 0) return r;
  const uint64_t anum = ExtractTrailer(a);
  const uint64_t bnum = ExtractTrailer(b);
  return anum > bnum ? -1 : (anum < bnum ? +1 : 0);
}

// An owned internal key.
class InternalKey {
 public:
  InternalKey() = default;  // empty: not a valid key
  InternalKey(const Slice& user_key, SequenceNumber s, ValueType t) {
    AppendInternalKey(&rep_, ParsedInternalKey(user_key, s, t));
  }

  void DecodeFrom(const Slice& s) { rep_.assign(s.data(), s.size()); }
  Slice Encode() const { return rep_; }
  Slice user_key() const { return ExtractUserKey(rep_); }
  bool Valid() const { return rep_.size() >= kInternalKeyTrailerSize; }
  void Clear() { rep_.clear(); }

 private:
  std::string rep_;
};

// The key of a point lookup at a sequence number, in the forms the
// memtable and the tables want:
//
//   +------------------+----------+--------------------------+
//   | varint32 klen+8  | user key | fixed64(seq<<8 | seek ty) |
//   +------------------+----------+--------------------------+
//   ^ memtable_key()   ^ internal_key()     user_key() = key only
class LookupKey {
 public:
  LookupKey(const Slice& user_key, SequenceNumber sequence);
  LookupKey(const LookupKey&) = delete;
  LookupKey& operator=(const LookupKey&) = delete;
  ~LookupKey();

  Slice memtable_key() const { return Slice(start_, end_ - start_); }
  Slice internal_key() const { return Slice(kstart_, end_ - kstart_); }
  Slice user_key() const {
    return Slice(kstart_, end_ - kstart_ - kInternalKeyTrailerSize);
  }

 private:
  const char* start_;
  const char* kstart_;
  const char* end_;
  char space_[200];  // short keys need no allocation
};

}  // namespace strata

#endif  // STRATA_DB_DBFORMAT_H_
