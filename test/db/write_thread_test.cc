// WriteThread against a fake CommitEnv: grouping rules, sequence numbers,
// error propagation, and how waiters wait. Group membership is made
// deterministic by holding a leader inside PrepareGroup while the next
// writers queue up (join callback), never by sleeping.

#include "db/write_thread.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "strata/write_batch.h"
#include "test/db/fake_commit_env.h"
#include "util/random.h"

namespace strata {
namespace {

using Writer = WriteThread::Writer;
using WriteGroup = WriteThread::WriteGroup;

// A batch whose encoded size is exactly `bytes` (at least 20), holding one
// Put.
std::unique_ptr<WriteBatch> BatchOfSize(size_t bytes) {
  auto batch = std::make_unique<WriteBatch>();
  EXPECT_TRUE(batch->Put("k", std::string(bytes - 20, 'v')).ok());
  const size_t overhead = batch->GetDataSize() - (bytes - 20);
  batch->Clear();
  EXPECT_TRUE(batch->Put("k", std::string(bytes - overhead, 'v')).ok());
  EXPECT_EQ(bytes, batch->GetDataSize());
  return batch;
}

std::unique_ptr<WriteBatch> BatchWithPuts(int puts) {
  auto batch = std::make_unique<WriteBatch>();
  for (int i = 0; i < puts; i++) {
    EXPECT_TRUE(batch->Put("key" + std::to_string(i), "value").ok());
  }
  return batch;
}

struct Spec {
  bool sync = false;
  bool disable_wal = false;
  bool no_slowdown = false;
  size_t bytes = 40;
};

Spec Sync() {
  Spec s;
  s.sync = true;
  return s;
}
Spec NoWal() {
  Spec s;
  s.disable_wal = true;
  return s;
}
Spec NoSlowdown() {
  Spec s;
  s.no_slowdown = true;
  return s;
}
Spec Bytes(size_t n) {
  Spec s;
  s.bytes = n;
  return s;
}

// Writer 0 (`leader`) starts alone and is held in PrepareGroup; writers
// 1..n (`queued`) then join one by one, in order, from their own threads.
// Returns the groups committed after the release, as writer numbers.
class QueuedRun {
 public:
  explicit QueuedRun(const WriteThread::Options& options = {})
      : thread_(options, &env_) {
    thread_.TEST_SetJoinCallback(joined_.Callback());
    thread_.TEST_SetYieldCallback(yielding_.Callback());
    thread_.TEST_SetBlockCallback(blocked_.Callback());
  }

  // Release the leader only once this many waiters started yielding and
  // this many sleep on their condition variables.
  void ReleaseAfter(int yielding, int blocked) {
    release_after_yielding_ = yielding;
    release_after_blocked_ = blocked;
  }

  std::vector<std::vector<int>> Run(const Spec& leader,
                                    const std::vector<Spec>& queued) {
    std::vector<Spec> specs = {leader};
    specs.insert(specs.end(), queued.begin(), queued.end());
    for (const Spec& spec : specs) {
      WriteOptions wo;
      wo.sync = spec.sync;
      wo.disableWAL = spec.disable_wal;
      wo.no_slowdown = spec.no_slowdown;
      batches_.push_back(BatchOfSize(spec.bytes));
      writers_.push_back(std::make_unique<Writer>(wo, batches_.back().get()));
    }
    env_.ArmHold();
    Start(0);
    EXPECT_TRUE(env_.WaitHeld());
    for (size_t i = 1; i < writers_.size(); i++) {
      Start(i);
      EXPECT_TRUE(joined_.WaitFor(static_cast<int>(i) + 1));
    }
    EXPECT_TRUE(yielding_.WaitFor(release_after_yielding_));
    EXPECT_TRUE(blocked_.WaitFor(release_after_blocked_));
    env_.Release();
    for (std::thread& t : threads_) t.join();

    std::vector<std::vector<int>> groups;
    for (const GroupRecord& r : env_.groups()) {
      std::vector<int> ids;
      for (Writer* w : r.members) ids.push_back(IndexOf(w));
      groups.push_back(ids);
    }
    EXPECT_FALSE(env_.overlapped());
    return groups;
  }

  FakeCommitEnv& env() { return env_; }
  WriteThread& thread() { return thread_; }
  Writer& writer(size_t i) { return *writers_[i]; }
  int yielding() { return yielding_.value(); }
  int blocked() { return blocked_.value(); }

