// A merging iterator: the sorted union of several child iterators over
// internal keys (a DB iterator's memtables and tables, a flush's
// memtables, a compaction's input files).
//
// Forward it keeps the children in a min-heap by key, backward in a
// max-heap; switching direction repositions every child around the
// current key, so Next after Prev (and the reverse) is correct. Entries
// with equal keys in different children come out in child order (earlier
// children first), so callers pass the newest source first.
//
// Thread safety: as any iterator, one thread at a time.

#ifndef STRATA_TABLE_MERGING_ITERATOR_H_
#define STRATA_TABLE_MERGING_ITERATOR_H_

#include <vector>

#include "table/internal_iterator.h"

namespace strata {

class Comparator;

// Takes ownership of children. With one child, returns it; with none, an
// empty iterator.
InternalIterator* NewMergingIterator(const Comparator* comparator,
                                     std::vector<InternalIterator*> children);

}  // namespace strata

#endif  // STRATA_TABLE_MERGING_ITERATOR_H_
