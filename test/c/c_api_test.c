/* The C API (include/strata/c.h), exercised from C: every function it
   declares, its error convention (*errptr set on failure, an earlier
   message freed) and its ownership rules, which ASan's leak check holds
   it to. Portable C99: the DB lives under TMPDIR, TEMP or the current
   directory, so the test also runs under Wine. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
static int Equals(const char* data, size_t len, const char* expected) {
  return data != NULL && len == strlen(expected) &&
         memcmp(data, expected, len) == 0;
}

/* The iterator's current key / value is expected. (The length is read
   after the call that sets it: C leaves the order of arguments open.) */
static int KeyIs(const strata_iterator_t* it, const char* expected) {
  size_t len = 0;
  const char* key = strata_iter_key(it, &len);
  return Equals(key, len, expected);
}

static int ValueIs(const strata_iterator_t* it, const char* expected) {
  size_t len = 0;
  const char* value = strata_iter_value(it, &len);
  return Equals(value, len, expected);
}

static char db_name[1024];

static void MakeDbName(const char* suffix) {
  const char* dir = getenv("TMPDIR");
  if (dir == NULL || dir[0] == '\0') dir = getenv("TEMP");
  if (dir == NULL || dir[0] == '\0') dir = ".";
  snprintf(db_name, sizeof(db_name), "%s/strata_c_api_test_%lu_%s", dir,
           (unsigned long)time(NULL), suffix);
}

static void Destroy(strata_options_t* options) {
  char* err = NULL;
  strata_destroy_db(options, db_name, &err);
  CHECK_NO_ERROR(err);
}

