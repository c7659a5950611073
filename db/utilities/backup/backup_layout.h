// The backup directory's layout (docs/formats/backup.md):
//
//   meta/<id>                  backup <id>'s metadata (backup_meta.h);
//                              the backup exists once this file does
//   meta/<id>.tmp              metadata being written
//   private/<id>/<name>        the backup's own files: MANIFEST, CURRENT,
//                              OPTIONS, WALs (and its tables when they
//                              are not shared)
//   shared/<number>.sst        a table shared between backups by name
//   shared_checksum/<number>_<crc32c>_<size>.sst
//                              a table shared by name, crc32c and size
//   shared*/<name>.tmp         a shared table being copied
//
// Paths here are relative to the backup directory, '/'-separated.

#ifndef STRATA_DB_UTILITIES_BACKUP_BACKUP_LAYOUT_H_
#define STRATA_DB_UTILITIES_BACKUP_BACKUP_LAYOUT_H_

#include <cstdint>
#include <string>

#include "strata/utilities/backup_engine.h"

namespace strata {

namespace backup {

constexpr char kMetaDir[] = "meta";
constexpr char kPrivateDir[] = "private";
constexpr char kSharedDir[] = "shared";
constexpr char kSharedChecksumDir[] = "shared_checksum";
constexpr char kTempSuffix[] = ".tmp";

std::string MetaFile(BackupID id);
std::string MetaTempFile(BackupID id);
std::string PrivateDir(BackupID id);

// Where table db_name (as "000012.sst") of size bytes and checksum crc32c
// is shared: in shared_checksum/ with with_checksum, else in shared/.
std::string SharedTablePath(const std::string& db_name, uint32_t crc32c,
                            uint64_t size, bool with_checksum);

// A backup id written as a name in meta/ or private/: decimal digits, 1
// to 2^32-1.
bool ParseBackupId(const std::string& name, BackupID* id);

// A file being written that no backup holds yet.
bool IsTempName(const std::string& name);

}  // namespace backup
}  // namespace strata

#endif  // STRATA_DB_UTILITIES_BACKUP_BACKUP_LAYOUT_H_
