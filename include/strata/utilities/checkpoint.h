// Checkpoint: an openable copy of a live DB in another directory, taken
// while it serves reads and writes (docs/operations.md, "Checkpoints").
//
// Thread safety: a Checkpoint may be used by one thread at a time; several
// checkpoints of one DB may be taken at once.

#ifndef STRATA_INCLUDE_UTILITIES_CHECKPOINT_H_
#define STRATA_INCLUDE_UTILITIES_CHECKPOINT_H_

#include <cstdint>
#include <string>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

class DB;
class ColumnFamilyHandle;
struct ExportImportFilesMetaData;

class STRATA_EXPORT Checkpoint {
 public:
  // *checkpoint_ptr takes checkpoints of db, which must outlive it; the
  // caller deletes it.
  static Status Create(DB* db, Checkpoint** checkpoint_ptr);

  virtual ~Checkpoint() {}

  // Writes a copy of the DB into checkpoint_dir, which must not exist (its
  // parent must): table files are hard-linked where the file system
  // allows and copied otherwise; the MANIFEST, OPTIONS and the WALs'
  // needed part are copied. The copy holds exactly the writes up to one
  // sequence number, across every column family; *sequence_number_ptr (if
  // not null) is set to it. Every family is flushed first when the live
  // WALs hold log_size_for_flush bytes or more (0, the default: always),
  // so that the copy needs no WAL; writes made with disableWAL reach the
  // copy only through such a flush. A failure leaves no checkpoint_dir.
  virtual Status CreateCheckpoint(const std::string& checkpoint_dir,
                                  uint64_t log_size_for_flush = 0,
                                  uint64_t* sequence_number_ptr = nullptr);

  // Not supported by strata: NotSupported.
  virtual Status ExportColumnFamily(ColumnFamilyHandle* handle,
                                    const std::string& export_dir,
                                    ExportImportFilesMetaData** metadata);
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_CHECKPOINT_H_
