#include "db/read_view.h"

#include <memory>

#include "db/get_context.h"
#include "db/range_del_aggregator.h"
#include "db/version.h"
#include "memtable/memtable.h"

namespace strata {

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

}  // namespace strata
