#include "db/utilities/write_batch_with_index/base_delta_iterator.h"

#include <cassert>

namespace strata {

BaseDeltaIterator::BaseDeltaIterator(Iterator* base, WBWIIteratorImpl* delta,
                                     const Comparator* cmp,
                                     const MergeOperator* merge_operator,
                                     const Slice* lower, const Slice* upper)
    : base_(base),
      delta_(delta),
      cmp_(cmp),
      merge_operator_(merge_operator),
      lower_(lower),
      upper_(upper) {}

BaseDeltaIterator::~BaseDeltaIterator() = default;

bool BaseDeltaIterator::InBounds(const Slice& key) const {
  return (lower_ == nullptr || cmp_->Compare(key, *lower_) >= 0) &&
         (upper_ == nullptr || cmp_->Compare(key, *upper_) < 0);
}

bool BaseDeltaIterator::BaseValid() const {
  return base_->Valid() && InBounds(base_->key());
}

bool BaseDeltaIterator::DeltaValid() const {
  return delta_->Valid() && InBounds(delta_->key());
}

bool BaseDeltaIterator::Valid() const {
  return status_.ok() && current_ != kNone;
}

void BaseDeltaIterator::SeekToFirst() {
  if (lower_ != nullptr) return Seek(*lower_);
  forward_ = true;
  status_ = Status::OK();
  base_->SeekToFirst();
  delta_->SeekToFirst();
  Settle();
}

void BaseDeltaIterator::SeekToLast() {
  forward_ = false;
  status_ = Status::OK();
  if (upper_ != nullptr) {
    SeekBothBefore(*upper_);
  } else {
    base_->SeekToLast();
    delta_->SeekToLast();
  }
  Settle();
}

void BaseDeltaIterator::Seek(const Slice& target) {
  forward_ = true;
  status_ = Status::OK();
  const Slice& t = lower_ != nullptr && cmp_->Compare(target, *lower_) < 0
                       ? *lower_
                       : target;
  base_->Seek(t);
  delta_->Seek(t);
  Settle();
}

void BaseDeltaIterator::SeekForPrev(const Slice& target) {
  if (upper_ != nullptr && cmp_->Compare(target, *upper_) >= 0) {
    return SeekToLast();
  }
  forward_ = false;
  status_ = Status::OK();
  base_->SeekForPrev(target);
  delta_->SeekForPrev(target);
  Settle();
}

void BaseDeltaIterator::SeekBothBefore(const Slice& target) {
  base_->SeekForPrev(target);
  if (base_->Valid() && cmp_->Compare(base_->key(), target) == 0) {
    base_->Prev();
  }
  delta_->SeekBefore(target);
}

void BaseDeltaIterator::Next() {
  assert(Valid());
  if (!forward_) {
    // Both sides are at or before the current key: put them after it.
    const std::string k = key().ToString();
    forward_ = true;
    base_->Seek(k);
    if (base_->Valid() && cmp_->Compare(base_->key(), k) == 0) base_->Next();
    delta_->Seek(k);
    if (delta_->Valid() && cmp_->Compare(delta_->key(), k) == 0) {
      delta_->NextKey();
    }
  } else if (current_ == kDelta) {
    delta_->NextKey();
    if (equal_keys_) base_->Next();
  } else {
    base_->Next();
  }
  Settle();
}

void BaseDeltaIterator::Prev() {
  assert(Valid());
  if (forward_) {
    const std::string k = key().ToString();
    forward_ = false;
    SeekBothBefore(k);
  } else if (current_ == kDelta) {
    delta_->PrevKey();
    if (equal_keys_) base_->Prev();
  } else {
    base_->Prev();
  }
  Settle();
}

void BaseDeltaIterator::Settle() {
  equal_keys_ = false;
  while (true) {
    if (!base_->status().ok()) {
      current_ = kNone;
      return;
    }
    const bool base_valid = BaseValid();
    const bool delta_valid = DeltaValid();
    if (!base_valid && !delta_valid) {
      current_ = kNone;
      return;
    }
    // Negative: the delta's key comes first in the direction of travel.
    int c;
    if (!delta_valid) {
      c = 1;
    } else if (!base_valid) {
      c = -1;
    } else {
      c = cmp_->Compare(delta_->key(), base_->key());
      if (!forward_) c = -c;
    }
    if (c > 0) {
      current_ = kBase;
      value_ = base_->value();
      return;
    }
    const Slice base_value = c == 0 ? base_->value() : Slice();
    if (TakeDelta(c == 0 ? &base_value : nullptr)) {
      equal_keys_ = c == 0;
      return;
    }
    if (!status_.ok()) {
      current_ = kNone;
      return;
    }
    // The delta deletes its key: step both sides past it.
    if (forward_) {
      delta_->NextKey();
      if (c == 0) base_->Next();
    } else {
      delta_->PrevKey();
      if (c == 0) base_->Prev();
    }
  }
}

bool BaseDeltaIterator::TakeDelta(const Slice* base_value) {
  operands_.Clear();
  Slice put_value;
  const Slice k = delta_->key();
  switch (delta_->LatestUpdate(&operands_, &put_value)) {
    case WBWIIteratorImpl::kFound:
      if (operands_.empty()) {
        value_ = put_value;
        current_ = kDelta;
        return true;
      }
      status_ =
          FinishMerge(merge_operator_, k, &put_value, &operands_, &merged_);
      break;
    case WBWIIteratorImpl::kDeleted:
      if (operands_.empty()) return false;
      status_ = FinishMerge(merge_operator_, k, nullptr, &operands_, &merged_);
      break;
    case WBWIIteratorImpl::kMergeInProgress:
      status_ =
          FinishMerge(merge_operator_, k, base_value, &operands_, &merged_);
      break;
    case WBWIIteratorImpl::kNotFound:
      return false;
  }
  if (!status_.ok()) return false;
  value_ = merged_;
  current_ = kDelta;
  return true;
}

Slice BaseDeltaIterator::key() const {
  assert(Valid());
  return current_ == kBase ? base_->key() : delta_->key();
}

Slice BaseDeltaIterator::value() const {
  assert(Valid());
  return value_;
}

Status BaseDeltaIterator::status() const {
  if (!status_.ok()) return status_;
  return base_->status();
}

}  // namespace strata
