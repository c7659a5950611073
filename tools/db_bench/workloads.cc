// The run: the DB's life across benchmarks, the threads of one
// benchmark, and the dispatch from names to workloads.

#include "tools/db_bench/workloads.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <thread>

#include "tools/db_bench/bench_options.h"
#include "util/mutexlock.h"

namespace strata {
namespace bench {

// ---- Duration, WriteRateLimiter ---------------------------------------------

Duration::Duration(Env* env, int max_seconds, int64_t max_ops)
    : env_(env),
      max_seconds_(max_seconds),
      max_ops_(max_ops),
      start_(env->NowMicros()) {}

bool Duration::Done(int64_t increment) {
  if (increment <= 0) increment = 1;
  ops_ += increment;
  if (max_seconds_ > 0) {
    // A clock read per 1000 operations, as RocksDB's default.
    constexpr int64_t kGranularity = 1000;
    if (ops_ / kGranularity == (ops_ - increment) / kGranularity) return false;
    return env_->NowMicros() - start_ >=
           static_cast<uint64_t>(max_seconds_) * 1000000;
  }
  return ops_ > max_ops_;
}

WriteRateLimiter::WriteRateLimiter(Env* env, uint64_t bytes_per_second)
    : env_(env),
      micros_per_byte_(1e6 / static_cast<double>(bytes_per_second)) {}

void WriteRateLimiter::Request(int64_t bytes) {
  double start;
  double now;
  {
    MutexLock l(&mu_);
    now = static_cast<double>(env_->NowMicros());
    // Each request takes the next slot of the schedule. A limiter idle for
    // long gets no credit for it, but a schedule only slightly behind
    // keeps its slots: a sleep overshoots by tens of microseconds, about a
    // write's whole slot at a few MB/s, and dropping that time each
    // write would hold the writer well under its rate.
    constexpr double kMaxCreditMicros = 10000;
    if (next_free_ < now - kMaxCreditMicros)
      next_free_ = now - kMaxCreditMicros;
    start = next_free_;
    next_free_ += static_cast<double>(bytes) * micros_per_byte_;
  }
  if (start > now) env_->SleepForMicroseconds(static_cast<int>(start - now));
}

// ---- Benchmark
// ----------------------------------------------------------------

Benchmark::Benchmark(const Flags& flags)
    : flags_(flags),
      env_(Env::Default()),
      key_format_(flags.key_size, flags.prefix_size, flags.keys_per_prefix) {
  if (flags_.statistics) statistics_ = CreateDBStatistics();
  if (flags_.benchmark_write_rate_limit > 0) {
    write_rate_limiter_.reset(
        new WriteRateLimiter(env_, flags_.benchmark_write_rate_limit));
  }
}

Benchmark::~Benchmark() { Close(); }

Status Benchmark::Open() {
  Options options;
  Status s = BuildOptions(flags_, &options);
  options.statistics = statistics_;
  if (!s.ok()) return Status::IOError("cannot open " + flags_.db, s.ToString());
  // Every family with the run's options, as RocksDB's db_bench.
  std::vector<ColumnFamilyDescriptor> descriptors;
  for (int i = 0; i < flags_.num_column_families; i++) {
    descriptors.emplace_back(ColumnFamilyName(i), options);
  }
  if (flags_.transaction_db) {
    TransactionDBOptions txn_db_options;
    txn_db_options.transaction_lock_timeout =
        static_cast<int64_t>(flags_.transaction_lock_timeout);
    s = TransactionDB::Open(options, txn_db_options, flags_.db, descriptors,
                            &families_, &txn_db_);
    owned_db_.reset(txn_db_);
  } else if (flags_.optimistic_transaction_db) {
    s = OptimisticTransactionDB::Open(options, flags_.db, descriptors,
                                      &families_, &opt_txn_db_);
    owned_db_.reset(opt_txn_db_);
  } else if (flags_.num_column_families == 1) {
    s = DB::Open(options, flags_.db, &owned_db_);
    if (s.ok()) families_.assign(1, owned_db_->DefaultColumnFamily());
  } else {
    s = DB::Open(options, flags_.db, descriptors, &families_, &owned_db_);
  }
  if (!s.ok()) {
    families_.clear();
    owned_db_.reset();
    txn_db_ = nullptr;
    opt_txn_db_ = nullptr;
    return Status::IOError("cannot open " + flags_.db, s.ToString());
  }
  if (txn_db_ != nullptr) {
    db_ = txn_db_->GetBaseDB();
  } else if (opt_txn_db_ != nullptr) {
    db_ = opt_txn_db_->GetBaseDB();
  } else {
    db_ = owned_db_.get();
  }
  return s;
}

void Benchmark::Close() {
  if (db_ == nullptr) return;
  for (ColumnFamilyHandle* family : families_) {
    if (family == db_->DefaultColumnFamily()) continue;
    const Status s = db_->DestroyColumnFamilyHandle(family);
    if (!s.ok()) {
      std::fprintf(stderr, "column family handle: %s\n", s.ToString().c_str());
    }
  }
  families_.clear();
  Status s = owned_db_->Close();
  if (!s.ok()) std::fprintf(stderr, "close error: %s\n", s.ToString().c_str());
  owned_db_.reset();
  db_ = nullptr;
  txn_db_ = nullptr;
  opt_txn_db_ = nullptr;
}

Status Benchmark::Run() {
  Options options;
  Status s = BuildOptions(flags_, &options);
  if (s.ok() && !flags_.use_existing_db) s = DestroyDB(flags_.db, options);
  if (s.ok()) s = Open();
  if (!s.ok()) return s;
  if (flags_.report_interval_seconds > 0) {
    reporter_.reset(new ReporterAgent(env_, flags_.report_file,
                                      flags_.report_interval_seconds));
  }
  for (const std::string& name : SplitBenchmarks(flags_.benchmarks)) {
    s = RunOne(name);
    if (!s.ok()) break;
  }
  reporter_.reset();
  if (s.ok() && statistics_ != nullptr) {
    std::fprintf(stdout, "STATISTICS:\n%s\n", statistics_->ToString().c_str());
  }
  Close();
  return s;
}

Status Benchmark::RunOne(const std::string& name) {
  num_ = flags_.num;
  reads_ = flags_.reads < 0 ? flags_.num : flags_.reads;
  writes_ = flags_.writes < 0 ? flags_.num : flags_.writes;
  readwrites_ = (flags_.writes < 0 && flags_.reads < 0)
                    ? flags_.num
                    : std::max(flags_.writes, flags_.reads);
  value_size_ = flags_.value_size;
  entries_per_batch_ = flags_.batch_size;
  key_format_ =
      KeyFormat(flags_.key_size, flags_.prefix_size, flags_.keys_per_prefix);
  write_options_ = WriteOptions();
  write_options_.sync = flags_.sync;
  write_options_.disableWAL = flags_.disable_wal;
  read_options_ = ReadOptions();
  read_options_.async_io = flags_.async_io;

  int num_threads = flags_.threads;
  bool fresh_db = false;
  Method method = nullptr;
  if (name == "fillseq") {
    fresh_db = true;
    method = &Benchmark::WriteSeq;
  } else if (name == "fillbatch") {
    fresh_db = true;
    entries_per_batch_ = 1000;
    method = &Benchmark::WriteSeq;
  } else if (name == "fillrandom") {
    fresh_db = true;
    method = &Benchmark::WriteRandom;
  } else if (name == "filluniquerandom") {
    fresh_db = true;
    method = &Benchmark::WriteUniqueRandom;
  } else if (name == "overwrite") {
    method = &Benchmark::WriteRandom;
  } else if (name == "fillsync" || name == "fill100K") {
    fresh_db = true;
    num_ /= 1000;
    writes_ = flags_.writes < 0 ? num_ : flags_.writes;
    if (name == "fillsync") {
      write_options_.sync = true;
    } else {
      value_size_ = 100 * 1000;
    }
    method = &Benchmark::WriteRandom;
  } else if (name == "readrandom") {
    method = &Benchmark::ReadRandom;
  } else if (name == "readmissing") {
    // One more '0' of padding: no key of the DB matches.
    key_format_ = KeyFormat(flags_.key_size + 1, flags_.prefix_size,
                            flags_.keys_per_prefix);
    method = &Benchmark::ReadRandom;
  } else if (name == "readseq") {
    method = &Benchmark::ReadSeq;
  } else if (name == "readreverse") {
    method = &Benchmark::ReadReverse;
  } else if (name == "seekrandom") {
    method = &Benchmark::SeekRandom;
  } else if (name == "multireadrandom") {
    method = &Benchmark::MultiReadRandom;
  } else if (name == "readwhilewriting") {
    num_threads++;  // the writer
    method = &Benchmark::ReadWhileWriting;
  } else if (name == "readrandomwriterandom") {
    method = &Benchmark::ReadRandomWriteRandom;
  } else if (name == "randomtransaction") {
    method = &Benchmark::RandomTransaction;
  } else if (name == "deleteseq") {
    method = &Benchmark::DeleteSeq;
  } else if (name == "deleterandom") {
    method = &Benchmark::DeleteRandom;
  } else if (name == "compact") {
    method = &Benchmark::Compact;
  } else if (name == "crc32c") {
    method = &Benchmark::Crc32c;
  } else if (name == "flush") {
    // Every family (in one write group), as RocksDB's db_bench.
    Status s = MultipleFamilies() ? db_->Flush(FlushOptions(), families_)
                                  : db_->Flush(FlushOptions());
    if (!s.ok()) return Status::IOError("flush", s.ToString());
    std::fprintf(stdout, "flush memtable\n");
    std::fflush(stdout);
    return s;
  } else if (name == "stats") {
    PrintProperty(db_, "strata.stats");
    return Status::OK();
  } else if (name == "levelstats") {
    PrintProperty(db_, "strata.levelstats");
    return Status::OK();
  } else if (name == "waitforcompaction") {
    return WaitForCompaction();
  } else {
    return Status::InvalidArgument("unknown benchmark '" + name + "'");
  }

  if (fresh_db) {
    if (flags_.use_existing_db) {
      std::fprintf(stdout, "%-12s : skipped (--use_existing_db is true)\n",
                   name.c_str());
      return Status::OK();
    }
    Close();
    Options options;
    Status s = BuildOptions(flags_, &options);
    if (s.ok()) s = DestroyDB(flags_.db, options);
    if (s.ok()) s = Open();
    if (!s.ok()) return s;
  }
  std::fprintf(stdout, "DB path: [%s]\n", flags_.db.c_str());
  std::fflush(stdout);
  Status s = RunThreads(num_threads, name, method);
  if (s.ok() && method == &Benchmark::RandomTransaction) {
    s = VerifyRandomTransaction();
  }
  return s;
}

Status Benchmark::RunThreads(int n, const std::string& name, Method method) {
  SharedState shared(n);
  std::vector<std::unique_ptr<ThreadState>> states;
  for (int i = 0; i < n; i++) {
    const uint64_t seed = static_cast<uint64_t>(flags_.seed) +
                          static_cast<uint64_t>(++total_thread_count_);
    states.emplace_back(new ThreadState(
        i, seed, Stats(i, &flags_, env_, db_, reporter_.get()), &shared));
  }
  std::vector<std::thread> workers;
  for (auto& state : states) {
    ThreadState* thread = state.get();
    workers.emplace_back([this, thread, method] {
      SharedState* s = thread->shared;
      {
        MutexLock l(&s->mu);
        if (++s->num_initialized == s->total) s->cv.SignalAll();
        while (!s->start) s->cv.Wait();
      }
      thread->stats.Start();
      (this->*method)(thread);
      thread->stats.Stop();
      {
        MutexLock l(&s->mu);
        s->done.store(++s->num_done, std::memory_order_release);
        if (s->num_done == s->total) s->cv.SignalAll();
      }
    });
  }
  Status error;
  {
    // The shared start: every thread is ready before any begins.
    MutexLock l(&shared.mu);
    while (shared.num_initialized < n) shared.cv.Wait();
    shared.start = true;
    shared.cv.SignalAll();
    while (shared.num_done < n) shared.cv.Wait();
    error = shared.error;
  }
  for (std::thread& worker : workers) worker.join();
  if (!error.ok()) return error;
  Stats merged(0, &flags_, env_, nullptr, nullptr);
  for (const auto& state : states) merged.Merge(state->stats);
  if (method == &Benchmark::RandomTransaction) {
    char msg[100];
    std::snprintf(msg, sizeof(msg),
                  "( transactions:%" PRId64 " aborts:%" PRId64 ")",
                  shared.transactions.load(), shared.aborts.load());
    merged.AddMessage(msg);
  }
  merged.Report(name);
  return Status::OK();
}

void Benchmark::Fail(ThreadState* thread, const char* what, const Status& s) {
  std::fprintf(stderr, "%s error: %s\n", what, s.ToString().c_str());
  thread->failed = true;
  MutexLock l(&thread->shared->mu);
  if (thread->shared->error.ok()) {
    thread->shared->error =
        Status::IOError(std::string(what) + " failed", s.ToString());
  }
}

}  // namespace bench
}  // namespace strata
