/* strata's C API: the subset of RocksDB 7.8's rocksdb/c.h that strata
   implements, with every rocksdb_ prefix spelt strata_. A program written
   against rocksdb/c.h builds against this header by renaming; a function
   missing here is one strata does not have yet (docs/c_api.md lists them).

   Conventions (the same as RocksDB's):
   - Every object is an opaque pointer, made by a _create (or open)
     function and released by the matching _destroy (or close) function.
   - Keys and values are passed as a pointer and a length; they may hold
     any bytes, NUL included.
   - Bools are unsigned char: 0 is false, anything else true.
   - A function that can fail takes "char** errptr" last. On entry *errptr
     is NULL or a message from an earlier failure. On success it is left
     as it is; on failure the earlier message is freed and *errptr set to
     a new NUL-terminated message, which the caller frees with
     strata_free.
   - Memory this API hands out (values, property strings, names) comes from
     malloc and is released with strata_free, never with the caller's own
     free: the library may use a different C runtime (a DLL on Windows).
   - Pointer arguments must not be NULL unless the function says so.

   Thread safety: a strata_t may be used from many threads at once, as the
   C++ DB. Every other object (options, write batch, iterator, pinnable
   slice) belongs to one thread at a time.

   The header is C89 and C++ (extern "C"). */

#ifndef STRATA_INCLUDE_C_H_
#define STRATA_INCLUDE_C_H_

#include <stddef.h>
#include <stdint.h>

#include "strata/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Types ---- */

typedef struct strata_t strata_t;
typedef struct strata_block_based_table_options_t
    strata_block_based_table_options_t;
typedef struct strata_cache_t strata_cache_t;
typedef struct strata_column_family_handle_t strata_column_family_handle_t;
typedef struct strata_column_family_metadata_t strata_column_family_metadata_t;
typedef struct strata_comparator_t strata_comparator_t;
typedef struct strata_compactoptions_t strata_compactoptions_t;
typedef struct strata_env_t strata_env_t;
typedef struct strata_filterpolicy_t strata_filterpolicy_t;
typedef struct strata_flushoptions_t strata_flushoptions_t;
typedef struct strata_iterator_t strata_iterator_t;
typedef struct strata_level_metadata_t strata_level_metadata_t;
typedef struct strata_livefiles_t strata_livefiles_t;
typedef struct strata_lru_cache_options_t strata_lru_cache_options_t;
typedef struct strata_mergeoperator_t strata_mergeoperator_t;
typedef struct strata_options_t strata_options_t;
typedef struct strata_pinnableslice_t strata_pinnableslice_t;
typedef struct strata_ratelimiter_t strata_ratelimiter_t;
typedef struct strata_readoptions_t strata_readoptions_t;
typedef struct strata_slicetransform_t strata_slicetransform_t;
typedef struct strata_snapshot_t strata_snapshot_t;
typedef struct strata_sst_file_metadata_t strata_sst_file_metadata_t;
typedef struct strata_writebatch_t strata_writebatch_t;
typedef struct strata_writeoptions_t strata_writeoptions_t;

/* ---- Opening, closing, destroying ---- */

/* Opens the DB in directory name; NULL and *errptr set on failure (a
   missing DB without create_if_missing, a DB another process holds, a
   DB with column families other than "default": open those with
   strata_open_column_families). */
STRATA_EXPORT strata_t* strata_open(const strata_options_t* options,
                                    const char* name, char** errptr);

/* Opens a DB with its column families: column_family_names and
   column_family_options hold num_column_families entries naming
   "default" and every family the DB has. On success
   column_family_handles[i] is the handle of column_family_names[i], for
   the caller to release with strata_column_family_handle_destroy before
   strata_close. */
STRATA_EXPORT strata_t* strata_open_column_families(
    const strata_options_t* options, const char* name, int num_column_families,
    const char* const* column_family_names,
    const strata_options_t* const* column_family_options,
    strata_column_family_handle_t** column_family_handles, char** errptr);

/* Closes the DB and frees it. Iterators, snapshots and column family
   handles of the DB must be released first. */
STRATA_EXPORT void strata_close(strata_t* db);

/* Deletes the DB in directory name and its files; the DB must not be
   open. A missing DB is not an error. */
STRATA_EXPORT void strata_destroy_db(const strata_options_t* options,
                                     const char* name, char** errptr);

/* Rebuilds the MANIFEST of the DB in directory name from its tables and
   WALs (RepairDB with options for the DB and every family found); the DB
   must not be open. Damaged files are moved to name/lost/. */
STRATA_EXPORT void strata_repair_db(const strata_options_t* options,
                                    const char* name, char** errptr);

/* ---- Column families ---- */

/* The names of the column families of the DB in name, "default" first;
   *lencf is their number. Release the array with
   strata_list_column_families_destroy. */
STRATA_EXPORT char** strata_list_column_families(
    const strata_options_t* options, const char* name, size_t* lencf,
    char** errptr);
STRATA_EXPORT void strata_list_column_families_destroy(char** list, size_t len);

/* Creates a column family with the options of column_family_options (its
   column family half); the handle is the caller's. NULL on failure
   (RocksDB returns a handle of no family there). */
STRATA_EXPORT strata_column_family_handle_t* strata_create_column_family(
    strata_t* db, const strata_options_t* column_family_options,
    const char* column_family_name, char** errptr);

/* Drops the family: it takes no more writes and its data goes once no
   handle uses it. The handle must still be destroyed. */
STRATA_EXPORT void strata_drop_column_family(
    strata_t* db, strata_column_family_handle_t* handle, char** errptr);

/* Releases a handle; NULL (a failed create) is ignored. */
STRATA_EXPORT void strata_column_family_handle_destroy(
    strata_column_family_handle_t*);
STRATA_EXPORT uint32_t
strata_column_family_handle_get_id(strata_column_family_handle_t* handle);

/* The family's name, not NUL-terminated, *name_len bytes; free it with
   strata_free. */
STRATA_EXPORT char* strata_column_family_handle_get_name(
    strata_column_family_handle_t* handle, size_t* name_len);

/* ---- Writes ---- */

