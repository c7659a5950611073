// BaseDeltaIterator: a DB-style iterator over a base iterator (the DB's
// view) with a delta (one family of a WriteBatchWithIndex) applied, as if
// the batch had been written. The transaction layer's GetIterator is one.
//
// Per key, the delta's entries are resolved newest first
// (WBWIIteratorImpl::LatestUpdate): a Put replaces the base's value, a
// deletion hides the key, Merge operands are merged over the Put or
// deletion of the batch they follow or, if there is none, over the
// base's value of the same key (or none). A key is shown by the side
// whose key comes first in the direction of travel; on equal keys the
// delta decides and the base steps past the key with it.
//
// Changing direction re-seeks both sides relative to the current key,
// so each side only ever moves in the direction of travel between seeks.
//
// Bounds: keys outside [lower, upper) of ReadOptions are not shown, from
// either side; seeks are clamped to them.
//
// A merge that fails (no merge operator, or the operator refuses) leaves
// the iterator !Valid() with that status. Thread safety: one thread at a
// time; the batch must not change while the iterator is in use.

#ifndef STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_BASE_DELTA_ITERATOR_H_
#define STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_BASE_DELTA_ITERATOR_H_

#include <memory>
#include <string>

#include "db/merge_helper.h"
#include "db/utilities/write_batch_with_index/wbwi_index.h"
#include "strata/comparator.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class BaseDeltaIterator final : public Iterator {
 public:
  // Takes ownership of base and delta. cmp orders both sides; lower and
  // upper (either may be null) must outlive the iterator.
  BaseDeltaIterator(Iterator* base, WBWIIteratorImpl* delta,
                    const Comparator* cmp, const MergeOperator* merge_operator,
                    const Slice* lower, const Slice* upper);
  ~BaseDeltaIterator() override;

  bool Valid() const override;
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice key() const override;
  Slice value() const override;
  Status status() const override;

 private:
  enum Current { kNone, kBase, kDelta };

  bool InBounds(const Slice& key) const;
  bool BaseValid() const;
  bool DeltaValid() const;
  // Positions both sides at the last key < target.
  void SeekBothBefore(const Slice& target);
  // From the positions of the two sides, finds the key to show in the
  // direction of travel, stepping past keys the delta deletes.
  void Settle();
  // Makes the delta's resolved entry current; false if it deletes the key.
  // base_value: the base's value of the same key, or null.
  bool TakeDelta(const Slice* base_value);

  std::unique_ptr<Iterator> base_;
  std::unique_ptr<WBWIIteratorImpl> delta_;
  const Comparator* const cmp_;
  const MergeOperator* const merge_operator_;
  const Slice* const lower_;
  const Slice* const upper_;

  bool forward_ = true;
  Current current_ = kNone;
  bool equal_keys_ = false;  // current_ == kDelta and the base is on its key
  Slice value_;
  std::string merged_;  // value_'s bytes when a merge made it
  MergeContext operands_;
  Status status_;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_WRITE_BATCH_WITH_INDEX_BASE_DELTA_ITERATOR_H_
