// strata's C API (include/strata/c.h): DB, read, write, flush and
// compaction options.

#include <memory>
#include <string>
#include <vector>

#include "db/c/c_internal.h"
#include "strata/memtablerep.h"
#include "strata/merge_operator.h"
#include "strata/rate_limiter.h"

using strata::Slice;

struct strata_ratelimiter_t {
  std::shared_ptr<strata::RateLimiter> rep;
};

namespace {

// Points *bound at a copy of key kept in *bytes (NULL key: no bound).
void SetBound(const char* key, size_t keylen, std::string* bytes, Slice* slice,
              const Slice** bound) {
  if (key == nullptr) {
    bytes->clear();
    *bound = nullptr;
    return;
  }
  bytes->assign(key, keylen);
  *slice = Slice(*bytes);
  *bound = slice;
}

}  // namespace

extern "C" {

// ---- strata_options_t ----

strata_options_t* strata_options_create(void) { return new strata_options_t; }

void strata_options_destroy(strata_options_t* options) { delete options; }

strata_options_t* strata_options_create_copy(strata_options_t* options) {
  return new strata_options_t(*options);
}

void strata_options_increase_parallelism(strata_options_t* opt,
                                         int total_threads) {
  opt->rep.IncreaseParallelism(total_threads);
}

void strata_options_optimize_for_point_lookup(strata_options_t* opt,
                                              uint64_t block_cache_size_mb) {
  opt->rep.OptimizeForPointLookup(block_cache_size_mb);
}

void strata_options_optimize_level_style_compaction(
    strata_options_t* opt, uint64_t memtable_memory_budget) {
  opt->rep.OptimizeLevelStyleCompaction(memtable_memory_budget);
}

void strata_options_prepare_for_bulk_load(strata_options_t* opt) {
  opt->rep.PrepareForBulkLoad();
}

void strata_options_set_comparator(strata_options_t* opt,
                                   strata_comparator_t* cmp) {
  opt->rep.comparator = cmp;
}

void strata_options_set_merge_operator(strata_options_t* opt,
                                       strata_mergeoperator_t* merge_operator) {
  opt->rep.merge_operator =
      std::shared_ptr<strata::MergeOperator>(merge_operator);
}

void strata_options_set_uint64add_merge_operator(strata_options_t* opt) {
  opt->rep.merge_operator = strata::MergeOperators::CreateUInt64AddOperator();
}

STRATA_C_FIELD(options, create_if_missing, create_if_missing, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, create_missing_column_families,
               create_missing_column_families, unsigned char, unsigned char)
STRATA_C_FIELD(options, error_if_exists, error_if_exists, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, paranoid_checks, paranoid_checks, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, write_buffer_size, write_buffer_size, size_t, size_t)
STRATA_C_FIELD(options, db_write_buffer_size, db_write_buffer_size, size_t,
               size_t)
STRATA_C_FIELD(options, max_open_files, max_open_files, int, int)
STRATA_C_FIELD(options, max_file_opening_threads, max_file_opening_threads, int,
               int)
STRATA_C_FIELD(options, max_total_wal_size, max_total_wal_size, uint64_t,
               uint64_t)
STRATA_C_FIELD(options, num_levels, num_levels, int, int)
STRATA_C_FIELD(options, level0_file_num_compaction_trigger,
               level0_file_num_compaction_trigger, int, int)
STRATA_C_FIELD(options, level0_slowdown_writes_trigger,
               level0_slowdown_writes_trigger, int, int)
STRATA_C_FIELD(options, level0_stop_writes_trigger, level0_stop_writes_trigger,
               int, int)
STRATA_C_FIELD(options, target_file_size_base, target_file_size_base, uint64_t,
               uint64_t)
STRATA_C_FIELD(options, target_file_size_multiplier,
               target_file_size_multiplier, int, int)
STRATA_C_FIELD(options, max_bytes_for_level_base, max_bytes_for_level_base,
               uint64_t, uint64_t)
STRATA_C_FIELD(options, level_compaction_dynamic_level_bytes,
               level_compaction_dynamic_level_bytes, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, max_bytes_for_level_multiplier,
               max_bytes_for_level_multiplier, double, double)
STRATA_C_FIELD(options, max_write_buffer_number, max_write_buffer_number, int,
               int)
STRATA_C_FIELD(options, min_write_buffer_number_to_merge,
               min_write_buffer_number_to_merge, int, int)
STRATA_C_FIELD(options, enable_pipelined_write, enable_pipelined_write,
               unsigned char, unsigned char)
STRATA_C_FIELD(options, unordered_write, unordered_write, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, unordered_write_snapshot_safe,
               unordered_write_snapshot_safe, unsigned char, unsigned char)
STRATA_C_FIELD(options, max_background_jobs, max_background_jobs, int, int)
STRATA_C_FIELD(options, max_background_compactions, max_background_compactions,
               int, int)
STRATA_C_FIELD(options, max_background_flushes, max_background_flushes, int,
               int)
STRATA_C_FIELD(options, soft_pending_compaction_bytes_limit,
               soft_pending_compaction_bytes_limit, size_t, size_t)
STRATA_C_FIELD(options, hard_pending_compaction_bytes_limit,
               hard_pending_compaction_bytes_limit, size_t, size_t)
STRATA_C_FIELD(options, max_manifest_file_size, max_manifest_file_size, size_t,
               size_t)
STRATA_C_FIELD(options, use_fsync, use_fsync, int, int)
STRATA_C_FIELD(options, allow_mmap_reads, allow_mmap_reads, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, allow_mmap_writes, allow_mmap_writes, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, use_direct_reads, use_direct_reads, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, use_direct_io_for_flush_and_compaction,
               use_direct_io_for_flush_and_compaction, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, bytes_per_sync, bytes_per_sync, uint64_t, uint64_t)
STRATA_C_FIELD(options, wal_bytes_per_sync, wal_bytes_per_sync, uint64_t,
               uint64_t)
STRATA_C_FIELD(options, writable_file_max_buffer_size,
               writable_file_max_buffer_size, uint64_t, uint64_t)
STRATA_C_FIELD(options, allow_concurrent_memtable_write,
               allow_concurrent_memtable_write, unsigned char, unsigned char)
STRATA_C_FIELD(options, enable_write_thread_adaptive_yield,
               enable_write_thread_adaptive_yield, unsigned char, unsigned char)
STRATA_C_FIELD(options, disable_auto_compactions, disable_auto_compactions, int,
               unsigned char)
STRATA_C_FIELD(options, max_compaction_bytes, max_compaction_bytes, uint64_t,
               uint64_t)
STRATA_C_FIELD(options, memtable_huge_page_size, memtable_huge_page_size,
               size_t, size_t)
STRATA_C_FIELD(options, inplace_update_support, inplace_update_support,
               unsigned char, unsigned char)
STRATA_C_FIELD(options, inplace_update_num_locks, inplace_update_num_locks,
               size_t, size_t)
STRATA_C_FIELD(options, atomic_flush, atomic_flush, unsigned char,
               unsigned char)
STRATA_C_FIELD(options, memtable_prefix_bloom_size_ratio,
               memtable_prefix_bloom_size_ratio, double, double)
STRATA_C_FIELD(options, wal_recovery_mode, wal_recovery_mode, int, int)
STRATA_C_FIELD(options, compression, compression, int, int)
STRATA_C_FIELD(options, compaction_style, compaction_style, int, int)

void strata_options_compaction_readahead_size(strata_options_t* opt,
                                              size_t size) {
  opt->rep.compaction_readahead_size = size;
}

size_t strata_options_get_compaction_readahead_size(strata_options_t* opt) {
  return opt->rep.compaction_readahead_size;
}

void strata_options_set_ratelimiter(strata_options_t* opt,
                                    strata_ratelimiter_t* limiter) {
  opt->rep.rate_limiter = limiter != nullptr ? limiter->rep : nullptr;
}

strata_ratelimiter_t* strata_ratelimiter_create(int64_t rate_bytes_per_sec,
                                                int64_t refill_period_us,
                                                int32_t fairness) {
  std::shared_ptr<strata::RateLimiter> limiter(strata::NewGenericRateLimiter(
      rate_bytes_per_sec, refill_period_us, fairness));
  return limiter != nullptr ? new strata_ratelimiter_t{std::move(limiter)}
                            : nullptr;
}

void strata_ratelimiter_destroy(strata_ratelimiter_t* limiter) {
  delete limiter;
}

void strata_options_set_memtable_whole_key_filtering(strata_options_t* opt,
                                                     unsigned char v) {
  opt->rep.memtable_whole_key_filtering = v;
}

void strata_options_set_memtable_vector_rep(strata_options_t* opt) {
  opt->rep.memtable_factory = std::make_shared<strata::VectorRepFactory>();
}

void strata_options_set_compression_per_level(strata_options_t* opt,
                                              const int* level_values,
                                              size_t num_levels) {
  opt->rep.compression_per_level.resize(num_levels);
  for (size_t i = 0; i < num_levels; i++) {
    opt->rep.compression_per_level[i] =
        static_cast<strata::CompressionType>(level_values[i]);
  }
}

// ---- strata_readoptions_t ----

strata_readoptions_t* strata_readoptions_create(void) {
  return new strata_readoptions_t;
}

void strata_readoptions_destroy(strata_readoptions_t* opt) { delete opt; }

STRATA_C_FIELD(readoptions, verify_checksums, verify_checksums, unsigned char,
               unsigned char)
STRATA_C_FIELD(readoptions, fill_cache, fill_cache, unsigned char,
               unsigned char)
STRATA_C_FIELD(readoptions, prefix_same_as_start, prefix_same_as_start,
               unsigned char, unsigned char)
STRATA_C_FIELD(readoptions, total_order_seek, total_order_seek, unsigned char,
               unsigned char)

void strata_readoptions_set_snapshot(strata_readoptions_t* opt,
                                     const strata_snapshot_t* snap) {
  opt->rep.snapshot = snap != nullptr ? snap->rep : nullptr;
}

void strata_readoptions_set_iterate_upper_bound(strata_readoptions_t* opt,
                                                const char* key,
                                                size_t keylen) {
  SetBound(key, keylen, &opt->upper_bound, &opt->upper_bound_slice,
           &opt->rep.iterate_upper_bound);
}

void strata_readoptions_set_iterate_lower_bound(strata_readoptions_t* opt,
                                                const char* key,
                                                size_t keylen) {
  SetBound(key, keylen, &opt->lower_bound, &opt->lower_bound_slice,
           &opt->rep.iterate_lower_bound);
}

// ---- strata_writeoptions_t ----

strata_writeoptions_t* strata_writeoptions_create(void) {
  return new strata_writeoptions_t;
}

void strata_writeoptions_destroy(strata_writeoptions_t* opt) { delete opt; }

STRATA_C_FIELD(writeoptions, sync, sync, unsigned char, unsigned char)
STRATA_C_FIELD(writeoptions, ignore_missing_column_families,
               ignore_missing_column_families, unsigned char, unsigned char)
STRATA_C_FIELD(writeoptions, no_slowdown, no_slowdown, unsigned char,
               unsigned char)

void strata_writeoptions_disable_WAL(strata_writeoptions_t* opt, int disable) {
  opt->rep.disableWAL = disable != 0;
}

unsigned char strata_writeoptions_get_disable_WAL(strata_writeoptions_t* opt) {
  return opt->rep.disableWAL;
}

// ---- strata_flushoptions_t, strata_compactoptions_t ----

strata_flushoptions_t* strata_flushoptions_create(void) {
  return new strata_flushoptions_t;
}

void strata_flushoptions_destroy(strata_flushoptions_t* opt) { delete opt; }

STRATA_C_FIELD(flushoptions, wait, wait, unsigned char, unsigned char)

strata_compactoptions_t* strata_compactoptions_create(void) {
  return new strata_compactoptions_t;
}

void strata_compactoptions_destroy(strata_compactoptions_t* opt) { delete opt; }

STRATA_C_FIELD(compactoptions, exclusive_manual_compaction,
               exclusive_manual_compaction, unsigned char, unsigned char)

}  // extern "C"
