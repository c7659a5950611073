// The choice of memtable representation (ColumnFamilyOptions::
// memtable_factory), with RocksDB's names.
//
// strata has two representations (docs/memtable.md): its concurrent
// skiplist (SkipListFactory, the default) and an unordered vector sorted
// when needed (VectorRepFactory). Unlike RocksDB's, a factory here builds
// nothing: DB::Open recognizes the factory by its type and the memtable
// builds the representation itself, so the representation's interface
// stays internal and a program cannot plug in one of its own.
//
// Accepted by DB::Open: a null memtable_factory (the skiplist), a
// SkipListFactory or a VectorRepFactory. Any other factory fails the open
// with InvalidArgument naming it, and so does a factory whose
// IsInsertConcurrentlySupported() is false together with
// DBOptions::allow_concurrent_memtable_write (true by default, as in
// RocksDB: a VectorRepFactory needs it set to false).
//
// Thread safety: factories are immutable once built; share them freely.

#ifndef STRATA_INCLUDE_MEMTABLEREP_H_
#define STRATA_INCLUDE_MEMTABLEREP_H_

#include <cstddef>

#include "strata/export.h"

namespace strata {

class STRATA_EXPORT MemTableRepFactory {
 public:
  virtual ~MemTableRepFactory();

  // Identifies the representation; DB::Open's refusal quotes it.
  virtual const char* Name() const = 0;

  // Whether several writers may insert into one memtable at once
  // (DBOptions::allow_concurrent_memtable_write). Default: false.
  virtual bool IsInsertConcurrentlySupported() const { return false; }

  // Whether an insert of a <key, sequence> already present is detected
  // and refused. Default: false.
  virtual bool CanHandleDuplicatedKey() const { return false; }
};

// The default: an ordered skiplist that takes concurrent inserts.
class STRATA_EXPORT SkipListFactory : public MemTableRepFactory {
 public:
  // lookahead is accepted for RocksDB compatibility and ignored: strata's
  // skiplist keeps no per-iterator search hint.
  explicit SkipListFactory(size_t lookahead = 0);
  ~SkipListFactory() override;

  static const char* kClassName() { return "SkipListFactory"; }
  const char* Name() const override { return kClassName(); }

  bool IsInsertConcurrentlySupported() const override { return true; }
  bool CanHandleDuplicatedKey() const override { return true; }
};

// Entries appended to an array in arrival order, without a search: the
// cheapest insert, for bulk loads. The array is sorted when an ordered
// read needs it (an iterator, a flush, a lookup once enough unsorted
// entries have piled up) and once for good after the memtable becomes
// immutable; a lookup into the unsorted part scans it. Best where a
// memtable is written, then read or flushed, not both at once.
//
// One writer at a time: DB::Open refuses it with
// allow_concurrent_memtable_write (set that to false; unordered_write
// needs concurrent writes, so it is refused too).
class STRATA_EXPORT VectorRepFactory : public MemTableRepFactory {
 public:
  // count: room reserved up front for this many entries in each memtable's
  // array (it grows as needed beyond). 0: a small default.
  explicit VectorRepFactory(size_t count = 0);
  ~VectorRepFactory() override;

  static const char* kClassName() { return "VectorRepFactory"; }
  const char* Name() const override { return kClassName(); }

  // strata's own accessor (RocksDB keeps count private): the count given
  // to the constructor.
  size_t count() const { return count_; }

 private:
  size_t count_;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_MEMTABLEREP_H_
