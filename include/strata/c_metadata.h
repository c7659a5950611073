/* strata's C API, continued: live files and table metadata (RocksDB
   7.8's rocksdb_livefiles_*, *_file_deletions and *_metadata_* calls,
   with the strata_ prefix). strata/c.h includes this header; include
   that one. The conventions are c.h's. */

#ifndef STRATA_INCLUDE_C_METADATA_H_
#define STRATA_INCLUDE_C_METADATA_H_

#include "strata/c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Obsolete files stay while deletions are disabled; the calls nest, and
   enabling with force undoes them all. */
STRATA_EXPORT void strata_disable_file_deletions(strata_t* db, char** errptr);
STRATA_EXPORT void strata_enable_file_deletions(strata_t* db,
                                                unsigned char force,
                                                char** errptr);

/* Every table of every family: a list freed with strata_livefiles_destroy.
   Names are relative to the DB directory with a leading '/'. */
STRATA_EXPORT const strata_livefiles_t* strata_livefiles(strata_t* db);
STRATA_EXPORT int strata_livefiles_count(const strata_livefiles_t*);
STRATA_EXPORT const char* strata_livefiles_column_family_name(
    const strata_livefiles_t*, int index);
STRATA_EXPORT const char* strata_livefiles_name(const strata_livefiles_t*,
                                                int index);
STRATA_EXPORT int strata_livefiles_level(const strata_livefiles_t*, int index);
STRATA_EXPORT size_t strata_livefiles_size(const strata_livefiles_t*,
                                           int index);
STRATA_EXPORT const char* strata_livefiles_smallestkey(
    const strata_livefiles_t*, int index, size_t* size);
STRATA_EXPORT const char* strata_livefiles_largestkey(const strata_livefiles_t*,
                                                      int index, size_t* size);
STRATA_EXPORT uint64_t strata_livefiles_entries(const strata_livefiles_t*,
                                                int index);
STRATA_EXPORT uint64_t strata_livefiles_deletions(const strata_livefiles_t*,
                                                  int index);
STRATA_EXPORT void strata_livefiles_destroy(const strata_livefiles_t*);

/* A family's levels and tables. Each object returned is freed with its own
   destroy function (a level's before its family's); strings returned are
   malloc'ed, freed with strata_free. */
STRATA_EXPORT strata_column_family_metadata_t*
strata_get_column_family_metadata(strata_t* db);
STRATA_EXPORT strata_column_family_metadata_t*
strata_get_column_family_metadata_cf(
    strata_t* db, strata_column_family_handle_t* column_family);
STRATA_EXPORT void strata_column_family_metadata_destroy(
    strata_column_family_metadata_t* cf_meta);
STRATA_EXPORT uint64_t
strata_column_family_metadata_get_size(strata_column_family_metadata_t*);
STRATA_EXPORT size_t
strata_column_family_metadata_get_file_count(strata_column_family_metadata_t*);
STRATA_EXPORT char* strata_column_family_metadata_get_name(
    strata_column_family_metadata_t* cf_meta);
STRATA_EXPORT size_t strata_column_family_metadata_get_level_count(
    strata_column_family_metadata_t* cf_meta);
/* The i-th level (NULL if there is none). */
STRATA_EXPORT strata_level_metadata_t*
strata_column_family_metadata_get_level_metadata(
    strata_column_family_metadata_t* cf_meta, size_t i);
STRATA_EXPORT void strata_level_metadata_destroy(
    strata_level_metadata_t* level_meta);
STRATA_EXPORT int strata_level_metadata_get_level(
    strata_level_metadata_t* level_meta);
STRATA_EXPORT uint64_t
strata_level_metadata_get_size(strata_level_metadata_t* level_meta);
STRATA_EXPORT size_t
strata_level_metadata_get_file_count(strata_level_metadata_t* level_meta);
/* The level's i-th table (NULL if there is none). */
STRATA_EXPORT strata_sst_file_metadata_t*
strata_level_metadata_get_sst_file_metadata(strata_level_metadata_t* level_meta,
                                            size_t i);
STRATA_EXPORT void strata_sst_file_metadata_destroy(
    strata_sst_file_metadata_t* file_meta);
STRATA_EXPORT char* strata_sst_file_metadata_get_relative_filename(
    strata_sst_file_metadata_t* file_meta);
STRATA_EXPORT uint64_t
strata_sst_file_metadata_get_size(strata_sst_file_metadata_t* file_meta);
/* The table's smallest and largest user keys, malloc'ed (strata_free). */
STRATA_EXPORT char* strata_sst_file_metadata_get_smallestkey(
    strata_sst_file_metadata_t* file_meta, size_t* len);
STRATA_EXPORT char* strata_sst_file_metadata_get_largestkey(
    strata_sst_file_metadata_t* file_meta, size_t* len);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STRATA_INCLUDE_C_METADATA_H_ */
