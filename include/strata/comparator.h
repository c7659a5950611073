// Comparator: the total order of user keys in a DB and its tables.
//
// The order is part of the on-disk state: a DB must be reopened with a
// comparator of the same Name() (checked at open), and Compare must never
// change for a given name.
//
// Thread safety: implementations must be safe to call from many threads at
// once (they are shared by every reader and writer).

#ifndef STRATA_INCLUDE_COMPARATOR_H_
#define STRATA_INCLUDE_COMPARATOR_H_

#include <string>

#include "strata/export.h"

namespace strata {

class Slice;

class STRATA_EXPORT Comparator {
 public:
  virtual ~Comparator();

  // < 0 if a < b, 0 if a == b, > 0 if a > b.
  virtual int Compare(const Slice& a, const Slice& b) const = 0;

  // Whether a and b are the same key. Override when equality is cheaper
  // than a full comparison.
  virtual bool Equal(const Slice& a, const Slice& b) const {
    return Compare(a, b) == 0;
  }

  // The comparator's identity, recorded in the DB and checked at open.
  // Names starting with "strata." and "leveldb." are reserved.
  virtual const char* Name() const = 0;

  // Space savers for index blocks: may shorten *start to a key in
  // [*start, limit) (REQUIRES: *start < limit), and *key to a key >= *key.
  // Doing nothing is correct.
  virtual void FindShortestSeparator(std::string* start,
                                     const Slice& limit) const = 0;
  virtual void FindShortSuccessor(std::string* key) const = 0;
};

// Lexicographic order of unsigned bytes, named "leveldb.BytewiseComparator"
// as in LevelDB and RocksDB. A singleton: never delete it.
STRATA_EXPORT const Comparator* BytewiseComparator();

// The reverse of BytewiseComparator, named
// "rocksdb.ReverseBytewiseComparator" as in RocksDB. Never delete it.
STRATA_EXPORT const Comparator* ReverseBytewiseComparator();

}  // namespace strata

#endif  // STRATA_INCLUDE_COMPARATOR_H_
