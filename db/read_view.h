// ReadView: the memtables and the version one read uses, and the point
// lookup over them — the one path every Get and MultiGet key takes.
//
// A view holds references on the active memtable, the immutable memtable
// list version and the table version (the DB takes and drops them under
// its mutex), and the sequence number the read sees. Sources are read
// newest first: the active memtable, the immutable ones newest first,
// then the tables (Version::Get).
//
// Range tombstones: a point lookup first gathers those of every source
// that may cover its key (AddRangeTombstones) — a tombstone in any source
// deletes an older version in any other — and hands the newest covering
// sequence to its GetContext.
//
// Values: a plain value found in a cached table block is pinned into the
// caller's PinnableSlice, any other result copied into it (GetContext;
// docs/read_path.md). A pinned value holds a block cache entry, not the
// view: it stays valid after the view is released.
//
// Thread safety: the sources are immutable or safe to read beside
// writers, so any number of threads may read through one view; the view
// itself is plain data.

#ifndef STRATA_DB_READ_VIEW_H_
#define STRATA_DB_READ_VIEW_H_

#include <string>
#include <vector>

#include "db/dbformat.h"
#include "memtable/memtable_list.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class ColumnFamilyData;
class MemTable;
class RangeDelAggregator;
class TableCache;
class Version;

struct ReadView {
  // The family read (the DB references it for the view's lifetime).
  ColumnFamilyData* cfd = nullptr;
  MemTable* mem = nullptr;
  MemTableListVersion* imm = nullptr;
  Version* version = nullptr;
  SequenceNumber sequence = 0;

  // fn(MemTable*) for the active memtable, then the immutable ones,
  // newest first, while it returns true. False if fn stopped it.
  template <class Fn>
  bool ForEachMemTable(const Fn& fn) const {
    if (!fn(mem)) return false;
    for (MemTable* m : imm->memtables()) {
      if (!fn(m)) return false;
    }
    return true;
  }

  // The active memtable, then the immutable ones, newest first.
  std::vector<MemTable*> MemTables() const;

  // Adds to *aggregator the range tombstones of every memtable and of
  // every table that may cover a user key in [*smallest_user_key,
  // *largest_user_key] (null: unbounded on that side). Memtables add all
  // of theirs (a memtable with none costs a pointer load).
  Status AddRangeTombstones(const ReadOptions& options, TableCache* tables,
                            const Slice* smallest_user_key,
                            const Slice* largest_user_key,
                            RangeDelAggregator* aggregator) const;

  // The value of key at this view's sequence: OK with *value, NotFound
  // (absent, deleted, or deleted by a range tombstone), or the error of a
  // source. Merge operands are resolved with merge_operator (null: a
  // merge operand is InvalidArgument). *memtable_hit (if not null): a
  // memtable decided the lookup. REQUIRES: *value is empty (Reset).
  Status Get(const ReadOptions& options, TableCache* tables,
             const MergeOperator* merge_operator, const Slice& key,
             PinnableSlice* value, bool* memtable_hit) const;

  // The sequence number of the newest write that touched key at this
  // view's sequence: its newest version in any source (a value, a
  // deletion or a merge operand) or the newest range tombstone covering
  // it, whichever is larger; 0 when neither exists. What a transaction's
  // conflict check compares against the sequence it read at
  // (docs/transactions.md). Tables are searched only when no memtable
  // holds a version.
  Status LatestSequence(const ReadOptions& options, TableCache* tables,
                        const Slice& key, SequenceNumber* sequence) const;

  // Get for keys[0..n) together; values[i] and statuses[i] are keys[i]'s.
  // The keys are visited in key order (sorted here unless sorted_input and
  // found sorted; duplicates each get their answer), range tombstones are
  // gathered once for the batch's key range, and in the tables the keys
  // of one file are looked up in one call (Version::MultiGet), those of
  // one data block with one block lookup. REQUIRES: every values[i]
  // empty.
  void MultiGet(const ReadOptions& options, TableCache* tables,
                const MergeOperator* merge_operator, size_t n,
                const Slice* keys, PinnableSlice* values, Status* statuses,
                bool sorted_input) const;
};

}  // namespace strata

#endif  // STRATA_DB_READ_VIEW_H_
