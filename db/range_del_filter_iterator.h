// An internal iterator that hides the point entries a range tombstone
// deletes for a read: the DB's iterators read through it when any source
// holds tombstones, so DBIter never meets a deleted version.
//
// Dropping a deleted version is the same as reading it as a deletion: a
// tombstone that deletes a version deletes every older version of the key
// as well (they are older than the tombstone too), so what remains of a
// key are the versions newer than its newest covering tombstone — a merge
// chain then resolves onto nothing, as it would at a deletion.
//
// Thread safety: one thread at a time, as any iterator.

#ifndef STRATA_DB_RANGE_DEL_FILTER_ITERATOR_H_
#define STRATA_DB_RANGE_DEL_FILTER_ITERATOR_H_

#include <memory>

#include "db/range_del_aggregator.h"
#include "table/internal_iterator.h"

namespace strata {

// Takes ownership of input and of the aggregator (a read-mode one holding
// every source's tombstones).
InternalIterator* NewRangeDelFilterIterator(
    InternalIterator* input, std::unique_ptr<RangeDelAggregator> aggregator);

}  // namespace strata

#endif  // STRATA_DB_RANGE_DEL_FILTER_ITERATOR_H_
