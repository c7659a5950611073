// The C API's bulk loading calls (include/strata/c_ingest.h).

#include <memory>
#include <string>
#include <vector>

#include "db/c/c_internal.h"
#include "strata/sst_file_writer.h"

using strata::Slice;
using strata::c_api::SaveError;

struct strata_envoptions_t {
  strata::EnvOptions rep;
};

struct strata_sstfilewriter_t {
  std::unique_ptr<strata::SstFileWriter> rep;
};

struct strata_ingestexternalfileoptions_t {
  strata::IngestExternalFileOptions rep;
};

namespace {

std::vector<std::string> FileList(const char* const* file_list, size_t n) {
  return std::vector<std::string>(file_list, file_list + n);
}

}  // namespace

extern "C" {

strata_envoptions_t* strata_envoptions_create(void) {
  return new strata_envoptions_t;
}

void strata_envoptions_destroy(strata_envoptions_t* opt) { delete opt; }

strata_sstfilewriter_t* strata_sstfilewriter_create(
    const strata_envoptions_t* env, const strata_options_t* io_options) {
  return new strata_sstfilewriter_t{
      std::make_unique<strata::SstFileWriter>(env->rep, io_options->rep)};
}

strata_sstfilewriter_t* strata_sstfilewriter_create_with_comparator(
    const strata_envoptions_t* env, const strata_options_t* io_options,
    const strata_comparator_t* comparator) {
  return new strata_sstfilewriter_t{std::make_unique<strata::SstFileWriter>(
      env->rep, io_options->rep, comparator)};
}

void strata_sstfilewriter_open(strata_sstfilewriter_t* writer, const char* name,
                               char** errptr) {
  SaveError(errptr, writer->rep->Open(name));
}

void strata_sstfilewriter_add(strata_sstfilewriter_t* writer, const char* key,
                              size_t keylen, const char* val, size_t vallen,
                              char** errptr) {
  SaveError(errptr, writer->rep->Put(Slice(key, keylen), Slice(val, vallen)));
}

void strata_sstfilewriter_put(strata_sstfilewriter_t* writer, const char* key,
                              size_t keylen, const char* val, size_t vallen,
                              char** errptr) {
  SaveError(errptr, writer->rep->Put(Slice(key, keylen), Slice(val, vallen)));
}

void strata_sstfilewriter_merge(strata_sstfilewriter_t* writer, const char* key,
                                size_t keylen, const char* val, size_t vallen,
                                char** errptr) {
  SaveError(errptr, writer->rep->Merge(Slice(key, keylen), Slice(val, vallen)));
}

void strata_sstfilewriter_delete(strata_sstfilewriter_t* writer,
                                 const char* key, size_t keylen,
                                 char** errptr) {
  SaveError(errptr, writer->rep->Delete(Slice(key, keylen)));
}

void strata_sstfilewriter_delete_range(strata_sstfilewriter_t* writer,
                                       const char* begin_key,
                                       size_t begin_keylen, const char* end_key,
                                       size_t end_keylen, char** errptr) {
  SaveError(errptr, writer->rep->DeleteRange(Slice(begin_key, begin_keylen),
                                             Slice(end_key, end_keylen)));
}

void strata_sstfilewriter_finish(strata_sstfilewriter_t* writer,
                                 char** errptr) {
  SaveError(errptr, writer->rep->Finish());
}

void strata_sstfilewriter_file_size(strata_sstfilewriter_t* writer,
                                    uint64_t* file_size) {
  *file_size = writer->rep->FileSize();
}

void strata_sstfilewriter_destroy(strata_sstfilewriter_t* writer) {
  delete writer;
}

strata_ingestexternalfileoptions_t* strata_ingestexternalfileoptions_create(
    void) {
  return new strata_ingestexternalfileoptions_t;
}

// The flag setters: one line each, all alike.
#define STRATA_C_INGEST_FLAG(field)                               \
  void strata_ingestexternalfileoptions_set_##field(              \
      strata_ingestexternalfileoptions_t* opt, unsigned char v) { \
    opt->rep.field = v != 0;                                      \
  }
STRATA_C_INGEST_FLAG(move_files)
STRATA_C_INGEST_FLAG(snapshot_consistency)
STRATA_C_INGEST_FLAG(allow_global_seqno)
STRATA_C_INGEST_FLAG(allow_blocking_flush)
STRATA_C_INGEST_FLAG(ingest_behind)
#undef STRATA_C_INGEST_FLAG

void strata_ingestexternalfileoptions_destroy(
    strata_ingestexternalfileoptions_t* opt) {
  delete opt;
}

void strata_ingest_external_file(strata_t* db, const char* const* file_list,
                                 const size_t list_len,
                                 const strata_ingestexternalfileoptions_t* opt,
                                 char** errptr) {
  SaveError(errptr, db->rep->IngestExternalFile(FileList(file_list, list_len),
                                                opt->rep));
}

void strata_ingest_external_file_cf(
    strata_t* db, strata_column_family_handle_t* handle,
    const char* const* file_list, const size_t list_len,
    const strata_ingestexternalfileoptions_t* opt, char** errptr) {
  SaveError(errptr, db->rep->IngestExternalFile(
                        handle->rep, FileList(file_list, list_len), opt->rep));
}

}  // extern "C"
