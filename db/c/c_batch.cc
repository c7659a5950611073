// strata's C API (include/strata/c.h): write batches.

#include <string>

#include "db/c/c_internal.h"

using strata::ColumnFamilyHandle;
using strata::Slice;
using strata::SliceParts;
using strata::WriteBatch;

namespace {

// The n parts of a v form joined into one byte string, for the updates
// WriteBatch takes as a single Slice.
std::string Join(int n, const char* const* parts, const size_t* sizes) {
  std::string result;
  for (int i = 0; i < n; i++) {
    result.append(parts[i], sizes[i]);
  }
  return result;
}

void PutV(WriteBatch* batch, ColumnFamilyHandle* family, int num_keys,
          const char* const* keys_list, const size_t* keys_list_sizes,
          int num_values, const char* const* values_list,
          const size_t* values_list_sizes) {
  std::string key = Join(num_keys, keys_list, keys_list_sizes);
  std::string value = Join(num_values, values_list, values_list_sizes);
  if (family == nullptr) {
    batch->Put(key, value);
  } else {
    batch->Put(family, key, value);
  }
}

// Reports the Puts and Deletes of the default family to C callbacks; the
// base Handler skips the other updates and fails on other families.
class CallbackHandler : public WriteBatch::Handler {
 public:
  CallbackHandler(void* state,
                  void (*put)(void*, const char*, size_t, const char*, size_t),
                  void (*deleted)(void*, const char*, size_t))
      : state_(state), put_(put), deleted_(deleted) {}

  void Put(const Slice& key, const Slice& value) override {
    put_(state_, key.data(), key.size(), value.data(), value.size());
  }
  void Delete(const Slice& key) override {
    deleted_(state_, key.data(), key.size());
  }

 private:
  void* const state_;
  void (*const put_)(void*, const char*, size_t, const char*, size_t);
  void (*const deleted_)(void*, const char*, size_t);
};

}  // namespace

extern "C" {

strata_writebatch_t* strata_writebatch_create(void) {
  return new strata_writebatch_t;
}

strata_writebatch_t* strata_writebatch_create_from(const char* rep,
                                                   size_t size) {
  return new strata_writebatch_t{WriteBatch(std::string(rep, size))};
}

void strata_writebatch_destroy(strata_writebatch_t* b) { delete b; }

void strata_writebatch_clear(strata_writebatch_t* b) { b->rep.Clear(); }

int strata_writebatch_count(strata_writebatch_t* b) {
  return static_cast<int>(b->rep.Count());
}

// The C functions return nothing: as in RocksDB, an update a batch cannot
// take (one past its max_bytes, which the C API never sets) is dropped.

void strata_writebatch_put(strata_writebatch_t* b, const char* key, size_t klen,
                           const char* val, size_t vlen) {
  b->rep.Put(Slice(key, klen), Slice(val, vlen));
}

void strata_writebatch_put_cf(strata_writebatch_t* b,
                              strata_column_family_handle_t* column_family,
                              const char* key, size_t klen, const char* val,
                              size_t vlen) {
  b->rep.Put(column_family->rep, Slice(key, klen), Slice(val, vlen));
}

void strata_writebatch_putv(strata_writebatch_t* b, int num_keys,
                            const char* const* keys_list,
                            const size_t* keys_list_sizes, int num_values,
                            const char* const* values_list,
                            const size_t* values_list_sizes) {
  PutV(&b->rep, nullptr, num_keys, keys_list, keys_list_sizes, num_values,
       values_list, values_list_sizes);
}

void strata_writebatch_putv_cf(strata_writebatch_t* b,
                               strata_column_family_handle_t* column_family,
                               int num_keys, const char* const* keys_list,
                               const size_t* keys_list_sizes, int num_values,
                               const char* const* values_list,
                               const size_t* values_list_sizes) {
  PutV(&b->rep, column_family->rep, num_keys, keys_list, keys_list_sizes,
       num_values, values_list, values_list_sizes);
}

void strata_writebatch_merge(strata_writebatch_t* b, const char* key,
                             size_t klen, const char* val, size_t vlen) {
  b->rep.Merge(Slice(key, klen), Slice(val, vlen));
}

void strata_writebatch_merge_cf(strata_writebatch_t* b,
                                strata_column_family_handle_t* column_family,
                                const char* key, size_t klen, const char* val,
                                size_t vlen) {
  b->rep.Merge(column_family->rep, Slice(key, klen), Slice(val, vlen));
}

void strata_writebatch_mergev(strata_writebatch_t* b, int num_keys,
                              const char* const* keys_list,
                              const size_t* keys_list_sizes, int num_values,
                              const char* const* values_list,
                              const size_t* values_list_sizes) {
  b->rep.Merge(Join(num_keys, keys_list, keys_list_sizes),
               Join(num_values, values_list, values_list_sizes));
}

void strata_writebatch_mergev_cf(strata_writebatch_t* b,
                                 strata_column_family_handle_t* column_family,
                                 int num_keys, const char* const* keys_list,
                                 const size_t* keys_list_sizes, int num_values,
                                 const char* const* values_list,
                                 const size_t* values_list_sizes) {
  b->rep.Merge(column_family->rep, Join(num_keys, keys_list, keys_list_sizes),
               Join(num_values, values_list, values_list_sizes));
}

void strata_writebatch_delete(strata_writebatch_t* b, const char* key,
                              size_t klen) {
  b->rep.Delete(Slice(key, klen));
}

void strata_writebatch_singledelete(strata_writebatch_t* b, const char* key,
                                    size_t klen) {
  b->rep.SingleDelete(Slice(key, klen));
}

void strata_writebatch_delete_cf(strata_writebatch_t* b,
                                 strata_column_family_handle_t* column_family,
                                 const char* key, size_t klen) {
  b->rep.Delete(column_family->rep, Slice(key, klen));
}

void strata_writebatch_singledelete_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    const char* key, size_t klen) {
  b->rep.SingleDelete(column_family->rep, Slice(key, klen));
}

