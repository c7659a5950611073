// MemTable: the in-memory write buffer. Every write goes here (after the
// WAL) as a new version of its key; when the memtable is full it becomes
// immutable (memtable/memtable_list.h) and is later flushed to a table.
//
// Entries are kept in an InlineSkipList ordered by internal key (user key
// ascending, then sequence and type descending: the newest version of a
// key first). Each entry is one arena allocation:
//
//   +---------------+----------+----------------------+---------------+-------+
//   | varint32 klen | user key | fixed64(seq<<8|type) | varint32 vlen | value |
//   +---------------+----------+----------------------+---------------+-------+
//                   |<-- internal key: klen bytes --->|               |<vlen->|
//
// The fixed64 is little-endian (util/coding.h), as everywhere in strata.
// Since an internal key includes its sequence number and type, two Adds of
// the same (key, seq, type) are the same entry: the second is refused.
//
// Range tombstones (DeleteRange: every key k with begin <= k < end, at
// sequence seq) live in a second skiplist of the same arena, same entry
// layout: internal key (begin, seq, kTypeRangeDeletion), value end. Kept
// apart so that point lookups and scans never step over them, and so that
// readers can gather them cheaply (docs/range_del.md).
//
// Visibility: a read at sequence s sees, for each user key, the versions
// with sequence <= s — what was written before the snapshot, not after
// it. ForEachVersion and the iterators hand out point entries only; a
// reader applies range tombstones (of this and every other source) on
// top (db/read_view.h, db/range_del_filter_iterator.h).
//
// Thread safety:
//   - Add(allow_concurrent = false): one writer at a time (the caller
//     serializes); Add(allow_concurrent = true): any number of writers at
//     once. Do not mix the two at the same time.
//   - ForEachVersion, NewIterator and its iterators, and the statistics
//     may run alongside any Add without a lock.
//   - Ref and Unref are NOT thread-safe: the DB calls them with its mutex
//     held.
//
// Lifetime: created with a reference count of 0; the creator Refs it.
// Unref deletes it when the count drops to zero. Iterators and the
// slices handed to ForEachVersion's visitor do not hold a reference:
// whoever uses them keeps one.

#ifndef STRATA_MEMTABLE_MEMTABLE_H_
#define STRATA_MEMTABLE_MEMTABLE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "db/dbformat.h"
#include "memtable/concurrent_arena.h"
#include "memtable/inline_skiplist.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

class MemTable {
 public:
  explicit MemTable(const InternalKeyComparator& comparator);
  // arena_block_size: the chunk the arena takes at a time (the DB uses an
  // eighth of write_buffer_size, so that a small buffer holds more than
  // its first chunk). huge_page_region: 0, or the size of the huge-page
  // regions the chunks are carved from (ConcurrentArena).
  MemTable(const InternalKeyComparator& comparator, size_t arena_block_size,
           size_t huge_page_region = 0);
  MemTable(const MemTable&) = delete;
  MemTable& operator=(const MemTable&) = delete;

  // REQUIRES: the DB mutex (or, in tests, no other Ref/Unref at the same
  // time).
  void Ref() { ++refs_; }
  // Deletes this memtable when the last reference goes.
  // REQUIRES: as Ref.
  void Unref();

  // Adds version seq of key. type is kTypeValue, kTypeDeletion,
  // kTypeSingleDeletion, kTypeMerge, or kTypeRangeDeletion with key the
  // range's begin and value its (exclusive) end; anything else is
  // InvalidArgument. value is empty for deletions. An empty range
  // (begin >= end) is stored and covers nothing. allow_concurrent picks
  // the insert that tolerates other concurrent Adds.
  // Returns TryAgain if this (key, seq, type) is already present (a WAL
  // replayed twice during recovery; the caller ignores it), else OK.
  Status Add(SequenceNumber seq, ValueType type, const Slice& key,
             const Slice& value, bool allow_concurrent = false);

  // Calls visit(arg, internal_key, value) for each version of
  // key.user_key() with sequence <= key's sequence, newest first, until it
  // returns false. Range tombstones are not visited (see
  // NewRangeTombstoneIterator). The point lookup (db/read_view.h) decides
  // what the versions mean; no iterator is allocated.
  void ForEachVersion(const LookupKey& key, void* arg,
                      bool (*visit)(void* arg, const Slice& internal_key,
                                    const Slice& value));

  // An iterator over the entries, in internal key order. key() is the
  // internal key, value() the value; targets of Seek/SeekForPrev are
  // internal keys. The caller deletes it, and keeps this memtable
  // referenced while it lives.
  InternalIterator* NewIterator();

  // An iterator over the range tombstones, as NewIterator (key: internal
  // key (begin, seq, kTypeRangeDeletion), value: end), or null when the
  // memtable has none. Tombstones added after the call may or may not be
  // seen. Same ownership and lifetime rules as NewIterator.
  InternalIterator* NewRangeTombstoneIterator();

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
  // Range tombstones (also counted in num_entries).
  uint64_t num_range_deletes() const {
    return num_range_deletes_.load(std::memory_order_relaxed);
  }
  // User key plus value bytes added (begin plus end for a tombstone).
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
  Table range_del_table_;

  std::atomic<uint64_t> num_entries_{0};
  std::atomic<uint64_t> num_deletes_{0};
  std::atomic<uint64_t> num_range_deletes_{0};
  std::atomic<uint64_t> data_size_{0};
  std::atomic<SequenceNumber> first_seqno_{0};
};

}  // namespace strata

#endif  // STRATA_MEMTABLE_MEMTABLE_H_