/* The single-update writes. The forms without _cf write the default
   family. */
STRATA_EXPORT void strata_put(strata_t* db,
                              const strata_writeoptions_t* options,
                              const char* key, size_t keylen, const char* val,
                              size_t vallen, char** errptr);
STRATA_EXPORT void strata_put_cf(strata_t* db,
                                 const strata_writeoptions_t* options,
                                 strata_column_family_handle_t* column_family,
                                 const char* key, size_t keylen,
                                 const char* val, size_t vallen, char** errptr);
STRATA_EXPORT void strata_delete(strata_t* db,
                                 const strata_writeoptions_t* options,
                                 const char* key, size_t keylen, char** errptr);
STRATA_EXPORT void strata_delete_cf(
    strata_t* db, const strata_writeoptions_t* options,
    strata_column_family_handle_t* column_family, const char* key,
    size_t keylen, char** errptr);
STRATA_EXPORT void strata_singledelete(strata_t* db,
                                       const strata_writeoptions_t* options,
                                       const char* key, size_t keylen,
                                       char** errptr);
STRATA_EXPORT void strata_singledelete_cf(
    strata_t* db, const strata_writeoptions_t* options,
    strata_column_family_handle_t* column_family, const char* key,
    size_t keylen, char** errptr);

/* Deletes the keys in [start_key, end_key) of the family. */
STRATA_EXPORT void strata_delete_range_cf(
    strata_t* db, const strata_writeoptions_t* options,
    strata_column_family_handle_t* column_family, const char* start_key,
    size_t start_key_len, const char* end_key, size_t end_key_len,
    char** errptr);

/* Fails unless the family has a merge operator. */
STRATA_EXPORT void strata_merge(strata_t* db,
                                const strata_writeoptions_t* options,
                                const char* key, size_t keylen, const char* val,
                                size_t vallen, char** errptr);
STRATA_EXPORT void strata_merge_cf(strata_t* db,
                                   const strata_writeoptions_t* options,
                                   strata_column_family_handle_t* column_family,
                                   const char* key, size_t keylen,
                                   const char* val, size_t vallen,
                                   char** errptr);

/* Applies every update of batch atomically; batch stays the caller's. */
STRATA_EXPORT void strata_write(strata_t* db,
                                const strata_writeoptions_t* options,
                                strata_writebatch_t* batch, char** errptr);

/* ---- Reads ---- */

/* The value of key, malloc'ed (free it with strata_free), *vallen its
   length; NULL with *vallen 0 if there is none. */
STRATA_EXPORT char* strata_get(strata_t* db,
                               const strata_readoptions_t* options,
                               const char* key, size_t keylen, size_t* vallen,
                               char** errptr);
STRATA_EXPORT char* strata_get_cf(strata_t* db,
                                  const strata_readoptions_t* options,
                                  strata_column_family_handle_t* column_family,
                                  const char* key, size_t keylen,
                                  size_t* vallen, char** errptr);

/* The value of each of the num_keys keys, all read at one sequence
   number. The caller supplies values_list, values_list_sizes and errs,
   num_keys entries each. For key i: values_list[i] is its malloc'ed
   value (NULL if missing) and errs[i] a malloc'ed message if the read
   failed, else NULL; a missing key is not an error. */
STRATA_EXPORT void strata_multi_get(
    strata_t* db, const strata_readoptions_t* options, size_t num_keys,
    const char* const* keys_list, const size_t* keys_list_sizes,
    char** values_list, size_t* values_list_sizes, char** errs);
STRATA_EXPORT void strata_multi_get_cf(
    strata_t* db, const strata_readoptions_t* options,
    const strata_column_family_handle_t* const* column_families,
    size_t num_keys, const char* const* keys_list,
    const size_t* keys_list_sizes, char** values_list,
    size_t* values_list_sizes, char** errs);

/* MultiGet's batched form, for keys of one family: values[i] is a pinned
   value (strata_pinnableslice_destroy) or NULL, errs[i] a malloc'ed
   message or NULL (a missing key is not an error). sorted_input: the
   caller promises the keys are in the family's order. Declared for C99
   and C++ only, as it takes a bool. */
