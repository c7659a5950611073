/* strata's C API, continued: bulk loading — SstFileWriter and
   IngestExternalFile (RocksDB 7.8's rocksdb_sstfilewriter_*,
   rocksdb_ingestexternalfileoptions_*, rocksdb_ingest_external_file* and
   rocksdb_envoptions_* calls, with the strata_ prefix; docs/operations.md,
   "Bulk ingestion"). strata/c.h includes this header; include that one.
   The conventions are c.h's. */

#ifndef STRATA_INCLUDE_C_INGEST_H_
#define STRATA_INCLUDE_C_INGEST_H_

#include "strata/c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_envoptions_t strata_envoptions_t;
typedef struct strata_sstfilewriter_t strata_sstfilewriter_t;
typedef struct strata_ingestexternalfileoptions_t
    strata_ingestexternalfileoptions_t;

/* EnvOptions with their defaults. */
STRATA_EXPORT strata_envoptions_t* strata_envoptions_create(void);
STRATA_EXPORT void strata_envoptions_destroy(strata_envoptions_t* opt);

/* ---- SstFileWriter (strata/sst_file_writer.h) ---- */

/* A writer for a DB opened with io_options (its comparator, table
   options, compression); with_comparator: keys ordered by comparator,
   which must outlive the writer. Freed with strata_sstfilewriter_destroy,
   which removes an unfinished file. */
STRATA_EXPORT strata_sstfilewriter_t* strata_sstfilewriter_create(
    const strata_envoptions_t* env, const strata_options_t* io_options);
STRATA_EXPORT strata_sstfilewriter_t*
strata_sstfilewriter_create_with_comparator(
    const strata_envoptions_t* env, const strata_options_t* io_options,
    const strata_comparator_t* comparator);
STRATA_EXPORT void strata_sstfilewriter_open(strata_sstfilewriter_t* writer,
                                             const char* name, char** errptr);
/* Keys in strictly increasing order; add is put. */
STRATA_EXPORT void strata_sstfilewriter_add(strata_sstfilewriter_t* writer,
                                            const char* key, size_t keylen,
                                            const char* val, size_t vallen,
                                            char** errptr);
STRATA_EXPORT void strata_sstfilewriter_put(strata_sstfilewriter_t* writer,
                                            const char* key, size_t keylen,
                                            const char* val, size_t vallen,
                                            char** errptr);
STRATA_EXPORT void strata_sstfilewriter_merge(strata_sstfilewriter_t* writer,
                                              const char* key, size_t keylen,
                                              const char* val, size_t vallen,
                                              char** errptr);
STRATA_EXPORT void strata_sstfilewriter_delete(strata_sstfilewriter_t* writer,
                                               const char* key, size_t keylen,
                                               char** errptr);
STRATA_EXPORT void strata_sstfilewriter_delete_range(
    strata_sstfilewriter_t* writer, const char* begin_key, size_t begin_keylen,
    const char* end_key, size_t end_keylen, char** errptr);
/* Completes the file; a file with no entry is an error. */
STRATA_EXPORT void strata_sstfilewriter_finish(strata_sstfilewriter_t* writer,
                                               char** errptr);
STRATA_EXPORT void strata_sstfilewriter_file_size(
    strata_sstfilewriter_t* writer, uint64_t* file_size);
STRATA_EXPORT void strata_sstfilewriter_destroy(strata_sstfilewriter_t* writer);

/* ---- IngestExternalFileOptions (strata/options.h) ---- */

STRATA_EXPORT strata_ingestexternalfileoptions_t*
strata_ingestexternalfileoptions_create(void);
STRATA_EXPORT void strata_ingestexternalfileoptions_set_move_files(
    strata_ingestexternalfileoptions_t* opt, unsigned char move_files);
STRATA_EXPORT void strata_ingestexternalfileoptions_set_snapshot_consistency(
    strata_ingestexternalfileoptions_t* opt,
    unsigned char snapshot_consistency);
STRATA_EXPORT void strata_ingestexternalfileoptions_set_allow_global_seqno(
    strata_ingestexternalfileoptions_t* opt, unsigned char allow_global_seqno);
STRATA_EXPORT void strata_ingestexternalfileoptions_set_allow_blocking_flush(
    strata_ingestexternalfileoptions_t* opt,
    unsigned char allow_blocking_flush);
/* strata refuses ingest_behind at ingestion (NotSupported). */
STRATA_EXPORT void strata_ingestexternalfileoptions_set_ingest_behind(
    strata_ingestexternalfileoptions_t* opt, unsigned char ingest_behind);
STRATA_EXPORT void strata_ingestexternalfileoptions_destroy(
    strata_ingestexternalfileoptions_t* opt);

/* ---- Ingestion (DB::IngestExternalFile) ---- */

STRATA_EXPORT void strata_ingest_external_file(
    strata_t* db, const char* const* file_list, const size_t list_len,
    const strata_ingestexternalfileoptions_t* opt, char** errptr);
STRATA_EXPORT void strata_ingest_external_file_cf(
    strata_t* db, strata_column_family_handle_t* handle,
    const char* const* file_list, const size_t list_len,
    const strata_ingestexternalfileoptions_t* opt, char** errptr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STRATA_INCLUDE_C_INGEST_H_ */
