#include "db/read_view.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>

#include "db/get_context.h"
#include "db/range_del_aggregator.h"
#include "db/version.h"
#include "memtable/memtable.h"
#include "table/table_reader.h"

namespace strata {

namespace {

// One key of a MultiGet: its lookup key, its context, and its table
// lookup, which hands the tables' entries to the context.
struct KeyLookup {
  KeyLookup(const Comparator* ucmp, const MergeOperator* merge_operator,
            const Slice& key, SequenceNumber sequence,
            SequenceNumber max_covering_seq, PinnableSlice* value)
      : lkey(key, sequence),
        context(ucmp, merge_operator, key, max_covering_seq, value) {
    table.internal_key = lkey.internal_key();
    table.arg = &context;
  }
  KeyLookup(const KeyLookup&) = delete;
  KeyLookup& operator=(const KeyLookup&) = delete;

  LookupKey lkey;
  GetContext context;
  TableLookup table;
};

}  // namespace

std::vector<MemTable*> ReadView::MemTables() const {
  std::vector<MemTable*> result(1, mem);
  result.insert(result.end(), imm->memtables().begin(), imm->memtables().end());
  return result;
}

Status ReadView::AddRangeTombstones(const ReadOptions& options,
                                    TableCache* tables,
                                    const Slice* smallest_user_key,
                                    const Slice* largest_user_key,
                                    RangeDelAggregator* aggregator) const {
  Status s;
  ForEachMemTable([&](MemTable* m) {
    std::unique_ptr<InternalIterator> t(m->NewRangeTombstoneIterator());
    s = aggregator->AddTombstones(t.get());
    return s.ok();
  });
  if (!s.ok()) return s;
  return version->AddRangeTombstones(options, tables, smallest_user_key,
                                     largest_user_key, aggregator);
}

Status ReadView::Get(const ReadOptions& options, TableCache* tables,
                     const MergeOperator* merge_operator, const Slice& key,
                     PinnableSlice* value, bool* memtable_hit) const {
  const Comparator* ucmp = mem->comparator().user_comparator();
  RangeDelAggregator tombstones = RangeDelAggregator::ForRead(ucmp, sequence);
  Status s = AddRangeTombstones(options, tables, &key, &key, &tombstones);
  if (!s.ok()) return s;

  LookupKey lkey(key, sequence);
  GetContext context(ucmp, merge_operator, key, tombstones.MaxCoveringSeq(key),
                     value);
  ForEachMemTable([&](MemTable* m) {
    m->ForEachVersion(lkey, &context, &GetContext::SaveMemTableEntry);
    return !context.done();
  });
  if (memtable_hit != nullptr) *memtable_hit = context.done();
  if (!context.done()) {
    s = version->Get(options, lkey.internal_key(), tables, &context,
                     &GetContext::SaveTableEntry);
    if (!s.ok()) return s;
  }
  return context.Finish();
}

namespace {

// The newest version of one user key: the first entry of that key a
// source hands over (sources and their entries come newest first).
struct NewestVersion {
  const Comparator* ucmp;
  Slice user_key;
  bool found = false;
  SequenceNumber sequence = 0;
  Status status;
};

bool SaveNewest(void* arg, const Slice& internal_key, const Slice&) {
  auto* newest = static_cast<NewestVersion*>(arg);
  ParsedInternalKey parsed;
  newest->status = ParseInternalKey(internal_key, &parsed);
  if (!newest->status.ok()) return false;
  // A table hands over the entry at or after the key: another user key
  // means it has none.
  if (newest->ucmp->Compare(parsed.user_key, newest->user_key) != 0) {
    return true;
  }
  newest->found = true;
  newest->sequence = parsed.sequence;
  return false;
}

bool SaveNewestInTable(void* arg, const Slice& internal_key, const Slice& value,
                       CachePin*) {
  return SaveNewest(arg, internal_key, value);
}

}  // namespace

Status ReadView::LatestSequence(const ReadOptions& options, TableCache* tables,
                                const Slice& key,
                                SequenceNumber* sequence) const {
  *sequence = 0;
  const Comparator* ucmp = mem->comparator().user_comparator();
  RangeDelAggregator tombstones =
      RangeDelAggregator::ForRead(ucmp, this->sequence);
  Status s = AddRangeTombstones(options, tables, &key, &key, &tombstones);
  if (!s.ok()) return s;
  NewestVersion newest;
  newest.ucmp = ucmp;
  newest.user_key = key;
  LookupKey lkey(key, this->sequence);
  ForEachMemTable([&](MemTable* m) {
    m->ForEachVersion(lkey, &newest, &SaveNewest);
    return !newest.found && newest.status.ok();
  });
  if (!newest.found && newest.status.ok()) {
    s = version->Get(options, lkey.internal_key(), tables, &newest,
                     &SaveNewestInTable);
    if (!s.ok()) return s;
  }
  if (!newest.status.ok()) return newest.status;
  *sequence = std::max(newest.sequence, tombstones.MaxCoveringSeq(key));
  return Status::OK();
}

void ReadView::MultiGet(const ReadOptions& options, TableCache* tables,
                        const MergeOperator* merge_operator, size_t n,
                        const Slice* keys, PinnableSlice* values,
                        Status* statuses, bool sorted_input) const {
  if (n == 0) return;
  const Comparator* ucmp = mem->comparator().user_comparator();
  // The keys' positions in key order. A caller's "sorted" is checked (n
  // comparisons, against a sort's n log n), so a wrong claim costs speed,
  // not results.
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  auto less = [&](size_t a, size_t b) {
    return ucmp->Compare(keys[a], keys[b]) < 0;
  };
  if (!sorted_input || !std::is_sorted(order.begin(), order.end(), less)) {
    std::sort(order.begin(), order.end(), less);
  }

  RangeDelAggregator tombstones = RangeDelAggregator::ForRead(ucmp, sequence);
  Status s = AddRangeTombstones(options, tables, &keys[order.front()],
                                &keys[order.back()], &tombstones);
  if (!s.ok()) {
    for (size_t i = 0; i < n; i++) statuses[i] = s;
    return;
  }
  // Sized once: a KeyLookup does not move (its table lookup points into
  // it).
  std::vector<std::optional<KeyLookup>> lookups(n);
  std::vector<TableLookup*> pending;
  for (size_t j = 0; j < n; j++) {
    const size_t i = order[j];
    KeyLookup& l =
        lookups[j].emplace(ucmp, merge_operator, keys[i], sequence,
                           tombstones.MaxCoveringSeq(keys[i]), &values[i]);
    ForEachMemTable([&](MemTable* m) {
      m->ForEachVersion(l.lkey, &l.context, &GetContext::SaveMemTableEntry);
      return !l.context.done();
    });
    if (!l.context.done()) pending.push_back(&l.table);
  }
  if (!pending.empty()) {
    version->MultiGet(options, tables, pending.data(), pending.size(),
                      &GetContext::SaveTableEntry);
  }
  for (size_t j = 0; j < n; j++) {
    const size_t i = order[j];
    KeyLookup& l = *lookups[j];
    statuses[i] = l.table.status.ok() ? l.context.Finish() : l.table.status;
    if (!statuses[i].ok()) values[i].Reset();
  }
}

}  // namespace strata
