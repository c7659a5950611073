// The two pieces transactions' conflict checks stand on: the sequence
// number of a key's newest write (DBImpl::GetLatestSequenceForKey), found
// in memtables and tables alike, and a write whose check runs inside the
// write path (DBImpl::WriteWithCallback) after every earlier write is
// applied, in each write mode.

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "db/write_callback.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/merge_operator.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

class LatestSequenceTest : public testing::Test {
 protected:
  LatestSequenceTest() : dir_(Env::Default(), "latest_seq") {
    Options options;
    options.create_if_missing = true;
    options.disable_auto_compactions = true;
    DB* db = nullptr;
    EXPECT_TRUE(DB::Open(options, dir_.path(), &db).ok());
    db_.reset(db);
  }

  DBImpl* impl() { return static_cast<DBImpl*>(db_.get()); }

  SequenceNumber Latest(const std::string& key) {
    SequenceNumber seq = 12345;
    Status s =
        impl()->GetLatestSequenceForKey(db_->DefaultColumnFamily(), key, &seq);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return seq;
  }

  void Flush() { ASSERT_TRUE(db_->Flush(FlushOptions()).ok()); }

  test::TempDir dir_;
  std::unique_ptr<DB> db_;
  WriteOptions wo_;
};

TEST_F(LatestSequenceTest, NewestVersionInMemtableAndTables) {
  EXPECT_EQ(0u, Latest("k"));
  ASSERT_TRUE(db_->Put(wo_, "k", "v1").ok());
  const SequenceNumber first = db_->GetLatestSequenceNumber();
  ASSERT_TRUE(db_->Put(wo_, "other", "x").ok());
  EXPECT_EQ(first, Latest("k"));
  // From a table once flushed; a key between two stored keys has none.
  Flush();
  EXPECT_EQ(first, Latest("k"));
  EXPECT_EQ(0u, Latest("l"));
  EXPECT_EQ(0u, Latest("a"));
  // The memtable's newer version wins over the table's.
  ASSERT_TRUE(db_->Put(wo_, "k", "v2").ok());
  const SequenceNumber second = db_->GetLatestSequenceNumber();
  EXPECT_EQ(second, Latest("k"));
  // A deletion is a write, in a memtable and in a table.
  ASSERT_TRUE(db_->Delete(wo_, "k").ok());
  const SequenceNumber deleted = db_->GetLatestSequenceNumber();
  EXPECT_EQ(deleted, Latest("k"));
  Flush();
  EXPECT_EQ(deleted, Latest("k"));
  EXPECT_EQ(first + 1, Latest("other"));
}

