// The workloads that read: point lookups (found or missing), scans both
// ways, seeks, batched lookups, and reads mixed with writes.

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "strata/iterator.h"
#include "tools/db_bench/workloads.h"

namespace strata {
namespace bench {

namespace {

std::string FoundMessage(int64_t found, int64_t total, const char* tail) {
  char msg[100];
  std::snprintf(msg, sizeof(msg), "(%" PRId64 " of %" PRId64 " found)%s", found,
                total, tail);
  return msg;
}

}  // namespace

uint64_t Benchmark::RandomKeyNumber(ThreadState* thread) const {
  return thread->rand.Next() % static_cast<uint64_t>(flags_.num);
}

void Benchmark::ReadRandom(ThreadState* thread) {
  Duration duration(env_, flags_.duration, reads_);
  std::string key(static_cast<size_t>(key_format_.key_size()), '\0');
  std::string value;
  int64_t read = 0;
  int64_t found = 0;
  int64_t bytes = 0;
  while (!duration.Done(1)) {
    DrawDbChoice(thread);
    const uint64_t k = RandomKeyNumber(thread);
    key_format_.Encode(k, flags_.num, &key[0]);
    read++;
    // Where the fills put key number k.
    const Status s = MultipleFamilies()
                         ? db_->Get(read_options_, FamilyOf(k), key, &value)
                         : db_->Get(read_options_, key, &value);
    if (s.ok()) {
      found++;
      bytes += static_cast<int64_t>(key.size() + value.size());
    } else if (!s.IsNotFound()) {
      Fail(thread, "get", s);
      break;
    }
    thread->stats.FinishedOps(1, OpType::kRead);
  }
  thread->stats.AddBytes(bytes);
  // RocksDB ends this message with a newline; parsers expect the blank line.
  thread->stats.AddMessage(FoundMessage(found, read, "\n"));
}

void Benchmark::ReadSeq(ThreadState* thread) {
  Scan(thread, /*reverse=*/false);
}

void Benchmark::ReadReverse(ThreadState* thread) {
  Scan(thread, /*reverse=*/true);
}

void Benchmark::Scan(ThreadState* thread, bool reverse) {
  std::unique_ptr<Iterator> iter(db_->NewIterator(read_options_));
  int64_t i = 0;
  int64_t bytes = 0;
  if (reverse) {
    iter->SeekToLast();
  } else {
    iter->SeekToFirst();
  }
  for (; i < reads_ && iter->Valid(); ++i) {
    bytes += static_cast<int64_t>(iter->key().size() + iter->value().size());
    thread->stats.FinishedOps(1, OpType::kRead);
    if (reverse) {
      iter->Prev();
    } else {
      iter->Next();
    }
  }
  if (!iter->status().ok()) Fail(thread, "iterator", iter->status());
  thread->stats.AddBytes(bytes);
}

void Benchmark::SeekRandom(ThreadState* thread) {
  Duration duration(env_, flags_.duration, reads_);
  std::string key(static_cast<size_t>(key_format_.key_size()), '\0');
  int64_t read = 0;
  int64_t found = 0;
  int64_t bytes = 0;
  while (!duration.Done(1)) {
    key_format_.Encode(RandomKeyNumber(thread), flags_.num, &key[0]);
    // A new iterator per seek, as RocksDB without a tailing iterator.
    std::unique_ptr<Iterator> iter(db_->NewIterator(read_options_));
    iter->Seek(key);
    read++;
    if (iter->Valid() && iter->key() == Slice(key)) found++;
    for (int j = 0; j < flags_.seek_nexts && iter->Valid(); ++j) {
      bytes += static_cast<int64_t>(iter->key().size() + iter->value().size());
      iter->Next();
    }
    if (!iter->status().ok()) {
      Fail(thread, "seek", iter->status());
      break;
    }
    thread->stats.FinishedOps(1, OpType::kSeek);
  }
  thread->stats.AddBytes(bytes);
  thread->stats.AddMessage(FoundMessage(found, read, "\n"));
}

void Benchmark::MultiReadRandom(ThreadState* thread) {
  Duration duration(env_, flags_.duration, reads_);
  const size_t batch = static_cast<size_t>(entries_per_batch_);
  std::vector<std::string> key_bytes(
      batch, std::string(static_cast<size_t>(key_format_.key_size()), '\0'));
  std::vector<Slice> keys(key_bytes.begin(), key_bytes.end());
  // --multiread_batched: the batched MultiGet, values pinned where they
  // lie; else the std::vector one, values copied into strings.
  std::vector<std::string> values;
  std::vector<PinnableSlice> pinned(flags_.multiread_batched ? batch : 0);
  std::vector<Status> statuses(batch);
  int64_t read = 0;
  int64_t found = 0;
  int64_t bytes = 0;
  while (!duration.Done(entries_per_batch_)) {
    DrawDbChoice(thread);
    if (flags_.multiread_stride > 0) {
      // Keys a stride apart from a random start, the last still < num.
      const uint64_t span =
          static_cast<uint64_t>(flags_.multiread_stride) * (batch - 1);
      const uint64_t num = static_cast<uint64_t>(flags_.num);
      uint64_t k = RandomKeyNumber(thread);
      if (k + span >= num) k = span < num ? num - 1 - span : 0;
      for (std::string& key : key_bytes) {
        key_format_.Encode(k % num, flags_.num, &key[0]);
        k += static_cast<uint64_t>(flags_.multiread_stride);
      }
    } else {
      for (std::string& k : key_bytes) {
        key_format_.Encode(RandomKeyNumber(thread), flags_.num, &k[0]);
      }
    }
    if (flags_.multiread_batched) {
      db_->MultiGet(read_options_, db_->DefaultColumnFamily(), batch,
                    keys.data(), pinned.data(), statuses.data());
    } else {
      statuses = db_->MultiGet(read_options_, keys, &values);
    }
    read += entries_per_batch_;
    for (size_t i = 0; i < batch; i++) {
      if (statuses[i].ok()) {
        found++;
        const size_t size =
            flags_.multiread_batched ? pinned[i].size() : values[i].size();
        bytes += static_cast<int64_t>(keys[i].size() + size);
      } else if (!statuses[i].IsNotFound()) {
        Fail(thread, "multiget", statuses[i]);
        break;
      }
    }
    if (thread->failed) break;
    thread->stats.FinishedOps(entries_per_batch_, OpType::kRead);
  }
  thread->stats.AddBytes(bytes);
  thread->stats.AddMessage(FoundMessage(found, read, ""));
}

void Benchmark::ReadWhileWriting(ThreadState* thread) {
  // Thread 0 writes; the others read.
  if (thread->tid > 0) {
    ReadRandom(thread);
  } else {
    BGWriter(thread);
  }
}

void Benchmark::ReadRandomWriteRandom(ThreadState* thread) {
  Duration duration(env_, flags_.duration, readwrites_);
  ValueGenerator values(flags_.compression_ratio, value_size_);
  std::string key(static_cast<size_t>(key_format_.key_size()), '\0');
  std::string value;
  int64_t found = 0;
  int64_t reads_done = 0;
  int64_t writes_done = 0;
  // Of every 100 operations, readwritepercent are reads, done first.
  int get_weight = 0;
  int put_weight = 0;
  while (!duration.Done(1)) {
    DrawDbChoice(thread);
    key_format_.Encode(RandomKeyNumber(thread), flags_.num, &key[0]);
    if (get_weight == 0 && put_weight == 0) {
      get_weight = flags_.readwritepercent;
      put_weight = 100 - get_weight;
    }
    if (get_weight > 0) {
      const Status s = db_->Get(read_options_, key, &value);
      if (s.ok()) {
        found++;
      } else if (!s.IsNotFound()) {
        Fail(thread, "get", s);
        break;
      }
      get_weight--;
      reads_done++;
      thread->stats.FinishedOps(1, OpType::kRead);
    } else if (put_weight > 0) {
      const Status s =
          db_->Put(write_options_, key,
                   values.Generate(static_cast<size_t>(value_size_)));
      if (!s.ok()) {
        Fail(thread, "put", s);
        break;
      }
      put_weight--;
      writes_done++;
      thread->stats.FinishedOps(1, OpType::kWrite);
    }
  }
  char msg[100];
  std::snprintf(msg, sizeof(msg),
                "( reads:%" PRId64 " writes:%" PRId64 " total:%" PRId64
                " found:%" PRId64 ")",
                reads_done, writes_done, readwrites_, found);
  thread->stats.AddMessage(msg);
}

}  // namespace bench
}  // namespace strata
