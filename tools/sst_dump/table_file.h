// TableFile: one table file (docs/formats/table.md) opened for
// inspection, block by block, through an Env. Unlike BlockBasedTable it
// exposes the footer, the metaindex entries and every data block handle,
// reads any block on request, and names the kind, number, offset and size
// of the block in every error:
//
//   Corruption: data block #3 at offset 8192 size 4011: <what the block
//   reader found>
//
// Open reads the footer, metaindex, properties and index (their checksums
// always verified, as the engine does); data blocks are read when asked.
// Nothing read is trusted: a damaged file is a Status, never a crash.
//
// Thread safety: one thread at a time.

#ifndef STRATA_TOOLS_SST_DUMP_TABLE_FILE_H_
#define STRATA_TOOLS_SST_DUMP_TABLE_FILE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/status.h"
#include "table/format.h"
#include "table/table_properties.h"

namespace strata {

class RandomAccessFileReader;

namespace sst_dump {

enum class BlockKind {
  kData,
  kIndex,
  kMetaindex,
  kProperties,
  kFilter,
  kRangeDel
};

// "data block", "index block", ...
const char* BlockKindName(BlockKind kind);

struct NamedHandle {
  std::string name;  // metaindex: block name; index: separator key
  BlockHandle handle;
};

// Called per entry of a block; returns false to stop.
using EntryFunction = std::function<bool(const Slice& key, const Slice& value)>;

class TableFile {
 public:
  // Opens path through env. Errors name the file and the damaged part.
  static Status Open(Env* env, const std::string& path,
                     std::unique_ptr<TableFile>* table);
  ~TableFile();

  const std::string& path() const { return path_; }
  uint64_t file_size() const { return file_size_; }
  const Footer& footer() const { return footer_; }
  const TableProperties& properties() const { return props_; }
  // Metaindex entries in stored order, unknown names included.
  const std::vector<NamedHandle>& metaindex() const { return metaindex_; }
  // One per data block, in order: the index entry's separator as an
  // internal key (a user key S of a version-2 index as (S, 0, 0)) and the
  // block's handle.
  const std::vector<NamedHandle>& data_blocks() const { return data_blocks_; }
  // The handle of the range-deletion block, or null if there is none.
  const BlockHandle* range_del_handle() const;
  const BlockHandle* filter_handle() const;
  // The user comparator the table names, or null if sst_dump does not
  // know it (then keys cannot be compared, only listed).
  const Comparator* user_comparator() const { return user_comparator_; }

  // Reads the block at handle (uncompressed, checksum verified if
  // verify_checksum). number: the data block's number from 1, or 0.
  Status ReadBlock(BlockKind kind, const BlockHandle& handle, size_t number,
                   bool verify_checksum, BlockContents* contents) const;
  // Reads the block and hands fn its entries in stored order; a malformed
  // block or entry is Corruption naming the block.
  Status ForEachEntry(BlockKind kind, const BlockHandle& handle, size_t number,
                      bool verify_checksum, const EntryFunction& fn) const;
  // The compression type byte of the block's trailer.
  Status ReadStoredType(const BlockHandle& handle, unsigned char* type) const;

  // "data block #3 at offset 8192 size 4011"
  static std::string Where(BlockKind kind, const BlockHandle& handle,
                           size_t number);

 private:
  TableFile(std::string path, std::unique_ptr<RandomAccessFileReader> file,
            uint64_t file_size);
  Status ReadMetaindex();
  Status ReadPropertiesAndIndex();

  const std::string path_;
  const std::unique_ptr<RandomAccessFileReader> file_;
  const uint64_t file_size_;
  Footer footer_;
  TableProperties props_;
  std::vector<NamedHandle> metaindex_;
  std::vector<NamedHandle> data_blocks_;
  const Comparator* user_comparator_ = nullptr;
};

}  // namespace sst_dump
}  // namespace strata

#endif  // STRATA_TOOLS_SST_DUMP_TABLE_FILE_H_
