// BuildTable: writes the entries of an internal iterator (a memtable being
// flushed) as table file meta->number, the way flush does.
//
// The table is complete and durable when BuildTable returns OK: built,
// synced, closed, then opened again through the table cache and read back
// (every entry), so a table that could not be read is never installed.
// On any error the file is deleted and the error returned; an input with
// no entries writes no file (meta->file_size stays 0) and returns OK.
//
// Thread safety: runs on one thread (a background job); the iterator is
// that thread's.

#ifndef STRATA_DB_BUILDER_H_
#define STRATA_DB_BUILDER_H_

#include <string>

#include "db/file_metadata.h"
#include "strata/env.h"
#include "strata/export.h"
#include "strata/status.h"
#include "table/internal_iterator.h"
#include "table/table_builder.h"

namespace strata {

class TableCache;
class TableFactory;

struct STRATA_EXPORT BuildTableOptions {
  Env* env = nullptr;
  std::string dbname;
  const TableFactory* table_factory = nullptr;
  TableBuilderOptions builder_options;
  // Direct writes (use_direct_io_for_flush_and_compaction), fallocate,
  // bytes_per_sync.
  EnvOptions env_options;
  bool use_fsync = false;
  // Where the finished table is verified; null: not verified.
  TableCache* table_cache = nullptr;
};

// Fills meta (size, smallest/largest keys and sequences, counts) from what
// was written; meta->number names the file.
STRATA_EXPORT Status BuildTable(const BuildTableOptions& options,
                                InternalIterator* iter, FileMetaData* meta);

// As above, and also writes the range tombstones of range_del_iter (keys
// (begin, seq, kTypeRangeDeletion), values: end; any order; may be null)
// into the table's range-deletion block. meta's boundaries then cover
// every tombstone: smallest at most (begin, seq), largest at least
// (end, kMaxSequenceNumber) — a tombstone reaches up to end, so a read of
// any key it covers must visit the file. A table of tombstones only is
// written too.
STRATA_EXPORT Status BuildTable(const BuildTableOptions& options,
                                InternalIterator* iter,
                                InternalIterator* range_del_iter,
                                FileMetaData* meta);

}  // namespace strata

#endif  // STRATA_DB_BUILDER_H_
