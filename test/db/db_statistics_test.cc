// The read path's tickers (block cache, filters, iterator moves) as a DB
// with Options::statistics records them, and the strata.stats property.

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/db.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;
using test::Key;

class DBStatisticsTest : public testing::Test {
 protected:
  // A DB with statistics, a block cache and (with bloom) a bloom filter.
  void Open(bool bloom, bool cache_index_and_filter_blocks = false) {
    h_.options().statistics = stats_;
    h_.options().compression = kNoCompression;
    h_.options().disable_auto_compactions = true;
    BlockBasedTableOptions table;
    table.block_cache = NewLRUCache(8 << 20);
    table.cache_index_and_filter_blocks = cache_index_and_filter_blocks;
    if (bloom) table.filter_policy.reset(NewBloomFilterPolicy(10));
    h_.options().table_factory.reset(NewBlockBasedTableFactory(table));
    ASSERT_TRUE(h_.Open().ok());
  }

  // Even keys 0, 2, .., 2 * (n - 1) with 100-byte values, in one table.
  void FillTable(int n) {
    for (int i = 0; i < n; i++) {
      ASSERT_TRUE(h_.Put(Key(2 * i), std::string(100, 'v')).ok());
    }
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }

  uint64_t Count(Tickers t) const { return stats_->getTickerCount(t); }

  // Every ticker, to compare before and after an operation.
  std::vector<uint64_t> Counts() const {
    std::vector<uint64_t> v;
    for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) {
      v.push_back(stats_->getTickerCount(t));
    }
    return v;
  }
  static uint64_t Delta(const std::vector<uint64_t>& before,
                        const std::vector<uint64_t>& after, Tickers t) {
    return after[t] - before[t];
  }

  // The aggregate cache tickers are the sums of the per-kind ones.
  void ExpectAggregatesAddUp() const {
    EXPECT_EQ(Count(BLOCK_CACHE_HIT), Count(BLOCK_CACHE_DATA_HIT) +
                                          Count(BLOCK_CACHE_INDEX_HIT) +
                                          Count(BLOCK_CACHE_FILTER_HIT));
    EXPECT_EQ(Count(BLOCK_CACHE_MISS), Count(BLOCK_CACHE_DATA_MISS) +
                                           Count(BLOCK_CACHE_INDEX_MISS) +
                                           Count(BLOCK_CACHE_FILTER_MISS));
  }

  std::shared_ptr<Statistics> stats_ = CreateDBStatistics();
  DBHolder h_;
};

TEST_F(DBStatisticsTest, FilterSparesGetsOfMissingKeys) {
  Open(/*bloom=*/true);
  FillTable(1000);
  const std::vector<uint64_t> before = Counts();
  for (int i = 0; i < 100; i++) {
    EXPECT_EQ("NOT_FOUND", h_.Get(Key(2 * i + 1)));  // odd: absent
  }
  const std::vector<uint64_t> after = Counts();
  // ~1% false positives: nearly every lookup is spared a data block.
  const uint64_t useful = Delta(before, after, BLOOM_FILTER_USEFUL);
  EXPECT_GE(useful, 90u);
  EXPECT_LE(useful, 100u);
  // The others read a data block (two when the key falls past a block's
  // last entry).
  const uint64_t data_reads = Delta(before, after, BLOCK_CACHE_DATA_MISS) +
                              Delta(before, after, BLOCK_CACHE_DATA_HIT);
  EXPECT_GE(data_reads, 100 - useful);
  EXPECT_LE(data_reads, 2 * (100 - useful));
  // A key the filter holds is not spared.
  EXPECT_EQ(std::string(100, 'v'), h_.Get(Key(4)));
  EXPECT_EQ(useful, Count(BLOOM_FILTER_USEFUL) - before[BLOOM_FILTER_USEFUL]);
}

TEST_F(DBStatisticsTest, WithoutAFilterNothingIsSpared) {
  Open(/*bloom=*/false);
  FillTable(100);
  for (int i = 0; i < 20; i++) EXPECT_EQ("NOT_FOUND", h_.Get(Key(2 * i + 1)));
  EXPECT_EQ(0u, Count(BLOOM_FILTER_USEFUL));
}

TEST_F(DBStatisticsTest, SameKeyTwiceIsAMissThenAHit) {
  Open(/*bloom=*/true);
  FillTable(1000);
  std::vector<uint64_t> before = Counts();
  EXPECT_EQ(std::string(100, 'v'), h_.Get(Key(1000)));
  std::vector<uint64_t> after = Counts();
  EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_DATA_MISS));
  EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_MISS));
  EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_ADD));
  EXPECT_EQ(0u, Delta(before, after, BLOCK_CACHE_DATA_HIT));

  before = after;
  EXPECT_EQ(std::string(100, 'v'), h_.Get(Key(1000)));
  after = Counts();
  EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_DATA_HIT));
  EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_HIT));
  EXPECT_EQ(0u, Delta(before, after, BLOCK_CACHE_DATA_MISS));
  EXPECT_EQ(0u, Delta(before, after, BLOCK_CACHE_ADD));

  // Without fill_cache a block is read, counted a miss, and not added.
  ReadOptions no_fill;
  no_fill.fill_cache = false;
  std::string value;
  for (int round = 0; round < 2; round++) {
    before = Counts();
    ASSERT_TRUE(h_.db()->Get(no_fill, Key(1800), &value).ok());
    after = Counts();
    EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_DATA_MISS));
    EXPECT_EQ(0u, Delta(before, after, BLOCK_CACHE_ADD));
  }
  // The index and filter live in the reader: no lookups of theirs.
  EXPECT_EQ(0u, Count(BLOCK_CACHE_INDEX_HIT) + Count(BLOCK_CACHE_INDEX_MISS) +
                    Count(BLOCK_CACHE_FILTER_HIT) +
                    Count(BLOCK_CACHE_FILTER_MISS));
  ExpectAggregatesAddUp();
}

