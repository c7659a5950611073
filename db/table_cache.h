// TableCache: the DB's open tables. Opening a table reads its footer,
// index and filter, so readers are kept open in an LRU cache keyed by
// file number and bounded by DBOptions::max_open_files (-1: unbounded,
// the DB then keeps every table it has opened).
//
// A table in use is pinned: iterators and lookups hold a cache handle, so
// eviction never closes a table under a reader. Evict(file_number) drops
// a deleted table's reader (it closes when its last user finishes).
//
// Thread safety: every method is safe from many threads at once.

#ifndef STRATA_DB_TABLE_CACHE_H_
#define STRATA_DB_TABLE_CACHE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "db/file_metadata.h"
#include "port/port.h"
#include "strata/cache.h"
#include "strata/env.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/types.h"
#include "table/internal_iterator.h"
#include "table/table_reader.h"

namespace strata {

class InternalKeyComparator;
class TableFactory;

struct TableCacheOptions {
  Env* env = nullptr;
  std::string dbname;  // table files are TableFileName(dbname, number)
  const TableFactory* table_factory = nullptr;
  TableReaderOptions reader_options;
  // use_direct_reads / use_mmap_reads for the table files.
  EnvOptions env_options;
  // The entries the cache keeps (-1: unbounded).
  int max_open_files = -1;
};

// The cache options of a DB dbname with options whose tables are ordered
// by icmp (which must outlive the cache).
TableCacheOptions TableCacheOptionsFor(const Options& options,
                                       const std::string& dbname,
                                       const InternalKeyComparator* icmp);

class TableCache {
 public:
  explicit TableCache(const TableCacheOptions& options);
  TableCache(const TableCache&) = delete;
  TableCache& operator=(const TableCache&) = delete;
  ~TableCache();

  // global_seqno (below): FileMetaData::global_seqno, the number an
  // ingested external table's entries read as (0: as written).

  // An iterator over table file_number (file_size bytes); it keeps the
  // table open until deleted. If table_reader is non-null, *table_reader
  // is set to the reader (valid while the iterator lives; its own keys,
  // not renumbered). An error opening the table yields an error iterator.
  // With scan (a compaction's input), its blocks are read as
  // TableReader::NewScanIterator reads them.
  InternalIterator* NewIterator(const ReadOptions& read_options,
                                uint64_t file_number, uint64_t file_size,
                                TableReader** table_reader = nullptr,
                                SequenceNumber global_seqno = 0,
                                const FileScanOptions* scan = nullptr);

  // TableReader::Get on table file_number.
  Status Get(const ReadOptions& read_options, uint64_t file_number,
             uint64_t file_size, const Slice& internal_key, void* arg,
             GetEntryFunction handle_entry, SequenceNumber global_seqno = 0);

  // TableReader::MultiGet on table file_number; an error opening the table
  // goes to every lookup not done.
  void MultiGet(const ReadOptions& read_options, uint64_t file_number,
                uint64_t file_size, TableLookup* const* lookups, size_t n,
                GetEntryFunction handle_entry, SequenceNumber global_seqno = 0);

  // Get and MultiGet on the table of f, a file of a live version. When
  // the cache keeps every table (max_open_files -1) the first read pins
  // the reader in f.table and later ones use it without a lookup.
  Status Get(const ReadOptions& read_options, const FileMetaData& f,
             const Slice& internal_key, void* arg,
             GetEntryFunction handle_entry);
  void MultiGet(const ReadOptions& read_options, const FileMetaData& f,
                TableLookup* const* lookups, size_t n,
                GetEntryFunction handle_entry);
  // TableReader::PlanMultiGet on the table of f. A table that does not
  // open, or has a global sequence number (an ingested file, read through
  // a view), plans nothing: MultiGet then reads as usual. The reads name
  // the reader's file: the reader stays open until ReleasePlanned(the
  // handle returned), which the caller calls after running reads (null:
  // nothing to release).
  Cache::Handle* PlanMultiGet(const ReadOptions& read_options,
                              const FileMetaData& f,
                              TableLookup* const* lookups, size_t n,
                              ReadBatch* reads);
  void ReleasePlanned(Cache::Handle* handle) { cache_->Release(handle); }

  // Runs fn on the open reader of file_number (opening it if needed).
  Status WithTable(uint64_t file_number, uint64_t file_size,
                   const std::function<void(TableReader*)>& fn,
                   SequenceNumber global_seqno = 0);

  // Forgets the reader of a table being deleted.
  void Evict(uint64_t file_number);

  // Readers currently open (for tests and properties).
  size_t NumOpen() const;

 private:
  // Opens a table not in the cache, so it is opened once even when many
  // threads miss on it together; file numbers are spread over a few locks.
  static constexpr int kOpenStripes = 32;

  Status FindTable(uint64_t file_number, uint64_t file_size,
                   Cache::Handle** handle);
  Status OpenTable(uint64_t file_number, uint64_t file_size,
                   std::unique_ptr<TableReader>* table) const;
  // The reader of f's table: pinned, or through FindTable with the handle
  // the caller releases in *release (null when nothing is to release).
  Status FindReader(const FileMetaData& f, TableReader** table,
                    Cache::Handle** release);
  Status ReaderGet(TableReader* table, SequenceNumber global_seqno,
                   const ReadOptions& read_options, const Slice& internal_key,
                   void* arg, GetEntryFunction handle_entry) const;
  void ReaderMultiGet(TableReader* table, SequenceNumber global_seqno,
                      const ReadOptions& read_options,
                      TableLookup* const* lookups, size_t n,
                      GetEntryFunction handle_entry) const;

  const TableCacheOptions options_;
  std::shared_ptr<Cache> cache_;
  // Readers are pinned in FileMetaData only when none is ever evicted.
  const bool pin_;
  port::Mutex open_mutexes_[kOpenStripes];
};

}  // namespace strata

#endif  // STRATA_DB_TABLE_CACHE_H_
