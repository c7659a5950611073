#include "table/prefix_check_iterator.h"

#include <memory>
#include <utility>

#include "db/dbformat.h"

namespace strata {

namespace {

class PrefixCheckIterator final : public InternalIterator {
 public:
  PrefixCheckIterator(InternalIterator* base, const SliceTransform* extractor,
                      PrefixMayMatchFunction may_match)
      : base_(base), extractor_(extractor), may_match_(std::move(may_match)) {}

  bool Valid() const override { return !ruled_out_ && base_->Valid(); }
  void SeekToFirst() override {
    ruled_out_ = false;
    base_->SeekToFirst();
  }
  void SeekToLast() override {
    ruled_out_ = false;
    base_->SeekToLast();
  }
  void Seek(const Slice& target) override {
    ruled_out_ = RuledOut(target);
    if (!ruled_out_) base_->Seek(target);
  }
  void SeekForPrev(const Slice& target) override {
    ruled_out_ = RuledOut(target);
    if (!ruled_out_) base_->SeekForPrev(target);
  }
  void SetSeekConfinedToPrefix(bool confined) override { confined_ = confined; }
  void Next() override { base_->Next(); }
  void Prev() override { base_->Prev(); }
  Slice key() const override { return base_->key(); }
  Slice value() const override { return base_->value(); }
  Status status() const override {
    return ruled_out_ ? Status::OK() : base_->status();
  }

 private:
  bool RuledOut(const Slice& target) const {
    if (!confined_ || target.size() < kInternalKeyTrailerSize) return false;
    const Slice user_key = ExtractUserKey(target);
    return extractor_->InDomain(user_key) &&
           !may_match_(extractor_->Transform(user_key));
  }

  const std::unique_ptr<InternalIterator> base_;
  const SliceTransform* const extractor_;
  const PrefixMayMatchFunction may_match_;
  bool confined_ = false;  // SetSeekConfinedToPrefix
  bool ruled_out_ = false;
};

}  // namespace

InternalIterator* NewPrefixCheckIterator(InternalIterator* base,
                                         const SliceTransform* prefix_extractor,
                                         PrefixMayMatchFunction may_match) {
  return new PrefixCheckIterator(base, prefix_extractor, std::move(may_match));
}

}  // namespace strata
