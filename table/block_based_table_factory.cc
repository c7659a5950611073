#include "table/block_based_table_factory.h"

#include <utility>

#include "env/file_reader.h"
#include "strata/cache.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"

namespace strata {

namespace {
constexpr size_t kDefaultBlockCacheSize = 8 << 20;
}  // namespace

BlockBasedTableFactory::BlockBasedTableFactory(
    const BlockBasedTableOptions& table_options)
    : table_options_(table_options) {
  if (table_options_.no_block_cache) {
    table_options_.block_cache = nullptr;
  } else if (table_options_.block_cache == nullptr) {
    table_options_.block_cache = NewLRUCache(kDefaultBlockCacheSize);
  }
}

Status BlockBasedTableFactory::NewTableReader(
    const TableReaderOptions& options,
    std::unique_ptr<RandomAccessFileReader> file, uint64_t file_size,
    std::unique_ptr<TableReader>* table) const {
  return BlockBasedTable::Open(table_options_, options, std::move(file),
                               file_size, table);
}

TableBuilder* BlockBasedTableFactory::NewTableBuilder(
    const TableBuilderOptions& options, WritableFileWriter* file) const {
  return new BlockBasedTableBuilder(table_options_, options, file);
}

TableFactory* NewBlockBasedTableFactory(
    const BlockBasedTableOptions& table_options) {
  return new BlockBasedTableFactory(table_options);
}

}  // namespace strata
