// The batched MultiGet against single Gets over a random DB (tables on
// several levels, memtables, range deletions, merges, snapshots), with
// sorted_input true and false, duplicate and absent keys; the vector
// MultiGet too. Keys of one data block cost one block cache lookup, and
// their values are pinned. With async_io the blocks of a level are read
// together first, then searched: the same results, with or without a
// block cache and with direct reads.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "env/io_util.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "test/db/db_test_util.h"
#include "test/util/read_ring.h"
#include "util/random.h"

namespace strata {
namespace {

using test::DBHolder;

std::string MultiGetKey(uint32_t i) {
  return "key" + std::to_string(10000 + i);
}

// "OK:<value>" or the status.
std::string Result(const Status& s, const Slice& value) {
  return s.ok() ? "OK:" + value.ToString() : s.ToString();
}

class DBMultiGetTest : public testing::Test {
 protected:
  void Open(bool auto_compactions) {
    Options& o = h_.options();
    o.use_direct_reads = direct_reads_;
    o.statistics = stats_;
    o.compression = kNoCompression;
    o.merge_operator = MergeOperators::CreateStringAppendOperator();
    o.disable_auto_compactions = !auto_compactions;
    o.write_buffer_size = 32 << 10;
    o.level0_file_num_compaction_trigger = 3;
    o.target_file_size_base = 32 << 10;
    o.max_bytes_for_level_base = 128 << 10;
    BlockBasedTableOptions table;
    table.block_cache = cache_;
    table.no_block_cache = cache_ == nullptr;
    table.block_size = 1024;
    o.table_factory.reset(NewBlockBasedTableFactory(table));
    ASSERT_TRUE(h_.Open().ok());
  }

  // Each key's single Get, then the batched MultiGet of keys as given
  // (sorted_input false) and sorted (true), and the vector MultiGet: the
  // same results.
  void CheckBatch(const std::vector<std::string>& keys, const Snapshot* snap) {
    ReadOptions ro;
    ro.snapshot = snap;
    ColumnFamilyHandle* cf = h_.db()->DefaultColumnFamily();
    std::vector<std::string> want;
    for (const std::string& k : keys) {
      PinnableSlice v;
      want.push_back(Result(h_.db()->Get(ro, cf, k, &v), v));
    }
    std::vector<std::string> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    for (bool async_io : {false, true}) {
      for (bool sorted_input : {false, true}) {
        const std::vector<std::string>& in = sorted_input ? sorted : keys;
        std::vector<Slice> slices(in.begin(), in.end());
        std::vector<PinnableSlice> values(in.size());
        std::vector<Status> statuses(in.size());
        ReadOptions batch_ro = ro;
        batch_ro.async_io = async_io;
        h_.db()->MultiGet(batch_ro, cf, in.size(), slices.data(), values.data(),
                          statuses.data(), sorted_input);
        for (size_t i = 0; i < in.size(); i++) {
          const size_t j =
              std::find(keys.begin(), keys.end(), in[i]) - keys.begin();
          ASSERT_EQ(Result(statuses[i], values[i]), want[j])
              << in[i] << " sorted_input " << sorted_input << " async_io "
              << async_io;
        }
      }
    }
    std::vector<std::string> values;
    const std::vector<Status> statuses = h_.db()->MultiGet(
        ro, std::vector<Slice>(keys.begin(), keys.end()), &values);
    for (size_t i = 0; i < keys.size(); i++) {
      ASSERT_EQ(Result(statuses[i], values[i]), want[i]) << keys[i];
    }
  }

  uint64_t DataBlockLookups() const {
    return stats_->getTickerCount(BLOCK_CACHE_DATA_HIT) +
           stats_->getTickerCount(BLOCK_CACHE_DATA_MISS);
  }

