// strata's C API (include/strata/c.h): comparators and merge operators
// given as C callbacks.

#include <string>
#include <vector>

#include "db/c/c_internal.h"

using strata::Slice;

strata_comparator_t::~strata_comparator_t() {
  if (destructor != nullptr) {
    (*destructor)(state);
  }
}

int strata_comparator_t::Compare(const Slice& a, const Slice& b) const {
  return (*compare)(state, a.data(), a.size(), b.data(), b.size());
}

const char* strata_comparator_t::Name() const { return (*name)(state); }

strata_mergeoperator_t::~strata_mergeoperator_t() {
  if (destructor != nullptr) {
    (*destructor)(state);
  }
}

const char* strata_mergeoperator_t::Name() const { return (*name)(state); }

namespace {

// Operands as the C callbacks take them: two parallel arrays.
struct OperandArrays {
  template <typename Container>
  explicit OperandArrays(const Container& operands)
      : data(operands.size()), lengths(operands.size()) {
    for (size_t i = 0; i < operands.size(); i++) {
      data[i] = operands[i].data();
      lengths[i] = operands[i].size();
    }
  }
  int count() const { return static_cast<int>(data.size()); }

  std::vector<const char*> data;
  std::vector<size_t> lengths;
};

// Hands a callback's result to new_value (unless it failed) and gives the
// buffer back through delete_value: the callback's allocator, not
// necessarily malloc. A successful NULL result is an empty value.
bool TakeResult(const strata_mergeoperator_t* op, char* result,
                unsigned char success, size_t length, std::string* new_value) {
  if (success && result != nullptr) {
    new_value->assign(result, length);
  } else if (success) {
    new_value->clear();
  }
  if (result != nullptr && op->delete_value != nullptr) {
    (*op->delete_value)(op->state, result, length);
  }
  return success != 0;
}

}  // namespace

bool strata_mergeoperator_t::FullMergeV2(
    const MergeOperationInput& merge_in,
    MergeOperationOutput* merge_out) const {
  OperandArrays operands(merge_in.operand_list);
  const char* existing = nullptr;
  size_t existing_length = 0;
  if (merge_in.existing_value != nullptr) {
    existing = merge_in.existing_value->data();
    existing_length = merge_in.existing_value->size();
  }
  unsigned char success = 0;
  size_t new_length = 0;
  char* result = (*full_merge)(state, merge_in.key.data(), merge_in.key.size(),
                               existing, existing_length, operands.data.data(),
                               operands.lengths.data(), operands.count(),
                               &success, &new_length);
  return TakeResult(this, result, success, new_length, &merge_out->new_value);
}

bool strata_mergeoperator_t::PartialMergeMulti(
    const Slice& key, const std::deque<Slice>& operand_list,
    std::string* new_value, strata::Logger*) const {
  if (partial_merge == nullptr) {
    return false;
  }
  OperandArrays operands(operand_list);
  unsigned char success = 0;
  size_t new_length = 0;
  char* result = (*partial_merge)(state, key.data(), key.size(),
                                  operands.data.data(), operands.lengths.data(),
                                  operands.count(), &success, &new_length);
  return TakeResult(this, result, success, new_length, new_value);
}

extern "C" {

strata_comparator_t* strata_comparator_create(
    void* state, void (*destructor)(void*),
    int (*compare)(void*, const char* a, size_t alen, const char* b,
                   size_t blen),
    const char* (*name)(void*)) {
  strata_comparator_t* result = new strata_comparator_t;
  result->state = state;
  result->destructor = destructor;
  result->compare = compare;
  result->name = name;
  return result;
}

void strata_comparator_destroy(strata_comparator_t* cmp) { delete cmp; }

strata_mergeoperator_t* strata_mergeoperator_create(
    void* state, void (*destructor)(void*),
    char* (*full_merge)(void*, const char* key, size_t key_length,
                        const char* existing_value,
                        size_t existing_value_length,
                        const char* const* operands_list,
                        const size_t* operands_list_length, int num_operands,
                        unsigned char* success, size_t* new_value_length),
    char* (*partial_merge)(void*, const char* key, size_t key_length,
                           const char* const* operands_list,
                           const size_t* operands_list_length, int num_operands,
                           unsigned char* success, size_t* new_value_length),
    void (*delete_value)(void*, const char* value, size_t value_length),
    const char* (*name)(void*)) {
  strata_mergeoperator_t* result = new strata_mergeoperator_t;
  result->state = state;
  result->destructor = destructor;
  result->full_merge = full_merge;
  result->partial_merge = partial_merge;
  result->delete_value = delete_value;
  result->name = name;
  return result;
}

void strata_mergeoperator_destroy(strata_mergeoperator_t* merge_operator) {
  delete merge_operator;
}

}  // extern "C"
