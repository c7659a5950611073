// TableFileBuilder and BuildTable: write table file meta->number from
// sorted entries, the way flush (one table from a memtable's iterator:
// BuildTable) and compaction (tables cut as the entries come:
// TableFileBuilder) do.
//
// A table is complete and durable when Finish (or BuildTable) returns OK:
// built, synced, closed, then opened again through the table cache
// (footer, index, filter and properties checked) and, with
// paranoid_file_checks, read back entry by entry; a table that could not
// be opened is never installed. On any error the file is deleted and the error
// returned; BuildTable with no entries writes no file (meta->file_size stays 0)
// and returns OK.
//
// Thread safety: runs on one thread (a background job); the iterator is
// that thread's.

#ifndef STRATA_DB_BUILDER_H_
#define STRATA_DB_BUILDER_H_

#include <memory>
#include <string>

#include "db/file_metadata.h"
#include "env/file_writer.h"
#include "strata/env.h"
#include "strata/status.h"
#include "table/internal_iterator.h"
#include "table/table_builder.h"

namespace strata {

class ColumnFamilyData;
class TableCache;
class TableFactory;

struct BuildTableOptions {
  Env* env = nullptr;
  std::string dbname;
  const TableFactory* table_factory = nullptr;
  TableBuilderOptions builder_options;
  // Direct writes (use_direct_io_for_flush_and_compaction) and
  // bytes_per_sync.
  EnvOptions env_options;
  bool use_fsync = false;
  // Where the finished table is verified; null: not verified. Verified
  // means opened (footer, index, filter and properties read and checked),
  // and with paranoid_file_checks also read back entry by entry.
  TableCache* table_cache = nullptr;
  bool paranoid_file_checks = false;
  // Every write of the table waits for it (null: none) at io_priority:
  // IO_HIGH for a flush, IO_LOW for a compaction.
  RateLimiter* rate_limiter = nullptr;
  Env::IOPriority io_priority = Env::IO_HIGH;
};

// How cfd's flushes write their level-0 tables in the DB dbname (its
// table factory, L0's compression, its table cache to verify them, and
// the family recorded in the properties). A compaction changes the
// compression to its output level's.
BuildTableOptions TableOptionsFor(Env* env, const std::string& dbname,
                                  const ColumnFamilyData& cfd);

// One table file being written. Fills *meta (size, smallest/largest keys
// and sequences, counts) from what is added; meta->number names the file.
class TableFileBuilder {
 public:
  // options and meta must outlive the builder.
  TableFileBuilder(const BuildTableOptions& options, FileMetaData* meta);
  TableFileBuilder(const TableFileBuilder&) = delete;
  TableFileBuilder& operator=(const TableFileBuilder&) = delete;
  // Deletes the file unless Finish returned OK.
  ~TableFileBuilder();

  // Creates the file.
  Status Open();
  // A point entry. REQUIRES: opened; keys in increasing internal-key
  // order; status() OK.
  Status Add(const Slice& key, const Slice& value);
  // A range tombstone (key (begin, seq, kTypeRangeDeletion), value: end),
  // any order. meta's boundaries then cover it: smallest at most
  // (begin, seq), largest at least (end, kMaxSequenceNumber) — a
  // tombstone reaches up to end, so a read of any key it covers must
  // visit the file.
  Status AddTombstone(const Slice& key, const Slice& value);
  // Entries (points and tombstones) added.
  uint64_t NumEntries() const;
  // Bytes written so far.
  uint64_t FileSize() const;
  // Finishes, syncs, closes and verifies the file; on error deletes it.
  Status Finish();

 private:
  const BuildTableOptions& options_;
  FileMetaData* const meta_;
  const std::string fname_;
  std::unique_ptr<WritableFileWriter> writer_;
  std::unique_ptr<TableBuilder> builder_;
  uint64_t points_ = 0;
  bool finished_ = false;
};

// Fills meta (size, smallest/largest keys and sequences, counts) from what
// was written; meta->number names the file.
Status BuildTable(const BuildTableOptions& options, InternalIterator* iter,
                  FileMetaData* meta);

// As above, and also writes the range tombstones of range_del_iter (keys
// (begin, seq, kTypeRangeDeletion), values: end; any order; may be null)
// into the table's range-deletion block (TableFileBuilder::AddTombstone).
// A table of tombstones only is written too.
Status BuildTable(const BuildTableOptions& options, InternalIterator* iter,
                  InternalIterator* range_del_iter, FileMetaData* meta);

}  // namespace strata

#endif  // STRATA_DB_BUILDER_H_
