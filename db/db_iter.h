// DBIter: the user's view of an internal iterator — one entry per live
// user key, as of a sequence number, within optional bounds.
//
// The internal iterator yields every version of every key (newest first
// within a key). DBIter hides versions newer than its sequence, every
// version shadowed by a newer visible one, and keys whose newest visible
// version is a deletion; it stops at iterate_upper_bound (exclusive) and
// iterate_lower_bound (inclusive). With a prefix extractor, a Seek or
// SeekForPrev to a key in its domain confines the iterator to that key's
// prefix (ReadOptions::prefix_same_as_start) until the next seek;
// SeekToFirst and SeekToLast are unconfined.
//
// Positioning: going forward, the internal iterator sits on the entry
// that is the current value — or, when the value is a merge result, past
// the versions merged, with key and value copied aside. Going backward, it sits
// just before all entries of the current key, whose key and value are copied
// aside (LevelDB's scheme); a direction switch repositions it.
//
// Merge operands are resolved as they are met: the key's newest visible
// versions down to a value, a deletion or its oldest version are merged
// by merge_operator (db/merge_helper.h); the result is the key's value.
// A merge operand with no operator stops the iterator with
// InvalidArgument("merge operator not set"); an operator failure with
// Corruption.
//
// Thread safety: one thread at a time, as any Iterator.

#ifndef STRATA_DB_DB_ITER_H_
#define STRATA_DB_DB_ITER_H_

#include <functional>

#include "strata/comparator.h"
#include "strata/iterator.h"
#include "strata/types.h"
#include "table/internal_iterator.h"

namespace strata {

class MergeOperator;
class SliceTransform;

// Takes ownership of internal. lower_bound / upper_bound may be null and,
// if not, must outlive the iterator. cleanup, if set, runs when the
// iterator is destroyed, after internal is deleted (the DB releases the
// memtables and files the iterator pinned).
Iterator* NewDBIterator(const Comparator* user_comparator,
                        InternalIterator* internal, SequenceNumber sequence,
                        const Slice* lower_bound, const Slice* upper_bound,
                        std::function<void()> cleanup);

// As above, confining seeks to the target's prefix by prefix_extractor
// (not owned; null: no confinement), and resolving merge operands with
// merge_operator (not owned; null: a merge operand is an error).
Iterator* NewDBIterator(const Comparator* user_comparator,
                        InternalIterator* internal, SequenceNumber sequence,
                        const Slice* lower_bound, const Slice* upper_bound,
                        const SliceTransform* prefix_extractor,
                        const MergeOperator* merge_operator,
                        std::function<void()> cleanup);

}  // namespace strata

#endif  // STRATA_DB_DB_ITER_H_
