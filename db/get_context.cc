#include "db/get_context.h"

namespace strata {

GetContext::GetContext(const Comparator* ucmp,
                       const MergeOperator* merge_operator,
                       const Slice& user_key, SequenceNumber max_covering_seq,
                       std::string* value)
    : ucmp_(ucmp),
      merge_operator_(merge_operator),
      user_key_(user_key),
      max_covering_seq_(max_covering_seq),
      value_(value) {}

bool GetContext::SaveValueFunction(void* arg, const Slice& internal_key,
                                   const Slice& value) {
  return static_cast<GetContext*>(arg)->SaveValue(internal_key, value);
}

void GetContext::FinishWith(const Slice* base) {
  done_ = true;
  if (operands_.empty()) {
    if (base == nullptr) {
      status_ = Status::NotFound();
    } else {
      value_->assign(base->data(), base->size());
      status_ = Status::OK();
    }
    return;
  }
  status_ = FinishMerge(merge_operator_, user_key_, base, &operands_, value_);
}

bool GetContext::SaveValue(const Slice& internal_key, const Slice& value) {
  if (done_) return false;
  ParsedInternalKey parsed;
  Status s = ParseInternalKey(internal_key, &parsed);
  if (!s.ok()) {
    status_ = s;
    done_ = true;
    return false;
  }
  if (ucmp_->Compare(parsed.user_key, user_key_) != 0) return true;
  if (parsed.sequence < max_covering_seq_) {
    FinishWith(nullptr);  // deleted by a newer range tombstone
    return false;
  }
  switch (parsed.type) {
    case kTypeValue:
      FinishWith(&value);
      return false;
    case kTypeDeletion:
    case kTypeSingleDeletion:
      FinishWith(nullptr);
      return false;
    case kTypeMerge:
      if (merge_operator_ == nullptr) {
        status_ = Status::InvalidArgument(
            "merge operand met but Options::merge_operator is not set");
        done_ = true;
        return false;
      }
      operands_.PushOperand(value);
      status_ = Status::OK();  // pending: Finish merges
      return true;
    default:
      status_ = Status::Corruption("unexpected entry type in a point lookup: ",
                                   parsed.DebugString());
      done_ = true;
      return false;
  }
}

Status GetContext::Finish() {
  if (!done_ && !operands_.empty()) FinishWith(nullptr);
  done_ = true;
  return status_;
}

}  // namespace strata
