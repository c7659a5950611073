// TableProperties: what a table records about itself in its properties
// block (docs/formats/table.md, "Properties"), read back when it opens.
//
// Thread safety: a plain value.

#ifndef STRATA_TABLE_TABLE_PROPERTIES_H_
#define STRATA_TABLE_TABLE_PROPERTIES_H_

#include <cstdint>
#include <string>

#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// The column_family_id of a table whose writer named no family (RocksDB's
// value; strata's family ids stay below it). Tables written before the
// family was recorded read back with it too.
constexpr uint64_t kUnknownColumnFamilyId = 0x7fffffff;

// The version SstFileWriter records (RocksDB's current one is 2 as well).
constexpr uint64_t kExternalSstFileVersion = 2;

struct TableProperties {
  uint64_t num_entries = 0;
  uint64_t num_deletions = 0;  // deletion and single-deletion entries
  uint64_t num_range_deletions = 0;
  uint64_t num_merge_operands = 0;
  uint64_t num_data_blocks = 0;
  uint64_t raw_key_size = 0;    // internal keys, uncompressed
  uint64_t raw_value_size = 0;  // values, uncompressed
  uint64_t data_size = 0;       // data blocks as stored, with trailers
  uint64_t index_size = 0;
  uint64_t filter_size = 0;
  uint64_t creation_time = 0;  // seconds since the epoch
  uint64_t smallest_seqno = 0;
  uint64_t largest_seqno = 0;
  uint64_t format_version = 0;
  uint64_t whole_key_filtering = 0;  // 1 if the filter holds whole keys
  // The family that wrote the table (flush, compaction): what RepairDB
  // files it under.
  uint64_t column_family_id = kUnknownColumnFamilyId;
  // Written by SstFileWriter: the external file format's version
  // (kExternalSstFileVersion), its entries all at sequence number 0; 0:
  // a table the DB wrote. Encoded only when set.
  uint64_t external_sst_file_version = 0;
  std::string comparator_name;
  std::string compression_name;       // CompressionTypeName
  std::string filter_policy_name;     // empty: no filter
  std::string prefix_extractor_name;  // empty: none
  std::string column_family_name;     // empty: unknown, as the id

  // "key=value; ..." of every field, for logs and tools.
  std::string ToString() const;
};

// The properties block's contents and back. Decoding untrusted contents
// fails with Corruption; unknown property names are ignored (a newer
// writer may add some).
void EncodeTableProperties(const TableProperties& props, std::string* out);
Status DecodeTableProperties(const Slice& contents, TableProperties* props);

}  // namespace strata

#endif  // STRATA_TABLE_TABLE_PROPERTIES_H_
