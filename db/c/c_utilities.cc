// The C API's calls for operating a DB: read-only instances,
// checkpoints and backups (include/strata/c_utilities.h).

#include "db/c/c_internal.h"
#include "strata/utilities/backup_engine.h"
#include "strata/utilities/checkpoint.h"

using strata::c_api::SaveError;

struct strata_checkpoint_t {
  strata::Checkpoint* rep;
};

struct strata_backup_engine_t {
  strata::BackupEngine* rep;
};

struct strata_backup_engine_info_t {
  std::vector<strata::BackupInfo> rep;
};

struct strata_backup_engine_options_t {
  strata::BackupEngineOptions rep;
};

struct strata_restore_options_t {
  strata::RestoreOptions rep;
};

namespace {

strata_backup_engine_t* OpenBackupEngine(
    const strata::BackupEngineOptions& options, strata::Env* env,
    char** errptr) {
  strata::BackupEngine* engine = nullptr;
  if (SaveError(errptr, strata::BackupEngine::Open(options, env, &engine))) {
    return nullptr;
  }
  return new strata_backup_engine_t{engine};
}

void CreateBackup(strata_backup_engine_t* be, strata_t* db, bool flush,
                  char** errptr) {
  strata::CreateBackupOptions options;
  options.flush_before_backup = flush;
  SaveError(errptr, be->rep->CreateNewBackup(options, db->rep));
}

// wal_dir may be NULL (the DB directory).
std::string WalDir(const char* wal_dir) {
  return wal_dir == nullptr ? std::string() : std::string(wal_dir);
}

}  // namespace

