// What the unordered mode (unordered_write) still promises once it gives
// up atomic reads: a memtable switch -- here one made by Flush -- waits
// for the inserts of writes already published, so a flush holds every
// write the WAL it retires holds; and the memtable outgrows
// write_buffer_size by at most the writes in flight. The memtable bound is
// checked in every mode (each lets a memtable grow past its limit by the
// writes admitted before it looked full) and printed for the docs.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "memtable/concurrent_arena.h"
#include "strata/db.h"
#include "strata/write_batch.h"
#include "test/db/db_test_util.h"
#include "test/db/write_modes.h"
#include "util/coding.h"

namespace strata {
namespace {

using test::DBHolder;
using test::WriteMode;

// A one-way signal between threads. Waits have a deadline, so a DB that
// never gets there fails the test instead of hanging it.
class Event {
 public:
  void Set() {
    std::lock_guard<std::mutex> l(mu_);
    set_ = true;
    cv_.notify_all();
  }
  bool IsSet() {
    std::lock_guard<std::mutex> l(mu_);
    return set_;
  }
  // True once set; false if timeout passed first.
  bool Wait(std::chrono::seconds timeout = std::chrono::seconds(30)) {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, timeout, [this] { return set_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool set_ = false;
};

uint64_t IntProperty(DB* db, const std::string& name) {
  uint64_t value = ~uint64_t{0};
  EXPECT_TRUE(db->GetIntProperty(name, &value)) << name;
  return value;
}

// A writer parks between its WAL write (its batch is published) and its
// memtable insert; a Flush starts, must wait for that insert, and must
// put the batch into the table it writes. earlier_write: the memtable
// already holds another write (otherwise the parked batch is all the
// memtable is about to hold).
void FlushWaitsForParkedInsert(bool earlier_write) {
  Event parked, release, flush_waits;
  DBHolder h;
  h.options().unordered_write = true;
  ASSERT_TRUE(h.Open().ok());
  DBImpl* const impl = static_cast<DBImpl*>(h.db());
  WriteBatch parked_batch;
  ASSERT_TRUE(parked_batch.Put("parked", "value").ok());
  // Only the chosen writer parks.
  impl->TEST_write_thread()->TEST_SetBeforeInsertCallback(
      [&](WriteThread::Writer* w) {
        if (w->batch != &parked_batch) return;
        parked.Set();
        release.Wait();
      });
  impl->TEST_SetMemTableWritesWaitCallback([&]() { flush_waits.Set(); });
  if (earlier_write) {
    ASSERT_TRUE(h.Put("earlier", "1").ok());
  }

  Status write_status, flush_status;
  std::atomic<bool> flush_returned{false};
  std::thread writer(
      [&]() { write_status = h.db()->Write(WriteOptions(), &parked_batch); });
  std::thread flusher;
  if (parked.Wait()) {
    // Published but not inserted: a reader simply misses it.
    EXPECT_EQ("NOT_FOUND", h.Get("parked"));
    flusher = std::thread([&]() {
      flush_status = h.db()->Flush(FlushOptions());
      flush_returned = true;
    });
    EXPECT_TRUE(flush_waits.Wait())
        << "the flush did not wait for the parked insert";
    EXPECT_FALSE(flush_returned.load());
  } else {
    ADD_FAILURE() << "the writer never reached its insert";
  }
  release.Set();
  writer.join();
  if (flusher.joinable()) flusher.join();
  ASSERT_TRUE(write_status.ok()) << write_status.ToString();
  ASSERT_TRUE(flush_status.ok()) << flush_status.ToString();

  // The batch went into the flushed table, not into the new memtable.
  EXPECT_GE(IntProperty(h.db(), "strata.num-files-at-level0"), 1u);
  EXPECT_EQ(0u, IntProperty(h.db(), "strata.num-entries-active-mem-table"));
  EXPECT_EQ(0u, IntProperty(h.db(), "strata.num-immutable-mem-table"));
  EXPECT_EQ("value", h.Get("parked"));
  // Nor is it left in a WAL: the live ones are empty. (The flush job
  // deletes the obsolete ones after Flush returns.)
  ASSERT_TRUE(static_cast<DBImpl*>(h.db())->WaitForBackgroundWork().ok());
  for (uint64_t log : test::ListDBFiles(h.env(), h.name()).logs) {
    const std::string name = LogFileName(h.name(), log);
    uint64_t size = 1;
    ASSERT_TRUE(h.env()->GetFileSize(name, &size).ok()) << name;
    EXPECT_EQ(0u, size) << name;
  }
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ("value", h.Get("parked"));
  if (earlier_write) {
    EXPECT_EQ("1", h.Get("earlier"));
  }
}

TEST(DBUnorderedWriteTest, FlushWaitsForAParkedInsert) {
  FlushWaitsForParkedInsert(/*earlier_write=*/true);
}

TEST(DBUnorderedWriteTest, FlushOfAMemTableStillEmptyWaitsForAParkedInsert) {
  FlushWaitsForParkedInsert(/*earlier_write=*/false);
}

class DBMemTableOvershootTest : public testing::TestWithParam<WriteMode> {};

// The most memory a memtable entry of key and value takes: the encoded
// entry (varint lengths, the key's 8-byte trailer) in a skip list node of
// the greatest height (12 links), aligned.
size_t MaxEntryCharge(size_t key, size_t value) {
  return 5 + key + 8 + 5 + value + 12 * sizeof(void*) +
         alignof(std::max_align_t);
}

// Writer w's n-th key, 12 bytes.
std::string OvershootKey(int w, int n) {
  char key[32];
  std::snprintf(key, sizeof(key), "w%02d-%08d", w, n);
  return key;
}

TEST_P(DBMemTableOvershootTest, RetiredMemTablesStayNearWriteBufferSize) {
  constexpr size_t kWriteBufferSize = 64 << 10;
  constexpr int kWriters = 16;
  constexpr int kBatches = 120;
  constexpr int kMaxEntries = 4;
  constexpr size_t kKeySize = 12;
  constexpr size_t kMaxValue = 1000;
  std::atomic<size_t> largest{0};
  std::atomic<int> retired{0};
  DBHolder h;
  test::SetWriteMode(GetParam(), &h.options());
  h.options().write_buffer_size = kWriteBufferSize;
  ASSERT_TRUE(h.Open().ok());
  static_cast<DBImpl*>(h.db())->TEST_SetMemTableSwitchCallback(
      [&](size_t usage) {
        retired++;
        size_t seen = largest.load();
        while (usage > seen && !largest.compare_exchange_weak(seen, usage)) {
        }
      });
  std::vector<Status> failures(kWriters);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; w++) {
    writers.emplace_back([&, w]() {
      for (int i = 0; i < kBatches; i++) {
        WriteBatch batch;
        // 1..4 entries of 100..1000 bytes, varying per writer and batch.
        const int entries = 1 + (w + i) % kMaxEntries;
        for (int e = 0; e < entries; e++) {
          const size_t value = 100 + (w * 131 + i * 71 + e * 17) % 901;
          batch.Put(OvershootKey(w, i * 8 + e), std::string(value, 'v'));
        }
        Status s = h.db()->Write(WriteOptions(), &batch);
        if (!s.ok()) {
          failures[w] = s;
          return;
        }
      }
    });
  }
  for (std::thread& t : writers) t.join();
  for (const Status& s : failures) ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_GE(retired.load(), 10) << "too few memtable switches to judge";

  // A group looks at the memtable's size before it writes. Once one sees
  // it below the limit, the memtable can still take every write in flight
  // then -- at most one per writer: the group's own and, pipelined or
  // unordered, those of earlier groups still inserting -- before a later
  // group sees it full and retires it. The arena counts whole chunks, one
  // being carved per shard, and leaves a chunk's tail unused when the next
  // entry does not fit; an entry takes at most a quarter chunk (a larger
  // one gets a block of its own), so at least three quarters of a chunk
  // hold entries.
  const size_t in_flight =
      kWriters * kMaxEntries * MaxEntryCharge(kKeySize, kMaxValue);
  const size_t block = kWriteBufferSize / 8;  // DBImpl::NewMemTable
  const size_t shards = ConcurrentArena(block).num_shards();
  const size_t bound =
      kWriteBufferSize + in_flight * 4 / 3 + (shards + 1) * block;
  const size_t overshoot =
      largest.load() > kWriteBufferSize ? largest.load() - kWriteBufferSize : 0;
  std::printf(
      "[ overshoot] %s: write_buffer_size %zu, %d writers, %d memtables "
      "retired, largest %zu (+%zu, +%.0f%%), bound %zu\n",
      test::WriteModeName(GetParam()), kWriteBufferSize, kWriters,
      retired.load(), largest.load(), overshoot,
      100.0 * static_cast<double>(overshoot) / kWriteBufferSize, bound);
  EXPECT_LE(largest.load(), bound);
  // Every write arrived.
  for (int w = 0; w < kWriters; w++) {
    const std::string key = OvershootKey(w, (kBatches - 1) * 8);
    EXPECT_NE("NOT_FOUND", h.Get(key)) << key;
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, DBMemTableOvershootTest,
                         testing::ValuesIn(test::kAllWriteModes),
                         test::WriteModeParamName());

}  // namespace
}  // namespace strata
