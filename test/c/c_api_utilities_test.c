/* Operating a DB from C. Checkpoints: the copy opens with the flushed and
   the unflushed writes made before it and none made after; an existing
   directory is refused. Read-only instances: they read tables and WALs,
   refuse writes, and honour error_if_wal_file_exists. Backups: the
   options' defaults and setters, two backups listed, verified, restored
   (by id and the newest) with their own data, a restore onto the open DB
   refused, and purging. */

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "test/c/c_api_test.h"

void TestCheckpoint(void) {
  strata_options_t* options = strata_options_create();
  char* err = NULL;
  char copy_name[1100];
  strata_t* db;
  strata_t* copy;
  strata_checkpoint_t* checkpoint;

  MakeDbName("checkpoint");
  snprintf(copy_name, sizeof(copy_name), "%s-copy", db_name);
  Destroy(options);
  strata_destroy_db(options, copy_name, &err);
  CHECK_NO_ERROR(err);

  strata_options_set_create_if_missing(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "flushed", 7, "1", 1, &err);
  CHECK_NO_ERROR(err);
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "in-wal", 6, "2", 1, &err);
  CHECK_NO_ERROR(err);

  checkpoint = strata_checkpoint_object_create(db, &err);
  CHECK_NO_ERROR(err);
  CHECK(checkpoint != NULL);
  /* No flush: the unflushed write reaches the copy through the WAL. */
  strata_checkpoint_create(checkpoint, copy_name, (uint64_t)-1, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "later", 5, "3", 1, &err);
  CHECK_NO_ERROR(err);

  /* The directory exists now. */
  strata_checkpoint_create(checkpoint, copy_name, 0, &err);
  CHECK(err != NULL);
  CHECK(strstr(err, "exists") != NULL);
  strata_free(err);
  err = NULL;
  strata_checkpoint_object_destroy(checkpoint);

  strata_options_set_create_if_missing(options, 0);
  copy = strata_open(options, copy_name, &err);
  CHECK_NO_ERROR(err);
  CheckGet(copy, ro, "flushed", "1");
  CheckGet(copy, ro, "in-wal", "2");
  CheckGet(copy, ro, "later", NULL);
  strata_close(copy);
  strata_close(db);

  strata_destroy_db(options, copy_name, &err);
  CHECK_NO_ERROR(err);
  Destroy(options);
  strata_options_destroy(options);
}

