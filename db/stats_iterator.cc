#include "db/stats_iterator.h"

#include <cstdint>
#include <memory>

#include "util/stop_watch.h"

namespace strata {

namespace {

class StatsIterator final : public Iterator {
 public:
  StatsIterator(Iterator* base, Env* env, Statistics* statistics)
      : base_(base), env_(env), statistics_(statistics) {}

  ~StatsIterator() override {
    if (nexts_ > 0) statistics_->recordTick(NUMBER_DB_NEXT, nexts_);
    if (prevs_ > 0) statistics_->recordTick(NUMBER_DB_PREV, prevs_);
  }

  bool Valid() const override { return base_->Valid(); }
  void SeekToFirst() override {
    StopWatch timer(env_, statistics_, DB_SEEK);
    statistics_->recordTick(NUMBER_DB_SEEK, 1);
    base_->SeekToFirst();
  }
  void SeekToLast() override {
    StopWatch timer(env_, statistics_, DB_SEEK);
    statistics_->recordTick(NUMBER_DB_SEEK, 1);
    base_->SeekToLast();
  }
  void Seek(const Slice& target) override {
    StopWatch timer(env_, statistics_, DB_SEEK);
    statistics_->recordTick(NUMBER_DB_SEEK, 1);
    base_->Seek(target);
  }
  void SeekForPrev(const Slice& target) override {
    StopWatch timer(env_, statistics_, DB_SEEK);
    statistics_->recordTick(NUMBER_DB_SEEK, 1);
    base_->SeekForPrev(target);
  }
  void Next() override {
    nexts_++;
    base_->Next();
  }
  void Prev() override {
    prevs_++;
    base_->Prev();
  }
  Slice key() const override { return base_->key(); }
  Slice value() const override { return base_->value(); }
  Status status() const override { return base_->status(); }

 private:
  const std::unique_ptr<Iterator> base_;
  Env* const env_;
  Statistics* const statistics_;
  uint64_t nexts_ = 0;
  uint64_t prevs_ = 0;
};

}  // namespace

Iterator* NewStatsIterator(Iterator* base, Env* env, Statistics* statistics) {
  return new StatsIterator(base, env, statistics);
}

}  // namespace strata
