// The choice of memtable representation (ColumnFamilyOptions::
// memtable_factory), with RocksDB's names.
//
// strata's memtable is always its own concurrent skiplist
// (memtable/inline_skiplist.h, docs/memtable.md); these classes exist so
// that a RocksDB program naming its factory compiles, and so that DB::Open
// can refuse a representation strata does not have rather than silently
// use another one. Unlike RocksDB's, a factory here builds nothing: the
// representation's own interface stays internal.
//
// Accepted by DB::Open: a null memtable_factory or a SkipListFactory.
// Anything else fails the open with InvalidArgument naming the factory.
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

}  // namespace strata

#endif  // STRATA_INCLUDE_MEMTABLEREP_H_
