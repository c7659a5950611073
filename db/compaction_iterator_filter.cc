// CompactionIterator's use of a compaction filter (the rules in
// db/compaction_iterator.h and docs/compaction.md, "Compaction filters").

#include "db/compaction_iterator.h"
#include "util/logging.h"

namespace strata {

namespace {

Status Unsupported(const CompactionFilter* filter,
                   CompactionFilter::Decision decision, const char* what,
                   const Slice& user_key) {
  return Status::NotSupported(
      std::string("compaction filter ") + filter->Name() + " returned " +
          "decision " + NumberToString(static_cast<uint64_t>(decision)) +
          " for " + what + " of key '" + EscapeString(user_key) + "'",
      "strata takes kKeep, kRemove, kChangeValue and kRemoveAndSkipUntil "
      "for values, kKeep and kRemove for merge operands");
}

}  // namespace

bool CompactionIterator::Skipped(const ParsedInternalKey& ikey) {
  if (user_cmp_->Compare(ikey.user_key, skip_until_) >= 0) {
    skipping_ = false;
    return false;
  }
  // A snapshot's entries stay even inside the range.
  return filter_.Filterable(ikey.sequence);
}

bool CompactionIterator::FilterValue(const ParsedInternalKey& ikey,
                                     size_t stripe) {
  using Decision = CompactionFilter::Decision;
  new_value_.clear();
  filter_skip_until_.clear();
  Decision decision = filter_.filter->FilterV2(
      filter_.level, ikey.user_key, CompactionFilter::kValue, input_->value(),
      &new_value_, &filter_skip_until_);
  if (decision == Decision::kRemoveAndSkipUntil &&
      user_cmp_->Compare(filter_skip_until_, ikey.user_key) <= 0) {
    decision = Decision::kKeep;  // it may not skip backwards
  }
  switch (decision) {
    case Decision::kKeep:
      EmitInput(ikey);
      return true;
    case Decision::kChangeValue:
      pending_.emplace_back(input_->key().ToString(), new_value_);
      input_->Next();
      return false;
    case Decision::kRemove: {
      // A deletion in the value's place: it still hides older versions
      // below, and snapshots' versions of the key stay as they are.
      std::string key;
      AppendInternalKey(
          &key, ParsedInternalKey(ikey.user_key, ikey.sequence, kTypeDeletion));
      pending_.emplace_back(std::move(key), std::string());
      input_->Next();
      if (bottommost_) DecideBottommostTombstone(stripe);
      return false;
    }
    case Decision::kRemoveAndSkipUntil:
      stats_.num_filtered++;
      skipping_ = true;
      skip_until_.swap(filter_skip_until_);
      input_->Next();
      return false;
    default:
      Fail(Unsupported(filter_.filter, decision, "a value", ikey.user_key));
      return false;
  }
}

Status CompactionIterator::FilterOperand(const Slice& user_key,
                                         const Slice& operand,
                                         bool* remove) const {
  using Decision = CompactionFilter::Decision;
  std::string new_value;
  std::string skip_until;
  const Decision decision = filter_.filter->FilterV2(
      filter_.level, user_key, CompactionFilter::kMergeOperand, operand,
      &new_value, &skip_until);
  if (decision != Decision::kKeep && decision != Decision::kRemove) {
    return Unsupported(filter_.filter, decision, "a merge operand", user_key);
  }
  *remove = decision == Decision::kRemove;
  return Status::OK();
}

}  // namespace strata
