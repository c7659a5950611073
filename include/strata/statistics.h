// Statistics: DB-wide counters (tickers) and latency distributions
// (histograms), shared by every part of the engine through
// Options::statistics. Create one with CreateDBStatistics().
//
// The names and the calls are RocksDB's, so monitoring code written for it
// compiles here; strata has the subset below (the enum values are
// strata's own: compare names, not numbers, across engines).
//
// Thread safety: every method is safe from many threads at once.

#ifndef STRATA_INCLUDE_STATISTICS_H_
#define STRATA_INCLUDE_STATISTICS_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

enum Tickers : uint32_t {
  // Block cache lookups, all kinds and per kind.
  BLOCK_CACHE_MISS = 0,
  BLOCK_CACHE_HIT,
  BLOCK_CACHE_ADD,
  BLOCK_CACHE_INDEX_MISS,
  BLOCK_CACHE_INDEX_HIT,
  BLOCK_CACHE_FILTER_MISS,
  BLOCK_CACHE_FILTER_HIT,
  BLOCK_CACHE_DATA_MISS,
  BLOCK_CACHE_DATA_HIT,
  // Point lookups a filter answered without reading a data block, and
  // prefix seeks a prefix filter checked / spared.
  BLOOM_FILTER_USEFUL,
  BLOOM_FILTER_PREFIX_CHECKED,
  BLOOM_FILTER_PREFIX_USEFUL,
  // Point lookups answered by a memtable / not.
  MEMTABLE_HIT,
  MEMTABLE_MISS,
  // Keys written (Put, Delete, Merge, ...) and read (Get, MultiGet), and
  // their bytes (keys and values).
  NUMBER_KEYS_WRITTEN,
  NUMBER_KEYS_READ,
  BYTES_WRITTEN,
  BYTES_READ,
  // Iterator operations.
  NUMBER_DB_SEEK,
  NUMBER_DB_NEXT,
  NUMBER_DB_PREV,
  // Time writers spent stalled (slowed down or stopped), in microseconds.
  STALL_MICROS,
  // WAL syncs and WAL bytes.
  WAL_FILE_SYNCED,
  WAL_FILE_BYTES,
  // Writes done by a group's leader for itself / for other writers.
  WRITE_DONE_BY_SELF,
  WRITE_DONE_BY_OTHER,
  // Bytes read and written by compactions, written by flushes.
  COMPACT_READ_BYTES,
  COMPACT_WRITE_BYTES,
  FLUSH_WRITE_BYTES,
  // Versions a compaction dropped: shadowed by a newer one, or obsolete
  // tombstones; merge operator failures.
  COMPACTION_KEY_DROP_NEWER_ENTRY,
  COMPACTION_KEY_DROP_OBSOLETE,
  NUMBER_MERGE_FAILURES,
  // Writes acknowledged by WAL syncs: over WAL_FILE_SYNCED, the average
  // write group a sync serves. Last, so earlier tickers keep their numbers.
  WAL_FILE_SYNCED_WRITES,
  TICKER_ENUM_MAX
};

enum Histograms : uint32_t {
  DB_GET = 0,       // microseconds per Get
  DB_WRITE,         // microseconds per Write
  DB_MULTIGET,      // microseconds per MultiGet
  DB_SEEK,          // microseconds per iterator seek
  COMPACTION_TIME,  // microseconds per compaction
  FLUSH_TIME,       // microseconds per flush
  WAL_FILE_SYNC_MICROS,
  WRITE_STALL,  // microseconds per stalled write
  HISTOGRAM_ENUM_MAX
};

// "rocksdb.block.cache.miss"-style names, with strata's prefix
// ("strata.block.cache.miss"); one entry per enum value, in order.
STRATA_EXPORT const std::vector<std::pair<Tickers, std::string>>&
TickersNameMap();
STRATA_EXPORT const std::vector<std::pair<Histograms, std::string>>&
HistogramsNameMap();

struct HistogramData {
  double median = 0;
  double percentile95 = 0;
  double percentile99 = 0;
  double average = 0;
  double standard_deviation = 0;
  double max = 0;
  uint64_t count = 0;
  uint64_t sum = 0;
  double min = 0;
};

// How much the engine measures (timers cost a clock read each).
enum StatsLevel : uint8_t {
  kDisableAll,
  kExceptTickers = kDisableAll,
  kExceptHistogramOrTimers,
  kExceptTimers,
  kExceptDetailedTimers,
  kExceptTimeForMutex,
  kAll,
};

class STRATA_EXPORT Statistics {
 public:
  virtual ~Statistics();

  virtual const char* Name() const { return "Statistics"; }

  virtual uint64_t getTickerCount(uint32_t ticker_type) const = 0;
  virtual void histogramData(uint32_t type, HistogramData* data) const = 0;
  virtual std::string getHistogramString(uint32_t type) const { return ""; }
  virtual void recordTick(uint32_t ticker_type, uint64_t count = 0) = 0;
  virtual void setTickerCount(uint32_t ticker_type, uint64_t count) = 0;
  virtual uint64_t getAndResetTickerCount(uint32_t ticker_type) = 0;
  // A timing: recorded unless the level excludes timers.
  virtual void reportTimeToHistogram(uint32_t histogram_type, uint64_t time) {
    if (get_stats_level() <= kExceptTimers) return;
    recordInHistogram(histogram_type, time);
  }
  virtual void recordInHistogram(uint32_t histogram_type, uint64_t value) = 0;

  // Zeroes every ticker and histogram.
  virtual Status Reset() { return Status::NotSupported("Reset"); }

  // Every ticker ("name COUNT : n") and histogram ("name P50 : ...").
  virtual std::string ToString() const { return ""; }
  virtual bool getTickerMap(std::map<std::string, uint64_t>* map) const {
    return false;
  }
  virtual bool HistEnabledForType(uint32_t type) const {
    return type < HISTOGRAM_ENUM_MAX;
  }

  void set_stats_level(StatsLevel level) {
    stats_level_.store(level, std::memory_order_relaxed);
  }
  StatsLevel get_stats_level() const {
    return stats_level_.load(std::memory_order_relaxed);
  }

 private:
  std::atomic<StatsLevel> stats_level_{kExceptDetailedTimers};
};

// The engine's implementation: counters sharded per core, histograms
// under a lock each. An out-of-range ticker or histogram type is ignored.
STRATA_EXPORT std::shared_ptr<Statistics> CreateDBStatistics();

}  // namespace strata

#endif  // STRATA_INCLUDE_STATISTICS_H_
