// A table iterator for prefix seeks (ReadOptions::prefix_same_as_start):
// while the caller has confined its seeks to their target's prefix
// (InternalIterator::SetSeekConfinedToPrefix(true); off by default), a
// Seek or SeekForPrev whose target's user key has a prefix the table's
// filter rules out leaves the iterator empty (not Valid(), status OK)
// instead of reading the index and a data block. A confined caller
// (DBIter) looks at no key outside that prefix until its next seek, so no
// key it would show is hidden. Every other call goes to the base
// iterator.
//
// Thread safety: one thread at a time, as any iterator.

#ifndef STRATA_TABLE_PREFIX_CHECK_ITERATOR_H_
#define STRATA_TABLE_PREFIX_CHECK_ITERATOR_H_

#include <functional>

#include "strata/slice_transform.h"
#include "table/internal_iterator.h"

namespace strata {

// Whether a table may hold keys with this prefix.
using PrefixMayMatchFunction = std::function<bool(const Slice& prefix)>;

// Takes ownership of base; prefix_extractor (not owned) must outlive the
// iterator. Seek targets are internal keys.
InternalIterator* NewPrefixCheckIterator(InternalIterator* base,
                                         const SliceTransform* prefix_extractor,
                                         PrefixMayMatchFunction may_match);

}  // namespace strata

#endif  // STRATA_TABLE_PREFIX_CHECK_ITERATOR_H_
