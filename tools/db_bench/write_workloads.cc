// The workloads that change the DB: fills, overwrites, deletes, the
// background writer of readwhilewriting, compact; and crc32c, which
// measures the checksum the write path spends its time on.

#include <cinttypes>
#include <cstdio>
#include <limits>
#include <string>

#include "strata/write_batch.h"
#include "tools/db_bench/workloads.h"
#include "util/crc32c.h"

namespace strata {
namespace bench {

void Benchmark::WriteSeq(ThreadState* thread) {
  DoWrite(thread, KeyOrder::kSequential);
}

void Benchmark::WriteRandom(ThreadState* thread) {
  DoWrite(thread, KeyOrder::kRandom);
}

void Benchmark::WriteUniqueRandom(ThreadState* thread) {
  DoWrite(thread, KeyOrder::kUniqueRandom);
}

void Benchmark::DoWrite(ThreadState* thread, KeyOrder order) {
  // Only random writes run for --duration; the others write their count.
  const int seconds = order == KeyOrder::kRandom ? flags_.duration : 0;
  const int64_t num_ops = writes_ == 0 ? num_ : writes_;
  Duration duration(env_, seconds, num_ops);
  KeySequence keys(&thread->rand, order, static_cast<uint64_t>(num_),
                   static_cast<uint64_t>(flags_.seed));
  if (num_ != flags_.num) {
    char msg[100];
    std::snprintf(msg, sizeof(msg), "(%" PRId64 " ops)", num_);
    thread->stats.AddMessage(msg);
  }
  ValueGenerator values(flags_.compression_ratio, value_size_);
  std::string key(static_cast<size_t>(key_format_.key_size()), '\0');
  WriteBatch batch;
  int64_t bytes = 0;
  while (!duration.Done(entries_per_batch_)) {
    DrawDbChoice(thread);
    batch.Clear();
    int64_t batch_bytes = 0;
    for (int64_t j = 0; j < entries_per_batch_; j++) {
      const uint64_t k = keys.Next();
      key_format_.Encode(k, flags_.num, &key[0]);
      const Slice value = values.Generate(static_cast<size_t>(value_size_));
      if (MultipleFamilies()) {
        batch.Put(FamilyOf(k), key, value);
      } else {
        batch.Put(key, value);
      }
      batch_bytes += static_cast<int64_t>(key.size() + value.size());
    }
    if (write_rate_limiter_ != nullptr) {
      write_rate_limiter_->Request(batch_bytes);
      // The wait is the limiter's, not the DB's.
      thread->stats.ResetLastOpTime();
    }
    bytes += batch_bytes;
    const Status s = db_->Write(write_options_, &batch);
    thread->stats.FinishedOps(entries_per_batch_, OpType::kWrite);
    if (!s.ok()) {
      Fail(thread, "put", s);
      break;
    }
  }
  thread->stats.AddBytes(bytes);
}

void Benchmark::DeleteSeq(ThreadState* thread) { DoDelete(thread, true); }

void Benchmark::DeleteRandom(ThreadState* thread) { DoDelete(thread, false); }

void Benchmark::DoDelete(ThreadState* thread, bool seq) {
  Duration duration(env_, seq ? 0 : flags_.duration, num_);
  std::string key(static_cast<size_t>(key_format_.key_size()), '\0');
  WriteBatch batch;
  uint64_t i = 0;
  while (!duration.Done(entries_per_batch_)) {
    DrawDbChoice(thread);
    batch.Clear();
    for (int64_t j = 0; j < entries_per_batch_; j++) {
      const uint64_t k =
          seq ? i + static_cast<uint64_t>(j)
              : thread->rand.Next() % static_cast<uint64_t>(flags_.num);
      key_format_.Encode(k, flags_.num, &key[0]);
      batch.Delete(key);
    }
    const Status s = db_->Write(write_options_, &batch);
    thread->stats.FinishedOps(entries_per_batch_, OpType::kDelete);
    if (!s.ok()) {
      Fail(thread, "del", s);
      break;
    }
    i += static_cast<uint64_t>(entries_per_batch_);
  }
}

void Benchmark::BGWriter(ThreadState* thread) {
  // Writes until every other thread is done; its own numbers are not the
  // benchmark's.
  thread->stats.SetExcludeFromMerge();
  ValueGenerator values(flags_.compression_ratio, value_size_);
  std::string key(static_cast<size_t>(key_format_.key_size()), '\0');
  SharedState* shared = thread->shared;
  int64_t bytes = 0;
  while (shared->done.load(std::memory_order_acquire) + 1 < shared->total) {
    DrawDbChoice(thread);
    key_format_.Encode(thread->rand.Next() % static_cast<uint64_t>(flags_.num),
                       flags_.num, &key[0]);
    const Status s = db_->Put(
        write_options_, key, values.Generate(static_cast<size_t>(value_size_)));
    if (!s.ok()) {
      Fail(thread, "put", s);
      break;
    }
    bytes += static_cast<int64_t>(key.size()) + value_size_;
    thread->stats.FinishedOps(1, OpType::kWrite);
    if (write_rate_limiter_ != nullptr) {
      write_rate_limiter_->Request(static_cast<int64_t>(key.size()) +
                                   value_size_);
    }
  }
  thread->stats.AddBytes(bytes);
}

void Benchmark::Compact(ThreadState* thread) {
  // As RocksDB's db_bench, a failed compaction does not stop the run; it
  // is reported.
  const Status s = db_->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  if (!s.ok()) {
    std::fprintf(stderr, "compact: CompactRange failed: %s\n",
                 s.ToString().c_str());
  }
  (void)thread;
}

Status Benchmark::WaitForCompaction() {
  static const char* const kBusy[] = {
      "strata.mem-table-flush-pending", "strata.num-running-flushes",
      "strata.compaction-pending", "strata.num-running-compactions"};
  const uint64_t start = env_->NowMicros();
  for (;;) {
    bool busy = false;
    // The pending properties are per family, the running ones DB-wide.
    for (ColumnFamilyHandle* family : families_) {
      for (const char* property : kBusy) {
        uint64_t value = 0;
        if (!db_->GetIntProperty(family, property, &value)) {
          return Status::NotSupported("waitforcompaction: no property ",
                                      property);
        }
        busy = busy || value > 0;
      }
    }
    if (!busy) break;
    env_->SleepForMicroseconds(100000);
  }
  std::fprintf(stdout, "waitforcompaction : %.1f s\n",
               (env_->NowMicros() - start) / 1e6);
  std::fflush(stdout);
  return Status::OK();
}

void Benchmark::Crc32c(ThreadState* thread) {
  // 5000 MiB in --block_size pieces, as RocksDB; --duration cuts it short.
  const int size = flags_.block_size;
  const std::string data(static_cast<size_t>(size), 'x');
  const uint64_t total = 5000ull * 1048576;
  Duration duration(env_, flags_.duration, std::numeric_limits<int64_t>::max());
  uint64_t bytes = 0;
  uint32_t crc = 0;
  while (bytes < total) {
    if (flags_.duration > 0 && duration.Done(1)) break;
    crc = crc32c::Value(data.data(), data.size());
    thread->stats.FinishedOps(1, OpType::kCrc);
    bytes += static_cast<uint64_t>(size);
  }
  // Keeps the checksum alive, and shows it, as RocksDB does.
  std::fprintf(stderr, "... crc=0x%x\r", static_cast<unsigned int>(crc));
  thread->stats.AddBytes(static_cast<int64_t>(bytes));
  char label[100];
  std::snprintf(label, sizeof(label), "(%d per op)", size);
  thread->stats.AddMessage(label);
}

}  // namespace bench
}  // namespace strata
