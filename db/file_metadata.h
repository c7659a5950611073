// FileMetaData: what the DB knows about one table file — recorded in the
// MANIFEST by version edits (docs/formats/manifest.md) and kept in memory
// by the versions that contain the file.
//
// Thread safety: immutable once a version holds it, except refs (changed
// under the DB mutex) and being_compacted (read and written under it).

#ifndef STRATA_DB_FILE_METADATA_H_
#define STRATA_DB_FILE_METADATA_H_

#include <atomic>
#include <cstdint>

#include "db/dbformat.h"
#include "strata/cache.h"
#include "strata/types.h"

namespace strata {

// The open reader of a file, held by the file's metadata: the table
// cache's handle on it, set by the first read when the cache keeps every
// table (max_open_files -1), so later reads skip the cache's lookup and
// its locks (db/table_cache.h). A copy starts unpinned; the handle is
// released when the metadata goes.
class PinnedTable {
 public:
  PinnedTable() = default;
  PinnedTable(const PinnedTable&) {}
  PinnedTable& operator=(const PinnedTable&) { return *this; }
  ~PinnedTable() {
    Cache::Handle* handle = handle_.load(std::memory_order_acquire);
    if (handle != nullptr)
      cache_.load(std::memory_order_relaxed)->Release(handle);
  }

  // The handle, if it belongs to cache; else null.
  Cache::Handle* Get(const Cache* cache) const {
    Cache::Handle* handle = handle_.load(std::memory_order_acquire);
    if (handle == nullptr || cache_.load(std::memory_order_relaxed) != cache) {
      return nullptr;
    }
    return handle;
  }
  // Keeps handle (of cache) unless another thread pinned one first; false
  // then, and the caller still owns handle.
  bool Set(Cache* cache, Cache::Handle* handle) {
    Cache* no_cache = nullptr;
    if (!cache_.compare_exchange_strong(no_cache, cache) && no_cache != cache) {
      return false;
    }
    Cache::Handle* none = nullptr;
    return handle_.compare_exchange_strong(none, handle,
                                           std::memory_order_release);
  }

 private:
  std::atomic<Cache*> cache_{nullptr};
  std::atomic<Cache::Handle*> handle_{nullptr};
};

struct FileMetaData {
  uint64_t number = 0;
  uint64_t file_size = 0;
  InternalKey smallest;  // smallest internal key in the table
  InternalKey largest;   // largest internal key in the table
  SequenceNumber smallest_seqno = kMaxSequenceNumber;
  SequenceNumber largest_seqno = 0;
  // The table's counts (its properties), for estimates and reads: a table
  // known to hold no range tombstone is not asked for them. counts_known:
  // the table was written by this process, or the MANIFEST recorded them
  // (docs/formats/manifest.md, tag 0x2007); else they are zero and
  // unknown.
  uint64_t num_entries = 0;
  uint64_t num_deletions = 0;
  uint64_t num_range_deletions = 0;
  bool counts_known = false;
  // An ingested external file (SstFileWriter) whose entries, written at
  // sequence number 0, read as this number (0: as written). Recorded in
  // the MANIFEST (docs/formats/manifest.md, tag 8); the file is never
  // changed. Then smallest_seqno == largest_seqno == global_seqno.
  SequenceNumber global_seqno = 0;

  // Versions holding the file; the file is obsolete at 0.
  int refs = 0;
  // An input or output of a running compaction.
  bool being_compacted = false;
  // The open reader, once a read pinned it.
  mutable PinnedTable table;

  // For a table being built: keys arrive in order, so the first is the
  // smallest and the latest the largest.
  void UpdateBoundaries(const Slice& internal_key, SequenceNumber seqno) {
    if (smallest.Encode().empty()) smallest.DecodeFrom(internal_key);
    largest.DecodeFrom(internal_key);
    if (seqno < smallest_seqno) smallest_seqno = seqno;
    if (seqno > largest_seqno) largest_seqno = seqno;
  }
  // For a range tombstone (key: (begin, seqno, kTypeRangeDeletion), value:
  // end), in any order: the boundaries grow to cover it — smallest at
  // most (begin, seqno), largest at least (end, kMaxSequenceNumber), as a
  // tombstone reaches up to end and a read of any key it covers must
  // visit the file.
  void UpdateTombstoneBoundaries(const InternalKeyComparator& icmp,
                                 const Slice& key, SequenceNumber seqno,
                                 const Slice& end) {
    const InternalKey limit(end, kMaxSequenceNumber, kTypeRangeDeletion);
    if (smallest.Encode().empty() || icmp.Compare(key, smallest.Encode()) < 0) {
      smallest.DecodeFrom(key);
    }
    if (largest.Encode().empty() ||
        icmp.Compare(limit.Encode(), largest.Encode()) > 0) {
      largest = limit;
    }
    if (seqno < smallest_seqno) smallest_seqno = seqno;
    if (seqno > largest_seqno) largest_seqno = seqno;
  }
};

}  // namespace strata

#endif  // STRATA_DB_FILE_METADATA_H_
