// The write modes end to end (db/write_thread.h, docs/write_path.md):
// serial, parallel (the default), pipelined and unordered writes on a real
// DB, with writers and readers running at once. In the ordered modes a
// batch is atomic to readers and a snapshot never changes; in every mode a
// writer reads its own write as soon as Write returns and merge operands
// written by concurrent groups add up exactly. The unordered mode's own
// guarantees are in db_unordered_write_test.cc.
//
// Background threads never assert: they record what went wrong in a
// FailureLog that the test thread checks after joining them.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/write_batch.h"
#include "test/db/db_test_util.h"
#include "test/db/write_modes.h"
#include "util/coding.h"

namespace strata {
namespace {

using test::DBHolder;
using test::WriteMode;

// The first few failures seen by any thread, and how many there were.
class FailureLog {
 public:
  void Add(const std::string& what) {
    std::lock_guard<std::mutex> l(mu_);
    if (count_++ < 5) text_ += what + "\n";
  }
  bool empty() {
    std::lock_guard<std::mutex> l(mu_);
    return count_ == 0;
  }
  std::string ToString() {
    std::lock_guard<std::mutex> l(mu_);
    return std::to_string(count_) + " failure(s), first:\n" + text_;
  }

 private:
  std::mutex mu_;
  int count_ = 0;
  std::string text_;
};

class DBWriteModesTest : public testing::TestWithParam<WriteMode> {
 protected:
  DBWriteModesTest() {
    test::SetWriteMode(GetParam(), &h_.options());
    // Small memtables: the writes below cross many switches and flushes,
    // so reads go through every kind of source.
    h_.options().write_buffer_size = 64 << 10;
  }

  // Runs fn(thread) on threads threads at once and waits for them.
  template <class Fn>
  static void RunThreads(int threads, const Fn& fn) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) pool.emplace_back(fn, t);
    for (std::thread& th : pool) th.join();
  }

  DBHolder h_;
  FailureLog failures_;
};

// What holds in the ordered modes only (kOrderedWriteModes).
class DBOrderedWriteModesTest : public DBWriteModesTest {};

// Batches write one tag into all keys of a family; readers check that the
// keys of a family always agree.
constexpr int kFamilies = 4;
constexpr int kKeysPerFamily = 8;

std::string FamilyKey(int family, int k) {
  return "f" + std::to_string(family) + "-k" + std::to_string(k);
}

// The family of a key from FamilyKey.
int FamilyOf(const Slice& key) { return key[1] - '0'; }

// What a reader finds in a family: the tag of each key, "" if missing.
using FamilyTags = std::vector<std::string>;

std::string Tag(const std::string& value) { return value.substr(0, 16); }

// Reads every family with Gets at snapshot (null: the latest state).
std::vector<FamilyTags> ReadFamiliesByGets(DB* db, const Snapshot* snapshot,
                                           FailureLog* failures) {
  ReadOptions ro;
  ro.snapshot = snapshot;
  std::vector<FamilyTags> result(kFamilies, FamilyTags(kKeysPerFamily));
  for (int f = 0; f < kFamilies; f++) {
    for (int k = 0; k < kKeysPerFamily; k++) {
      std::string value;
      Status s = db->Get(ro, FamilyKey(f, k), &value);
      if (s.ok()) {
        result[f][k] = Tag(value);
      } else if (!s.IsNotFound()) {
        failures->Add("Get: " + s.ToString());
      }
    }
  }
  return result;
}

// Reads every family through one iterator at snapshot.
std::vector<FamilyTags> ReadFamiliesByIterator(DB* db, const Snapshot* snapshot,
                                               FailureLog* failures) {
  ReadOptions ro;
  ro.snapshot = snapshot;
  std::vector<FamilyTags> result(kFamilies);
  std::unique_ptr<Iterator> it(db->NewIterator(ro));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    result[FamilyOf(it->key())].push_back(Tag(it->value().ToString()));
  }
  if (!it->status().ok()) failures->Add("iterator: " + it->status().ToString());
  for (FamilyTags& tags : result) {
    // A family not written yet is missing as a whole.
    if (tags.empty()) tags.assign(kKeysPerFamily, "");
  }
  return result;
}