#if defined(__cplusplus) || \
    (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#ifndef __cplusplus
#include <stdbool.h>
#endif
STRATA_EXPORT void strata_batched_multi_get_cf(
    strata_t* db, const strata_readoptions_t* options,
    strata_column_family_handle_t* column_family, size_t num_keys,
    const char* const* keys_list, const size_t* keys_list_sizes,
    strata_pinnableslice_t** values, char** errs, const bool sorted_input);
#endif

/* The value of key, pinned where it lies (a block in the block cache, the
   memtable) rather than copied when possible; NULL if there is none.
   Release it with strata_pinnableslice_destroy. */
STRATA_EXPORT strata_pinnableslice_t* strata_get_pinned(
    strata_t* db, const strata_readoptions_t* options, const char* key,
    size_t keylen, char** errptr);
STRATA_EXPORT strata_pinnableslice_t* strata_get_pinned_cf(
    strata_t* db, const strata_readoptions_t* options,
    strata_column_family_handle_t* column_family, const char* key,
    size_t keylen, char** errptr);
STRATA_EXPORT void strata_pinnableslice_destroy(strata_pinnableslice_t* v);
STRATA_EXPORT const char* strata_pinnableslice_value(
    const strata_pinnableslice_t* t, size_t* vlen);

/* An iterator over the family as of options' snapshot (or now). The
   readoptions' iterate bounds must outlive it. */
STRATA_EXPORT strata_iterator_t* strata_create_iterator(
    strata_t* db, const strata_readoptions_t* options);
STRATA_EXPORT strata_iterator_t* strata_create_iterator_cf(
    strata_t* db, const strata_readoptions_t* options,
    strata_column_family_handle_t* column_family);

/* size iterators, iterators[i] over column_families[i], all at one
   sequence number. */
STRATA_EXPORT void strata_create_iterators(
    strata_t* db, strata_readoptions_t* opts,
    strata_column_family_handle_t** column_families,
    strata_iterator_t** iterators, size_t size, char** errptr);

/* A snapshot of the DB's current state, for strata_readoptions_set_snapshot;
   release it with strata_release_snapshot before closing the DB. */
STRATA_EXPORT const strata_snapshot_t* strata_create_snapshot(strata_t* db);
STRATA_EXPORT void strata_release_snapshot(strata_t* db,
                                           const strata_snapshot_t* snapshot);

/* The sequence number of the most recent visible write. */
STRATA_EXPORT uint64_t strata_get_latest_sequence_number(strata_t* db);

/* A property ("strata.stats", "strata.num-files-at-level<N>", ...;
   docs/architecture.md) as a malloc'ed string, NULL if unknown. */
STRATA_EXPORT char* strata_property_value(strata_t* db, const char* propname);
STRATA_EXPORT char* strata_property_value_cf(
    strata_t* db, strata_column_family_handle_t* column_family,
    const char* propname);

/* An integer property in *out_val: 0 on success, -1 if unknown. */
STRATA_EXPORT int strata_property_int(strata_t* db, const char* propname,
                                      uint64_t* out_val);
STRATA_EXPORT int strata_property_int_cf(
    strata_t* db, strata_column_family_handle_t* column_family,
    const char* propname, uint64_t* out_val);

/* sizes[i] = the approximate bytes the table files give to the keys in
   [range_start_key[i], range_limit_key[i]). */
STRATA_EXPORT void strata_approximate_sizes(strata_t* db, int num_ranges,
                                            const char* const* range_start_key,
                                            const size_t* range_start_key_len,
                                            const char* const* range_limit_key,
                                            const size_t* range_limit_key_len,
                                            uint64_t* sizes, char** errptr);
STRATA_EXPORT void strata_approximate_sizes_cf(
    strata_t* db, strata_column_family_handle_t* column_family, int num_ranges,
    const char* const* range_start_key, const size_t* range_start_key_len,
    const char* const* range_limit_key, const size_t* range_limit_key_len,
    uint64_t* sizes, char** errptr);

/* ---- Maintenance ---- */

STRATA_EXPORT void strata_flush(strata_t* db,
                                const strata_flushoptions_t* options,
                                char** errptr);
STRATA_EXPORT void strata_flush_cf(strata_t* db,
                                   const strata_flushoptions_t* options,
                                   strata_column_family_handle_t* column_family,
                                   char** errptr);

/* Syncs the WAL (sync must be true: strata writes the WAL through its
   buffer on every write, so there is nothing to flush without syncing). */
STRATA_EXPORT void strata_flush_wal(strata_t* db, unsigned char sync,
                                    char** errptr);

/* Compacts the keys in [start_key, limit_key] down through the levels; a
   NULL start_key or limit_key is unbounded. As RocksDB's, these report no
   error. */
STRATA_EXPORT void strata_compact_range(strata_t* db, const char* start_key,
                                        size_t start_key_len,
                                        const char* limit_key,
                                        size_t limit_key_len);
STRATA_EXPORT void strata_compact_range_cf(
    strata_t* db, strata_column_family_handle_t* column_family,
    const char* start_key, size_t start_key_len, const char* limit_key,
    size_t limit_key_len);
STRATA_EXPORT void strata_compact_range_opt(
    strata_t* db, strata_compactoptions_t* opt, const char* start_key,
    size_t start_key_len, const char* limit_key, size_t limit_key_len);
STRATA_EXPORT void strata_compact_range_cf_opt(
    strata_t* db, strata_column_family_handle_t* column_family,
    strata_compactoptions_t* opt, const char* start_key, size_t start_key_len,
    const char* limit_key, size_t limit_key_len);

/* Changes dynamic options of the default family (or of column_family):
   count names and values, as DB::SetOptions takes them. */
STRATA_EXPORT void strata_set_options(strata_t* db, int count,
                                      const char* const keys[],
                                      const char* const values[],
                                      char** errptr);
STRATA_EXPORT void strata_set_options_cf(strata_t* db,
                                         strata_column_family_handle_t* handle,
                                         int count, const char* const keys[],
                                         const char* const values[],
                                         char** errptr);

/* ---- Iterator ---- */

STRATA_EXPORT void strata_iter_destroy(strata_iterator_t*);
STRATA_EXPORT unsigned char strata_iter_valid(const strata_iterator_t*);
STRATA_EXPORT void strata_iter_seek_to_first(strata_iterator_t*);
STRATA_EXPORT void strata_iter_seek_to_last(strata_iterator_t*);
STRATA_EXPORT void strata_iter_seek(strata_iterator_t*, const char* k,
                                    size_t klen);
STRATA_EXPORT void strata_iter_seek_for_prev(strata_iterator_t*, const char* k,
                                             size_t klen);
STRATA_EXPORT void strata_iter_next(strata_iterator_t*);
STRATA_EXPORT void strata_iter_prev(strata_iterator_t*);

/* The current key / value, valid until the iterator moves.
   REQUIRES: strata_iter_valid. */
STRATA_EXPORT const char* strata_iter_key(const strata_iterator_t*,
                                          size_t* klen);
STRATA_EXPORT const char* strata_iter_value(const strata_iterator_t*,
                                            size_t* vlen);

/* Sets *errptr if the iterator met an error. */
STRATA_EXPORT void strata_iter_get_error(const strata_iterator_t*,
                                         char** errptr);

/* ---- Write batch ---- */

STRATA_EXPORT strata_writebatch_t* strata_writebatch_create(void);

/* A batch holding a copy of rep, the bytes of strata_writebatch_data.
   Bytes that are not a batch make strata_write fail with Corruption. */
STRATA_EXPORT strata_writebatch_t* strata_writebatch_create_from(
    const char* rep, size_t size);
STRATA_EXPORT void strata_writebatch_destroy(strata_writebatch_t*);
STRATA_EXPORT void strata_writebatch_clear(strata_writebatch_t*);
STRATA_EXPORT int strata_writebatch_count(strata_writebatch_t*);
STRATA_EXPORT void strata_writebatch_put(strata_writebatch_t*, const char* key,
                                         size_t klen, const char* val,
                                         size_t vlen);
STRATA_EXPORT void strata_writebatch_put_cf(
    strata_writebatch_t*, strata_column_family_handle_t* column_family,
    const char* key, size_t klen, const char* val, size_t vlen);

/* The v forms take a key and a value as a list of parts, concatenated. */
STRATA_EXPORT void strata_writebatch_putv(strata_writebatch_t* b, int num_keys,
                                          const char* const* keys_list,
                                          const size_t* keys_list_sizes,
                                          int num_values,
                                          const char* const* values_list,
                                          const size_t* values_list_sizes);
STRATA_EXPORT void strata_writebatch_putv_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    int num_keys, const char* const* keys_list, const size_t* keys_list_sizes,
    int num_values, const char* const* values_list,
    const size_t* values_list_sizes);
