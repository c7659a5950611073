// MemTable: the in-memory write buffer. Every write goes here (after the
// WAL) as a new version of its key; when the memtable is full it becomes
// immutable (memtable/memtable_list.h) and is later flushed to a table.
//
// Each entry is one arena allocation:
//
//   +---------------+----------+----------------------+---------------+-------+
//   | varint32 klen | user key | fixed64(seq<<8|type) | varint32 vlen | value |
//   +---------------+----------+----------------------+---------------+-------+
//                   |<-- internal key: klen bytes --->|               |<vlen->|
//
// The fixed64 is little-endian (util/coding.h), as everywhere in strata.
// Entries are ordered by internal key (user key ascending, then sequence
// and type descending: the newest version of a key first). Since an
// internal key includes its sequence number and type, two Adds of the same
// (key, seq, type) are the same entry.
//
// Point entries live in one of two representations (MemTableOptions,
// docs/memtable.md):
//   - an InlineSkipList (the default, SkipListFactory): ordered at insert,
//     concurrent inserts allowed; a duplicate Add is refused;
//   - a VectorRep (VectorRepFactory): appended unordered, one writer at a
//     time, sorted when a reader needs order and once for good after
//     MarkImmutable. A duplicate Add is accepted and dropped when sorted.
// The memtable calls the representation directly (no virtual call per
// entry): a branch on which one it has.
//
// Range tombstones (DeleteRange: every key k with begin <= k < end, at
// sequence seq) live in a skiplist of their own in the same arena, same
// entry layout, whatever the representation: internal key (begin, seq,
// kTypeRangeDeletion), value end. Kept apart so that point lookups and
// scans never step over them, and so that readers can gather them cheaply
// (docs/range_del.md).
//
// Visibility: a read at sequence s sees, for each user key, the versions
// with sequence <= s — what was written before the snapshot, not after
// it. ForEachVersion and the iterators hand out point entries only; a
// reader applies range tombstones (of this and every other source) on
// top (db/read_view.h, db/range_del_filter_iterator.h).
//
// In-place updates (MemTableOptions::inplace_update_locks > 0, the DB's
// inplace_update_support): Update overwrites the value of a key's newest
// entry when that is a plain value at least as large as the new one, and
// no range tombstone of this memtable is newer than it. The entry keeps
// its sequence number, so a snapshot or iterator may see a value written
// after it was taken. The value bytes are written under a striped lock
// (by user-key hash) that ForEachVersion and the iterators' value() take
// shared while the memtable is mutable; keys never change.
//
// Thread safety:
//   - Add(allow_concurrent = false) and Update: one writer at a time (the
//     caller serializes); Add(allow_concurrent = true): any number of
//     writers at once, skiplist only. Do not mix the two at the same time.
//   - ForEachVersion, NewIterator and its iterators, and the statistics
//     may run alongside any Add or Update without a lock.
//   - MarkImmutable: after the last Add or Update, ordered after it by the
//     caller (the DB mutex).
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
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "memtable/concurrent_arena.h"
#include "memtable/inline_skiplist.h"
#include "memtable/vector_rep.h"
#include "port/port.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

struct MemTableOptions {
  // The chunk the arena takes at a time (the DB uses an eighth of
  // write_buffer_size, so that a small buffer holds more than its first
  // chunk).
  size_t arena_block_size = ConcurrentArena::kDefaultBlockSize;
  // 0, or the size of the huge-page regions the chunks are carved from
  // (ConcurrentArena).
  size_t huge_page_region = 0;
  // Point entries in a VectorRep (VectorRepFactory) rather than the
  // skiplist, with room for vector_reserve entries up front.
  bool vector_rep = false;
  size_t vector_reserve = 0;
  // 0: no in-place updates. Else the number of striped locks guarding
  // in-place value writes (inplace_update_num_locks).
  size_t inplace_update_locks = 0;
};

class MemTable {
 public:
  explicit MemTable(const InternalKeyComparator& comparator);
  MemTable(const InternalKeyComparator& comparator,
           const MemTableOptions& options);
  // The skiplist, with these arena settings (MemTableOptions).
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
  // With a VectorRep a duplicate is accepted (OK) and dropped when the
  // entries are sorted, and allow_concurrent is InvalidArgument.
  Status Add(SequenceNumber seq, ValueType type, const Slice& key,
             const Slice& value, bool allow_concurrent = false);

  // Put of key at seq with in-place updates (see the file comment): either
  // overwrites the value of key's newest entry or Adds a new one, and
  // returns what Add would.
  // REQUIRES: inplace_update_support(); the one writer (no concurrent Add).
  Status Update(SequenceNumber seq, const Slice& key, const Slice& value);

  bool inplace_update_support() const { return locks_ != nullptr; }

  // Point entries of one writer added together (a large WriteBatch):
  // Stage encodes each into the arena as Add would, unlinked; LinkStaged
  // links them all, in key order, and counts the statistics once. Entries
  // already in order take Insert's cached search path; others are sorted
  // and searched for together (InlineSkipList::InsertSorted), which keeps
  // several cache misses in flight where one-by-one links wait for each.
  // Staged entries are invisible until linked, which the sequence numbers
  // already ensure for readers (a batch is published after its insert).
  struct Staged {
    std::vector<const char*> entries;
    uint64_t deletes = 0;
    uint64_t bytes = 0;
    SequenceNumber first_seq = 0;  // 0: none
  };
  // Whether Stage may be used: the skiplist without in-place updates.
  bool CanStage() const { return vector_ == nullptr && locks_ == nullptr; }
  // As Add(seq, type, key, value) for a point entry, into staged.
  // REQUIRES: CanStage(); type is not kTypeRangeDeletion; the one writer.
  Status Stage(SequenceNumber seq, ValueType type, const Slice& key,
               const Slice& value, Staged* staged);
  // Links every staged entry and empties staged. TryAgain if some entry
  // was already present (a WAL replayed twice); the others are linked.
  Status LinkStaged(Staged* staged);