TEST_F(LatestSequenceTest, OlderLevelsAndSnapshots) {
  ASSERT_TRUE(db_->Put(wo_, "a", "1").ok());
  ASSERT_TRUE(db_->Put(wo_, "z", "1").ok());
  Flush();
  ASSERT_TRUE(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  const SequenceNumber in_bottom = 1;
  EXPECT_EQ(in_bottom, Latest("a"));
  // A snapshot keeps the deletion through a compaction to the bottom.
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_TRUE(db_->Delete(wo_, "a").ok());
  const SequenceNumber deleted = db_->GetLatestSequenceNumber();
  Flush();
  ASSERT_TRUE(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(deleted, Latest("a"));
  db_->ReleaseSnapshot(snap);
}

TEST_F(LatestSequenceTest, RangeTombstoneCoveringTheKey) {
  ASSERT_TRUE(db_->Put(wo_, "b", "1").ok());
  ASSERT_TRUE(db_->Put(wo_, "q", "1").ok());
  const SequenceNumber q_put = db_->GetLatestSequenceNumber();
  Flush();
  ASSERT_TRUE(db_->DeleteRange(wo_, db_->DefaultColumnFamily(), "a", "c").ok());
  const SequenceNumber range = db_->GetLatestSequenceNumber();
  // Covered, also a key never written; outside the range, unchanged.
  EXPECT_EQ(range, Latest("b"));
  EXPECT_EQ(range, Latest("bb"));
  EXPECT_EQ(q_put, Latest("q"));
  Flush();
  EXPECT_EQ(range, Latest("b"));
  // A newer version above the tombstone is the newest write.
  ASSERT_TRUE(db_->Put(wo_, "b", "2").ok());
  EXPECT_EQ(db_->GetLatestSequenceNumber(), Latest("b"));
}

TEST_F(LatestSequenceTest, FamiliesAreSeparate) {
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(
      db_->CreateColumnFamily(ColumnFamilyOptions(), "other", &cf).ok());
  ASSERT_TRUE(db_->Put(wo_, cf, "k", "v").ok());
  SequenceNumber seq = 0;
  ASSERT_TRUE(impl()->GetLatestSequenceForKey(cf, "k", &seq).ok());
  EXPECT_EQ(db_->GetLatestSequenceNumber(), seq);
  EXPECT_EQ(0u, Latest("k"));
  // A dropped family reads on while its handle lives, as Get does.
  const SequenceNumber before_drop = seq;
  ASSERT_TRUE(db_->DropColumnFamily(cf).ok());
  ASSERT_TRUE(impl()->GetLatestSequenceForKey(cf, "k", &seq).ok());
  EXPECT_EQ(before_drop, seq);
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(cf).ok());
}

// Commits only if key was not written after read_at.
class CheckedIncrement : public WriteCallback {
 public:
  CheckedIncrement(DBImpl* db, std::string key, SequenceNumber read_at)
      : db_(db), key_(std::move(key)), read_at_(read_at) {}
  Status Check() override {
    SequenceNumber latest = 0;
    Status s =
        db_->GetLatestSequenceForKey(db_->DefaultColumnFamily(), key_, &latest);
    if (!s.ok()) return s;
    return latest > read_at_ ? Status::Busy("written since the read") : s;
  }

 private:
  DBImpl* const db_;
  const std::string key_;
  const SequenceNumber read_at_;
};

TEST_F(LatestSequenceTest, ConflictsFoundInMemtablesAndTables) {
  ASSERT_TRUE(db_->Put(wo_, "k", "0").ok());
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("k", "1").ok());
  // Written after the read, still in the memtable: a conflict.
  SequenceNumber read_at = db_->GetLatestSequenceNumber();
  ASSERT_TRUE(db_->Put(wo_, "k", "other").ok());
  CheckedIncrement in_memtable(impl(), "k", read_at);
  EXPECT_TRUE(impl()->WriteWithCallback(wo_, &batch, &in_memtable).IsBusy());
  // Written after the read and flushed: still a conflict.
  read_at = db_->GetLatestSequenceNumber();
  ASSERT_TRUE(db_->Delete(wo_, "k").ok());
  Flush();
  CheckedIncrement in_table(impl(), "k", read_at);
  EXPECT_TRUE(impl()->WriteWithCallback(wo_, &batch, &in_table).IsBusy());
  std::string value;
  EXPECT_TRUE(db_->Get(ReadOptions(), "k", &value).IsNotFound());
  // Nothing since the read, the key only in a table: commits.
  read_at = db_->GetLatestSequenceNumber();
  ASSERT_TRUE(db_->Put(wo_, "unrelated", "x").ok());
  CheckedIncrement clean(impl(), "k", read_at);
  ASSERT_TRUE(impl()->WriteWithCallback(wo_, &batch, &clean).ok());
  ASSERT_TRUE(db_->Get(ReadOptions(), "k", &value).ok());
  EXPECT_EQ("1", value);
}

// A check that returns a fixed status and counts its calls.
class FixedCallback : public WriteCallback {
 public:
  explicit FixedCallback(Status s) : status_(std::move(s)) {}
  Status Check() override {
    calls++;
    return status_;
  }
  int calls = 0;

 private:
  Status status_;
};