STRATA_EXPORT void strata_writebatch_merge(strata_writebatch_t*,
                                           const char* key, size_t klen,
                                           const char* val, size_t vlen);
STRATA_EXPORT void strata_writebatch_merge_cf(
    strata_writebatch_t*, strata_column_family_handle_t* column_family,
    const char* key, size_t klen, const char* val, size_t vlen);
STRATA_EXPORT void strata_writebatch_mergev(
    strata_writebatch_t* b, int num_keys, const char* const* keys_list,
    const size_t* keys_list_sizes, int num_values,
    const char* const* values_list, const size_t* values_list_sizes);
STRATA_EXPORT void strata_writebatch_mergev_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    int num_keys, const char* const* keys_list, const size_t* keys_list_sizes,
    int num_values, const char* const* values_list,
    const size_t* values_list_sizes);
STRATA_EXPORT void strata_writebatch_delete(strata_writebatch_t*,
                                            const char* key, size_t klen);
STRATA_EXPORT void strata_writebatch_singledelete(strata_writebatch_t* b,
                                                  const char* key, size_t klen);
STRATA_EXPORT void strata_writebatch_delete_cf(
    strata_writebatch_t*, strata_column_family_handle_t* column_family,
    const char* key, size_t klen);
STRATA_EXPORT void strata_writebatch_singledelete_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    const char* key, size_t klen);
STRATA_EXPORT void strata_writebatch_deletev(strata_writebatch_t* b,
                                             int num_keys,
                                             const char* const* keys_list,
                                             const size_t* keys_list_sizes);
STRATA_EXPORT void strata_writebatch_deletev_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    int num_keys, const char* const* keys_list, const size_t* keys_list_sizes);
STRATA_EXPORT void strata_writebatch_delete_range(strata_writebatch_t* b,
                                                  const char* start_key,
                                                  size_t start_key_len,
                                                  const char* end_key,
                                                  size_t end_key_len);
STRATA_EXPORT void strata_writebatch_delete_range_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    const char* start_key, size_t start_key_len, const char* end_key,
    size_t end_key_len);
STRATA_EXPORT void strata_writebatch_delete_rangev(
    strata_writebatch_t* b, int num_keys, const char* const* start_keys_list,
    const size_t* start_keys_list_sizes, const char* const* end_keys_list,
    const size_t* end_keys_list_sizes);
STRATA_EXPORT void strata_writebatch_delete_rangev_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    int num_keys, const char* const* start_keys_list,
    const size_t* start_keys_list_sizes, const char* const* end_keys_list,
    const size_t* end_keys_list_sizes);

/* A blob kept in the WAL with the batch and ignored otherwise. */
STRATA_EXPORT void strata_writebatch_put_log_data(strata_writebatch_t*,
                                                  const char* blob, size_t len);

/* Calls put for each Put and deleted for each Delete of the default
   family, in order; other updates (merges, single and range deletions,
   other families) are not reported, as in RocksDB. */
STRATA_EXPORT void strata_writebatch_iterate(
    strata_writebatch_t*, void* state,
    void (*put)(void*, const char* k, size_t klen, const char* v, size_t vlen),
    void (*deleted)(void*, const char* k, size_t klen));

/* The batch's bytes, *size of them, valid until the batch changes. */
STRATA_EXPORT const char* strata_writebatch_data(strata_writebatch_t*,
                                                 size_t* size);

/* ---- Comparator ---- */

/* A comparator calling compare(state, ...) (negative, 0, positive) and
   naming itself name(state); destructor(state) runs when it is destroyed.
   strata_options_set_comparator does not take it over: destroy it after
   every DB and options using it are gone. */
STRATA_EXPORT strata_comparator_t* strata_comparator_create(
    void* state, void (*destructor)(void*),
    int (*compare)(void*, const char* a, size_t alen, const char* b,
                   size_t blen),
    const char* (*name)(void*));
STRATA_EXPORT void strata_comparator_destroy(strata_comparator_t*);

/* ---- Merge operator ---- */

/* A merge operator of C callbacks. full_merge combines the operands
   (oldest first) with the existing value (NULL if none); partial_merge
   combines operands alone. Each returns a new value of
   *new_value_length bytes, later released with delete_value(state, ...),
   and sets *success (0 fails the read or compaction with Corruption).
   destructor(state) runs when the operator is destroyed.
   strata_options_set_merge_operator takes it over. */
STRATA_EXPORT strata_mergeoperator_t* strata_mergeoperator_create(
    void* state, void (*destructor)(void*),
    char* (*full_merge)(void*, const char* key, size_t key_length,
                        const char* existing_value,
                        size_t existing_value_length,
                        const char* const* operands_list,
                        const size_t* operands_list_length, int num_operands,
                        unsigned char* success, size_t* new_value_length),
    char* (*partial_merge)(void*, const char* key, size_t key_length,
                           const char* const* operands_list,
                           const size_t* operands_list_length, int num_operands,
                           unsigned char* success, size_t* new_value_length),
    void (*delete_value)(void*, const char* value, size_t value_length),
    const char* (*name)(void*));
STRATA_EXPORT void strata_mergeoperator_destroy(strata_mergeoperator_t*);

/* ---- Filter policy ---- */

/* A bloom filter of about bits_per_key bits per key; both forms build the
   same (full) filter. strata_block_based_options_set_filter_policy takes
   it over. */