 private:
  void Start(size_t i) {
    Writer* w = writers_[i].get();
    threads_.emplace_back([this, w] { thread_.Write(w); });
  }
  int IndexOf(Writer* w) const {
    for (size_t i = 0; i < writers_.size(); i++) {
      if (writers_[i].get() == w) return static_cast<int>(i);
    }
    return -1;
  }

  FakeCommitEnv env_;
  WriteThread thread_;
  Counter joined_;
  Counter yielding_;
  Counter blocked_;
  int release_after_yielding_ = 0;
  int release_after_blocked_ = 0;
  std::vector<std::unique_ptr<WriteBatch>> batches_;
  std::vector<std::unique_ptr<Writer>> writers_;
  std::vector<std::thread> threads_;
};

using Groups = std::vector<std::vector<int>>;

// How waits ended, as {spin, yield, block}.
std::vector<uint64_t> Waits(uint64_t spin, uint64_t yield, uint64_t block) {
  return {spin, yield, block};
}
std::vector<uint64_t> Waits(const WriteThread& thread) {
  WriteThread::WaitCounts c = thread.GetWaitCounts();
  return Waits(c.spin, c.yield, c.block);
}

TEST(WriteThreadTest, SingleWriterLeadsItsOwnGroup) {
  FakeCommitEnv env;
  WriteThread thread(WriteThread::Options(), &env);
  auto batch = BatchWithPuts(3);
  WriteOptions wo;
  wo.sync = true;
  Writer w(wo, batch.get());
  ASSERT_TRUE(thread.Write(&w).ok());
  EXPECT_TRUE(w.status.ok());
  EXPECT_EQ(1u, w.sequence);

  auto batch2 = BatchWithPuts(2);
  Writer w2(WriteOptions(), batch2.get());
  ASSERT_TRUE(thread.Write(&w2).ok());
  EXPECT_EQ(4u, w2.sequence);

  std::vector<GroupRecord> groups = env.groups();
  ASSERT_EQ(2u, groups.size());
  EXPECT_EQ(std::vector<Writer*>{&w}, groups[0].members);
  EXPECT_EQ(1u, groups[0].first);
  EXPECT_EQ(3u, groups[0].last);
  EXPECT_EQ(3u, groups[0].total_count);
  EXPECT_EQ(batch->GetDataSize(), groups[0].total_bytes);
  EXPECT_TRUE(groups[0].need_sync);
  EXPECT_TRUE(groups[0].wal_written);
  EXPECT_FALSE(groups[1].need_sync);
  EXPECT_EQ((std::vector<SequenceNumber>{3, 5}), env.published());
  // Neither write had to wait.
  EXPECT_EQ(Waits(0, 0, 0), Waits(thread));
}

TEST(WriteThreadTest, QueuedWritersFormOneGroup) {
  QueuedRun run;
  Groups groups = run.Run(Spec(), {Spec(), Spec(), Spec()});
  ASSERT_EQ((Groups{{0}, {1, 2, 3}}), groups);
  std::vector<GroupRecord> records = run.env().groups();
  EXPECT_EQ((std::vector<SequenceNumber>{2, 3, 4}), records[1].sequences);
  EXPECT_EQ(4u, run.writer(3).sequence);
  EXPECT_EQ((std::vector<SequenceNumber>{1, 4}), run.env().published());
}

TEST(WriteThreadTest, SyncWriterNeverJoinsNonSyncLeader) {
  QueuedRun run;
  Groups groups = run.Run(Spec(), {Spec(), Sync(), Spec(), Sync()});
  // A non-sync follower may ride with a sync leader.
  ASSERT_EQ((Groups{{0}, {1}, {2, 3, 4}}), groups);
  std::vector<GroupRecord> records = run.env().groups();
  EXPECT_FALSE(records[1].need_sync);
  EXPECT_TRUE(records[2].need_sync);
}

TEST(WriteThreadTest, DisableWalMismatchSplits) {
  QueuedRun run;
  Groups groups = run.Run(Spec(), {Spec(), NoWal(), NoWal(), Spec()});
  ASSERT_EQ((Groups{{0}, {1}, {2, 3}, {4}}), groups);
  std::vector<GroupRecord> records = run.env().groups();
  EXPECT_TRUE(records[1].wal_written);
  EXPECT_FALSE(records[2].wal_written);
  EXPECT_TRUE(records[2].memtable_applied);
  EXPECT_TRUE(records[2].published);
  EXPECT_TRUE(records[3].wal_written);
}

TEST(WriteThreadTest, NoSlowdownMismatchSplits) {
  QueuedRun run;
  Groups groups =
      run.Run(NoSlowdown(), {NoSlowdown(), Spec(), Spec(), NoSlowdown()});
  ASSERT_EQ((Groups{{0}, {1}, {2, 3}, {4}}), groups);
}

TEST(WriteThreadTest, GroupStopsAtByteCap) {
  const size_t kKiB = 1024;
  QueuedRun run;
  // Group 1: a 200 KiB leader (above the small-batch limit) plus followers
  // up to exactly 1 MiB; one more byte would not fit. Group 2: a leader
  // bigger than the cap still commits alone.
  Groups groups =
      run.Run(Spec(), {Bytes(200 * kKiB), Bytes(500 * kKiB), Bytes(324 * kKiB),
                       Bytes(20), Bytes(2048 * kKiB), Bytes(20)});
  ASSERT_EQ((Groups{{0}, {1, 2, 3}, {4}, {5}, {6}}), groups);
  EXPECT_EQ(1024 * kKiB, run.env().groups()[1].total_bytes);
}

TEST(WriteThreadTest, SmallLeaderCapsGroupAtLeaderPlusSmallBatch) {
  const size_t kKiB = 1024;
  QueuedRun run;
  Groups groups = run.Run(Spec(), {Bytes(1 * kKiB), Bytes(64 * kKiB),
                                   Bytes(64 * kKiB), Bytes(20), Bytes(20)});
  // 1 KiB + 128 KiB is the cap of the first group; the 20-byte writer
  // after it starts the next one.
  ASSERT_EQ((Groups{{0}, {1, 2, 3}, {4, 5}}), groups);
}

TEST(WriteThreadTest, OptionsChangeTheCaps) {
  WriteThread::Options options;
  options.max_group_bytes = 100;
  options.small_batch_bytes = 10;
  QueuedRun run(options);
  // Leaders of 40 bytes are above small_batch_bytes: the cap is 100.
  Groups groups = run.Run(Spec(), {Spec(), Spec(), Spec(), Bytes(20)});
  ASSERT_EQ((Groups{{0}, {1, 2}, {3, 4}}), groups);
}

class WriteThreadFailureTest : public testing::TestWithParam<CommitStep> {};

TEST_P(WriteThreadFailureTest, FailureStaysInItsGroup) {
  const CommitStep step = GetParam();
  QueuedRun run;
  run.env().FailGroup(1, step);
  Groups groups = run.Run(Spec(), {Spec(), Sync(), Spec()});
  ASSERT_EQ((Groups{{0}, {1}, {2, 3}}), groups);
  std::vector<GroupRecord> records = run.env().groups();
  EXPECT_TRUE(run.writer(0).status.ok());
  EXPECT_TRUE(run.writer(1).status.IsIOError());
  EXPECT_FALSE(records[1].published);
  EXPECT_EQ(step != CommitStep::kPrepare, records[1].wal_written);
  EXPECT_EQ(step == CommitStep::kMemTable, records[1].memtable_applied);
  for (size_t i = 2; i < 4; i++) EXPECT_TRUE(run.writer(i).status.ok()) << i;
}

TEST_P(WriteThreadFailureTest, WholeGroupFailsAndNextGroupRuns) {
  const CommitStep step = GetParam();
  QueuedRun run;
  run.env().FailGroup(1, step);
  Groups groups = run.Run(Spec(), {Sync(), Spec(), Spec()});
  ASSERT_EQ((Groups{{0}, {1, 2, 3}}), groups);
  for (size_t i = 1; i < 4; i++) {
    EXPECT_TRUE(run.writer(i).status.IsIOError()) << i;
    EXPECT_NE(std::string::npos,
              run.writer(i).status.ToString().find("injected"));
  }
  std::vector<GroupRecord> records = run.env().groups();
  EXPECT_FALSE(records[1].published);
  EXPECT_EQ(step != CommitStep::kPrepare, records[1].wal_written);
  EXPECT_EQ(step == CommitStep::kMemTable, records[1].memtable_applied);
  EXPECT_EQ(std::vector<SequenceNumber>{1}, run.env().published());

  // The write thread is not stuck: the next write leads a fresh group.
  auto batch = BatchWithPuts(1);
  Writer w(WriteOptions(), batch.get());
  ASSERT_TRUE(run.thread().Write(&w).ok());
  ASSERT_EQ(3u, run.env().groups().size());
  EXPECT_TRUE(run.env().groups()[2].published);
  // A failed PrepareGroup reserved no sequence numbers.
  EXPECT_EQ(step == CommitStep::kPrepare ? 2u : 5u, w.sequence);
}

INSTANTIATE_TEST_SUITE_P(Steps, WriteThreadFailureTest,
                         testing::Values(CommitStep::kPrepare, CommitStep::kWAL,
                                         CommitStep::kMemTable));

TEST(WriteThreadTest, NullAndEmptyBatchesComplete) {
  FakeCommitEnv env;
  WriteThread thread(WriteThread::Options(), &env);
  Writer null_writer(WriteOptions(), nullptr);
  EXPECT_TRUE(thread.Write(&null_writer).ok());
  WriteBatch empty;
  WriteOptions sync;
  sync.sync = true;
  Writer empty_writer(sync, &empty);
  EXPECT_TRUE(thread.Write(&empty_writer).ok());
  std::vector<GroupRecord> records = env.groups();
  ASSERT_EQ(2u, records.size());
  EXPECT_EQ(0u, records[1].total_count);
  // A sync-only write still reaches the WAL (for its sync).
  EXPECT_TRUE(records[1].wal_written);
  EXPECT_TRUE(records[1].need_sync);
  // Nothing was allocated, so nothing new becomes visible.
  EXPECT_EQ((std::vector<SequenceNumber>{0, 0}), env.published());
}

TEST(WriteThreadTest, NullAndEmptyBatchesInsideAGroup) {
  FakeCommitEnv env;
  WriteThread thread(WriteThread::Options(), &env);
  Counter joined;
  thread.TEST_SetJoinCallback(joined.Callback());

  auto one = BatchWithPuts(1);
  auto two = BatchWithPuts(2);
  WriteBatch empty;
  std::vector<std::unique_ptr<Writer>> writers;
  writers.push_back(std::make_unique<Writer>(WriteOptions(), one.get()));
  writers.push_back(std::make_unique<Writer>(WriteOptions(), nullptr));
  writers.push_back(std::make_unique<Writer>(WriteOptions(), &empty));
  writers.push_back(std::make_unique<Writer>(WriteOptions(), two.get()));
  writers.push_back(std::make_unique<Writer>(WriteOptions(), nullptr));

  env.ArmHold();
  std::vector<std::thread> threads;
  for (size_t i = 0; i < writers.size(); i++) {
    Writer* w = writers[i].get();
    threads.emplace_back([&thread, w] { thread.Write(w); });
    if (i == 0) {
      ASSERT_TRUE(env.WaitHeld());
    }
    ASSERT_TRUE(joined.WaitFor(static_cast<int>(i) + 1));
  }
  env.Release();
  for (std::thread& t : threads) t.join();

  for (auto& w : writers) EXPECT_TRUE(w->status.ok());
  std::vector<GroupRecord> records = env.groups();
  ASSERT_EQ(2u, records.size());
  EXPECT_EQ(4u, records[1].members.size());
  EXPECT_EQ((std::vector<SequenceNumber>{2, 2, 2, 4}), records[1].sequences);
  EXPECT_EQ(2u, records[1].first);
  EXPECT_EQ(3u, records[1].last);
  EXPECT_EQ((std::vector<SequenceNumber>{1, 3}), env.published());
}

TEST(WriteThreadTest, FollowersBlockWithoutAdaptiveYield) {
  WriteThread::Options options;
  options.adaptive_yield = false;
  QueuedRun run(options);
  // Release only once every follower sleeps on its condition variable.
  run.ReleaseAfter(0, 4);
  Groups groups = run.Run(Spec(), {Spec(), Spec(), Spec(), Spec()});
  ASSERT_EQ((Groups{{0}, {1, 2, 3, 4}}), groups);
  for (size_t i = 0; i < 5; i++) EXPECT_TRUE(run.writer(i).status.ok());
  // Writer 1 woke as leader, 2..4 as completed: all from the block.
  EXPECT_EQ(Waits(0, 0, 4), Waits(run.thread()));
  EXPECT_EQ(0, run.yielding());
}

TEST(WriteThreadTest, FollowersYieldBeforeBlocking) {
  WriteThread::Options options;
  options.adaptive_yield = true;
  options.max_yield_usec = 600 * 1000 * 1000;  // never runs out here
  options.slow_yield_usec = 600 * 1000 * 1000;
  QueuedRun run(options);
  run.ReleaseAfter(2, 0);
  Groups groups = run.Run(Spec(), {Spec(), Spec()});
  ASSERT_EQ((Groups{{0}, {1, 2}}), groups);
  EXPECT_EQ(Waits(0, 2, 0), Waits(run.thread()));
  EXPECT_EQ(0, run.blocked());
}

TEST(WriteThreadTest, YieldingGivesWayToBlocking) {
  WriteThread::Options options;
  options.adaptive_yield = true;
  options.max_yield_usec = 0;  // one yield, then block
  QueuedRun run(options);
  run.ReleaseAfter(2, 2);
  Groups groups = run.Run(Spec(), {Spec(), Spec()});
  ASSERT_EQ((Groups{{0}, {1, 2}}), groups);
  // Each yielded once, then slept: the sleep is how the wait ended.
  EXPECT_EQ(Waits(0, 0, 2), Waits(run.thread()));
}

// Many threads, random batches and flags: sequence numbers must tile
// 1..total exactly, in group order, and visibility only moves forward.
TEST(WriteThreadTest, StressSequenceNumbersTileInGroupOrder) {
  const int kThreads = 8;
  const int kWritesPerThread = 300;
  FakeCommitEnv env;
  WriteThread::Options options;
  WriteThread thread(options, &env);

  struct Done {
    SequenceNumber sequence;
    uint64_t count;
  };
  std::vector<std::vector<Done>> done(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Random rnd(301 + t);
      for (int i = 0; i < kWritesPerThread; i++) {
        WriteOptions wo;
        wo.sync = rnd.OneIn(4);
        wo.disableWAL = rnd.OneIn(8);
        wo.no_slowdown = rnd.OneIn(8);
        WriteBatch batch;
        const int puts = static_cast<int>(rnd.Uniform(5));
        const size_t value_size =
            rnd.OneIn(50) ? 150 * 1024 : rnd.Uniform(2000);
        for (int p = 0; p < puts; p++) {
          ASSERT_TRUE(batch.Put("k", std::string(value_size, 'x')).ok());
        }
        Writer w(wo, rnd.OneIn(20) ? nullptr : &batch);
        ASSERT_TRUE(thread.Write(&w).ok());
        const uint64_t count = w.batch == nullptr ? 0 : batch.Count();
        done[t].push_back({w.sequence, count});
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(env.overlapped());

  // Every writer's range, sorted, tiles 1..total with no gap or overlap.
  std::vector<std::pair<SequenceNumber, uint64_t>> ranges;
  uint64_t total = 0;
  for (const auto& per_thread : done) {
    for (const Done& d : per_thread) {
      if (d.count > 0) ranges.emplace_back(d.sequence, d.count);
      total += d.count;
    }
  }
  std::sort(ranges.begin(), ranges.end());
  SequenceNumber next = 1;
  for (const auto& r : ranges) {
    ASSERT_EQ(next, r.first);
    next += r.second;
  }
  EXPECT_EQ(total + 1, next);

  // Group by group, members in queue order, the same tiling; and every
  // group obeys the grouping rules.
  std::vector<GroupRecord> groups = env.groups();
  size_t members = 0;
  next = 1;
  for (const GroupRecord& g : groups) {
    members += g.members.size();
    EXPECT_EQ(next, g.first);
    for (size_t i = 0; i < g.members.size(); i++) {
      EXPECT_EQ(next, g.sequences[i]);
      next += g.counts[i];
      EXPECT_EQ(g.disable_wal[0], g.disable_wal[i]);
      EXPECT_EQ(g.no_slowdown[0], g.no_slowdown[i]);
      if (!g.sync[0]) {
        EXPECT_FALSE(g.sync[i]);
      }
    }
    EXPECT_EQ(next - 1, g.last);
    EXPECT_EQ(!g.disable_wal[0], g.wal_written);
    const uint64_t cap = g.bytes[0] <= options.small_batch_bytes
                             ? g.bytes[0] + options.small_batch_bytes
                             : options.max_group_bytes;
    if (g.members.size() > 1) {
      EXPECT_LE(g.total_bytes, cap);
    }
  }
  EXPECT_EQ(static_cast<size_t>(kThreads * kWritesPerThread), members);

  std::vector<SequenceNumber> published = env.published();
  ASSERT_EQ(groups.size(), published.size());
  for (size_t i = 1; i < published.size(); i++) {
    EXPECT_LE(published[i - 1], published[i]);
  }
  EXPECT_EQ(total, published.back());
}

}  // namespace
}  // namespace strata
