// Which compaction filter a compaction or flush applies, and to what
// (docs/compaction.md, "Compaction filters").
//
// A family's compaction_filter (shared, not owned) is used for the table
// files it asks for (FilterTableFileCreation); otherwise its
// compaction_filter_factory, if it asks for the reason
// (ShouldFilterTableFileCreation), makes one filter per job. A filter
// whose IgnoreSnapshots() is false is refused with NotSupported, as
// RocksDB 7.8 does.
//
// Thread safety: PickCompactionFilter calls the user's factory; call it
// without the DB mutex.

#ifndef STRATA_DB_COMPACTION_FILTER_USE_H_
#define STRATA_DB_COMPACTION_FILTER_USE_H_

#include <functional>
#include <memory>
#include <vector>

#include "db/dbformat.h"
#include "strata/compaction_filter.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

// The compaction filter a compaction or flush applies.
struct CompactionFilterUse {
  const CompactionFilter* filter = nullptr;  // null: none
  int level = 0;                             // what the filter is told
  // Entries at or below newest_snapshot are visible to a live snapshot
  // and never filtered.
  bool has_snapshot = false;
  SequenceNumber newest_snapshot = 0;

  bool Filterable(SequenceNumber seq) const {
    return filter != nullptr && (!has_snapshot || seq > newest_snapshot);
  }
};

// Sets *filter to the filter for a job described by context (context.reason
// says what the job creates), or null. *owned keeps a filter the factory
// made. direct and factory may be null.
Status PickCompactionFilter(const CompactionFilter* direct,
                            CompactionFilterFactory* factory,
                            const CompactionFilter::Context& context,
                            std::unique_ptr<CompactionFilter>* owned,
                            const CompactionFilter** filter);

// A flush's entries as a CompactionIterator above older data turns them:
// versions hidden in their stripe dropped, entries covered (the hook of
// the memtables' range tombstones; empty: none) dropped, merge operands
// combined, and filter applied when it has one. A key's newest version
// stays unless the filter removes it (a single deletion meeting its Put
// stays, as a deletion), since transactions' conflict checks read it. Forward
// only (SeekToFirst, Next), what BuildTable needs. snapshots ascending,
// including the newest published sequence number; the pointers, and what
// covered uses, must outlive the iterator, which owns nothing.
std::unique_ptr<InternalIterator> NewFlushIterator(
    InternalIterator* input, const Comparator* user_cmp,
    std::vector<SequenceNumber> snapshots, const MergeOperator* merge_operator,
    std::function<bool(const ParsedInternalKey&)> covered,
    const CompactionFilterUse& filter);

}  // namespace strata

#endif  // STRATA_DB_COMPACTION_FILTER_USE_H_