STRATA_EXPORT strata_filterpolicy_t* strata_filterpolicy_create_bloom(
    double bits_per_key);
STRATA_EXPORT strata_filterpolicy_t* strata_filterpolicy_create_bloom_full(
    double bits_per_key);
STRATA_EXPORT void strata_filterpolicy_destroy(strata_filterpolicy_t*);

/* ---- Block cache ---- */

STRATA_EXPORT strata_lru_cache_options_t* strata_lru_cache_options_create(void);
STRATA_EXPORT void strata_lru_cache_options_destroy(
    strata_lru_cache_options_t*);
STRATA_EXPORT void strata_lru_cache_options_set_capacity(
    strata_lru_cache_options_t*, size_t);
STRATA_EXPORT void strata_lru_cache_options_set_num_shard_bits(
    strata_lru_cache_options_t*, int);

/* An LRU cache of capacity bytes. The table options that use it share it:
   destroying the strata_cache_t releases only the caller's reference. */
STRATA_EXPORT strata_cache_t* strata_cache_create_lru(size_t capacity);
STRATA_EXPORT strata_cache_t*
strata_cache_create_lru_with_strict_capacity_limit(size_t capacity);
STRATA_EXPORT strata_cache_t* strata_cache_create_lru_opts(
    strata_lru_cache_options_t*);
STRATA_EXPORT void strata_cache_destroy(strata_cache_t* cache);
STRATA_EXPORT void strata_cache_set_capacity(strata_cache_t* cache,
                                             size_t capacity);
STRATA_EXPORT size_t strata_cache_get_capacity(strata_cache_t* cache);
STRATA_EXPORT size_t strata_cache_get_usage(strata_cache_t* cache);
STRATA_EXPORT size_t strata_cache_get_pinned_usage(strata_cache_t* cache);

/* ---- Block-based table options ---- */

STRATA_EXPORT strata_block_based_table_options_t*
strata_block_based_options_create(void);
STRATA_EXPORT void strata_block_based_options_destroy(
    strata_block_based_table_options_t* options);
STRATA_EXPORT void strata_block_based_options_set_block_size(
    strata_block_based_table_options_t* options, size_t block_size);
STRATA_EXPORT void strata_block_based_options_set_block_restart_interval(
    strata_block_based_table_options_t* options, int block_restart_interval);
STRATA_EXPORT void strata_block_based_options_set_index_block_restart_interval(
    strata_block_based_table_options_t* options,
    int index_block_restart_interval);
STRATA_EXPORT void strata_block_based_options_set_filter_policy(
    strata_block_based_table_options_t* options,
    strata_filterpolicy_t* filter_policy);
STRATA_EXPORT void strata_block_based_options_set_no_block_cache(
    strata_block_based_table_options_t* options, unsigned char no_block_cache);
STRATA_EXPORT void strata_block_based_options_set_block_cache(
    strata_block_based_table_options_t* options, strata_cache_t* block_cache);
STRATA_EXPORT void strata_block_based_options_set_whole_key_filtering(
    strata_block_based_table_options_t*, unsigned char);
STRATA_EXPORT void strata_block_based_options_set_cache_index_and_filter_blocks(
    strata_block_based_table_options_t*, unsigned char);
STRATA_EXPORT void
strata_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(
    strata_block_based_table_options_t*, unsigned char);

/* Makes the options' tables block-based with a copy of table_options. */
STRATA_EXPORT void strata_options_set_block_based_table_factory(
    strata_options_t* opt, strata_block_based_table_options_t* table_options);

/* ---- Env ---- */

/* The process's Env; destroying its strata_env_t leaves the Env itself
   alone. */
STRATA_EXPORT strata_env_t* strata_create_default_env(void);

/* An Env keeping every file in memory (nothing reaches the disk), for
   tests; destroy it after every DB using it is closed. */
STRATA_EXPORT strata_env_t* strata_create_mem_env(void);
STRATA_EXPORT void strata_env_destroy(strata_env_t*);

/* The threads of the Env's pools: the plain form and low_priority are the
   LOW pool (compactions), high_priority HIGH (flushes), bottom_priority
   BOTTOM. */
STRATA_EXPORT void strata_env_set_background_threads(strata_env_t* env, int n);
STRATA_EXPORT int strata_env_get_background_threads(strata_env_t* env);
STRATA_EXPORT void strata_env_set_high_priority_background_threads(
    strata_env_t* env, int n);
STRATA_EXPORT int strata_env_get_high_priority_background_threads(
    strata_env_t* env);
STRATA_EXPORT void strata_env_set_low_priority_background_threads(
    strata_env_t* env, int n);
STRATA_EXPORT int strata_env_get_low_priority_background_threads(
    strata_env_t* env);
STRATA_EXPORT void strata_env_set_bottom_priority_background_threads(
    strata_env_t* env, int n);
STRATA_EXPORT int strata_env_get_bottom_priority_background_threads(
    strata_env_t* env);
/* Joins the Env's threads: those it started for a caller, then its pools'
   once they have run what is queued (they start again for the next job).
   With every DB closed, a program calls it on the default Env before it
   unloads strata.dll (docs/windows.md). */
STRATA_EXPORT void strata_env_join_all_threads(strata_env_t* env);

/* ---- Prefix extractors ---- */

/* A prefix extractor of C callbacks: transform returns the prefix of key
   (a pointer into key, *dst_length bytes), in_domain whether key has one.
   in_range is accepted for RocksDB's signature and not called (strata
   does not use it). destructor(state) runs when the extractor is
   destroyed. strata_options_set_prefix_extractor takes it over. */
STRATA_EXPORT strata_slicetransform_t* strata_slicetransform_create(
    void* state, void (*destructor)(void*),
    char* (*transform)(void*, const char* key, size_t length,
                       size_t* dst_length),
    unsigned char (*in_domain)(void*, const char* key, size_t length),
    unsigned char (*in_range)(void*, const char* key, size_t length),
    const char* (*name)(void*));

