#include "db/db_iter.h"

#include <string>
#include <utility>

#include "db/dbformat.h"
#include "db/merge_helper.h"
#include "strata/slice_transform.h"

namespace strata {

namespace {

Status RangeTombstoneUnsupported(const ParsedInternalKey& ikey) {
  return Status::NotSupported("iterating over range tombstones: ",
                              ikey.DebugString());
}

class DBIter final : public Iterator {
 public:
  DBIter(const Comparator* ucmp, InternalIterator* iter,
         SequenceNumber sequence, const Slice* lower, const Slice* upper,
         const SliceTransform* prefix_extractor,
         const MergeOperator* merge_operator, std::function<void()> cleanup)
      : ucmp_(ucmp),
        iter_(iter),
        sequence_(sequence),
        lower_(lower),
        upper_(upper),
        prefix_extractor_(prefix_extractor),
        merge_operator_(merge_operator),
        cleanup_(std::move(cleanup)) {}

  ~DBIter() override {
    delete iter_;
    if (cleanup_) cleanup_();
  }

  bool Valid() const override { return valid_; }

  Slice key() const override {
    return direction_ == kForward && !merged_ ? ExtractUserKey(iter_->key())
                                              : Slice(saved_key_);
  }

  Slice value() const override {
    return direction_ == kForward && !merged_ ? iter_->value()
                                              : Slice(saved_value_);
  }

  Status status() const override {
    if (!status_.ok()) return status_;
    return iter_->status();
  }

  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;

 private:
  enum Direction { kForward, kReverse };

  // Parses the internal iterator's key; on damage records Corruption and
  // returns false.
  bool ParseKey(ParsedInternalKey* ikey);
  void FindNextUserEntry(bool skipping, std::string* skip);
  // iter_ is on the newest visible version of a key, a merge operand:
  // merges the key's operands down to a value, a deletion or its last
  // version into saved_value_ (key in saved_key_), leaving iter_ on the
  // first entry not merged. False (status set) on error.
  bool MergeForward(const ParsedInternalKey& newest);
  void FindPrevUserEntry();
  // Positions the internal iterator on the last entry whose user key is
  // < *upper_ (or the very last entry), then finds the entry before it.
  void SeekToLastBelowUpper();

  bool AboveUpper(const Slice& user_key) const {
    return upper_ != nullptr && ucmp_->Compare(user_key, *upper_) >= 0;
  }
  bool BelowLower(const Slice& user_key) const {
    return lower_ != nullptr && ucmp_->Compare(user_key, *lower_) < 0;
  }
  // Whether user_key lies outside the prefix a seek confined us to.
  bool OutsidePrefix(const Slice& user_key) const {
    return prefix_confined_ &&
           (!prefix_extractor_->InDomain(user_key) ||
            prefix_extractor_->Transform(user_key) != Slice(prefix_));
  }
  // Confines the iteration to target's prefix, if it has one.
  void ConfineToPrefixOf(const Slice& target) {
    prefix_confined_ =
        prefix_extractor_ != nullptr && prefix_extractor_->InDomain(target);
    if (prefix_confined_) {
      Slice prefix = prefix_extractor_->Transform(target);
      prefix_.assign(prefix.data(), prefix.size());
    }
  }
  void SeekInternal(const Slice& target);
  // Tells the sources whether the next seek is confined to its target's
  // prefix (InternalIterator::SetSeekConfinedToPrefix): only when it is
  // may a source with no key of that prefix skip it.
  void ConfineSources(bool confined) {
    if (prefix_extractor_ != nullptr) iter_->SetSeekConfinedToPrefix(confined);
  }

  void Invalidate() {
    valid_ = false;
    merged_ = false;
    saved_key_.clear();
    saved_value_.clear();
  }

  const Comparator* const ucmp_;
  InternalIterator* const iter_;
  const SequenceNumber sequence_;
  const Slice* const lower_;
  const Slice* const upper_;
  const SliceTransform* const prefix_extractor_;
  const MergeOperator* const merge_operator_;
  const std::function<void()> cleanup_;

