/* Bulk loading from C: files written with strata_sstfilewriter_* are
   ingested (into a family too) and read back; the writer refuses keys out
   of order and an empty file; ingestion refuses overlapping files and,
   without allow_blocking_flush, a file over the memtable; move_files
   takes the source name. */

#include <stdio.h>
#include <string.h>

#include "test/c/c_api_test.h"

static void WriteSst(strata_options_t* options, const char* path,
                     const char* first, const char* second, const char* value) {
  char* err = NULL;
  strata_envoptions_t* env = strata_envoptions_create();
  strata_sstfilewriter_t* writer = strata_sstfilewriter_create(env, options);
  uint64_t size = 0;
  strata_sstfilewriter_open(writer, path, &err);
  CHECK_NO_ERROR(err);
  strata_sstfilewriter_put(writer, first, strlen(first), value, strlen(value),
                           &err);
  CHECK_NO_ERROR(err);
  strata_sstfilewriter_add(writer, second, strlen(second), value, strlen(value),
                           &err);
  CHECK_NO_ERROR(err);
  strata_sstfilewriter_finish(writer, &err);
  CHECK_NO_ERROR(err);
  strata_sstfilewriter_file_size(writer, &size);
  CHECK(size > 0);
  strata_sstfilewriter_destroy(writer);
  strata_envoptions_destroy(env);
}

static int Exists(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return 0;
  fclose(f);
  return 1;
}

void TestIngest(void) {
  strata_options_t* options = strata_options_create();
  strata_envoptions_t* env = strata_envoptions_create();
  strata_ingestexternalfileoptions_t* ingest =
      strata_ingestexternalfileoptions_create();
  char* err = NULL;
  char a[1100], b[1100], c[1100], empty[1100];
  const char* files[2];
  strata_t* db;
  strata_column_family_handle_t* cf;
  strata_sstfilewriter_t* writer;

  MakeDbName("ingest");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  snprintf(a, sizeof(a), "%s-a.sst", db_name);
  snprintf(b, sizeof(b), "%s-b.sst", db_name);
  snprintf(c, sizeof(c), "%s-c.sst", db_name);
  snprintf(empty, sizeof(empty), "%s-empty.sst", db_name);

  /* Out of order, then empty: refused. */
  writer = strata_sstfilewriter_create(env, options);
  strata_sstfilewriter_open(writer, empty, &err);
  CHECK_NO_ERROR(err);
  strata_sstfilewriter_put(writer, "b", 1, "1", 1, &err);
  CHECK_NO_ERROR(err);
  strata_sstfilewriter_delete(writer, "a", 1, &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  strata_sstfilewriter_destroy(writer); /* unfinished: removed */
  CHECK(!Exists(empty));
  writer = strata_sstfilewriter_create(env, options);
  strata_sstfilewriter_open(writer, empty, &err);
  CHECK_NO_ERROR(err);
  strata_sstfilewriter_finish(writer, &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  strata_sstfilewriter_destroy(writer);

  WriteSst(options, a, "apple", "avocado", "A");
  WriteSst(options, b, "apricot", "banana", "B");
  WriteSst(options, c, "cherry", "coconut", "C");

  /* a and b overlap: nothing is ingested. */
  files[0] = a;
  files[1] = b;
  strata_ingest_external_file(db, files, 2, ingest, &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  CheckGet(db, ro, "apple", NULL);

  /* Over the memtable without allow_blocking_flush: refused. */
  strata_put(db, wo, "banana", 6, "old", 3, &err);
  CHECK_NO_ERROR(err);
  strata_ingestexternalfileoptions_set_allow_blocking_flush(ingest, 0);
  strata_ingest_external_file(db, files + 1, 1, ingest, &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  CheckGet(db, ro, "banana", "old");
  strata_ingestexternalfileoptions_set_allow_blocking_flush(ingest, 1);
  strata_ingestexternalfileoptions_set_snapshot_consistency(ingest, 1);
  strata_ingestexternalfileoptions_set_allow_global_seqno(ingest, 1);
  strata_ingestexternalfileoptions_set_ingest_behind(ingest, 0);
  strata_ingestexternalfileoptions_set_move_files(ingest, 1);
  strata_ingest_external_file(db, files + 1, 1, ingest, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "banana", "B");
  CheckGet(db, ro, "apricot", "B");
  CHECK(!Exists(b)); /* moved */

  /* Into a family. */
  cf = strata_create_column_family(db, options, "loaded", &err);
  CHECK_NO_ERROR(err);
  files[0] = c;
  strata_ingest_external_file_cf(db, cf, files, 1, ingest, &err);
  CHECK_NO_ERROR(err);
  CheckGetCf(db, ro, cf, "coconut", "C");
  CheckGet(db, ro, "coconut", NULL);
  strata_column_family_handle_destroy(cf);

  strata_close(db);
  remove(a);
  Destroy(options);
  strata_ingestexternalfileoptions_destroy(ingest);
  strata_envoptions_destroy(env);
  strata_options_destroy(options);
}