TEST_F(DBStatisticsTest, CachedIndexAndFilterMoveTheirTickers) {
  Open(/*bloom=*/true, /*cache_index_and_filter_blocks=*/true);
  FillTable(1000);
  // Opening the table (the flush opens it) loads both into the cache.
  EXPECT_GE(Count(BLOCK_CACHE_INDEX_MISS), 1u);
  EXPECT_GE(Count(BLOCK_CACHE_FILTER_MISS), 1u);

  std::vector<uint64_t> before = Counts();
  EXPECT_EQ(std::string(100, 'v'), h_.Get(Key(10)));
  std::vector<uint64_t> after = Counts();
  EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_FILTER_HIT));
  EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_INDEX_HIT));
  EXPECT_EQ(0u, Delta(before, after, BLOCK_CACHE_INDEX_MISS) +
                    Delta(before, after, BLOCK_CACHE_FILTER_MISS));

  // A key the filter rules out never reaches the index.
  int spared = 0;
  for (int i = 0; i < 10; i++) {
    before = Counts();
    EXPECT_EQ("NOT_FOUND", h_.Get(Key(2 * i + 1)));
    after = Counts();
    EXPECT_EQ(1u, Delta(before, after, BLOCK_CACHE_FILTER_HIT));
    if (Delta(before, after, BLOOM_FILTER_USEFUL) == 1) {
      spared++;
      EXPECT_EQ(0u, Delta(before, after, BLOCK_CACHE_INDEX_HIT));
    }
  }
  EXPECT_GE(spared, 8);
  ExpectAggregatesAddUp();
}

TEST_F(DBStatisticsTest, PrefixSeeksCheckThePrefixFilter) {
  h_.options().prefix_extractor.reset(NewFixedPrefixTransform(4));
  Open(/*bloom=*/true);
  for (const char* k : {"aaaa1", "aaaa2", "cccc1", "cccc2", "eeee1"}) {
    ASSERT_TRUE(h_.Put(k, "v").ok());
  }
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ReadOptions ro;
  ro.prefix_same_as_start = true;
  std::unique_ptr<Iterator> it(h_.db()->NewIterator(ro));

  std::vector<uint64_t> before = Counts();
  it->Seek("cccc");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("cccc1", it->key().ToString());
  std::vector<uint64_t> after = Counts();
  EXPECT_EQ(1u, Delta(before, after, BLOOM_FILTER_PREFIX_CHECKED));
  EXPECT_EQ(0u, Delta(before, after, BLOOM_FILTER_PREFIX_USEFUL));

  int useful = 0;
  for (const char* absent : {"bbbb", "dddd", "ffff", "gggg", "hhhh"}) {
    before = Counts();
    it->Seek(absent);
    EXPECT_FALSE(it->Valid());
    after = Counts();
    EXPECT_EQ(1u, Delta(before, after, BLOOM_FILTER_PREFIX_CHECKED));
    useful +=
        static_cast<int>(Delta(before, after, BLOOM_FILTER_PREFIX_USEFUL));
  }
  EXPECT_GE(useful, 4);  // a false positive at most
  ASSERT_TRUE(it->status().ok());
}

TEST_F(DBStatisticsTest, IteratorsCountSeeksNextsAndPrevs) {
  Open(/*bloom=*/false);
  FillTable(50);
  for (int i = 0; i < 10; i++) ASSERT_TRUE(h_.Put(Key(1000 + i), "m").ok());
  {
    std::unique_ptr<Iterator> it(h_.db()->NewIterator(ReadOptions()));
    int n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
    EXPECT_EQ(60, n);
    it->Seek(Key(20));
    it->Prev();
    it->Prev();
    it->SeekForPrev(Key(30));
    it->SeekToLast();
    EXPECT_EQ(4u, Count(NUMBER_DB_SEEK));  // counted as they happen
    EXPECT_EQ(0u, Count(NUMBER_DB_NEXT));  // steps: when the iterator goes
  }
  EXPECT_EQ(4u, Count(NUMBER_DB_SEEK));
  EXPECT_EQ(60u, Count(NUMBER_DB_NEXT));
  EXPECT_EQ(2u, Count(NUMBER_DB_PREV));
  HistogramData seek;
  stats_->histogramData(DB_SEEK, &seek);
  EXPECT_EQ(4u, seek.count);
}

