/* strata's C API, continued: operating a DB — read-only instances,
   checkpoints, backups and the OPTIONS file (RocksDB 7.8's
   rocksdb_open_for_read_only*, rocksdb_checkpoint_*,
   rocksdb_backup_engine_*, rocksdb_restore_* and
   rocksdb_load_latest_options* calls, with the strata_ prefix).
   strata/c.h includes this header; include that one. The
   conventions are c.h's. */

#ifndef STRATA_INCLUDE_C_UTILITIES_H_
#define STRATA_INCLUDE_C_UTILITIES_H_

#include "strata/c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_checkpoint_t strata_checkpoint_t;
typedef struct strata_backup_engine_t strata_backup_engine_t;
typedef struct strata_backup_engine_info_t strata_backup_engine_info_t;
typedef struct strata_backup_engine_options_t strata_backup_engine_options_t;
typedef struct strata_restore_options_t strata_restore_options_t;

/* ---- Read-only instances (DB::OpenForReadOnly) ---- */

/* The DB as its files hold it; every write is an error. With
   error_if_wal_file_exists, a DB whose WALs hold writes not in tables is
   an error. */
STRATA_EXPORT strata_t* strata_open_for_read_only(
    const strata_options_t* options, const char* name,
    unsigned char error_if_wal_file_exists, char** errptr);
/* Some of the DB's families (the default one among them), as
   strata_open_column_families. */
STRATA_EXPORT strata_t* strata_open_for_read_only_column_families(
    const strata_options_t* options, const char* name, int num_column_families,
    const char* const* column_family_names,
    const strata_options_t* const* column_family_options,
    strata_column_family_handle_t** column_family_handles,
    unsigned char error_if_wal_file_exists, char** errptr);

/* ---- Checkpoints (strata/utilities/checkpoint.h) ---- */

/* Takes checkpoints of db, which must outlive it; freed with
   strata_checkpoint_object_destroy. */
STRATA_EXPORT strata_checkpoint_t* strata_checkpoint_object_create(
    strata_t* db, char** errptr);
/* Writes an openable copy of the DB into checkpoint_dir, which must not
   exist; every family is flushed first when the live WALs hold
   log_size_for_flush bytes or more (0: always). */
STRATA_EXPORT void strata_checkpoint_create(strata_checkpoint_t* checkpoint,
                                            const char* checkpoint_dir,
                                            uint64_t log_size_for_flush,
                                            char** errptr);
STRATA_EXPORT void strata_checkpoint_object_destroy(
    strata_checkpoint_t* checkpoint);

/* ---- Backups (strata/utilities/backup_engine.h) ---- */

/* A backup engine on the directory path (created if missing), reading
   DBs through options' Env; freed with strata_backup_engine_close. */
STRATA_EXPORT strata_backup_engine_t* strata_backup_engine_open(
    const strata_options_t* options, const char* path, char** errptr);
/* The same with every option given; env (not NULL) is the DBs' Env. */
STRATA_EXPORT strata_backup_engine_t* strata_backup_engine_open_opts(
    const strata_backup_engine_options_t* options, strata_env_t* env,
    char** errptr);
/* A new backup of db, from its WALs (no flush). */
STRATA_EXPORT void strata_backup_engine_create_new_backup(
    strata_backup_engine_t* be, strata_t* db, char** errptr);
/* A new backup of db, every family flushed first if flush_before_backup. */
STRATA_EXPORT void strata_backup_engine_create_new_backup_flush(
    strata_backup_engine_t* be, strata_t* db, unsigned char flush_before_backup,
    char** errptr);
/* Deletes all but the num_backups_to_keep newest backups. */
STRATA_EXPORT void strata_backup_engine_purge_old_backups(
    strata_backup_engine_t* be, uint32_t num_backups_to_keep, char** errptr);
/* Checks that every file of backup_id is there with its size. */
STRATA_EXPORT void strata_backup_engine_verify_backup(
    strata_backup_engine_t* be, uint32_t backup_id, char** errptr);
/* Restores the newest good backup, or backup_id, into db_dir; wal_dir
   must be db_dir (or empty). */
STRATA_EXPORT void strata_backup_engine_restore_db_from_latest_backup(
    strata_backup_engine_t* be, const char* db_dir, const char* wal_dir,
    const strata_restore_options_t* restore_options, char** errptr);
STRATA_EXPORT void strata_backup_engine_restore_db_from_backup(
    strata_backup_engine_t* be, const char* db_dir, const char* wal_dir,
    const strata_restore_options_t* restore_options, const uint32_t backup_id,
    char** errptr);
/* The good backups, oldest first; freed with
   strata_backup_engine_info_destroy. Indexes run from 0 to count - 1. */
STRATA_EXPORT const strata_backup_engine_info_t*
strata_backup_engine_get_backup_info(strata_backup_engine_t* be);
STRATA_EXPORT int strata_backup_engine_info_count(
    const strata_backup_engine_info_t* info);
STRATA_EXPORT int64_t strata_backup_engine_info_timestamp(
    const strata_backup_engine_info_t* info, int index);
