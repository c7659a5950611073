#include "db/range_tombstone_fragmenter.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

namespace strata {

FragmentedRangeTombstoneList::FragmentedRangeTombstoneList(
    std::vector<RangeTombstone> tombstones, const Comparator* ucmp)
    : ucmp_(ucmp) {
  Build(std::move(tombstones));
}

Status FragmentedRangeTombstoneList::Create(
    InternalIterator* iter, const Comparator* ucmp,
    std::unique_ptr<FragmentedRangeTombstoneList>* list) {
  list->reset();
  std::vector<RangeTombstone> tombstones;
  if (iter != nullptr) {
    for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
      ParsedInternalKey parsed;
      Status s = ParseInternalKey(iter->key(), &parsed);
      if (!s.ok()) return s;
      if (parsed.type != kTypeRangeDeletion) {
        return Status::Corruption(
            "range tombstone source holds a non-range entry",
            parsed.DebugString());
      }
      tombstones.emplace_back(parsed.user_key.ToString(),
                              iter->value().ToString(), parsed.sequence);
    }
    if (!iter->status().ok()) return iter->status();
  }
  list->reset(new FragmentedRangeTombstoneList(std::move(tombstones), ucmp));
  return Status::OK();
}

void FragmentedRangeTombstoneList::Build(
    std::vector<RangeTombstone> tombstones) {
  tombstones.erase(std::remove_if(tombstones.begin(), tombstones.end(),
                                  [this](const RangeTombstone& t) {
                                    return ucmp_->Compare(t.begin, t.end) >= 0;
                                  }),
                   tombstones.end());
  if (tombstones.empty()) return;

  // Every begin and end is a boundary; between two consecutive boundaries
  // the set of covering tombstones cannot change.
  auto less = [this](const std::string& a, const std::string& b) {
    return ucmp_->Compare(a, b) < 0;
  };
  keys_.reserve(2 * tombstones.size());
  for (const RangeTombstone& t : tombstones) {
    keys_.push_back(t.begin);
    keys_.push_back(t.end);
  }
  std::sort(keys_.begin(), keys_.end(), less);
  keys_.erase(std::unique(keys_.begin(), keys_.end(),
                          [this](const std::string& a, const std::string& b) {
                            return ucmp_->Compare(a, b) == 0;
                          }),
              keys_.end());
  auto index_of = [&](const std::string& key) {
    return static_cast<size_t>(
        std::lower_bound(keys_.begin(), keys_.end(), key, less) -
        keys_.begin());
  };

  // Sweep the boundaries left to right with the set of active sequences
  // (a count per sequence: two tombstones may share one).
  std::vector<std::vector<SequenceNumber>> starting(keys_.size());
  std::vector<std::vector<SequenceNumber>> ending(keys_.size());
  for (const RangeTombstone& t : tombstones) {
    starting[index_of(t.begin)].push_back(t.seq);
    ending[index_of(t.end)].push_back(t.seq);
  }
  std::map<SequenceNumber, size_t, std::greater<SequenceNumber>> active;
  for (size_t i = 0; i + 1 < keys_.size(); i++) {
    for (SequenceNumber seq : ending[i]) {
      auto it = active.find(seq);
      if (--it->second == 0) active.erase(it);
    }
    for (SequenceNumber seq : starting[i]) active[seq]++;
    if (active.empty()) continue;
    const size_t first_seq = seqs_.size();
    for (const auto& entry : active) seqs_.push_back(entry.first);
    AddFragment(i, i + 1, first_seq);
  }

  fragments_.reserve(spans_.size());
  for (const Spans& span : spans_) {
    fragments_.push_back(Fragment{keys_[span.start_key], keys_[span.end_key],
                                  seqs_.data() + span.first_seq,
                                  span.num_seqs});
  }
}

void FragmentedRangeTombstoneList::AddFragment(size_t start, size_t end,
                                               size_t first_seq) {
  const size_t num_seqs = seqs_.size() - first_seq;
  if (!spans_.empty()) {
    Spans& prev = spans_.back();
    if (prev.end_key == start && prev.num_seqs == num_seqs &&
        std::equal(seqs_.begin() + first_seq, seqs_.end(),
                   seqs_.begin() + prev.first_seq)) {
      prev.end_key = end;
      seqs_.resize(first_seq);
      return;
    }
  }
  spans_.push_back(Spans{start, end, first_seq, num_seqs});
}

size_t FragmentedRangeTombstoneList::FindFragment(const Slice& user_key) const {
  // The last fragment starting at or before the key is the only candidate.
  auto it = std::upper_bound(fragments_.begin(), fragments_.end(), user_key,
                             [this](const Slice& key, const Fragment& f) {
                               return ucmp_->Compare(key, f.start) < 0;
                             });
  if (it == fragments_.begin()) return fragments_.size();
  --it;
  if (ucmp_->Compare(user_key, it->end) >= 0) return fragments_.size();
  return static_cast<size_t>(it - fragments_.begin());
}

size_t FragmentedRangeTombstoneList::FirstEndingAfter(
    const Slice& user_key) const {
  auto it = std::upper_bound(fragments_.begin(), fragments_.end(), user_key,
                             [this](const Slice& key, const Fragment& f) {
                               return ucmp_->Compare(key, f.end) < 0;
                             });
  return static_cast<size_t>(it - fragments_.begin());
}

SequenceNumber FragmentedRangeTombstoneList::MaxSeqAtOrBelow(
    size_t i, SequenceNumber read_seq) const {
  const Fragment& f = fragments_[i];
  // Descending: the first one <= read_seq is the largest.
  const SequenceNumber* end = f.seqs + f.num_seqs;
  const SequenceNumber* it =
      std::lower_bound(f.seqs, end, read_seq, std::greater<SequenceNumber>());
  return it == end ? 0 : *it;
}

SequenceNumber FragmentedRangeTombstoneList::MaxCoveringSeq(
    const Slice& user_key, SequenceNumber read_seq) const {
  const size_t i = FindFragment(user_key);
  return i == fragments_.size() ? 0 : MaxSeqAtOrBelow(i, read_seq);
}

std::vector<RangeTombstone> FragmentedRangeTombstoneList::ToTombstones() const {
  std::vector<RangeTombstone> out;
  for (const Fragment& f : fragments_) {
    for (size_t j = 0; j < f.num_seqs; j++) {
      out.emplace_back(f.start.ToString(), f.end.ToString(), f.seqs[j]);
    }
  }
  return out;
}

}  // namespace strata
