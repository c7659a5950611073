// LevelIterator: one iterator over all the files of a sorted level (level
// 1 and up: files sorted by key, not overlapping), opening each file
// through the TableCache only when the walk reaches it. A level of many
// files costs one open table at a time instead of one per file.
//
// Seeks binary-search the file list by largest key; Next/Prev move into
// the neighbouring file when one is exhausted. An error in a file stops
// the walk there (status() reports it) rather than skipping the file.
// SetSeekConfinedToPrefix is passed to the open file's iterator and to
// every one opened later; while confined, a seek that the target file's
// prefix filter turns away leaves the whole level empty (no key of the
// prefix can be in a later file), without opening more files.
//
// Thread safety: one thread at a time, as any iterator. Lifetime: files
// and the FileMetaData they point to must outlive the iterator — the
// caller holds a ref on the Version they belong to.

#ifndef STRATA_DB_LEVEL_ITERATOR_H_
#define STRATA_DB_LEVEL_ITERATOR_H_

#include <vector>

#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "env/file_reader.h"
#include "strata/options.h"
#include "table/internal_iterator.h"

namespace strata {

class TableCache;

// With scan (a compaction's inputs), each file is read as
// TableCache::NewIterator reads a scan. files, and scan if not null, must
// outlive the iterator.
InternalIterator* NewLevelIterator(const ReadOptions& read_options,
                                   TableCache* table_cache,
                                   const InternalKeyComparator* icmp,
                                   const std::vector<FileMetaData*>* files,
                                   const FileScanOptions* scan = nullptr);

}  // namespace strata

#endif  // STRATA_DB_LEVEL_ITERATOR_H_
