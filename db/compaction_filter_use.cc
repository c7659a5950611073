#include "db/compaction_filter_use.h"

#include <string>
#include <utility>

#include "db/compaction_iterator.h"

namespace strata {

Status PickCompactionFilter(const CompactionFilter* direct,
                            CompactionFilterFactory* factory,
                            const CompactionFilter::Context& context,
                            std::unique_ptr<CompactionFilter>* owned,
                            const CompactionFilter** filter) {
  *filter = nullptr;
  owned->reset();
  if (direct != nullptr) {
    // Set, it stands in for the factory even when it declines the job.
    if (direct->FilterTableFileCreation(context.reason)) *filter = direct;
  } else if (factory != nullptr &&
             factory->ShouldFilterTableFileCreation(context.reason)) {
    *owned = factory->CreateCompactionFilter(context);
    *filter = owned->get();
  }
  if (*filter != nullptr && !(*filter)->IgnoreSnapshots()) {
    const std::string name = (*filter)->Name();
    *filter = nullptr;
    owned->reset();
    return Status::NotSupported(
        "compaction filter " + name + " returns false from IgnoreSnapshots()",
        "RocksDB 7.8 no longer supports that; it must return true");
  }
  return Status::OK();
}

namespace {

class FlushIterator : public InternalIterator {
 public:
  FlushIterator(InternalIterator* input, const Comparator* user_cmp,
                std::vector<SequenceNumber> snapshots,
                const MergeOperator* merge_operator,
                CompactionIterator::CoveredFunction covered,
                const CompactionFilterUse& filter)
      : iter_(input, user_cmp, std::move(snapshots), kMaxSequenceNumber,
              /*bottommost_level=*/false, merge_operator, std::move(covered),
              filter, /*drop_single_delete_pairs=*/false) {}

  bool Valid() const override { return status_.ok() && iter_.Valid(); }
  void SeekToFirst() override {
    status_ = Status::OK();
    iter_.SeekToFirst();
  }
  void Next() override { iter_.Next(); }
  Slice key() const override { return iter_.key(); }
  Slice value() const override { return iter_.value(); }
  Status status() const override {
    return status_.ok() ? iter_.status() : status_;
  }
  void SeekToLast() override { Unsupported(); }
  void Seek(const Slice&) override { Unsupported(); }
  void SeekForPrev(const Slice&) override { Unsupported(); }
  void Prev() override { Unsupported(); }

 private:
  void Unsupported() {
    status_ = Status::NotSupported("a flush iterator moves forward");
  }

  CompactionIterator iter_;
  Status status_;
};

}  // namespace

std::unique_ptr<InternalIterator> NewFlushIterator(
    InternalIterator* input, const Comparator* user_cmp,
    std::vector<SequenceNumber> snapshots, const MergeOperator* merge_operator,
    std::function<bool(const ParsedInternalKey&)> covered,
    const CompactionFilterUse& filter) {
  return std::make_unique<FlushIterator>(input, user_cmp, std::move(snapshots),
                                         merge_operator, std::move(covered),
                                         filter);
}

}  // namespace strata
