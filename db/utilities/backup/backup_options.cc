// BackupEngineOptions::Dump and BackupStatistics.

#include <cinttypes>

#include "strata/env.h"
#include "strata/utilities/backup_engine.h"

namespace strata {

void BackupEngineOptions::Dump(Logger* logger) const {
  auto yes_no = [](bool b) { return b ? "true" : "false"; };
  Log(logger, "               Options.backup_dir: %s", backup_dir.c_str());
  Log(logger, "               Options.backup_env: %p",
      static_cast<void*>(backup_env));
  Log(logger, "        Options.share_table_files: %s",
      yes_no(share_table_files));
  Log(logger, "                 Options.info_log: %p",
      static_cast<void*>(info_log));
  Log(logger, "                     Options.sync: %s", yes_no(sync));
  Log(logger, "         Options.destroy_old_data: %s",
      yes_no(destroy_old_data));
  Log(logger, "         Options.backup_log_files: %s",
      yes_no(backup_log_files));
  Log(logger, "        Options.backup_rate_limit: %" PRIu64, backup_rate_limit);
  Log(logger, "       Options.restore_rate_limit: %" PRIu64,
      restore_rate_limit);
  Log(logger, "Options.max_background_operations: %d",
      max_background_operations);
  Log(logger, "Options.share_files_with_checksum: %s",
      yes_no(share_files_with_checksum));
  Log(logger, "Options.max_valid_backups_to_open: %d",
      max_valid_backups_to_open);
}

void BackupStatistics::IncrementNumberSuccessBackup() {
  number_success_backup++;
}

void BackupStatistics::IncrementNumberFailBackup() { number_fail_backup++; }

uint32_t BackupStatistics::GetNumberSuccessBackup() const {
  return number_success_backup;
}

uint32_t BackupStatistics::GetNumberFailBackup() const {
  return number_fail_backup;
}

std::string BackupStatistics::ToString() const {
  return "# success backup: " + std::to_string(number_success_backup) +
         ", # fail backup: " + std::to_string(number_fail_backup);
}

}  // namespace strata
