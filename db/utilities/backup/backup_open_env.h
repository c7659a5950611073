// The Env of BackupInfo::env_for_open: under it a backup opens in place
// as a read-only DB. Its DB directory is the backup's private directory,
// which under this Env also holds the backup's shared tables, by their
// names in the DB.
//
// Thread safety: as the Env it wraps; the name map is fixed at creation.

#ifndef STRATA_DB_UTILITIES_BACKUP_BACKUP_OPEN_ENV_H_
#define STRATA_DB_UTILITIES_BACKUP_BACKUP_OPEN_ENV_H_

#include <map>
#include <memory>
#include <string>

namespace strata {

class Env;

namespace backup {

// An Env over backup_env (which must outlive it) in which dir/<name> is
// tables[name] (a path in backup_env) for each name of tables.
std::shared_ptr<Env> NewBackupOpenEnv(
    Env* backup_env, const std::string& dir,
    const std::map<std::string, std::string>& tables);

}  // namespace backup
}  // namespace strata

#endif  // STRATA_DB_UTILITIES_BACKUP_BACKUP_OPEN_ENV_H_
