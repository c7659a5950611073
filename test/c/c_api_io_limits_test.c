/* The rate limiter and compaction readahead from C: the limiter handle
   may be destroyed once the options hold it (they share it), a DB opened
   with both flushes and compacts, and bad limiter arguments give NULL. */

#include <stdio.h>
#include <string.h>

#include "test/c/c_api_test.h"

void TestRateLimiter(void) {
  strata_options_t* options = strata_options_create();
  strata_ratelimiter_t* limiter;
  char* err = NULL;
  char key[16];
  char value[100];
  char expected[101];
  strata_t* db;
  int i;

  CHECK(strata_ratelimiter_create(0, 100000, 10) == NULL);
  CHECK(strata_ratelimiter_create(1 << 20, 0, 10) == NULL);
  CHECK(strata_options_get_compaction_readahead_size(options) == 0);
  strata_options_compaction_readahead_size(options, 1 << 20);
  CHECK(strata_options_get_compaction_readahead_size(options) == 1 << 20);

  /* Fast enough never to wait: the test is about ownership and use. */
  limiter = strata_ratelimiter_create(1 << 30, 100000, 10);
  CHECK(limiter != NULL);
  strata_options_set_ratelimiter(options, limiter);
  strata_ratelimiter_destroy(limiter);

  MakeDbName("ratelimiter");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  strata_options_set_disable_auto_compactions(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  memset(value, 'v', sizeof(value));
  memset(expected, 'v', sizeof(value));
  expected[sizeof(value)] = '\0';
  for (i = 0; i < 2000; i++) {
    snprintf(key, sizeof(key), "key%06d", i);
    strata_put(db, wo, key, strlen(key), value, sizeof(value), &err);
    CHECK_NO_ERROR(err);
    if (i % 500 == 499) {
      strata_flush(db, fo, &err);
      CHECK_NO_ERROR(err);
    }
  }
  strata_compact_range(db, NULL, 0, NULL, 0);
  CheckGet(db, ro, "key001999", expected);
  CheckGet(db, ro, "key002000", NULL);
  strata_close(db);

  /* NULL takes the limiter off. */
  strata_options_set_ratelimiter(options, NULL);
  strata_options_set_create_if_missing(options, 0);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "key000000", expected);
  strata_close(db);
  Destroy(options);
  strata_options_destroy(options);
}
