#include "tools/db_bench/report.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <ctime>

#include "strata/db.h"
#include "strata/env.h"
#include "strata/memtablerep.h"
#include "util/mutexlock.h"

#ifndef STRATA_VERSION_STRING
#define STRATA_VERSION_STRING "unknown"
#endif

namespace strata {
namespace bench {

namespace {

std::string Trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const size_t end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

// The local time as ctime() writes it, newline included. ctime() uses a
// static buffer (and the time zone state): threads reporting at once
// take turns.
std::string Now() {
  static port::Mutex mu;
  MutexLock l(&mu);
  const std::time_t now = std::time(nullptr);
  const char* text = std::ctime(&now);
  return text != nullptr ? text : "\n";
}

}  // namespace

const char* OpTypeName(OpType type) {
  switch (type) {
    case OpType::kRead:
      return "read";
    case OpType::kWrite:
      return "write";
    case OpType::kDelete:
      return "delete";
    case OpType::kSeek:
      return "seek";
    case OpType::kCrc:
      return "crc";
    case OpType::kOthers:
      break;
  }
  return "op";
}

// ---- ReporterAgent ----------------------------------------------------------

ReporterAgent::ReporterAgent(Env* env, const std::string& file,
                             int64_t interval_seconds)
    : env_(env),
      interval_micros_(interval_seconds * 1000000),
      file_(std::fopen(file.c_str(), "w")),
      cv_(&mu_) {
  if (file_ == nullptr) {
    std::fprintf(stderr, "cannot create report file %s: %s\n", file.c_str(),
                 std::strerror(errno));
    return;
  }
  std::fputs("secs_elapsed,interval_qps\n", file_);
  std::fflush(file_);
  thread_ = std::thread([this] { Loop(); });
}

ReporterAgent::~ReporterAgent() {
  {
    MutexLock l(&mu_);
    stop_ = true;
    cv_.SignalAll();
  }
  if (thread_.joinable()) thread_.join();
  if (file_ != nullptr) std::fclose(file_);
}

void ReporterAgent::Loop() {
  const uint64_t start = env_->NowMicros();
  int64_t last_ops = 0;
  uint64_t next = start + static_cast<uint64_t>(interval_micros_);
  MutexLock l(&mu_);
  while (!stop_) {
    const uint64_t now = env_->NowMicros();
    if (now < next) {
      cv_.TimedWait(next - now);
      continue;
    }
    const int64_t ops = total_ops_.load(std::memory_order_relaxed);
    std::fprintf(file_, "%" PRIu64 ",%" PRId64 "\n", (now - start) / 1000000,
                 (ops - last_ops) / (interval_micros_ / 1000000));
    std::fflush(file_);
    last_ops = ops;
    next += static_cast<uint64_t>(interval_micros_);
  }
}

// ---- Stats ------------------------------------------------------------------

Stats::Stats(int tid, const Flags* flags, Env* env, DB* db,
             ReporterAgent* reporter)
    : tid_(tid), flags_(flags), env_(env), db_(db), reporter_(reporter) {}

void Stats::Start() {
  start_ = finish_ = last_op_finish_ = last_report_finish_ = env_->NowMicros();
  seconds_ = 0;
  done_ = bytes_ = last_report_done_ = 0;
  next_report_ = 100;
  message_.clear();
  hist_.clear();
}

void Stats::Stop() {
  finish_ = env_->NowMicros();
  seconds_ = static_cast<double>(finish_ - start_) * 1e-6;
}

void Stats::ResetLastOpTime() { last_op_finish_ = env_->NowMicros(); }

void Stats::AddMessage(const std::string& msg) {
  if (msg.empty()) return;
  if (!message_.empty()) message_ += ' ';
  message_ += msg;
}

void Stats::FinishedOps(int64_t n, OpType type) {
  if (reporter_ != nullptr) reporter_->ReportFinishedOps(n);
  if (flags_->histogram) {
    const uint64_t now = env_->NowMicros();
    const uint64_t micros = now - last_op_finish_;
    hist_[type].Add(micros);
    if (micros > 20000 && flags_->stats_interval_seconds == 0) {
      std::fprintf(stderr, "long op: %" PRIu64 " micros%30s\r", micros, "");
      std::fflush(stderr);
    }
    last_op_finish_ = now;
  }
  done_ += n;
  if (done_ < next_report_) return;
  if (flags_->stats_interval_seconds == 0) {
    // RocksDB's schedule: reports grow sparser as the count grows.
    if (next_report_ < 1000) {
      next_report_ += 100;
    } else if (next_report_ < 5000) {
      next_report_ += 500;
    } else if (next_report_ < 10000) {
      next_report_ += 1000;
    } else if (next_report_ < 50000) {
      next_report_ += 5000;
    } else if (next_report_ < 100000) {
      next_report_ += 10000;
    } else if (next_report_ < 500000) {
      next_report_ += 50000;
    } else {
      next_report_ += 100000;
    }
    std::fprintf(stderr, "... finished %" PRId64 " ops%30s\r", done_, "");
    std::fflush(stderr);
  } else {
    next_report_ += 100;
    ReportInterval(env_->NowMicros());
  }
}

void Stats::ReportInterval(uint64_t now) {
  const uint64_t interval = now - last_report_finish_;
  if (interval <
      static_cast<uint64_t>(flags_->stats_interval_seconds) * 1000000) {
    return;
  }
  const double interval_secs = static_cast<double>(interval) * 1e-6;
  const double total_secs = static_cast<double>(now - start_) * 1e-6;
  std::string when = Now();
  when.pop_back();
  std::fprintf(stderr,
               "%s ... thread %d: (%" PRId64 ",%" PRId64
               ") ops and (%.1f,%.1f) ops/second in (%.6f,%.6f) seconds\n",
               when.c_str(), tid_, done_ - last_report_done_, done_,
               static_cast<double>(done_ - last_report_done_) / interval_secs,
               static_cast<double>(done_) / std::max(total_secs, 1e-9),
               interval_secs, total_secs);
  if (tid_ == 0 && db_ != nullptr) {
    std::string stats;
    if (!db_->GetProperty("strata.stats", &stats)) stats = "(no stats)";
    std::fprintf(stderr, "\n%s\n", stats.c_str());
  }
  std::fflush(stderr);
  last_report_finish_ = now;
  last_report_done_ = done_;
}

void Stats::Merge(const Stats& other) {
  if (other.exclude_from_merge_) return;
  for (const auto& entry : other.hist_) hist_[entry.first].Merge(entry.second);
  done_ += other.done_;
  bytes_ += other.bytes_;
  seconds_ += other.seconds_;
  if (!merged_any_) {
    start_ = other.start_;
    finish_ = other.finish_;
    message_ = other.message_;
    merged_any_ = true;
  } else {
    start_ = std::min(start_, other.start_);
    finish_ = std::max(finish_, other.finish_);
    if (message_.empty()) message_ = other.message_;
  }
}

void Stats::Report(const std::string& name) const {
  // A benchmark that counts no operations (compact) counts as one.
  const int64_t done = std::max<int64_t>(done_, 1);
  // A zero elapsed time would print an infinite rate.
  const double elapsed =
      std::max(static_cast<double>(finish_ - start_) * 1e-6, 1e-9);
  std::string extra;
  if (bytes_ > 0) {
    char rate[100];
    std::snprintf(rate, sizeof(rate), "%6.1f MB/s",
                  (static_cast<double>(bytes_) / 1048576.0) / elapsed);
    extra = rate;
  }
  if (!message_.empty()) {
    if (!extra.empty()) extra += ' ';
    extra += message_;
  }
  std::fprintf(stdout,
               "%-12s : %11.3f micros/op %ld ops/sec %.3f seconds %" PRId64
               " operations;%s%s\n",
               name.c_str(), seconds_ * 1e6 / static_cast<double>(done),
               static_cast<long>(static_cast<double>(done) / elapsed), elapsed,
               done, extra.empty() ? "" : " ", extra.c_str());
  if (flags_->histogram) {
    for (const auto& entry : hist_) {
      std::fprintf(stdout, "Microseconds per %s:\n%s\n",
                   OpTypeName(entry.first), entry.second.ToString().c_str());
    }
  }
  std::fflush(stdout);
}

// ---- Header -----------------------------------------------------------------

void PrintEnvironment() {
  std::fprintf(stderr, "strata:     version %s\n", STRATA_VERSION_STRING);
  std::fprintf(stderr, "Date:       %s", Now().c_str());
  // Linux describes its CPUs here; elsewhere RocksDB prints no CPU lines
  // either.
  std::FILE* cpuinfo = std::fopen("/proc/cpuinfo", "r");
  if (cpuinfo != nullptr) {
    char line[1000];
    int num_cpus = 0;
    std::string cpu_type;
    std::string cache_size;
    while (std::fgets(line, sizeof(line), cpuinfo) != nullptr) {
      const char* sep = std::strchr(line, ':');
      if (sep == nullptr) continue;
      const std::string key =
          Trim(std::string(line, static_cast<size_t>(sep - line)));
      const std::string value = Trim(std::string(sep + 1));
      if (key == "model name") {
        ++num_cpus;
        cpu_type = value;
      } else if (key == "cache size") {
        cache_size = value;
      }
    }
    std::fclose(cpuinfo);
    std::fprintf(stderr, "CPU:        %d * %s\n", num_cpus, cpu_type.c_str());
    std::fprintf(stderr, "CPUCache:   %s\n", cache_size.c_str());
  }
}

void PrintHeader(const Flags& flags) {
  const double ratio = flags.compression_ratio;
  std::fprintf(stdout,
               "Keys:       %d bytes each (+ 0 bytes user-defined timestamp)\n",
               flags.key_size);
  std::fprintf(
      stdout, "Values:     %d bytes each (%d bytes after compression)\n",
      flags.value_size, static_cast<int>(flags.value_size * ratio + 0.5));
  std::fprintf(stdout, "Entries:    %" PRId64 "\n", flags.num);
  std::fprintf(stdout, "Prefix:    %d bytes\n", flags.prefix_size);
  std::fprintf(stdout, "Keys per prefix:    %" PRId64 "\n",
               flags.keys_per_prefix);
  std::fprintf(
      stdout, "RawSize:    %.1f MB (estimated)\n",
      static_cast<double>(
          static_cast<int64_t>(flags.key_size + flags.value_size) * flags.num) /
          1048576.0);
  std::fprintf(stdout, "FileSize:   %.1f MB (estimated)\n",
               ((flags.key_size + flags.value_size * ratio) *
                static_cast<double>(flags.num)) /
                   1048576.0);
  std::fprintf(stdout, "Write rate: %" PRIu64 " bytes/second\n",
               flags.benchmark_write_rate_limit);
  std::fprintf(stdout, "Read rate: 0 ops/second\n");
  const char* compression = flags.compression_type == "none"   ? "NoCompression"
                            : flags.compression_type == "zlib" ? "Zlib"
                                                               : "Snappy";
  std::fprintf(stdout, "Compression: %s\n", compression);
  std::fprintf(stdout, "Compression sampling rate: 0\n");
  std::fprintf(stdout, "Memtablerep: %s\n",
               flags.memtablerep == "vector" ? VectorRepFactory::kClassName()
                                             : SkipListFactory::kClassName());
  std::fprintf(stdout, "Perf Level: 1\n");
#ifndef NDEBUG
  std::fprintf(stdout,
               "WARNING: Assertions are enabled; benchmarks unnecessarily "
               "slow\n");
#endif
  std::fprintf(stdout, "------------------------------------------------\n");
  std::fflush(stdout);
}

void PrintProperty(DB* db, const char* property) {
  std::string value;
  if (!db->GetProperty(property, &value)) value = "(no stats)";
  std::fprintf(stdout, "\n%s\n", value.c_str());
  std::fflush(stdout);
}

}  // namespace bench
}  // namespace strata
