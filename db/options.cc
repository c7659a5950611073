#include "strata/options.h"

#include "strata/cache.h"
#include "strata/comparator.h"
#include "strata/filter_policy.h"
#include "strata/table.h"
#include "table/compression.h"

namespace strata {

// RocksDB's defaults: snappy where the build has it, and a block-based
// table factory with default table options.
ColumnFamilyOptions::ColumnFamilyOptions()
    : comparator(BytewiseComparator()),
      compression(CompressionSupported(kSnappyCompression) ? kSnappyCompression
                                                           : kNoCompression),
      table_factory(NewBlockBasedTableFactory()) {}

// The helpers below set the values RocksDB 7.8's helpers of the same names
// set, on the fields strata declares; docs/options.md lists what each
// leaves out and why.

DBOptions* DBOptions::OptimizeForSmallDb(std::shared_ptr<Cache>* cache) {
  max_file_opening_threads = 1;
  max_open_files = 5000;
  // The memtables count against the (small) block cache's capacity.
  write_buffer_manager = std::make_shared<WriteBufferManager>(
      0, cache != nullptr ? *cache : std::shared_ptr<Cache>());
  return this;
}

DBOptions* DBOptions::IncreaseParallelism(int total_threads) {
  max_background_jobs = total_threads;
  // Compactions run in the LOW pool, flushes in the HIGH one, one at a
  // time.
  env->SetBackgroundThreads(total_threads, Env::LOW);
  env->SetBackgroundThreads(1, Env::HIGH);
  return this;
}

ColumnFamilyOptions* ColumnFamilyOptions::OptimizeForSmallDb(
    std::shared_ptr<Cache>* cache) {
  write_buffer_size = 2 << 20;
  target_file_size_base = 2 << 20;
  max_bytes_for_level_base = 10 << 20;
  soft_pending_compaction_bytes_limit = 256ull << 20;
  hard_pending_compaction_bytes_limit = 1ull << 30;

  // Index and filter blocks compete for the one (small) cache with the
  // data blocks rather than staying pinned for every open table.
  BlockBasedTableOptions table_options;
  if (cache != nullptr) table_options.block_cache = *cache;
  table_options.cache_index_and_filter_blocks = true;
  table_factory.reset(NewBlockBasedTableFactory(table_options));
  return this;
}

ColumnFamilyOptions* ColumnFamilyOptions::OptimizeForPointLookup(
    uint64_t block_cache_size_mb) {
  BlockBasedTableOptions table_options;
  table_options.filter_policy.reset(NewBloomFilterPolicy(10));
  table_options.block_cache =
      NewLRUCache(static_cast<size_t>(block_cache_size_mb << 20));
  table_factory.reset(NewBlockBasedTableFactory(table_options));
  memtable_prefix_bloom_size_ratio = 0.02;
  memtable_whole_key_filtering = true;
  return this;
}

ColumnFamilyOptions* ColumnFamilyOptions::OptimizeLevelStyleCompaction(
    uint64_t memtable_memory_budget) {
  // Up to 6 memtables of a quarter of the budget. RocksDB flushes them
  // two at a time, so that two L0 files start a compaction into an L1 as
  // large as the budget; strata flushes each memtable when it fills
  // (min_write_buffer_number_to_merge is ignored), so its L0 files hold a
  // quarter of the budget and L0 compacts at half of it.
  write_buffer_size = static_cast<size_t>(memtable_memory_budget / 4);
  min_write_buffer_number_to_merge = 2;
  max_write_buffer_number = 6;
  level0_file_num_compaction_trigger = 2;
  target_file_size_base = memtable_memory_budget / 8;
  max_bytes_for_level_base = memtable_memory_budget;

  // L0 and L1 are rewritten soonest, so they stay uncompressed; the levels
  // below get the fastest codec built in (RocksDB: LZ4, else snappy).
  const CompressionType deeper = CompressionSupported(kSnappyCompression)
                                     ? kSnappyCompression
                                     : kNoCompression;
  compression_per_level.assign(
      static_cast<size_t>(num_levels > 0 ? num_levels : 0), deeper);
  for (size_t i = 0; i < compression_per_level.size() && i < 2; i++) {
    compression_per_level[i] = kNoCompression;
  }
  return this;
}

Options* Options::PrepareForBulkLoad() {
  // Everything lands in L0 and nothing slows the load down: no automatic
  // compaction and no L0 or compaction-debt stall.
  level0_file_num_compaction_trigger = 1 << 30;
  level0_slowdown_writes_trigger = 1 << 30;
  level0_stop_writes_trigger = 1 << 30;
  soft_pending_compaction_bytes_limit = 0;
  hard_pending_compaction_bytes_limit = 0;
  disable_auto_compactions = true;

  // The manual compaction afterwards takes all of L0 at once, into the
  // one level below it, as large files.
  max_compaction_bytes = uint64_t{1} << 60;
  num_levels = 2;
  target_file_size_base = 256 << 20;

  // More memtables, so writes continue while flushes run.
  max_write_buffer_number = 6;
  min_write_buffer_number_to_merge = 1;
  max_background_flushes = 4;
  max_background_compactions = 2;
  return this;
}

Options* Options::OptimizeForSmallDb() {
  std::shared_ptr<Cache> cache = NewLRUCache(16 << 20);
  ColumnFamilyOptions::OptimizeForSmallDb(&cache);
  DBOptions::OptimizeForSmallDb(&cache);
  return this;
}

}  // namespace strata
