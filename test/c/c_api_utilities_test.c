/* Operating a DB from C. Checkpoints: the copy opens with the flushed and
   the unflushed writes made before it and none made after; an existing
   directory is refused. Read-only instances: they read tables and WALs,
   refuse writes, and honour error_if_wal_file_exists. The OPTIONS file:
   strata_load_latest_options gives back each family's options. */

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

void TestLoadLatestOptions(void) {
  strata_options_t* options = strata_options_create();
  strata_options_t* family_options = strata_options_create();
  strata_options_t* loaded = NULL;
  strata_options_t** families = NULL;
  char** names = NULL;
  size_t count = 0;
  char* err = NULL;
  strata_t* db;
  strata_column_family_handle_t* extra;

  MakeDbName("load_options");
  Destroy(options);
  /* No DB, no OPTIONS file: an error and NULL outputs. */
  strata_load_latest_options(db_name, NULL, 0, NULL, &loaded, &count, &names,
                             &families, &err);
  CHECK(err != NULL);
  CHECK(loaded == NULL && names == NULL && families == NULL);
  strata_free(err);
  err = NULL;

  strata_options_set_create_if_missing(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  strata_options_set_write_buffer_size(family_options, 1 << 20);
  extra = strata_create_column_family(db, family_options, "extra", &err);
  CHECK_NO_ERROR(err);
  strata_column_family_handle_destroy(extra);
  strata_close(db);

  strata_load_latest_options(db_name, NULL, 0, NULL, &loaded, &count, &names,
                             &families, &err);
  CHECK_NO_ERROR(err);
  CHECK(count == 2);
  CHECK(strcmp(names[0], "default") == 0);
  CHECK(strcmp(names[1], "extra") == 0);
  CHECK(strata_options_get_create_if_missing(loaded) == 1);
  CHECK(strata_options_get_write_buffer_size(families[1]) == 1 << 20);
  CHECK(strata_options_get_write_buffer_size(families[0]) ==
        strata_options_get_write_buffer_size(options));
  strata_load_latest_options_destroy(loaded, names, families, count);

  Destroy(options);
  strata_options_destroy(family_options);
  strata_options_destroy(options);
}
