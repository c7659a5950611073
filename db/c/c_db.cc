// strata's C API (include/strata/c.h): opening and closing a DB, its
// reads and writes, snapshots, properties and maintenance.

#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "db/c/c_internal.h"

using strata::ColumnFamilyHandle;
using strata::DB;
using strata::PinnableSlice;
using strata::Slice;
using strata::Status;
using strata::c_api::CopyBytes;
using strata::c_api::SaveError;

namespace strata {
namespace c_api {

bool SaveError(char** errptr, const Status& s) {
  if (s.ok()) {
    return false;
  }
  // c.h's contract: an earlier message is the caller's to replace, so it
  // is freed here rather than leaked.
  std::free(*errptr);
  *errptr = CopyBytes(s.ToString(), /*nul=*/true);
  return true;
}

char* CopyBytes(const Slice& s, bool nul) {
  // malloc(0) may return NULL, which a caller would take for "no value".
  char* result = static_cast<char*>(std::malloc(s.size() + 1));
  if (s.size() > 0) {
    std::memcpy(result, s.data(), s.size());
  }
  if (nul) {
    result[s.size()] = '\0';
  }
  return result;
}

}  // namespace c_api
}  // namespace strata

namespace {

ColumnFamilyHandle* DefaultFamily(strata_t* db) {
  return db->rep->DefaultColumnFamily();
}

// A Get's result as the C API returns it: a malloc'ed copy, or NULL.
char* ValueOrNull(const Status& s, const std::string& value, size_t* vallen,
                  char** errptr) {
  *vallen = 0;
  if (s.IsNotFound()) {
    return nullptr;
  }
  if (SaveError(errptr, s)) {
    return nullptr;
  }
  *vallen = value.size();
  return CopyBytes(value);
}

void MultiGet(strata_t* db, const strata_readoptions_t* options,
              const std::vector<ColumnFamilyHandle*>& families, size_t num_keys,
              const char* const* keys_list, const size_t* keys_list_sizes,
              char** values_list, size_t* values_list_sizes, char** errs) {
  std::vector<Slice> keys(num_keys);
  for (size_t i = 0; i < num_keys; i++) {
    keys[i] = Slice(keys_list[i], keys_list_sizes[i]);
  }
  std::vector<std::string> values(num_keys);
  std::vector<Status> statuses =
      db->rep->MultiGet(options->rep, families, keys, &values);
  for (size_t i = 0; i < num_keys; i++) {
    values_list[i] = nullptr;
    values_list_sizes[i] = 0;
    errs[i] = nullptr;
    if (statuses[i].ok()) {
      values_list[i] = CopyBytes(values[i]);
      values_list_sizes[i] = values[i].size();
    } else if (!statuses[i].IsNotFound()) {
      errs[i] = CopyBytes(statuses[i].ToString(), /*nul=*/true);
    }
  }
}

strata_pinnableslice_t* GetPinned(strata_t* db,
                                  const strata_readoptions_t* options,
                                  ColumnFamilyHandle* family, const char* key,
                                  size_t keylen, char** errptr) {
  strata_pinnableslice_t* v = new strata_pinnableslice_t;
  Status s = db->rep->Get(options->rep, family, Slice(key, keylen), &v->rep);
  if (!s.ok()) {
    delete v;
    if (!s.IsNotFound()) {
      SaveError(errptr, s);
    }
    return nullptr;
  }
  return v;
}

std::vector<strata::Range> Ranges(int num_ranges,
                                  const char* const* range_start_key,
                                  const size_t* range_start_key_len,
                                  const char* const* range_limit_key,
                                  const size_t* range_limit_key_len) {
  std::vector<strata::Range> ranges(num_ranges > 0 ? num_ranges : 0);
  for (size_t i = 0; i < ranges.size(); i++) {
    ranges[i].start = Slice(range_start_key[i], range_start_key_len[i]);
    ranges[i].limit = Slice(range_limit_key[i], range_limit_key_len[i]);
  }
  return ranges;
}

void CompactRange(strata_t* db, ColumnFamilyHandle* family,
                  const strata::CompactRangeOptions& options,
                  const char* start_key, size_t start_key_len,
                  const char* limit_key, size_t limit_key_len) {
  Slice start(start_key, start_key_len);
  Slice limit(limit_key, limit_key_len);
  // RocksDB's C calls have no errptr: a failed compaction leaves the data
  // as it was, and the DB's background error (if any) shows on writes.
  db->rep->CompactRange(options, family, start_key ? &start : nullptr,
                        limit_key ? &limit : nullptr);
}

void SetOptions(strata_t* db, ColumnFamilyHandle* family, int count,
                const char* const keys[], const char* const values[],
                char** errptr) {
  std::unordered_map<std::string, std::string> options;
  for (int i = 0; i < count; i++) {
    options[keys[i]] = values[i];
  }
  SaveError(errptr, db->rep->SetOptions(family, options));
}

}  // namespace

