// The C API's calls for the OPTIONS file (strata_load_latest_options*,
// include/strata/c_utilities.h).

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "db/c/c_internal.h"
#include "strata/utilities/options_util.h"

using strata::c_api::SaveError;

extern "C" {

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
