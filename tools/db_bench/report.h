// db_bench's output, in RocksDB db_bench's format so that scripts written
// for one parse the other:
//
//   - the environment (stderr) and header block (stdout) before the run;
//   - per benchmark the result line, e.g.
//       fillrandom   :       8.556 micros/op 116870 ops/sec 8.556 seconds
//       1000000 operations;   12.9 MB/s
//     (one line), and with --histogram=1 a percentile block per operation
//     type;
//   - progress on stderr ("... finished N ops", rewritten in place), and
//     with --stats_interval_seconds periodic throughput and DB stats;
//   - with --report_interval_seconds, a CSV of throughput over time.
//
// micros/op is the sum of the threads' busy seconds per operation (the
// latency a thread sees); ops/sec is the total operations over the time
// from the first thread's start to the last thread's finish.
//
// Thread safety: a Stats belongs to one thread until it is merged, after
// the threads are done. A ReporterAgent is safe from many threads.

#ifndef STRATA_TOOLS_DB_BENCH_REPORT_H_
#define STRATA_TOOLS_DB_BENCH_REPORT_H_

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <thread>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "tools/db_bench/flags.h"
#include "util/histogram.h"

namespace strata {

class DB;
class Env;

namespace bench {

// Operation types with a histogram each ("Microseconds per <name>:").
enum class OpType { kRead, kWrite, kDelete, kSeek, kCrc, kOthers };
const char* OpTypeName(OpType type);

// Writes "secs_elapsed,interval_qps" lines to a file every interval from a
// thread of its own, from the operations counted by ReportFinishedOps.
class ReporterAgent {
 public:
  // Starts the reporting thread; reports nothing if the file cannot be
  // created (it says so on stderr).
  ReporterAgent(Env* env, const std::string& file, int64_t interval_seconds);
  ReporterAgent(const ReporterAgent&) = delete;
  ReporterAgent& operator=(const ReporterAgent&) = delete;
  ~ReporterAgent();

  void ReportFinishedOps(int64_t n) {
    total_ops_.fetch_add(n, std::memory_order_relaxed);
  }

 private:
  void Loop();

  Env* const env_;
  const int64_t interval_micros_;
  std::FILE* file_;
  std::atomic<int64_t> total_ops_{0};
  port::Mutex mu_;
  port::CondVar cv_;
  bool stop_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

class Stats {
 public:
  // db (may be null) is polled for "strata.stats" by thread 0 with
  // --stats_interval_seconds; reporter may be null.
  Stats(int tid, const Flags* flags, Env* env, DB* db, ReporterAgent* reporter);

  // Starts / stops the clock of this thread's work.
  void Start();
  void Stop();

  // Counts n finished operations of type: histograms, progress, interval
  // reports.
  void FinishedOps(int64_t n, OpType type);
  // Restarts the latency clock (after a wait that is not the DB's).
  void ResetLastOpTime();
  void AddBytes(int64_t n) { bytes_ += n; }
  // The text appended to the result line (the first thread's wins).
  void AddMessage(const std::string& msg);

  // A thread whose work is not the benchmark's (readwhilewriting's
  // writer) is left out of Merge.
  void SetExcludeFromMerge() { exclude_from_merge_ = true; }

  void Merge(const Stats& other);

  // Prints the result line and, with --histogram, the histograms.
  void Report(const std::string& name) const;

  int64_t done() const { return done_; }

 private:
  void ReportInterval(uint64_t now);

  const int tid_;
  const Flags* const flags_;
  Env* const env_;
  DB* const db_;
  ReporterAgent* const reporter_;
  bool merged_any_ = false;
  bool exclude_from_merge_ = false;
  uint64_t start_ = 0;
  uint64_t finish_ = 0;
  double seconds_ = 0;
  int64_t done_ = 0;
  int64_t bytes_ = 0;
  int64_t next_report_ = 100;
  uint64_t last_op_finish_ = 0;
  uint64_t last_report_finish_ = 0;
  int64_t last_report_done_ = 0;
  std::string message_;
  std::map<OpType, Histogram> hist_;
};

// "RocksDB:    version ...", date, CPU (stderr), as RocksDB prints them,
// with strata's name and version.
void PrintEnvironment();

// The header block (stdout), ending with a line of dashes.
void PrintHeader(const Flags& flags);

// A DB property ("\n<value>\n"), or "(no stats)" when the DB has none.
void PrintProperty(DB* db, const char* property);

}  // namespace bench
}  // namespace strata

#endif  // STRATA_TOOLS_DB_BENCH_REPORT_H_
