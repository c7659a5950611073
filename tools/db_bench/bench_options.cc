// From flags to DB options, and the checks of flag values the parser
// cannot make.

#include "tools/db_bench/bench_options.h"

#include <cstdio>
#include <limits>
#include <memory>

#include "strata/cache.h"
#include "strata/db.h"
#include "strata/filter_policy.h"
#include "strata/memtablerep.h"
#include "strata/rate_limiter.h"
#include "strata/slice_transform.h"
#include "strata/table.h"

namespace strata {
namespace bench {

namespace {

const char* const kBenchmarkNames[] = {"fillseq",
                                       "fillrandom",
                                       "filluniquerandom",
                                       "overwrite",
                                       "fillsync",
                                       "fillbatch",
                                       "fill100K",
                                       "readrandom",
                                       "readmissing",
                                       "readseq",
                                       "readreverse",
                                       "seekrandom",
                                       "multireadrandom",
                                       "readwhilewriting",
                                       "readrandomwriterandom",
                                       "randomtransaction",
                                       "deleterandom",
                                       "deleteseq",
                                       "compact",
                                       "flush",
                                       "stats",
                                       "levelstats",
                                       "waitforcompaction",
                                       "crc32c"};

}  // namespace

std::vector<std::string> SplitBenchmarks(const std::string& list) {
  std::vector<std::string> names;
  size_t begin = 0;
  while (begin <= list.size()) {
    size_t end = list.find(',', begin);
    if (end == std::string::npos) end = list.size();
    if (end > begin) names.push_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  return names;
}

namespace {

Status BadFlag(const char* name, const std::string& why) {
  return Status::InvalidArgument(std::string("--") + name, why);
}

}  // namespace

Status ValidateFlags(const Flags& f) {
  if (f.num < 1) return BadFlag("num", "must be at least 1");
  if (f.threads < 1) return BadFlag("threads", "must be at least 1");
  if (f.num_column_families < 1) {
    return BadFlag("num_column_families", "must be at least 1");
  }
  if (f.key_size < 1) return BadFlag("key_size", "must be at least 1");
  if (f.value_size < 0) return BadFlag("value_size", "must not be negative");
  if (f.batch_size < 1) return BadFlag("batch_size", "must be at least 1");
  if (f.duration < 0) return BadFlag("duration", "must not be negative");
  if (f.multiread_stride < 0) {
    return BadFlag("multiread_stride", "must not be negative");
  }
  if (f.block_size < 1) return BadFlag("block_size", "must be at least 1");
  if (f.seek_nexts < 0) return BadFlag("seek_nexts", "must not be negative");
  if (f.compression_ratio < 0) {
    return BadFlag("compression_ratio", "must not be negative");
  }
  if (f.readwritepercent < 0 || f.readwritepercent > 100) {
    return BadFlag("readwritepercent", "must be in [0, 100]");
  }
  if (f.prefix_size < 0 || f.prefix_size > f.key_size) {
    return BadFlag("prefix_size", "must be in [0, --key_size]");
  }
  if (f.keys_per_prefix < 0) {
    return BadFlag("keys_per_prefix", "must not be negative");
  }
  if (f.stats_interval_seconds < 0) {
    return BadFlag("stats_interval_seconds", "must not be negative");
  }
  if (f.report_interval_seconds < 0) {
    return BadFlag("report_interval_seconds", "must not be negative");
  }
  if (f.rate_limiter_bytes_per_sec >
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return BadFlag("rate_limiter_bytes_per_sec", "is too large");
  }
  if (f.rate_limiter_bytes_per_sec > 0 &&
      f.rate_limiter_refill_period_us <= 0) {
    return BadFlag("rate_limiter_refill_period_us", "must be positive");
  }
  if (f.compaction_readahead_size < 0) {
    return BadFlag("compaction_readahead_size", "must not be negative");
  }
  if (f.inplace_update_num_locks < 0) {
    return BadFlag("inplace_update_num_locks", "must not be negative");
  }
  // RocksDB's other representations (prefix_hash, hash_linkedlist,
  // cuckoo) have no strata counterpart.
  if (f.memtablerep != "skip_list" && f.memtablerep != "vector") {
    return BadFlag("memtablerep", "'" + f.memtablerep +
                                      "' is not supported by strata "
                                      "(skip_list, vector)");
  }
  // RocksDB knows more algorithms; strata has no counterpart for them, and
  // a run must never silently compress differently than asked.
  if (f.compression_type != "none" && f.compression_type != "snappy" &&
      f.compression_type != "zlib") {
    return BadFlag("compression_type",
                   "'" + f.compression_type +
                       "' is not supported by strata (none, snappy, zlib)");
  }
  // RocksDB's bounds: a set's number is a four-digit key prefix.
  if (f.transaction_sets < 1 || f.transaction_sets > 9999) {
    return BadFlag("transaction_sets", "must be in [1, 9999]");
  }
  if (f.transaction_sleep < 0) {
    return BadFlag("transaction_sleep", "must not be negative");
  }
  if (f.transaction_lock_timeout >
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return BadFlag("transaction_lock_timeout", "is too large");
  }
  if (f.transaction_db && f.optimistic_transaction_db) {
    return BadFlag("optimistic_transaction_db",
                   "cannot be used with --transaction_db: open one kind of "
                   "transaction DB");
  }
  for (const std::string& name : SplitBenchmarks(f.benchmarks)) {
    if (name == "randomtransaction" && !f.transaction_db &&
        !f.optimistic_transaction_db) {
      return BadFlag("benchmarks",
                     "randomtransaction needs --transaction_db or "
                     "--optimistic_transaction_db");
    }
    bool known = false;
    for (const char* k : kBenchmarkNames) known = known || name == k;
    if (!known) {
      std::string all;
      for (const char* k : kBenchmarkNames) all += std::string(" ") + k;
      return BadFlag("benchmarks",
                     "unknown benchmark '" + name + "'; supported:" + all);
    }
    if (name == "filluniquerandom" && f.threads > 1) {
      return BadFlag("threads",
                     "filluniquerandom multithreaded not supported, use 1 "
                     "thread");
    }
  }
  return Status::OK();
}

Status BuildOptions(const Flags& f, Options* options) {
  options->create_if_missing = true;
  options->create_missing_column_families = f.num_column_families > 1;
  options->write_buffer_size = static_cast<size_t>(f.write_buffer_size);
  options->max_write_buffer_number = f.max_write_buffer_number;
  // On: the library's default region size.
  options->memtable_huge_page_size =
      f.memtable_use_huge_page ? ColumnFamilyOptions().memtable_huge_page_size
                               : 0;
  if (f.memtablerep == "vector") {
    options->memtable_factory = std::make_shared<VectorRepFactory>();
  }
  options->inplace_update_support = f.inplace_update_support;
  options->inplace_update_num_locks =
      static_cast<size_t>(f.inplace_update_num_locks);
  options->max_background_jobs = f.max_background_jobs;
  options->level0_file_num_compaction_trigger =
      f.level0_file_num_compaction_trigger;
  options->level0_slowdown_writes_trigger = f.level0_slowdown_writes_trigger;
  options->level0_stop_writes_trigger = f.level0_stop_writes_trigger;
  options->target_file_size_base =
      static_cast<uint64_t>(f.target_file_size_base);
  options->max_bytes_for_level_base = f.max_bytes_for_level_base;
  options->max_bytes_for_level_multiplier = f.max_bytes_for_level_multiplier;
  options->num_levels = f.num_levels;
  options->disable_auto_compactions = f.disable_auto_compactions;
  options->unordered_write = f.unordered_write;
  options->unordered_write_snapshot_safe = f.unordered_write_snapshot_safe;
  options->enable_pipelined_write = f.enable_pipelined_write;
  options->allow_concurrent_memtable_write = f.allow_concurrent_memtable_write;
  options->enable_write_thread_adaptive_yield =
      f.enable_write_thread_adaptive_yield;
  options->write_thread_sync_gather_usec = f.write_thread_sync_gather_usec;
  options->wal_write_through = f.wal_write_through;
  options->use_direct_reads = f.use_direct_reads;
  options->use_direct_io_for_flush_and_compaction =
      f.use_direct_io_for_flush_and_compaction;
  options->allow_mmap_reads = f.mmap_read;
  options->compaction_readahead_size =
      static_cast<size_t>(f.compaction_readahead_size);
  if (f.rate_limiter_bytes_per_sec > 0) {
    // As RocksDB's db_bench: fairness 10; --rate_limit_bg_reads limits the
    // compaction reads instead of the writes; auto-tuned, the rate is the
    // upper bound.
    options->rate_limiter.reset(NewGenericRateLimiter(
        static_cast<int64_t>(f.rate_limiter_bytes_per_sec),
        f.rate_limiter_refill_period_us, 10,
        f.rate_limit_bg_reads ? RateLimiter::Mode::kReadsOnly
                              : RateLimiter::Mode::kWritesOnly,
        f.rate_limiter_auto_tuned));
  }
  options->max_open_files = f.open_files;
  if (f.compression_type == "none") {
    options->compression = kNoCompression;
  } else if (f.compression_type == "zlib") {
    options->compression = kZlibCompression;
  } else {
    options->compression = kSnappyCompression;
  }

  BlockBasedTableOptions table;
  if (f.cache_size > 0) {
    table.block_cache =
        NewLRUCache(static_cast<size_t>(f.cache_size), f.cache_numshardbits);
    if (table.block_cache == nullptr) {
      return BadFlag("cache_numshardbits", "not a valid shard count");
    }
  } else {
    table.no_block_cache = true;
  }
  table.block_size = static_cast<uint64_t>(f.block_size);
  // Negative: RocksDB's default, which is no filter.
  if (f.bloom_bits > 0)
    table.filter_policy.reset(NewBloomFilterPolicy(f.bloom_bits));
  options->table_factory.reset(NewBlockBasedTableFactory(table));
  if (f.prefix_size > 0) {
    options->prefix_extractor.reset(
        NewFixedPrefixTransform(static_cast<size_t>(f.prefix_size)));
  }
  return Status::OK();
}

std::string ColumnFamilyName(int index) {
  if (index == 0) return kDefaultColumnFamilyName;
  char name[40];
  std::snprintf(name, sizeof(name), "column_family_name_%06d", index);
  return name;
}

}  // namespace bench
}  // namespace strata
