#include "db/get_context.h"

#include "table/pinned_value.h"

namespace strata {

GetContext::GetContext(const Comparator* ucmp,
                       const MergeOperator* merge_operator,
                       const Slice& user_key, SequenceNumber max_covering_seq,
                       PinnableSlice* value)
    : ucmp_(ucmp),
      merge_operator_(merge_operator),
      user_key_(user_key),
      max_covering_seq_(max_covering_seq),
      value_(value) {}

bool GetContext::SaveMemTableEntry(void* arg, const Slice& internal_key,
                                   const Slice& value) {
  return static_cast<GetContext*>(arg)->SaveValue(internal_key, value, nullptr);
}

bool GetContext::SaveTableEntry(void* arg, const Slice& internal_key,
                                const Slice& value, CachePin* pin) {
  return static_cast<GetContext*>(arg)->SaveValue(internal_key, value, pin);
}

void GetContext::FinishWith(const Slice* base, CachePin* pin) {
  done_ = true;
  if (operands_.empty()) {
    if (base == nullptr) {
      status_ = Status::NotFound();
      return;
    }
    if (pin != nullptr) {
      pin->PinInto(*base, value_);
    } else {
      value_->PinSelf(*base);
    }
    status_ = Status::OK();
    return;
  }
  status_ = FinishMerge(merge_operator_, user_key_, base, &operands_,
                        value_->GetSelf());
  if (status_.ok()) value_->PinSelf();
}

bool GetContext::SaveValue(const Slice& internal_key, const Slice& value,
                           CachePin* pin) {
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
    FinishWith(nullptr, nullptr);  // deleted by a newer range tombstone
    return false;
  }
  switch (parsed.type) {
    case kTypeValue:
      FinishWith(&value, pin);
      return false;
    case kTypeDeletion:
    case kTypeSingleDeletion:
      FinishWith(nullptr, nullptr);
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
  if (!done_ && !operands_.empty()) FinishWith(nullptr, nullptr);
  done_ = true;
  return status_;
}

}  // namespace strata
