#include "db/merge_helper.h"

#include <algorithm>

#include "util/logging.h"

namespace strata {

namespace {

Status NoOperator() {
  return Status::InvalidArgument("merge operator not set");
}

}  // namespace

Status FullMerge(const MergeOperator* op, const Slice& user_key,
                 const Slice* base_value, const std::vector<Slice>& operands,
                 std::string* result) {
  if (op == nullptr) return NoOperator();
  std::string merged;
  // A null data pointer marks "not set": an operator that answers with an
  // existing operand points it somewhere real, even at an empty one.
  Slice existing_operand(nullptr, 0);
  MergeOperator::MergeOperationInput in(user_key, base_value, operands,
                                        nullptr);
  MergeOperator::MergeOperationOutput out(merged, existing_operand);
  if (!op->FullMergeV2(in, &out)) {
    return Status::Corruption(
        std::string("merge operator ") + op->Name() + " failed for key ",
        EscapeString(user_key));
  }
  if (existing_operand.data() != nullptr) {
    result->assign(existing_operand.data(), existing_operand.size());
  } else {
    result->swap(merged);
  }
  return Status::OK();
}

void MergeContext::PushOperand(const Slice& operand) {
  operands_.emplace_front(operand.data(), operand.size());
}

void MergeContext::PushNewerOperand(const Slice& operand) {
  operands_.emplace_back(operand.data(), operand.size());
}

const std::vector<Slice>& MergeContext::OperandsOldestFirst() {
  slices_.clear();
  slices_.reserve(operands_.size());
  for (const std::string& operand : operands_) slices_.emplace_back(operand);
  return slices_;
}

Status FinishMerge(const MergeOperator* op, const Slice& user_key,
                   const Slice* base_value, MergeContext* context,
                   std::string* value) {
  return FullMerge(op, user_key, base_value, context->OperandsOldestFirst(),
                   value);
}

SnapshotStripes::SnapshotStripes(std::vector<SequenceNumber> snapshots)
    : snapshots_(std::move(snapshots)) {}

size_t SnapshotStripes::StripeOf(SequenceNumber seq) const {
  // The first snapshot that sees seq closes its stripe.
  return std::lower_bound(snapshots_.begin(), snapshots_.end(), seq) -
         snapshots_.begin();
}

SequenceNumber SnapshotStripes::StripeTop(size_t stripe) const {
  return stripe < snapshots_.size() ? snapshots_[stripe] : kMaxSequenceNumber;
}

MergeHelper::MergeHelper(const Comparator* user_cmp, const MergeOperator* op,
                         const SnapshotStripes* stripes,
                         CoveredFunction covered)
    : user_cmp_(user_cmp),
      op_(op),
      stripes_(stripes),
      covered_(std::move(covered)) {}

Status MergeHelper::MergeUntil(InternalIterator* iter, size_t stripe,
                               bool at_bottom, const OperandFilter* filter) {
  reads_.clear();
  output_.clear();
  if (op_ == nullptr) return NoOperator();

  // Owned: iter moves on, and reads_ may reallocate and move short
  // strings' bytes.
  const std::string user_key_copy = ExtractUserKey(iter->key()).ToString();
  const Slice user_key(user_key_copy);
  // The first operand; the caller has parsed it already.
  stats_.records_read++;
  Status s = ReadOperand(iter, user_key, filter);
  if (!s.ok()) return s;
  iter->Next();

  // Set when the walk ends at a version the operands merge into.
  bool have_base = false;
  bool base_is_value = false;
  bool base_covered = false;
  std::string base_key;
  std::string base_value;
  bool key_ended = true;  // false if stopped by an older stripe
  for (; iter->Valid(); iter->Next()) {
    ParsedInternalKey ikey;
    s = ParseInternalKey(iter->key(), &ikey);
    if (!s.ok()) {
      return Status::Corruption(
          "merging operands of '" + EscapeString(user_key) + "': ",
          s.getState());
    }
    if (user_cmp_->Compare(ikey.user_key, user_key) != 0) break;
    if (ikey.type == kTypeRangeDeletion) {
      reads_.push_back(
          {iter->key().ToString(), iter->value().ToString(), false});
      stats_.records_read++;
      stats_.range_tombstones++;
      continue;
    }
    if (stripes_->StripeOf(ikey.sequence) != stripe) {
      key_ended = false;
      break;
    }
    stats_.records_read++;
    const bool covered = covered_ && covered_(ikey);
    if (covered) stats_.range_deleted++;
    if (ikey.type == kTypeMerge) {
      if (!covered) s = ReadOperand(iter, user_key, filter);
      if (!s.ok()) return s;
      continue;
    }
    // A value or deletion of this stripe: the operands' base. Covered, it
    // is as if the key had no value.
    if (!covered) stats_.base_consumed++;
    have_base = true;
    base_covered = covered;
    base_is_value = ikey.type == kTypeValue && !covered;
    base_key = iter->key().ToString();
    base_value = iter->value().ToString();
    iter->Next();
    break;
  }
  if (!iter->status().ok()) return iter->status();

  std::vector<Slice> operands;  // oldest first
  for (auto it = reads_.rbegin(); it != reads_.rend(); ++it) {
    if (it->is_operand) operands.emplace_back(it->value);
  }
  if (operands.empty()) {
    // The filter removed every operand: what is left is as read.
    for (Read& read : reads_) {
      output_.emplace_back(std::move(read.key), std::move(read.value));
    }
    if (have_base && !base_covered) {
      stats_.base_consumed--;
      output_.emplace_back(std::move(base_key), std::move(base_value));
    }
    return Status::OK();
  }
  if (have_base || (at_bottom && key_ended)) {
    Slice base(base_value);
    std::string result;
    s = FullMerge(op_, user_key, base_is_value ? &base : nullptr, operands,
                  &result);
    if (!s.ok()) return s;
    stats_.full_merges++;
    EmitCombined(kTypeValue, &result);
    return Status::OK();
  }
  if (operands.size() >= 2) {
    std::deque<Slice> list(operands.begin(), operands.end());
    std::string result;
    if (op_->PartialMergeMulti(user_key, list, &result, nullptr)) {
      stats_.partial_merges++;
      EmitCombined(kTypeMerge, &result);
      return Status::OK();
    }
  }
  // Nothing to merge with, and the operator cannot combine operands
  // alone: write them as read.
  for (Read& read : reads_) {
    output_.emplace_back(std::move(read.key), std::move(read.value));
  }
  return Status::OK();
}

Status MergeHelper::ReadOperand(InternalIterator* iter, const Slice& user_key,
                                const OperandFilter* filter) {
  stats_.operands_read++;
  if (filter != nullptr) {
    bool remove = false;
    Status s = (*filter)(user_key, iter->value(), &remove);
    if (!s.ok()) return s;
    if (remove) {
      stats_.operands_filtered++;
      return Status::OK();
    }
  }
  reads_.push_back({iter->key().ToString(), iter->value().ToString(), true});
  return Status::OK();
}

void MergeHelper::EmitCombined(ValueType t, std::string* result) {
  // The result takes the newest kept operand's place; tombstones read
  // before it are newer and sort first, the others after it.
  size_t newest = 0;
  while (!reads_[newest].is_operand) newest++;
  for (size_t i = 0; i < newest; i++) {
    output_.emplace_back(std::move(reads_[i].key), std::move(reads_[i].value));
  }
  const Slice newest_key = reads_[newest].key;
  std::string key;
  AppendInternalKey(&key, ParsedInternalKey(ExtractUserKey(newest_key),
                                            ExtractSequence(newest_key), t));
  output_.emplace_back(std::move(key), std::move(*result));
  for (size_t i = newest + 1; i < reads_.size(); i++) {
    if (!reads_[i].is_operand) {
      output_.emplace_back(std::move(reads_[i].key),
                           std::move(reads_[i].value));
    }
  }
}

}  // namespace strata
