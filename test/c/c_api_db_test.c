/* The C API from C: the error convention, every options setter and
   getter, and the reads and writes of the default family. */

#include <stdlib.h>
#include <string.h>

#include "test/c/c_api_test.h"

/* ---- The error convention ---- */

void TestErrors(void) {
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
  strata_options_set_compaction_style(options, strata_universal_compaction);
  db = strata_open(options, db_name, &err);
  CHECK(db == NULL);
  CHECK(err != NULL && strstr(err, "kCompactionStyleUniversal") != NULL);
  strata_free(err);
  err = NULL;
  strata_options_set_compaction_style(options, strata_level_compaction);
  db = strata_open(options, db_name, &err);
  CHECK_NO_ERROR(err);
  strata_close(db);

  Destroy(options);
  strata_options_destroy(options);
}

/* ---- Options: every setter, read back through its getter ---- */

void TestOptions(void) {
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
  CHECK(strata_options_get_compaction_style(o) == strata_level_compaction);
  CHECK_OPTION(compaction_style, 3); /* kCompactionStyleNone */
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
  CHECK_OPTION(unordered_write_snapshot_safe, 1);
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
/* ---- Reads and writes of the default family ---- */

void TestReadsAndWrites(void) {
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
