#include "db/utilities/ttl/ttl_filter.h"

#include <utility>
#include <vector>

#include "db/utilities/ttl/ttl_format.h"

namespace strata {

namespace {

// Removes expired values; the rest go to the family's own filter (if
// any) without their timestamps.
class TtlCompactionFilter : public CompactionFilter {
 public:
  TtlCompactionFilter(int32_t ttl, int32_t now, const CompactionFilter* user,
                      std::unique_ptr<CompactionFilter> owned_user)
      : ttl_(ttl), now_(now), user_(user), owned_user_(std::move(owned_user)) {}

  Decision FilterV2(int level, const Slice& key, ValueType value_type,
                    const Slice& existing_value, std::string* new_value,
                    std::string* skip_until) const override {
    // A value that is not one of ours is left for reads to report.
    if (!ttl::CheckValue(existing_value).ok()) return Decision::kKeep;
    if (value_type == kValue && ttl::IsStale(existing_value, ttl_, now_)) {
      return Decision::kRemove;
    }
    if (user_ == nullptr) return Decision::kKeep;
    std::string user_value;
    const Decision decision = user_->FilterV2(
        level, key, value_type, ttl::StripTimestamp(existing_value),
        &user_value, skip_until);
    if (decision == Decision::kChangeValue) {
      // The new value keeps the old one's write time.
      ttl::AppendTimestamp(user_value, ttl::TimestampOf(existing_value),
                           new_value);
    }
    return decision;
  }

  bool IgnoreSnapshots() const override {
    return user_ == nullptr || user_->IgnoreSnapshots();
  }
  const char* Name() const override { return "Delete By TTL"; }

 private:
  const int32_t ttl_;
  const int32_t now_;
  const CompactionFilter* const user_;
  const std::unique_ptr<CompactionFilter> owned_user_;
};

}  // namespace

TtlCompactionFilterFactory::TtlCompactionFilterFactory(
    std::shared_ptr<TtlState> state, const CompactionFilter* user_filter,
    std::shared_ptr<CompactionFilterFactory> factory)
    : state_(std::move(state)),
      user_filter_(user_filter),
      user_factory_(std::move(factory)) {}

bool TtlCompactionFilterFactory::ShouldFilterTableFileCreation(
    TableFileCreationReason reason) const {
  if (reason == TableFileCreationReason::kCompaction) return true;
  if (user_filter_ != nullptr) {
    return user_filter_->FilterTableFileCreation(reason);
  }
  return user_factory_ != nullptr &&
         user_factory_->ShouldFilterTableFileCreation(reason);
}

std::unique_ptr<CompactionFilter>
TtlCompactionFilterFactory::CreateCompactionFilter(
    const CompactionFilter::Context& context) {
  const CompactionFilter* user = nullptr;
  std::unique_ptr<CompactionFilter> owned;
  if (user_filter_ != nullptr) {
    if (user_filter_->FilterTableFileCreation(context.reason)) {
      user = user_filter_;
    }
  } else if (user_factory_ != nullptr &&
             user_factory_->ShouldFilterTableFileCreation(context.reason)) {
    owned = user_factory_->CreateCompactionFilter(context);
    user = owned.get();
  }
  return std::make_unique<TtlCompactionFilter>(
      state_->ttl.load(std::memory_order_relaxed), ttl::NowSeconds(state_->env),
      user, std::move(owned));
}

TtlMergeOperator::TtlMergeOperator(std::shared_ptr<TtlState> state,
                                   std::shared_ptr<MergeOperator> user_operator)
    : state_(std::move(state)), user_operator_(std::move(user_operator)) {}

bool TtlMergeOperator::FullMergeV2(const MergeOperationInput& merge_in,
                                   MergeOperationOutput* merge_out) const {
  const int32_t now = ttl::NowSeconds(state_->env);
  Slice existing;
  const Slice* existing_ptr = nullptr;
  if (merge_in.existing_value != nullptr) {
    if (!ttl::CheckValue(*merge_in.existing_value).ok()) return false;
    if (!ttl::IsStale(*merge_in.existing_value,
                      state_->ttl.load(std::memory_order_relaxed), now)) {
      existing = ttl::StripTimestamp(*merge_in.existing_value);
      existing_ptr = &existing;
    }
  }
  std::vector<Slice> operands;
  operands.reserve(merge_in.operand_list.size());
  for (const Slice& operand : merge_in.operand_list) {
    if (!ttl::CheckValue(operand).ok()) return false;
    operands.push_back(ttl::StripTimestamp(operand));
  }
  std::string merged;
  Slice existing_operand(nullptr, 0);
  MergeOperationInput in(merge_in.key, existing_ptr, operands, merge_in.logger);
  MergeOperationOutput out(merged, existing_operand);
  if (!user_operator_->FullMergeV2(in, &out)) return false;
  const Slice result =
      existing_operand.data() != nullptr ? existing_operand : Slice(merged);
  std::string stamped;
  ttl::AppendTimestamp(result, now, &stamped);
  merge_out->new_value.swap(stamped);
  return true;
}

bool TtlMergeOperator::PartialMerge(const Slice& key, const Slice& left_operand,
                                    const Slice& right_operand,
                                    std::string* new_value,
                                    Logger* logger) const {
  return PartialMergeMulti(key, std::deque<Slice>{left_operand, right_operand},
                           new_value, logger);
}

bool TtlMergeOperator::PartialMergeMulti(const Slice& key,
                                         const std::deque<Slice>& operand_list,
                                         std::string* new_value,
                                         Logger* logger) const {
  std::deque<Slice> operands;
  for (const Slice& operand : operand_list) {
    if (!ttl::CheckValue(operand).ok()) return false;
    operands.push_back(ttl::StripTimestamp(operand));
  }
  std::string merged;
  if (!user_operator_->PartialMergeMulti(key, operands, &merged, logger)) {
    return false;
  }
  ttl::AppendTimestamp(merged, ttl::NowSeconds(state_->env), new_value);
  return true;
}

}  // namespace strata
