// strata's C API (include/strata/c.h): column families.

#include <cstdlib>
#include <string>
#include <vector>

#include "db/c/c_internal.h"

using strata::ColumnFamilyDescriptor;
using strata::ColumnFamilyHandle;
using strata::ColumnFamilyOptions;
using strata::DB;
using strata::Status;
using strata::c_api::CopyBytes;
using strata::c_api::SaveError;

namespace strata {
namespace c_api {

strata_t* OpenWithFamilies(const strata_options_t* options, int n,
                           const char* const* names,
                           const strata_options_t* const* family_options,
                           strata_column_family_handle_t** handles,
                           char** errptr, const FamiliesOpener& open) {
  std::vector<ColumnFamilyDescriptor> families;
  for (int i = 0; i < n; i++) {
    families.emplace_back(names[i],
                          ColumnFamilyOptions(family_options[i]->rep));
  }
  DB* db = nullptr;
  std::vector<ColumnFamilyHandle*> opened;
  if (SaveError(errptr,
                open(DBOptions(options->rep), families, &opened, &db))) {
    return nullptr;
  }
  for (size_t i = 0; i < opened.size(); i++) {
    handles[i] = new strata_column_family_handle_t{opened[i]};
  }
  return new strata_t{db};
}

}  // namespace c_api
}  // namespace strata

extern "C" {

strata_t* strata_open_column_families(
    const strata_options_t* options, const char* name, int num_column_families,
    const char* const* column_family_names,
    const strata_options_t* const* column_family_options,
    strata_column_family_handle_t** column_family_handles, char** errptr) {
  return strata::c_api::OpenWithFamilies(
      options, num_column_families, column_family_names, column_family_options,
      column_family_handles, errptr,
      [name](const strata::DBOptions& db_options,
             const std::vector<ColumnFamilyDescriptor>& families,
             std::vector<ColumnFamilyHandle*>* handles, DB** db) {
        return DB::Open(db_options, name, families, handles, db);
      });
}

char** strata_list_column_families(const strata_options_t* options,
                                   const char* name, size_t* lencf,
                                   char** errptr) {
  std::vector<std::string> names;
  *lencf = 0;
  if (SaveError(errptr, DB::ListColumnFamilies(strata::DBOptions(options->rep),
                                               name, &names))) {
    return nullptr;
  }
  char** result =
      static_cast<char**>(std::malloc(sizeof(char*) * (names.size() + 1)));
  for (size_t i = 0; i < names.size(); i++) {
    result[i] = CopyBytes(names[i], /*nul=*/true);
  }
  *lencf = names.size();
  return result;
}

void strata_list_column_families_destroy(char** list, size_t len) {
  if (list == nullptr) {
    return;
  }
  for (size_t i = 0; i < len; i++) {
    std::free(list[i]);
  }
  std::free(list);
}

strata_column_family_handle_t* strata_create_column_family(
    strata_t* db, const strata_options_t* column_family_options,
    const char* column_family_name, char** errptr) {
  ColumnFamilyHandle* handle = nullptr;
  if (SaveError(errptr, db->rep->CreateColumnFamily(
                            ColumnFamilyOptions(column_family_options->rep),
                            column_family_name, &handle))) {
    return nullptr;
  }
  return new strata_column_family_handle_t{handle};
}

void strata_drop_column_family(strata_t* db,
                               strata_column_family_handle_t* handle,
                               char** errptr) {
  // NULL: what a failed strata_create_column_family returned.
  if (handle == nullptr) {
    SaveError(errptr, Status::InvalidArgument("no column family handle"));
    return;
  }
  SaveError(errptr, db->rep->DropColumnFamily(handle->rep));
}

void strata_column_family_handle_destroy(
    strata_column_family_handle_t* handle) {
  // NULL is what a failed strata_create_column_family returns; RocksDB
  // returns an empty handle there, which programs destroy unchecked.
  if (handle == nullptr) {
    return;
  }
  // Handles from Open and CreateColumnFamily are the caller's to delete
  // (strata/db.h); this API never hands out the DB's default handle.
  delete handle->rep;
  delete handle;
}

uint32_t strata_column_family_handle_get_id(
    strata_column_family_handle_t* handle) {
  return handle->rep->GetID();
}

char* strata_column_family_handle_get_name(
    strata_column_family_handle_t* handle, size_t* name_len) {
  const std::string& name = handle->rep->GetName();
  *name_len = name.size();
  return CopyBytes(name);
}

}  // extern "C"