/* The first prefix_len bytes; shorter keys have no prefix. */
STRATA_EXPORT strata_slicetransform_t*
    strata_slicetransform_create_fixed_prefix(size_t);

/* The whole key is its prefix. */
STRATA_EXPORT strata_slicetransform_t* strata_slicetransform_create_noop(void);
STRATA_EXPORT void strata_slicetransform_destroy(strata_slicetransform_t*);

/* ---- Options ---- */

/* The DB's options and those of a column family together (C++ Options). */
STRATA_EXPORT strata_options_t* strata_options_create(void);
STRATA_EXPORT void strata_options_destroy(strata_options_t*);
STRATA_EXPORT strata_options_t* strata_options_create_copy(strata_options_t*);

/* RocksDB's tuning helpers (docs/options.md). */
STRATA_EXPORT void strata_options_increase_parallelism(strata_options_t* opt,
                                                       int total_threads);
STRATA_EXPORT void strata_options_optimize_for_point_lookup(
    strata_options_t* opt, uint64_t block_cache_size_mb);
STRATA_EXPORT void strata_options_optimize_level_style_compaction(
    strata_options_t* opt, uint64_t memtable_memory_budget);
STRATA_EXPORT void strata_options_prepare_for_bulk_load(strata_options_t*);

/* The comparator stays the caller's; the merge operator becomes the
   options' (and the DB's). */
STRATA_EXPORT void strata_options_set_comparator(strata_options_t*,
                                                 strata_comparator_t*);
STRATA_EXPORT void strata_options_set_merge_operator(strata_options_t*,
                                                     strata_mergeoperator_t*);
STRATA_EXPORT void strata_options_set_uint64add_merge_operator(
    strata_options_t*);

/* NULL: the default Env. The Env stays the caller's. */
STRATA_EXPORT void strata_options_set_env(strata_options_t*, strata_env_t*);

/* Tables get prefix filters, used by iterators with
   prefix_same_as_start; the options take the extractor over. */
STRATA_EXPORT void strata_options_set_prefix_extractor(
    strata_options_t*, strata_slicetransform_t*);

/* Keeps statistics of the DBs opened with these options;
   strata_options_statistics_get_string prints them (malloc'ed, NULL when
   statistics are off). */
STRATA_EXPORT void strata_options_enable_statistics(strata_options_t*);
STRATA_EXPORT char* strata_options_statistics_get_string(strata_options_t* opt);

/* Fields of the C++ DBOptions / ColumnFamilyOptions of the same names. */
STRATA_EXPORT void strata_options_set_create_if_missing(strata_options_t*,
                                                        unsigned char);
