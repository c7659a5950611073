#include "tools/db_bench/flags.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

namespace strata {
namespace bench {

namespace {

// Parses the whole of text as a T; false if it is malformed or out of T's
// range.
bool ParseValue(const std::string& text, bool* out) {
  static const char* const kTrue[] = {"true", "1", "yes", "y", "t"};
  static const char* const kFalse[] = {"false", "0", "no", "n", "f"};
  for (const char* word : kTrue) {
    if (text == word) {
      *out = true;
      return true;
    }
  }
  for (const char* word : kFalse) {
    if (text == word) {
      *out = false;
      return true;
    }
  }
  return false;
}

template <typename Int>
bool ParseInteger(const std::string& text, Int* out) {
  if (text.empty() || text[0] == ' ') return false;
  char* end = nullptr;
  errno = 0;
  if (std::is_signed<Int>::value) {
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0') return false;
    if (v < static_cast<long long>(std::numeric_limits<Int>::min()) ||
        v > static_cast<long long>(std::numeric_limits<Int>::max())) {
      return false;
    }
    *out = static_cast<Int>(v);
  } else {
    // strtoull accepts "-1" and wraps it; a size is never negative.
    if (text[0] == '-') return false;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0') return false;
    *out = static_cast<Int>(v);
  }
  return true;
}

bool ParseValue(const std::string& text, int32_t* out) {
  return ParseInteger(text, out);
}
bool ParseValue(const std::string& text, int64_t* out) {
  return ParseInteger(text, out);
}
bool ParseValue(const std::string& text, uint64_t* out) {
  return ParseInteger(text, out);
}

bool ParseValue(const std::string& text, double* out) {
  if (text.empty() || text[0] == ' ') return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

bool ParseValue(const std::string& text, std::string* out) {
  *out = text;
  return true;
}

// Sets spec's field of *flags from text.
bool Assign(const FlagSpec& spec, const std::string& text, Flags* flags) {
  return std::visit(
      [&](auto member) { return ParseValue(text, &(flags->*member)); },
      spec.field);
}

const FlagSpec* FindFlag(const std::string& name) {
  for (const FlagSpec& spec : FlagTable()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

bool IsBool(const FlagSpec& spec) {
  return std::holds_alternative<bool Flags::*>(spec.field);
}

Status UnknownFlag(const std::string& name) {
  std::string supported;
  for (const FlagSpec& spec : FlagTable()) {
    if (!supported.empty()) supported += ", ";
    supported += spec.name;
  }
  return Status::InvalidArgument("unknown flag --" + name,
                                 "supported flags: " + supported);
}

}  // namespace

const std::vector<FlagSpec>& FlagTable() {
  using F = Flags;
  static const std::vector<FlagSpec> kTable = {
      {"allow_concurrent_memtable_write", &F::allow_concurrent_memtable_write,
       "true", "Allow multi-writers to update mem tables in parallel."},
      {"async_io", &F::async_io, "false",
       "ReadOptions::async_io: a batched MultiGet (multireadrandom) reads "
       "the uncached blocks of each level together"},
      {"batch_size", &F::batch_size, "1", "Batch size"},
      {"benchmark_write_rate_limit", &F::benchmark_write_rate_limit, "0",
       "If non-zero, rate-limit the writes of the benchmark to this many "
       "bytes/second (all threads together)."},
      {"benchmarks", &F::benchmarks, kDefaultBenchmarks,
       "Comma-separated list of benchmarks to run in order, on one DB: "
       "fillseq, fillrandom, filluniquerandom, overwrite, fillsync, "
       "fillbatch, fill100K, readrandom, readmissing, readseq, readreverse, "
       "seekrandom, multireadrandom, readwhilewriting, "
       "readrandomwriterandom, randomtransaction (needs --transaction_db or "
       "--optimistic_transaction_db), deleterandom, deleteseq, compact, "
       "flush, "
       "waitforcompaction (until no flush or compaction is pending or "
       "running), stats, levelstats, crc32c."},
      {"block_size", &F::block_size, "4096", "Number of bytes in a block."},
      {"bloom_bits", &F::bloom_bits, "-1",
       "Bloom filter bits per key. Negative means use default (none). Zero "
       "disables."},
      {"cache_numshardbits", &F::cache_numshardbits, "-1",
       "Number of shards for the block cache is 2 ** cache_numshardbits. "
       "Negative means use default settings."},
      {"cache_size", &F::cache_size, "8388608",
       "Number of bytes to use as a cache of uncompressed data (<= 0: no "
       "block cache)."},
      {"compaction_readahead_size", &F::compaction_readahead_size, "0",
       "Compaction input reads are done in chunks of this many bytes (0: "
       "block by block, or 2 MiB with direct I/O)."},
      {"compression_ratio", &F::compression_ratio, "0.5",
       "Arrange to generate values that shrink to this fraction of their "
       "original size after compression"},
      {"compression_type", &F::compression_type, "snappy",
       "Algorithm to use to compress the database: none, snappy or zlib."},
      {"db", &F::db, "",
       "Use the db with the following name (default: dbbench in the test "
       "directory, $TEST_TMPDIR or the system's temporary directory)."},
      {"disable_auto_compactions", &F::disable_auto_compactions, "false",
       "Do not auto trigger compactions"},
      {"disable_wal", &F::disable_wal, "false",
       "If true, do not write WAL for write."},
      {"duration", &F::duration, "0",
       "Time in seconds for the random-ops tests to run. When 0 then num & "
       "reads determine the test duration"},
      {"enable_pipelined_write", &F::enable_pipelined_write, "true",
       "Allow WAL and memtable writes to be pipelined"},
      {"enable_write_thread_adaptive_yield",
       &F::enable_write_thread_adaptive_yield, "true",
       "Use a yielding spin loop for brief writer thread waits."},
      {"histogram", &F::histogram, "false",
       "Print histogram of operation timings"},
      {"inplace_update_num_locks", &F::inplace_update_num_locks, "10000",
       "Number of RW locks to protect in-place memtable updates"},
      {"inplace_update_support", &F::inplace_update_support, "false",
       "Support in-place memtable update for smaller or same-size values"},
      {"key_size", &F::key_size, "16", "size of each key"},
      {"keys_per_prefix", &F::keys_per_prefix, "0",
       "control average number of keys generated per prefix, 0 means no "
       "special handling of the prefix"},
      {"level0_file_num_compaction_trigger",
       &F::level0_file_num_compaction_trigger, "4",
       "Number of files in level-0 when compactions start."},
      {"level0_slowdown_writes_trigger", &F::level0_slowdown_writes_trigger,
       "20", "Number of files in level-0 that will slow down writes."},
      {"level0_stop_writes_trigger", &F::level0_stop_writes_trigger, "36",
       "Number of files in level-0 that will trigger put stop."},
      {"max_background_jobs", &F::max_background_jobs, "2",
       "The maximum number of concurrent background jobs that can occur in "
       "parallel."},
      {"max_bytes_for_level_base", &F::max_bytes_for_level_base, "268435456",
       "Max bytes for level-1"},
      {"max_bytes_for_level_multiplier", &F::max_bytes_for_level_multiplier,
       "10", "A multiplier to compute max bytes for level-N (N >= 2)"},
      {"max_write_buffer_number", &F::max_write_buffer_number, "2",
       "The number of in-memory memtables. Each memtable is of size "
       "write_buffer_size bytes."},
      {"memtable_use_huge_page", &F::memtable_use_huge_page, "true",
       "Memtables take their memory in 2 MiB regions backed by huge pages "
       "(Options::memtable_huge_page_size; strata's default, unlike "
       "RocksDB's db_bench)"},
      {"memtablerep", &F::memtablerep, "skip_list",
       "The memtable representation: skip_list or vector (vector needs "
       "--allow_concurrent_memtable_write=false)"},
      {"mmap_read", &F::mmap_read, "false",
       "Allow reads to occur via mmap-ing files"},
      {"multiread_batched", &F::multiread_batched, "false",
       "Use the new MultiGet API (multireadrandom: the batched MultiGet "
       "into PinnableSlices rather than the std::vector one)"},
      {"multiread_stride", &F::multiread_stride, "0",
       "If this is a positive number, then use this stride while doing "
       "MultiGet (multireadrandom: a batch is the keys k, k + stride, ... "
       "from a random k)"},
      {"num", &F::num, "1000000", "Number of key/values to place in database"},
      {"num_column_families", &F::num_column_families, "1",
       "Number of Column Families to use: the default one and "
       "column_family_name_000001 onwards. Writes put key number k in "
       "family k % N, readrandom reads it there; the other benchmarks use "
       "the default family and flush flushes every family, as RocksDB's "
       "db_bench."},
      {"num_levels", &F::num_levels, "7", "The total number of levels"},
      {"open_files", &F::open_files, "-1",
       "Maximum number of files to keep open at the same time (-1: no "
       "limit)"},
      {"optimistic_transaction_db", &F::optimistic_transaction_db, "false",
       "Open a OptimisticTransactionDB instance. Required for "
       "randomtransaction benchmark."},
      {"prefix_size", &F::prefix_size, "0",
       "Prefix length of keys (fixed-prefix extractor, prefix filters); 0: "
       "no prefix extractor"},
      {"rate_limit_bg_reads", &F::rate_limit_bg_reads, "false",
       "Use options.rate_limiter on compaction reads (and not on flush and "
       "compaction writes)."},
      {"rate_limiter_auto_tuned", &F::rate_limiter_auto_tuned, "false",
       "Let the rate limiter move its rate with the demand, within "
       "[rate / 20, rate] of --rate_limiter_bytes_per_sec."},
      {"rate_limiter_bytes_per_sec", &F::rate_limiter_bytes_per_sec, "0",
       "Set options.rate_limiter value: the bytes per second of flush and "
       "compaction writes (0: no limit)."},
      {"rate_limiter_refill_period_us", &F::rate_limiter_refill_period_us,
       "100000", "Set refill period on rate limiter."},
      {"reads", &F::reads, "-1",
       "Number of read operations to do. If negative, do FLAGS_num reads."},
      {"readwritepercent", &F::readwritepercent, "90",
       "Ratio of reads to reads/writes (expressed as percentage) for the "
       "ReadRandomWriteRandom workload."},
      {"report_file", &F::report_file, "report.csv",
       "Filename where some simple stats are reported to (if "
       "--report_interval_seconds is bigger than 0)"},
      {"report_interval_seconds", &F::report_interval_seconds, "0",
       "If greater than zero, it will write simple stats in CSV format to "
       "--report_file every N seconds"},
      {"seed", &F::seed, "0",
       "Seed base for random number generators. When 0 it is derived from "
       "the current time."},
      {"seek_nexts", &F::seek_nexts, "0",
       "How many times to call Next() after Seek() in seekrandom"},
      {"statistics", &F::statistics, "false", "Database statistics"},
      {"stats_interval_seconds", &F::stats_interval_seconds, "0",
       "Report stats every N seconds."},
      {"sync", &F::sync, "false", "Sync all writes to disk"},
      {"target_file_size_base", &F::target_file_size_base, "67108864",
       "Target file size at level-1"},
      {"threads", &F::threads, "1", "Number of concurrent threads to run."},
      {"transaction_db", &F::transaction_db, "false",
       "Open a TransactionDB instance. Required for randomtransaction "
       "benchmark."},
      {"transaction_lock_timeout", &F::transaction_lock_timeout, "100",
       "If using a transaction_db, specifies the lock wait timeout in "
       "milliseconds before failing a transaction waiting on a lock"},
      {"transaction_set_snapshot", &F::transaction_set_snapshot, "false",
       "Setting to true will have each transaction call SetSnapshot() upon "
       "creation."},
      {"transaction_sets", &F::transaction_sets, "2",
       "Number of keys each transaction will modify (use in "
       "RandomTransaction only).  Max: 9999"},
      {"transaction_sleep", &F::transaction_sleep, "0",
       "Max microseconds to sleep in between reading and writing a value "
       "(used in RandomTransaction only). "},
      {"unordered_write", &F::unordered_write, "false",
       "Enable the unordered write feature, which provides higher "
       "throughput but relaxes the guarantees around atomic reads and "
       "immutable snapshots"},
      {"unordered_write_snapshot_safe", &F::unordered_write_snapshot_safe,
       "false",
       "With --unordered_write: keep atomic reads and immutable snapshots "
       "(a write is visible once it and every earlier write are inserted)"},
      {"use_direct_io_for_flush_and_compaction",
       &F::use_direct_io_for_flush_and_compaction, "false",
       "Use O_DIRECT for background flush and compaction writes"},
      {"use_direct_reads", &F::use_direct_reads, "false",
       "Use O_DIRECT for reading data"},
      {"use_existing_db", &F::use_existing_db, "false",
       "If true, do not destroy the existing database."},
      {"value_size", &F::value_size, "100", "Size of each value"},
      {"wal_write_through", &F::wal_write_through, "false",
       "strata: write synced groups' WAL records through to the device "
       "(FILE_FLAG_WRITE_THROUGH / O_DSYNC) instead of write + flush"},
      {"write_buffer_size", &F::write_buffer_size, "67108864",
       "Number of bytes to buffer in memtable before compacting"},
      {"write_thread_sync_gather_usec", &F::write_thread_sync_gather_usec,
       "1000",
       "strata: the longest a synced write group's leader waits for the "
       "writers the last sync released (0: no wait)"},
      {"writes", &F::writes, "-1",
       "Number of write operations to do. If negative, do --num writes."},
  };
  return kTable;
}

const char* FlagTypeName(const FlagField& field) {
  static const char* const kNames[] = {"bool",   "int32",  "int64",
                                       "uint64", "double", "string"};
  return kNames[field.index()];
}

void SetDefaultFlags(Flags* flags) {
  for (const FlagSpec& spec : FlagTable()) {
    // The table's defaults parse: the FlagsTest suite checks every row.
    Assign(spec, spec.default_value, flags);
  }
  flags->given.clear();
}

Status ParseFlags(int argc, const char* const* argv, Flags* flags, bool* help) {
  SetDefaultFlags(flags);
  *help = false;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') {
      return Status::InvalidArgument("unexpected argument '" + arg + "'",
                                     "flags are written --name=value");
    }
    arg.erase(0, arg[1] == '-' ? 2 : 1);
    if (arg == "help" || arg == "h") {
      *help = true;
      return Status::OK();
    }
    const size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq);
    const FlagSpec* spec = FindFlag(name);
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (spec != nullptr && IsBool(*spec)) {
      value = "true";
    } else if (spec == nullptr && name.compare(0, 2, "no") == 0 &&
               FindFlag(name.substr(2)) != nullptr &&
               IsBool(*FindFlag(name.substr(2)))) {
      name = name.substr(2);
      spec = FindFlag(name);
      value = "false";
    } else if (spec != nullptr) {
      return Status::InvalidArgument(
          "flag --" + name + " needs a value",
          "write --" + name + "=<" + FlagTypeName(spec->field) + ">");
    }
    if (spec == nullptr) return UnknownFlag(name);
    if (!Assign(*spec, value, flags)) {
      return Status::InvalidArgument(
          "bad value '" + value + "' for flag --" + name,
          std::string("expected a ") + FlagTypeName(spec->field));
    }
    flags->given.insert(name);
  }
  return Status::OK();
}

std::string FlagsHelp() {
  std::string r =
      "db_bench: RocksDB's db_bench for strata (same flags, same output).\n"
      "Usage: db_bench [--name=value ...]\n\nFlags:\n";
  for (const FlagSpec& spec : FlagTable()) {
    r += "  --";
    r += spec.name;
    r += " (";
    r += spec.help;
    r += ")\n      type: ";
    r += FlagTypeName(spec.field);
    r += " default: ";
    const bool quoted =
        std::holds_alternative<std::string Flags::*>(spec.field);
    if (quoted) r += '"';
    r += spec.default_value;
    if (quoted) r += '"';
    r += '\n';
  }
  return r;
}

}  // namespace bench
}  // namespace strata
