// Table formats: how a DB lays out its sorted table files. strata has one,
// the block-based table (docs/formats/table.md), configured by
// BlockBasedTableOptions and chosen with Options::table_factory.
//
// Thread safety: a TableFactory is shared by the DB's threads; its methods
// are const and thread-safe.

#ifndef STRATA_INCLUDE_TABLE_H_
#define STRATA_INCLUDE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

class Cache;
class FilterPolicy;
class RandomAccessFileReader;
class TableBuilder;
class TableReader;
class WritableFileWriter;
struct TableBuilderOptions;
struct TableReaderOptions;

struct STRATA_EXPORT BlockBasedTableOptions {
  // The name TableFactory::GetOptions<BlockBasedTableOptions>() looks up.
  static const char* kName() { return "BlockTableOptions"; }

  // Index and filter blocks live in block_cache (charged, evictable, at
  // high priority when cache_index_and_filter_blocks_with_high_priority)
  // rather than in the table reader for as long as it is open.
  bool cache_index_and_filter_blocks = false;
  bool cache_index_and_filter_blocks_with_high_priority = true;

  // The cache of uncompressed data blocks. Null: an 8 MiB LRU cache of the
  // factory's own, unless no_block_cache.
  std::shared_ptr<Cache> block_cache = nullptr;
  bool no_block_cache = false;

  // Uncompressed bytes of user data per data block (approximately: a block
  // is cut after the entry that reaches it).
  uint64_t block_size = 4 * 1024;

  // Keys between restart points of prefix compression, in data blocks and
  // in the index block.
  int block_restart_interval = 16;
  int index_block_restart_interval = 1;

  // The filter of each table; null: none.
  std::shared_ptr<const FilterPolicy> filter_policy = nullptr;

  // Put whole user keys in the filter (point lookups). With a
  // prefix_extractor, prefixes go in too.
  bool whole_key_filtering = true;
};

class STRATA_EXPORT TableFactory {
 public:
  virtual ~TableFactory();

  virtual const char* Name() const = 0;

  // The factory's options of type T (T::kName() names them), or null when
  // it has none of that type: GetOptions<BlockBasedTableOptions>() of a
  // block-based factory gives the options it builds tables with.
  template <typename T>
  const T* GetOptions() const {
    return GetOptions<T>(T::kName());
  }
  template <typename T>
  T* GetOptions() {
    return GetOptions<T>(T::kName());
  }
  template <typename T>
  const T* GetOptions(const std::string& name) const {
    return static_cast<const T*>(GetOptionsPtr(name));
  }
  template <typename T>
  T* GetOptions(const std::string& name) {
    return static_cast<T*>(const_cast<void*>(GetOptionsPtr(name)));
  }
  // The options named name, or null; what GetOptions<T>() casts.
  virtual const void* GetOptionsPtr(const std::string& name) const;

  // For the engine (table/table_reader.h, table/table_builder.h).
  // Opens the table of `file` (file_size bytes): reads and checks its
  // footer, index and filter.
  virtual Status NewTableReader(const TableReaderOptions& options,
                                std::unique_ptr<RandomAccessFileReader> file,
                                uint64_t file_size,
                                std::unique_ptr<TableReader>* table) const = 0;
  // A builder writing a new table to file (not owned).
  virtual TableBuilder* NewTableBuilder(const TableBuilderOptions& options,
                                        WritableFileWriter* file) const = 0;
};

STRATA_EXPORT TableFactory* NewBlockBasedTableFactory(
    const BlockBasedTableOptions& table_options = BlockBasedTableOptions());

}  // namespace strata

#endif  // STRATA_INCLUDE_TABLE_H_
