/* The C API's live files from C: the live tables of every family, a
   family's levels, and that disabled deletions keep a compaction's inputs
   on disk until enabled again. */

#include <stdio.h>
#include <string.h>

#include "test/c/c_api_test.h"

/* Whether the DB directory holds the table name ("/000012.sst"). */
static int TableExists(const char* name) {
  char path[1200];
  FILE* f;
  snprintf(path, sizeof(path), "%s%s", db_name, name);
  f = fopen(path, "rb");
  if (f == NULL) return 0;
  fclose(f);
  return 1;
}

/* The family (NULL: the default) is name with tables tables, all of them
   starting at "k1", listed level by level. */
static void CheckLevels(strata_t* db, strata_column_family_handle_t* cf,
                        const char* name, size_t tables) {
  strata_column_family_metadata_t* meta =
      cf == NULL ? strata_get_column_family_metadata(db)
                 : strata_get_column_family_metadata_cf(db, cf);
  char* got_name = strata_column_family_metadata_get_name(meta);
  size_t levels = strata_column_family_metadata_get_level_count(meta);
  size_t i, counted = 0;
  uint64_t size = 0;
  CHECK(strcmp(got_name, name) == 0);
  strata_free(got_name);
  CHECK(levels == 7); /* num_levels' default: every level is listed */
  CHECK(strata_column_family_metadata_get_level_metadata(meta, levels) == NULL);
  for (i = 0; i < levels; i++) {
    strata_level_metadata_t* level =
        strata_column_family_metadata_get_level_metadata(meta, i);
    size_t j, files = strata_level_metadata_get_file_count(level);
    CHECK(strata_level_metadata_get_level(level) == (int)i);
    for (j = 0; j < files; j++) {
      strata_sst_file_metadata_t* file =
          strata_level_metadata_get_sst_file_metadata(level, j);
      char* rel = strata_sst_file_metadata_get_relative_filename(file);
      size_t len;
      char* smallest = strata_sst_file_metadata_get_smallestkey(file, &len);
      CHECK(strstr(rel, ".sst") != NULL && rel[0] != '/');
      CHECK(Equals(smallest, len, "k1"));
      strata_free(smallest);
      strata_free(rel);
      size += strata_sst_file_metadata_get_size(file);
      strata_sst_file_metadata_destroy(file);
    }
    CHECK(strata_level_metadata_get_sst_file_metadata(level, files) == NULL);
    CHECK(files == 0 || strata_level_metadata_get_size(level) > 0);
    counted += files;
    strata_level_metadata_destroy(level);
  }
  CHECK(counted == tables);
  CHECK(strata_column_family_metadata_get_file_count(meta) == tables);
  CHECK(strata_column_family_metadata_get_size(meta) == size);
  strata_column_family_metadata_destroy(meta);
}

void TestLiveFiles(void) {
  strata_options_t* options = strata_options_create();
  strata_column_family_handle_t* second;
  const strata_livefiles_t* files;
  char* err = NULL;
  char first_table[64];
  strata_t* db;
  size_t len;
  int i;

  MakeDbName("live_files");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  strata_options_set_disable_auto_compactions(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  second = strata_create_column_family(db, options, "second", &err);
  CHECK_NO_ERROR(err);

  strata_put(db, wo, "k1", 2, "a", 1, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "k3", 2, "b", 1, &err);
  CHECK_NO_ERROR(err);
  strata_delete(db, wo, "k5", 2, &err);
  CHECK_NO_ERROR(err);
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  strata_put_cf(db, wo, second, "k1", 2, "c", 1, &err);
  CHECK_NO_ERROR(err);
  strata_flush_cf(db, fo, second, &err);
  CHECK_NO_ERROR(err);

  files = strata_livefiles(db);
  CHECK(strata_livefiles_count(files) == 2);
  for (i = 0; i < 2; i++) {
    const char* cf = strata_livefiles_column_family_name(files, i);
    const char* smallest = strata_livefiles_smallestkey(files, i, &len);
    CHECK(Equals(smallest, len, "k1"));
    CHECK(strata_livefiles_level(files, i) == 0);
    CHECK(strata_livefiles_size(files, i) > 0);
    CHECK(strata_livefiles_name(files, i)[0] == '/');
    CHECK(TableExists(strata_livefiles_name(files, i)));
    if (strcmp(cf, "default") == 0) {
      const char* largest = strata_livefiles_largestkey(files, i, &len);
      CHECK(Equals(largest, len, "k5"));
      CHECK(strata_livefiles_entries(files, i) == 3);
      CHECK(strata_livefiles_deletions(files, i) == 1);
      snprintf(first_table, sizeof(first_table), "%s",
               strata_livefiles_name(files, i));
    } else {
      CHECK(strcmp(cf, "second") == 0);
      CHECK(strata_livefiles_entries(files, i) == 1);
    }
  }
  strata_livefiles_destroy(files);
  CheckLevels(db, NULL, "default", 1);
  CheckLevels(db, second, "second", 1);

  /* Deletions off: the compacted table stays until they are on again. */
  strata_disable_file_deletions(db, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "k2", 2, "d", 1, &err);
  CHECK_NO_ERROR(err);
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  strata_compact_range(db, NULL, 0, NULL, 0);
  CHECK(TableExists(first_table));
  strata_enable_file_deletions(db, 1, &err);
  CHECK_NO_ERROR(err);
  CHECK(!TableExists(first_table));
  CheckLevels(db, NULL, "default", 1);

  strata_column_family_handle_destroy(second);
  strata_close(db);
  Destroy(options);
  strata_options_destroy(options);
}
