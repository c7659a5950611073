// The engine's Statistics: tickers as per-core atomic counters (an update
// is one relaxed add on the caller's core's cache line; a read sums the
// cores), histograms as util/histogram.h under one mutex each.

#include "strata/statistics.h"

#include <cinttypes>
#include <cstdio>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/core_local.h"
#include "util/histogram.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

Statistics::~Statistics() = default;

// The two name tables are never destroyed: no destructor is registered
// with atexit when they are first built, so a background job that builds
// them while the program exits (and strata's exit handler joins the pools,
// docs/windows.md) cannot wait for the C runtime's exit lock.
const std::vector<std::pair<Tickers, std::string>>& TickersNameMap() {
  using Names = std::vector<std::pair<Tickers, std::string>>;
  static const NoDestructor<Names> names(Names{
      {BLOCK_CACHE_MISS, "strata.block.cache.miss"},
      {BLOCK_CACHE_HIT, "strata.block.cache.hit"},
      {BLOCK_CACHE_ADD, "strata.block.cache.add"},
      {BLOCK_CACHE_INDEX_MISS, "strata.block.cache.index.miss"},
      {BLOCK_CACHE_INDEX_HIT, "strata.block.cache.index.hit"},
      {BLOCK_CACHE_FILTER_MISS, "strata.block.cache.filter.miss"},
      {BLOCK_CACHE_FILTER_HIT, "strata.block.cache.filter.hit"},
      {BLOCK_CACHE_DATA_MISS, "strata.block.cache.data.miss"},
      {BLOCK_CACHE_DATA_HIT, "strata.block.cache.data.hit"},
      {BLOOM_FILTER_USEFUL, "strata.bloom.filter.useful"},
      {BLOOM_FILTER_PREFIX_CHECKED, "strata.bloom.filter.prefix.checked"},
      {BLOOM_FILTER_PREFIX_USEFUL, "strata.bloom.filter.prefix.useful"},
      {MEMTABLE_HIT, "strata.memtable.hit"},
      {MEMTABLE_MISS, "strata.memtable.miss"},
      {NUMBER_KEYS_WRITTEN, "strata.number.keys.written"},
      {NUMBER_KEYS_READ, "strata.number.keys.read"},
      {BYTES_WRITTEN, "strata.bytes.written"},
      {BYTES_READ, "strata.bytes.read"},
      {NUMBER_DB_SEEK, "strata.number.db.seek"},
      {NUMBER_DB_NEXT, "strata.number.db.next"},
      {NUMBER_DB_PREV, "strata.number.db.prev"},
      {STALL_MICROS, "strata.stall.micros"},
      {WAL_FILE_SYNCED, "strata.wal.synced"},
      {WAL_FILE_BYTES, "strata.wal.bytes"},
      {WRITE_DONE_BY_SELF, "strata.write.self"},
      {WRITE_DONE_BY_OTHER, "strata.write.other"},
      {COMPACT_READ_BYTES, "strata.compact.read.bytes"},
      {COMPACT_WRITE_BYTES, "strata.compact.write.bytes"},
      {FLUSH_WRITE_BYTES, "strata.flush.write.bytes"},
      {COMPACTION_KEY_DROP_NEWER_ENTRY, "strata.compaction.key.drop.new"},
      {COMPACTION_KEY_DROP_OBSOLETE, "strata.compaction.key.drop.obsolete"},
      {NUMBER_MERGE_FAILURES, "strata.number.merge.failures"},
      {WAL_FILE_SYNCED_WRITES, "strata.wal.synced.writes"},
  });
  return *names;
}

const std::vector<std::pair<Histograms, std::string>>& HistogramsNameMap() {
  using Names = std::vector<std::pair<Histograms, std::string>>;
  static const NoDestructor<Names> names(Names{
      {DB_GET, "strata.db.get.micros"},
      {DB_WRITE, "strata.db.write.micros"},
      {DB_MULTIGET, "strata.db.multiget.micros"},
      {DB_SEEK, "strata.db.seek.micros"},
      {COMPACTION_TIME, "strata.compaction.times.micros"},
      {FLUSH_TIME, "strata.flush.times.micros"},
      {WAL_FILE_SYNC_MICROS, "strata.wal.file.sync.micros"},
      {WRITE_STALL, "strata.db.write.stall"},
  });
  return *names;
}

