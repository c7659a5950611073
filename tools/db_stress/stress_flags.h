// db_stress's command line, with RocksDB db_stress's flag names where a
// flag has a RocksDB counterpart. "--name=value", "--name" and "--noname"
// (booleans); an unknown flag or a malformed value is an InvalidArgument
// naming it. ValidateStressFlags checks what a single value cannot show
// (ranges, combinations strata rejects).
//
// Thread safety: StressFlags is a plain struct, read-only once parsed.

#ifndef STRATA_TOOLS_DB_STRESS_STRESS_FLAGS_H_
#define STRATA_TOOLS_DB_STRESS_STRESS_FLAGS_H_

#include <cstdint>
#include <string>

#include "strata/status.h"

namespace strata {
namespace stress {

struct StressFlags {
  // The run.
  std::string db;
  std::string expected_values_dir;
  int64_t threads = 4;
  int64_t ops_per_thread = 10000;
  int64_t max_key = 10000;
  int64_t column_families = 2;
  int64_t reopen = 2;
  int64_t seed = 0;  // 0: from the clock
  bool destroy_db_initially = false;
  bool verify_only = false;
  int64_t log2_keys_per_lock = 2;

  // The operation mix, in percent (the rest of 100 goes to writes).
  int64_t readpercent = 30;
  int64_t prefixpercent = 0;
  int64_t writepercent = 45;
  int64_t delpercent = 10;
  int64_t delrangepercent = 5;
  int64_t iterpercent = 10;
  int64_t nooverwritepercent = 10;
  int64_t range_deletion_width = 10;
  bool use_merge = true;
  bool use_multiget = true;
  bool test_batches_snapshots = false;
  int64_t batch_one_in = 8;
  int64_t acquire_snapshot_one_in = 100;
  int64_t snapshot_hold_ops = 20;
  int64_t flush_one_in = 2000;
  int64_t compact_range_one_in = 5000;
  int64_t sync_wal_one_in = 1000;
  int64_t clear_column_family_one_in = 0;

  // Options.
  bool sync = false;
  bool disable_wal = false;
  bool unordered_write = false;
  bool unordered_write_snapshot_safe = false;
  bool enable_pipelined_write = false;
  bool use_direct_reads = false;
  std::string compression_type = "none";
  int64_t write_buffer_size = 64 << 10;
  int64_t target_file_size_base = 256 << 10;
  int64_t max_bytes_for_level_base = 1 << 20;
  std::string memtablerep = "skip_list";

  // Crashes.
  int64_t kill_random_test = 0;
  std::string kill_exclude_prefixes;
  int64_t crash_after_ms = 0;
  bool power_loss = false;
};

// Parses argv[1..argc) over the defaults. "--help" sets *help.
Status ParseStressFlags(int argc, const char* const* argv, StressFlags* flags,
                        bool* help);
Status ValidateStressFlags(const StressFlags& flags);
std::string StressFlagsHelp();

}  // namespace stress
}  // namespace strata

#endif  // STRATA_TOOLS_DB_STRESS_STRESS_FLAGS_H_
