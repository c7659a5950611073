/* The C API from C: write batches. */

#include <stdlib.h>
#include <string.h>

#include "test/c/c_api_test.h"

/* ---- Write batches ---- */

struct Seen {
  char log[256];
};

static void SeenPut(void* state, const char* k, size_t klen, const char* v,
                    size_t vlen) {
  struct Seen* seen = (struct Seen*)state;
  strcat(seen->log, "put(");
  strncat(seen->log, k, klen);
  strcat(seen->log, ",");
  strncat(seen->log, v, vlen);
  strcat(seen->log, ")");
}

static void SeenDelete(void* state, const char* k, size_t klen) {
  struct Seen* seen = (struct Seen*)state;
  strcat(seen->log, "del(");
  strncat(seen->log, k, klen);
  strcat(seen->log, ")");
}

void TestWriteBatch(void) {
  strata_options_t* options = strata_options_create();
  strata_writebatch_t* b = strata_writebatch_create();
  strata_writebatch_t* copy;
  char* err = NULL;
  strata_t* db;
  struct Seen seen;
  const char* data;
  size_t size;
  const char* key_parts[2] = {"ke", "y"};
  size_t key_part_sizes[2] = {2, 1};
  const char* value_parts[3] = {"v", "a", "l"};
  size_t value_part_sizes[3] = {1, 1, 1};

  MakeDbName("batch");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  strata_options_set_uint64add_merge_operator(options);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);

  CHECK(strata_writebatch_count(b) == 0);
  strata_writebatch_put(b, "a", 1, "1", 1);
  strata_writebatch_putv(b, 2, key_parts, key_part_sizes, 3, value_parts,
                         value_part_sizes);
  strata_writebatch_delete(b, "x", 1);
  strata_writebatch_put_log_data(b, "blob", 4);
  CHECK(strata_writebatch_count(b) == 3); /* log data is not counted */

  memset(&seen, 0, sizeof(seen));
  strata_writebatch_iterate(b, &seen, SeenPut, SeenDelete);
  CHECK(strcmp(seen.log, "put(a,1)put(key,val)del(x)") == 0);

  /* A batch made from another's bytes holds the same updates. */
  data = strata_writebatch_data(b, &size);
  copy = strata_writebatch_create_from(data, size);
  CHECK(strata_writebatch_count(copy) == 3);
  memset(&seen, 0, sizeof(seen));
  strata_writebatch_iterate(copy, &seen, SeenPut, SeenDelete);
  CHECK(strcmp(seen.log, "put(a,1)put(key,val)del(x)") == 0);
  strata_write(db, wo, copy, &err);
  CHECK_NO_ERROR(err);
  strata_writebatch_destroy(copy);
  CheckGet(db, ro, "key", "val");

  /* Bytes that are not a batch: the write fails with a message. */
  copy = strata_writebatch_create_from("junk", 4);
  strata_write(db, wo, copy, &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  strata_writebatch_destroy(copy);

  strata_writebatch_clear(b);
  CHECK(strata_writebatch_count(b) == 0);

  /* The other updates. */
  {
    unsigned char five[8] = {5, 0, 0, 0, 0, 0, 0, 0};
    const char* m_parts[2] = {(const char*)five, (const char*)five + 4};
    size_t m_sizes[2] = {4, 4};
    const char* k_parts[2] = {"c", "t"};
    size_t k_sizes[2] = {1, 1};
    const char* d_parts[1] = {"key"};
    size_t d_sizes[1] = {3};
    const char* start_parts[1] = {"p"};
    const char* end_parts[1] = {"r"};
    size_t one[1] = {1};
    char* v;
    size_t len;

    strata_writebatch_put(b, "p1", 2, "x", 1);
    strata_writebatch_put(b, "q1", 2, "x", 1);
    strata_writebatch_put(b, "s1", 2, "x", 1);
    strata_writebatch_put(b, "t1", 2, "x", 1);
    strata_writebatch_put(b, "single", 6, "x", 1);
    strata_write(db, wo, b, &err);
    CHECK_NO_ERROR(err);
    strata_writebatch_clear(b);

    strata_writebatch_merge(b, "ct", 2, (const char*)five, 8);
    strata_writebatch_mergev(b, 2, k_parts, k_sizes, 2, m_parts, m_sizes);
    strata_writebatch_deletev(b, 1, d_parts, d_sizes);
    strata_writebatch_singledelete(b, "single", 6);
    strata_writebatch_delete_range(b, "s", 1, "t", 1);
    strata_writebatch_delete_rangev(b, 1, start_parts, one, end_parts, one);
    CHECK(strata_writebatch_count(b) == 6);
    strata_write(db, wo, b, &err);
    CHECK_NO_ERROR(err);

    v = strata_get(db, ro, "ct", 2, &len, &err);
    CHECK_NO_ERROR(err);
    CHECK(len == 8 && (unsigned char)v[0] == 10);
    strata_free(v);
    CheckGet(db, ro, "key", NULL);
    CheckGet(db, ro, "single", NULL);
    CheckGet(db, ro, "p1", NULL);
    CheckGet(db, ro, "q1", NULL);
    CheckGet(db, ro, "s1", NULL);
    CheckGet(db, ro, "t1", "x");
  }

  strata_writebatch_destroy(b);
  strata_close(db);
  Destroy(options);
  strata_options_destroy(options);
}
