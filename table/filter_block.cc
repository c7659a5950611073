#include "table/filter_block.h"

#include <utility>

namespace strata {

FullFilterBlockBuilder::FullFilterBlockBuilder(
    const FilterPolicy* policy, const SliceTransform* prefix_extractor,
    bool whole_key_filtering)
    : policy_(policy),
      prefix_extractor_(prefix_extractor),
      whole_key_filtering_(whole_key_filtering),
      bits_(policy_->NewBuilder()) {}

void FullFilterBlockBuilder::Add(const Slice& user_key) {
  // Keys and prefixes interleave in one filter, so the bits builder cannot
  // see their repeats as consecutive: each stream is deduplicated here.
  if (whole_key_filtering_ &&
      !(has_last_key_ && Slice(last_key_) == user_key)) {
    bits_->AddKey(user_key);
    last_key_.assign(user_key.data(), user_key.size());
    has_last_key_ = true;
  }
  if (prefix_extractor_ != nullptr && prefix_extractor_->InDomain(user_key)) {
    const Slice prefix = prefix_extractor_->Transform(user_key);
    if (!(has_last_prefix_ && Slice(last_prefix_) == prefix)) {
      bits_->AddKey(prefix);
      last_prefix_.assign(prefix.data(), prefix.size());
      has_last_prefix_ = true;
    }
  }
}

bool FullFilterBlockBuilder::empty() const { return bits_->NumAdded() == 0; }

Slice FullFilterBlockBuilder::Finish() {
  result_.clear();
  bits_->Finish(&result_);
  has_last_key_ = false;
  has_last_prefix_ = false;
  return Slice(result_);
}

FullFilterBlockReader::FullFilterBlockReader(
    const FilterPolicy* policy, BlockContents&& contents,
    const SliceTransform* prefix_extractor, bool whole_key_filtering)
    : contents_(std::move(contents)),
      // Moving contents_ keeps its bytes where they were, so the reader
      // may point into them.
      reader_(policy != nullptr ? policy->NewReader(contents_.data) : nullptr),
      prefix_extractor_(prefix_extractor),
      whole_key_filtering_(whole_key_filtering) {}

bool FullFilterBlockReader::KeyMayMatch(const Slice& user_key) const {
  if (reader_ == nullptr) return true;
  if (whole_key_filtering_) return reader_->MayMatch(user_key);
  // Without whole keys the key's prefix still rules the table out: no key
  // with that prefix means no entry of this key.
  if (prefix_extractor_ != nullptr && prefix_extractor_->InDomain(user_key)) {
    return reader_->MayMatch(prefix_extractor_->Transform(user_key));
  }
  return true;
}

bool FullFilterBlockReader::PrefixMayMatch(const Slice& prefix) const {
  if (reader_ == nullptr || prefix_extractor_ == nullptr) return true;
  return reader_->MayMatch(prefix);
}

size_t FullFilterBlockReader::ApproximateMemoryUsage() const {
  return sizeof(*this) + contents_.usable_size() +
         (reader_ != nullptr ? sizeof(*reader_) : 0);
}

}  // namespace strata
