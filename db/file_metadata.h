// FileMetaData: what the DB knows about one table file — recorded in the
// MANIFEST by version edits (docs/formats/manifest.md) and kept in memory
// by the versions that contain the file.
//
// Thread safety: immutable once a version holds it, except refs (changed
// under the DB mutex) and being_compacted (read and written under it).

#ifndef STRATA_DB_FILE_METADATA_H_
#define STRATA_DB_FILE_METADATA_H_

#include <cstdint>

#include "db/dbformat.h"
#include "strata/types.h"

namespace strata {

struct FileMetaData {
  uint64_t number = 0;
  uint64_t file_size = 0;
  InternalKey smallest;  // smallest internal key in the table
  InternalKey largest;   // largest internal key in the table
  SequenceNumber smallest_seqno = kMaxSequenceNumber;
  SequenceNumber largest_seqno = 0;
  // Entries and deletions, for estimates (estimate-num-keys, compaction
  // scores); from the table's properties, not stored in the MANIFEST.
  uint64_t num_entries = 0;
  uint64_t num_deletions = 0;

  // Versions holding the file; the file is obsolete at 0.
  int refs = 0;
  // An input or output of a running compaction.
  bool being_compacted = false;

  // For a table being built: keys arrive in order, so the first is the
  // smallest and the latest the largest.
  void UpdateBoundaries(const Slice& internal_key, SequenceNumber seqno) {
    if (smallest.Encode().empty()) smallest.DecodeFrom(internal_key);
    largest.DecodeFrom(internal_key);
    if (seqno < smallest_seqno) smallest_seqno = seqno;
    if (seqno > largest_seqno) largest_seqno = seqno;
  }
};

}  // namespace strata

#endif  // STRATA_DB_FILE_METADATA_H_
