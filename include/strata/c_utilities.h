/* strata's C API, continued: operating a DB — read-only instances,
   checkpoints and the OPTIONS file (RocksDB 7.8's
   rocksdb_open_for_read_only*, rocksdb_checkpoint_* and
   rocksdb_load_latest_options* calls, with the strata_ prefix). strata/c.h
   includes this header; include that one. The conventions are c.h's. */

#ifndef STRATA_INCLUDE_C_UTILITIES_H_
#define STRATA_INCLUDE_C_UTILITIES_H_

#include "strata/c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_checkpoint_t strata_checkpoint_t;

/* ---- Read-only instances (DB::OpenForReadOnly) ---- */

/* The DB as its files hold it; every write is an error. With
   error_if_wal_file_exists, a DB whose WALs hold writes not in tables is
   an error. */
STRATA_EXPORT strata_t* strata_open_for_read_only(
    const strata_options_t* options, const char* name,
    unsigned char error_if_wal_file_exists, char** errptr);
/* Some of the DB's families (the default one among them), as
   strata_open_column_families. */
STRATA_EXPORT strata_t* strata_open_for_read_only_column_families(
    const strata_options_t* options, const char* name, int num_column_families,
    const char* const* column_family_names,
    const strata_options_t* const* column_family_options,
    strata_column_family_handle_t** column_family_handles,
    unsigned char error_if_wal_file_exists, char** errptr);

/* ---- Checkpoints (strata/utilities/checkpoint.h) ---- */

/* Takes checkpoints of db, which must outlive it; freed with
   strata_checkpoint_object_destroy. */
STRATA_EXPORT strata_checkpoint_t* strata_checkpoint_object_create(
    strata_t* db, char** errptr);
/* Writes an openable copy of the DB into checkpoint_dir, which must not
   exist; every family is flushed first when the live WALs hold
   log_size_for_flush bytes or more (0: always). */
STRATA_EXPORT void strata_checkpoint_create(strata_checkpoint_t* checkpoint,
                                            const char* checkpoint_dir,
                                            uint64_t log_size_for_flush,
                                            char** errptr);
STRATA_EXPORT void strata_checkpoint_object_destroy(
    strata_checkpoint_t* checkpoint);

/* ---- The OPTIONS file (strata/utilities/options_util.h) ---- */

/* The options of the newest OPTIONS file in db_path (env NULL: the
   default Env; cache, if not NULL, the block cache of every family's
   tables): *db_options the DB's, and per family its name and options
   (each holding the DB's options too). Free all with
   strata_load_latest_options_destroy. On error *errptr is set and the
   outputs are NULL. (RocksDB's ignore_unknown_options is a bool; an
   unsigned char keeps this header C89.) */
STRATA_EXPORT void strata_load_latest_options(
    const char* db_path, strata_env_t* env,
    unsigned char ignore_unknown_options, strata_cache_t* cache,
    strata_options_t** db_options, size_t* num_column_families,
    char*** column_family_names, strata_options_t*** column_family_options,
    char** errptr);
STRATA_EXPORT void strata_load_latest_options_destroy(
    strata_options_t* db_options, char** list_column_family_names,
    strata_options_t** list_column_family_options, size_t len);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STRATA_INCLUDE_C_UTILITIES_H_ */
