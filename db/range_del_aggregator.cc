#include "db/range_del_aggregator.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace strata {

namespace {

// How many fragments a traversal walks past before a binary search is
// cheaper: consecutive keys of a scan rarely skip more.
constexpr int kMaxWalk = 4;

}  // namespace

RangeDelAggregator::RangeDelAggregator(const Comparator* ucmp, bool for_read,
                                       SequenceNumber read_seq,
                                       std::vector<SequenceNumber> snapshots)
    : ucmp_(ucmp),
      for_read_(for_read),
      read_seq_(read_seq),
      snapshots_(std::move(snapshots)) {
  assert(std::is_sorted(snapshots_.begin(), snapshots_.end()));
}

RangeDelAggregator RangeDelAggregator::ForRead(const Comparator* ucmp,
                                               SequenceNumber read_seq) {
  return RangeDelAggregator(ucmp, /*for_read=*/true, read_seq, {});
}

RangeDelAggregator RangeDelAggregator::ForCompaction(
    const Comparator* ucmp, std::vector<SequenceNumber> snapshots) {
  return RangeDelAggregator(ucmp, /*for_read=*/false, kMaxSequenceNumber,
                            std::move(snapshots));
}

Status RangeDelAggregator::AddTombstones(InternalIterator* iter) {
  if (iter == nullptr) return Status::OK();  // the common case: none
  std::unique_ptr<FragmentedRangeTombstoneList> list;
  Status s = FragmentedRangeTombstoneList::Create(iter, ucmp_, &list);
  if (!s.ok()) return s;
  AddTombstones(
      std::shared_ptr<const FragmentedRangeTombstoneList>(std::move(list)));
  return Status::OK();
}

void RangeDelAggregator::AddTombstones(
    std::shared_ptr<const FragmentedRangeTombstoneList> list) {
  if (list == nullptr || list->empty()) return;
  sources_.push_back(Source{std::move(list), 0});
}

SequenceNumber RangeDelAggregator::StripeTop(SequenceNumber q) const {
  auto it = std::lower_bound(snapshots_.begin(), snapshots_.end(), q);
  return it == snapshots_.end() ? kMaxSequenceNumber : *it;
}

void RangeDelAggregator::Position(Source* source, const Slice& user_key,
                                  RangeDelPositioning mode) const {
  const FragmentedRangeTombstoneList& list = *source->list;
  const size_t n = list.size();
  size_t c = source->cursor;
  // The target is the first fragment whose end is > user_key: every
  // fragment before it ends at or before the key.
  auto ends_after = [&](size_t i) {
    return ucmp_->Compare(list.fragment(i).end, user_key) > 0;
  };
  if (mode == RangeDelPositioning::kForwardTraversal &&
      (c == 0 || !ends_after(c - 1))) {
    for (int step = 0; step < kMaxWalk; step++) {
      if (c == n || ends_after(c)) {
        source->cursor = c;
        return;
      }
      c++;
    }
  } else if (mode == RangeDelPositioning::kBackwardTraversal &&
             (c == n || ends_after(c))) {
    for (int step = 0; step < kMaxWalk; step++) {
      if (c == 0 || !ends_after(c - 1)) {
        source->cursor = c;
        return;
      }
      c--;
    }
  }
  source->cursor = list.FirstEndingAfter(user_key);
}

bool RangeDelAggregator::ShouldDelete(const ParsedInternalKey& key,
                                      RangeDelPositioning mode) {
  if (key.type == kTypeRangeDeletion) return false;
  const SequenceNumber bound = for_read_ ? read_seq_ : StripeTop(key.sequence);
  for (Source& source : sources_) {
    Position(&source, key.user_key, mode);
    if (source.cursor == source.list->size()) continue;
    const FragmentedRangeTombstoneList::Fragment& f =
        source.list->fragment(source.cursor);
    if (ucmp_->Compare(f.start, key.user_key) > 0) continue;  // a gap
    if (source.list->MaxSeqAtOrBelow(source.cursor, bound) > key.sequence) {
      return true;
    }
  }
  return false;
}

std::function<bool(const ParsedInternalKey&)>
RangeDelAggregator::ShouldDeleteFunction(RangeDelPositioning mode) {
  return [this, mode](const ParsedInternalKey& key) {
    return ShouldDelete(key, mode);
  };
}

SequenceNumber RangeDelAggregator::MaxCoveringSeq(const Slice& user_key) const {
  SequenceNumber max_seq = 0;
  for (const Source& source : sources_) {
    max_seq =
        std::max(max_seq, source.list->MaxCoveringSeq(user_key, read_seq_));
  }
  return max_seq;
}

std::vector<RangeTombstone> RangeDelAggregator::TombstonesForOutput(
    const Slice* lower, const Slice* upper, bool bottommost) const {
  // Sources overlap one another: fragment their union.
  std::vector<RangeTombstone> all;
  for (const Source& source : sources_) {
    std::vector<RangeTombstone> some = source.list->ToTombstones();
    all.insert(all.end(), std::make_move_iterator(some.begin()),
               std::make_move_iterator(some.end()));
  }
  const FragmentedRangeTombstoneList merged(std::move(all), ucmp_);

  std::vector<RangeTombstone> out;
  for (size_t i = 0; i < merged.size(); i++) {
    const FragmentedRangeTombstoneList::Fragment& f = merged.fragment(i);
    Slice start = f.start;
    Slice end = f.end;
    if (lower != nullptr && ucmp_->Compare(start, *lower) < 0) start = *lower;
    if (upper != nullptr && ucmp_->Compare(end, *upper) > 0) end = *upper;
    if (ucmp_->Compare(start, end) >= 0) continue;
    // Sequences descend: the first of each stripe is its largest.
    size_t last_stripe = snapshots_.size() + 1;  // none yet
    for (size_t j = 0; j < f.num_seqs; j++) {
      const size_t stripe = static_cast<size_t>(
          std::lower_bound(snapshots_.begin(), snapshots_.end(), f.seqs[j]) -
          snapshots_.begin());
      if (stripe == last_stripe) continue;
      last_stripe = stripe;
      if (bottommost && stripe == 0) break;  // the oldest stripe: the rest
      out.emplace_back(start.ToString(), end.ToString(), f.seqs[j]);
    }
  }
  return out;
}

}  // namespace strata