extern "C" {

strata_t* strata_open(const strata_options_t* options, const char* name,
                      char** errptr) {
  DB* db = nullptr;
  if (SaveError(errptr, DB::Open(options->rep, name, &db))) {
    return nullptr;
  }
  return new strata_t{db};
}

void strata_close(strata_t* db) {
  delete db->rep;
  delete db;
}

void strata_destroy_db(const strata_options_t* options, const char* name,
                       char** errptr) {
  SaveError(errptr, strata::DestroyDB(name, options->rep));
}

void strata_repair_db(const strata_options_t* options, const char* name,
                      char** errptr) {
  SaveError(errptr, strata::RepairDB(name, options->rep));
}

void strata_put(strata_t* db, const strata_writeoptions_t* options,
                const char* key, size_t keylen, const char* val, size_t vallen,
                char** errptr) {
  SaveError(errptr,
            db->rep->Put(options->rep, Slice(key, keylen), Slice(val, vallen)));
}

void strata_put_cf(strata_t* db, const strata_writeoptions_t* options,
                   strata_column_family_handle_t* column_family,
                   const char* key, size_t keylen, const char* val,
                   size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Put(options->rep, column_family->rep,
                                 Slice(key, keylen), Slice(val, vallen)));
}

void strata_delete(strata_t* db, const strata_writeoptions_t* options,
                   const char* key, size_t keylen, char** errptr) {
  SaveError(errptr, db->rep->Delete(options->rep, Slice(key, keylen)));
}

void strata_delete_cf(strata_t* db, const strata_writeoptions_t* options,
                      strata_column_family_handle_t* column_family,
                      const char* key, size_t keylen, char** errptr) {
  SaveError(errptr, db->rep->Delete(options->rep, column_family->rep,
                                    Slice(key, keylen)));
}

void strata_singledelete(strata_t* db, const strata_writeoptions_t* options,
                         const char* key, size_t keylen, char** errptr) {
  SaveError(errptr, db->rep->SingleDelete(options->rep, Slice(key, keylen)));
}

void strata_singledelete_cf(strata_t* db, const strata_writeoptions_t* options,
                            strata_column_family_handle_t* column_family,
                            const char* key, size_t keylen, char** errptr) {
  SaveError(errptr, db->rep->SingleDelete(options->rep, column_family->rep,
                                          Slice(key, keylen)));
}

void strata_delete_range_cf(strata_t* db, const strata_writeoptions_t* options,
                            strata_column_family_handle_t* column_family,
                            const char* start_key, size_t start_key_len,
                            const char* end_key, size_t end_key_len,
                            char** errptr) {
  SaveError(errptr, db->rep->DeleteRange(options->rep, column_family->rep,
                                         Slice(start_key, start_key_len),
                                         Slice(end_key, end_key_len)));
}

void strata_merge(strata_t* db, const strata_writeoptions_t* options,
                  const char* key, size_t keylen, const char* val,
                  size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Merge(options->rep, Slice(key, keylen),
                                   Slice(val, vallen)));
}

void strata_merge_cf(strata_t* db, const strata_writeoptions_t* options,
                     strata_column_family_handle_t* column_family,
                     const char* key, size_t keylen, const char* val,
                     size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Merge(options->rep, column_family->rep,
                                   Slice(key, keylen), Slice(val, vallen)));
}

void strata_write(strata_t* db, const strata_writeoptions_t* options,
                  strata_writebatch_t* batch, char** errptr) {
  SaveError(errptr, db->rep->Write(options->rep, &batch->rep));
}

char* strata_get(strata_t* db, const strata_readoptions_t* options,
                 const char* key, size_t keylen, size_t* vallen,
                 char** errptr) {
  std::string value;
  Status s = db->rep->Get(options->rep, Slice(key, keylen), &value);
  return ValueOrNull(s, value, vallen, errptr);
}

