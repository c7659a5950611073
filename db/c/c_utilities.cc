// The C API's calls for operating a DB: read-only instances, checkpoints
// and the OPTIONS file (include/strata/c_utilities.h).

#include <cstdlib>
#include <cstring>
#include <vector>

#include "db/c/c_internal.h"
#include "strata/utilities/checkpoint.h"
#include "strata/utilities/options_util.h"

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

void strata_load_latest_options(const char* db_path, strata_env_t* env,
                                unsigned char ignore_unknown_options,
                                strata_cache_t* cache,
                                strata_options_t** db_options,
                                size_t* num_column_families,
                                char*** column_family_names,
                                strata_options_t*** column_family_options,
                                char** errptr) {
  *db_options = nullptr;
  *column_family_names = nullptr;
  *column_family_options = nullptr;
  strata::DBOptions loaded;
  std::vector<strata::ColumnFamilyDescriptor> families;
  std::shared_ptr<strata::Cache> block_cache;
  if (cache != nullptr) block_cache = cache->rep;
  strata::Status s = strata::LoadLatestOptions(
      db_path, env != nullptr ? env->rep : strata::Env::Default(), &loaded,
      &families, ignore_unknown_options != 0,
      cache != nullptr ? &block_cache : nullptr);
  if (SaveError(errptr, s)) return;
  const size_t n = families.size();
  char** names = static_cast<char**>(std::malloc(sizeof(char*) * n));
  auto** options = static_cast<strata_options_t**>(
      std::malloc(sizeof(strata_options_t*) * n));
  for (size_t i = 0; i < n; i++) {
    const std::string& name = families[i].name;
    names[i] = static_cast<char*>(std::malloc(name.size() + 1));
    std::memcpy(names[i], name.c_str(), name.size() + 1);
    options[i] =
        new strata_options_t{strata::Options(loaded, families[i].options)};
  }
  *db_options = new strata_options_t{
      strata::Options(loaded, strata::ColumnFamilyOptions())};
  *num_column_families = n;
  *column_family_names = names;
  *column_family_options = options;
}

void strata_load_latest_options_destroy(
    strata_options_t* db_options, char** list_column_family_names,
    strata_options_t** list_column_family_options, size_t len) {
  delete db_options;
  for (size_t i = 0; i < len; i++) {
    if (list_column_family_names != nullptr) {
      std::free(list_column_family_names[i]);
    }
    if (list_column_family_options != nullptr) {
      delete list_column_family_options[i];
    }
  }
  std::free(list_column_family_names);
  std::free(list_column_family_options);
}

}  // extern "C"