namespace {

class StatisticsImpl final : public Statistics {
 public:
  uint64_t getTickerCount(uint32_t type) const override {
    if (type >= TICKER_ENUM_MAX) return 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < tickers_.size(); i++) {
      sum += tickers_.AccessAt(i)->counts[type].load(std::memory_order_relaxed);
    }
    return sum;
  }

  void recordTick(uint32_t type, uint64_t count) override {
    if (type >= TICKER_ENUM_MAX) return;
    tickers_.Access()->counts[type].fetch_add(count, std::memory_order_relaxed);
  }

  void setTickerCount(uint32_t type, uint64_t count) override {
    if (type >= TICKER_ENUM_MAX) return;
    getAndResetTickerCount(type);
    tickers_.AccessAt(0)->counts[type].fetch_add(count,
                                                 std::memory_order_relaxed);
  }

  uint64_t getAndResetTickerCount(uint32_t type) override {
    if (type >= TICKER_ENUM_MAX) return 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < tickers_.size(); i++) {
      sum += tickers_.AccessAt(i)->counts[type].exchange(
          0, std::memory_order_relaxed);
    }
    return sum;
  }

  void recordInHistogram(uint32_t type, uint64_t value) override {
    if (type >= HISTOGRAM_ENUM_MAX) return;
    LockedHistogram& lh = histograms_[type];
    MutexLock l(&lh.mu);
    lh.histogram.Add(value);
  }

  void histogramData(uint32_t type, HistogramData* data) const override {
    *data = HistogramData();
    if (type >= HISTOGRAM_ENUM_MAX) return;
    const LockedHistogram& lh = histograms_[type];
    MutexLock l(&lh.mu);
    data->count = lh.histogram.count();
    if (data->count == 0) return;
    data->median = lh.histogram.Median();
    data->percentile95 = lh.histogram.Percentile(95);
    data->percentile99 = lh.histogram.Percentile(99);
    data->average = lh.histogram.Average();
    data->standard_deviation = lh.histogram.StandardDeviation();
    data->max = static_cast<double>(lh.histogram.max());
    data->min = static_cast<double>(lh.histogram.min());
    data->sum = static_cast<uint64_t>(lh.histogram.sum());
  }

  std::string getHistogramString(uint32_t type) const override {
    if (type >= HISTOGRAM_ENUM_MAX) return "";
    const LockedHistogram& lh = histograms_[type];
    MutexLock l(&lh.mu);
    return lh.histogram.ToString();
  }

  Status Reset() override {
    for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) getAndResetTickerCount(t);
    for (uint32_t h = 0; h < HISTOGRAM_ENUM_MAX; h++) {
      LockedHistogram& lh = histograms_[h];
      MutexLock l(&lh.mu);
      lh.histogram.Clear();
    }
    return Status::OK();
  }

  bool getTickerMap(std::map<std::string, uint64_t>* map) const override {
    for (const auto& t : TickersNameMap()) {
      (*map)[t.second] = getTickerCount(t.first);
    }
    return true;
  }

  std::string ToString() const override {
    std::string out;
    char line[300];
    for (const auto& t : TickersNameMap()) {
      std::snprintf(line, sizeof(line), "%s COUNT : %" PRIu64 "\n",
                    t.second.c_str(), getTickerCount(t.first));
      out += line;
    }
    for (const auto& h : HistogramsNameMap()) {
      HistogramData d;
      histogramData(h.first, &d);
      std::snprintf(line, sizeof(line),
                    "%s P50 : %f P95 : %f P99 : %f P100 : %f COUNT : %" PRIu64
                    " SUM : %" PRIu64 "\n",
                    h.second.c_str(), d.median, d.percentile95, d.percentile99,
                    d.max, d.count, d.sum);
      out += line;
    }
    return out;
  }

 private:
  struct Counters {
    std::atomic<uint64_t> counts[TICKER_ENUM_MAX] = {};
  };
  struct LockedHistogram {
    mutable port::Mutex mu;
    Histogram histogram GUARDED_BY(mu);
  };

  mutable CoreLocalArray<Counters> tickers_;
  mutable LockedHistogram histograms_[HISTOGRAM_ENUM_MAX];
};

}  // namespace

std::shared_ptr<Statistics> CreateDBStatistics() {
  return std::make_shared<StatisticsImpl>();
}

}  // namespace strata