char* strata_get_cf(strata_t* db, const strata_readoptions_t* options,
                    strata_column_family_handle_t* column_family,
                    const char* key, size_t keylen, size_t* vallen,
                    char** errptr) {
  std::string value;
  Status s = db->rep->Get(options->rep, column_family->rep, Slice(key, keylen),
                          &value);
  return ValueOrNull(s, value, vallen, errptr);
}

void strata_multi_get(strata_t* db, const strata_readoptions_t* options,
                      size_t num_keys, const char* const* keys_list,
                      const size_t* keys_list_sizes, char** values_list,
                      size_t* values_list_sizes, char** errs) {
  MultiGet(db, options,
           std::vector<ColumnFamilyHandle*>(num_keys, DefaultFamily(db)),
           num_keys, keys_list, keys_list_sizes, values_list, values_list_sizes,
           errs);
}

void strata_multi_get_cf(
    strata_t* db, const strata_readoptions_t* options,
    const strata_column_family_handle_t* const* column_families,
    size_t num_keys, const char* const* keys_list,
    const size_t* keys_list_sizes, char** values_list,
    size_t* values_list_sizes, char** errs) {
  std::vector<ColumnFamilyHandle*> families(num_keys);
  for (size_t i = 0; i < num_keys; i++) {
    families[i] = column_families[i]->rep;
  }
  MultiGet(db, options, families, num_keys, keys_list, keys_list_sizes,
           values_list, values_list_sizes, errs);
}

void strata_batched_multi_get_cf(strata_t* db,
                                 const strata_readoptions_t* options,
                                 strata_column_family_handle_t* column_family,
                                 size_t num_keys, const char* const* keys_list,
                                 const size_t* keys_list_sizes,
                                 strata_pinnableslice_t** values, char** errs,
                                 const bool sorted_input) {
  std::vector<Slice> keys(num_keys);
  for (size_t i = 0; i < num_keys; i++) {
    keys[i] = Slice(keys_list[i], keys_list_sizes[i]);
  }
  std::vector<PinnableSlice> results(num_keys);
  std::vector<Status> statuses(num_keys);
  db->rep->MultiGet(options->rep, column_family->rep, num_keys, keys.data(),
                    results.data(), statuses.data(), sorted_input);
  for (size_t i = 0; i < num_keys; i++) {
    values[i] = nullptr;
    errs[i] = nullptr;
    if (statuses[i].ok()) {
      values[i] = new strata_pinnableslice_t;
      values[i]->rep = std::move(results[i]);
    } else if (!statuses[i].IsNotFound()) {
      errs[i] = CopyBytes(statuses[i].ToString(), /*nul=*/true);
    }
  }
}

strata_pinnableslice_t* strata_get_pinned(strata_t* db,
                                          const strata_readoptions_t* options,
                                          const char* key, size_t keylen,
                                          char** errptr) {
  return GetPinned(db, options, DefaultFamily(db), key, keylen, errptr);
}

strata_pinnableslice_t* strata_get_pinned_cf(
    strata_t* db, const strata_readoptions_t* options,
    strata_column_family_handle_t* column_family, const char* key,
    size_t keylen, char** errptr) {
  return GetPinned(db, options, column_family->rep, key, keylen, errptr);
}

void strata_pinnableslice_destroy(strata_pinnableslice_t* v) { delete v; }

const char* strata_pinnableslice_value(const strata_pinnableslice_t* t,
                                       size_t* vlen) {
  if (t == nullptr) {
    *vlen = 0;
    return nullptr;
  }
  *vlen = t->rep.size();
  return t->rep.data();
}

const strata_snapshot_t* strata_create_snapshot(strata_t* db) {
  return new strata_snapshot_t{db->rep->GetSnapshot()};
}

void strata_release_snapshot(strata_t* db, const strata_snapshot_t* snapshot) {
  db->rep->ReleaseSnapshot(snapshot->rep);
  delete snapshot;
}

uint64_t strata_get_latest_sequence_number(strata_t* db) {
  return db->rep->GetLatestSequenceNumber();
}

char* strata_property_value(strata_t* db, const char* propname) {
  std::string value;
  if (!db->rep->GetProperty(propname, &value)) {
    return nullptr;
  }
  return CopyBytes(value, /*nul=*/true);
}

