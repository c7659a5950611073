// strata's C API (include/strata/c.h): iterators.

#include <vector>

#include "db/c/c_internal.h"

using strata::ColumnFamilyHandle;
using strata::Iterator;
using strata::Slice;
using strata::c_api::SaveError;

extern "C" {

strata_iterator_t* strata_create_iterator(strata_t* db,
                                          const strata_readoptions_t* options) {
  return new strata_iterator_t{db->rep->NewIterator(options->rep)};
}

strata_iterator_t* strata_create_iterator_cf(
    strata_t* db, const strata_readoptions_t* options,
    strata_column_family_handle_t* column_family) {
  return new strata_iterator_t{
      db->rep->NewIterator(options->rep, column_family->rep)};
}

void strata_create_iterators(strata_t* db, strata_readoptions_t* opts,
                             strata_column_family_handle_t** column_families,
                             strata_iterator_t** iterators, size_t size,
                             char** errptr) {
  std::vector<ColumnFamilyHandle*> families(size);
  for (size_t i = 0; i < size; i++) {
    families[i] = column_families[i]->rep;
  }
  std::vector<Iterator*> result;
  if (SaveError(errptr, db->rep->NewIterators(opts->rep, families, &result))) {
    return;
  }
  for (size_t i = 0; i < size; i++) {
    iterators[i] = new strata_iterator_t{result[i]};
  }
}

void strata_iter_destroy(strata_iterator_t* iter) {
  delete iter->rep;
  delete iter;
}

unsigned char strata_iter_valid(const strata_iterator_t* iter) {
  return iter->rep->Valid();
}

void strata_iter_seek_to_first(strata_iterator_t* iter) {
  iter->rep->SeekToFirst();
}

void strata_iter_seek_to_last(strata_iterator_t* iter) {
  iter->rep->SeekToLast();
}

void strata_iter_seek(strata_iterator_t* iter, const char* k, size_t klen) {
  iter->rep->Seek(Slice(k, klen));
}

void strata_iter_seek_for_prev(strata_iterator_t* iter, const char* k,
                               size_t klen) {
  iter->rep->SeekForPrev(Slice(k, klen));
}

void strata_iter_next(strata_iterator_t* iter) { iter->rep->Next(); }

void strata_iter_prev(strata_iterator_t* iter) { iter->rep->Prev(); }

const char* strata_iter_key(const strata_iterator_t* iter, size_t* klen) {
  Slice key = iter->rep->key();
  *klen = key.size();
  return key.data();
}

const char* strata_iter_value(const strata_iterator_t* iter, size_t* vlen) {
  Slice value = iter->rep->value();
  *vlen = value.size();
  return value.data();
}

void strata_iter_get_error(const strata_iterator_t* iter, char** errptr) {
  SaveError(errptr, iter->rep->status());
}

}  // extern "C"
