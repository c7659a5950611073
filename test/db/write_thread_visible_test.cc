// WriteThread's snapshot-safe unordered mode against FakeCommitEnv: members
// insert on their own threads after the WAL, as in the unordered mode, but
// the published sequence advances only over groups whose inserts are all
// done, oldest first, and a Write returns only once its group is visible.
// Orderings are forced with hooks and bounded waits, never with sleeps.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

#include "db/write_thread.h"
#include "gtest/gtest.h"
#include "test/db/fake_commit_env.h"
#include "test/db/write_thread_runner.h"
#include "util/random.h"

namespace strata {
namespace {

using Event = FakeCommitEnv::Event;
using Writer = WriteThread::Writer;

// Waits until pred() holds; false after a minute.
template <class Pred>
bool WaitUntil(const Pred& pred) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

// Every writer's group was visible when it returned, and nothing was ever
// inserted at or below a published number.
void ExpectVisibleAtReturn(WriterRun& run) {
  for (size_t i = 0; i < run.size(); i++) {
    if (!run.writer(i).status.ok()) continue;
    EXPECT_TRUE(run.inserted_at_return(i) || run.count(i) == 0) << i;
    if (run.count(i) > 0) {
      EXPECT_GE(run.published_at_return(i),
                run.writer(i).sequence + run.count(i) - 1)
          << i;
    }
  }
  for (const FakeCommitEnv::Insert& insert : run.env().inserts()) {
    EXPECT_LT(insert.published, insert.sequence);
  }
}

TEST(WriteThreadSnapshotSafeTest, PublishedAfterMembersInsert) {
  WriterRun run(SnapshotSafeOptions());
  run.AddWriters({1, 2, 0, 1, -1, 3});
  run.RunQueued();

  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
  }
  FakeCommitEnv& env = run.env();
  std::vector<GroupRecord> groups = env.groups();
  ASSERT_EQ(2u, groups.size());
  // Group 0 alone, then group 1; or both at once, when group 0's last
  // count came after group 1's.
  const std::vector<SequenceNumber> published = env.published();
  EXPECT_TRUE(published == std::vector<SequenceNumber>({1, 7}) ||
              published == std::vector<SequenceNumber>({7}))
      << published.size();
  ExpectMemberInserts(run, 0, 0, 0);
  ExpectMemberInserts(run, 1, 1, run.size() - 1);
  const std::vector<Event> events = env.events();
  for (size_t g = 0; g < 2; g++) {
    const size_t publish = FakeCommitEnv::Find(events, Event::kPublish, g);
    ASSERT_LT(publish, events.size());
    // Every insert of the group and of those before it was done when it
    // became visible (later groups may have inserted too; that no insert
    // ever came at or below a published number is checked below).
    EXPECT_GE(events[publish].inserted, groups[g].last);
  }
  ExpectVisibleAtReturn(run);
  EXPECT_EQ(0u, env.pending());
}

class WriteThreadSnapshotSafeParkedTest
    : public testing::TestWithParam<size_t> {};

// Writers 1 and 2 commit as group 1; writer GetParam() of them is parked
// before its insert. Writers 3 and 4 then commit groups 2 and 3 of their
// own and insert, but nothing past group 0 is published and none of them
// returns until the parked writer inserts; then one publish makes groups
// 1 to 3 visible together and everyone returns.
TEST_P(WriteThreadSnapshotSafeParkedTest, ParkedInsertHoldsBackVisibility) {
  const size_t parked = GetParam();
  const size_t other = parked == 1 ? 2 : 1;
  WriterRun run(SnapshotSafeOptions());
  run.AddWriters({1, 1, 2, 3, 1});
  InsertPark park(run, &run.writer(parked));
  run.StartQueued(3);
  run.Release();
  ASSERT_TRUE(park.WaitArrived());
  FakeCommitEnv& env = run.env();
  ASSERT_TRUE(env.WaitForEvents([&](const std::vector<Event>& events) {
    for (const Event& e : events) {
      if (e.kind == Event::kInsertEnd && e.writer == &run.writer(other)) {
        return true;
      }
    }
    return false;
  }));
  run.Start(3);
  ASSERT_TRUE(env.WaitForEvent(Event::kInsertEnd, 2));
  run.Start(4);
  ASSERT_TRUE(env.WaitForEvent(Event::kInsertEnd, 3));
  ASSERT_TRUE(run.WaitReturned(0));
  // Every count but the parked writer's is done (each reports its
  // MemTableWriteDone after its AdvanceVisible).
  ASSERT_TRUE(WaitUntil([&] { return env.pending() == 1; }));

  // Groups 2 and 3 are inserted, group 1 is not: only group 0 is visible.
  EXPECT_EQ(std::vector<SequenceNumber>{1}, env.published());
  for (size_t i = 1; i < run.size(); i++) {
    EXPECT_FALSE(run.returned(i)) << i;
  }
  std::vector<GroupRecord> groups = env.groups();
  ASSERT_EQ(4u, groups.size());
  EXPECT_EQ(5u, groups[2].first);
  EXPECT_EQ(8u, groups[3].last);

  park.Resume();
  run.JoinAll();
  EXPECT_EQ((std::vector<SequenceNumber>{1, 8}), env.published());
  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
  }
  ExpectMemberInserts(run, 1, 1, 2);
  ExpectVisibleAtReturn(run);
  EXPECT_EQ(0u, env.pending());
}