char* strata_property_value_cf(strata_t* db,
                               strata_column_family_handle_t* column_family,
                               const char* propname) {
  std::string value;
  if (!db->rep->GetProperty(column_family->rep, propname, &value)) {
    return nullptr;
  }
  return CopyBytes(value, /*nul=*/true);
}

int strata_property_int(strata_t* db, const char* propname, uint64_t* out_val) {
  return db->rep->GetIntProperty(propname, out_val) ? 0 : -1;
}

int strata_property_int_cf(strata_t* db,
                           strata_column_family_handle_t* column_family,
                           const char* propname, uint64_t* out_val) {
  return db->rep->GetIntProperty(column_family->rep, propname, out_val) ? 0
                                                                        : -1;
}

void strata_approximate_sizes(strata_t* db, int num_ranges,
                              const char* const* range_start_key,
                              const size_t* range_start_key_len,
                              const char* const* range_limit_key,
                              const size_t* range_limit_key_len,
                              uint64_t* sizes, char** errptr) {
  std::vector<strata::Range> ranges =
      Ranges(num_ranges, range_start_key, range_start_key_len, range_limit_key,
             range_limit_key_len);
  SaveError(errptr, db->rep->GetApproximateSizes(
                        ranges.data(), static_cast<int>(ranges.size()), sizes));
}

void strata_approximate_sizes_cf(
    strata_t* db, strata_column_family_handle_t* column_family, int num_ranges,
    const char* const* range_start_key, const size_t* range_start_key_len,
    const char* const* range_limit_key, const size_t* range_limit_key_len,
    uint64_t* sizes, char** errptr) {
  std::vector<strata::Range> ranges =
      Ranges(num_ranges, range_start_key, range_start_key_len, range_limit_key,
             range_limit_key_len);
  SaveError(errptr, db->rep->GetApproximateSizes(
                        column_family->rep, ranges.data(),
                        static_cast<int>(ranges.size()), sizes));
}

void strata_flush(strata_t* db, const strata_flushoptions_t* options,
                  char** errptr) {
  SaveError(errptr, db->rep->Flush(options->rep));
}

void strata_flush_cf(strata_t* db, const strata_flushoptions_t* options,
                     strata_column_family_handle_t* column_family,
                     char** errptr) {
  SaveError(errptr, db->rep->Flush(options->rep, column_family->rep));
}

void strata_flush_wal(strata_t* db, unsigned char sync, char** errptr) {
  if (sync) {
    SaveError(errptr, db->rep->SyncWAL());
  }
}

void strata_compact_range(strata_t* db, const char* start_key,
                          size_t start_key_len, const char* limit_key,
                          size_t limit_key_len) {
  CompactRange(db, DefaultFamily(db), strata::CompactRangeOptions(), start_key,
               start_key_len, limit_key, limit_key_len);
}

void strata_compact_range_cf(strata_t* db,
                             strata_column_family_handle_t* column_family,
                             const char* start_key, size_t start_key_len,
                             const char* limit_key, size_t limit_key_len) {
  CompactRange(db, column_family->rep, strata::CompactRangeOptions(), start_key,
               start_key_len, limit_key, limit_key_len);
}

void strata_compact_range_opt(strata_t* db, strata_compactoptions_t* opt,
                              const char* start_key, size_t start_key_len,
                              const char* limit_key, size_t limit_key_len) {
  CompactRange(db, DefaultFamily(db), opt->rep, start_key, start_key_len,
               limit_key, limit_key_len);
}

void strata_compact_range_cf_opt(strata_t* db,
                                 strata_column_family_handle_t* column_family,
                                 strata_compactoptions_t* opt,
                                 const char* start_key, size_t start_key_len,
                                 const char* limit_key, size_t limit_key_len) {
  CompactRange(db, column_family->rep, opt->rep, start_key, start_key_len,
               limit_key, limit_key_len);
}

void strata_set_options(strata_t* db, int count, const char* const keys[],
                        const char* const values[], char** errptr) {
  SetOptions(db, DefaultFamily(db), count, keys, values, errptr);
}

void strata_set_options_cf(strata_t* db, strata_column_family_handle_t* handle,
                           int count, const char* const keys[],
                           const char* const values[], char** errptr) {
  SetOptions(db, handle->rep, count, keys, values, errptr);
}

void strata_free(void* ptr) { std::free(ptr); }

}  // extern "C"
