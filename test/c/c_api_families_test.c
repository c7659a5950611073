/* The C API from C: column families and every _cf function. */

#include <stdlib.h>
#include <string.h>

#include "test/c/c_api_test.h"

/* ---- Column families ---- */

void TestColumnFamilies(void) {
  strata_options_t* options = strata_options_create();
  strata_options_t* cf_options = strata_options_create();
  char* err = NULL;
  strata_t* db;
  strata_column_family_handle_t* cf;
  strata_column_family_handle_t* handles[2];
  const char* names[2] = {"default", "fruit"};
  const strata_options_t* family_options[2];
  char** list;
  size_t count;
  char* name;
  size_t len;
  uint64_t n;

  MakeDbName("cf");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  strata_options_set_uint64add_merge_operator(cf_options);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);

  cf = strata_create_column_family(db, cf_options, "fruit", &err);
  CHECK_NO_ERROR(err);
  CHECK(cf != NULL);
  CHECK(strata_column_family_handle_get_id(cf) > 0);
  name = strata_column_family_handle_get_name(cf, &len);
  CHECK(Equals(name, len, "fruit"));
  strata_free(name);
  /* A family of that name exists already. */
  CHECK(strata_create_column_family(db, cf_options, "fruit", &err) == NULL);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;

  strata_put_cf(db, wo, cf, "apple", 5, "red", 3, &err);
  CHECK_NO_ERROR(err);
  strata_column_family_handle_destroy(cf);
  strata_close(db);

  /* A DB with families must be opened naming them all. */
  db = strata_open(options, db_name, &err);
  CHECK(db == NULL);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;

  list = strata_list_column_families(options, db_name, &count, &err);
  CHECK_NO_ERROR(err);
  CHECK(count == 2);
  CHECK(strcmp(list[0], "default") == 0);
  CHECK(strcmp(list[1], "fruit") == 0);
  strata_list_column_families_destroy(list, count);

  family_options[0] = options;
  family_options[1] = cf_options;
  db = strata_open_column_families(options, db_name, 2, names, family_options,
                                   handles, &err);
  CHECK_NO_ERROR(err);
  cf = handles[1];
  CheckGetCf(db, ro, cf, "apple", "red");
  CheckGetCf(db, ro, handles[0], "apple", NULL);
  CheckGet(db, ro, "apple", NULL);

  /* Every _cf write. */
  strata_put_cf(db, wo, cf, "banana", 6, "yellow", 6, &err);
  strata_put_cf(db, wo, cf, "cherry", 6, "dark", 4, &err);
  strata_put_cf(db, wo, cf, "date", 4, "brown", 5, &err);
  strata_put_cf(db, wo, cf, "elder", 5, "black", 5, &err);
  CHECK_NO_ERROR(err);
  strata_delete_cf(db, wo, cf, "banana", 6, &err);
  strata_singledelete_cf(db, wo, cf, "cherry", 6, &err);
  strata_delete_range_cf(db, wo, cf, "d", 1, "e", 1, &err);
  CHECK_NO_ERROR(err);
  CheckGetCf(db, ro, cf, "banana", NULL);
  CheckGetCf(db, ro, cf, "cherry", NULL);
  CheckGetCf(db, ro, cf, "date", NULL);
  CheckGetCf(db, ro, cf, "elder", "black");
  {
    unsigned char four[8] = {4, 0, 0, 0, 0, 0, 0, 0};
    char* v;
    strata_merge_cf(db, wo, cf, "n", 1, (const char*)four, 8, &err);
    strata_merge_cf(db, wo, cf, "n", 1, (const char*)four, 8, &err);
    CHECK_NO_ERROR(err);
    v = strata_get_cf(db, ro, cf, "n", 1, &len, &err);
    CHECK_NO_ERROR(err);
    CHECK(len == 8 && (unsigned char)v[0] == 8);
    strata_free(v);
    /* The default family has no merge operator. */
    strata_merge_cf(db, wo, handles[0], "n", 1, (const char*)four, 8, &err);
    CHECK(err != NULL);
    strata_free(err);
    err = NULL;
  }

  /* Every _cf batch update. */
  {
    strata_writebatch_t* b = strata_writebatch_create();
    unsigned char one[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    const char* k_parts[2] = {"f", "ig"};
    size_t k_sizes[2] = {1, 2};
    const char* v_parts[1] = {"green"};
    size_t v_sizes[1] = {5};
    const char* m_key[1] = {"n"};
    size_t m_key_size[1] = {1};
    const char* m_val[1] = {(const char*)one};
    size_t m_val_size[1] = {8};
    const char* d_key[1] = {"elder"};
    size_t d_key_size[1] = {5};
    const char* r_start[1] = {"x"};
    const char* r_end[1] = {"y"};
    size_t r_size[1] = {1};
    char* v;

    strata_writebatch_put_cf(b, cf, "grape", 5, "purple", 6);
    strata_writebatch_put_cf(b, cf, "kiwi", 4, "brown", 5);
    strata_writebatch_put_cf(b, cf, "lime", 4, "green", 5);
    strata_writebatch_put_cf(b, cf, "w1", 2, "1", 1);
    strata_writebatch_put_cf(b, cf, "x1", 2, "1", 1);
    strata_write(db, wo, b, &err);
    CHECK_NO_ERROR(err);
    strata_writebatch_clear(b);

    strata_writebatch_putv_cf(b, cf, 2, k_parts, k_sizes, 1, v_parts, v_sizes);
    strata_writebatch_merge_cf(b, cf, "n", 1, (const char*)one, 8);
    strata_writebatch_mergev_cf(b, cf, 1, m_key, m_key_size, 1, m_val,
                                m_val_size);
    strata_writebatch_delete_cf(b, cf, "grape", 5);
    strata_writebatch_deletev_cf(b, cf, 1, d_key, d_key_size);
    strata_writebatch_singledelete_cf(b, cf, "kiwi", 4);
    strata_writebatch_delete_range_cf(b, cf, "l", 1, "m", 1);
    strata_writebatch_delete_rangev_cf(b, cf, 1, r_start, r_size, r_end,
                                       r_size);
    strata_write(db, wo, b, &err);
    CHECK_NO_ERROR(err);
    strata_writebatch_destroy(b);

    CheckGetCf(db, ro, cf, "fig", "green");
    v = strata_get_cf(db, ro, cf, "n", 1, &len, &err);
    CHECK_NO_ERROR(err);
    CHECK(len == 8 && (unsigned char)v[0] == 10);
    strata_free(v);
    CheckGetCf(db, ro, cf, "grape", NULL);
    CheckGetCf(db, ro, cf, "elder", NULL);
    CheckGetCf(db, ro, cf, "kiwi", NULL);
    CheckGetCf(db, ro, cf, "lime", NULL);
    CheckGetCf(db, ro, cf, "x1", NULL);
    CheckGetCf(db, ro, cf, "w1", "1");
  }

  /* Reads: pinned, multi-get across families, iterators. */
  {
    strata_pinnableslice_t* p =
        strata_get_pinned_cf(db, ro, cf, "fig", 3, &err);
    const char* data;
    const strata_column_family_handle_t* fams[2];
    const char* keys[2] = {"fig", "fig"};
    size_t key_sizes[2] = {3, 3};
    char* values[2];
    size_t value_sizes[2];
    char* errs[2];
    strata_iterator_t* iters[2];
    strata_iterator_t* it;

    CHECK_NO_ERROR(err);
    data = strata_pinnableslice_value(p, &len);
    CHECK(Equals(data, len, "green"));
    strata_pinnableslice_destroy(p);
    CHECK(strata_get_pinned_cf(db, ro, cf, "nothing", 7, &err) == NULL);
    CHECK_NO_ERROR(err);

    strata_put(db, wo, "fig", 3, "default-fig", 11, &err);
    CHECK_NO_ERROR(err);
    fams[0] = handles[0];
    fams[1] = cf;
    strata_multi_get_cf(db, ro, fams, 2, keys, key_sizes, values, value_sizes,
                        errs);
    CHECK_NO_ERROR(errs[0]);
    CHECK_NO_ERROR(errs[1]);
    CHECK(Equals(values[0], value_sizes[0], "default-fig"));
    CHECK(Equals(values[1], value_sizes[1], "green"));
    strata_free(values[0]);
    strata_free(values[1]);

    {
      /* The batched form, in one family, keys out of order. */
      const char* bkeys[3] = {"fig", "nothing", "apple"};
      size_t bkey_sizes[3] = {3, 7, 5};
      strata_pinnableslice_t* pinned[3];
      char* berrs[3];
      int j;
      strata_batched_multi_get_cf(db, ro, cf, 3, bkeys, bkey_sizes, pinned,
                                  berrs, 0);
      for (j = 0; j < 3; j++) CHECK_NO_ERROR(berrs[j]);
      data = strata_pinnableslice_value(pinned[0], &len);
      CHECK(Equals(data, len, "green"));
      CHECK(pinned[1] == NULL);
      data = strata_pinnableslice_value(pinned[2], &len);
      CHECK(Equals(data, len, "red"));
      strata_pinnableslice_destroy(pinned[0]);
      strata_pinnableslice_destroy(pinned[2]);
    }

    it = strata_create_iterator_cf(db, ro, cf);
    strata_iter_seek_to_first(it);
    CHECK(KeyIs(it, "apple"));
    strata_iter_destroy(it);

    strata_create_iterators(db, ro, handles, iters, 2, &err);
    CHECK_NO_ERROR(err);
    strata_iter_seek_to_first(iters[0]);
    strata_iter_seek_to_first(iters[1]);
    CHECK(KeyIs(iters[0], "fig"));
    CHECK(KeyIs(iters[1], "apple"));
    strata_iter_destroy(iters[0]);
    strata_iter_destroy(iters[1]);
  }

  /* Properties, flush, compaction and sizes of one family. */
  {
    char* prop = strata_property_value_cf(db, cf, "strata.num-files-at-level0");
    const char* starts[1] = {"a"};
    const char* limits[1] = {"z"};
    size_t lens[1] = {1};
    uint64_t sizes[1] = {0};
    const char* keys[1] = {"level0_file_num_compaction_trigger"};
    const char* values[1] = {"8"};
    uint64_t before, default_before;
    CHECK(prop != NULL);
    CHECK(strata_property_int_cf(db, cf, "strata.num-files-at-level0",
                                 &before) == 0);
    CHECK(strtoul(prop, NULL, 10) == before);
    strata_free(prop);
    CHECK(strata_property_int_cf(db, handles[0], "strata.num-files-at-level0",
                                 &default_before) == 0);
    /* Flushing the family adds a table to it alone. */
    strata_flush_cf(db, fo, cf, &err);
    CHECK_NO_ERROR(err);
    CHECK(strata_property_int_cf(db, cf, "strata.num-files-at-level0", &n) ==
          0);
    CHECK(n == before + 1);
    CHECK(strata_property_int_cf(db, handles[0], "strata.num-files-at-level0",
                                 &n) == 0);
    CHECK(n == default_before);
    strata_compact_range_cf(db, cf, NULL, 0, NULL, 0);
    CHECK(strata_property_int_cf(db, cf, "strata.num-files-at-level0", &n) ==
          0);
    CHECK(n == 0);
    strata_compact_range_cf_opt(db, cf, co, "a", 1, "z", 1);
    strata_approximate_sizes_cf(db, cf, 1, starts, lens, limits, lens, sizes,
                                &err);
    CHECK_NO_ERROR(err);
    CHECK(sizes[0] > 0);
    strata_set_options_cf(db, cf, 1, keys, values, &err);
    CHECK_NO_ERROR(err);
    CheckGetCf(db, ro, cf, "fig", "green");
  }

  /* Dropping: writes fail, the handle is still destroyed by its owner. */
  strata_drop_column_family(db, cf, &err);
  CHECK_NO_ERROR(err);
  strata_put_cf(db, wo, cf, "k", 1, "v", 1, &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  /* The default family cannot be dropped. */
  strata_drop_column_family(db, handles[0], &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  /* Nor can no family (a failed create's NULL): an error, not a crash. */
  strata_drop_column_family(db, NULL, &err);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  strata_column_family_handle_destroy(handles[0]);
  strata_column_family_handle_destroy(cf);
  strata_close(db);

  list = strata_list_column_families(options, db_name, &count, &err);
  CHECK_NO_ERROR(err);
  CHECK(count == 1);
  strata_list_column_families_destroy(list, count);

  Destroy(options);
  strata_options_destroy(cf_options);
  strata_options_destroy(options);
}