  Status status_;
  // Reverse, or forward with merged_: the current key and value. Else the
  // key is scratch for skipping.
  std::string saved_key_;
  std::string saved_value_;
  MergeContext merge_context_;
  std::string prefix_;  // when prefix_confined_: the seek target's prefix
  bool prefix_confined_ = false;
  Direction direction_ = kForward;
  bool valid_ = false;
  bool merged_ = false;  // forward: the current value is a merge result
};

bool DBIter::ParseKey(ParsedInternalKey* ikey) {
  Status s = ParseInternalKey(iter_->key(), ikey);
  if (!s.ok()) {
    status_ = s;
    return false;
  }
  return true;
}

void DBIter::FindNextUserEntry(bool skipping, std::string* skip) {
  // Invariant: iter_ is on the first entry not yet considered; entries of
  // user keys <= *skip are hidden when skipping.
  for (; iter_->Valid(); iter_->Next()) {
    ParsedInternalKey ikey;
    if (!ParseKey(&ikey)) break;
    if (AboveUpper(ikey.user_key) || OutsidePrefix(ikey.user_key)) break;
    if (ikey.sequence > sequence_) continue;  // newer than the read
    switch (ikey.type) {
      case kTypeDeletion:
      case kTypeSingleDeletion:
        // Older versions of this key are shadowed by the deletion.
        skip->assign(ikey.user_key.data(), ikey.user_key.size());
        skipping = true;
        break;
      case kTypeValue:
        if (skipping && ucmp_->Compare(ikey.user_key, *skip) <= 0) break;
        valid_ = true;
        merged_ = false;
        saved_key_.clear();
        return;
      case kTypeMerge:
        if (skipping && ucmp_->Compare(ikey.user_key, *skip) <= 0) break;
        if (!MergeForward(ikey)) {
          Invalidate();
          return;
        }
        valid_ = true;
        merged_ = true;
        return;
      default:
        status_ = RangeTombstoneUnsupported(ikey);
        Invalidate();
        return;
    }
  }
  Invalidate();
}

bool DBIter::MergeForward(const ParsedInternalKey& newest) {
  saved_key_.assign(newest.user_key.data(), newest.user_key.size());
  merge_context_.Clear();
  merge_context_.PushOperand(iter_->value());
  // Older versions of the key follow, all visible (the newest was).
  Slice base;
  bool has_base = false;
  for (iter_->Next(); iter_->Valid(); iter_->Next()) {
    ParsedInternalKey ikey;
    if (!ParseKey(&ikey)) return false;
    if (ucmp_->Compare(ikey.user_key, saved_key_) != 0) break;
    if (ikey.type == kTypeMerge) {
      merge_context_.PushOperand(iter_->value());
      continue;
    }
    if (ikey.type == kTypeRangeDeletion) {
      status_ = RangeTombstoneUnsupported(ikey);
      return false;
    }
    if (ikey.type == kTypeValue) {
      base = iter_->value();  // iter_ stays here until the merge is done
      has_base = true;
    }
    break;
  }
  if (!iter_->status().ok()) return false;
  status_ = FinishMerge(merge_operator_, saved_key_, has_base ? &base : nullptr,
                        &merge_context_, &saved_value_);
  return status_.ok();
}

void DBIter::FindPrevUserEntry() {
  // Walks backward over the entries of each user key, oldest visible
  // version first, so that the last one kept is the newest; stops at the
  // first entry of an earlier key once a live value is held.
  ValueType held = kTypeDeletion;
  // With held == kTypeMerge: whether saved_value_ is the operands' base.
  bool merge_has_base = false;
  merge_context_.Clear();
  while (iter_->Valid()) {
    ParsedInternalKey ikey;
    if (!ParseKey(&ikey)) {
      Invalidate();
      direction_ = kForward;
      return;
    }
    if (ikey.sequence <= sequence_) {
      if (held != kTypeDeletion &&
          ucmp_->Compare(ikey.user_key, saved_key_) < 0) {
        break;  // a live value for a later key is held
      }
      if (held == kTypeDeletion &&
          (BelowLower(ikey.user_key) || OutsidePrefix(ikey.user_key))) {
        break;
      }
      switch (ikey.type) {
        case kTypeDeletion:
        case kTypeSingleDeletion:
          held = kTypeDeletion;
          saved_key_.clear();
          saved_value_.clear();
          merge_context_.Clear();
          break;
        case kTypeValue:
          held = kTypeValue;
          saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
          saved_value_.assign(iter_->value().data(), iter_->value().size());
          merge_context_.Clear();
          break;
        case kTypeMerge:
          // Oldest first: operands pile up on the value (or nothing) held.
          if (held != kTypeMerge) {
            merge_has_base = held == kTypeValue;
            held = kTypeMerge;
            saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
          }
          merge_context_.PushNewerOperand(iter_->value());
          break;
        default:
          status_ = RangeTombstoneUnsupported(ikey);
          Invalidate();
          direction_ = kForward;
          return;
      }
    }
    iter_->Prev();
  }
  if (!iter_->Valid() && !iter_->status().ok()) {
    // The entries not read (a damaged table's) may hold a newer version
    // of the key held: yielding it would give a wrong value.
    Invalidate();
    direction_ = kForward;
    return;
  }
  if (held == kTypeDeletion || BelowLower(saved_key_) ||
      OutsidePrefix(saved_key_)) {
    Invalidate();
    direction_ = kForward;
    return;
  }
  if (held == kTypeMerge) {
    const Slice base(saved_value_);
    std::string merged;
    status_ =
        FinishMerge(merge_operator_, saved_key_,
                    merge_has_base ? &base : nullptr, &merge_context_, &merged);
    if (!status_.ok()) {
      Invalidate();
      direction_ = kForward;
      return;
    }
    saved_value_.swap(merged);
  }
  valid_ = true;
}

void DBIter::Seek(const Slice& target) {
  ConfineToPrefixOf(target);
  SeekInternal(target);
}

void DBIter::SeekInternal(const Slice& target) {
  direction_ = kForward;
  status_ = Status::OK();
  Slice start = BelowLower(target) ? *lower_ : target;
  ConfineSources(prefix_confined_ && !OutsidePrefix(start));
  InternalKey ikey(start, sequence_, kValueTypeForSeek);
  iter_->Seek(ikey.Encode());
  FindNextUserEntry(false, &saved_key_);
}

void DBIter::SeekToFirst() {
  prefix_confined_ = false;
  if (lower_ != nullptr) {
    SeekInternal(*lower_);
    return;
  }
  direction_ = kForward;
  status_ = Status::OK();
  ConfineSources(false);
  iter_->SeekToFirst();
  FindNextUserEntry(false, &saved_key_);
}

void DBIter::SeekForPrev(const Slice& target) {
  ConfineToPrefixOf(target);
  if (AboveUpper(target)) {
    SeekToLastBelowUpper();
    return;
  }
  direction_ = kReverse;
  status_ = Status::OK();
  Invalidate();
  // The smallest trailer sorts last: the seek lands on the oldest entry of
  // target, or on the last entry of an earlier key.
  InternalKey ikey(target, 0, kTypeDeletion);
  ConfineSources(prefix_confined_);
  iter_->SeekForPrev(ikey.Encode());
  FindPrevUserEntry();
}

void DBIter::SeekToLast() {
  prefix_confined_ = false;
  if (upper_ != nullptr) {
    SeekToLastBelowUpper();
    return;
  }
  direction_ = kReverse;
  status_ = Status::OK();
  Invalidate();
  ConfineSources(false);
  iter_->SeekToLast();
  FindPrevUserEntry();
}

void DBIter::SeekToLastBelowUpper() {
  direction_ = kReverse;
  status_ = Status::OK();
  Invalidate();
  // The largest trailer sorts first among *upper_'s entries, so the seek
  // lands on the last entry of a key below it.
  InternalKey ikey(*upper_, kMaxSequenceNumber, kValueTypeForSeek);
  ConfineSources(prefix_confined_ && !OutsidePrefix(*upper_));
  iter_->SeekForPrev(ikey.Encode());
  FindPrevUserEntry();
}

void DBIter::Next() {
  if (direction_ == kReverse) {
    // iter_ is just before the current key's entries: step into them, and
    // skip them below (saved_key_ holds the key).
    direction_ = kForward;
    if (prefix_confined_) {
      // Sources may have skipped a confined seek: iter_ may sit on a key
      // of another prefix that a skipped source would follow with keys
      // of ours. Seek to the current key instead, inside the prefix.
      InternalKey ikey(saved_key_, kMaxSequenceNumber, kValueTypeForSeek);
      iter_->Seek(ikey.Encode());
    } else if (!iter_->Valid()) {
      iter_->SeekToFirst();
    } else {
      iter_->Next();
    }
  } else if (merged_) {
    // saved_key_ holds the key; iter_ is already past its operands, on
    // an older version of it or on the next key.
    merged_ = false;
  } else {
    Slice current = ExtractUserKey(iter_->key());
    saved_key_.assign(current.data(), current.size());
    iter_->Next();
  }
  FindNextUserEntry(true, &saved_key_);
}

void DBIter::Prev() {
  if (direction_ == kForward && merged_) {
    // iter_ is past the current key (maybe at the end): seek to just
    // before its versions. saved_key_ lies inside any confining prefix.
    merged_ = false;
    direction_ = kReverse;
    InternalKey ikey(saved_key_, kMaxSequenceNumber, kValueTypeForSeek);
    ConfineSources(prefix_confined_);
    iter_->SeekForPrev(ikey.Encode());
  } else if (direction_ == kForward) {
    // iter_ is on the current entry: back up to the last entry of an
    // earlier key, so that the reverse scan starts there.
    Slice current = ExtractUserKey(iter_->key());
    saved_key_.assign(current.data(), current.size());
    for (;;) {
      iter_->Prev();
      if (!iter_->Valid()) {
        Invalidate();
        return;
      }
      if (ucmp_->Compare(ExtractUserKey(iter_->key()), saved_key_) < 0) {
        break;
      }
    }
    direction_ = kReverse;
  }
  FindPrevUserEntry();
}

}  // namespace

Iterator* NewDBIterator(const Comparator* user_comparator,
                        InternalIterator* internal, SequenceNumber sequence,
                        const Slice* lower_bound, const Slice* upper_bound,
                        std::function<void()> cleanup) {
  return new DBIter(user_comparator, internal, sequence, lower_bound,
                    upper_bound, nullptr, nullptr, std::move(cleanup));
}

Iterator* NewDBIterator(const Comparator* user_comparator,
                        InternalIterator* internal, SequenceNumber sequence,
                        const Slice* lower_bound, const Slice* upper_bound,
                        const SliceTransform* prefix_extractor,
                        const MergeOperator* merge_operator,
                        std::function<void()> cleanup) {
  return new DBIter(user_comparator, internal, sequence, lower_bound,
                    upper_bound, prefix_extractor, merge_operator,
                    std::move(cleanup));
}

}  // namespace strata
