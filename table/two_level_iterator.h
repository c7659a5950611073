// A two-level iterator: walks an index iterator whose values name blocks,
// and for each the iterator over that block's entries, as one sequence —
// how a table iterates its data blocks through its index block.
//
// Empty blocks are skipped in both directions; an error opening a block
// or inside one stops the iteration with that error in status().
//
// Thread safety: one thread at a time.

#ifndef STRATA_TABLE_TWO_LEVEL_ITERATOR_H_
#define STRATA_TABLE_TWO_LEVEL_ITERATOR_H_

#include <functional>

#include "table/internal_iterator.h"

namespace strata {

// Makes the iterator of the block named by an index value; never null
// (an error iterator on failure). The returned iterator is owned by the
// caller of the function.
using BlockIteratorFunction =
    std::function<InternalIterator*(const Slice& index_value)>;

// Takes ownership of index_iter. Seek(target) seeks the index to target
// (index keys are >= every key of their block) and then the block.
InternalIterator* NewTwoLevelIterator(InternalIterator* index_iter,
                                      BlockIteratorFunction block_function);

}  // namespace strata

#endif  // STRATA_TABLE_TWO_LEVEL_ITERATOR_H_
