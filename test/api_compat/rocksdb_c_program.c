/* A program written against RocksDB's C API (rocksdb/c.h), the part that
   strata's include/strata/c.h covers. The build compiles it as is against
   RocksDB when it is installed, and with "rocksdb" replaced by "strata"
   against strata (test api_compat_c); both must print the same, and what
   they print is recorded in rocksdb_c_program.expected. Like
   rocksdb_column_families.cc it prints only what both engines must agree
   on: keys, values, counts, names, and whether a call failed (never the
   message). Argument: the DB directory (a second DB goes in <dir>_rev). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocksdb/c.h"

static char* err = NULL;

/* Prints "<what>: ok" or "<what>: error" and forgets the message. */
static void Report(const char* what) {
  printf("%s: %s\n", what, err == NULL ? "ok" : "error");
  rocksdb_free(err);
  err = NULL;
}

static void PrintBytes(const char* data, size_t len) {
  size_t i;
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)data[i];
    if (c >= 0x20 && c < 0x7f) {
      putchar(c);
    } else {
      printf("\\x%02x", c);
    }
  }
}

static void PrintGet(rocksdb_t* db, const rocksdb_readoptions_t* ro,
                     rocksdb_column_family_handle_t* cf, const char* key) {
  size_t len = 0;
  char* value = rocksdb_get_cf(db, ro, cf, key, strlen(key), &len, &err);
  printf("get %s: ", key);
  if (err != NULL) {
    printf("error");
  } else if (value == NULL) {
    printf("(none)");
  } else {
    PrintBytes(value, len);
  }
  printf("\n");
  rocksdb_free(value);
  rocksdb_free(err);
  err = NULL;
}

static void PrintIterator(rocksdb_iterator_t* it, const char* label) {
  printf("%s:", label);
  for (; rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
    size_t klen;
    size_t vlen;
    const char* key = rocksdb_iter_key(it, &klen);
    const char* value;
    printf(" ");
    PrintBytes(key, klen);
    value = rocksdb_iter_value(it, &vlen);
    printf("=");
    PrintBytes(value, vlen);
  }
  rocksdb_iter_get_error(it, &err);
  printf("%s\n", err == NULL ? "" : " (error)");
  rocksdb_free(err);
  err = NULL;
}

static void BatchPut(void* state, const char* k, size_t klen, const char* v,
                     size_t vlen) {
  (void)state;
  printf(" put(");
  PrintBytes(k, klen);
  printf(",");
  PrintBytes(v, vlen);
  printf(")");
}

static void BatchDelete(void* state, const char* k, size_t klen) {
  (void)state;
  printf(" delete(");
  PrintBytes(k, klen);
  printf(")");
}

/* A merge operator joining the operands with ','. */
static void NoDestroy(void* state) { (void)state; }

static char* JoinMerge(void* state, const char* key, size_t key_length,
                       const char* existing, size_t existing_length,
                       const char* const* operands, const size_t* lengths,
                       int num_operands, unsigned char* success,
                       size_t* new_length) {
  size_t total = existing_length + 1;
  size_t pos = 0;
  char* result;
  int i;
  (void)state;
  (void)key;
  (void)key_length;
  for (i = 0; i < num_operands; i++) total += lengths[i] + 1;
  result = (char*)malloc(total);
  if (existing != NULL) {
    memcpy(result, existing, existing_length);
    pos = existing_length;
  }
  for (i = 0; i < num_operands; i++) {
    if (pos > 0) result[pos++] = ',';
    memcpy(result + pos, operands[i], lengths[i]);
    pos += lengths[i];
  }
  *success = 1;
  *new_length = pos;
  return result;
}

static char* JoinPartial(void* state, const char* key, size_t key_length,
                         const char* const* operands, const size_t* lengths,
                         int num_operands, unsigned char* success,
                         size_t* new_length) {
  return JoinMerge(state, key, key_length, NULL, 0, operands, lengths,
                   num_operands, success, new_length);
}

