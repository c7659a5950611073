// FragmentedRangeTombstoneList: the range tombstones of one source (a
// memtable, a table, or a set of them) cut into non-overlapping fragments.
//
// A tombstone deletes, at sequence seq, every user key k with
// begin <= k < end. Tombstones of a source overlap freely; the list splits
// them at every begin and end so that each fragment [start, end) is
// covered by the same set of tombstones over its whole width, and records
// the sequences of that set (descending). Then "which tombstones cover k"
// is one binary search, and the fragments are what compaction writes out.
//
// Invariants, once built:
//   - fragments are sorted by start, non-overlapping: end(i) <= start(i+1);
//   - every fragment has start < end and at least one sequence, its
//     sequences strictly descending (a sequence appears once even if two
//     tombstones with it cover the fragment);
//   - two adjacent fragments (end(i) == start(i+1)) differ in their
//     sequences (otherwise they are one fragment);
//   - empty tombstones (begin >= end) leave no trace.
// The fragments cover exactly the union of the input tombstones, and a
// key's covering sequences are exactly the input tombstones covering it.
//
// Thread safety: immutable after construction; safe from many threads.

#ifndef STRATA_DB_RANGE_TOMBSTONE_FRAGMENTER_H_
#define STRATA_DB_RANGE_TOMBSTONE_FRAGMENTER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "strata/comparator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

// One input tombstone, owned.
struct RangeTombstone {
  std::string begin;
  std::string end;  // exclusive
  SequenceNumber seq = 0;

  RangeTombstone() = default;
  RangeTombstone(std::string b, std::string e, SequenceNumber s)
      : begin(std::move(b)), end(std::move(e)), seq(s) {}
};

class FragmentedRangeTombstoneList {
 public:
  // One fragment: [start, end) covered by seqs[0..num_seqs), descending.
  // The pointers stay valid for the list's life.
  struct Fragment {
    Slice start;
    Slice end;
    const SequenceNumber* seqs;
    size_t num_seqs;
  };

  // Fragments tombstones (any order); ucmp must outlive the list.
  FragmentedRangeTombstoneList(std::vector<RangeTombstone> tombstones,
                               const Comparator* ucmp);

  // Reads every entry of iter (internal key (begin, seq,
  // kTypeRangeDeletion) -> end, as a memtable's or table's
  // NewRangeTombstoneIterator yields; iter may be null: no tombstones) and
  // fragments them. An entry that is not a range tombstone, or an error of
  // iter, makes *list null and returns Corruption (or iter's status).
  static Status Create(InternalIterator* iter, const Comparator* ucmp,
                       std::unique_ptr<FragmentedRangeTombstoneList>* list);

  FragmentedRangeTombstoneList(const FragmentedRangeTombstoneList&) = delete;
  FragmentedRangeTombstoneList& operator=(const FragmentedRangeTombstoneList&) =
      delete;

  bool empty() const { return fragments_.empty(); }
  size_t size() const { return fragments_.size(); }
  const Fragment& fragment(size_t i) const { return fragments_[i]; }
  const Comparator* user_comparator() const { return ucmp_; }

  // The index of the fragment containing user_key, or size() if none.
  size_t FindFragment(const Slice& user_key) const;
  // The index of the first fragment whose end is > user_key (size() if
  // none): where a forward walk from user_key starts.
  size_t FirstEndingAfter(const Slice& user_key) const;

  // The largest sequence <= read_seq of a tombstone covering user_key, or
  // 0 if none.
  SequenceNumber MaxCoveringSeq(const Slice& user_key,
                                SequenceNumber read_seq) const;
  // The same within fragment i (which the caller found covers the key).
  SequenceNumber MaxSeqAtOrBelow(size_t i, SequenceNumber read_seq) const;

  // Every (fragment, sequence) pair as a tombstone, in internal key order
  // (start ascending, sequence descending): what an output file stores.
  std::vector<RangeTombstone> ToTombstones() const;

 private:
  void Build(std::vector<RangeTombstone> tombstones);
  // Appends [keys_[start], keys_[end]) with the sequences seqs_[first..],
  // merging it into the previous fragment when they touch and have the
  // same sequences.
  void AddFragment(size_t start, size_t end, size_t first_seq);

  const Comparator* const ucmp_;
  // Fragment boundaries, owned here; fragments_ points into them and into
  // seqs_ (both fixed in size once built).
  std::vector<std::string> keys_;
  std::vector<SequenceNumber> seqs_;
  struct Spans {
    size_t start_key, end_key, first_seq, num_seqs;
  };
  std::vector<Spans> spans_;
  std::vector<Fragment> fragments_;
};

}  // namespace strata

#endif  // STRATA_DB_RANGE_TOMBSTONE_FRAGMENTER_H_