STRATA_EXPORT unsigned char strata_options_get_create_if_missing(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_create_missing_column_families(
    strata_options_t*, unsigned char);
STRATA_EXPORT unsigned char strata_options_get_create_missing_column_families(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_error_if_exists(strata_options_t*,
                                                      unsigned char);
STRATA_EXPORT unsigned char strata_options_get_error_if_exists(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_paranoid_checks(strata_options_t*,
                                                      unsigned char);
STRATA_EXPORT unsigned char strata_options_get_paranoid_checks(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_write_buffer_size(strata_options_t*,
                                                        size_t);
STRATA_EXPORT size_t strata_options_get_write_buffer_size(strata_options_t*);
STRATA_EXPORT void strata_options_set_db_write_buffer_size(strata_options_t*,
                                                           size_t);
STRATA_EXPORT size_t strata_options_get_db_write_buffer_size(strata_options_t*);
STRATA_EXPORT void strata_options_set_max_open_files(strata_options_t*, int);
STRATA_EXPORT int strata_options_get_max_open_files(strata_options_t*);
STRATA_EXPORT void strata_options_set_max_file_opening_threads(
    strata_options_t*, int);
STRATA_EXPORT int strata_options_get_max_file_opening_threads(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_max_total_wal_size(strata_options_t* opt,
                                                         uint64_t n);
STRATA_EXPORT uint64_t
strata_options_get_max_total_wal_size(strata_options_t* opt);
STRATA_EXPORT void strata_options_set_num_levels(strata_options_t*, int);
STRATA_EXPORT int strata_options_get_num_levels(strata_options_t*);
STRATA_EXPORT void strata_options_set_level0_file_num_compaction_trigger(
    strata_options_t*, int);
STRATA_EXPORT int strata_options_get_level0_file_num_compaction_trigger(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_level0_slowdown_writes_trigger(
    strata_options_t*, int);
STRATA_EXPORT int strata_options_get_level0_slowdown_writes_trigger(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_level0_stop_writes_trigger(
    strata_options_t*, int);
STRATA_EXPORT int strata_options_get_level0_stop_writes_trigger(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_target_file_size_base(strata_options_t*,
                                                            uint64_t);
STRATA_EXPORT uint64_t
strata_options_get_target_file_size_base(strata_options_t*);
STRATA_EXPORT void strata_options_set_target_file_size_multiplier(
    strata_options_t*, int);
STRATA_EXPORT int strata_options_get_target_file_size_multiplier(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_max_bytes_for_level_base(
    strata_options_t*, uint64_t);
STRATA_EXPORT uint64_t
strata_options_get_max_bytes_for_level_base(strata_options_t*);
STRATA_EXPORT void strata_options_set_level_compaction_dynamic_level_bytes(
    strata_options_t*, unsigned char);
STRATA_EXPORT unsigned char
strata_options_get_level_compaction_dynamic_level_bytes(strata_options_t*);
STRATA_EXPORT void strata_options_set_max_bytes_for_level_multiplier(
    strata_options_t*, double);
STRATA_EXPORT double strata_options_get_max_bytes_for_level_multiplier(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_max_write_buffer_number(strata_options_t*,
                                                              int);
STRATA_EXPORT int strata_options_get_max_write_buffer_number(strata_options_t*);
STRATA_EXPORT void strata_options_set_min_write_buffer_number_to_merge(
    strata_options_t*, int);
STRATA_EXPORT int strata_options_get_min_write_buffer_number_to_merge(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_enable_pipelined_write(strata_options_t*,
                                                             unsigned char);
STRATA_EXPORT unsigned char strata_options_get_enable_pipelined_write(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_unordered_write(strata_options_t*,
                                                      unsigned char);
STRATA_EXPORT unsigned char strata_options_get_unordered_write(
    strata_options_t*);
/* strata's own (DBOptions::unordered_write_snapshot_safe). */
STRATA_EXPORT void strata_options_set_unordered_write_snapshot_safe(
    strata_options_t*, unsigned char);
STRATA_EXPORT unsigned char strata_options_get_unordered_write_snapshot_safe(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_max_background_jobs(strata_options_t*,
                                                          int);
STRATA_EXPORT int strata_options_get_max_background_jobs(strata_options_t*);
STRATA_EXPORT void strata_options_set_max_background_compactions(
    strata_options_t*, int);
STRATA_EXPORT int strata_options_get_max_background_compactions(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_max_background_flushes(strata_options_t*,
                                                             int);
STRATA_EXPORT int strata_options_get_max_background_flushes(strata_options_t*);
STRATA_EXPORT void strata_options_set_soft_pending_compaction_bytes_limit(
    strata_options_t* opt, size_t v);
STRATA_EXPORT size_t
strata_options_get_soft_pending_compaction_bytes_limit(strata_options_t* opt);
STRATA_EXPORT void strata_options_set_hard_pending_compaction_bytes_limit(
    strata_options_t* opt, size_t v);
STRATA_EXPORT size_t
strata_options_get_hard_pending_compaction_bytes_limit(strata_options_t* opt);
STRATA_EXPORT void strata_options_set_max_manifest_file_size(strata_options_t*,
                                                             size_t);
STRATA_EXPORT size_t
strata_options_get_max_manifest_file_size(strata_options_t*);
STRATA_EXPORT void strata_options_set_use_fsync(strata_options_t*, int);
STRATA_EXPORT int strata_options_get_use_fsync(strata_options_t*);
STRATA_EXPORT void strata_options_set_allow_mmap_reads(strata_options_t*,
                                                       unsigned char);
STRATA_EXPORT unsigned char strata_options_get_allow_mmap_reads(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_allow_mmap_writes(strata_options_t*,
                                                        unsigned char);
STRATA_EXPORT unsigned char strata_options_get_allow_mmap_writes(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_use_direct_reads(strata_options_t*,
                                                       unsigned char);
STRATA_EXPORT unsigned char strata_options_get_use_direct_reads(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_use_direct_io_for_flush_and_compaction(
    strata_options_t*, unsigned char);
STRATA_EXPORT unsigned char
strata_options_get_use_direct_io_for_flush_and_compaction(strata_options_t*);
STRATA_EXPORT void strata_options_set_bytes_per_sync(strata_options_t*,
                                                     uint64_t);
STRATA_EXPORT uint64_t strata_options_get_bytes_per_sync(strata_options_t*);
STRATA_EXPORT void strata_options_set_wal_bytes_per_sync(strata_options_t*,
                                                         uint64_t);
STRATA_EXPORT uint64_t strata_options_get_wal_bytes_per_sync(strata_options_t*);
STRATA_EXPORT void strata_options_set_writable_file_max_buffer_size(
    strata_options_t*, uint64_t);
STRATA_EXPORT uint64_t
strata_options_get_writable_file_max_buffer_size(strata_options_t*);
STRATA_EXPORT void strata_options_set_allow_concurrent_memtable_write(
    strata_options_t*, unsigned char);
STRATA_EXPORT unsigned char strata_options_get_allow_concurrent_memtable_write(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_enable_write_thread_adaptive_yield(
    strata_options_t*, unsigned char);
STRATA_EXPORT unsigned char
strata_options_get_enable_write_thread_adaptive_yield(strata_options_t*);
STRATA_EXPORT void strata_options_set_disable_auto_compactions(
    strata_options_t*, int);
STRATA_EXPORT unsigned char strata_options_get_disable_auto_compactions(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_max_compaction_bytes(strata_options_t*,
                                                           uint64_t);
STRATA_EXPORT uint64_t
strata_options_get_max_compaction_bytes(strata_options_t*);
STRATA_EXPORT void strata_options_set_memtable_huge_page_size(strata_options_t*,
                                                              size_t);
STRATA_EXPORT size_t
strata_options_get_memtable_huge_page_size(strata_options_t*);
STRATA_EXPORT void strata_options_set_inplace_update_support(strata_options_t*,
                                                             unsigned char);
STRATA_EXPORT unsigned char strata_options_get_inplace_update_support(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_inplace_update_num_locks(
    strata_options_t*, size_t);
STRATA_EXPORT size_t
strata_options_get_inplace_update_num_locks(strata_options_t*);
STRATA_EXPORT void strata_options_set_atomic_flush(strata_options_t* opt,
                                                   unsigned char);
STRATA_EXPORT unsigned char strata_options_get_atomic_flush(
    strata_options_t* opt);
/* compaction_readahead_size: the setter has no "set_", as in RocksDB. */
STRATA_EXPORT void strata_options_compaction_readahead_size(strata_options_t*,
                                                            size_t);
STRATA_EXPORT size_t
strata_options_get_compaction_readahead_size(strata_options_t*);
/* rate_limiter: the options share the limiter, so its handle may be
   destroyed at once; NULL takes the limiter off. */
STRATA_EXPORT void strata_options_set_ratelimiter(
    strata_options_t* opt, strata_ratelimiter_t* limiter);

/* NewGenericRateLimiter (strata/rate_limiter.h) in kWritesOnly mode; NULL
   when the rate or the refill period is not positive. */
STRATA_EXPORT strata_ratelimiter_t* strata_ratelimiter_create(
    int64_t rate_bytes_per_sec, int64_t refill_period_us, int32_t fairness);
STRATA_EXPORT void strata_ratelimiter_destroy(strata_ratelimiter_t* limiter);
STRATA_EXPORT void strata_options_set_memtable_prefix_bloom_size_ratio(
    strata_options_t*, double);
STRATA_EXPORT double strata_options_get_memtable_prefix_bloom_size_ratio(
    strata_options_t*);
STRATA_EXPORT void strata_options_set_memtable_whole_key_filtering(
    strata_options_t*, unsigned char);

/* Memtables as an unsorted vector (VectorRepFactory), for bulk loads;
   needs allow_concurrent_memtable_write off. */
STRATA_EXPORT void strata_options_set_memtable_vector_rep(strata_options_t*);

/* A strata_*_recovery value; anything else fails DB open. */
enum {
  strata_tolerate_corrupted_tail_records_recovery = 0,
  strata_absolute_consistency_recovery = 1,
  strata_point_in_time_recovery = 2,
  strata_skip_any_corrupted_records_recovery = 3
};
STRATA_EXPORT void strata_options_set_wal_recovery_mode(strata_options_t*, int);
STRATA_EXPORT int strata_options_get_wal_recovery_mode(strata_options_t*);

/* Compression: strata has none, snappy and zlib (the numbers RocksDB
   gives them). Another number fails DB open with InvalidArgument. */
enum {
  strata_no_compression = 0,
  strata_snappy_compression = 1,
  strata_zlib_compression = 2
};
STRATA_EXPORT void strata_options_set_compression(strata_options_t*, int);
STRATA_EXPORT int strata_options_get_compression(strata_options_t*);

/* Options::compaction_style; RocksDB's C API names the first three (a
   program may pass 3 for kCompactionStyleNone). Universal and FIFO make
   strata_open fail (NotSupported). */
enum {
  strata_level_compaction = 0,
  strata_universal_compaction = 1,
  strata_fifo_compaction = 2
};
STRATA_EXPORT void strata_options_set_compaction_style(strata_options_t*, int);
STRATA_EXPORT int strata_options_get_compaction_style(strata_options_t*);
STRATA_EXPORT void strata_options_set_compression_per_level(
    strata_options_t* opt, const int* level_values, size_t num_levels);

/* ---- Read options ---- */

STRATA_EXPORT strata_readoptions_t* strata_readoptions_create(void);
STRATA_EXPORT void strata_readoptions_destroy(strata_readoptions_t*);
STRATA_EXPORT void strata_readoptions_set_verify_checksums(
    strata_readoptions_t*, unsigned char);
STRATA_EXPORT unsigned char strata_readoptions_get_verify_checksums(
    strata_readoptions_t*);
STRATA_EXPORT void strata_readoptions_set_fill_cache(strata_readoptions_t*,
                                                     unsigned char);
STRATA_EXPORT unsigned char strata_readoptions_get_fill_cache(
    strata_readoptions_t*);

/* NULL: read the current state. */
STRATA_EXPORT void strata_readoptions_set_snapshot(strata_readoptions_t*,
                                                   const strata_snapshot_t*);

/* Iterators stop before key (upper, exclusive) and at key (lower,
   inclusive). The options keep a copy of key; a NULL key removes the
   bound. */
STRATA_EXPORT void strata_readoptions_set_iterate_upper_bound(
    strata_readoptions_t*, const char* key, size_t keylen);
STRATA_EXPORT void strata_readoptions_set_iterate_lower_bound(
    strata_readoptions_t*, const char* key, size_t keylen);
STRATA_EXPORT void strata_readoptions_set_prefix_same_as_start(
    strata_readoptions_t*, unsigned char);
STRATA_EXPORT unsigned char strata_readoptions_get_prefix_same_as_start(
    strata_readoptions_t*);
STRATA_EXPORT void strata_readoptions_set_total_order_seek(
    strata_readoptions_t*, unsigned char);
STRATA_EXPORT unsigned char strata_readoptions_get_total_order_seek(
    strata_readoptions_t*);

/* ---- Write options ---- */

STRATA_EXPORT strata_writeoptions_t* strata_writeoptions_create(void);
STRATA_EXPORT void strata_writeoptions_destroy(strata_writeoptions_t*);
STRATA_EXPORT void strata_writeoptions_set_sync(strata_writeoptions_t*,
                                                unsigned char);
STRATA_EXPORT unsigned char strata_writeoptions_get_sync(
    strata_writeoptions_t*);
STRATA_EXPORT void strata_writeoptions_disable_WAL(strata_writeoptions_t* opt,
                                                   int disable);
STRATA_EXPORT unsigned char strata_writeoptions_get_disable_WAL(
    strata_writeoptions_t* opt);
STRATA_EXPORT void strata_writeoptions_set_ignore_missing_column_families(
    strata_writeoptions_t*, unsigned char);
STRATA_EXPORT unsigned char
strata_writeoptions_get_ignore_missing_column_families(strata_writeoptions_t*);
STRATA_EXPORT void strata_writeoptions_set_no_slowdown(strata_writeoptions_t*,
                                                       unsigned char);
STRATA_EXPORT unsigned char strata_writeoptions_get_no_slowdown(
    strata_writeoptions_t*);

/* ---- Flush and compaction options ---- */

STRATA_EXPORT strata_flushoptions_t* strata_flushoptions_create(void);
STRATA_EXPORT void strata_flushoptions_destroy(strata_flushoptions_t*);
STRATA_EXPORT void strata_flushoptions_set_wait(strata_flushoptions_t*,
                                                unsigned char);
STRATA_EXPORT unsigned char strata_flushoptions_get_wait(
    strata_flushoptions_t*);
STRATA_EXPORT strata_compactoptions_t* strata_compactoptions_create(void);
STRATA_EXPORT void strata_compactoptions_destroy(strata_compactoptions_t*);
STRATA_EXPORT void strata_compactoptions_set_exclusive_manual_compaction(
    strata_compactoptions_t*, unsigned char);
STRATA_EXPORT unsigned char
strata_compactoptions_get_exclusive_manual_compaction(strata_compactoptions_t*);

/* ---- Memory ---- */

/* Frees memory this API returned (values, messages, names). */
STRATA_EXPORT void strata_free(void* ptr);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* Live files and table metadata, the utilities, and bulk loading, in
   headers of their own. */
#include "strata/c_ingest.h"
#include "strata/c_metadata.h"
#include "strata/c_utilities.h"

#endif /* STRATA_INCLUDE_C_H_ */
