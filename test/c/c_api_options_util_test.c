/* The OPTIONS file from C: strata_load_latest_options gives back each
   family's options, and an error (with NULL outputs) where there is no
   DB. */

#include <stdio.h>
#include <string.h>

#include "test/c/c_api_test.h"

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