  // No Add or Update follows (the memtable joined the immutable list): a
  // VectorRep may now sort its entries for good, and readers stop taking
  // the in-place update locks.
  void MarkImmutable() {
    immutable_.store(true, std::memory_order_release);
    if (vector_ != nullptr) vector_->MarkImmutable();
  }

  // Calls visit(arg, internal_key, value) for each version of
  // key.user_key() with sequence <= key's sequence, newest first, until it
  // returns false. Range tombstones are not visited (see
  // NewRangeTombstoneIterator). The point lookup (db/read_view.h) decides
  // what the versions mean; no iterator is allocated. With in-place
  // updates, visit runs under the key's update lock (shared): it must copy
  // a value it keeps, and must not call into this memtable.
  // A mutable VectorRep: binary search in its newest sorted run, plus a
  // scan of the entries appended since; when more than about sqrt(n) of
  // them have piled up, the run is extended first (docs/memtable.md).
  void ForEachVersion(const LookupKey& key, void* arg,
                      bool (*visit)(void* arg, const Slice& internal_key,
                                    const Slice& value));

  // An iterator over the entries, in internal key order. key() is the
  // internal key, value() the value; targets of Seek/SeekForPrev are
  // internal keys. The caller deletes it, and keeps this memtable
  // referenced while it lives. On a mutable VectorRep it walks a sorted
  // run covering the entries present at the call (later ones are not
  // seen); building it costs a copy of the pointers. With in-place
  // updates on a mutable memtable, value() is a copy taken under the
  // key's update lock, valid until the iterator moves.
  InternalIterator* NewIterator();

  // An iterator over the range tombstones, as NewIterator (key: internal
  // key (begin, seq, kTypeRangeDeletion), value: end), or null when the
  // memtable has none. Tombstones added after the call may or may not be
  // seen. Same ownership and lifetime rules as NewIterator.
  InternalIterator* NewRangeTombstoneIterator();

  // Memory held by the entries and the index (reserved arena space
  // included): what decides when the memtable is full. A VectorRep's
  // pointer chunks are in the arena; its sorted runs, when it needs
  // copies, are not counted.
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
  template <class Position>
  class Iter;
  class VectorPosition;
  class LockedValueIter;

  // Orders entries (pointers to the varint32 klen) by internal key.
  struct KeyComparator {
    explicit KeyComparator(const InternalKeyComparator& c) : comparator(c) {}
    int operator()(const char* a, const char* b) const;
    const InternalKeyComparator comparator;
  };
  using Table = InlineSkipList<KeyComparator>;
  using Vector = VectorRep<KeyComparator>;
  using Visitor = bool (*)(void* arg, const Slice& internal_key,
                           const Slice& value);

  ~MemTable();  // only Unref deletes

  // Add of a point entry of entry_size bytes into vector_.
  Status AddToVector(SequenceNumber seq, ValueType type, const Slice& key,
                     const Slice& value, size_t entry_size,
                     bool allow_concurrent);
  // The statistics of an Add of bytes of key and value.
  void CountAdd(SequenceNumber seq, ValueType type, size_t bytes);
  // Lowers first_seqno_ to seq.
  void LowerFirstSeqno(SequenceNumber seq);
  void CountRangeDeletion(SequenceNumber seq);
  // ForEachVersion without the in-place update lock.
  void VisitVersions(const LookupKey& key, void* arg, Visitor visit);
  void VisitSkipListVersions(const LookupKey& key, void* arg, Visitor visit);
  void VisitVectorVersions(const LookupKey& key, void* arg, Visitor visit);
  // The in-place update lock of user_key.
  port::RWMutex* LockFor(const Slice& user_key) const;
  // Readers take the in-place update locks while this is true.
  bool ValuesMayChange() const {
    return locks_ != nullptr && !immutable_.load(std::memory_order_acquire);
  }

  KeyComparator comparator_;
  int refs_ = 0;
  ConcurrentArena arena_;
  Table table_;  // point entries, unless vector_ holds them
  Table range_del_table_;
  const std::unique_ptr<Vector> vector_;  // null: the skiplist
  const size_t num_locks_;
  const std::unique_ptr<port::RWMutex[]> locks_;  // null: no in-place updates
  std::atomic<bool> immutable_{false};
  // The newest range tombstone's sequence (0: none); an in-place update
  // must not move a value under an older entry that one covers.
  std::atomic<SequenceNumber> max_range_del_seq_{0};

  std::atomic<uint64_t> num_entries_{0};
  std::atomic<uint64_t> num_deletes_{0};
  std::atomic<uint64_t> num_range_deletes_{0};
  std::atomic<uint64_t> data_size_{0};
  std::atomic<SequenceNumber> first_seqno_{0};
};

}  // namespace strata

#endif  // STRATA_MEMTABLE_MEMTABLE_H_