void strata_writebatch_deletev(strata_writebatch_t* b, int num_keys,
                               const char* const* keys_list,
                               const size_t* keys_list_sizes) {
  b->rep.Delete(Join(num_keys, keys_list, keys_list_sizes));
}

void strata_writebatch_deletev_cf(strata_writebatch_t* b,
                                  strata_column_family_handle_t* column_family,
                                  int num_keys, const char* const* keys_list,
                                  const size_t* keys_list_sizes) {
  b->rep.Delete(column_family->rep, Join(num_keys, keys_list, keys_list_sizes));
}

void strata_writebatch_delete_range(strata_writebatch_t* b,
                                    const char* start_key, size_t start_key_len,
                                    const char* end_key, size_t end_key_len) {
  b->rep.DeleteRange(Slice(start_key, start_key_len),
                     Slice(end_key, end_key_len));
}

void strata_writebatch_delete_range_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    const char* start_key, size_t start_key_len, const char* end_key,
    size_t end_key_len) {
  b->rep.DeleteRange(column_family->rep, Slice(start_key, start_key_len),
                     Slice(end_key, end_key_len));
}

void strata_writebatch_delete_rangev(strata_writebatch_t* b, int num_keys,
                                     const char* const* start_keys_list,
                                     const size_t* start_keys_list_sizes,
                                     const char* const* end_keys_list,
                                     const size_t* end_keys_list_sizes) {
  b->rep.DeleteRange(Join(num_keys, start_keys_list, start_keys_list_sizes),
                     Join(num_keys, end_keys_list, end_keys_list_sizes));
}

void strata_writebatch_delete_rangev_cf(
    strata_writebatch_t* b, strata_column_family_handle_t* column_family,
    int num_keys, const char* const* start_keys_list,
    const size_t* start_keys_list_sizes, const char* const* end_keys_list,
    const size_t* end_keys_list_sizes) {
  b->rep.DeleteRange(column_family->rep,
                     Join(num_keys, start_keys_list, start_keys_list_sizes),
                     Join(num_keys, end_keys_list, end_keys_list_sizes));
}

void strata_writebatch_put_log_data(strata_writebatch_t* b, const char* blob,
                                    size_t len) {
  b->rep.PutLogData(Slice(blob, len));
}

void strata_writebatch_iterate(strata_writebatch_t* b, void* state,
                               void (*put)(void*, const char* k, size_t klen,
                                           const char* v, size_t vlen),
                               void (*deleted)(void*, const char* k,
                                               size_t klen)) {
  CallbackHandler handler(state, put, deleted);
  b->rep.Iterate(&handler);
}

const char* strata_writebatch_data(strata_writebatch_t* b, size_t* size) {
  *size = b->rep.GetDataSize();
  return b->rep.Data().data();
}

}  // extern "C"
