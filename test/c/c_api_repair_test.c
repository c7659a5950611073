/* strata_repair_db from C: a DB whose CURRENT is gone opens again after
   the repair, with its flushed and its unflushed writes; a DB that is
   open, or no DB at all, is an error. */

#include <stdio.h>
#include <string.h>

#include "test/c/c_api_test.h"

void TestRepair(void) {
  strata_options_t* options = strata_options_create();
  char* err = NULL;
  char current[1100];
  strata_t* db;

  MakeDbName("repair");
  Destroy(options);

  /* No DB there: an error, and nothing is created. */
  strata_repair_db(options, db_name, &err);
  CHECK(err != NULL);
  CHECK(strlen(err) > 0);
  strata_free(err);
  err = NULL;

  strata_options_set_create_if_missing(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "flushed", 7, "1", 1, &err);
  CHECK_NO_ERROR(err);
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "in-wal", 6, "2", 1, &err);
  CHECK_NO_ERROR(err);

  /* Open: the repair cannot take the DB's lock. */
  strata_repair_db(options, db_name, &err);
  CHECK(err != NULL);
  CHECK(strstr(err, "LOCK") != NULL);
  strata_free(err);
  err = NULL;
  strata_close(db);

  /* Without CURRENT the DB does not open, and no new DB is made over it. */
  snprintf(current, sizeof(current), "%s/CURRENT", db_name);
  CHECK(remove(current) == 0);
  db = strata_open(options, db_name, &err);
  CHECK(db == NULL);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;

  strata_repair_db(options, db_name, &err);
  CHECK_NO_ERROR(err);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "flushed", "1");
  CheckGet(db, ro, "in-wal", "2");
  strata_close(db);

  Destroy(options);
  strata_options_destroy(options);
}
