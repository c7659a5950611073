// db_bench's command line: RocksDB db_bench's flag names, types, defaults
// and meanings, so one command line runs against both engines.
//
// Every flag is one row of FlagTable(): name, type, default (as text, parsed
// like a command-line value, so the help shows the default in force) and
// help. ParseFlags accepts "--name=value" (also "-name=value"), and for
// booleans "--name" and "--noname". An unknown flag, a malformed value or a
// value out of the type's range is an InvalidArgument naming the flag; for
// an unknown flag the message lists the supported ones.
//
// The defaults are RocksDB 7.8.3 db_bench's, with one exception:
// --benchmarks defaults to the README's workload (kDefaultBenchmarks).
//
// Thread safety: Flags is a plain struct, read-only once parsed.

#ifndef STRATA_TOOLS_DB_BENCH_FLAGS_H_
#define STRATA_TOOLS_DB_BENCH_FLAGS_H_

#include <cstdint>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "strata/status.h"

namespace strata {
namespace bench {

inline constexpr const char* kDefaultBenchmarks =
    "fillseq,fillrandom,readrandom,readseq,seekrandom";

struct Flags {
  // Workload.
  std::string benchmarks;
  std::string db;
  int64_t num;
  int32_t num_column_families;
  int64_t reads;
  int64_t writes;
  int32_t threads;
  int32_t key_size;
  int32_t value_size;
  int64_t batch_size;
  int32_t duration;
  int64_t seed;
  bool use_existing_db;
  int32_t prefix_size;
  int64_t keys_per_prefix;
  int32_t seek_nexts;
  bool multiread_batched;
  int64_t multiread_stride;
  int32_t readwritepercent;
  uint64_t benchmark_write_rate_limit;

  // Transactions (randomtransaction).
  bool transaction_db;
  bool optimistic_transaction_db;
  uint64_t transaction_sets;
  bool transaction_set_snapshot;
  int32_t transaction_sleep;
  uint64_t transaction_lock_timeout;

  // Tables and caches.
  std::string compression_type;
  double compression_ratio;
  int64_t cache_size;
  int32_t cache_numshardbits;
  int32_t bloom_bits;
  int32_t block_size;

  // Memtables, levels, background work.
  int64_t write_buffer_size;
  int32_t max_write_buffer_number;
  bool memtable_use_huge_page;
  std::string memtablerep;
  bool inplace_update_support;
  int64_t inplace_update_num_locks;
  int32_t max_background_jobs;
  int32_t level0_file_num_compaction_trigger;
  int32_t level0_slowdown_writes_trigger;
  int32_t level0_stop_writes_trigger;
  int64_t target_file_size_base;
  uint64_t max_bytes_for_level_base;
  double max_bytes_for_level_multiplier;
  int32_t num_levels;
  bool disable_auto_compactions;

  // Write path and I/O.
  bool disable_wal;
  bool sync;
  bool unordered_write;
  bool unordered_write_snapshot_safe;
  bool enable_pipelined_write;
  bool allow_concurrent_memtable_write;
  bool async_io;
  bool enable_write_thread_adaptive_yield;
  uint64_t write_thread_sync_gather_usec;
  bool wal_write_through;
  bool use_direct_reads;
  bool use_direct_io_for_flush_and_compaction;
  bool mmap_read;
  int32_t open_files;
  uint64_t rate_limiter_bytes_per_sec;
  int64_t rate_limiter_refill_period_us;
  bool rate_limiter_auto_tuned;
  bool rate_limit_bg_reads;
  int64_t compaction_readahead_size;

  // Reporting.
  bool histogram;
  bool statistics;
  int64_t stats_interval_seconds;
  int64_t report_interval_seconds;
  std::string report_file;

  // Names of the flags given on the command line.
  std::set<std::string> given;
};

// A field of Flags; its alternative is the flag's type.
using FlagField =
    std::variant<bool Flags::*, int32_t Flags::*, int64_t Flags::*,
                 uint64_t Flags::*, double Flags::*, std::string Flags::*>;

struct FlagSpec {
  const char* name;
  FlagField field;
  const char* default_value;
  const char* help;
};

// Every flag, sorted by name.
const std::vector<FlagSpec>& FlagTable();

// "bool", "int32", "int64", "uint64", "double" or "string".
const char* FlagTypeName(const FlagField& field);

// Sets every flag to its default.
void SetDefaultFlags(Flags* flags);

// Parses argv[1..argc) into *flags, over the defaults. "--help" sets
// *help and stops. Returns InvalidArgument naming the offending flag.
Status ParseFlags(int argc, const char* const* argv, Flags* flags, bool* help);

// The usage text: every flag with its type, default and help.
std::string FlagsHelp();

}  // namespace bench
}  // namespace strata

#endif  // STRATA_TOOLS_DB_BENCH_FLAGS_H_
