// BlockBasedTable: the TableReader of a block-based table
// (docs/formats/table.md).
//
// Open reads and checks, in this order, the footer, the metaindex, the
// properties, the index block and — when the configured filter policy has
// the name the table recorded — the filter block, always verifying their
// checksums; then the range-deletion block if there is one, whose every
// entry is checked (a range tombstone key, in strictly increasing order)
// once, at open, and which the reader keeps for its life (whatever
// cache_index_and_filter_blocks says: it is small and every read wants
// it). The index and filter stay in the reader, or, with
// cache_index_and_filter_blocks and a block cache, in the block cache
// (read again if evicted). Data blocks are read through the block cache
// under a key unique to this reader (a Cache::NewId() prefix and the
// block's offset); ReadOptions::verify_checksums and fill_cache apply to
// them. Uncompressed blocks of an mmap'ed file are used in place and never
// cached (the cache could outlive the mapping).
//
// With TableReaderOptions::statistics set, the reader counts every block
// cache lookup (BLOCK_CACHE_{HIT,MISS,ADD} and per kind, when it has a
// cache; index and filter held in the reader are not lookups), the Gets
// its filter spared (BLOOM_FILTER_USEFUL) and the prefix checks of prefix
// seeks (BLOOM_FILTER_PREFIX_CHECKED / _USEFUL).
//
// Nothing read from the file is trusted: every error is a Status naming
// the file and the offset of the damaged block, never a crash. Keys too
// short to be internal keys (possible in a damaged data block read without
// checksum verification) stop an iterator with Corruption.
//
// Thread safety: TableReader's: after Open, the reader is immutable apart
// from the (thread-safe) cache.

#ifndef STRATA_TABLE_BLOCK_BASED_TABLE_READER_H_
#define STRATA_TABLE_BLOCK_BASED_TABLE_READER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "strata/cache.h"
#include "strata/comparator.h"
#include "strata/table.h"
#include "table/format.h"
#include "table/pinned_value.h"
#include "table/table_reader.h"

namespace strata {

class Block;
class BlockIter;
class FullFilterBlockReader;
class InternalKeyComparator;
class Statistics;

// Orders table keys as icmp does, and keys too short to be internal keys
// (which only a damaged block holds) bytewise, so that a search through
// damaged data never reads outside a key.
class TableKeyComparator : public Comparator {
 public:
  explicit TableKeyComparator(const InternalKeyComparator* icmp)
      : icmp_(icmp) {}
  const char* Name() const override;
  int Compare(const Slice& a, const Slice& b) const override;
  void FindShortestSeparator(std::string* start,
                             const Slice& limit) const override;
  void FindShortSuccessor(std::string* key) const override;

 private:
  const InternalKeyComparator* const icmp_;
};

class BlockBasedTable : public TableReader {
 public:
  // Opens the table of file (file_size bytes). table_options.block_cache
  // is the cache to use as is (null, or no_block_cache: none); the factory
  // supplies its default cache.
  static Status Open(const BlockBasedTableOptions& table_options,
                     const TableReaderOptions& options,
                     std::unique_ptr<RandomAccessFileReader> file,
                     uint64_t file_size, std::unique_ptr<TableReader>* table);

  ~BlockBasedTable() override;

  InternalIterator* NewIterator(const ReadOptions& read_options) override;
  InternalIterator* NewScanIterator(const ReadOptions& read_options,
                                    const FileScanOptions& scan) override;
  InternalIterator* NewRangeTombstoneIterator(
      const ReadOptions& read_options) override;
  // Get, MultiGet and PlanMultiGet: table/block_based_table_get.cc.
  Status Get(const ReadOptions& read_options, const Slice& internal_key,
             void* arg, GetEntryFunction handle_entry) override;
  void MultiGet(const ReadOptions& read_options, TableLookup* const* lookups,
                size_t n, GetEntryFunction handle_entry) override;
  void PlanMultiGet(const ReadOptions& read_options,
                    TableLookup* const* lookups, size_t n,
                    ReadBatch* reads) override;
  bool PrefixMayMatch(const Slice& prefix) override;
  uint64_t ApproximateOffsetOf(const Slice& internal_key) override;
  std::shared_ptr<const TableProperties> GetTableProperties() const override {
    return props_;
  }
  size_t ApproximateMemoryUsage() const override;

  // For tests: whether the reader uses a filter, and holds the index and
  // filter itself (not in the block cache).
  bool TEST_HasFilter() const { return has_filter_; }
  bool TEST_IndexInReader() const { return index_block_ != nullptr; }
  // Where the range-deletion block is (size 0 if there is none).
  BlockHandle TEST_RangeDelHandle() const { return range_del_handle_; }
  // The index's iterator, over internal keys whatever the index holds.
  InternalIterator* TEST_NewIndexIterator() const { return NewIndexIterator(); }

 private:
  BlockBasedTable(const BlockBasedTableOptions& table_options,
                  const TableReaderOptions& options,
                  std::unique_ptr<RandomAccessFileReader> file,
                  uint64_t file_size);

  // The steps of Open.
  Status ReadMetaindex(BlockHandle* properties_handle);
  Status ReadProperties(const BlockHandle& handle);
  Status ReadIndexAndFilter();
  Status ReadRangeDelBlock();