// Records a failure unless each family's keys all hold the same tag.
void CheckFamiliesWhole(const std::vector<FamilyTags>& families,
                        const char* how, FailureLog* failures) {
  for (int f = 0; f < kFamilies; f++) {
    const FamilyTags& tags = families[f];
    bool whole = tags.size() == static_cast<size_t>(kKeysPerFamily);
    for (const std::string& tag : tags) whole = whole && tag == tags[0];
    if (!whole) {
      std::string seen;
      for (const std::string& tag : tags) seen += " [" + tag + "]";
      failures->Add(std::string(how) + ": family " + std::to_string(f) +
                    " holds parts of several batches:" + seen);
    }
  }
}

TEST_P(DBOrderedWriteModesTest, ReadersNeverSeePartOfABatch) {
  ASSERT_TRUE(h_.Open().ok());
  DB* const db = h_.db();
  constexpr int kWriters = 6;
  constexpr int kBatchesPerWriter = 250;
  std::atomic<int> writers_running{kWriters};
  std::thread reader([&]() {
    // One last round after the writers are done.
    bool last = false;
    while (!last) {
      last = writers_running.load() == 0;
      const Snapshot* snapshot = db->GetSnapshot();
      const auto by_gets = ReadFamiliesByGets(db, snapshot, &failures_);
      CheckFamiliesWhole(by_gets, "Gets at a snapshot", &failures_);
      const auto by_iterator = ReadFamiliesByIterator(db, snapshot, &failures_);
      CheckFamiliesWhole(by_iterator, "iterator at a snapshot", &failures_);
      // Without a snapshot of its own an iterator reads at one sequence.
      CheckFamiliesWhole(ReadFamiliesByIterator(db, nullptr, &failures_),
                         "iterator", &failures_);
      // Writes went on meanwhile; the snapshot reads the same.
      if (by_iterator != by_gets ||
          ReadFamiliesByGets(db, snapshot, &failures_) != by_gets) {
        failures_.Add("a snapshot's reads changed while writes went on");
      }
      db->ReleaseSnapshot(snapshot);
    }
  });
  RunThreads(kWriters, [&](int w) {
    for (int i = 0; i < kBatchesPerWriter; i++) {
      // Writers share the families, so a group often holds batches for
      // the same keys.
      const int family = (w + i) % kFamilies;
      char tag[17];
      std::snprintf(tag, sizeof(tag), "w%02d-b%011d", w, i);
      const std::string value = std::string(tag) + std::string(100, 'v');
      WriteBatch batch;
      for (int k = 0; k < kKeysPerFamily; k++) {
        batch.Put(FamilyKey(family, k), value);
      }
      Status s = db->Write(WriteOptions(), &batch);
      if (!s.ok()) failures_.Add("Write: " + s.ToString());
    }
    writers_running--;
  });
  reader.join();
  EXPECT_TRUE(failures_.empty()) << failures_.ToString();
  // Each family ends with the tag of one of its last batches, whole.
  const auto final_state = ReadFamiliesByGets(db, nullptr, &failures_);
  CheckFamiliesWhole(final_state, "final state", &failures_);
  EXPECT_TRUE(failures_.empty()) << failures_.ToString();
  for (const FamilyTags& tags : final_state) EXPECT_NE("", tags[0]);
}

TEST_P(DBWriteModesTest, WritersReadTheirOwnWritesAtOnce) {
  ASSERT_TRUE(h_.Open().ok());
  DB* const db = h_.db();
  constexpr int kWriters = 8;
  constexpr int kBatches = 250;
  constexpr int kOwnKeys = 16;
  RunThreads(kWriters, [&](int w) {
    const std::string prefix = "w" + std::to_string(w) + "-";
    for (int i = 0; i < kBatches; i++) {
      // Only this writer touches its keys: a read must give exactly what
      // it wrote last.
      const std::string put_key = prefix + std::to_string(i % kOwnKeys);
      const std::string deleted_key =
          prefix + std::to_string((i + kOwnKeys / 2) % kOwnKeys);
      const std::string value = std::to_string(i) + std::string(200, 'x');
      WriteBatch batch;
      batch.Put(put_key, value);
      batch.Put(prefix + "last", std::to_string(i));
      if (i % 3 == 0) batch.Delete(deleted_key);
      Status s = db->Write(WriteOptions(), &batch);
      if (!s.ok()) {
        failures_.Add("Write: " + s.ToString());
        return;
      }
      std::string got;
      s = db->Get(ReadOptions(), put_key, &got);
      if (!s.ok() || got != value) {
        failures_.Add(put_key + " after write " + std::to_string(i) + ": " +
                      s.ToString() + " " + got.substr(0, 8));
      }
      s = db->Get(ReadOptions(), prefix + "last", &got);
      if (!s.ok() || got != std::to_string(i)) {
        failures_.Add(prefix + "last after write " + std::to_string(i) + ": " +
                      s.ToString() + " " + got);
      }
      if (i % 3 == 0 &&
          !db->Get(ReadOptions(), deleted_key, &got).IsNotFound()) {
        failures_.Add(deleted_key + " still there after its deletion " +
                      std::to_string(i));
      }
    }
  });
  EXPECT_TRUE(failures_.empty()) << failures_.ToString();
}

