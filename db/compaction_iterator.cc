#include "db/compaction_iterator.h"

#include "util/logging.h"

namespace strata {

CompactionIterator::CompactionIterator(
    InternalIterator* input, const Comparator* user_cmp,
    std::vector<SequenceNumber> snapshots, SequenceNumber last_sequence,
    bool bottommost_level, const MergeOperator* merge_operator,
    CoveredFunction covered_by_range_del, CompactionFilterUse filter,
    bool drop_single_delete_pairs)
    : input_(input),
      user_cmp_(user_cmp),
      stripes_(std::move(snapshots)),
      last_sequence_(last_sequence),
      bottommost_(bottommost_level),
      drop_single_delete_pairs_(drop_single_delete_pairs),
      covered_(std::move(covered_by_range_del)),
      merge_helper_(user_cmp, merge_operator, &stripes_, covered_),
      filter_(filter),
      operand_filter_(
          [this](const Slice& user_key, const Slice& operand, bool* remove) {
            return FilterOperand(user_key, operand, remove);
          }) {}

Slice CompactionIterator::key() const {
  return from_input_ ? input_->key() : Slice(pending_[pending_pos_].first);
}

Slice CompactionIterator::value() const {
  return from_input_ ? input_->value() : Slice(pending_[pending_pos_].second);
}

void CompactionIterator::SeekToFirst() {
  status_ = Status::OK();
  stats_ = CompactionIteratorStats();
  pending_.clear();
  pending_pos_ = 0;
  from_input_ = false;
  has_current_user_key_ = false;
  current_stripe_ = kNoStripe;
  skipping_ = false;
  input_->SeekToFirst();
  FindNextOutput();
}

void CompactionIterator::Next() {
  if (from_input_) {
    from_input_ = false;
    input_->Next();
  } else {
    pending_pos_++;
  }
  FindNextOutput();
}

void CompactionIterator::Fail(const Status& s) {
  status_ = s;
  valid_ = false;
  pending_.clear();
  pending_pos_ = 0;
  from_input_ = false;
}

void CompactionIterator::SetStatusFromInput() {
  if (!input_->status().ok()) Fail(input_->status());
}

bool CompactionIterator::ParseInput(ParsedInternalKey* ikey) {
  Status s = ParseInternalKey(input_->key(), ikey);
  if (!s.ok()) {
    Fail(Status::Corruption("compaction input after " +
                                NumberToString(stats_.num_input_records) +
                                " records: ",
                            s.getState()));
    return false;
  }
  return true;
}

void CompactionIterator::EmitInput(const ParsedInternalKey& ikey) {
  ikey_ = ikey;
  from_input_ = true;
  valid_ = true;
  stats_.num_output_records++;
}

bool CompactionIterator::EmitPending() {
  if (pending_pos_ >= pending_.size()) {
    pending_.clear();
    pending_pos_ = 0;
    return false;
  }
  // Built by this iterator or parsed before it was queued.
  ParseInternalKey(pending_[pending_pos_].first, &ikey_);
  from_input_ = false;
  valid_ = true;
  stats_.num_output_records++;
  return true;
}

void CompactionIterator::FindNextOutput() {
  valid_ = false;
  if (!status_.ok() || EmitPending()) return;
  for (;;) {
    if (!input_->Valid()) {
      SetStatusFromInput();
      return;
    }
    ParsedInternalKey ikey;
    if (!ParseInput(&ikey)) return;
    stats_.num_input_records++;
    if (ikey.type == kTypeRangeDeletion) {
      // The range-deletion aggregator owns these; they shadow nothing here.
      stats_.num_range_tombstones++;
      EmitInput(ikey);
      return;
    }
    if (ikey.sequence > last_sequence_) {
      Fail(
          Status::Corruption("compaction input entry newer than the last "
                             "sequence number: ",
                             ikey.DebugString()));
      return;
    }
    if (skipping_ && Skipped(ikey)) {
      stats_.num_filtered++;
      input_->Next();
      continue;
    }
    if (!has_current_user_key_ ||
        user_cmp_->Compare(ikey.user_key, current_user_key_) != 0) {
      current_user_key_.assign(ikey.user_key.data(), ikey.user_key.size());
      has_current_user_key_ = true;
      current_stripe_ = kNoStripe;
    }
    const size_t stripe = stripes_.StripeOf(ikey.sequence);
    if (stripe == current_stripe_ && ikey.type == kTypeSingleDeletion) {
      KeepHiddenSingleDeletion(stripe);
      if (!status_.ok() || EmitPending()) return;
      continue;
    }
    if (stripe == current_stripe_) {
      stats_.num_dropped_hidden++;
      input_->Next();
      continue;
    }
    current_stripe_ = stripe;
    if (covered_ && covered_(ikey)) {
      stats_.num_dropped_range_deleted++;
      input_->Next();
      continue;
    }

    switch (ikey.type) {
      case kTypeValue:
        if (filter_.Filterable(ikey.sequence)) {
          if (FilterValue(ikey, stripe)) return;
          break;
        }
        EmitInput(ikey);
        return;
      case kTypeMerge:
        Merge(stripe);
        break;
      case kTypeDeletion:
        if (!bottommost_) {
          EmitInput(ikey);
          return;
        }
        pending_.emplace_back(input_->key().ToString(),
                              input_->value().ToString());
        input_->Next();
        DecideBottommostTombstone(stripe);
        break;
      default: {  // kTypeSingleDeletion
        pending_.emplace_back(input_->key().ToString(),
                              input_->value().ToString());
        input_->Next();
        ParsedInternalKey next;
        const bool have_next = SkipToNextPoint(&next);
        const bool meets_put =
            have_next && next.type == kTypeValue &&
            user_cmp_->Compare(next.user_key, current_user_key_) == 0 &&
            stripes_.StripeOf(next.sequence) == stripe;
        if (meets_put && drop_single_delete_pairs_ && stripe == 0) {
          // The value the single deletion deletes: no reader of the
          // stripe saw it, and no snapshot is older than it (whose
          // transaction would look for a write after it), so both go.
          // What lies below was hidden by neither for certain (outside
          // the contract of include/strata/db.h a Delete may precede the
          // Put), so the stripe's next version is judged as if it were
          // the newest.
          stats_.num_input_records++;
          stats_.num_single_delete_pairs++;
          input_->Next();
          pending_.erase(pending_.begin());
          current_stripe_ = kNoStripe;
        } else if (meets_put) {
          // A newer stripe, or a flush: the single deletion stays, the
          // key's newest write for the conflict checks of transactions
          // holding an older snapshot, and its Put goes as hidden. It
          // stays as a Delete at its own sequence number: the stripe's
          // older versions now go as hidden below it, so it must hide
          // what they hid (a Delete before the Put, say), and with its
          // Put gone it must never pair with an older one.
          stats_.num_input_records++;
          stats_.num_dropped_hidden++;
          input_->Next();
          std::string& key = pending_.front().first;
          key.clear();
          AppendInternalKey(&key,
                            ParsedInternalKey(current_user_key_, ikey.sequence,
                                              kTypeDeletion));
          if (bottommost_) DecideBottommostTombstone(stripe);
        } else if (status_.ok() && bottommost_) {
          DecideBottommostTombstone(stripe);
        }
        break;
      }
    }
    if (!status_.ok() || EmitPending()) return;
  }
}

void CompactionIterator::KeepHiddenSingleDeletion(size_t stripe) {
  // A newer version of the key hides this single deletion from every
  // reader, but it still has the Put it was written for to cancel, which
  // may lie in an older stripe (kept for a snapshot) or below this
  // compaction: dropped, that Put would outlive it, and come back once a
  // later single deletion cancels the newer version. So it goes out,
  // unless its Put is next in the stripe (both hidden: both go) or, at
  // the bottommost level, no value follows for it to cancel.
  pending_.emplace_back(input_->key().ToString(), input_->value().ToString());
  input_->Next();
  ParsedInternalKey next;
  const bool have_next = SkipToNextPoint(&next);
  if (!status_.ok()) return;
  const bool same_key =
      have_next && user_cmp_->Compare(next.user_key, current_user_key_) == 0;
  if (same_key && next.type == kTypeValue &&
      stripes_.StripeOf(next.sequence) == stripe) {
    stats_.num_input_records++;
    stats_.num_dropped_hidden += 2;
    input_->Next();
    pending_.erase(pending_.begin());
  } else if (bottommost_ && !(same_key && (next.type == kTypeValue ||
                                           next.type == kTypeMerge))) {
    stats_.num_dropped_hidden++;
    pending_.erase(pending_.begin());
  }
}

void CompactionIterator::Merge(size_t stripe) {
  const MergeHelper::Stats before = merge_helper_.stats();
  // The newest snapshot closes a stripe: the operand's whole stripe lies
  // on its side of it.
  const bool filterable = filter_.Filterable(ExtractSequence(input_->key()));
  Status s = merge_helper_.MergeUntil(input_, stripe, bottommost_,
                                      filterable ? &operand_filter_ : nullptr);
  const MergeHelper::Stats& after = merge_helper_.stats();
  const uint64_t read = after.records_read - before.records_read;
  const uint64_t tombstones = after.range_tombstones - before.range_tombstones;
  const uint64_t covered = after.range_deleted - before.range_deleted;
  stats_.num_input_records += read - 1;  // the first operand is counted
  stats_.num_range_tombstones += tombstones;
  stats_.num_dropped_range_deleted += covered;
  stats_.num_full_merges += after.full_merges - before.full_merges;
  stats_.num_partial_merges += after.partial_merges - before.partial_merges;
  if (!s.ok()) {
    Fail(s);
    return;
  }
  const auto& output = merge_helper_.output();
  stats_.num_merged_away +=
      (read - tombstones - covered) - (output.size() - tombstones);
  pending_.insert(pending_.end(), output.begin(), output.end());
}

bool CompactionIterator::SkipToNextPoint(ParsedInternalKey* next) {
  while (input_->Valid()) {
    if (!ParseInput(next)) return false;
    if (next->type != kTypeRangeDeletion ||
        user_cmp_->Compare(next->user_key, current_user_key_) != 0) {
      return true;
    }
    // Older than the tombstone being decided (same key, later in order):
    // it goes out after it.
    stats_.num_input_records++;
    stats_.num_range_tombstones++;
    pending_.emplace_back(input_->key().ToString(), input_->value().ToString());
    input_->Next();
  }
  SetStatusFromInput();
  return false;
}

void CompactionIterator::DecideBottommostTombstone(size_t stripe) {
  // Above the oldest stripe a snapshot is older than the tombstone: a
  // transaction holding it checks for writes to the key after it
  // (DBImpl::GetLatestSequenceForKey), and the tombstone is the key's
  // newest write. It stays; the stripe's older versions go as hidden.
  if (stripe != 0) return;
  // In the oldest stripe no snapshot reads below the tombstone, and
  // nothing lies below this input: it goes, with every older version of
  // its key (all in its stripe, hidden by it anyway).
  ParsedInternalKey next;
  while (SkipToNextPoint(&next)) {
    if (user_cmp_->Compare(next.user_key, current_user_key_) != 0) break;
    stats_.num_input_records++;
    stats_.num_dropped_hidden++;
    input_->Next();
  }
  if (!status_.ok()) return;
  stats_.num_dropped_obsolete_tombstones++;
  pending_.erase(pending_.begin());
}

}  // namespace strata
