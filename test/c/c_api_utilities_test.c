/* Checkpoints from C: the copy opens with the flushed and the unflushed
   writes made before it and none made after; an existing directory is
   refused. */

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
