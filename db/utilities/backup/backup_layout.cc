#include "db/utilities/backup/backup_layout.h"

#include "util/logging.h"

namespace strata {
namespace backup {

std::string MetaFile(BackupID id) {
  return std::string(kMetaDir) + "/" + std::to_string(id);
}

std::string MetaTempFile(BackupID id) { return MetaFile(id) + kTempSuffix; }

std::string PrivateDir(BackupID id) {
  return std::string(kPrivateDir) + "/" + std::to_string(id);
}

std::string SharedTablePath(const std::string& db_name, uint32_t crc32c,
                            uint64_t size, bool with_checksum) {
  if (!with_checksum) return std::string(kSharedDir) + "/" + db_name;
  // "000012.sst" -> "000012_<crc32c>_<size>.sst"
  const size_t dot = db_name.rfind('.');
  return std::string(kSharedChecksumDir) + "/" + db_name.substr(0, dot) + "_" +
         std::to_string(crc32c) + "_" + std::to_string(size) +
         db_name.substr(dot);
}

bool ParseBackupId(const std::string& name, BackupID* id) {
  Slice in(name);
  uint64_t value;
  if (name.empty() || name[0] == '0' || !ConsumeDecimalNumber(&in, &value) ||
      !in.empty() || value > UINT32_MAX) {
    return false;
  }
  *id = static_cast<BackupID>(value);
  return true;
}

bool IsTempName(const std::string& name) {
  const size_t n = sizeof(kTempSuffix) - 1;
  return name.size() > n && name.compare(name.size() - n, n, kTempSuffix) == 0;
}

}  // namespace backup
}  // namespace strata