extern "C" {

strata_t* strata_open_for_read_only(const strata_options_t* options,
                                    const char* name,
                                    unsigned char error_if_wal_file_exists,
                                    char** errptr) {
  strata::DB* db = nullptr;
  if (SaveError(errptr,
                strata::DB::OpenForReadOnly(options->rep, name, &db,
                                            error_if_wal_file_exists != 0))) {
    return nullptr;
  }
  return new strata_t{db};
}

strata_t* strata_open_for_read_only_column_families(
    const strata_options_t* options, const char* name, int num_column_families,
    const char* const* column_family_names,
    const strata_options_t* const* column_family_options,
    strata_column_family_handle_t** column_family_handles,
    unsigned char error_if_wal_file_exists, char** errptr) {
  return strata::c_api::OpenWithFamilies(
      options, num_column_families, column_family_names, column_family_options,
      column_family_handles, errptr,
      [name, error_if_wal_file_exists](
          const strata::DBOptions& db_options,
          const std::vector<strata::ColumnFamilyDescriptor>& families,
          std::vector<strata::ColumnFamilyHandle*>* handles, strata::DB** db) {
        return strata::DB::OpenForReadOnly(db_options, name, families, handles,
                                           db, error_if_wal_file_exists != 0);
      });
}

strata_checkpoint_t* strata_checkpoint_object_create(strata_t* db,
                                                     char** errptr) {
  strata::Checkpoint* checkpoint = nullptr;
  if (SaveError(errptr, strata::Checkpoint::Create(db->rep, &checkpoint))) {
    return nullptr;
  }
  return new strata_checkpoint_t{checkpoint};
}

void strata_checkpoint_create(strata_checkpoint_t* checkpoint,
                              const char* checkpoint_dir,
                              uint64_t log_size_for_flush, char** errptr) {
  SaveError(errptr, checkpoint->rep->CreateCheckpoint(checkpoint_dir,
                                                      log_size_for_flush));
}

void strata_checkpoint_object_destroy(strata_checkpoint_t* checkpoint) {
  if (checkpoint == nullptr) return;
  delete checkpoint->rep;
  delete checkpoint;
}

strata_backup_engine_t* strata_backup_engine_open(
    const strata_options_t* options, const char* path, char** errptr) {
  strata::BackupEngineOptions engine_options(path, nullptr, true,
                                             options->rep.info_log.get());
  return OpenBackupEngine(engine_options, options->rep.env, errptr);
}

strata_backup_engine_t* strata_backup_engine_open_opts(
    const strata_backup_engine_options_t* options, strata_env_t* env,
    char** errptr) {
  return OpenBackupEngine(options->rep, env->rep, errptr);
}

void strata_backup_engine_create_new_backup(strata_backup_engine_t* be,
                                            strata_t* db, char** errptr) {
  CreateBackup(be, db, /*flush=*/false, errptr);
}

void strata_backup_engine_create_new_backup_flush(
    strata_backup_engine_t* be, strata_t* db, unsigned char flush_before_backup,
    char** errptr) {
  CreateBackup(be, db, flush_before_backup != 0, errptr);
}

void strata_backup_engine_purge_old_backups(strata_backup_engine_t* be,
                                            uint32_t num_backups_to_keep,
                                            char** errptr) {
  SaveError(errptr, be->rep->PurgeOldBackups(num_backups_to_keep));
}

void strata_backup_engine_verify_backup(strata_backup_engine_t* be,
                                        uint32_t backup_id, char** errptr) {
  SaveError(errptr, be->rep->VerifyBackup(backup_id));
}

void strata_backup_engine_restore_db_from_latest_backup(
    strata_backup_engine_t* be, const char* db_dir, const char* wal_dir,
    const strata_restore_options_t* restore_options, char** errptr) {
  SaveError(errptr, be->rep->RestoreDBFromLatestBackup(
                        restore_options->rep, db_dir, WalDir(wal_dir)));
}

void strata_backup_engine_restore_db_from_backup(
    strata_backup_engine_t* be, const char* db_dir, const char* wal_dir,
    const strata_restore_options_t* restore_options, const uint32_t backup_id,
    char** errptr) {
  SaveError(errptr,
            be->rep->RestoreDBFromBackup(restore_options->rep, backup_id,
                                         db_dir, WalDir(wal_dir)));
}

const strata_backup_engine_info_t* strata_backup_engine_get_backup_info(
    strata_backup_engine_t* be) {
  auto* info = new strata_backup_engine_info_t;
  be->rep->GetBackupInfo(&info->rep);
  return info;
}

int strata_backup_engine_info_count(const strata_backup_engine_info_t* info) {
  return static_cast<int>(info->rep.size());
}

int64_t strata_backup_engine_info_timestamp(
    const strata_backup_engine_info_t* info, int index) {
  return info->rep[index].timestamp;
}

uint32_t strata_backup_engine_info_backup_id(
    const strata_backup_engine_info_t* info, int index) {
  return info->rep[index].backup_id;
}

uint64_t strata_backup_engine_info_size(const strata_backup_engine_info_t* info,
                                        int index) {
  return info->rep[index].size;
}

uint32_t strata_backup_engine_info_number_files(
    const strata_backup_engine_info_t* info, int index) {
  return info->rep[index].number_files;
}

void strata_backup_engine_info_destroy(
    const strata_backup_engine_info_t* info) {
  delete info;
}

void strata_backup_engine_close(strata_backup_engine_t* be) {
  if (be == nullptr) return;
  delete be->rep;
  delete be;
}

strata_restore_options_t* strata_restore_options_create(void) {
  return new strata_restore_options_t;
}

void strata_restore_options_destroy(strata_restore_options_t* opt) {
  delete opt;
}

void strata_restore_options_set_keep_log_files(strata_restore_options_t* opt,
                                               int v) {
  opt->rep.keep_log_files = v != 0;
}

strata_backup_engine_options_t* strata_backup_engine_options_create(
    const char* backup_dir) {
  return new strata_backup_engine_options_t{
      strata::BackupEngineOptions(backup_dir)};
}

void strata_backup_engine_options_set_backup_dir(
    strata_backup_engine_options_t* options, const char* backup_dir) {
  options->rep.backup_dir = backup_dir;
}

void strata_backup_engine_options_set_env(
    strata_backup_engine_options_t* options, strata_env_t* env) {
  options->rep.backup_env = env == nullptr ? nullptr : env->rep;
}

STRATA_C_FIELD(backup_engine_options, share_table_files, share_table_files,
               unsigned char, unsigned char)
STRATA_C_FIELD(backup_engine_options, sync, sync, unsigned char, unsigned char)
STRATA_C_FIELD(backup_engine_options, destroy_old_data, destroy_old_data,
               unsigned char, unsigned char)
STRATA_C_FIELD(backup_engine_options, backup_log_files, backup_log_files,
               unsigned char, unsigned char)
STRATA_C_FIELD(backup_engine_options, backup_rate_limit, backup_rate_limit,
               uint64_t, uint64_t)
STRATA_C_FIELD(backup_engine_options, restore_rate_limit, restore_rate_limit,
               uint64_t, uint64_t)
STRATA_C_FIELD(backup_engine_options, max_background_operations,
               max_background_operations, int, int)
STRATA_C_FIELD(backup_engine_options, callback_trigger_interval_size,
               callback_trigger_interval_size, uint64_t, uint64_t)
STRATA_C_FIELD(backup_engine_options, max_valid_backups_to_open,
               max_valid_backups_to_open, int, int)
STRATA_C_FIELD(backup_engine_options, share_files_with_checksum_naming,
               share_files_with_checksum_naming, int, int)

void strata_backup_engine_options_destroy(
    strata_backup_engine_options_t* options) {
  delete options;
}

}  // extern "C"
