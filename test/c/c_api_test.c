/* The C API (include/strata/c.h), exercised from C: every function it
   declares, its error convention (*errptr set on failure, an earlier
   message freed) and its ownership rules, which ASan's leak check holds
   it to. This file has the shared helpers and main; the tests are in
   c_api_*_test.c. Portable C99: the DB lives under TMPDIR, TEMP or the
   current directory, so the test also runs under Wine. */

#include "test/c/c_api_test.h"

#include <string.h>
#include <time.h>

strata_readoptions_t* ro;
strata_writeoptions_t* wo;
strata_flushoptions_t* fo;
strata_compactoptions_t* co;

int Equals(const char* data, size_t len, const char* expected) {
  return data != NULL && len == strlen(expected) &&
         memcmp(data, expected, len) == 0;
}

/* The iterator's current key / value is expected. (The length is read
   after the call that sets it: C leaves the order of arguments open.) */
int KeyIs(const strata_iterator_t* it, const char* expected) {
  size_t len = 0;
  const char* key = strata_iter_key(it, &len);
  return Equals(key, len, expected);
}

int ValueIs(const strata_iterator_t* it, const char* expected) {
  size_t len = 0;
  const char* value = strata_iter_value(it, &len);
  return Equals(value, len, expected);
}

char db_name[1024];

void MakeDbName(const char* suffix) {
  const char* dir = getenv("TMPDIR");
  if (dir == NULL || dir[0] == '\0') dir = getenv("TEMP");
  if (dir == NULL || dir[0] == '\0') dir = ".";
  snprintf(db_name, sizeof(db_name), "%s/strata_c_api_test_%lu_%s", dir,
           (unsigned long)time(NULL), suffix);
}

void Destroy(strata_options_t* options) {
  char* err = NULL;
  strata_destroy_db(options, db_name, &err);
  CHECK_NO_ERROR(err);
}

/* *value of key in the default family is expected (NULL: missing). */
void CheckGet(strata_t* db, const strata_readoptions_t* ro, const char* key,
              const char* expected) {
  char* err = NULL;
  size_t len = 99;
  char* value = strata_get(db, ro, key, strlen(key), &len, &err);
  CHECK_NO_ERROR(err);
  if (expected == NULL) {
    CHECK(value == NULL);
    CHECK(len == 0);
  } else {
    CHECK(Equals(value, len, expected));
  }
  strata_free(value);
}

void CheckGetCf(strata_t* db, const strata_readoptions_t* ro,
                strata_column_family_handle_t* cf, const char* key,
                const char* expected) {
  char* err = NULL;
  size_t len = 99;
  char* value = strata_get_cf(db, ro, cf, key, strlen(key), &len, &err);
  CHECK_NO_ERROR(err);
  if (expected == NULL) {
    CHECK(value == NULL);
  } else {
    CHECK(Equals(value, len, expected));
  }
  strata_free(value);
}

int main(void) {
  ro = strata_readoptions_create();
  wo = strata_writeoptions_create();
  fo = strata_flushoptions_create();
  co = strata_compactoptions_create();
  TestErrors();
  TestOptions();
  TestReadsAndWrites();
  TestWriteBatch();
  TestColumnFamilies();
  TestCallbacks();
  TestTableOptions();
  TestEnvAndPrefixes();
  TestLiveFiles();
  TestRepair();
  TestCheckpoint();
  TestReadOnly();
  TestBackup();
  TestIngest();
  TestLoadLatestOptions();
  TestRateLimiter();
  strata_compactoptions_destroy(co);
  strata_flushoptions_destroy(fo);
  strata_writeoptions_destroy(wo);
  strata_readoptions_destroy(ro);
  printf("c_api_test: PASS\n");
  return 0;
}