void TestReadOnly(void) {
  strata_options_t* options = strata_options_create();
  char* err = NULL;
  strata_t* db;
  strata_t* reader;
  const char* names[2] = {"default", "cf1"};
  const strata_options_t* family_options[2];
  strata_column_family_handle_t* handles[2];

  MakeDbName("read_only");
  Destroy(options);
  /* No DB: an error, and nothing is created. */
  reader = strata_open_for_read_only(options, db_name, 0, &err);
  CHECK(reader == NULL);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;

  strata_options_set_create_if_missing(options, 1);
  strata_options_set_create_missing_column_families(options, 1);
  family_options[0] = options;
  family_options[1] = options;
  db = strata_open_column_families(options, db_name, 2, names, family_options,
                                   handles, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "k", 1, "v", 1, &err);
  CHECK_NO_ERROR(err);
  strata_put_cf(db, wo, handles[1], "c", 1, "1", 1, &err);
  CHECK_NO_ERROR(err);
  strata_column_family_handle_destroy(handles[0]);
  strata_column_family_handle_destroy(handles[1]);
  strata_close(db);

  /* The writes are in the WAL only. */
  reader = strata_open_for_read_only_column_families(
      options, db_name, 2, names, family_options, handles, 1, &err);
  CHECK(reader == NULL);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;

  reader = strata_open_for_read_only_column_families(
      options, db_name, 2, names, family_options, handles, 0, &err);
  CHECK_NO_ERROR(err);
  CheckGet(reader, ro, "k", "v");
  CheckGetCf(reader, ro, handles[1], "c", "1");
  strata_put(reader, wo, "k2", 2, "v", 1, &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  CheckGet(reader, ro, "k2", NULL);
  strata_column_family_handle_destroy(handles[0]);
  strata_column_family_handle_destroy(handles[1]);
  strata_close(reader);

  /* The default family alone. */
  reader = strata_open_for_read_only(options, db_name, 0, &err);
  CHECK_NO_ERROR(err);
  CheckGet(reader, ro, "k", "v");
  strata_close(reader);

  Destroy(options);
  strata_options_destroy(options);
}

/* Expects an error whose message contains part, and clears it. */
static void ExpectError(char** err, const char* part) {
  CHECK(*err != NULL);
  if (strstr(*err, part) == NULL) {
    fprintf(stderr, "error \"%s\" does not mention \"%s\"\n", *err, part);
    abort();
  }
  strata_free(*err);
  *err = NULL;
}

static strata_backup_engine_options_t* BackupOptions(const char* dir) {
  strata_backup_engine_options_t* opts =
      strata_backup_engine_options_create(dir);
  CHECK(strata_backup_engine_options_get_share_table_files(opts) == 1);
  CHECK(strata_backup_engine_options_get_sync(opts) == 1);
  CHECK(strata_backup_engine_options_get_destroy_old_data(opts) == 0);
  CHECK(strata_backup_engine_options_get_backup_log_files(opts) == 1);
  CHECK(strata_backup_engine_options_get_backup_rate_limit(opts) == 0);
  CHECK(strata_backup_engine_options_get_restore_rate_limit(opts) == 0);
  CHECK(strata_backup_engine_options_get_max_background_operations(opts) == 1);
  CHECK(strata_backup_engine_options_get_callback_trigger_interval_size(opts) ==
        4 * 1024 * 1024);
  CHECK(strata_backup_engine_options_get_max_valid_backups_to_open(opts) ==
        INT_MAX);
  strata_backup_engine_options_set_share_table_files(opts, 0);
  CHECK(strata_backup_engine_options_get_share_table_files(opts) == 0);
  strata_backup_engine_options_set_share_table_files(opts, 1);
  /* Honoured: rates that never make the backups below wait. */
  strata_backup_engine_options_set_backup_rate_limit(opts, 1u << 30);
  CHECK(strata_backup_engine_options_get_backup_rate_limit(opts) == 1u << 30);
  strata_backup_engine_options_set_restore_rate_limit(opts, (1u << 30) + 1);
  CHECK(strata_backup_engine_options_get_restore_rate_limit(opts) ==
        (1u << 30) + 1);
  strata_backup_engine_options_set_max_background_operations(opts, 2);
  CHECK(strata_backup_engine_options_get_max_background_operations(opts) == 2);
  strata_backup_engine_options_set_callback_trigger_interval_size(opts, 9);
  CHECK(strata_backup_engine_options_get_callback_trigger_interval_size(opts) ==
        9);
  strata_backup_engine_options_set_max_valid_backups_to_open(opts, 5);
  CHECK(strata_backup_engine_options_get_max_valid_backups_to_open(opts) == 5);
  strata_backup_engine_options_set_share_files_with_checksum_naming(opts, 1);
  CHECK(strata_backup_engine_options_get_share_files_with_checksum_naming(
            opts) == 1);
  strata_backup_engine_options_set_sync(opts, 0);
  CHECK(strata_backup_engine_options_get_sync(opts) == 0);
  strata_backup_engine_options_set_backup_log_files(opts, 1);
  CHECK(strata_backup_engine_options_get_backup_log_files(opts) == 1);
  /* Backups left by an earlier run go. */
  strata_backup_engine_options_set_destroy_old_data(opts, 1);
  CHECK(strata_backup_engine_options_get_destroy_old_data(opts) == 1);
  strata_backup_engine_options_set_backup_dir(opts, dir);
  strata_backup_engine_options_set_env(opts, NULL);
  return opts;
}

void TestBackup(void) {
  strata_options_t* options = strata_options_create();
  char* err = NULL;
  char backup_dir[1100], restore_dir[1100];
  strata_t* db;
  strata_t* restored;
  strata_env_t* env = strata_create_default_env();
  strata_backup_engine_options_t* opts;
  strata_backup_engine_t* be;
  const strata_backup_engine_info_t* info;
  strata_restore_options_t* restore = strata_restore_options_create();

  MakeDbName("backup");
  snprintf(backup_dir, sizeof(backup_dir), "%s-backups", db_name);
  snprintf(restore_dir, sizeof(restore_dir), "%s-restored", db_name);
  Destroy(options);
  strata_destroy_db(options, restore_dir, &err);
  CHECK_NO_ERROR(err);

  strata_options_set_create_if_missing(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "a", 1, "1", 1, &err);
  CHECK_NO_ERROR(err);
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "b", 1, "2", 1, &err);
  CHECK_NO_ERROR(err);

  opts = BackupOptions(backup_dir);
  be = strata_backup_engine_open_opts(opts, env, &err);
  CHECK_NO_ERROR(err);
  strata_backup_engine_options_destroy(opts);
  /* From the WAL: b is in it. */
  strata_backup_engine_create_new_backup(be, db, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "c", 1, "3", 1, &err);
  CHECK_NO_ERROR(err);
  strata_backup_engine_create_new_backup_flush(be, db, 1, &err);
  CHECK_NO_ERROR(err);

  info = strata_backup_engine_get_backup_info(be);
  CHECK(strata_backup_engine_info_count(info) == 2);
  CHECK(strata_backup_engine_info_backup_id(info, 0) == 1);
  CHECK(strata_backup_engine_info_backup_id(info, 1) == 2);
  CHECK(strata_backup_engine_info_timestamp(info, 0) > 0);
  CHECK(strata_backup_engine_info_timestamp(info, 1) >=
        strata_backup_engine_info_timestamp(info, 0));
  CHECK(strata_backup_engine_info_size(info, 0) > 0);
  CHECK(strata_backup_engine_info_number_files(info, 0) >= 4);
  strata_backup_engine_info_destroy(info);

  strata_backup_engine_verify_backup(be, 1, &err);
  CHECK_NO_ERROR(err);
  strata_backup_engine_verify_backup(be, 99, &err);
  ExpectError(&err, "not found");

  strata_backup_engine_restore_db_from_backup(be, restore_dir, restore_dir,
                                              restore, 1, &err);
  CHECK_NO_ERROR(err);
  restored = strata_open(options, restore_dir, &err);
  CHECK_NO_ERROR(err);
  CheckGet(restored, ro, "a", "1");
  CheckGet(restored, ro, "b", "2");
  CheckGet(restored, ro, "c", NULL);
  strata_close(restored);

  /* The DB is open: its directory is not restored over. */
  strata_backup_engine_restore_db_from_latest_backup(be, db_name, NULL, restore,
                                                     &err);
  ExpectError(&err, "in use");
  CheckGet(db, ro, "c", "3");

  strata_restore_options_set_keep_log_files(restore, 0);
  strata_backup_engine_restore_db_from_latest_backup(be, restore_dir, NULL,
                                                     restore, &err);
  CHECK_NO_ERROR(err);
  restored = strata_open(options, restore_dir, &err);
  CHECK_NO_ERROR(err);
  CheckGet(restored, ro, "c", "3");
  strata_close(restored);

  strata_backup_engine_purge_old_backups(be, 1, &err);
  CHECK_NO_ERROR(err);
  strata_backup_engine_close(be);

  /* Reopened through the DB options' Env: the newest is left. */
  be = strata_backup_engine_open(options, backup_dir, &err);
  CHECK_NO_ERROR(err);
  info = strata_backup_engine_get_backup_info(be);
  CHECK(strata_backup_engine_info_count(info) == 1);
  CHECK(strata_backup_engine_info_backup_id(info, 0) == 2);
  strata_backup_engine_info_destroy(info);
  strata_backup_engine_verify_backup(be, 1, &err);
  ExpectError(&err, "not found");
  strata_backup_engine_close(be);
  /* Empties the backup directory. */
  opts = BackupOptions(backup_dir);
  be = strata_backup_engine_open_opts(opts, env, &err);
  CHECK_NO_ERROR(err);
  strata_backup_engine_options_destroy(opts);
  info = strata_backup_engine_get_backup_info(be);
  CHECK(strata_backup_engine_info_count(info) == 0);
  strata_backup_engine_info_destroy(info);
  strata_backup_engine_close(be);

  strata_close(db);
  strata_restore_options_destroy(restore);
  strata_env_destroy(env);
  strata_destroy_db(options, restore_dir, &err);
  CHECK_NO_ERROR(err);
  Destroy(options);
  strata_options_destroy(options);
}