std::string Fixed64(uint64_t v) {
  std::string result;
  PutFixed64(&result, v);
  return result;
}

// Reads a uint64add counter: its value, 0 if missing, or ~0 (with a
// failure recorded) if it cannot be read.
uint64_t ReadCounter(DB* db, const std::string& key, FailureLog* failures) {
  std::string value;
  Status s = db->Get(ReadOptions(), key, &value);
  if (s.IsNotFound()) return 0;
  if (!s.ok() || value.size() != 8) {
    failures->Add(key + ": " + s.ToString() + ", " +
                  std::to_string(value.size()) + " bytes");
    return ~uint64_t{0};
  }
  return DecodeFixed64(value.data());
}

TEST_P(DBWriteModesTest, MergesInConcurrentGroupsAddUp) {
  h_.options().merge_operator = MergeOperators::CreateUInt64AddOperator();
  ASSERT_TRUE(h_.Open().ok());
  DB* const db = h_.db();
  constexpr int kWriters = 8;
  constexpr int kBatches = 300;  // a writer's operands fit in a byte
  // Batches with operands and batches without are mixed, so groups of
  // either kind and mixed ones form (a group with an operand is inserted
  // serially in the parallel mode).
  auto has_merge = [](int w, int i) { return (w + i) % 3 != 0; };
  std::atomic<int> writers_running{kWriters};
  std::thread reader([&]() {
    // Operands are only ever added: a later read never sees less.
    uint64_t previous = 0;
    while (writers_running.load() > 0) {
      const uint64_t now = ReadCounter(db, "counter", &failures_);
      if (now < previous) {
        failures_.Add("counter went back from " + std::to_string(previous) +
                      " to " + std::to_string(now));
      }
      previous = now;
    }
  });
  RunThreads(kWriters, [&](int w) {
    for (int i = 0; i < kBatches; i++) {
      WriteBatch batch;
      batch.Put("w" + std::to_string(w), std::string(100, 'p'));
      if (has_merge(w, i)) {
        batch.Merge("counter", Fixed64(1));
        batch.Merge("by-writer", Fixed64(uint64_t{1} << (8 * w)));
      }
      Status s = db->Write(WriteOptions(), &batch);
      if (!s.ok()) failures_.Add("Write: " + s.ToString());
    }
    writers_running--;
  });
  reader.join();
  ASSERT_TRUE(failures_.empty()) << failures_.ToString();
  uint64_t operands = 0, by_writer = 0;
  for (int w = 0; w < kWriters; w++) {
    for (int i = 0; i < kBatches; i++) {
      if (!has_merge(w, i)) continue;
      operands++;
      by_writer += uint64_t{1} << (8 * w);
    }
  }
  for (int pass = 0; pass < 2; pass++) {
    SCOPED_TRACE(pass == 0 ? "before reopen" : "after reopen");
    EXPECT_EQ(operands, ReadCounter(h_.db(), "counter", &failures_));
    // Byte w counts writer w's operands: none lost or doubled.
    EXPECT_EQ(by_writer, ReadCounter(h_.db(), "by-writer", &failures_));
    EXPECT_TRUE(failures_.empty()) << failures_.ToString();
    ASSERT_TRUE(h_.Reopen().ok());
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, DBWriteModesTest,
                         testing::ValuesIn(test::kAllWriteModes),
                         test::WriteModeParamName());
INSTANTIATE_TEST_SUITE_P(Modes, DBOrderedWriteModesTest,
                         testing::ValuesIn(test::kOrderedWriteModes),
                         test::WriteModeParamName());

}  // namespace
}  // namespace strata
