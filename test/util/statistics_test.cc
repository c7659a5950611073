// Statistics: tickers summed exactly across threads and cores, reset and
// set, histograms, the stats level, the name tables and ToString.

#include "strata/statistics.h"

#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "util/core_local.h"

namespace strata {
namespace {

TEST(StatisticsTest, TickersCountEveryUpdateFromManyThreads) {
  std::shared_ptr<Statistics> stats = CreateDBStatistics();
  constexpr int kThreads = 8;
  constexpr int kPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&stats, t] {
      for (int i = 0; i < kPerThread; i++) {
        stats->recordTick(BYTES_WRITTEN, 3);
        stats->recordTick(t % 2 == 0 ? BLOCK_CACHE_HIT : BLOCK_CACHE_MISS, 1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(uint64_t{3} * kThreads * kPerThread,
            stats->getTickerCount(BYTES_WRITTEN));
  EXPECT_EQ(uint64_t{kThreads / 2} * kPerThread,
            stats->getTickerCount(BLOCK_CACHE_HIT));
  EXPECT_EQ(uint64_t{kThreads / 2} * kPerThread,
            stats->getTickerCount(BLOCK_CACHE_MISS));
  EXPECT_EQ(0u, stats->getTickerCount(STALL_MICROS));
}

TEST(StatisticsTest, ResetSetAndOutOfRange) {
  std::shared_ptr<Statistics> stats = CreateDBStatistics();
  stats->recordTick(WAL_FILE_SYNCED, 5);
  EXPECT_EQ(5u, stats->getAndResetTickerCount(WAL_FILE_SYNCED));
  EXPECT_EQ(0u, stats->getTickerCount(WAL_FILE_SYNCED));
  stats->recordTick(WAL_FILE_SYNCED, 2);
  stats->setTickerCount(WAL_FILE_SYNCED, 40);
  EXPECT_EQ(40u, stats->getTickerCount(WAL_FILE_SYNCED));
  // Types beyond the enums are ignored, not out-of-bounds writes.
  stats->recordTick(TICKER_ENUM_MAX, 1);
  stats->recordTick(TICKER_ENUM_MAX + 1000, 1);
  stats->recordInHistogram(HISTOGRAM_ENUM_MAX, 1);
  EXPECT_EQ(0u, stats->getTickerCount(TICKER_ENUM_MAX));
  HistogramData d;
  stats->histogramData(HISTOGRAM_ENUM_MAX, &d);
  EXPECT_EQ(0u, d.count);

  stats->recordInHistogram(DB_GET, 7);
  ASSERT_TRUE(stats->Reset().ok());
  EXPECT_EQ(0u, stats->getTickerCount(WAL_FILE_SYNCED));
  stats->histogramData(DB_GET, &d);
  EXPECT_EQ(0u, d.count);
}

TEST(StatisticsTest, HistogramsSummarizeTheirValues) {
  std::shared_ptr<Statistics> stats = CreateDBStatistics();
  for (uint64_t v = 1; v <= 1000; v++) stats->recordInHistogram(DB_WRITE, v);
  HistogramData d;
  stats->histogramData(DB_WRITE, &d);
  EXPECT_EQ(1000u, d.count);
  EXPECT_EQ(500500u, d.sum);
  EXPECT_DOUBLE_EQ(500.5, d.average);
  EXPECT_EQ(1.0, d.min);
  EXPECT_EQ(1000.0, d.max);
  // Bucketed: percentiles are close, not exact.
  EXPECT_NEAR(500, d.median, 50);
  EXPECT_NEAR(950, d.percentile95, 60);
  EXPECT_NEAR(990, d.percentile99, 60);
  EXPECT_NE(std::string::npos,
            stats->getHistogramString(DB_WRITE).find("Count: 1000"));
}

TEST(StatisticsTest, StatsLevelGatesTimers) {
  std::shared_ptr<Statistics> stats = CreateDBStatistics();
  HistogramData d;
  stats->reportTimeToHistogram(DB_GET, 10);
  stats->histogramData(DB_GET, &d);
  EXPECT_EQ(1u, d.count);  // default level records timers
  stats->set_stats_level(kExceptTimers);
  EXPECT_EQ(kExceptTimers, stats->get_stats_level());
  stats->reportTimeToHistogram(DB_GET, 10);
  stats->histogramData(DB_GET, &d);
  EXPECT_EQ(1u, d.count);
  stats->recordInHistogram(DB_GET, 10);  // not a timer: always recorded
  stats->histogramData(DB_GET, &d);
  EXPECT_EQ(2u, d.count);
}

TEST(StatisticsTest, NameTablesCoverEveryTypeInOrder) {
  const auto& tickers = TickersNameMap();
  ASSERT_EQ(static_cast<size_t>(TICKER_ENUM_MAX), tickers.size());
  for (size_t i = 0; i < tickers.size(); i++) {
    EXPECT_EQ(i, static_cast<size_t>(tickers[i].first));
    EXPECT_EQ(0u, tickers[i].second.rfind("strata.", 0));
  }
  const auto& histograms = HistogramsNameMap();
  ASSERT_EQ(static_cast<size_t>(HISTOGRAM_ENUM_MAX), histograms.size());
  for (size_t i = 0; i < histograms.size(); i++) {
    EXPECT_EQ(i, static_cast<size_t>(histograms[i].first));
  }

  std::shared_ptr<Statistics> stats = CreateDBStatistics();
  stats->recordTick(STALL_MICROS, 1234);
  const std::string text = stats->ToString();
  EXPECT_NE(std::string::npos, text.find("strata.stall.micros COUNT : 1234"));
  EXPECT_NE(std::string::npos, text.find("strata.db.get.micros P50"));
  std::map<std::string, uint64_t> map;
  ASSERT_TRUE(stats->getTickerMap(&map));
  EXPECT_EQ(1234u, map["strata.stall.micros"]);
  EXPECT_EQ(tickers.size(), map.size());
}

TEST(CoreLocalTest, ShardCountIsAPowerOfTwoAndSlotsAreDistinct) {
  const size_t n = CoreShardCount();
  ASSERT_GE(n, 1u);
  EXPECT_EQ(0u, n & (n - 1));
  CoreLocalArray<int> array;
  ASSERT_EQ(n, array.size());
  for (size_t i = 0; i < n; i++) *array.AccessAt(i) = static_cast<int>(i);
  int* mine = array.Access();
  EXPECT_GE(*mine, 0);
  EXPECT_LT(*mine, static_cast<int>(n));
  if (n > 1) {
    EXPECT_NE(array.AccessAt(0), array.AccessAt(1));
  }
}

}  // namespace
}  // namespace strata
