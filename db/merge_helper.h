// Merge resolution shared by reads and compaction.
//
// - FullMerge: applies a key's operands (oldest first) to its base value
//   (or none) through the MergeOperator; the one place a merge failure
//   becomes a Status.
// - MergeContext + FinishMerge: the read side. A point lookup or DBIter
//   collects the operands it meets, then finishes with the base value it
//   stopped at (a Put) or none (a deletion, or no older version).
// - SnapshotStripes: which snapshot stripe a sequence number falls in.
//   Snapshots s1 < ... < sn split sequence numbers into stripes
//   [0, s1], (s1, s2], ..., (sn, last]; every snapshot sees either all of
//   a stripe's versions of a key or none, so a compaction need keep only
//   the newest version of a key per stripe.
// - MergeHelper::MergeUntil: the compaction side. Starting at a merge
//   operand, it collects the key's operands within one stripe, combines
//   them with a base value / deletion of that stripe (full merge), or
//   with nothing at the bottommost level, or with each other
//   (PartialMergeMulti), or leaves them as they are.
//
// Thread safety: FullMerge and FinishMerge are safe to call at once (the
// operator's contract). A MergeContext or MergeHelper is used by one
// thread at a time.

#ifndef STRATA_DB_MERGE_HELPER_H_
#define STRATA_DB_MERGE_HELPER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

// Merges operands (oldest first) into *base_value (null: the key has no
// value) and stores the result in *result. Corruption naming the operator
// and the key if the operator returns false; InvalidArgument if op is null
// ("merge operator not set"). REQUIRES: !operands.empty()
Status FullMerge(const MergeOperator* op, const Slice& user_key,
                 const Slice* base_value, const std::vector<Slice>& operands,
                 std::string* result);

// The operands a read met for one key. Owns copies, so the read may move
// past the entries they came from.
class MergeContext {
 public:
  // Adds an operand older than every one held: a Get or a forward scan
  // meets a key's versions newest first.
  void PushOperand(const Slice& operand);
  // Adds an operand newer than every one held (a backward scan).
  void PushNewerOperand(const Slice& operand);

  size_t NumOperands() const { return operands_.size(); }
  bool empty() const { return operands_.empty(); }
  void Clear() { operands_.clear(); }

  // Oldest first; valid until the context changes.
  const std::vector<Slice>& OperandsOldestFirst();

 private:
  std::deque<std::string> operands_;  // oldest first
  std::vector<Slice> slices_;
};

// Finishes a read that met context's operands: merges them into
// *base_value (null if the read stopped at a deletion or ran out of
// versions) into *value. Errors as FullMerge's. REQUIRES: !context->empty()
Status FinishMerge(const MergeOperator* op, const Slice& user_key,
                   const Slice* base_value, MergeContext* context,
                   std::string* value);

// Maps a sequence number to its snapshot stripe: 0 for [0, s1], ..., n
// (the number of snapshots) for the newest stripe above sn.
class SnapshotStripes {
 public:
  // REQUIRES: snapshots sorted ascending (duplicates allowed).
  explicit SnapshotStripes(std::vector<SequenceNumber> snapshots);

  size_t StripeOf(SequenceNumber seq) const;
  // The newest sequence number of stripe i, or kMaxSequenceNumber for the
  // newest stripe.
  SequenceNumber StripeTop(size_t stripe) const;
  size_t NumStripes() const { return snapshots_.size() + 1; }

 private:
  std::vector<SequenceNumber> snapshots_;
};

// Compaction-side merging; see the file comment.
class MergeHelper {
 public:
  // What MergeUntil did, for compaction statistics.
  struct Stats {
    uint64_t records_read = 0;       // every entry consumed, tombstones too
    uint64_t operands_read = 0;      // merge operands consumed
    uint64_t full_merges = 0;        // results written as a value
    uint64_t partial_merges = 0;     // operands combined into one operand
    uint64_t base_consumed = 0;      // value / deletion folded into a result
    uint64_t range_deleted = 0;      // entries a range tombstone covered
    uint64_t range_tombstones = 0;   // kTypeRangeDeletion entries passed on
    uint64_t operands_filtered = 0;  // removed by the compaction filter
  };

  // Whether a range tombstone of the entry's snapshot stripe covers it
  // (may be empty: nothing is covered).
  using CoveredFunction = std::function<bool(const ParsedInternalKey&)>;
  // A compaction filter's verdict on one operand of user_key: *remove
  // drops it. Non-OK fails the merge.
  using OperandFilter = std::function<Status(
      const Slice& user_key, const Slice& operand, bool* remove)>;

  // The pointers are not owned and must outlive the helper. op may be null
  // (MergeUntil then fails with InvalidArgument).
  MergeHelper(const Comparator* user_cmp, const MergeOperator* op,
              const SnapshotStripes* stripes, CoveredFunction covered);

  // REQUIRES: iter is on a kTypeMerge entry, in stripe `stripe`, not
  // covered by a range tombstone.
  //
  // Reads entries of that user key from iter while they are in the same
  // stripe. Range tombstones (of the key) are passed through; covered
  // operands are dropped. It stops at:
  //  - a value, deletion or single deletion of the stripe: consumed, and
  //    the operands full-merged into it (a covered one counts as none);
  //  - an entry of an older stripe, or of another key, or the end: full
  //    merge with no base if at_bottom and no older version of the key
  //    exists; otherwise the operands are partial-merged if there are
  //    several and the operator can, or kept as they are.
  // On return iter is on the first entry not consumed, and output() holds
  // the entries to write in internal-key order. A merge result carries
  // the newest kept operand's sequence number. Corruption if an entry's
  // key is damaged or the operator fails; iter's status if it fails.
  //
  // filter (may be null) is asked about each operand first; an operand it
  // removes is dropped as if it had never been written. When every
  // operand goes, the base (if any) is written as read.
  Status MergeUntil(InternalIterator* iter, size_t stripe, bool at_bottom,
                    const OperandFilter* filter = nullptr);

  // (internal key, value) pairs from the last MergeUntil.
  const std::vector<std::pair<std::string, std::string>>& output() const {
    return output_;
  }
  // Totals over every MergeUntil call.
  const Stats& stats() const { return stats_; }

 private:
  // An entry read by MergeUntil: an operand, or a passed-on tombstone.
  struct Read {
    std::string key;
    std::string value;
    bool is_operand;
  };

  // Fills output_ from reads_ with result (the merged value or operand)
  // written under the newest operand's key with type t.
  void EmitCombined(ValueType t, std::string* result);
  // Adds the read at iter's current entry, unless filter removes it.
  Status ReadOperand(InternalIterator* iter, const Slice& user_key,
                     const OperandFilter* filter);

  const Comparator* const user_cmp_;
  const MergeOperator* const op_;
  const SnapshotStripes* const stripes_;
  const CoveredFunction covered_;

  std::vector<Read> reads_;  // input order: newest first
  std::vector<std::pair<std::string, std::string>> output_;
  Stats stats_;
};

}  // namespace strata

#endif  // STRATA_DB_MERGE_HELPER_H_
