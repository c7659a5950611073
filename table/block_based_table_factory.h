// BlockBasedTableFactory: the TableFactory of block-based tables
// (NewBlockBasedTableFactory). It resolves the options once: without a
// block_cache (and unless no_block_cache) it makes its own 8 MiB LRU
// cache, shared by every table it opens.
//
// Thread safety: immutable after construction; safe from many threads.

#ifndef STRATA_TABLE_BLOCK_BASED_TABLE_FACTORY_H_
#define STRATA_TABLE_BLOCK_BASED_TABLE_FACTORY_H_

#include <cstdint>
#include <memory>
#include <string>

#include "strata/table.h"

namespace strata {

class BlockBasedTableFactory : public TableFactory {
 public:
  explicit BlockBasedTableFactory(const BlockBasedTableOptions& table_options);

  const char* Name() const override { return "BlockBasedTable"; }

  const void* GetOptionsPtr(const std::string& name) const override {
    return name == BlockBasedTableOptions::kName() ? &table_options_ : nullptr;
  }

  Status NewTableReader(const TableReaderOptions& options,
                        std::unique_ptr<RandomAccessFileReader> file,
                        uint64_t file_size,
                        std::unique_ptr<TableReader>* table) const override;
  TableBuilder* NewTableBuilder(const TableBuilderOptions& options,
                                WritableFileWriter* file) const override;

  // The options in use, block_cache resolved.
  const BlockBasedTableOptions& table_options() const { return table_options_; }

 private:
  BlockBasedTableOptions table_options_;
};

}  // namespace strata

#endif  // STRATA_TABLE_BLOCK_BASED_TABLE_FACTORY_H_
