// RocksDB's option helpers (IncreaseParallelism, OptimizeLevelStyleCompaction,
// OptimizeForPointLookup, OptimizeForSmallDb, PrepareForBulkLoad): the
// fields each sets, and a DB working under each; and memtable_factory (the
// skiplist by default, a representation strata lacks refused at open).

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/memtablerep.h"
#include "strata/table.h"
#include "strata/write_buffer_manager.h"
#include "table/block_based_table_factory.h"
#include "table/compression.h"
#include "test/db/db_test_util.h"
#include "util/bloom.h"

namespace strata {
namespace {

using test::DBHolder;

// Records the pool sizes asked of it instead of resizing the pools of the
// process-wide default Env, which other tests share.
class PoolRecordingEnv : public EnvWrapper {
 public:
  explicit PoolRecordingEnv(Env* target) : EnvWrapper(target) {}
  void SetBackgroundThreads(int number, Priority pri) override {
    std::lock_guard<std::mutex> l(mu_);
    sizes_[pri] = number;
  }
  // The size last set for pri; 0 if none was.
  int SizeSet(Priority pri) {
    std::lock_guard<std::mutex> l(mu_);
    auto it = sizes_.find(pri);
    return it == sizes_.end() ? 0 : it->second;
  }

 private:
  std::mutex mu_;
  std::map<Priority, int> sizes_;
};

const BlockBasedTableOptions& TableOptionsOf(const ColumnFamilyOptions& cf) {
  const auto* factory =
      dynamic_cast<const BlockBasedTableFactory*>(cf.table_factory.get());
  EXPECT_NE(nullptr, factory);
  return factory->table_options();
}

// The expected values in the helper tests below are those RocksDB 7.8's
// helpers set (its options/options.cc, read for this purpose), written out
// here rather than computed, on the fields strata declares.

TEST(DBOptionsHelpersTest, IncreaseParallelism) {
  PoolRecordingEnv env(Env::Default());
  DBOptions options;
  options.env = &env;
  EXPECT_EQ(&options, options.IncreaseParallelism());
  // RocksDB: max_background_jobs = total_threads (default 16), the LOW
  // pool to total_threads threads, the HIGH pool to 1.
  EXPECT_EQ(16, options.max_background_jobs);
  EXPECT_EQ(16, env.SizeSet(Env::LOW));
  EXPECT_EQ(1, env.SizeSet(Env::HIGH));
  EXPECT_EQ(0, env.SizeSet(Env::BOTTOM));

  options.IncreaseParallelism(4);
  EXPECT_EQ(4, options.max_background_jobs);
  EXPECT_EQ(4, env.SizeSet(Env::LOW));
  EXPECT_EQ(1, env.SizeSet(Env::HIGH));
}

TEST(DBOptionsHelpersTest, OptimizeLevelStyleCompaction) {
  const CompressionType deeper = CompressionSupported(kSnappyCompression)
                                     ? kSnappyCompression
                                     : kNoCompression;
  ColumnFamilyOptions cf;
  EXPECT_EQ(&cf, cf.OptimizeLevelStyleCompaction());
  // RocksDB, for the default budget of 512 MiB: memtables of budget / 4,
  // 2 to merge, 6 at most, L0 compacted at 2 files, files of budget / 8,
  // L1 of the whole budget; L0 and L1 uncompressed, the other levels LZ4
  // (else snappy, else none) — strata has no LZ4.
  EXPECT_EQ(size_t{128} << 20, cf.write_buffer_size);
  EXPECT_EQ(2, cf.min_write_buffer_number_to_merge);
  EXPECT_EQ(6, cf.max_write_buffer_number);
  EXPECT_EQ(2, cf.level0_file_num_compaction_trigger);
  EXPECT_EQ(uint64_t{64} << 20, cf.target_file_size_base);
  EXPECT_EQ(uint64_t{512} << 20, cf.max_bytes_for_level_base);
  EXPECT_EQ(
      std::vector<CompressionType>({kNoCompression, kNoCompression, deeper,
                                    deeper, deeper, deeper, deeper}),
      cf.compression_per_level);

  ColumnFamilyOptions small;
  small.num_levels = 4;
  small.OptimizeLevelStyleCompaction(64 << 20);
  EXPECT_EQ(size_t{16} << 20, small.write_buffer_size);
  EXPECT_EQ(uint64_t{8} << 20, small.target_file_size_base);
  EXPECT_EQ(uint64_t{64} << 20, small.max_bytes_for_level_base);
  EXPECT_EQ(std::vector<CompressionType>(
                {kNoCompression, kNoCompression, deeper, deeper}),
            small.compression_per_level);
}

TEST(DBOptionsHelpersTest, OptimizeForPointLookup) {
  ColumnFamilyOptions cf;
  EXPECT_EQ(&cf, cf.OptimizeForPointLookup(32));
  // RocksDB: a 10-bit bloom filter, an LRU block cache of the size given
  // in MiB (and a hashed data block index strata lacks), a memtable bloom
  // of 2% of the write buffer with whole keys.
  const BlockBasedTableOptions& table = TableOptionsOf(cf);
  ASSERT_NE(nullptr, table.block_cache);
  EXPECT_EQ(size_t{32} << 20, table.block_cache->GetCapacity());
  const auto* bloom =
      dynamic_cast<const BloomFilterPolicy*>(table.filter_policy.get());
  ASSERT_NE(nullptr, bloom);
  EXPECT_EQ(10000u, bloom->millibits_per_key());
  EXPECT_DOUBLE_EQ(0.02, cf.memtable_prefix_bloom_size_ratio);
  EXPECT_TRUE(cf.memtable_whole_key_filtering);
}

// RocksDB's ColumnFamilyOptions::OptimizeForSmallDb: 2 MiB memtables and
// target files, a 10 MiB L1, pending-compaction limits of 256 MiB and
// 1 GiB, index and filter blocks in the block cache (a two-level index,
// which strata lacks). DBOptions's: max_open_files 5000, one file-opening
// thread, and a write buffer manager without a budget charging the
// memtables to the cache.
void ExpectSmallDbFields(const ColumnFamilyOptions& cf) {
  EXPECT_EQ(size_t{2} << 20, cf.write_buffer_size);
  EXPECT_EQ(uint64_t{2} << 20, cf.target_file_size_base);
  EXPECT_EQ(uint64_t{10} << 20, cf.max_bytes_for_level_base);
  EXPECT_EQ(uint64_t{256} << 20, cf.soft_pending_compaction_bytes_limit);
  EXPECT_EQ(uint64_t{1} << 30, cf.hard_pending_compaction_bytes_limit);
  EXPECT_TRUE(TableOptionsOf(cf).cache_index_and_filter_blocks);
}

TEST(DBOptionsHelpersTest, OptimizeForSmallDb) {
  std::shared_ptr<Cache> cache = NewLRUCache(1 << 20);
  ColumnFamilyOptions cf;
  EXPECT_EQ(&cf, cf.OptimizeForSmallDb(&cache));
  ExpectSmallDbFields(cf);
  EXPECT_EQ(cache, TableOptionsOf(cf).block_cache);

  // No cache given: RocksDB's table factory, and strata's, make their own
  // 8 MiB one.
  ColumnFamilyOptions no_cache;
  no_cache.OptimizeForSmallDb();
  ExpectSmallDbFields(no_cache);
  ASSERT_NE(nullptr, TableOptionsOf(no_cache).block_cache);
  EXPECT_EQ(size_t{8} << 20,
            TableOptionsOf(no_cache).block_cache->GetCapacity());

  DBOptions db;
  EXPECT_EQ(&db, db.OptimizeForSmallDb(&cache));
  EXPECT_EQ(5000, db.max_open_files);
  EXPECT_EQ(1, db.max_file_opening_threads);
  ASSERT_NE(nullptr, db.write_buffer_manager);
  EXPECT_FALSE(db.write_buffer_manager->enabled());
  EXPECT_TRUE(db.write_buffer_manager->cost_to_cache());
  DBOptions db_no_cache;
  db_no_cache.OptimizeForSmallDb();
  ASSERT_NE(nullptr, db_no_cache.write_buffer_manager);
  EXPECT_FALSE(db_no_cache.write_buffer_manager->cost_to_cache());

  // Options's: both, sharing a new 16 MiB LRU cache.
  Options options;
  EXPECT_EQ(&options, options.OptimizeForSmallDb());
  ExpectSmallDbFields(options);
  EXPECT_EQ(5000, options.max_open_files);
  EXPECT_EQ(1, options.max_file_opening_threads);
  ASSERT_NE(nullptr, TableOptionsOf(options).block_cache);
  EXPECT_EQ(size_t{16} << 20,
            TableOptionsOf(options).block_cache->GetCapacity());
}

TEST(DBOptionsHelpersTest, PrepareForBulkLoad) {
  Options options;
  EXPECT_EQ(&options, options.PrepareForBulkLoad());
  // RocksDB: L0 triggers at 1 << 30, no pending-compaction limits, no
  // automatic compaction, one manual compaction taking up to 1 << 60
  // bytes, 2 levels, 6 memtables (1 to merge), 4 flushes and 2
  // compactions in the background, 256 MiB files.
  EXPECT_EQ(1 << 30, options.level0_file_num_compaction_trigger);
  EXPECT_EQ(1 << 30, options.level0_slowdown_writes_trigger);
  EXPECT_EQ(1 << 30, options.level0_stop_writes_trigger);
  EXPECT_EQ(0u, options.soft_pending_compaction_bytes_limit);
  EXPECT_EQ(0u, options.hard_pending_compaction_bytes_limit);
  EXPECT_TRUE(options.disable_auto_compactions);
  EXPECT_EQ(uint64_t{1} << 60, options.max_compaction_bytes);
  EXPECT_EQ(2, options.num_levels);
  EXPECT_EQ(6, options.max_write_buffer_number);
  EXPECT_EQ(1, options.min_write_buffer_number_to_merge);
  EXPECT_EQ(4, options.max_background_flushes);
  EXPECT_EQ(2, options.max_background_compactions);
  EXPECT_EQ(uint64_t{256} << 20, options.target_file_size_base);
}

// A DB opened under each helper writes, flushes, compacts and reopens with
// its data.
TEST(DBOptionsHelpersTest, ADBWorksUnderEachHelper) {
  PoolRecordingEnv env(Env::Default());
  const std::vector<std::pair<std::string, std::function<void(Options*)>>>
      helpers = {
          {"IncreaseParallelism",
           [](Options* o) { o->IncreaseParallelism(4); }},
          {"OptimizeLevelStyleCompaction",
           [](Options* o) { o->OptimizeLevelStyleCompaction(8 << 20); }},
          {"OptimizeForPointLookup",
           [](Options* o) { o->OptimizeForPointLookup(8); }},
          {"OptimizeForSmallDb", [](Options* o) { o->OptimizeForSmallDb(); }},
          {"PrepareForBulkLoad", [](Options* o) { o->PrepareForBulkLoad(); }},
      };
  for (const auto& helper : helpers) {
    SCOPED_TRACE(helper.first);
    DBHolder h(&env);
    helper.second(&h.options());
    ASSERT_TRUE(h.Open().ok());
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 100; i++) {
        const std::string k = "key" + std::to_string(i);
        ASSERT_TRUE(h.Put(k, k + "-" + std::to_string(round)).ok());
      }
      ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
    }
    ASSERT_TRUE(
        h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
    std::string files;
    ASSERT_TRUE(h.db()->GetProperty("strata.num-files-at-level0", &files));
    EXPECT_EQ("0", files);
    ASSERT_TRUE(h.Put("unflushed", "v").ok());
    ASSERT_TRUE(h.Reopen().ok());
    EXPECT_EQ("key7-2", h.Get("key7"));
    EXPECT_EQ("v", h.Get("unflushed"));
    EXPECT_EQ(101u, h.Contents().size());
  }
}

TEST(DBOptionsMemTableFactoryTest, DefaultIsTheSkipList) {
  Options options;
  ASSERT_NE(nullptr, options.memtable_factory);
  EXPECT_STREQ("SkipListFactory", options.memtable_factory->Name());
  EXPECT_TRUE(options.memtable_factory->IsInsertConcurrentlySupported());
  EXPECT_STREQ("SkipListFactory", SkipListFactory(16).Name());
}

class OtherRepFactory : public MemTableRepFactory {
 public:
  const char* Name() const override { return "OtherRepFactory"; }
};

// A skiplist (or none named) opens; a representation strata lacks is
// refused before anything is created (the vector: db_memtable_rep_test).
TEST(DBOptionsMemTableFactoryTest, UnknownRepresentationIsRefused) {
  DBHolder h;
  h.options().memtable_factory = std::make_shared<OtherRepFactory>();
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("OtherRepFactory"));
  EXPECT_TRUE(h.env()->FileExists(h.name()).IsNotFound());

  for (std::shared_ptr<MemTableRepFactory> factory :
       {std::shared_ptr<MemTableRepFactory>(),
        std::shared_ptr<MemTableRepFactory>(new SkipListFactory(8))}) {
    h.options().memtable_factory = factory;
    ASSERT_TRUE(h.Open().ok());
    ASSERT_TRUE(h.Put("k", "v").ok());
    EXPECT_EQ("v", h.Get("k"));
    h.Close();
  }
}

}  // namespace
}  // namespace strata