INSTANTIATE_TEST_SUITE_P(LeaderOrMember, WriteThreadSnapshotSafeParkedTest,
                         testing::Values(1, 2));

// A failed insert leaves its group partly inserted: it never becomes
// visible, and neither does any group after it; they all fail.
TEST(WriteThreadSnapshotSafeTest, FailedInsertStopsVisibility) {
  WriterRun run(SnapshotSafeOptions());
  run.AddWriters({1, 2, 3, 1});
  run.env().FailInsert(&run.writer(2));
  run.RunQueued();
  EXPECT_TRUE(run.writer(0).status.ok());
  for (size_t i = 1; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.IsIOError()) << i;
  }
  EXPECT_EQ(std::vector<SequenceNumber>{1}, run.env().published());

  // The next group inserts, but stays invisible and fails as well.
  run.Add(BatchWithPuts(2));
  run.Start(4);
  ASSERT_TRUE(run.WaitReturned(4));
  EXPECT_TRUE(run.writer(4).status.IsIOError());
  EXPECT_EQ(std::vector<SequenceNumber>{1}, run.env().published());
  EXPECT_EQ(0u, run.env().pending());
}

// A group of empty and null batches inserts nothing, yet its writers
// return only once the groups before it are visible.
TEST(WriteThreadSnapshotSafeTest, GroupWithoutUpdatesWaitsForEarlierGroups) {
  WriterRun run(SnapshotSafeOptions());
  run.AddWriters({2, 0, -1});
  InsertPark park(run, &run.writer(0));
  run.StartQueued(1);
  run.Release();
  ASSERT_TRUE(park.WaitArrived());
  run.Start(1);
  ASSERT_TRUE(run.env().WaitForEvent(Event::kPrepare, 1));
  run.Start(2);
  ASSERT_TRUE(run.env().WaitForEvent(Event::kPrepare, 2));
  EXPECT_TRUE(run.env().published().empty());
  EXPECT_FALSE(run.returned(1));
  EXPECT_FALSE(run.returned(2));
  park.Resume();
  run.JoinAll();
  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
    EXPECT_GE(run.published_at_return(i), 2u) << i;
  }
  EXPECT_EQ(0u, run.env().pending());
}

// Many writers, random batches (some empty or null) and random pauses
// before inserts: no insert is ever at or below a published number, the
// published number never goes back, and every write is visible when it
// returns.
TEST(WriteThreadSnapshotSafeTest, RandomPausesNeverExposeAnInsertInFlight) {
  constexpr int kThreads = 8;
  constexpr int kWritesPerThread = 300;
  FakeCommitEnv env;
  env.set_publish_covers_groups(true);
  WriteThread thread(SnapshotSafeOptions(), &env);
  thread.TEST_SetBeforeInsertCallback([](Writer* w) {
    // A pause of a few yields for about one insert in four.
    const uint64_t n = w->sequence * 2654435761u;
    if ((n >> 7) % 4 == 0) {
      for (uint64_t i = 0; i < (n >> 9) % 64; i++) std::this_thread::yield();
    }
  });
  std::atomic<int> not_visible{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Random rnd(301 + t);
      for (int i = 0; i < kWritesPerThread; i++) {
        const int puts = static_cast<int>(rnd.Uniform(5)) - 1;
        std::unique_ptr<WriteBatch> batch =
            puts < 0 ? nullptr : BatchWithPuts(puts);
        Writer w(WriteOptions(), batch.get());
        EXPECT_TRUE(thread.Write(&w).ok());
        if (puts > 0) {
          const std::vector<SequenceNumber> published = env.published();
          if (published.empty() ||
              published.back() < w.sequence + static_cast<uint64_t>(puts) - 1) {
            not_visible++;
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(0, not_visible.load());
  uint64_t total = 0;
  for (const FakeCommitEnv::Insert& insert : env.inserts()) {
    EXPECT_LT(insert.published, insert.sequence);
    total += insert.count;
  }
  const std::vector<SequenceNumber> published = env.published();
  ASSERT_FALSE(published.empty());
  EXPECT_EQ(total, published.back());
  EXPECT_EQ(0u, env.pending());
}

}  // namespace
}  // namespace strata
