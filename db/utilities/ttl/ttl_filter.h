// What DBWithTTL puts into each column family's options: a compaction
// filter factory that removes expired values (and runs the family's own
// filter on what stays), and a merge operator that merges values without
// their timestamps (docs/formats/ttl.md).
//
// Thread safety: TtlState's ttl may change at any time (SetTtl); the
// factory and the operator are shared by every compaction and read.

#ifndef STRATA_DB_UTILITIES_TTL_TTL_FILTER_H_
#define STRATA_DB_UTILITIES_TTL_TTL_FILTER_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "strata/compaction_filter.h"
#include "strata/env.h"
#include "strata/merge_operator.h"

namespace strata {

// One family's expiry settings, shared by its filter factory, its merge
// operator and the DB's reads.
struct TtlState {
  TtlState(int32_t t, Env* e) : ttl(t), env(e) {}
  std::atomic<int32_t> ttl;
  Env* const env;
};

class TtlCompactionFilterFactory : public CompactionFilterFactory {
 public:
  // user_filter (not owned; outlives the DB) or user_factory may be set:
  // the family's own filtering, run on the values that do not expire.
  TtlCompactionFilterFactory(std::shared_ptr<TtlState> state,
                             const CompactionFilter* user_filter,
                             std::shared_ptr<CompactionFilterFactory> factory);

  bool ShouldFilterTableFileCreation(
      TableFileCreationReason reason) const override;
  std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context& context) override;
  const char* Name() const override { return "TtlCompactionFilterFactory"; }

 private:
  const std::shared_ptr<TtlState> state_;
  const CompactionFilter* const user_filter_;
  const std::shared_ptr<CompactionFilterFactory> user_factory_;
};

class TtlMergeOperator : public MergeOperator {
 public:
  TtlMergeOperator(std::shared_ptr<TtlState> state,
                   std::shared_ptr<MergeOperator> user_operator);

  // An expired existing value merges as no value; the result is stamped
  // with the time of the merge. A value or operand without a valid
  // timestamp fails the merge.
  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
  bool PartialMerge(const Slice& key, const Slice& left_operand,
                    const Slice& right_operand, std::string* new_value,
                    Logger* logger) const override;
  bool PartialMergeMulti(const Slice& key,
                         const std::deque<Slice>& operand_list,
                         std::string* new_value, Logger* logger) const override;
  bool AllowSingleOperand() const override {
    return user_operator_->AllowSingleOperand();
  }
  const char* Name() const override { return "Merge By TTL"; }

 private:
  const std::shared_ptr<TtlState> state_;
  const std::shared_ptr<MergeOperator> user_operator_;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TTL_TTL_FILTER_H_
