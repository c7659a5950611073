// The objects behind the opaque handles of strata's C API
// (include/strata/c.h), shared by the db/c/*.cc files that implement it.
//
// Each C type is a struct wrapping the C++ object it stands for; the C
// functions only translate arguments (pointer + length to Slice, unsigned
// char to bool) and report a Status through the char** errptr convention.
// Not part of the public API: C programs see only the typedefs.

#ifndef STRATA_DB_C_C_INTERNAL_H_
#define STRATA_DB_C_C_INTERNAL_H_

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "strata/c.h"
#include "strata/cache.h"
#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/slice_transform.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/table.h"
#include "strata/write_batch.h"

// A setter and a getter for a field of the C++ struct behind a C options
// type, with the C types of RocksDB's declarations (which are not always
// the field's: unsigned char or int for a bool).
#define STRATA_C_FIELD(type, name, field, set_type, get_type)           \
  void strata_##type##_set_##name(strata_##type##_t* opt, set_type v) { \
    opt->rep.field = static_cast<decltype(opt->rep.field)>(v);          \
  }                                                                     \
  get_type strata_##type##_get_##name(strata_##type##_t* opt) {         \
    return static_cast<get_type>(opt->rep.field);                       \
  }

struct strata_t {
  strata::DB* rep;
};

struct strata_column_family_handle_t {
  strata::ColumnFamilyHandle* rep;
};

struct strata_iterator_t {
  strata::Iterator* rep;
};

struct strata_snapshot_t {
  const strata::Snapshot* rep;
};

struct strata_writebatch_t {
  strata::WriteBatch rep;
};

struct strata_pinnableslice_t {
  strata::PinnableSlice rep;
};

struct strata_options_t {
  strata::Options rep;
};

// The iterate bounds are Slices in ReadOptions, which borrow their bytes:
// the options keep the bytes, so a caller's buffer may go away at once.
struct strata_readoptions_t {
  strata::ReadOptions rep;
  std::string upper_bound;
  std::string lower_bound;
  strata::Slice upper_bound_slice;
  strata::Slice lower_bound_slice;
};

struct strata_writeoptions_t {
  strata::WriteOptions rep;
};

struct strata_flushoptions_t {
  strata::FlushOptions rep;
};

struct strata_compactoptions_t {
  strata::CompactRangeOptions rep;
};

struct strata_block_based_table_options_t {
  strata::BlockBasedTableOptions rep;
};

struct strata_lru_cache_options_t {
  strata::LRUCacheOptions rep;
};

// The default Env is the process's: is_default keeps strata_env_destroy
// from deleting it.
struct strata_env_t {
  strata::Env* rep;
  bool is_default;
};

// One reference to the cache; table options hold their own.
struct strata_cache_t {
  std::shared_ptr<strata::Cache> rep;
};

// A comparator of C callbacks; state is released by destructor when the
// object is deleted. strata never shortens keys through it (index keys
// stay whole), which C callbacks could not do anyway.
struct strata_comparator_t : public strata::Comparator {
  void* state;
  void (*destructor)(void*);
  int (*compare)(void*, const char* a, size_t alen, const char* b, size_t blen);
  const char* (*name)(void*);

  ~strata_comparator_t() override;
  int Compare(const strata::Slice& a, const strata::Slice& b) const override;
  const char* Name() const override;
  void FindShortestSeparator(std::string*,
                             const strata::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

// A merge operator of C callbacks; the options it is set in own it.
struct strata_mergeoperator_t : public strata::MergeOperator {
  void* state;
  void (*destructor)(void*);
  char* (*full_merge)(void*, const char* key, size_t key_length,
                      const char* existing_value, size_t existing_value_length,
                      const char* const* operands_list,
                      const size_t* operands_list_length, int num_operands,
                      unsigned char* success, size_t* new_value_length);
  char* (*partial_merge)(void*, const char* key, size_t key_length,
                         const char* const* operands_list,
                         const size_t* operands_list_length, int num_operands,
                         unsigned char* success, size_t* new_value_length);
  void (*delete_value)(void*, const char* value, size_t value_length);
  const char* (*name)(void*);

  ~strata_mergeoperator_t() override;
  const char* Name() const override;
  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
  bool PartialMergeMulti(const strata::Slice& key,
                         const std::deque<strata::Slice>& operand_list,
                         std::string* new_value,
                         strata::Logger* logger) const override;
};

// A filter policy handed out by the C API: it forwards to the policy
// strata built, so that the table options can own it as one object.
struct strata_filterpolicy_t : public strata::FilterPolicy {
  std::unique_ptr<const strata::FilterPolicy> rep;

  const char* Name() const override { return rep->Name(); }
  strata::FilterBitsBuilder* NewBuilder() const override {
    return rep->NewBuilder();
  }
  strata::FilterBitsReader* NewReader(
      const strata::Slice& contents) const override {
    return rep->NewReader(contents);
  }
};

// A prefix extractor: C callbacks, or (wrapped set) one strata made.
struct strata_slicetransform_t : public strata::SliceTransform {
  std::unique_ptr<const strata::SliceTransform> wrapped;
  void* state = nullptr;
  void (*destructor)(void*) = nullptr;
  char* (*transform)(void*, const char* key, size_t length,
                     size_t* dst_length) = nullptr;
  unsigned char (*in_domain)(void*, const char* key, size_t length) = nullptr;
  const char* (*name)(void*) = nullptr;

  ~strata_slicetransform_t() override;
  const char* Name() const override;
  strata::Slice Transform(const strata::Slice& key) const override;
  bool InDomain(const strata::Slice& key) const override;
};

namespace strata {
namespace c_api {

// Reports s through errptr as c.h describes: true (and *errptr replaced
// by a malloc'ed copy of s's message) if s is an error, false if OK.
bool SaveError(char** errptr, const Status& s);

// A malloc'ed copy of s's bytes, not NUL-terminated unless nul is set.
char* CopyBytes(const Slice& s, bool nul = false);

// Opens a DB through open with the n families named (their options in
// family_options), as the *_column_families calls do: on success
// handles[0..n) get the families' handles.
using FamiliesOpener = std::function<Status(
    const DBOptions&, const std::vector<ColumnFamilyDescriptor>&,
    std::vector<ColumnFamilyHandle*>*, DB**)>;
strata_t* OpenWithFamilies(const strata_options_t* options, int n,
                           const char* const* names,
                           const strata_options_t* const* family_options,
                           strata_column_family_handle_t** handles,
                           char** errptr, const FamiliesOpener& open);

}  // namespace c_api
}  // namespace strata

#endif  // STRATA_DB_C_C_INTERNAL_H_
