/* The C API from C: comparators and merge operators as C callbacks,
   table options, caches and bloom filters, Envs, prefix extractors and
   statistics. */

#include <stdlib.h>
#include <string.h>

#include "test/c/c_api_test.h"

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

void TestCallbacks(void) {
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

void TestTableOptions(void) {
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

void TestEnvAndPrefixes(void) {
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
