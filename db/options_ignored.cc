// The options RocksDB 7.8 writes in each section of its OPTIONS file that
// strata does not implement (docs/options.md): read and ignored, so that a
// RocksDB OPTIONS file loads. A name in neither these lists nor the tables
// of db/options_fields.cc is unknown.

#include <algorithm>
#include <cstring>
#include <iterator>

#include "db/options_fields.h"

namespace strata {

namespace {

// Each list sorted, for a binary search.
constexpr const char* kIgnoredDBOptions[] = {
    "WAL_size_limit_MB",
    "WAL_ttl_seconds",
    "access_hint_on_compaction_start",
    "advise_random_on_open",
    "allow_data_in_errors",
    "allow_ingest_behind",
    "avoid_flush_during_recovery",
    "avoid_flush_during_shutdown",
    "avoid_unnecessary_blocking_io",
    "best_efforts_recovery",
    "bgerror_resume_retry_interval",
    "bytes_per_sync",
    "db_host_id",
    "delayed_write_rate",
    "delete_obsolete_files_period_micros",
    "dump_malloc_stats",
    "enable_thread_tracking",
    "enforce_single_del_contracts",
    "file_checksum_gen_factory",
    "flush_verify_memtable_count",
    "info_log_level",
    "is_fd_close_on_exec",
    "keep_log_file_num",
    "log_file_time_to_roll",
    "log_readahead_size",
    "lowest_used_cache_tier",
    "manifest_preallocation_size",
    "manual_wal_flush",
    "max_log_file_size",
    "max_manifest_file_size",
    "max_subcompactions",
    "max_total_wal_size",
    "max_write_batch_group_size_bytes",
    "persist_stats_to_disk",
    "random_access_max_buffer_size",
    "recycle_log_file_num",
    "skip_checking_sst_file_sizes_on_db_open",
    "skip_stats_update_on_db_open",
    "stats_dump_period_sec",
    "stats_history_buffer_size",
    "stats_persist_period_sec",
    "strict_bytes_per_sync",
    "table_cache_numshardbits",
    "track_and_verify_wals_in_manifest",
    "two_write_queues",
    "use_adaptive_mutex",
    "verify_sst_unique_id_in_manifest",
    "wal_bytes_per_sync",
    "wal_compression",
    "wal_filter",
    "write_dbid_to_manifest",
};

constexpr const char* kIgnoredColumnFamilyOptions[] = {
    "arena_block_size",
    "blob_compaction_readahead_size",
    "blob_compression_type",
    "blob_file_size",
    "blob_file_starting_level",
    "blob_garbage_collection_age_cutoff",
    "blob_garbage_collection_force_threshold",
    "bloom_locality",
    "bottommost_compression",
    "bottommost_compression_opts",
    "check_flush_compaction_key_order",
    "compaction_options_fifo",
    "compaction_options_universal",
    "compaction_pri",
    "compression_opts",
    "enable_blob_files",
    "enable_blob_garbage_collection",
    "experimental_mempurge_threshold",
    "force_consistency_checks",
    "ignore_max_compaction_bytes_for_input",
    "last_level_temperature",
    "level_compaction_dynamic_file_size",
    "max_bytes_for_level_multiplier_additional",
    "max_sequential_skip_in_iterations",
    "max_successive_merges",
    "max_write_buffer_number_to_maintain",
    "max_write_buffer_size_to_maintain",
    "memtable_insert_with_hint_prefix_extractor",
    "memtable_protection_bytes_per_key",
    "min_blob_size",
    "optimize_filters_for_hits",
    "periodic_compaction_seconds",
    "preclude_last_level_data_seconds",
    "prepopulate_blob_cache",
    "preserve_internal_time_seconds",
    "report_bg_io_stats",
    "sample_for_compression",
    "sst_partitioner_factory",
    "ttl",
};

constexpr const char* kIgnoredTableOptions[] = {
    "block_align",
    "block_size_deviation",
    "checksum",
    "data_block_hash_table_util_ratio",
    "data_block_index_type",
    "detect_filter_construct_corruption",
    "enable_index_compression",
    "flush_block_policy_factory",
    "format_version",
    "index_shortening",
    "index_type",
    "initial_auto_readahead_size",
    "max_auto_readahead_size",
    "metadata_block_size",
    "metadata_cache_options",
    "num_file_reads_for_auto_readahead",
    "optimize_filters_for_memory",
    "partition_filters",
    "pin_l0_filter_and_index_blocks_in_cache",
    "pin_top_level_index_and_filter",
    "prepopulate_block_cache",
    "read_amp_bytes_per_bit",
    "verify_compression",
};

template <size_t N>
bool Contains(const char* const (&names)[N], const std::string& name) {
  return std::binary_search(
      std::begin(names), std::end(names), name.c_str(),
      [](const char* a, const char* b) { return std::strcmp(a, b) < 0; });
}

}  // namespace

bool IsIgnoredOption(OptionSection section, const std::string& name) {
  switch (section) {
    case OptionSection::kDB:
      return Contains(kIgnoredDBOptions, name);
    case OptionSection::kColumnFamily:
      return Contains(kIgnoredColumnFamilyOptions, name);
    case OptionSection::kBlockBasedTable:
      return Contains(kIgnoredTableOptions, name);
  }
  return false;
}

}  // namespace strata
