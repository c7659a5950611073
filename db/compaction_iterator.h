// CompactionIterator: turns the sorted entries a flush or compaction reads
// into the entries it writes, dropping what no reader can see.
//
// Snapshots split sequence numbers into stripes (db/merge_helper.h,
// SnapshotStripes); every reader — each snapshot, and the latest view —
// sees either all of a stripe's versions of a key or none. Rules, per user
// key, newest version first (docs/compaction_iterator.md):
//  - only the newest version of the key in each stripe is kept (and a
//    hidden single deletion whose Put may lie below it: it must still
//    cancel that Put);
//  - an entry a range tombstone of its stripe covers is dropped (the
//    covered_by_range_del hook decides);
//  - a single deletion that meets a value of its stripe just below it
//    drops with it when that is the oldest stripe (no snapshot is older);
//    the key's older entries of the stripe are then judged afresh. In a
//    newer stripe, or in a flush, it stays as a deletion and the value
//    goes as hidden;
//  - merge operands are combined by MergeHelper::MergeUntil;
//  - at the bottommost level (no older data below this input), a deletion
//    or unpaired single deletion of the oldest stripe is dropped, with
//    every older version of its key: no reader sees below it. Above the
//    bottommost level tombstones stay: they hide data below;
//  - so the newest version of a key in any stripe but the oldest, the
//    newest write some snapshot did not see, leaves an entry at or above
//    its sequence number (unless a compaction filter removes it, above
//    the newest snapshot): a transaction holding that snapshot finds it
//    in its conflict check (DBImpl::GetLatestSequenceForKey);
//  - kTypeRangeDeletion entries pass through untouched;
//  - with a compaction filter (CompactionFilterUse), the newest version of
//    a key in a stripe no snapshot sees (above the newest snapshot) is
//    shown to it if it is a value, and its merge operands are too; what
//    the filter decides applies only there (docs/compaction.md,
//    "Compaction filters").
// Output keys stay in internal-key order. A damaged key stops the
// iterator with Corruption; so does an entry newer than last_sequence.
//
// Thread safety: one thread at a time.

#ifndef STRATA_DB_COMPACTION_ITERATOR_H_
#define STRATA_DB_COMPACTION_ITERATOR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "db/compaction_filter_use.h"
#include "db/dbformat.h"
#include "db/merge_helper.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

// Counts for compaction statistics. Every input record is accounted for:
//   input = output + dropped_hidden + dropped_obsolete_tombstones
//           + 2 * single_delete_pairs + dropped_range_deleted
//           + merged_away + filtered
struct CompactionIteratorStats {
  uint64_t num_input_records = 0;
  uint64_t num_output_records = 0;
  // Shadowed by a newer version of the key in the same stripe.
  uint64_t num_dropped_hidden = 0;
  // Deletions and single deletions dropped at the bottommost level.
  uint64_t num_dropped_obsolete_tombstones = 0;
  // Single deletions dropped together with the value they delete.
  uint64_t num_single_delete_pairs = 0;
  // Covered by a range tombstone of their stripe.
  uint64_t num_dropped_range_deleted = 0;
  // Operands (and base versions) a merge folded into fewer entries.
  uint64_t num_merged_away = 0;
  uint64_t num_full_merges = 0;
  uint64_t num_partial_merges = 0;
  // kTypeRangeDeletion entries passed through (also counted as output).
  uint64_t num_range_tombstones = 0;
  // Entries the compaction filter dropped (kRemoveAndSkipUntil); operands
  // it removed count in num_merged_away, values it turned into deletions
  // as output.
  uint64_t num_filtered = 0;
};

class CompactionIterator {
 public:
  using CoveredFunction = MergeHelper::CoveredFunction;

