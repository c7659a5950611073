// BlockBasedTableBuilder: writes a block-based table (docs/formats/
// table.md) in one pass, in file order:
//
//   data blocks | filter block | range-deletion block | properties block |
//   metaindex | index | footer
//
// Range tombstones (kTypeRangeDeletion keys) may be added in any order,
// interleaved with the point entries (which stay in internal key order);
// they are buffered and written, sorted, into the range-deletion block,
// never into data blocks or the filter.
//
// A data block is cut once its size reaches block_size; its index entry
// (a shortest separator between its last key and the next block's first
// key, or a short successor of the table's last key) waits for that next
// key. Data blocks are compressed with TableBuilderOptions::compression
// and kept compressed only when that saves at least 1/8; metadata blocks
// are stored uncompressed. Every block gets the 5-byte trailer.
//
// Thread safety: one thread at a time (TableBuilder).

#ifndef STRATA_TABLE_BLOCK_BASED_TABLE_BUILDER_H_
#define STRATA_TABLE_BLOCK_BASED_TABLE_BUILDER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "strata/table.h"
#include "table/block_builder.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "table/table_builder.h"
#include "table/table_properties.h"

namespace strata {

class BlockBasedTableBuilder : public TableBuilder {
 public:
  // Neither options' pointers nor file are owned; they must outlive the
  // builder. A compression this build lacks makes status() NotSupported
  // from the start.
  BlockBasedTableBuilder(const BlockBasedTableOptions& table_options,
                         const TableBuilderOptions& options,
                         WritableFileWriter* file);
  ~BlockBasedTableBuilder() override;

  void Add(const Slice& key, const Slice& value) override;
  Status status() const override { return status_; }
  Status Finish() override;
  void Abandon() override;
  uint64_t NumEntries() const override { return props_.num_entries; }
  uint64_t FileSize() const override { return offset_; }
  TableProperties GetTableProperties() const override { return props_; }

 private:
  // Writes the current data block and remembers its handle for the index.
  void FlushDataBlock();
  // Writes contents (compressing with compression when not kNoCompression)
  // and its trailer; *handle says where.
  void WriteBlock(const Slice& contents, CompressionType compression,
                  BlockHandle* handle);
  void WriteRawBlock(const Slice& stored, CompressionType type,
                     BlockHandle* handle);
  // The index entries of the block just flushed, separating it from the
  // next key (or, with next_key null, from everything after it).
  void AddIndexEntry(const Slice* next_key);
  // The user-key index's entry; gives that index up when the block's last
  // user key is also the next block's first.
  void AddUserKeyIndexEntry(const Slice* next_key, const Slice& handle);
  // Sorts and writes the buffered range tombstones.
  void WriteRangeDelBlock(BlockHandle* handle);

  const BlockBasedTableOptions table_options_;
  const TableBuilderOptions options_;
  WritableFileWriter* const file_;
  Status status_;
  uint64_t offset_ = 0;
  BlockBuilder data_block_;
  // Two indexes are built: by internal keys, and by user keys as long as
  // no user key spans two blocks; Finish writes the second if it can
  // (format version 2, docs/formats/table.md).
  BlockBuilder index_block_;
  BlockBuilder user_key_index_block_;
  bool user_key_index_ = true;
  std::unique_ptr<FullFilterBlockBuilder> filter_;
  TableProperties props_;
  std::string last_key_;  // of the point entries
  uint64_t num_point_entries_ = 0;
  std::vector<std::pair<std::string, std::string>> range_dels_;
  std::string compressed_;  // reused compression output
  // The handle of the last data block while its index entry waits for
  // the next key.
  BlockHandle pending_handle_;
  bool pending_index_entry_ = false;
  bool closed_ = false;  // Finish() or Abandon() called
};

}  // namespace strata

#endif  // STRATA_TABLE_BLOCK_BASED_TABLE_BUILDER_H_
