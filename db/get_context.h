// GetContext: the state of one point lookup while it meets the versions of
// its key newest first, source after source (memtables, then tables
// through Version::Get), and what the lookup returns.
//
// A version decides the lookup unless it is a merge operand: a value (the
// operands met so far are merged onto it), a deletion or single deletion
// (the operands merge onto nothing), or a version older than the newest
// range tombstone covering the key (max_covering_seq, from a
// RangeDelAggregator over every source), which reads as a deletion. Merge
// operands are collected until a deciding version or the end of the
// sources; Finish merges them then.
//
// The result goes to a PinnableSlice. A plain value (no operands met)
// found in a cached table block is pinned there — the slice views the
// block and holds its cache entry (CachePin) — and any other result is
// copied once into the slice's buffer: a memtable's value (the memtable
// may go once the read is over), a merge result, a value of a block the
// lookup read for itself (docs/read_path.md).
//
// Thread safety: one lookup, one thread.

#ifndef STRATA_DB_GET_CONTEXT_H_
#define STRATA_DB_GET_CONTEXT_H_

#include <string>

#include "db/dbformat.h"
#include "db/merge_helper.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class CachePin;

class GetContext {
 public:
  // user_key must outlive the context; merge_operator may be null (a
  // merge operand then fails the lookup with InvalidArgument); value
  // receives the result (the caller empties it first).
  GetContext(const Comparator* ucmp, const MergeOperator* merge_operator,
             const Slice& user_key, SequenceNumber max_covering_seq,
             PinnableSlice* value);
  GetContext(const GetContext&) = delete;
  GetContext& operator=(const GetContext&) = delete;

  // Takes the next older version of the key (an entry of another user key
  // is ignored); pin (may be null) is the cache pin of the block its bytes
  // lie in. Returns false once the lookup is decided.
  bool SaveValue(const Slice& internal_key, const Slice& value, CachePin* pin);
  // SaveValue as a memtable visitor (MemTable::ForEachVersion) and as a
  // GetEntryFunction; arg is the GetContext.
  static bool SaveMemTableEntry(void* arg, const Slice& internal_key,
                                const Slice& value);
  static bool SaveTableEntry(void* arg, const Slice& internal_key,
                             const Slice& value, CachePin* pin);

  bool done() const { return done_; }
  // After the last source: OK with *value set, NotFound, or the error met.
  Status Finish();

 private:
  // Ends the lookup with the operands merged onto base (null: none),
  // whose bytes pin keeps (null: they go when the lookup moves on).
  void FinishWith(const Slice* base, CachePin* pin);

  const Comparator* const ucmp_;
  const MergeOperator* const merge_operator_;
  const Slice user_key_;
  const SequenceNumber max_covering_seq_;
  PinnableSlice* const value_;
  MergeContext operands_;
  Status status_ = Status::NotFound();
  bool done_ = false;
};

}  // namespace strata

#endif  // STRATA_DB_GET_CONTEXT_H_
