// RangeDelAggregator: answers "is this point entry deleted by a range
// tombstone?" over the tombstones of several sources (memtables and
// tables), for one read or one compaction.
//
// A tombstone with sequence t deletes entry (k, s) when it covers k and
// t > s, and — the two modes —
//   - read at sequence r: t <= r (the reader sees the tombstone);
//   - compaction with snapshots S (ascending): t and s lie in the same
//     snapshot stripe, i.e. no snapshot x has s <= x < t. Otherwise some
//     snapshot sees the entry without the tombstone, and the entry must
//     stay. (Stripe of a sequence q: the smallest snapshot >= q; sequences
//     above every snapshot form the last stripe.)
// Both reduce to one query: the largest covering sequence at or below a
// bound (r, or the top of the entry's stripe), compared with s.
//
// Positioning: each source keeps a cursor. With kForwardTraversal /
// kBackwardTraversal the cursor moves a few fragments from where the last
// query left it (then falls back to a binary search), so a sorted scan
// costs O(1) per key per source; kRandomAccess always binary-searches. A
// mode only picks the cheap path: queries in any order are answered
// correctly in every mode.
//
// Compaction output: TombstonesForOutput gives the tombstones an output
// file must hold for its key range, with the redundant ones removed (see
// there).
//
// Thread safety: one thread at a time (the cursors move on every query).
// Sources added as FragmentedRangeTombstoneList are shared, immutable.

#ifndef STRATA_DB_RANGE_DEL_AGGREGATOR_H_
#define STRATA_DB_RANGE_DEL_AGGREGATOR_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "db/dbformat.h"
#include "db/range_tombstone_fragmenter.h"
#include "strata/comparator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

enum class RangeDelPositioning {
  kForwardTraversal,   // keys arrive in ascending user key order
  kBackwardTraversal,  // keys arrive in descending user key order
  kRandomAccess,       // no order
};

class RangeDelAggregator {
 public:
  // For a read at read_seq. ucmp must outlive the aggregator.
  static RangeDelAggregator ForRead(const Comparator* ucmp,
                                    SequenceNumber read_seq);
  // For a compaction; snapshots sorted ascending (duplicates allowed).
  static RangeDelAggregator ForCompaction(
      const Comparator* ucmp, std::vector<SequenceNumber> snapshots);

  RangeDelAggregator(RangeDelAggregator&&) = default;
  RangeDelAggregator& operator=(RangeDelAggregator&&) = default;

  // Adds the tombstones of one source: iter as a memtable's or table's
  // NewRangeTombstoneIterator (null: none) is read to the end now and may
  // be deleted afterwards. An iterator error or a non-tombstone entry is
  // returned and nothing is added.
  Status AddTombstones(InternalIterator* iter);
  // Adds a source fragmented already (e.g. kept with an open table).
  void AddTombstones(std::shared_ptr<const FragmentedRangeTombstoneList> list);

  // True if no tombstone has been added.
  bool IsEmpty() const { return sources_.empty(); }

  // Whether a range tombstone deletes key under this aggregator's mode
  // (above). A range tombstone key itself is never deleted.
  bool ShouldDelete(
      const ParsedInternalKey& key,
      RangeDelPositioning mode = RangeDelPositioning::kRandomAccess);

  // ShouldDelete as the hook the compaction iterator takes. The returned
  // function uses this aggregator, which must outlive it.
  std::function<bool(const ParsedInternalKey&)> ShouldDeleteFunction(
      RangeDelPositioning mode = RangeDelPositioning::kForwardTraversal);

  // Read mode: the largest sequence <= read_seq of a tombstone covering
  // user_key over every source, 0 if none — what a point lookup applies
  // to older sources (GetContext's max_covering_seq).
  SequenceNumber MaxCoveringSeq(const Slice& user_key) const;

  // Compaction: the tombstones of every source cut to the output range
  // [*lower, *upper) (a null bound: unbounded), as fragments in internal
  // key order, ready for TableBuilder::Add. Of the sequences covering a
  // fragment only the largest of each snapshot stripe is kept (a smaller
  // one in the same stripe deletes nothing the larger does not, for any
  // reader); with bottommost (no older data below the output), those in
  // the oldest stripe are dropped too: every entry they cover was in
  // their stripe and has been dropped.
  std::vector<RangeTombstone> TombstonesForOutput(const Slice* lower,
                                                  const Slice* upper,
                                                  bool bottommost) const;

 private:
  struct Source {
    std::shared_ptr<const FragmentedRangeTombstoneList> list;
    // The first fragment ending after the last key queried.
    size_t cursor;
  };

  RangeDelAggregator(const Comparator* ucmp, bool for_read,
                     SequenceNumber read_seq,
                     std::vector<SequenceNumber> snapshots);

  // The top of q's snapshot stripe (kMaxSequenceNumber in the last one).
  SequenceNumber StripeTop(SequenceNumber q) const;
  // Moves source->cursor to the first fragment ending after user_key.
  void Position(Source* source, const Slice& user_key,
                RangeDelPositioning mode) const;

  const Comparator* ucmp_;
  bool for_read_;
  SequenceNumber read_seq_;
  std::vector<SequenceNumber> snapshots_;
  std::vector<Source> sources_;
};

}  // namespace strata

#endif  // STRATA_DB_RANGE_DEL_AGGREGATOR_H_