  std::shared_ptr<Statistics> stats_ = CreateDBStatistics();
  std::shared_ptr<Cache> cache_ = NewLRUCache(1 << 20);
  bool direct_reads_ = false;
  DBHolder h_;
};

TEST_F(DBMultiGetTest, MatchesSingleGetsOverARandomDB) {
  Open(/*auto_compactions=*/true);
  constexpr uint32_t kKeys = 600;
  Random rnd(2024);
  std::vector<const Snapshot*> snapshots;
  for (int phase = 0; phase < 6; phase++) {
    for (int op = 0; op < 1500; op++) {
      const std::string k = MultiGetKey(rnd.Uniform(kKeys));
      const std::string v = std::to_string(phase) + "." + std::to_string(op) +
                            std::string(rnd.Uniform(60), 'v');
      const uint32_t r = rnd.Uniform(20);
      Status s;
      if (r < 9) {
        s = h_.Put(k, v);
      } else if (r < 14) {
        s = h_.db()->Merge(WriteOptions(), k, v);
      } else if (r < 18) {
        s = h_.Delete(k);
      } else if (r < 19) {
        const std::string e = MultiGetKey(rnd.Uniform(kKeys));
        if (k < e) s = h_.db()->DeleteRange(WriteOptions(), k, e);
      } else if (snapshots.size() < 4) {
        snapshots.push_back(h_.db()->GetSnapshot());
      }
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    if (phase % 3 == 2) {
      ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
    }
    std::vector<const Snapshot*> reads = snapshots;
    reads.push_back(nullptr);
    for (const Snapshot* snap : reads) {
      for (int batch = 0; batch < 5; batch++) {
        std::vector<std::string> keys;
        const uint32_t n = 1 + rnd.Uniform(80);
        for (uint32_t i = 0; i < n; i++) {
          if (rnd.OneIn(8) && !keys.empty()) {
            keys.push_back(keys[rnd.Uniform(static_cast<int>(keys.size()))]);
          } else if (rnd.OneIn(10)) {
            keys.push_back(MultiGetKey(rnd.Uniform(kKeys)) + "-absent");
          } else {
            keys.push_back(MultiGetKey(rnd.Uniform(kKeys)));
          }
        }
        CheckBatch(keys, snap);
        if (HasFatalFailure()) return;
      }
    }
    if (phase == 4 && !snapshots.empty()) {
      h_.db()->ReleaseSnapshot(snapshots.front());
      snapshots.erase(snapshots.begin());
    }
  }
  // The reads above met tables below level 0.
  uint64_t deeper = 0;
  for (int level = 1; level < h_.options().num_levels; level++) {
    uint64_t files = 0;
    ASSERT_TRUE(h_.db()->GetIntProperty(
        "strata.num-files-at-level" + std::to_string(level), &files));
    deeper += files;
  }
  EXPECT_GT(deeper, 0u);
  for (const Snapshot* s : snapshots) h_.db()->ReleaseSnapshot(s);
}

TEST_F(DBMultiGetTest, KeysOfOneBlockCostOneCacheLookupAndArePinned) {
  Open(/*auto_compactions=*/false);
  for (uint32_t i = 0; i < 10; i++) {
    ASSERT_TRUE(h_.Put(MultiGetKey(i), "value" + std::to_string(i)).ok());
  }
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  // Unsorted, with a duplicate: the DB sorts them.
  std::vector<std::string> keys = {
      MultiGetKey(7), MultiGetKey(2), MultiGetKey(9), MultiGetKey(2),
      MultiGetKey(0), MultiGetKey(5), "absent"};
  std::vector<Slice> slices(keys.begin(), keys.end());
  std::vector<PinnableSlice> values(keys.size());
  std::vector<Status> statuses(keys.size());
  uint64_t before = DataBlockLookups();
  h_.db()->MultiGet(ReadOptions(), h_.db()->DefaultColumnFamily(), keys.size(),
                    slices.data(), values.data(), statuses.data());
  EXPECT_EQ(DataBlockLookups() - before, 1u);
  for (size_t i = 0; i + 1 < keys.size(); i++) {
    ASSERT_TRUE(statuses[i].ok()) << statuses[i].ToString();
    EXPECT_EQ(values[i].ToString(), "value" + keys[i].substr(7));
    EXPECT_TRUE(values[i].IsPinned());
  }
  EXPECT_TRUE(statuses.back().IsNotFound());
  EXPECT_GT(cache_->GetPinnedUsage(), 0u);

  // Single Gets look the block up once each.
  before = DataBlockLookups();
  for (size_t i = 0; i + 1 < keys.size(); i++) {
    EXPECT_EQ(h_.Get(keys[i]), "value" + keys[i].substr(7));
  }
  EXPECT_EQ(DataBlockLookups() - before, keys.size() - 1);

  values.clear();
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);
}

TEST_F(DBMultiGetTest, UnsortedKeysClaimedSortedStillReadRight) {
  Open(/*auto_compactions=*/false);
  for (uint32_t i = 0; i < 50; i++) {
    ASSERT_TRUE(h_.Put(MultiGetKey(i), "v" + std::to_string(i)).ok());
    if (i % 10 == 9) {
      ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
    }
  }
  std::vector<std::string> keys = {MultiGetKey(40), MultiGetKey(3),
                                   MultiGetKey(25), MultiGetKey(3),
                                   MultiGetKey(11)};
  std::vector<Slice> slices(keys.begin(), keys.end());
  std::vector<PinnableSlice> values(keys.size());
  std::vector<Status> statuses(keys.size());
  h_.db()->MultiGet(ReadOptions(), h_.db()->DefaultColumnFamily(), keys.size(),
                    slices.data(), values.data(), statuses.data(),
                    /*sorted_input=*/true);
  for (size_t i = 0; i < keys.size(); i++) {
    ASSERT_TRUE(statuses[i].ok());
    EXPECT_EQ(values[i].ToString(),
              "v" + std::to_string(std::stoi(keys[i].substr(3)) - 10000));
  }
}

// Many table files on two levels, uncached: an async_io MultiGet reads
// the blocks of each level together (IOStats counts the reads the ring or
// overlapped ReadFile carried), and gets what single Gets get.
class DBMultiGetAsyncTest : public DBMultiGetTest,
                            public testing::WithParamInterface<bool> {};

TEST_P(DBMultiGetAsyncTest, ReadsEachLevelsBlocksTogether) {
  direct_reads_ = GetParam();
  cache_ = nullptr;
  Open(/*auto_compactions=*/false);
  constexpr uint32_t kKeys = 3000;
  for (uint32_t i = 0; i < kKeys; i++) {
    ASSERT_TRUE(h_.Put(MultiGetKey(i), std::string(100, 'a' + i % 26)).ok());
  }
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  CompactRangeOptions all;
  ASSERT_TRUE(h_.db()->CompactRange(all, nullptr, nullptr).ok());
  // Newer versions of some keys, deletions and a range deletion in a
  // table at level 0, and more in the memtable.
  for (uint32_t i = 0; i < kKeys; i += 7) {
    ASSERT_TRUE(h_.Put(MultiGetKey(i), "new" + std::to_string(i)).ok());
  }
  for (uint32_t i = 3; i < kKeys; i += 11) {
    ASSERT_TRUE(h_.Delete(MultiGetKey(i)).ok());
  }
  ASSERT_TRUE(
      h_.db()
          ->DeleteRange(WriteOptions(), MultiGetKey(1500), MultiGetKey(1540))
          .ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h_.Put(MultiGetKey(5), "memtable").ok());
  uint64_t deeper_files = 0;
  ASSERT_TRUE(
      h_.db()->GetIntProperty("strata.num-files-at-level1", &deeper_files));
  ASSERT_GT(deeper_files, 10u);

  Random rnd(77);
  const uint64_t together = GetIOStats().reads_together.load();
  const uint64_t alone = GetIOStats().reads_one_by_one.load();
  const uint64_t unused = GetIOStats().batch_reads_unused.load();
  for (int batch = 0; batch < 30; batch++) {
    std::vector<std::string> keys;
    for (int i = 0; i < 32; i++) {
      keys.push_back(rnd.OneIn(10) ? MultiGetKey(rnd.Uniform(kKeys)) + "x"
                                   : MultiGetKey(rnd.Uniform(kKeys)));
    }
    CheckBatch(keys, nullptr);
    if (HasFatalFailure()) return;
  }
  const uint64_t counted = GetIOStats().reads_together.load() - together;
  if (test::RingOrOverlapped()) {
    // 60 async MultiGets of 32 keys over tables of 32 KB: most keys need
    // a block of their own, read together with the others'.
    EXPECT_GT(counted, 30u * 16);
  } else {
    EXPECT_EQ(counted, 0u);
  }
  // And the blocks read were the ones the searches then used, not read a
  // second time: a read goes unused only where a key's block was not the
  // one planned (a key on a file boundary).
  const uint64_t reads = counted + GetIOStats().reads_one_by_one.load() - alone;
  EXPECT_GT(reads, 30u * 16);
  EXPECT_LE((GetIOStats().batch_reads_unused.load() - unused) * 20, reads)
      << "of " << reads;
}

INSTANTIATE_TEST_SUITE_P(BufferedAndDirect, DBMultiGetAsyncTest,
                         testing::Bool());

}  // namespace
}  // namespace strata