/* *value of key in the default family is expected (NULL: missing). */
static void CheckGet(strata_t* db, const strata_readoptions_t* ro,
                     const char* key, const char* expected) {
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

static void CheckGetCf(strata_t* db, const strata_readoptions_t* ro,
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

/* ---- The error convention ---- */

static void TestErrors(void) {
  strata_options_t* options = strata_options_create();
  char* err = NULL;
  strata_t* db;
  char* first;

  MakeDbName("errors");
  Destroy(options);

  /* A missing DB without create_if_missing: NULL and a message. */
  db = strata_open(options, db_name, &err);
  CHECK(db == NULL);
  CHECK(err != NULL);
  CHECK(strlen(err) > 0);

  /* A second failure replaces the message; the first is freed by the
     library (ASan reports it as leaked otherwise). */
  first = err;
  db = strata_open(options, db_name, &err);
  CHECK(db == NULL);
  CHECK(err != NULL);
  (void)first; /* freed: must not be touched */

  /* Success leaves *errptr alone. */
  strata_options_set_create_if_missing(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK(db != NULL);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  strata_close(db);

  /* error_if_exists on an existing DB. */
  strata_options_set_error_if_exists(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK(db == NULL);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;

  /* Values strata does not know fail the open, not the setter. */
  strata_options_set_error_if_exists(options, 0);
  strata_options_set_compression(options, 7); /* RocksDB's zstd */
  db = strata_open(options, db_name, &err);
  CHECK(db == NULL);
  CHECK(err != NULL);
  strata_options_set_compression(options, strata_no_compression);
  strata_options_set_wal_recovery_mode(options, 9);
  db = strata_open(options, db_name, &err);
  CHECK(db == NULL);
  CHECK(err != NULL);
  strata_free(err);
  err = NULL;
  strata_options_set_wal_recovery_mode(options, strata_point_in_time_recovery);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  strata_close(db);

  Destroy(options);
  strata_options_destroy(options);
}

/* ---- Options: every setter, read back through its getter ---- */

static void TestOptions(void) {
  strata_options_t* o = strata_options_create();
  strata_options_t* copy;
  strata_readoptions_t* ro = strata_readoptions_create();
  strata_writeoptions_t* wo = strata_writeoptions_create();
  strata_flushoptions_t* fo = strata_flushoptions_create();
  strata_compactoptions_t* co = strata_compactoptions_create();
  int levels[3] = {strata_no_compression, strata_no_compression,
                   strata_snappy_compression};

#define CHECK_OPTION(name, value)                 \
  do {                                            \
    strata_options_set_##name(o, value);          \
    CHECK(strata_options_get_##name(o) == value); \
  } while (0)

  CHECK(strata_options_get_create_if_missing(o) == 0);
  CHECK_OPTION(create_if_missing, 1);
  CHECK_OPTION(create_missing_column_families, 1);
  CHECK_OPTION(error_if_exists, 1);
  CHECK_OPTION(paranoid_checks, 0);
  CHECK_OPTION(write_buffer_size, 1 << 20);
  CHECK_OPTION(db_write_buffer_size, 8 << 20);
  CHECK_OPTION(max_open_files, 100);
  CHECK_OPTION(max_file_opening_threads, 4);
  CHECK_OPTION(max_total_wal_size, 123456);
  CHECK_OPTION(num_levels, 5);
  CHECK_OPTION(level0_file_num_compaction_trigger, 3);
  CHECK_OPTION(level0_slowdown_writes_trigger, 17);
  CHECK_OPTION(level0_stop_writes_trigger, 29);
  CHECK_OPTION(target_file_size_base, 3 << 20);
  CHECK_OPTION(target_file_size_multiplier, 2);
  CHECK_OPTION(max_bytes_for_level_base, 20 << 20);
  CHECK_OPTION(level_compaction_dynamic_level_bytes, 1);
  CHECK_OPTION(max_bytes_for_level_multiplier, 8.0);
  CHECK_OPTION(max_write_buffer_number, 3);
  CHECK_OPTION(min_write_buffer_number_to_merge, 1);
  CHECK_OPTION(enable_pipelined_write, 1);
  CHECK_OPTION(unordered_write, 1);
  CHECK_OPTION(max_background_jobs, 3);
  CHECK_OPTION(max_background_compactions, 2);
  CHECK_OPTION(max_background_flushes, 1);
  CHECK_OPTION(soft_pending_compaction_bytes_limit, 1000);
  CHECK_OPTION(hard_pending_compaction_bytes_limit, 2000);
  CHECK_OPTION(max_manifest_file_size, 1 << 22);
  CHECK_OPTION(use_fsync, 1);
  CHECK_OPTION(allow_mmap_reads, 1);
  CHECK_OPTION(allow_mmap_writes, 1);
  CHECK_OPTION(use_direct_reads, 1);
  CHECK_OPTION(use_direct_io_for_flush_and_compaction, 1);
  CHECK_OPTION(bytes_per_sync, 1 << 20);
  CHECK_OPTION(wal_bytes_per_sync, 1 << 19);
  CHECK_OPTION(writable_file_max_buffer_size, 1 << 18);
  CHECK_OPTION(allow_concurrent_memtable_write, 0);
  CHECK_OPTION(enable_write_thread_adaptive_yield, 0);
  CHECK_OPTION(disable_auto_compactions, 1);
  CHECK_OPTION(max_compaction_bytes, 1 << 24);
  CHECK_OPTION(memtable_huge_page_size, 0);
  CHECK_OPTION(inplace_update_support, 1);
  CHECK_OPTION(inplace_update_num_locks, 7);
  CHECK_OPTION(atomic_flush, 1);
  CHECK_OPTION(memtable_prefix_bloom_size_ratio, 0.25);
  CHECK_OPTION(wal_recovery_mode, strata_absolute_consistency_recovery);
  CHECK_OPTION(compression, strata_zlib_compression);
#undef CHECK_OPTION
  strata_options_set_memtable_whole_key_filtering(o, 1);
  strata_options_set_memtable_vector_rep(o);
  strata_options_set_compression_per_level(o, levels, 3);

  /* A copy is independent of the original. */
  copy = strata_options_create_copy(o);
  CHECK(strata_options_get_num_levels(copy) == 5);
  strata_options_set_num_levels(copy, 4);
  CHECK(strata_options_get_num_levels(o) == 5);
  strata_options_destroy(copy);

  /* The helpers set what C++ sets. */
  strata_options_optimize_level_style_compaction(o, 64 << 20);
  CHECK(strata_options_get_write_buffer_size(o) == (64 << 20) / 4);
  strata_options_increase_parallelism(o, 4);
  CHECK(strata_options_get_max_background_jobs(o) == 4);
  strata_options_prepare_for_bulk_load(o);
  CHECK(strata_options_get_disable_auto_compactions(o) == 1);
  strata_options_optimize_for_point_lookup(o, 8);

  strata_readoptions_set_verify_checksums(ro, 0);
  CHECK(strata_readoptions_get_verify_checksums(ro) == 0);
  strata_readoptions_set_fill_cache(ro, 0);
  CHECK(strata_readoptions_get_fill_cache(ro) == 0);
  strata_readoptions_set_prefix_same_as_start(ro, 1);
  CHECK(strata_readoptions_get_prefix_same_as_start(ro) == 1);
  strata_readoptions_set_total_order_seek(ro, 1);
  CHECK(strata_readoptions_get_total_order_seek(ro) == 1);
  strata_readoptions_set_snapshot(ro, NULL);

  strata_writeoptions_set_sync(wo, 1);
  CHECK(strata_writeoptions_get_sync(wo) == 1);
  strata_writeoptions_disable_WAL(wo, 1);
  CHECK(strata_writeoptions_get_disable_WAL(wo) == 1);
  strata_writeoptions_set_ignore_missing_column_families(wo, 1);
  CHECK(strata_writeoptions_get_ignore_missing_column_families(wo) == 1);
  strata_writeoptions_set_no_slowdown(wo, 1);
  CHECK(strata_writeoptions_get_no_slowdown(wo) == 1);

  CHECK(strata_flushoptions_get_wait(fo) == 1);
  strata_flushoptions_set_wait(fo, 0);
  CHECK(strata_flushoptions_get_wait(fo) == 0);
  strata_compactoptions_set_exclusive_manual_compaction(co, 0);
  CHECK(strata_compactoptions_get_exclusive_manual_compaction(co) == 0);

  strata_compactoptions_destroy(co);
  strata_flushoptions_destroy(fo);
  strata_writeoptions_destroy(wo);
  strata_readoptions_destroy(ro);
  strata_options_destroy(o);
}

/* Read, write, flush and compaction options with their defaults, shared
   by the tests below (main makes and destroys them). A test that changes
   one puts it back. */
static strata_readoptions_t* ro;
static strata_writeoptions_t* wo;
static strata_flushoptions_t* fo;
static strata_compactoptions_t* co;

/* ---- Reads and writes of the default family ---- */

static void TestReadsAndWrites(void) {
  strata_options_t* options = strata_options_create();
  char* err = NULL;
  strata_t* db;
  const strata_snapshot_t* snap;
  strata_pinnableslice_t* pinned;
  strata_iterator_t* it;
  const char* data;
  size_t len;
  char* prop;
  uint64_t n;

  MakeDbName("rw");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  strata_options_set_uint64add_merge_operator(options);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  CHECK(db != NULL);

  /* Put / Get, keys and values with NUL bytes. */
  strata_put(db, wo, "a", 1, "1", 1, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "b\0x", 3, "2\0y", 3, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "a", "1");
  {
    char* v = strata_get(db, ro, "b\0x", 3, &len, &err);
    CHECK_NO_ERROR(err);
    CHECK(len == 3 && memcmp(v, "2\0y", 3) == 0);
    strata_free(v);
  }
  CheckGet(db, ro, "missing", NULL);

  /* Delete and SingleDelete. */
  strata_put(db, wo, "c", 1, "3", 1, &err);
  strata_put(db, wo, "d", 1, "4", 1, &err);
  CHECK_NO_ERROR(err);
  strata_delete(db, wo, "c", 1, &err);
  strata_singledelete(db, wo, "d", 1, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "c", NULL);
  CheckGet(db, ro, "d", NULL);

  /* Merge through the uint64 add operator (fixed64 little-endian). */
  {
    unsigned char one[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    unsigned char two[8] = {2, 0, 0, 0, 0, 0, 0, 0};
    char* v;
    strata_merge(db, wo, "counter", 7, (const char*)one, 8, &err);
    strata_merge(db, wo, "counter", 7, (const char*)two, 8, &err);
    CHECK_NO_ERROR(err);
    v = strata_get(db, ro, "counter", 7, &len, &err);
    CHECK_NO_ERROR(err);
    CHECK(len == 8 && (unsigned char)v[0] == 3 && v[1] == 0);
    strata_free(v);
  }

  /* A snapshot keeps the old value. */
  snap = strata_create_snapshot(db);
  CHECK(strata_get_latest_sequence_number(db) > 0);
  strata_put(db, wo, "a", 1, "new", 3, &err);
  CHECK_NO_ERROR(err);
  strata_readoptions_set_snapshot(ro, snap);
  CheckGet(db, ro, "a", "1");
  strata_readoptions_set_snapshot(ro, NULL);
  CheckGet(db, ro, "a", "new");
  prop = strata_property_value(db, "strata.num-snapshots");
  CHECK(prop != NULL && strcmp(prop, "1") == 0);
  strata_free(prop);
  strata_release_snapshot(db, snap);

  /* Pinned reads. */
  pinned = strata_get_pinned(db, ro, "a", 1, &err);
  CHECK_NO_ERROR(err);
  CHECK(pinned != NULL);
  data = strata_pinnableslice_value(pinned, &len);
  CHECK(Equals(data, len, "new"));
  strata_pinnableslice_destroy(pinned);
  CHECK(strata_get_pinned(db, ro, "zz", 2, &err) == NULL);
  CHECK_NO_ERROR(err);

  /* MultiGet: a found key, a missing one. */
  {
    const char* keys[3] = {"a", "nope", "b\0x"};
    size_t key_sizes[3] = {1, 4, 3};
    char* values[3];
    size_t value_sizes[3];
    char* errs[3];
    int i;
    strata_multi_get(db, ro, 3, keys, key_sizes, values, value_sizes, errs);
    for (i = 0; i < 3; i++) CHECK_NO_ERROR(errs[i]);
    CHECK(Equals(values[0], value_sizes[0], "new"));
    CHECK(values[1] == NULL && value_sizes[1] == 0);
    CHECK(value_sizes[2] == 3 && memcmp(values[2], "2\0y", 3) == 0);
    for (i = 0; i < 3; i++) strata_free(values[i]);
  }

  /* A batch, applied atomically. */
  {
    strata_writebatch_t* b = strata_writebatch_create();
    strata_writebatch_put(b, "e", 1, "5", 1);
    strata_writebatch_delete(b, "a", 1);
    strata_write(db, wo, b, &err);
    CHECK_NO_ERROR(err);
    strata_writebatch_destroy(b);
    CheckGet(db, ro, "e", "5");
    CheckGet(db, ro, "a", NULL);
  }

  /* Iterators, both directions, with and without bounds. */
  strata_put(db, wo, "f", 1, "6", 1, &err);
  strata_put(db, wo, "g", 1, "7", 1, &err);
  CHECK_NO_ERROR(err);
  it = strata_create_iterator(db, ro);
  strata_iter_seek_to_first(it);
  CHECK(strata_iter_valid(it));
  data = strata_iter_key(it, &len);
  CHECK(len == 3 && memcmp(data, "b\0x", 3) == 0);
  strata_iter_next(it);
  CHECK(KeyIs(it, "counter"));
  strata_iter_seek_to_last(it);
  CHECK(KeyIs(it, "g"));
  CHECK(ValueIs(it, "7"));
  strata_iter_prev(it);
  CHECK(KeyIs(it, "f"));
  strata_iter_seek(it, "ea", 2);
  CHECK(KeyIs(it, "f"));
  strata_iter_seek_for_prev(it, "ea", 2);
  CHECK(KeyIs(it, "e"));
  strata_iter_seek(it, "z", 1);
  CHECK(!strata_iter_valid(it));
  strata_iter_get_error(it, &err);
  CHECK_NO_ERROR(err);
  strata_iter_destroy(it);

  {
    /* The options copy the bounds: the buffers may change at once. */
    char lower[2] = "e";
    char upper[2] = "g";
    strata_readoptions_set_iterate_lower_bound(ro, lower, 1);
    strata_readoptions_set_iterate_upper_bound(ro, upper, 1);
    lower[0] = 'a';
    upper[0] = 'z';
    it = strata_create_iterator(db, ro);
    strata_iter_seek_to_first(it);
    CHECK(KeyIs(it, "e"));
    strata_iter_next(it);
    CHECK(KeyIs(it, "f"));
    strata_iter_next(it);
    CHECK(!strata_iter_valid(it));
    strata_iter_seek_to_last(it);
    CHECK(KeyIs(it, "f"));
    strata_iter_destroy(it);
    strata_readoptions_set_iterate_lower_bound(ro, NULL, 0);
    strata_readoptions_set_iterate_upper_bound(ro, NULL, 0);
    it = strata_create_iterator(db, ro);
    strata_iter_seek_to_last(it);
    CHECK(KeyIs(it, "g"));
    strata_iter_destroy(it);
  }

  /* Properties. */
  prop = strata_property_value(db, "strata.stats");
  CHECK(prop != NULL);
  strata_free(prop);
  CHECK(strata_property_value(db, "strata.no-such-property") == NULL);
  CHECK(strata_property_int(db, "strata.estimate-num-keys", &n) == 0);
  CHECK(n > 0);
  CHECK(strata_property_int(db, "strata.no-such-property", &n) == -1);

  /* Flush, WAL sync, compaction, sizes. */
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  strata_flush_wal(db, 1, &err);
  CHECK_NO_ERROR(err);
  strata_flush_wal(db, 0, &err);
  CHECK_NO_ERROR(err);
  CHECK(strata_property_int(db, "strata.num-files-at-level0", &n) == 0);
  CHECK(n == 1);
  strata_compact_range(db, NULL, 0, NULL, 0);
  CHECK(strata_property_int(db, "strata.num-files-at-level0", &n) == 0);
  CHECK(n == 0);
  strata_compact_range(db, "a", 1, "z", 1);
  strata_compact_range_opt(db, co, NULL, 0, NULL, 0);
  {
    const char* starts[1] = {"a"};
    const char* limits[1] = {"zzz"};
    size_t start_lens[1] = {1};
    size_t limit_lens[1] = {3};
    uint64_t sizes[1] = {0};
    strata_approximate_sizes(db, 1, starts, start_lens, limits, limit_lens,
                             sizes, &err);
    CHECK_NO_ERROR(err);
    CHECK(sizes[0] > 0);
  }
  CheckGet(db, ro, "e", "5");

  /* SetOptions: a known name works, an unknown one is an error. */
  {
    const char* keys[1] = {"disable_auto_compactions"};
    const char* values[1] = {"true"};
    const char* bad_keys[1] = {"no_such_option"};
    strata_set_options(db, 1, keys, values, &err);
    CHECK_NO_ERROR(err);
    strata_set_options(db, 1, bad_keys, values, &err);
    CHECK(err != NULL);
    strata_free(err);
    err = NULL;
  }

  /* A Merge without a merge operator fails (after a reopen without it). */
  strata_close(db);
  {
    strata_options_t* plain = strata_options_create();
    db = strata_open(plain, db_name, &err);
    CHECK_NO_ERROR(err);
    strata_merge(db, wo, "k", 1, "v", 1, &err);
    CHECK(err != NULL);
    strata_free(err);
    err = NULL;
    CheckGet(db, ro, "e", "5"); /* the data survived the reopen */
    strata_close(db);
    strata_options_destroy(plain);
  }

  Destroy(options);
  strata_options_destroy(options);
}

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

static void TestWriteBatch(void) {
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

/* ---- Column families ---- */

static void TestColumnFamilies(void) {
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

/* ---- Comparator and merge operator callbacks ---- */

static int comparator_destroyed = 0;
static int merge_operator_destroyed = 0;

static void ComparatorDestroy(void* state) {
  (void)state;
  comparator_destroyed++;
}

/* Reverse bytewise order. */
static int ReverseCompare(void* state, const char* a, size_t alen,
                          const char* b, size_t blen) {
  size_t n = alen < blen ? alen : blen;
  int r = memcmp(a, b, n);
  (void)state;
  if (r == 0) r = alen < blen ? -1 : (alen > blen ? 1 : 0);
  return -r;
}

static const char* ReverseName(void* state) {
  (void)state;
  return "c_api_test.reverse";
}

static void MergeDestroy(void* state) {
  (void)state;
  merge_operator_destroyed++;
}

/* Joins the existing value and the operands with '+'; fails (a result,
   but success 0) on an operand "fail". */
static char* ConcatFullMerge(void* state, const char* key, size_t key_length,
                             const char* existing_value,
                             size_t existing_value_length,
                             const char* const* operands_list,
                             const size_t* operands_list_length,
                             int num_operands, unsigned char* success,
                             size_t* new_value_length) {
  size_t total = existing_value_length + 1;
  char* result;
  size_t pos = 0;
  int i;
  (void)state;
  (void)key;
  (void)key_length;
  for (i = 0; i < num_operands; i++) total += operands_list_length[i] + 1;
  result = (char*)malloc(total);
  if (existing_value != NULL) {
    memcpy(result, existing_value, existing_value_length);
    pos = existing_value_length;
  }
  for (i = 0; i < num_operands; i++) {
    if (pos > 0) result[pos++] = '+';
    memcpy(result + pos, operands_list[i], operands_list_length[i]);
    pos += operands_list_length[i];
  }
  *new_value_length = pos;
  *success = 1;
  for (i = 0; i < num_operands; i++) {
    if (operands_list_length[i] == 4 &&
        memcmp(operands_list[i], "fail", 4) == 0)
      *success = 0;
  }
  return result;
}

/* Joins operands alone, as the full merge does. */
static char* ConcatPartialMerge(void* state, const char* key, size_t key_length,
                                const char* const* operands_list,
                                const size_t* operands_list_length,
                                int num_operands, unsigned char* success,
                                size_t* new_value_length) {
  return ConcatFullMerge(state, key, key_length, NULL, 0, operands_list,
                         operands_list_length, num_operands, success,
                         new_value_length);
}

static int values_deleted = 0;

static void FreeValue(void* state, const char* value, size_t value_length) {
  (void)state;
  (void)value_length;
  values_deleted++;
  free((void*)value);
}

static const char* ConcatName(void* state) {
  (void)state;
  return "c_api_test.concat";
}

static void TestCallbacks(void) {
  strata_options_t* options = strata_options_create();
  strata_comparator_t* cmp = strata_comparator_create(
      NULL, ComparatorDestroy, ReverseCompare, ReverseName);
  strata_mergeoperator_t* merge =
      strata_mergeoperator_create(NULL, MergeDestroy, ConcatFullMerge,
                                  ConcatPartialMerge, FreeValue, ConcatName);
  char* err = NULL;
  strata_t* db;
  strata_iterator_t* it;

  MakeDbName("callbacks");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  strata_options_set_comparator(options, cmp);
  strata_options_set_merge_operator(options, merge);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);

  strata_put(db, wo, "a", 1, "1", 1, &err);
  strata_put(db, wo, "c", 1, "3", 1, &err);
  strata_put(db, wo, "b", 1, "2", 1, &err);
  CHECK_NO_ERROR(err);
  it = strata_create_iterator(db, ro);
  strata_iter_seek_to_first(it);
  CHECK(KeyIs(it, "c"));
  strata_iter_next(it);
  CHECK(KeyIs(it, "b"));
  strata_iter_next(it);
  CHECK(KeyIs(it, "a"));
  strata_iter_destroy(it);

  strata_merge(db, wo, "m", 1, "x", 1, &err);
  strata_merge(db, wo, "m", 1, "y", 1, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "m", "x+y");
  strata_put(db, wo, "n", 1, "base", 4, &err);
  strata_merge(db, wo, "n", 1, "z", 1, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "n", "base+z");
  CHECK(values_deleted >= 2);

  /* A merge that fails makes the read fail; its buffer is still given
     back. */
  {
    int deleted_before = values_deleted;
    size_t len = 0;
    char* v;
    strata_merge(db, wo, "bad", 3, "fail", 4, &err);
    CHECK_NO_ERROR(err);
    v = strata_get(db, ro, "bad", 3, &len, &err);
    CHECK(v == NULL);
    CHECK(err != NULL);
    strata_free(err);
    err = NULL;
    CHECK(values_deleted > deleted_before);
    strata_delete(db, wo, "bad", 3, &err);
    CHECK_NO_ERROR(err);
  }

  /* Through a flush and compaction, in the comparator's order. */
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  strata_merge(db, wo, "m", 1, "w", 1, &err);
  CHECK_NO_ERROR(err);
  strata_compact_range(db, NULL, 0, NULL, 0);
  CheckGet(db, ro, "m", "x+y+w");
  CheckGet(db, ro, "b", "2");
  strata_close(db);

  /* The options own the merge operator; the comparator is the caller's. */
  CHECK(merge_operator_destroyed == 0);
  Destroy(options);
  strata_options_destroy(options);
  CHECK(merge_operator_destroyed == 1);
  CHECK(comparator_destroyed == 0);
  strata_comparator_destroy(cmp);
  CHECK(comparator_destroyed == 1);

  /* A merge operator never handed to options is destroyed by its maker. */
  merge =
      strata_mergeoperator_create(NULL, MergeDestroy, ConcatFullMerge,
                                  ConcatPartialMerge, FreeValue, ConcatName);
  strata_mergeoperator_destroy(merge);
  CHECK(merge_operator_destroyed == 2);
}

/* ---- Table options, block cache, bloom filters ---- */

static void TestTableOptions(void) {
  strata_options_t* options = strata_options_create();
  strata_block_based_table_options_t* table =
      strata_block_based_options_create();
  strata_lru_cache_options_t* cache_options = strata_lru_cache_options_create();
  strata_cache_t* cache;
  strata_cache_t* other;
  char* err = NULL;
  strata_t* db;
  int i;
  char key[16];

  strata_lru_cache_options_set_capacity(cache_options, 1 << 20);
  strata_lru_cache_options_set_num_shard_bits(cache_options, 2);
  cache = strata_cache_create_lru_opts(cache_options);
  strata_lru_cache_options_destroy(cache_options);
  CHECK(strata_cache_get_capacity(cache) == 1 << 20);
  strata_cache_set_capacity(cache, 2 << 20);
  CHECK(strata_cache_get_capacity(cache) == 2 << 20);
  CHECK(strata_cache_get_usage(cache) == 0);
  CHECK(strata_cache_get_pinned_usage(cache) == 0);

  other = strata_cache_create_lru(4096);
  CHECK(strata_cache_get_capacity(other) == 4096);
  strata_cache_destroy(other);
  other = strata_cache_create_lru_with_strict_capacity_limit(4096);
  CHECK(strata_cache_get_capacity(other) == 4096);
  strata_cache_destroy(other);

  strata_block_based_options_set_block_size(table, 1024);
  strata_block_based_options_set_block_restart_interval(table, 8);
  strata_block_based_options_set_index_block_restart_interval(table, 1);
  strata_block_based_options_set_filter_policy(
      table, strata_filterpolicy_create_bloom_full(10));
  /* A second policy replaces (and frees) the first. */
  strata_block_based_options_set_filter_policy(
      table, strata_filterpolicy_create_bloom(10));
  strata_block_based_options_set_whole_key_filtering(table, 1);
  strata_block_based_options_set_cache_index_and_filter_blocks(table, 1);
  strata_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(
      table, 1);
  strata_block_based_options_set_no_block_cache(table, 0);
  strata_block_based_options_set_block_cache(table, cache);
  strata_options_set_block_based_table_factory(options, table);
  strata_block_based_options_destroy(table);
  strata_filterpolicy_destroy(strata_filterpolicy_create_bloom(5));

  MakeDbName("table");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  for (i = 0; i < 200; i++) {
    snprintf(key, sizeof(key), "key%03d", i);
    strata_put(db, wo, key, strlen(key), key, strlen(key), &err);
    CHECK_NO_ERROR(err);
  }
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "key042", "key042");
  CheckGet(db, ro, "key999", NULL);
  /* The table's blocks went through the caller's cache. */
  CHECK(strata_cache_get_usage(cache) > 0);
  strata_close(db);
  strata_cache_destroy(cache); /* the options still hold it */

  Destroy(options);
  strata_options_destroy(options);
}

/* ---- Envs, prefix extractors, statistics ---- */

static int transform_destroyed = 0;

static void TransformDestroy(void* state) {
  (void)state;
  transform_destroyed++;
}

/* The prefix is everything before the first '.'; keys without one have
   none. */
static char* DotTransform(void* state, const char* key, size_t length,
                          size_t* dst_length) {
  const char* dot = (const char*)memchr(key, '.', length);
  (void)state;
  *dst_length = (size_t)(dot - key);
  return (char*)key;
}

static unsigned char DotInDomain(void* state, const char* key, size_t length) {
  (void)state;
  return memchr(key, '.', length) != NULL;
}

static unsigned char DotInRange(void* state, const char* key, size_t length) {
  (void)state;
  (void)key;
  (void)length;
  return 0;
}

static const char* DotName(void* state) {
  (void)state;
  return "c_api_test.dot";
}

/* Writes keys of three prefixes, flushes them into a table and checks
   that an iterator with prefix_same_as_start stays in the prefix. */
static void CheckPrefixIteration(strata_slicetransform_t* extractor,
                                 const char* const keys[4], const char* seek,
                                 const char* first, const char* second) {
  strata_options_t* options = strata_options_create();
  strata_readoptions_t* prefix_ro = strata_readoptions_create();
  strata_iterator_t* it;
  char* err = NULL;
  strata_t* db;
  int i;

  MakeDbName("prefix");
  Destroy(options);
  strata_options_set_create_if_missing(options, 1);
  strata_options_set_prefix_extractor(options, extractor);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  for (i = 0; i < 4; i++) {
    strata_put(db, wo, keys[i], strlen(keys[i]), "v", 1, &err);
    CHECK_NO_ERROR(err);
  }
  strata_flush(db, fo, &err);
  CHECK_NO_ERROR(err);

  strata_readoptions_set_prefix_same_as_start(prefix_ro, 1);
  it = strata_create_iterator(db, prefix_ro);
  strata_iter_seek(it, seek, strlen(seek));
  CHECK(KeyIs(it, first));
  strata_iter_next(it);
  if (second == NULL) {
    CHECK(!strata_iter_valid(it));
  } else {
    CHECK(KeyIs(it, second));
    strata_iter_next(it);
    CHECK(!strata_iter_valid(it));
  }
  strata_iter_destroy(it);
  strata_close(db);
  Destroy(options);
  strata_readoptions_destroy(prefix_ro);
  strata_options_destroy(options);
}

static void TestEnvAndPrefixes(void) {
  strata_env_t* env = strata_create_default_env();
  strata_env_t* mem = strata_create_mem_env();
  strata_options_t* options = strata_options_create();
  char* err = NULL;
  strata_t* db;
  char* stats;
  char path[1200];
  FILE* f;

  /* Thread pools of the default Env (left as they were). */
  {
    int low = strata_env_get_low_priority_background_threads(env);
    int high = strata_env_get_high_priority_background_threads(env);
    int bottom = strata_env_get_bottom_priority_background_threads(env);
    CHECK(strata_env_get_background_threads(env) == low);
    strata_env_set_background_threads(env, low + 1);
    CHECK(strata_env_get_low_priority_background_threads(env) == low + 1);
    strata_env_set_low_priority_background_threads(env, low);
    strata_env_set_high_priority_background_threads(env, high + 1);
    CHECK(strata_env_get_high_priority_background_threads(env) == high + 1);
    strata_env_set_high_priority_background_threads(env, high);
    strata_env_set_bottom_priority_background_threads(env, bottom + 1);
    CHECK(strata_env_get_bottom_priority_background_threads(env) == bottom + 1);
    strata_env_set_bottom_priority_background_threads(env, bottom);
  }

  /* A DB in memory: nothing of it on disk. (A relative name: the memory
     Env has the current directory and "/", not the disk's directories.) */
  snprintf(db_name, sizeof(db_name), "strata_c_api_test_mem");
  strata_options_set_env(options, mem);
  strata_options_set_create_if_missing(options, 1);
  strata_options_enable_statistics(options);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  strata_put(db, wo, "k", 1, "v", 1, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, ro, "k", "v");
  snprintf(path, sizeof(path), "%s/CURRENT", db_name);
  f = fopen(path, "rb");
  CHECK(f == NULL);
  stats = strata_options_statistics_get_string(options);
  CHECK(stats != NULL && strlen(stats) > 0);
  strata_free(stats);
  strata_close(db);
  strata_destroy_db(options, db_name, &err);
  CHECK_NO_ERROR(err);
  strata_options_set_env(options, NULL);
  strata_options_destroy(options);
  strata_env_destroy(mem);
  strata_env_destroy(env);

  /* Without statistics there is no string. */
  options = strata_options_create();
  CHECK(strata_options_statistics_get_string(options) == NULL);
  strata_options_destroy(options);

  /* Prefix extractors: fixed, C callbacks, noop. */
  {
    const char* fixed_keys[4] = {"aa1", "ab1", "ab2", "ac1"};
    const char* dot_keys[4] = {"x.1", "yy.1", "yy.2", "z.1"};
    const char* noop_keys[4] = {"a", "b", "c", "d"};
    CheckPrefixIteration(strata_slicetransform_create_fixed_prefix(2),
                         fixed_keys, "ab", "ab1", "ab2");
    CheckPrefixIteration(
        strata_slicetransform_create(NULL, TransformDestroy, DotTransform,
                                     DotInDomain, DotInRange, DotName),
        dot_keys, "yy.", "yy.1", "yy.2");
    CHECK(transform_destroyed == 1); /* the options owned it */
    CheckPrefixIteration(strata_slicetransform_create_noop(), noop_keys, "b",
                         "b", NULL);
    strata_slicetransform_destroy(strata_slicetransform_create_fixed_prefix(3));
  }
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
  strata_compactoptions_destroy(co);
  strata_flushoptions_destroy(fo);
  strata_writeoptions_destroy(wo);
  strata_readoptions_destroy(ro);
  printf("c_api_test: PASS\n");
  return 0;
}