TEST_F(LatestSequenceTest, FailedCheckWritesNothing) {
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("k", "v").ok());
  const SequenceNumber before = db_->GetLatestSequenceNumber();
  FixedCallback busy(Status::Busy("conflict"));
  Status s = impl()->WriteWithCallback(wo_, &batch, &busy);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_EQ(1, busy.calls);
  EXPECT_EQ(before, db_->GetLatestSequenceNumber());
  std::string value;
  EXPECT_TRUE(db_->Get(ReadOptions(), "k", &value).IsNotFound());
  // The DB carries on, and a passing check commits.
  FixedCallback ok(Status::OK());
  ASSERT_TRUE(impl()->WriteWithCallback(wo_, &batch, &ok).ok());
  EXPECT_EQ(1, ok.calls);
  ASSERT_TRUE(db_->Get(ReadOptions(), "k", &value).ok());
  EXPECT_EQ("v", value);
  // The WAL holds the committed write only: it survives a reopen.
  db_.reset();
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(Options(), dir_.path(), &db).ok());
  db_.reset(db);
  ASSERT_TRUE(db_->Get(ReadOptions(), "k", &value).ok());
  EXPECT_EQ(before + 1, db_->GetLatestSequenceNumber());
}

// Read-check-write counters: each increment reads a counter and the
// sequence of its newest write, then commits the new value only if the
// counter was not written since. If the check could miss an earlier
// write (not yet applied when it ran), two increments would both commit
// on one read value and the counter would fall short of the commits.
// unordered_write is left out: it publishes a write before applying it,
// so a read may miss a write at or below its snapshot's number, and no
// check can make read-modify-write safe there (the transaction DBs refuse
// it).
enum class Mode { kDefault, kSerial, kPipelined };

class WriteCallbackModeTest : public testing::TestWithParam<Mode> {};

TEST_P(WriteCallbackModeTest, NoLostIncrements) {
  test::TempDir dir(Env::Default(), "write_callback");
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;  // flushes while the test runs
  switch (GetParam()) {
    case Mode::kDefault:
      break;
    case Mode::kSerial:
      options.allow_concurrent_memtable_write = false;
      break;
    case Mode::kPipelined:
      options.enable_pipelined_write = true;
      break;
  }
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, dir.path(), &raw).ok());
  std::unique_ptr<DB> db(raw);
  DBImpl* impl = static_cast<DBImpl*>(raw);
  constexpr int kCounters = 2;
  constexpr int kThreads = 6;
  constexpr int kAttempts = 300;
  for (int c = 0; c < kCounters; c++) {
    ASSERT_TRUE(
        db->Put(WriteOptions(), "counter" + std::to_string(c), "0").ok());
  }
  std::atomic<int> committed[kCounters] = {};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kAttempts; i++) {
        const int c = (t + i) % kCounters;
        const std::string key = "counter" + std::to_string(c);
        // The snapshot fixes what the read saw.
        const Snapshot* snap = db->GetSnapshot();
        ReadOptions ro;
        ro.snapshot = snap;
        std::string value;
        Status s = db->Get(ro, key, &value);
        const SequenceNumber read_at = snap->GetSequenceNumber();
        db->ReleaseSnapshot(snap);
        if (!s.ok()) {
          errors++;
          continue;
        }
        WriteBatch batch;
        batch.Put(key, std::to_string(std::stoi(value) + 1));
        // Filler, so that memtables switch under the increments.
        batch.Put("filler" + std::to_string(t) + "_" + std::to_string(i),
                  std::string(200, 'f'));
        CheckedIncrement check(impl, key, read_at);
        s = impl->WriteWithCallback(WriteOptions(), &batch, &check);
        if (s.ok()) {
          committed[c]++;
        } else if (!s.IsBusy()) {
          errors++;
        }
      }
    });
  }
  // Plain writes to the counters' neighbours race the checked ones.
  for (int i = 0; i < 500; i++) {
    const std::string key = "counter" + std::to_string(i % kCounters) + "x";
    if (!db->Put(WriteOptions(), key, std::to_string(i)).ok()) errors++;
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(0, errors.load());
  int total = 0;
  for (int c = 0; c < kCounters; c++) {
    std::string value;
    ASSERT_TRUE(
        db->Get(ReadOptions(), "counter" + std::to_string(c), &value).ok());
    EXPECT_EQ(committed[c].load(), std::stoi(value)) << "counter " << c;
    total += committed[c].load();
  }
  // Some increments got through (with six threads on two counters,
  // some also conflicted, which is not asserted: it depends on timing).
  EXPECT_GT(total, 0);
}

INSTANTIATE_TEST_SUITE_P(Modes, WriteCallbackModeTest,
                         testing::Values(Mode::kDefault, Mode::kSerial,
                                         Mode::kPipelined));

}  // namespace
}  // namespace strata
