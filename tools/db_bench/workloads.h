// db_bench's benchmarks: what each one does to the DB, run by N threads
// released together, their Stats merged into one result line (report.h).
//
// Benchmark::Run runs --benchmarks in order on one DB. A benchmark that
// fills a fresh DB (fill*) first destroys and recreates it, unless
// --use_existing_db (then it is skipped, as RocksDB does). Each benchmark
// mirrors the RocksDB db_bench method of the same name: the same keys
// (keys.h), the same operation counts and the same messages.
//
// --num_column_families=N (> 1) opens the DB with N families
// (ColumnFamilyName) and spreads them as RocksDB 7.8.3's db_bench does:
// the fill workloads and overwrite put key number k in family k % N,
// readrandom and readmissing (also the readers of readwhilewriting) look
// key number k up there, and flush flushes every family. Every other
// workload — the scans, seekrandom, multireadrandom, the deletes,
// readwhilewriting's writer, readrandomwriterandom, compact, stats —
// works on the default family alone, as RocksDB's; waitforcompaction
// waits until no family has work pending. With N = 1 the code paths are
// those of a DB without column families.
//
// --transaction_db / --optimistic_transaction_db open the DB as a
// TransactionDB / OptimisticTransactionDB; randomtransaction runs its
// transactions there (transaction_workloads.cc) and every other workload
// runs on the base DB beneath.
//
// Deliberate differences from RocksDB 7.8.3: fillsync and fill100K do
// num/1000 operations (RocksDB documents that but does --num), crc32c
// stops early at --duration when one is set, and randomtransaction's
// "transactions:N aborts:M" count every thread's transactions (RocksDB's
// the first thread's alone). randomtransaction without a transaction DB
// is refused (RocksDB 7.8.3 then runs plain write batches, no
// transactions), and so are both kinds at once (RocksDB 7.8.3 crashes).
//
// Thread safety: a Benchmark is driven by one thread; its workloads run on
// threads of their own, sharing only the DB, SharedState and the flags.

#ifndef STRATA_TOOLS_DB_BENCH_WORKLOADS_H_
#define STRATA_TOOLS_DB_BENCH_WORKLOADS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/db.h"
#include "strata/options.h"
#include "strata/statistics.h"
#include "strata/status.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction_db.h"
#include "tools/db_bench/flags.h"
#include "tools/db_bench/keys.h"
#include "tools/db_bench/report.h"
#include "util/random.h"

namespace strata {
namespace bench {

// Whether a workload should stop: after max_ops operations, or once
// max_seconds have passed (checked every 1000 operations) if max_seconds
// > 0.
class Duration {
 public:
  Duration(Env* env, int max_seconds, int64_t max_ops);
  // Counts `increment` more operations; true if they should not be done.
  bool Done(int64_t increment);

 private:
  Env* const env_;
  const int max_seconds_;
  const int64_t max_ops_;
  int64_t ops_ = 0;
  uint64_t start_;
};

// Paces writers of all threads to bytes_per_second together.
class WriteRateLimiter {
 public:
  WriteRateLimiter(Env* env, uint64_t bytes_per_second);
  // Waits until `bytes` more fit under the rate.
  void Request(int64_t bytes);

 private:
  Env* const env_;
  const double micros_per_byte_;
  port::Mutex mu_;
  double next_free_ GUARDED_BY(mu_) = 0;
};

class Benchmark {
 public:
  // REQUIRES: ValidateFlags(flags).ok(), flags.seed != 0, !flags.db.empty()
  explicit Benchmark(const Flags& flags);
  Benchmark(const Benchmark&) = delete;
  Benchmark& operator=(const Benchmark&) = delete;
  ~Benchmark();

  // Runs every benchmark of --benchmarks; the first error stops the run.
  Status Run();

 private:
  struct SharedState;
  struct ThreadState;
  using Method = void (Benchmark::*)(ThreadState*);

  Status Open();
  void Close();
  Status RunOne(const std::string& name);
  Status RunThreads(int n, const std::string& name, Method method);
  // Records the first error of the benchmark (and prints it).
  static void Fail(ThreadState* thread, const char* what, const Status& s);

  // Writes (write_workloads.cc).
  void WriteSeq(ThreadState* thread);
  void WriteRandom(ThreadState* thread);
  void WriteUniqueRandom(ThreadState* thread);
  void DoWrite(ThreadState* thread, KeyOrder order);
  void DeleteSeq(ThreadState* thread);
  void DeleteRandom(ThreadState* thread);
  void DoDelete(ThreadState* thread, bool seq);
  void BGWriter(ThreadState* thread);
  void Compact(ThreadState* thread);
  // Returns once no flush or compaction is pending or running.
  Status WaitForCompaction();
  void Crc32c(ThreadState* thread);

