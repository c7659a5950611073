// WriteThread's unordered mode against FakeCommitEnv: a group is published
// right after its WAL write, before its members insert; each member
// inserts its own batch on its own thread; a member still inserting holds
// back neither the queue nor its own Write's return (which waits for its
// insert). Orderings are forced with hooks and bounded waits, never with
// sleeps.

#include <cstddef>
#include <string>
#include <tuple>
#include <vector>

#include "db/write_thread.h"
#include "gtest/gtest.h"
#include "test/db/fake_commit_env.h"
#include "test/db/write_thread_runner.h"

namespace strata {
namespace {

using Event = FakeCommitEnv::Event;
using Writer = WriteThread::Writer;

TEST(WriteThreadUnorderedTest, PublishedBeforeMembersInsert) {
  WriterRun run(UnorderedOptions());
  run.AddWriters({1, 2, 0, 1, -1, 3});
  run.RunQueued();

  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
    // A Write returns only once its own batch is in.
    EXPECT_EQ(run.count(i) > 0, run.inserted_at_return(i)) << i;
  }
  FakeCommitEnv& env = run.env();
  std::vector<GroupRecord> groups = env.groups();
  ASSERT_EQ(2u, groups.size());
  ASSERT_EQ(5u, groups[1].members.size());
  EXPECT_EQ((std::vector<SequenceNumber>{1, 7}), env.published());
  // Even a group of one: its leader inserts as a member, after publishing.
  ExpectMemberInserts(run, 0, 0, 0);
  ExpectMemberInserts(run, 1, 1, run.size() - 1);
  for (const GroupRecord& g : groups) EXPECT_FALSE(g.memtable_applied);

  const std::vector<Event> events = env.events();
  for (size_t g = 0; g < 2; g++) {
    const size_t publish = FakeCommitEnv::Find(events, Event::kPublish, g);
    ASSERT_LT(publish, events.size());
    // Nothing of the group was inserted when it became visible.
    EXPECT_LE(events[publish].inserted, groups[g].first - 1);
    for (size_t k = 0; k < publish; k++) {
      EXPECT_FALSE(events[k].group == g &&
                   events[k].kind == Event::kInsertBegin)
          << k;
    }
  }
  for (const FakeCommitEnv::Insert& insert : env.inserts()) {
    EXPECT_GE(insert.published, insert.sequence + insert.count - 1);
  }
  EXPECT_EQ(0u, env.pending());
  EXPECT_FALSE(env.overlapped());
}

class WriteThreadParkedInsertTest : public testing::TestWithParam<size_t> {};

// Writers 1 and 2 commit as a group; writer GetParam() of them is parked
// before its insert. Writer 3 then commits a whole group of its own, and
// the parked writer's Write returns only after it was let go and inserted.
TEST_P(WriteThreadParkedInsertTest, ParkedInsertHoldsNobodyBack) {
  const size_t parked = GetParam();
  const size_t other = parked == 1 ? 2 : 1;
  WriterRun run(UnorderedOptions());
  run.AddWriters({1, 2, 3, 1});
  const Writer* parked_writer = &run.writer(parked);
  InsertPark park(run, parked_writer);
  run.StartQueued(3);
  run.Release();
  ASSERT_TRUE(park.WaitArrived());
  ASSERT_TRUE(run.WaitReturned(other));

  run.Start(3);
  ASSERT_TRUE(run.WaitReturned(3));
  EXPECT_TRUE(run.writer(3).status.ok());
  EXPECT_EQ(7u, run.writer(3).sequence);
  EXPECT_EQ((std::vector<SequenceNumber>{1, 6, 7}), run.env().published());
  EXPECT_FALSE(run.returned(parked));
  ASSERT_TRUE(run.WaitReturned(0));
  // Only the parked insert is still announced.
  EXPECT_EQ(1u, run.env().pending());

  park.Resume();
  run.JoinAll();
  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
    EXPECT_TRUE(run.inserted_at_return(i)) << i;
  }
  ExpectMemberInserts(run, 1, 1, 2);
  // The parked batch went in after the next group was published.
  for (const FakeCommitEnv::Insert& insert : run.env().inserts()) {
    if (insert.writer == parked_writer) {
      EXPECT_EQ(7u, insert.published);
    }
  }
  EXPECT_EQ(0u, run.env().pending());
}

INSTANTIATE_TEST_SUITE_P(LeaderOrMember, WriteThreadParkedInsertTest,
                         testing::Values(1, 2));

// Published before the inserts, a group cannot fail as a whole once an
// insert fails: only that writer learns of it.
TEST(WriteThreadUnorderedTest, FailedInsertFailsOnlyItsWriter) {
  WriterRun run(UnorderedOptions());
  run.AddWriters({1, 2, 3, 1});
  run.env().FailInsert(&run.writer(2));
  run.RunQueued();
  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_EQ(i != 2, run.writer(i).status.ok()) << i;
  }
  EXPECT_TRUE(run.writer(2).status.IsIOError());
  EXPECT_EQ((std::vector<SequenceNumber>{1, 7}), run.env().published());
  EXPECT_EQ(0u, run.env().pending());
}

// The plain unordered mode (false) or the snapshot-safe one (true), and
// the step that fails.
class WriteThreadUnorderedFailureTest
    : public testing::TestWithParam<std::tuple<bool, CommitStep>> {};

// A group failing before it is published (snapshot-safe: before it enters
// the in-flight list) announces no inserts: its members complete with the
// failure without inserting, and the next group becomes visible past it.
TEST_P(WriteThreadUnorderedFailureTest, FailedGroupInsertsNothing) {
  const bool safe = std::get<0>(GetParam());
  WriterRun run(safe ? SnapshotSafeOptions() : UnorderedOptions());
  run.AddWriters({1, 2, 0, 3});
  run.env().FailGroup(1, std::get<1>(GetParam()));
  run.RunQueued();
  EXPECT_TRUE(run.writer(0).status.ok());
  for (size_t i = 1; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.IsIOError()) << i;
    EXPECT_FALSE(run.inserted_at_return(i)) << i;
  }
  const std::vector<Event> events = run.env().events();
  EXPECT_EQ(0u, FakeCommitEnv::Count(events, Event::kInsertBegin, 1));
  EXPECT_EQ(std::vector<SequenceNumber>{1}, run.env().published());
  EXPECT_EQ(0u, run.env().pending());
  // Snapshot-safe groups overlap by design: the queue moves on before a
  // group is published.
  if (!safe) {
    EXPECT_FALSE(run.env().overlapped());
  }

  run.Add(BatchWithPuts(2));
  run.Start(4);
  ASSERT_TRUE(run.WaitReturned(4));
  EXPECT_TRUE(run.writer(4).status.ok());
  EXPECT_TRUE(run.inserted_at_return(4));
  EXPECT_EQ((std::vector<SequenceNumber>{1, run.writer(4).sequence + 1}),
            run.env().published());
  EXPECT_EQ(0u, run.env().pending());
}

INSTANTIATE_TEST_SUITE_P(Steps, WriteThreadUnorderedFailureTest,
                         testing::Combine(testing::Bool(),
                                          testing::Values(CommitStep::kPrepare,
                                                          CommitStep::kWAL)));

}  // namespace
}  // namespace strata
