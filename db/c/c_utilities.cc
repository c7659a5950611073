// The C API's calls for operating a DB: read-only instances and
// checkpoints (include/strata/c_utilities.h).

#include "db/c/c_internal.h"
#include "strata/utilities/checkpoint.h"

using strata::c_api::SaveError;

struct strata_checkpoint_t {
  strata::Checkpoint* rep;
};

extern "C" {

strata_t* strata_open_for_read_only(const strata_options_t* options,
                                    const char* name,
                                    unsigned char error_if_wal_file_exists,
                                    char** errptr) {
  strata::DB* db = nullptr;
  if (SaveError(errptr,
                strata::DB::OpenForReadOnly(options->rep, name, &db,
                                            error_if_wal_file_exists != 0))) {
    return nullptr;
  }
  return new strata_t{db};
}

strata_t* strata_open_for_read_only_column_families(
    const strata_options_t* options, const char* name, int num_column_families,
    const char* const* column_family_names,
    const strata_options_t* const* column_family_options,
    strata_column_family_handle_t** column_family_handles,
    unsigned char error_if_wal_file_exists, char** errptr) {
  return strata::c_api::OpenWithFamilies(
      options, num_column_families, column_family_names, column_family_options,
      column_family_handles, errptr,
      [name, error_if_wal_file_exists](
          const strata::DBOptions& db_options,
          const std::vector<strata::ColumnFamilyDescriptor>& families,
          std::vector<strata::ColumnFamilyHandle*>* handles, strata::DB** db) {
        return strata::DB::OpenForReadOnly(db_options, name, families, handles,
                                           db, error_if_wal_file_exists != 0);
      });
}

strata_checkpoint_t* strata_checkpoint_object_create(strata_t* db,
                                                     char** errptr) {
  strata::Checkpoint* checkpoint = nullptr;
  if (SaveError(errptr, strata::Checkpoint::Create(db->rep, &checkpoint))) {
    return nullptr;
  }
  return new strata_checkpoint_t{checkpoint};
}

void strata_checkpoint_create(strata_checkpoint_t* checkpoint,
                              const char* checkpoint_dir,
                              uint64_t log_size_for_flush, char** errptr) {
  SaveError(errptr, checkpoint->rep->CreateCheckpoint(checkpoint_dir,
                                                      log_size_for_flush));
}

void strata_checkpoint_object_destroy(strata_checkpoint_t* checkpoint) {
  if (checkpoint == nullptr) return;
  delete checkpoint->rep;
  delete checkpoint;
}

}  // extern "C"
