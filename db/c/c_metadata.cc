// The C API's live files: file deletions on and off, the live tables, and
// a family's levels and tables (include/strata/c_metadata.h).

#include <vector>

#include "db/c/c_internal.h"
#include "strata/metadata.h"

using strata::c_api::CopyBytes;
using strata::c_api::SaveError;

struct strata_livefiles_t {
  std::vector<strata::LiveFileMetaData> rep;
};

struct strata_column_family_metadata_t {
  strata::ColumnFamilyMetaData rep;
};

// Copies, so that a level stays valid whichever of it and its family is
// destroyed first (and likewise a table and its level).
struct strata_level_metadata_t {
  int level;
  uint64_t size;
  std::vector<strata::SstFileMetaData> files;
};

struct strata_sst_file_metadata_t {
  strata::SstFileMetaData rep;
};

extern "C" {

void strata_disable_file_deletions(strata_t* db, char** errptr) {
  SaveError(errptr, db->rep->DisableFileDeletions());
}

void strata_enable_file_deletions(strata_t* db, unsigned char force,
                                  char** errptr) {
  SaveError(errptr, db->rep->EnableFileDeletions(force != 0));
}

const strata_livefiles_t* strata_livefiles(strata_t* db) {
  auto* result = new strata_livefiles_t;
  db->rep->GetLiveFilesMetaData(&result->rep);
  return result;
}

int strata_livefiles_count(const strata_livefiles_t* lf) {
  return static_cast<int>(lf->rep.size());
}

const char* strata_livefiles_column_family_name(const strata_livefiles_t* lf,
                                                int index) {
  return lf->rep[index].column_family_name.c_str();
}

const char* strata_livefiles_name(const strata_livefiles_t* lf, int index) {
  return lf->rep[index].name.c_str();
}

int strata_livefiles_level(const strata_livefiles_t* lf, int index) {
  return lf->rep[index].level;
}

size_t strata_livefiles_size(const strata_livefiles_t* lf, int index) {
  return static_cast<size_t>(lf->rep[index].size);
}

const char* strata_livefiles_smallestkey(const strata_livefiles_t* lf,
                                         int index, size_t* size) {
  *size = lf->rep[index].smallestkey.size();
  return lf->rep[index].smallestkey.data();
}

const char* strata_livefiles_largestkey(const strata_livefiles_t* lf, int index,
                                        size_t* size) {
  *size = lf->rep[index].largestkey.size();
  return lf->rep[index].largestkey.data();
}

uint64_t strata_livefiles_entries(const strata_livefiles_t* lf, int index) {
  return lf->rep[index].num_entries;
}

uint64_t strata_livefiles_deletions(const strata_livefiles_t* lf, int index) {
  return lf->rep[index].num_deletions;
}

void strata_livefiles_destroy(const strata_livefiles_t* lf) { delete lf; }

strata_column_family_metadata_t* strata_get_column_family_metadata(
    strata_t* db) {
  auto* result = new strata_column_family_metadata_t;
  db->rep->GetColumnFamilyMetaData(&result->rep);
  return result;
}

strata_column_family_metadata_t* strata_get_column_family_metadata_cf(
    strata_t* db, strata_column_family_handle_t* column_family) {
  auto* result = new strata_column_family_metadata_t;
  db->rep->GetColumnFamilyMetaData(column_family->rep, &result->rep);
  return result;
}

void strata_column_family_metadata_destroy(
    strata_column_family_metadata_t* cf_meta) {
  delete cf_meta;
}

uint64_t strata_column_family_metadata_get_size(
    strata_column_family_metadata_t* cf_meta) {
  return cf_meta->rep.size;
}

size_t strata_column_family_metadata_get_file_count(
    strata_column_family_metadata_t* cf_meta) {
  return cf_meta->rep.file_count;
}

char* strata_column_family_metadata_get_name(
    strata_column_family_metadata_t* cf_meta) {
  return CopyBytes(cf_meta->rep.name, /*nul=*/true);
}

size_t strata_column_family_metadata_get_level_count(
    strata_column_family_metadata_t* cf_meta) {
  return cf_meta->rep.levels.size();
}

strata_level_metadata_t* strata_column_family_metadata_get_level_metadata(
    strata_column_family_metadata_t* cf_meta, size_t i) {
  if (i >= cf_meta->rep.levels.size()) return nullptr;
  const strata::LevelMetaData& level = cf_meta->rep.levels[i];
  return new strata_level_metadata_t{level.level, level.size, level.files};
}

void strata_level_metadata_destroy(strata_level_metadata_t* level_meta) {
  delete level_meta;
}

int strata_level_metadata_get_level(strata_level_metadata_t* level_meta) {
  return level_meta->level;
}

uint64_t strata_level_metadata_get_size(strata_level_metadata_t* level_meta) {
  return level_meta->size;
}

size_t strata_level_metadata_get_file_count(
    strata_level_metadata_t* level_meta) {
  return level_meta->files.size();
}

strata_sst_file_metadata_t* strata_level_metadata_get_sst_file_metadata(
    strata_level_metadata_t* level_meta, size_t i) {
  if (i >= level_meta->files.size()) return nullptr;
  return new strata_sst_file_metadata_t{level_meta->files[i]};
}

void strata_sst_file_metadata_destroy(strata_sst_file_metadata_t* file_meta) {
  delete file_meta;
}

char* strata_sst_file_metadata_get_relative_filename(
    strata_sst_file_metadata_t* file_meta) {
  return CopyBytes(file_meta->rep.relative_filename, /*nul=*/true);
}

uint64_t strata_sst_file_metadata_get_size(
    strata_sst_file_metadata_t* file_meta) {
  return file_meta->rep.size;
}

char* strata_sst_file_metadata_get_smallestkey(
    strata_sst_file_metadata_t* file_meta, size_t* len) {
  *len = file_meta->rep.smallestkey.size();
  return CopyBytes(file_meta->rep.smallestkey);
}

char* strata_sst_file_metadata_get_largestkey(
    strata_sst_file_metadata_t* file_meta, size_t* len) {
  *len = file_meta->rep.largestkey.size();
  return CopyBytes(file_meta->rep.largestkey);
}

}  // extern "C"