TEST_F(DBStatisticsTest, StatsPropertyShowsTheLevels) {
  h_.options().level0_file_num_compaction_trigger = 4;
  Open(/*bloom=*/false);
  FillTable(100);
  FillTable(100);
  std::string report;
  ASSERT_TRUE(h_.db()->GetProperty("strata.stats", &report));
  EXPECT_NE(std::string::npos, report.find("** Compaction Stats **"));
  EXPECT_NE(std::string::npos, report.find("Cumulative writes:"));
  EXPECT_NE(std::string::npos, report.find("Write amplification:"));
  // "L0  2  <MB>  0.50 ...": two files against a trigger of 4.
  const size_t l0 = report.find("\nL0 ");
  ASSERT_NE(std::string::npos, l0) << report;
  char name[8];
  int files = 0;
  double mb = 0, score = 0;
  ASSERT_EQ(4, std::sscanf(report.c_str() + l0 + 1, "%7s %d %lf %lf", name,
                           &files, &mb, &score))
      << report;
  EXPECT_EQ(2, files);
  EXPECT_DOUBLE_EQ(0.5, score);
  EXPECT_GT(mb, 0.0);
  EXPECT_EQ(std::string::npos, report.find("\nL1 "));  // empty, no work
  const size_t sum = report.find("\nSum ");
  ASSERT_NE(std::string::npos, sum);
  ASSERT_EQ(2, std::sscanf(report.c_str() + sum + 1, "%7s %d", name, &files));
  EXPECT_EQ(2, files);
}

TEST_F(DBStatisticsTest, StatsPropertyCountsWritesAndTheWAL) {
  Open(/*bloom=*/false);
  WriteOptions sync;
  sync.sync = true;
  const std::string value(1000, 'w');
  for (int i = 0; i < 3000; i++) {
    ASSERT_TRUE(h_.db()
                    ->Put(i % 100 == 99 ? sync : WriteOptions(), Key(i), value)
                    .ok());
  }
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  ASSERT_TRUE(h_.db()->Put(no_wal, "unlogged", value).ok());
  std::string report;
  ASSERT_TRUE(h_.db()->GetProperty("strata.stats", &report));
  EXPECT_NE(std::string::npos,
            report.find("Cumulative writes: 3001 writes, 3001 keys"))
      << report;
  // 30 synced groups; the WAL holds the 3000 logged writes, about 3 MB
  // (the unlogged one is not in it).
  const size_t wal = report.find("Cumulative WAL: ");
  ASSERT_NE(std::string::npos, wal) << report;
  uint64_t syncs = 0;
  double gb = 0;
  ASSERT_EQ(
      2, std::sscanf(report.c_str() + wal,
                     "Cumulative WAL: %" SCNu64 " syncs, %lf GB", &syncs, &gb))
      << report;
  EXPECT_EQ(30u, syncs);
  EXPECT_NEAR(3000.0 * (1000 + 20) / (1 << 30), gb, 0.0015) << report;
  // One writer: each sync served one write.
  EXPECT_NE(std::string::npos, report.find("written, 1.00 writes per sync"))
      << report;
  EXPECT_EQ(30u, stats_->getTickerCount(WAL_FILE_SYNCED_WRITES));
}

// Synced writes from several threads share syncs (group commit): every
// write is counted once in the synced writes, and the syncs are no more
// than the writes.
TEST_F(DBStatisticsTest, SyncedWritesCountTheGroupsTheySync) {
  Open(/*bloom=*/false);
  constexpr int kThreads = 4;
  constexpr int kWrites = 50;
  WriteOptions sync;
  sync.sync = true;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kWrites; i++) {
        EXPECT_TRUE(h_.db()->Put(sync, Key(t * kWrites + i), "v").ok());
      }
    });
  }
  for (std::thread& th : threads) th.join();
  const uint64_t syncs = stats_->getTickerCount(WAL_FILE_SYNCED);
  EXPECT_EQ(uint64_t{kThreads * kWrites},
            stats_->getTickerCount(WAL_FILE_SYNCED_WRITES));
  EXPECT_GE(syncs, 1u);
  EXPECT_LE(syncs, uint64_t{kThreads * kWrites});
  std::string report;
  ASSERT_TRUE(h_.db()->GetProperty("strata.stats", &report));
  const size_t wal = report.find("Cumulative WAL: ");
  ASSERT_NE(std::string::npos, wal) << report;
  uint64_t stat_syncs = 0;
  double gb = 0, per_sync = 0;
  ASSERT_EQ(3, std::sscanf(report.c_str() + wal,
                           "Cumulative WAL: %" SCNu64
                           " syncs, %lf GB written, %lf writes per sync",
                           &stat_syncs, &gb, &per_sync))
      << report;
  EXPECT_EQ(syncs, stat_syncs);
  EXPECT_NEAR(
      static_cast<double>(kThreads * kWrites) / static_cast<double>(syncs),
      per_sync, 0.01);
}

}  // namespace
}  // namespace strata
