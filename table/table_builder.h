// TableBuilder: writes one table file from entries added in internal-key
// order (TableFactory::NewTableBuilder). Flush and compaction use it.
//
// The file is complete only after Finish() returns OK; after Abandon() or
// an error its contents are garbage and the caller deletes it. The
// builder never syncs or closes the file: the caller does.
//
// Thread safety: one thread at a time.

#ifndef STRATA_TABLE_TABLE_BUILDER_H_
#define STRATA_TABLE_TABLE_BUILDER_H_

#include <cstdint>
#include <string>

#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/table_properties.h"

namespace strata {

class InternalKeyComparator;
class SliceTransform;

struct TableBuilderOptions {
  // The order of the internal keys added; must outlive the builder.
  const InternalKeyComparator* icmp = nullptr;
  // A codec not built in makes the builder's status NotSupported.
  CompressionType compression = kNoCompression;
  // Prefixes of keys in its domain go in the filter (may be null).
  const SliceTransform* prefix_extractor = nullptr;
  // Recorded in the properties (seconds since the epoch).
  uint64_t creation_time = 0;
  // Recorded in the properties: the family the table belongs to
  // (kUnknownColumnFamilyId: none named).
  uint64_t column_family_id = kUnknownColumnFamilyId;
  std::string column_family_name;
  // Recorded in the properties: SstFileWriter's format version (0: a
  // table the DB writes).
  uint64_t external_sst_file_version = 0;
};

class TableBuilder {
 public:
  TableBuilder() = default;
  TableBuilder(const TableBuilder&) = delete;
  TableBuilder& operator=(const TableBuilder&) = delete;
  // REQUIRES: Finish() or Abandon() called.
  virtual ~TableBuilder();

  // Adds an entry. A range tombstone (key: internal key (begin, seq,
  // kTypeRangeDeletion), value: end) may come in any order; it is kept
  // apart from the point entries (TableReader::NewRangeTombstoneIterator).
  // REQUIRES: a point entry's key sorts after every point key added
  // before; not finished.
  virtual void Add(const Slice& key, const Slice& value) = 0;

  // The first error met (by Add or writing the file), else OK.
  virtual Status status() const = 0;

  // Writes the remaining blocks, filter, properties, index and footer.
  virtual Status Finish() = 0;
  // Stops building; the file is to be deleted.
  virtual void Abandon() = 0;

  virtual uint64_t NumEntries() const = 0;
  // Bytes written so far (the file's size after Finish()).
  virtual uint64_t FileSize() const = 0;

  // The properties the table records (complete after Finish()).
  virtual TableProperties GetTableProperties() const = 0;
};

}  // namespace strata

#endif  // STRATA_TABLE_TABLE_BUILDER_H_
