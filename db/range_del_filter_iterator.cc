#include "db/range_del_filter_iterator.h"

#include <utility>

#include "db/dbformat.h"

namespace strata {

namespace {

class RangeDelFilterIterator final : public InternalIterator {
 public:
  RangeDelFilterIterator(InternalIterator* input,
                         std::unique_ptr<RangeDelAggregator> aggregator)
      : input_(input), aggregator_(std::move(aggregator)) {}

  bool Valid() const override { return input_->Valid(); }
  void SeekToFirst() override {
    input_->SeekToFirst();
    SkipForward();
  }
  void SeekToLast() override {
    input_->SeekToLast();
    SkipBackward();
  }
  void Seek(const Slice& target) override {
    input_->Seek(target);
    SkipForward();
  }
  void SeekForPrev(const Slice& target) override {
    input_->SeekForPrev(target);
    SkipBackward();
  }
  void Next() override {
    input_->Next();
    SkipForward();
  }
  void Prev() override {
    input_->Prev();
    SkipBackward();
  }
  Slice key() const override { return input_->key(); }
  Slice value() const override { return input_->value(); }
  Status status() const override { return input_->status(); }
  void SetSeekConfinedToPrefix(bool confined) override {
    input_->SetSeekConfinedToPrefix(confined);
  }

 private:
  // A key that does not parse is left for DBIter to report.
  bool Deleted(RangeDelPositioning mode) {
    ParsedInternalKey parsed;
    return ParseInternalKey(input_->key(), &parsed).ok() &&
           aggregator_->ShouldDelete(parsed, mode);
  }
  void SkipForward() {
    while (input_->Valid() && Deleted(RangeDelPositioning::kForwardTraversal)) {
      input_->Next();
    }
  }
  void SkipBackward() {
    while (input_->Valid() &&
           Deleted(RangeDelPositioning::kBackwardTraversal)) {
      input_->Prev();
    }
  }

  std::unique_ptr<InternalIterator> input_;
  std::unique_ptr<RangeDelAggregator> aggregator_;
};

}  // namespace

InternalIterator* NewRangeDelFilterIterator(
    InternalIterator* input, std::unique_ptr<RangeDelAggregator> aggregator) {
  return new RangeDelFilterIterator(input, std::move(aggregator));
}

}  // namespace strata