  // drop_single_delete_pairs false (a flush): a single deletion that
  // meets its Put in its stripe stays, as the key's newest version (as a
  // deletion), and only the Put goes: transactions' conflict checks read a
  // key's newest sequence (DBImpl::GetLatestSequenceForKey), and a write they
  // must see would vanish with the pair.
  //
  // input (not owned) yields internal keys in order; snapshots sorted
  // ascending; last_sequence the newest sequence number in the DB (the
  // latest view sees everything up to it). merge_operator may be null
  // (a merge operand is then InvalidArgument). covered_by_range_del may be
  // empty. user_cmp, merge_operator and filter.filter must outlive the
  // iterator.
  CompactionIterator(InternalIterator* input, const Comparator* user_cmp,
                     std::vector<SequenceNumber> snapshots,
                     SequenceNumber last_sequence, bool bottommost_level,
                     const MergeOperator* merge_operator,
                     CoveredFunction covered_by_range_del,
                     CompactionFilterUse filter = CompactionFilterUse(),
                     bool drop_single_delete_pairs = true);
  CompactionIterator(const CompactionIterator&) = delete;
  CompactionIterator& operator=(const CompactionIterator&) = delete;

  // Positions input at its first entry and finds the first output.
  void SeekToFirst();
  // REQUIRES: Valid()
  void Next();

  bool Valid() const { return valid_; }
  // REQUIRES: Valid(). Stay valid until the next move.
  Slice key() const;
  Slice value() const;
  const ParsedInternalKey& ikey() const { return ikey_; }

  // Non-OK stops the iterator; the compaction must fail.
  Status status() const { return status_; }
  const CompactionIteratorStats& stats() const { return stats_; }

 private:
  // Finds the next output entry, reading input as needed.
  void FindNextOutput();
  // Emits pending_[pending_pos_] if there is one.
  bool EmitPending();
  // Emits input's current entry.
  void EmitInput(const ParsedInternalKey& ikey);
  // Parses input's current key; false (status_ set) on damage.
  bool ParseInput(ParsedInternalKey* ikey);
  // Runs MergeUntil from input's merge operand and queues its output.
  void Merge(size_t stripe);
  // Passes range tombstones of the current user key into pending_.
  // Returns false if input ended or failed; else *next is input's entry.
  bool SkipToNextPoint(ParsedInternalKey* next);
  // A single deletion hidden by a newer version in its stripe: kept
  // unless its Put follows in the stripe or nothing it could cancel does.
  void KeepHiddenSingleDeletion(size_t stripe);
  // Decides a deletion or unpaired single deletion (copied into pending_
  // front, input past it) at the bottommost level.
  void DecideBottommostTombstone(size_t stripe);
  // Shows input's current value (the newest of its stripe, filterable)
  // to the filter and carries out its decision. True if it emitted the
  // entry; else the result (if any) is in pending_ and input has moved.
  bool FilterValue(const ParsedInternalKey& ikey, size_t stripe);
  // Whether ikey falls in a kRemoveAndSkipUntil range and goes.
  bool Skipped(const ParsedInternalKey& ikey);
  // The filter's verdict on a merge operand (MergeHelper::OperandFilter).
  Status FilterOperand(const Slice& user_key, const Slice& operand,
                       bool* remove) const;
  void Fail(const Status& s);
  void SetStatusFromInput();

  InternalIterator* const input_;
  const Comparator* const user_cmp_;
  const SnapshotStripes stripes_;
  const SequenceNumber last_sequence_;
  const bool bottommost_;
  const bool drop_single_delete_pairs_;
  const CoveredFunction covered_;
  MergeHelper merge_helper_;
  const CompactionFilterUse filter_;
  const MergeHelper::OperandFilter operand_filter_;
  // Set by kRemoveAndSkipUntil: filterable entries of keys before
  // skip_until_ are dropped.
  bool skipping_ = false;
  std::string skip_until_;
  std::string new_value_;  // the filter's outputs
  std::string filter_skip_until_;

  // The user key whose versions are being read, and the stripe of its
  // newest version judged so far (kNoStripe: none yet).
  static constexpr size_t kNoStripe = ~size_t{0};
  std::string current_user_key_;
  bool has_current_user_key_ = false;
  size_t current_stripe_ = kNoStripe;

  // Entries to emit before reading more input.
  std::vector<std::pair<std::string, std::string>> pending_;
  size_t pending_pos_ = 0;
  bool from_input_ = false;  // the current entry is input_'s

  ParsedInternalKey ikey_;
  bool valid_ = false;
  Status status_;
  CompactionIteratorStats stats_;
};

}  // namespace strata

#endif  // STRATA_DB_COMPACTION_ITERATOR_H_