  // Reads (read_workloads.cc).
  void ReadRandom(ThreadState* thread);
  void ReadSeq(ThreadState* thread);
  void ReadReverse(ThreadState* thread);
  // readseq / readreverse: up to --reads entries in key order.
  void Scan(ThreadState* thread, bool reverse);
  void SeekRandom(ThreadState* thread);
  void MultiReadRandom(ThreadState* thread);
  void ReadWhileWriting(ThreadState* thread);
  void ReadRandomWriteRandom(ThreadState* thread);

  // Transactions (transaction_workloads.cc).
  void RandomTransaction(ThreadState* thread);
  // One randomtransaction transaction on txn: true if it committed, false
  // if it failed as transactions may (Busy, TimedOut, TryAgain); any other
  // error is *error.
  bool DoRandomTransaction(ThreadState* thread, Transaction* txn,
                           int64_t* bytes, Status* error);
  // Checks that the sets' sums are equal, and says so.
  Status VerifyRandomTransaction();
  uint64_t RandomKeyNumber(ThreadState* thread) const;
  // The family key number k lives in. REQUIRES: MultipleFamilies()
  ColumnFamilyHandle* FamilyOf(uint64_t k) const {
    return families_[k % families_.size()];
  }
  bool MultipleFamilies() const { return families_.size() > 1; }
  // RocksDB draws a random number to pick one of several DBs before each
  // operation (or batch) of most workloads; strata has one DB, but draws
  // it too so that the keys that follow are RocksDB's.
  static void DrawDbChoice(ThreadState* thread);

  const Flags flags_;
  Env* const env_;
  std::shared_ptr<Statistics> statistics_;
  // The open DB as opened: a plain DB, or a transaction DB over it.
  std::unique_ptr<DB> owned_db_;
  // The base DB, which every workload but randomtransaction uses.
  DB* db_ = nullptr;
  // owned_db_ when it is of that kind, else nullptr.
  TransactionDB* txn_db_ = nullptr;
  OptimisticTransactionDB* opt_txn_db_ = nullptr;
  // The open DB's families, in ColumnFamilyName order; with one family,
  // just db_->DefaultColumnFamily(). Every other handle is ours to give
  // back before db_ closes.
  std::vector<ColumnFamilyHandle*> families_;
  std::unique_ptr<ReporterAgent> reporter_;
  std::unique_ptr<WriteRateLimiter> write_rate_limiter_;
  // The run's k-th thread (k from 1, across benchmarks) is seeded with
  // flags.seed + k, as RocksDB's.
  int total_thread_count_ = 0;

  // The current benchmark's parameters (RocksDB's per-benchmark copies of
  // the flags, which some benchmarks adjust).
  int64_t num_ = 0;
  int64_t reads_ = 0;
  int64_t writes_ = 0;
  int64_t readwrites_ = 0;
  int value_size_ = 0;
  int64_t entries_per_batch_ = 1;
  KeyFormat key_format_;
  WriteOptions write_options_;
  ReadOptions read_options_;
};

// What the threads of one benchmark share: the start barrier, the count
// of finished threads, the first error.
struct Benchmark::SharedState {
  explicit SharedState(int n) : cv(&mu), total(n) {}

  port::Mutex mu;
  port::CondVar cv;
  const int total;
  int num_initialized GUARDED_BY(mu) = 0;
  int num_done GUARDED_BY(mu) = 0;
  bool start GUARDED_BY(mu) = false;
  Status error GUARDED_BY(mu);
  // num_done, for polling without the lock (BGWriter).
  std::atomic<int> done{0};
  // randomtransaction's committed and failed transactions.
  std::atomic<int64_t> transactions{0};
  std::atomic<int64_t> aborts{0};
};

struct Benchmark::ThreadState {
  ThreadState(int index, uint64_t seed, Stats thread_stats,
              SharedState* shared_state)
      : tid(index),
        rand(seed),
        stats(std::move(thread_stats)),
        shared(shared_state) {}

  const int tid;
  Random64 rand;
  Stats stats;
  SharedState* const shared;
  // Set by Fail: the workload stops.
  bool failed = false;
};

inline void Benchmark::DrawDbChoice(ThreadState* thread) {
  thread->rand.Next();
}

}  // namespace bench
}  // namespace strata

#endif  // STRATA_TOOLS_DB_BENCH_WORKLOADS_H_
