#include "db/dbformat.h"

#include <cstring>

#include "util/logging.h"

namespace strata {

std::string ParsedInternalKey::DebugString() const {
  std::string result = "'" + EscapeString(user_key) + "' @ ";
  result += NumberToString(sequence);
  result += " : ";
  result += NumberToString(static_cast<uint64_t>(type));
  return result;
}

void AppendInternalKey(std::string* result, const ParsedInternalKey& key) {
  result->append(key.user_key.data(), key.user_key.size());
  PutFixed64(result, PackSequenceAndType(key.sequence, key.type));
}

Status ParseInternalKey(const Slice& internal_key, ParsedInternalKey* result) {
  if (internal_key.size() < kInternalKeyTrailerSize) {
    return Status::Corruption("internal key shorter than its trailer: ",
                              EscapeString(internal_key));
  }
  UnpackSequenceAndType(ExtractTrailer(internal_key), &result->sequence,
                        &result->type);
  result->user_key = ExtractUserKey(internal_key);
  if (!IsValueType(result->type)) {
    return Status::Corruption(
        "internal key with unknown value type ",
        NumberToString(static_cast<uint64_t>(result->type)));
  }
  return Status::OK();
}

int InternalKeyComparator::Compare(const Slice& a, const Slice& b) const {
  return CompareInternalKeys(user_comparator_, bytewise_, a, b);
}

const char* InternalKeyComparator::Name() const {
  return user_comparator_->Name();
}

void InternalKeyComparator::FindShortestSeparator(std::string* start,
                                                  const Slice& limit) const {
  // Shorten the user part; if it got shorter but is still greater, give it
  // the largest trailer so it sorts before every version of that user key.
  // A user comparator's answer at or past limit's user key is not taken:
  // the separator must stay below limit.
  Slice user_start = ExtractUserKey(*start);
  Slice user_limit = ExtractUserKey(limit);
  std::string tmp(user_start.data(), user_start.size());
  user_comparator_->FindShortestSeparator(&tmp, user_limit);
  if (tmp.size() < user_start.size() &&
      user_comparator_->Compare(user_start, tmp) < 0 &&
      user_comparator_->Compare(tmp, user_limit) < 0) {
    PutFixed64(&tmp,
               PackSequenceAndType(kMaxSequenceNumber, kValueTypeForSeek));
    start->swap(tmp);
  }
}

void InternalKeyComparator::FindShortSuccessor(std::string* key) const {
  Slice user_key = ExtractUserKey(*key);
  std::string tmp(user_key.data(), user_key.size());
  user_comparator_->FindShortSuccessor(&tmp);
  if (tmp.size() < user_key.size() &&
      user_comparator_->Compare(user_key, tmp) < 0) {
    PutFixed64(&tmp,
               PackSequenceAndType(kMaxSequenceNumber, kValueTypeForSeek));
    key->swap(tmp);
  }
}

LookupKey::LookupKey(const Slice& user_key, SequenceNumber s) {
  const size_t usize = user_key.size();
  const size_t needed = usize + 13;  // varint32 (<= 5) + trailer (8)
  char* dst = needed <= sizeof(space_) ? space_ : new char[needed];
  start_ = dst;
  dst = EncodeVarint32(dst,
                       static_cast<uint32_t>(usize + kInternalKeyTrailerSize));
  kstart_ = dst;
  std::memcpy(dst, user_key.data(), usize);
  dst += usize;
  EncodeFixed64(dst, PackSequenceAndType(s, kValueTypeForSeek));
  dst += 8;
  end_ = dst;
}

LookupKey::~LookupKey() {
  if (start_ != space_) delete[] start_;
}

}  // namespace strata
