/* Shared by the C API tests (test/c/c_api_*.c): the assertion macros,
   the options every test uses, and helpers to name, check and destroy a
   DB. Portable C99. */

#ifndef STRATA_TEST_C_C_API_TEST_H_
#define STRATA_TEST_C_C_API_TEST_H_

#include <stdio.h>
#include <stdlib.h>

#include "strata/c.h"

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                 \
    }                                                                          \
  } while (0)

#define CHECK_NO_ERROR(err)                                                \
  do {                                                                     \
    if ((err) != NULL) {                                                   \
      fprintf(stderr, "%s:%d: unexpected error: %s\n", __FILE__, __LINE__, \
              (err));                                                      \
      abort();                                                             \
    }                                                                      \
  } while (0)

/* Whether (data, len) holds exactly the NUL-terminated expected. */

/* Read, write, flush and compaction options with their defaults, made and
   destroyed by main. A test that changes one puts it back. */
extern strata_readoptions_t* ro;
extern strata_writeoptions_t* wo;
extern strata_flushoptions_t* fo;
extern strata_compactoptions_t* co;

/* The DB directory of the running test, set by MakeDbName: under TMPDIR,
   else TEMP, else the current directory. */
extern char db_name[1024];
void MakeDbName(const char* suffix);

/* strata_destroy_db(db_name), which must succeed. */
void Destroy(strata_options_t* options);

/* Whether (data, len) holds exactly the NUL-terminated expected. */
int Equals(const char* data, size_t len, const char* expected);

/* The iterator's current key / value is expected. */
int KeyIs(const strata_iterator_t* it, const char* expected);
int ValueIs(const strata_iterator_t* it, const char* expected);

/* The value of key (in the default family, or in cf) is expected; NULL:
   the key is missing. */
void CheckGet(strata_t* db, const strata_readoptions_t* ro, const char* key,
              const char* expected);
void CheckGetCf(strata_t* db, const strata_readoptions_t* ro,
                strata_column_family_handle_t* cf, const char* key,
                const char* expected);

/* The tests, by file. */
void TestErrors(void);            /* c_api_db_test.c */
void TestOptions(void);           /* c_api_db_test.c */
void TestReadsAndWrites(void);    /* c_api_db_test.c */
void TestWriteBatch(void);        /* c_api_batch_test.c */
void TestColumnFamilies(void);    /* c_api_families_test.c */
void TestCallbacks(void);         /* c_api_extensions_test.c */
void TestTableOptions(void);      /* c_api_extensions_test.c */
void TestEnvAndPrefixes(void);    /* c_api_extensions_test.c */
void TestLiveFiles(void);         /* c_api_metadata_test.c */
void TestRepair(void);            /* c_api_repair_test.c */
void TestCheckpoint(void);        /* c_api_utilities_test.c */
void TestReadOnly(void);          /* c_api_utilities_test.c */
void TestBackup(void);            /* c_api_utilities_test.c */
void TestIngest(void);            /* c_api_ingest_test.c */
void TestLoadLatestOptions(void); /* c_api_options_util_test.c */
void TestRateLimiter(void);       /* c_api_io_limits_test.c */

#endif /* STRATA_TEST_C_C_API_TEST_H_ */
