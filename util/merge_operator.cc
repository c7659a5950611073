// The MergeOperator defaults, AssociativeMergeOperator, and the built-in
// operators (uint64add, stringappend); contracts in
// include/strata/merge_operator.h.

#include "strata/merge_operator.h"

#include <cstdint>

#include "util/coding.h"

namespace strata {

MergeOperator::~MergeOperator() = default;

bool MergeOperator::FullMerge(const Slice& key, const Slice* existing_value,
                              const std::deque<std::string>& operand_list,
                              std::string* new_value, Logger* logger) const {
  // Neither form was overridden: there is no way to merge.
  return false;
}

bool MergeOperator::FullMergeV2(const MergeOperationInput& merge_in,
                                MergeOperationOutput* merge_out) const {
  // Operators written against the legacy form take owned strings.
  std::deque<std::string> operands;
  for (const Slice& operand : merge_in.operand_list) {
    operands.emplace_back(operand.data(), operand.size());
  }
  return FullMerge(merge_in.key, merge_in.existing_value, operands,
                   &merge_out->new_value, merge_in.logger);
}

bool MergeOperator::PartialMerge(const Slice& key, const Slice& left_operand,
                                 const Slice& right_operand,
                                 std::string* new_value, Logger* logger) const {
  return false;
}

bool MergeOperator::PartialMergeMulti(const Slice& key,
                                      const std::deque<Slice>& operand_list,
                                      std::string* new_value,
                                      Logger* logger) const {
  if (operand_list.empty()) return false;
  if (operand_list.size() == 1) {
    new_value->assign(operand_list[0].data(), operand_list[0].size());
    return true;
  }
  // Fold left to right; the accumulator lives in *new_value, so each step
  // merges into a scratch string first (PartialMerge may not alias).
  std::string accumulated;
  if (!PartialMerge(key, operand_list[0], operand_list[1], &accumulated,
                    logger)) {
    return false;
  }
  for (size_t i = 2; i < operand_list.size(); i++) {
    std::string step;
    if (!PartialMerge(key, accumulated, operand_list[i], &step, logger)) {
      return false;
    }
    accumulated.swap(step);
  }
  new_value->swap(accumulated);
  return true;
}

AssociativeMergeOperator::~AssociativeMergeOperator() = default;

bool AssociativeMergeOperator::FullMergeV2(
    const MergeOperationInput& merge_in,
    MergeOperationOutput* merge_out) const {
  // Each operand folds into the running value; the first step starts from
  // the existing value, which may be absent.
  std::string accumulated;
  const Slice* previous = merge_in.existing_value;
  Slice previous_slice;
  for (const Slice& operand : merge_in.operand_list) {
    std::string step;
    if (!Merge(merge_in.key, previous, operand, &step, merge_in.logger)) {
      return false;
    }
    accumulated.swap(step);
    previous_slice = Slice(accumulated);
    previous = &previous_slice;
  }
  if (merge_in.operand_list.empty()) {
    if (merge_in.existing_value == nullptr) return false;
    accumulated.assign(merge_in.existing_value->data(),
                       merge_in.existing_value->size());
  }
  merge_out->new_value.swap(accumulated);
  return true;
}

bool AssociativeMergeOperator::PartialMerge(const Slice& key,
                                            const Slice& left_operand,
                                            const Slice& right_operand,
                                            std::string* new_value,
                                            Logger* logger) const {
  return Merge(key, &left_operand, right_operand, new_value, logger);
}

namespace {

class UInt64AddOperator final : public AssociativeMergeOperator {
 public:
  const char* Name() const override { return "uint64add"; }

  bool Merge(const Slice& key, const Slice* existing_value, const Slice& value,
             std::string* new_value, Logger* logger) const override {
    uint64_t sum = 0;
    if (existing_value != nullptr) {
      if (existing_value->size() != sizeof(uint64_t)) return false;
      sum = DecodeFixed64(existing_value->data());
    }
    if (value.size() != sizeof(uint64_t)) return false;
    sum += DecodeFixed64(value.data());  // wraps modulo 2^64 by design
    new_value->clear();
    PutFixed64(new_value, sum);
    return true;
  }
};

class StringAppendOperator final : public AssociativeMergeOperator {
 public:
  explicit StringAppendOperator(char delim) : delim_(delim) {}

  const char* Name() const override { return "stringappend"; }

  bool Merge(const Slice& key, const Slice* existing_value, const Slice& value,
             std::string* new_value, Logger* logger) const override {
    new_value->clear();
    if (existing_value != nullptr) {
      new_value->reserve(existing_value->size() + 1 + value.size());
      new_value->append(existing_value->data(), existing_value->size());
      new_value->push_back(delim_);
    }
    new_value->append(value.data(), value.size());
    return true;
  }

 private:
  const char delim_;
};

}  // namespace

std::shared_ptr<MergeOperator> MergeOperators::CreateUInt64AddOperator() {
  return std::make_shared<UInt64AddOperator>();
}

std::shared_ptr<MergeOperator> MergeOperators::CreateStringAppendOperator(
    char delim) {
  return std::make_shared<StringAppendOperator>(delim);
}

}  // namespace strata
