// InternalIterator: the engine's iterator over internal keys (db/dbformat.h)
// — memtables, tables, and the merging iterator over them. DBIter turns one
// into the user-facing strata::Iterator.
//
// The contract is Iterator's: not Valid() until positioned; key() and
// value() stay valid until the iterator moves; an error makes it !Valid()
// with the error in status(). Used by one thread at a time.

#ifndef STRATA_TABLE_INTERNAL_ITERATOR_H_
#define STRATA_TABLE_INTERNAL_ITERATOR_H_

#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class InternalIterator {
 public:
  InternalIterator() = default;
  InternalIterator(const InternalIterator&) = delete;
  InternalIterator& operator=(const InternalIterator&) = delete;
  virtual ~InternalIterator();

  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // The first entry >= target / the last entry <= target (internal keys).
  virtual void Seek(const Slice& target) = 0;
  virtual void SeekForPrev(const Slice& target) = 0;
  // REQUIRES: Valid()
  virtual void Next() = 0;
  virtual void Prev() = 0;
  virtual Slice key() const = 0;
  virtual Slice value() const = 0;
  virtual Status status() const = 0;

  // A hint from the reader (DBIter with ReadOptions::prefix_same_as_start):
  // while confined, the caller looks only at keys with the prefix of each
  // Seek/SeekForPrev target, so a source holding no such key may skip the
  // seek and stay empty (table/prefix_check_iterator.h). Off by default;
  // iterators over several sources pass it on.
  virtual void SetSeekConfinedToPrefix(bool confined) {}
};

// Iterators over nothing, with status OK / with the given status.
InternalIterator* NewEmptyInternalIterator();
InternalIterator* NewErrorInternalIterator(const Status& status);

}  // namespace strata

#endif  // STRATA_TABLE_INTERNAL_ITERATOR_H_
