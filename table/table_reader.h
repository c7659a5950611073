// TableReader: an open table file (TableFactory::NewTableReader). It holds
// the file, its footer, index and filter (or, with
// cache_index_and_filter_blocks, finds them in the block cache) and reads
// data blocks through the block cache.
//
// Every error reading the file is returned, never a crash: Corruption
// names the file and the offset of the damaged block.
//
// Thread safety: Get, NewIterator and the accessors are safe from many
// threads at once; each iterator is used by one thread at a time.
// Lifetime: iterators must be deleted before the reader.

#ifndef STRATA_TABLE_TABLE_READER_H_
#define STRATA_TABLE_TABLE_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "env/file_reader.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

struct BatchRead;
class CachePin;
class InternalKeyComparator;
class ReadBatch;
class SliceTransform;
class Statistics;
struct TableProperties;

struct TableReaderOptions {
  // The order of the table's internal keys; must outlive the reader.
  const InternalKeyComparator* icmp = nullptr;
  // The DB's prefix extractor (may be null); its prefix filter is used
  // only if the table was built with one of the same name.
  const SliceTransform* prefix_extractor = nullptr;
  // Where the reader counts block cache lookups and filter checks (the
  // DB's Options::statistics; null: nowhere). Must outlive the reader.
  Statistics* statistics = nullptr;
};

// What a point lookup does with each entry it finds: called with the
// entries whose user key equals the lookup's, newest first, from the
// first one at or after the lookup key; returns false to stop. The
// entry's bytes are valid during the call only; pin, when not null, is
// the cache pin of the block they lie in, through which the receiver may
// keep the value without a copy (CachePin::PinInto). A block the lookup
// read for itself (no block cache, fill_cache off, an mmap'ed file) comes
// without one.
using GetEntryFunction = bool (*)(void* arg, const Slice& internal_key,
                                  const Slice& value, CachePin* pin);

// One key of a batched point lookup (TableReader::MultiGet).
struct TableLookup {
  Slice internal_key;   // a LookupKey's internal key
  void* arg = nullptr;  // handed to handle_entry with this key's entries
  bool done = false;    // set when handle_entry returned false, or on error
  Status status;        // the error reading this key's blocks, if any
  // The block this key needs first, read ahead with other keys' blocks
  // (PlanMultiGet), or null. A reader uses it only for the block of its
  // own file it names, and reads for itself whatever it did not cover.
  const BatchRead* preread = nullptr;
};

class TableReader {
 public:
  TableReader() = default;
  TableReader(const TableReader&) = delete;
  TableReader& operator=(const TableReader&) = delete;
  virtual ~TableReader();

  // An iterator over all entries (internal keys). verify_checksums and
  // fill_cache of read_options apply.
  virtual InternalIterator* NewIterator(const ReadOptions& read_options) = 0;
  // As NewIterator, for a scan of the whole table (a compaction's input):
  // its block reads go through a readahead buffer of its own and ask
  // scan.rate_limiter (env/file_reader.h). The default reads as
  // NewIterator does.
  virtual InternalIterator* NewScanIterator(const ReadOptions& read_options,
                                            const FileScanOptions& scan) {
    (void)scan;
    return NewIterator(read_options);
  }

  // An iterator over the table's range tombstones — key: internal key
  // (begin, seq, kTypeRangeDeletion), value: end (exclusive) — in internal
  // key order, or null if the table has none. NewIterator and Get never
  // return them: they live apart from the point entries. The default is
  // a table format without range tombstones.
  virtual InternalIterator* NewRangeTombstoneIterator(
      const ReadOptions& read_options) {
    (void)read_options;
    return nullptr;
  }

  // Looks up internal_key (a LookupKey's internal key): skips the table
  // if its filter rules the user key out, else seeks to internal_key and
  // hands entries to handle_entry as described above. Range tombstones
  // are not entries here: the caller applies them
  // (NewRangeTombstoneIterator).
  virtual Status Get(const ReadOptions& read_options, const Slice& internal_key,
                     void* arg, GetEntryFunction handle_entry) = 0;

  // Get for each of lookups[0..n) not yet done, as if one after another:
  // a lookup's entries go to handle_entry with its arg, done is set when
  // handle_entry returns false, and an error reading the key sets status
  // (and done) and leaves the other lookups to go on. Lookups in ascending
  // key order let a reader serve the keys of one block from one read (any
  // order gives the same entries). The default runs Get per lookup.
  virtual void MultiGet(const ReadOptions& read_options,
                        TableLookup* const* lookups, size_t n,
                        GetEntryFunction handle_entry);

  // For a batched lookup that reads its blocks together
  // (ReadOptions::async_io): adds to reads the read of the first data
  // block each lookup of lookups[0..n) not yet done will need, unless the
  // block cache holds it or the filter rules the key out, and points the
  // lookup's preread at it. The caller runs reads, then calls MultiGet
  // with the same lookups while reads holds the bytes. The default plans
  // nothing: MultiGet then reads as usual.
  virtual void PlanMultiGet(const ReadOptions& read_options,
                            TableLookup* const* lookups, size_t n,
                            ReadBatch* reads) {
    (void)read_options, (void)lookups, (void)n, (void)reads;
  }

  // False only if the table certainly holds no key with this prefix (of
  // the prefix extractor it was opened with).
  virtual bool PrefixMayMatch(const Slice& prefix) = 0;

  // The approximate file offset where the entries at or after key begin
  // (the file size past the last key).
  virtual uint64_t ApproximateOffsetOf(const Slice& internal_key) = 0;

  virtual std::shared_ptr<const TableProperties> GetTableProperties() const = 0;

  // Memory the reader holds outside the block cache.
  virtual size_t ApproximateMemoryUsage() const = 0;
};

}  // namespace strata

#endif  // STRATA_TABLE_TABLE_READER_H_