static void FreeMerged(void* state, const char* value, size_t length) {
  (void)state;
  (void)length;
  free((void*)value);
}

static const char* JoinName(void* state) {
  (void)state;
  return "api_compat.join";
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
  return "api_compat.reverse";
}

int main(int argc, char** argv) {
  const char* name;
  char rev_name[1024];
  rocksdb_options_t* options = rocksdb_options_create();
  rocksdb_options_t* fruit_options = rocksdb_options_create();
  rocksdb_readoptions_t* ro = rocksdb_readoptions_create();
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();
  rocksdb_flushoptions_t* fo = rocksdb_flushoptions_create();
  rocksdb_block_based_table_options_t* table =
      rocksdb_block_based_options_create();
  rocksdb_cache_t* cache = rocksdb_cache_create_lru(1 << 20);
  const char* names[2] = {"default", "fruit"};
  const rocksdb_options_t* family_options[2];
  rocksdb_column_family_handle_t* handles[2];
  rocksdb_column_family_handle_t* cf;
  rocksdb_column_family_handle_t* extra;
  rocksdb_t* db;
  rocksdb_iterator_t* it;
  rocksdb_writebatch_t* batch;
  char** list;
  size_t count;
  size_t i;

  if (argc != 2) {
    fprintf(stderr, "usage: %s <db directory>\n", argv[0]);
    return 2;
  }
  name = argv[1];
  snprintf(rev_name, sizeof(rev_name), "%s_rev", name);

  rocksdb_destroy_db(options, name, &err);
  Report("destroy");
  db = rocksdb_open(options, name, &err);
  Report("open missing");
  printf("db: %s\n", db == NULL ? "null" : "open");

  rocksdb_block_based_options_set_block_size(table, 1024);
  rocksdb_block_based_options_set_filter_policy(
      table, rocksdb_filterpolicy_create_bloom_full(10));
  rocksdb_block_based_options_set_block_cache(table, cache);
  rocksdb_options_set_block_based_table_factory(options, table);
  rocksdb_options_set_create_if_missing(options, 1);
  rocksdb_options_set_create_missing_column_families(options, 1);
  rocksdb_options_set_compression(options, rocksdb_no_compression);
  rocksdb_options_set_merge_operator(
      fruit_options,
      rocksdb_mergeoperator_create(NULL, NoDestroy, JoinMerge, JoinPartial,
                                   FreeMerged, JoinName));
  family_options[0] = options;
  family_options[1] = fruit_options;
  db = rocksdb_open_column_families(options, name, 2, names, family_options,
                                    handles, &err);
  Report("open with families");
  cf = handles[1];
  {
    size_t len;
    char* cf_name = rocksdb_column_family_handle_get_name(cf, &len);
    printf("family: ");
    PrintBytes(cf_name, len);
    printf("\n");
    rocksdb_free(cf_name);
  }

  /* Single writes. */
  rocksdb_put_cf(db, wo, handles[0], "a", 1, "1", 1, &err);
  rocksdb_put_cf(db, wo, handles[0], "b", 1, "2", 1, &err);
  rocksdb_put(db, wo, "c", 1, "3\0x", 3, &err);
  rocksdb_put(db, wo, "d", 1, "4", 1, &err);
  rocksdb_put(db, wo, "e", 1, "5", 1, &err);
  Report("puts");
  rocksdb_delete(db, wo, "b", 1, &err);
  rocksdb_singledelete(db, wo, "d", 1, &err);
  Report("deletes");
  rocksdb_put_cf(db, wo, cf, "apple", 5, "red", 3, &err);
  rocksdb_put_cf(db, wo, cf, "banana", 6, "yellow", 6, &err);
  rocksdb_put_cf(db, wo, cf, "cherry", 6, "dark", 4, &err);
  rocksdb_merge_cf(db, wo, cf, "apple", 5, "green", 5, &err);
  rocksdb_merge_cf(db, wo, cf, "fig", 3, "purple", 6, &err);
  rocksdb_merge_cf(db, wo, cf, "fig", 3, "black", 5, &err);
  Report("family writes");
  rocksdb_delete_range_cf(db, wo, cf, "b", 1, "c", 1, &err);
  Report("delete range");
  rocksdb_merge(db, wo, "a", 1, "x", 1, &err);
  Report("merge without an operator");
  PrintGet(db, ro, handles[0], "a");
  PrintGet(db, ro, handles[0], "b");
  PrintGet(db, ro, handles[0], "c");
  PrintGet(db, ro, handles[0], "d");
  PrintGet(db, ro, cf, "apple");
  PrintGet(db, ro, cf, "banana");
  PrintGet(db, ro, cf, "fig");

  /* A batch across families, iterated and copied. */
  batch = rocksdb_writebatch_create();
  rocksdb_writebatch_put(batch, "f", 1, "6", 1);
  rocksdb_writebatch_delete(batch, "a", 1);
  rocksdb_writebatch_put_cf(batch, cf, "grape", 5, "green", 5);
  rocksdb_writebatch_merge_cf(batch, cf, "grape", 5, "ripe", 4);
  rocksdb_writebatch_delete_range_cf(batch, cf, "ch", 2, "ci", 2);
  printf("batch count: %d\n", rocksdb_writebatch_count(batch));
  {
    size_t size;
    const char* data = rocksdb_writebatch_data(batch, &size);
    rocksdb_writebatch_t* copy = rocksdb_writebatch_create_from(data, size);
    printf("copy count: %d\n", rocksdb_writebatch_count(copy));
    rocksdb_writebatch_clear(copy);
    rocksdb_writebatch_put(copy, "k", 1, "v", 1);
    rocksdb_writebatch_delete(copy, "k", 1);
    printf("iterate:");
    rocksdb_writebatch_iterate(copy, NULL, BatchPut, BatchDelete);
    printf("\n");
    rocksdb_writebatch_destroy(copy);
  }
  rocksdb_write(db, wo, batch, &err);
  Report("write");
  rocksdb_writebatch_destroy(batch);

  /* Snapshots, pinned reads, multi-get. */
  {
    const rocksdb_snapshot_t* snap = rocksdb_create_snapshot(db);
    rocksdb_pinnableslice_t* pinned;
    const char* keys[3] = {"c", "zz", "f"};
    size_t key_sizes[3] = {1, 2, 1};
    char* values[3];
    size_t value_sizes[3];
    char* errs[3];
    rocksdb_put(db, wo, "f", 1, "66", 2, &err);
    rocksdb_readoptions_set_snapshot(ro, snap);
    PrintGet(db, ro, handles[0], "f");
    rocksdb_readoptions_set_snapshot(ro, NULL);
    PrintGet(db, ro, handles[0], "f");
    rocksdb_release_snapshot(db, snap);

    pinned = rocksdb_get_pinned_cf(db, ro, cf, "grape", 5, &err);
    Report("pinned");
    if (pinned != NULL) {
      size_t len;
      const char* value = rocksdb_pinnableslice_value(pinned, &len);
      printf("pinned grape: ");
      PrintBytes(value, len);
      printf("\n");
      rocksdb_pinnableslice_destroy(pinned);
    }
    printf("pinned missing: %s\n",
           rocksdb_get_pinned(db, ro, "zz", 2, &err) == NULL ? "null" : "?");

    rocksdb_multi_get(db, ro, 3, keys, key_sizes, values, value_sizes, errs);
    printf("multi_get:");
    for (i = 0; i < 3; i++) {
      printf(" ");
      if (errs[i] != NULL) {
        printf("error");
      } else if (values[i] == NULL) {
        printf("(none)");
      } else {
        PrintBytes(values[i], value_sizes[i]);
      }
      rocksdb_free(values[i]);
      rocksdb_free(errs[i]);
    }
    printf("\n");
  }

  /* Iterators. */
  it = rocksdb_create_iterator_cf(db, ro, cf);
  rocksdb_iter_seek_to_first(it);
  PrintIterator(it, "fruit");
  rocksdb_iter_seek_to_last(it);
  rocksdb_iter_prev(it);
  PrintIterator(it, "fruit from second last");
  rocksdb_iter_seek_for_prev(it, "d", 1);
  PrintIterator(it, "fruit from d back");
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_set_iterate_lower_bound(ro, "c", 1);
  rocksdb_readoptions_set_iterate_upper_bound(ro, "f", 1);
  it = rocksdb_create_iterator(db, ro);
  rocksdb_iter_seek_to_first(it);
  PrintIterator(it, "default in [c, f)");
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  ro = rocksdb_readoptions_create();

  /* Flush and compaction keep the data. */
  rocksdb_flush_cf(db, fo, cf, &err);
  Report("flush");
  rocksdb_compact_range_cf(db, cf, NULL, 0, NULL, 0);
  rocksdb_merge_cf(db, wo, cf, "fig", 3, "dried", 5, &err);
  rocksdb_flush(db, fo, &err);
  Report("flush default");
  rocksdb_compact_range(db, NULL, 0, NULL, 0);
  PrintGet(db, ro, cf, "fig");
  PrintGet(db, ro, handles[0], "c");

  /* Families: create, drop, list. */
  extra = rocksdb_create_column_family(db, options, "extra", &err);
  Report("create family");
  {
    /* RocksDB returns a handle (of no family) on failure, strata NULL;
       destroying either is fine. */
    rocksdb_column_family_handle_t* again =
        rocksdb_create_column_family(db, options, "extra", &err);
    Report("create it again");
    rocksdb_column_family_handle_destroy(again);
  }
  rocksdb_drop_column_family(db, extra, &err);
  Report("drop family");
  rocksdb_put_cf(db, wo, extra, "k", 1, "v", 1, &err);
  Report("write to dropped family");
  rocksdb_column_family_handle_destroy(extra);
  rocksdb_column_family_handle_destroy(handles[0]);
  rocksdb_column_family_handle_destroy(handles[1]);
  rocksdb_close(db);

  list = rocksdb_list_column_families(options, name, &count, &err);
  Report("list");
  printf("families:");
  for (i = 0; i < count; i++) printf(" %s", list[i]);
  printf("\n");
  rocksdb_list_column_families_destroy(list, count);
  db = rocksdb_open(options, name, &err);
  Report("open without naming the families");

  /* A second DB ordered by a C comparator. */
  {
    rocksdb_options_t* rev = rocksdb_options_create();
    rocksdb_comparator_t* cmp =
        rocksdb_comparator_create(NULL, NoDestroy, ReverseCompare, ReverseName);
    rocksdb_options_set_create_if_missing(rev, 1);
    rocksdb_options_set_comparator(rev, cmp);
    rocksdb_destroy_db(rev, rev_name, &err);
    db = rocksdb_open(rev, rev_name, &err);
    Report("open reversed");
    rocksdb_put(db, wo, "a", 1, "1", 1, &err);
    rocksdb_put(db, wo, "c", 1, "3", 1, &err);
    rocksdb_put(db, wo, "b", 1, "2", 1, &err);
    it = rocksdb_create_iterator(db, ro);
    rocksdb_iter_seek_to_first(it);
    PrintIterator(it, "reversed");
    rocksdb_iter_destroy(it);
    rocksdb_close(db);
    rocksdb_destroy_db(rev, rev_name, &err);
    Report("destroy reversed");
    rocksdb_options_destroy(rev);
    rocksdb_comparator_destroy(cmp);
  }

  rocksdb_destroy_db(options, name, &err);
  Report("destroy");
  rocksdb_cache_destroy(cache);
  rocksdb_block_based_options_destroy(table);
  rocksdb_flushoptions_destroy(fo);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_readoptions_destroy(ro);
  rocksdb_options_destroy(fruit_options);
  rocksdb_options_destroy(options);
  return 0;
}