  // The index block, filter and data blocks, from the reader, the cache
  // or the file.
  // count: record the cache lookup in statistics_ (PlanMultiGet does not:
  // the search after it looks the same blocks up again).
  Status GetIndexBlock(PinnedValue<Block>* out, bool count = true) const;
  // Speeds up the searches of a freshly read index block.
  void PrepareIndexBlock(Block* block) const;
  Status GetFilter(PinnedValue<FullFilterBlockReader>* out,
                   bool count = true) const;
  // Reads through prefetch when not null; takes the bytes of preread
  // instead of reading when it is a complete read of this block.
  Status GetDataBlock(const ReadOptions& read_options,
                      const BlockHandle& handle, PinnedValue<Block>* out,
                      FilePrefetchBuffer* prefetch = nullptr,
                      const BatchRead* preread = nullptr) const;
  // Reads the metadata block at handle, always verifying its checksum;
  // the contents own their bytes when owned (to be cached).
  Status ReadMetaBlock(const BlockHandle& handle, bool owned,
                       BlockContents* contents) const;
  std::unique_ptr<FullFilterBlockReader> MakeFilter(
      BlockContents&& contents) const;

  // The index's keys are user keys (format version 2) or internal keys;
  // its iterators order them with IndexComparator and seek them with
  // IndexTarget(an internal key).
  bool IndexHasUserKeys() const { return footer_.index_has_user_keys(); }
  const Comparator* IndexComparator() const;
  Slice IndexTarget(const Slice& internal_key) const {
    return IndexHasUserKeys() ? ExtractUserKey(internal_key) : internal_key;
  }
  // Over internal keys whatever the index holds: a user-key index's keys
  // appear as the last internal key of their user key.
  InternalIterator* NewIndexIterator() const;
  // The block handle an index entry's value holds (Corruption if it
  // holds anything else).
  Status DecodeIndexValue(const Slice& index_value, BlockHandle* handle) const;
  // The iterator of the data block an index entry names.
  InternalIterator* NewDataBlockIterator(
      const ReadOptions& read_options, const Slice& index_value,
      FilePrefetchBuffer* prefetch = nullptr) const;

  // A point lookup's walk over the index and the data blocks, kept across
  // the keys of a MultiGet: the data block last read stays, so the keys of
  // one block cost one block lookup.
  struct BlockSearch {
    // Out of line: Block is incomplete here.
    BlockSearch(const ReadOptions* r, GetEntryFunction h, BlockIter* i);
    ~BlockSearch();

    const ReadOptions* const read_options;
    const GetEntryFunction handle_entry;
    BlockIter* const index_iter;  // over this table's index
    PinnedValue<Block> block;
    uint64_t block_offset = 0;
    bool loaded = false;  // block holds the block at block_offset
  };
  // Hands the entries of lookup's user key to search->handle_entry with
  // lookup->arg; sets lookup->done if it returns false.
  Status SearchBlocks(TableLookup* lookup, BlockSearch* search) const;

  // What a cache entry holds. Part of the key: a crafted table whose
  // handles name one block as two kinds must not make one kind's entry be
  // taken for another's.
  enum class CachedKind : char { kData = 'd', kIndex = 'i', kFilter = 'f' };
  // cache id (fixed64) | kind | varint64 offset, built on the stack: a
  // lookup of every block goes through it.
  struct CacheKeyBuffer {
    char data[8 + 1 + 10];
    size_t size = 0;
    Slice slice() const { return Slice(data, size); }
  };
  CacheKeyBuffer CacheKey(CachedKind kind, uint64_t offset) const;
  // Counts a block cache lookup of a kind in statistics_ (non-null).
  void RecordCacheLoad(CachedKind kind, CacheLoad load) const;
  // "<file>: block at <offset>"
  std::string BlockWhere(uint64_t offset) const;

  const BlockBasedTableOptions table_options_;
  const InternalKeyComparator* const icmp_;
  const TableKeyComparator cmp_;
  const SliceTransform* const reader_prefix_extractor_;
  Statistics* const statistics_;  // null: count nothing
  const std::unique_ptr<RandomAccessFileReader> file_;
  const uint64_t file_size_;
  Cache* const cache_;     // null: no block cache
  uint64_t cache_id_ = 0;  // from cache_->NewId()
  // Reads are served from the file's own memory (mmap).
  bool file_in_memory_ = false;
  // Written with compression (its properties say): data blocks are read
  // as likely compressed (ReadBlock).
  bool compressed_ = false;
  Footer footer_;
  std::shared_ptr<const TableProperties> props_;
  // The prefix extractor the filter holds prefixes of (null: none usable).
  const SliceTransform* filter_prefix_extractor_ = nullptr;
  bool has_filter_ = false;
  BlockHandle filter_handle_;
  // Held here unless they live in the block cache.
  std::unique_ptr<Block> index_block_;
  std::unique_ptr<FullFilterBlockReader> filter_;
  bool has_range_dels_ = false;
  BlockHandle range_del_handle_;
  std::unique_ptr<Block> range_del_block_;  // when has_range_dels_
};

}  // namespace strata

#endif  // STRATA_TABLE_BLOCK_BASED_TABLE_READER_H_