STRATA_EXPORT uint32_t strata_backup_engine_info_backup_id(
    const strata_backup_engine_info_t* info, int index);
STRATA_EXPORT uint64_t strata_backup_engine_info_size(
    const strata_backup_engine_info_t* info, int index);
STRATA_EXPORT uint32_t strata_backup_engine_info_number_files(
    const strata_backup_engine_info_t* info, int index);
STRATA_EXPORT void strata_backup_engine_info_destroy(
    const strata_backup_engine_info_t* info);
STRATA_EXPORT void strata_backup_engine_close(strata_backup_engine_t* be);

/* RestoreOptions: keep_log_files (default 0). */
STRATA_EXPORT strata_restore_options_t* strata_restore_options_create(void);
STRATA_EXPORT void strata_restore_options_destroy(
    strata_restore_options_t* opt);
STRATA_EXPORT void strata_restore_options_set_keep_log_files(
    strata_restore_options_t* opt, int v);

/* BackupEngineOptions, with BackupEngineOptions' defaults. The Env set is
   the backup directory's (NULL: the DBs'); it must outlive the engine. */
STRATA_EXPORT strata_backup_engine_options_t*
strata_backup_engine_options_create(const char* backup_dir);
STRATA_EXPORT void strata_backup_engine_options_set_backup_dir(
    strata_backup_engine_options_t* options, const char* backup_dir);
STRATA_EXPORT void strata_backup_engine_options_set_env(
    strata_backup_engine_options_t* options, strata_env_t* env);
STRATA_EXPORT void strata_backup_engine_options_set_share_table_files(
    strata_backup_engine_options_t* options, unsigned char val);
STRATA_EXPORT unsigned char strata_backup_engine_options_get_share_table_files(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void strata_backup_engine_options_set_sync(
    strata_backup_engine_options_t* options, unsigned char val);
STRATA_EXPORT unsigned char strata_backup_engine_options_get_sync(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void strata_backup_engine_options_set_destroy_old_data(
    strata_backup_engine_options_t* options, unsigned char val);
STRATA_EXPORT unsigned char strata_backup_engine_options_get_destroy_old_data(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void strata_backup_engine_options_set_backup_log_files(
    strata_backup_engine_options_t* options, unsigned char val);
STRATA_EXPORT unsigned char strata_backup_engine_options_get_backup_log_files(
    strata_backup_engine_options_t* options);
/* Kept, not honoured (as BackupEngineOptions' fields). */
STRATA_EXPORT void strata_backup_engine_options_set_backup_rate_limit(
    strata_backup_engine_options_t* options, uint64_t limit);
STRATA_EXPORT uint64_t strata_backup_engine_options_get_backup_rate_limit(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void strata_backup_engine_options_set_restore_rate_limit(
    strata_backup_engine_options_t* options, uint64_t limit);
STRATA_EXPORT uint64_t strata_backup_engine_options_get_restore_rate_limit(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void strata_backup_engine_options_set_max_background_operations(
    strata_backup_engine_options_t* options, int val);
STRATA_EXPORT int strata_backup_engine_options_get_max_background_operations(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void
strata_backup_engine_options_set_callback_trigger_interval_size(
    strata_backup_engine_options_t* options, uint64_t size);
STRATA_EXPORT uint64_t
strata_backup_engine_options_get_callback_trigger_interval_size(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void strata_backup_engine_options_set_max_valid_backups_to_open(
    strata_backup_engine_options_t* options, int val);
STRATA_EXPORT int strata_backup_engine_options_get_max_valid_backups_to_open(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void
strata_backup_engine_options_set_share_files_with_checksum_naming(
    strata_backup_engine_options_t* options, int val);
STRATA_EXPORT int
strata_backup_engine_options_get_share_files_with_checksum_naming(
    strata_backup_engine_options_t* options);
STRATA_EXPORT void strata_backup_engine_options_destroy(
    strata_backup_engine_options_t* options);

/* ---- The OPTIONS file (strata/utilities/options_util.h) ---- */

/* The options of the newest OPTIONS file in db_path (env NULL: the
   default Env; cache, if not NULL, the block cache of every family's
   tables): *db_options the DB's, and per family its name and options
   (each holding the DB's options too). Free all with
   strata_load_latest_options_destroy. On error *errptr is set and the
   outputs are NULL. (RocksDB's ignore_unknown_options is a bool; an
   unsigned char keeps this header C89.) */
STRATA_EXPORT void strata_load_latest_options(
    const char* db_path, strata_env_t* env,
    unsigned char ignore_unknown_options, strata_cache_t* cache,
    strata_options_t** db_options, size_t* num_column_families,
    char*** column_family_names, strata_options_t*** column_family_options,
    char** errptr);
STRATA_EXPORT void strata_load_latest_options_destroy(
    strata_options_t* db_options, char** list_column_family_names,
    strata_options_t** list_column_family_options, size_t len);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STRATA_INCLUDE_C_UTILITIES_H_ */
