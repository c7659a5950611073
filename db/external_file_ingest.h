// The parts of DB::IngestExternalFile that need no DB lock: reading and
// checking an external file, checking the files of one call against each
// other, bringing a file into the DB directory, and choosing its level
// (docs/operations.md, "Bulk ingestion"; DBImpl's side is
// db/db_impl_ingest.cc).
//
// Thread safety: plain functions; PickIngestLevel reads a version and the
// being_compacted marks, so it needs the DB mutex.

#ifndef STRATA_DB_EXTERNAL_FILE_INGEST_H_
#define STRATA_DB_EXTERNAL_FILE_INGEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "strata/options.h"
#include "strata/status.h"

namespace strata {

class Env;
class MemTable;
class Version;

// One file of an ingestion, from its check to its MANIFEST record.
struct IngestedFile {
  std::string external_path;  // the caller's file
  std::string internal_path;  // its name in the DB once brought in
  bool linked = false;        // internal_path is a hard link of it
  // Its user key range, range deletions included (their end is
  // exclusive, but the range is taken closed: conservative).
  std::string smallest_user_key;
  std::string largest_user_key;
  // file_size, counts, boundaries at sequence number 0 as written; the
  // number is set when it is brought in, the boundaries and sequence
  // numbers renumbered once the global sequence number is known
  // (SetIngestedBoundaries).
  FileMetaData meta;
  int level = 0;  // where it goes (PickIngestLevel)
};

// Reads external_path through (every block, checksums verified): it must
// be a table written by SstFileWriter for options' comparator, its point
// keys strictly increasing and all at sequence number 0. Fills *file but
// for the DB's parts (number, internal path, level).
Status ReadExternalFile(const Options& options,
                        const InternalKeyComparator& icmp,
                        const std::string& external_path, IngestedFile* file);

// InvalidArgument if two of files overlap (they are sorted by key on
// return).
Status CheckFilesApart(const Comparator* ucmp,
                       std::vector<IngestedFile>* files);

// Whether mem holds a key or range deletion in [smallest, largest].
bool MemTableOverlaps(MemTable* mem, const InternalKeyComparator& icmp,
                      const Slice& smallest, const Slice& largest);

// Brings file->external_path into the DB as table file number (a hard
// link with move_files, else or when the link fails a synced copy).
Status BringIntoDB(Env* env, const std::string& dbname,
                   const IngestExternalFileOptions& options, uint64_t number,
                   IngestedFile* file);

// The level for a file of [smallest, largest] in version: the deepest
// level it overlaps nothing at and above, which no running compaction
// could write into that range; *overlaps is set if some level's files
// meet the range (the file must then read as newer than them).
// REQUIRES: the DB mutex.
int PickIngestLevel(const Version* version, const Slice& smallest,
                    const Slice& largest, bool* overlaps);

// Sets file->meta's boundaries and sequence numbers for global_seqno.
void SetIngestedBoundaries(SequenceNumber global_seqno, IngestedFile* file);

}  // namespace strata

#endif  // STRATA_DB_EXTERNAL_FILE_INGEST_H_
