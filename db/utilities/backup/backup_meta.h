// A backup's metadata file, meta/<id> in the backup directory: what the
// backup holds and where each file restores to. The text format is
// defined in docs/formats/backup.md; a backup exists once this file does.
//
// Thread safety: plain values and pure functions.

#ifndef STRATA_DB_UTILITIES_BACKUP_BACKUP_META_H_
#define STRATA_DB_UTILITIES_BACKUP_BACKUP_META_H_

#include <cstdint>
#include <string>
#include <vector>

#include "strata/slice.h"
#include "strata/status.h"
#include "strata/types.h"
#include "strata/utilities/backup_engine.h"

namespace strata {
namespace backup {

// One file of a backup.
struct BackupFile {
  // Where it is, relative to the backup directory: shared/<name>,
  // shared_checksum/<name> or private/<id>/<name>.
  std::string stored;
  // Its name in the DB directory (a name of db/filename.h's layout).
  std::string db_name;
  uint64_t size = 0;
  uint32_t crc32c = 0;
};

struct BackupMeta {
  BackupID id = 0;
  int64_t timestamp = 0;  // seconds since the Unix epoch
  // The last write the backup holds.
  SequenceNumber sequence = 0;
  std::string app_metadata;
  // CURRENT, if present, is the last.
  std::vector<BackupFile> files;

  uint64_t TotalSize() const;
};

// Whether name is a DB file a backup holds: a table, WAL, MANIFEST,
// OPTIONS file or CURRENT, named without a directory.
bool IsRestorableName(const std::string& name);

// The metadata file's contents.
std::string EncodeBackupMeta(const BackupMeta& meta);

// Parses the contents of the metadata file path (which is named in
// errors, with the line at fault); the id it records must be id.
// Corruption for anything that is not a well-formed file of the format.
Status DecodeBackupMeta(const std::string& path, BackupID id,
                        const Slice& contents, BackupMeta* meta);

}  // namespace backup
}  // namespace strata

#endif  // STRATA_DB_UTILITIES_BACKUP_BACKUP_META_H_
