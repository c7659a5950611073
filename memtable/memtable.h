// MemTable: the in-memory write buffer. Every write goes here (after the
// WAL) as a new version of its key; when the memtable is full it becomes
// immutable (memtable/memtable_list.h) and is later flushed to a table.
//
// Entries are kept in an InlineSkipList ordered by internal key (user key
// ascending, then sequence and type descending: the newest version of a
// key first). Each entry is one arena allocation:
//
//   +---------------+------------+----------------------+---------------+-------+
//   | varint32 klen | user key   | fixed64(seq<<8|type) | varint32 vlen | value
//   |
//   +---------------+------------+----------------------+---------------+-------+
//                   |<-- internal key: klen bytes ----->| |<vlen->|
//
// The fixed64 is little-endian (util/coding.h), as everywhere in strata.
// Since an internal key includes its sequence number and type, two Adds of
// the same (key, seq, type) are the same entry: the second is refused.
//
// Visibility: a lookup at sequence s sees, for each user key, the newest
// version with sequence <= s — what was written before the snapshot, not
// after it.
//
// Thread safety:
//   - Add(allow_concurrent = false): one writer at a time (the caller
//     serializes); Add(allow_concurrent = true): any number of writers at
//     once. Do not mix the two at the same time.
//   - Get, NewIterator and its iterators, and the statistics may run
//     alongside any Add without a lock.
//   - Ref and Unref are NOT thread-safe: the DB calls them with its mutex
//     held.
//
// Lifetime: created with a reference count of 0; the creator Refs it.
// Unref deletes it when the count drops to zero. Iterators and the
// results of Get do not hold a reference: whoever uses them keeps one.

#ifndef STRATA_MEMTABLE_MEMTABLE_H_
#define STRATA_MEMTABLE_MEMTABLE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "db/dbformat.h"
#include "memtable/concurrent_arena.h"
#include "memtable/inline_skiplist.h"
#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

class STRATA_EXPORT MemTable {
 public:
  explicit MemTable(const InternalKeyComparator& comparator);
  MemTable(const MemTable&) = delete;
  MemTable& operator=(const MemTable&) = delete;

  // REQUIRES: the DB mutex (or, in tests, no other Ref/Unref at the same
  // time).
  void Ref() { ++refs_; }
  // Deletes this memtable when the last reference goes.
  // REQUIRES: as Ref.
  void Unref();

  // Adds version seq of key. type is a point type: kTypeValue,
  // kTypeDeletion, kTypeSingleDeletion or kTypeMerge (anything else is
  // InvalidArgument). value is empty for deletions. allow_concurrent picks
  // the insert that tolerates other concurrent Adds.
  // Returns TryAgain if this (key, seq, type) is already present (a WAL
  // replayed twice during recovery; the caller ignores it), else OK.
  Status Add(SequenceNumber seq, ValueType type, const Slice& key,
             const Slice& value, bool allow_concurrent = false);

  // Looks up the newest version of key.user_key() with sequence <=
  // key's sequence. Returns true if there is one:
  //   value:                *value = its value, *s = OK
  //   deletion (single or not): *s = NotFound
  //   merge operand:        *s = NotSupported (merges are not resolved yet)
  // Returns false, touching neither *value nor *s, if there is none.
  bool Get(const LookupKey& key, std::string* value, Status* s);

  // An iterator over the entries, in internal key order. key() is the
  // internal key, value() the value; targets of Seek/SeekForPrev are
  // internal keys. The caller deletes it, and keeps this memtable
  // referenced while it lives.
  InternalIterator* NewIterator();

  // Memory held by the entries and the index (reserved arena space
  // included): what decides when the memtable is full.
  size_t ApproximateMemoryUsage() const {
    return arena_.ApproximateMemoryUsage();
  }

  // Statistics over successful Adds. Exact once the Adds that were running
  // have returned.
  uint64_t num_entries() const {
    return num_entries_.load(std::memory_order_relaxed);
  }
  // Deletions and single deletions.
  uint64_t num_deletes() const {
    return num_deletes_.load(std::memory_order_relaxed);
  }
  // User key plus value bytes added.
  uint64_t data_size() const {
    return data_size_.load(std::memory_order_relaxed);
  }
  // The smallest sequence number added, 0 while empty.
  SequenceNumber GetFirstSequenceNumber() const {
    return first_seqno_.load(std::memory_order_relaxed);
  }

  const InternalKeyComparator& comparator() const {
    return comparator_.comparator;
  }

 private:
  class Iter;

  // Orders entries (pointers to the varint32 klen) by internal key.
  struct KeyComparator {
    explicit KeyComparator(const InternalKeyComparator& c) : comparator(c) {}
    int operator()(const char* a, const char* b) const;
    const InternalKeyComparator comparator;
  };
  using Table = InlineSkipList<KeyComparator>;

  ~MemTable();  // only Unref deletes

  KeyComparator comparator_;
  int refs_ = 0;
  ConcurrentArena arena_;
  Table table_;

  std::atomic<uint64_t> num_entries_{0};
  std::atomic<uint64_t> num_deletes_{0};
  std::atomic<uint64_t> data_size_{0};
  std::atomic<SequenceNumber> first_seqno_{0};
};

}  // namespace strata

#endif  // STRATA_MEMTABLE_MEMTABLE_H_
