// Iterator: a position in a sorted sequence of key/value pairs.
//
// A new iterator is not Valid(); position it with a Seek* call. key() and
// value() are valid until the iterator moves or is destroyed. An iterator
// that meets an error becomes !Valid() and reports it in status().
//
// Thread safety: const methods may be called from many threads; anything
// that moves the iterator needs external synchronization.

#ifndef STRATA_INCLUDE_ITERATOR_H_
#define STRATA_INCLUDE_ITERATOR_H_

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT Iterator {
 public:
  Iterator() = default;
  Iterator(const Iterator&) = delete;
  Iterator& operator=(const Iterator&) = delete;
  virtual ~Iterator();

  virtual bool Valid() const = 0;

  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;

  // The first key >= target.
  virtual void Seek(const Slice& target) = 0;

  // The last key <= target.
  virtual void SeekForPrev(const Slice& target) = 0;

  // REQUIRES: Valid()
  virtual void Next() = 0;
  virtual void Prev() = 0;
  virtual Slice key() const = 0;
  virtual Slice value() const = 0;

  virtual Status status() const = 0;
};

// An iterator over nothing, with status OK / with the given status.
STRATA_EXPORT Iterator* NewEmptyIterator();
STRATA_EXPORT Iterator* NewErrorIterator(const Status& status);

}  // namespace strata

#endif  // STRATA_INCLUDE_ITERATOR_H_
