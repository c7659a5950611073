// WriteThread's parallel and pipelined modes against FakeCommitEnv: who
// inserts which batch on which thread, when a group becomes visible, and
// how the WAL and memtable stages of consecutive groups overlap. Orderings
// are forced with the fake's hooks and bounded waits, never with sleeps;
// a missing wakeup fails a wait instead of hanging the test.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "db/write_thread.h"
#include "gtest/gtest.h"
#include "strata/write_batch.h"
#include "test/db/fake_commit_env.h"
#include "test/db/write_thread_runner.h"

namespace strata {
namespace {

using Event = FakeCommitEnv::Event;
using Writer = WriteThread::Writer;

// Group `group` was published exactly once, with `last`, and only after
// every insert of the group ended: by then every number up to `last` had
// been inserted.
void ExpectPublishedAfterInserts(FakeCommitEnv& env, size_t group,
                                 SequenceNumber last) {
  const std::vector<Event> events = env.events();
  ASSERT_EQ(1u, FakeCommitEnv::Count(events, Event::kPublish, group));
  const size_t at = FakeCommitEnv::Find(events, Event::kPublish, group);
  EXPECT_EQ(last, events[at].sequence);
  EXPECT_EQ(last, events[at].inserted);
  for (size_t k = at + 1; k < events.size(); k++) {
    if (events[k].group != group) continue;
    EXPECT_NE(Event::kInsertBegin, events[k].kind) << k;
    EXPECT_NE(Event::kInsertEnd, events[k].kind) << k;
  }
}

// Writer 0 (one Put) commits alone while writers 1..n queue behind it with
// `puts` Puts each (-1: no batch); they then commit as one parallel group.
// The insert of writer `last_to_finish` waits until every other member's
// insert has ended; meanwhile the group must stay unpublished.
void CheckParallelGroup(const std::vector<int>& puts, size_t last_to_finish) {
  WriterRun run(ParallelOptions());
  run.AddWriters({1});
  run.AddWriters(puts);
  ASSERT_GT(run.count(last_to_finish), 0u);
  size_t others = 0;
  for (size_t i = 1; i < run.size(); i++) {
    if (run.count(i) > 0 && i != last_to_finish) others++;
  }
  FakeCommitEnv& env = run.env();
  const Writer* held_back = &run.writer(last_to_finish);
  env.SetInsertHook([&](Writer* w) {
    if (w != held_back) return;
    EXPECT_TRUE(env.WaitForEvents([&](const std::vector<Event>& events) {
      return FakeCommitEnv::Count(events, Event::kInsertEnd, 1) == others;
    }));
    // All but one member inserted: the group is not visible yet.
    EXPECT_EQ(1u, env.published().size());
  });
  run.RunQueued();

  SequenceNumber next = 2;
  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
    if (i > 0) {
      EXPECT_EQ(next, run.writer(i).sequence) << i;
      next += run.count(i);
    }
  }
  const SequenceNumber last = next - 1;
  std::vector<GroupRecord> groups = env.groups();
  ASSERT_EQ(2u, groups.size());
  ASSERT_EQ(run.size() - 1, groups[1].members.size());
  // A group of one has nobody to share with: its leader inserts.
  EXPECT_TRUE(groups[0].memtable_applied);
  EXPECT_FALSE(groups[1].memtable_applied);
  ExpectMemberInserts(run, 1, 1, run.size() - 1);
  ExpectPublishedAfterInserts(env, 1, last);
  EXPECT_EQ((std::vector<SequenceNumber>{1, last}), env.published());
  EXPECT_FALSE(env.overlapped());
}

TEST(WriteThreadParallelTest, LeaderFinishesLast) {
  CheckParallelGroup({2, 0, 1, -1, 3, 1, 2, 1}, 1);
}

TEST(WriteThreadParallelTest, FollowerFinishesLast) {
  CheckParallelGroup({2, 0, 1, -1, 3, 1, 2, 1}, 5);
}

TEST(WriteThreadParallelTest, NewestMemberFinishesLast) {
  CheckParallelGroup({2, 0, 1, -1, 3, 1, 2, 1}, 8);
}

// More than 16 members: the leader wakes a few stride heads, which wake
// the rest. A member nobody wakes would never insert (the wait fails).
std::vector<int> ManyWriters(int n) {
  std::vector<int> puts;
  for (int i = 0; i < n; i++) puts.push_back(i == 7 ? -1 : (i * 7 + 1) % 4);
  return puts;
}

TEST(WriteThreadParallelTest, LargeGroupFansOut) {
  CheckParallelGroup(ManyWriters(40), 1);
  CheckParallelGroup(ManyWriters(40), 21);
  CheckParallelGroup(ManyWriters(40), 40);
  CheckParallelGroup(ManyWriters(17), 17);
}

// The group of writers 1..4 is committed by its leader through
// ApplyMemTable, on the leader's thread, and published once.
void CheckSerialGroup(WriterRun& run) {
  run.RunQueued();
  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
  }
  std::vector<GroupRecord> groups = run.env().groups();
  ASSERT_EQ(2u, groups.size());
  EXPECT_EQ(4u, groups[1].members.size());
  EXPECT_TRUE(groups[1].memtable_applied);
  const std::vector<Event> events = run.env().events();
  EXPECT_EQ(0u, FakeCommitEnv::Count(events, Event::kInsertBegin, 1));
  size_t inserted = 0;
  for (const FakeCommitEnv::Insert& insert : run.env().inserts()) {
    if (insert.group != 1) continue;
    inserted++;
    EXPECT_FALSE(insert.by_member);
    EXPECT_EQ(run.thread_id(1), insert.thread);
  }
  EXPECT_EQ(4u, inserted);
  ExpectPublishedAfterInserts(run.env(), 1, groups[1].last);
}

TEST(WriteThreadParallelTest, NotAllowedGroupGoesThroughTheLeader) {
  WriterRun run(ParallelOptions());
  run.AddWriters({1, 2, 1, 3, 1});
  run.env().set_parallel_allowed(false);
  CheckSerialGroup(run);
}

TEST(WriteThreadParallelTest, MergeKeepsTheGroupSerial) {
  WriterRun run(ParallelOptions());
  run.AddWriters({1, 2, 1});
  auto merge = BatchWithPuts(1);
  ASSERT_TRUE(merge->Merge("key", "operand").ok());
  run.Add(std::move(merge));
  run.AddWriters({1});
  CheckSerialGroup(run);
}

class WriteThreadParallelFailureTest : public testing::TestWithParam<size_t> {};

// One member's insert fails: every member of its group gets the failure,
// the group is never published, and the next write goes on.
TEST_P(WriteThreadParallelFailureTest, FailedInsertFailsTheGroup) {
  WriterRun run(ParallelOptions());
  run.AddWriters({1, 1, 2, 0, 1, 3});
  run.env().FailInsert(&run.writer(GetParam()));
  run.RunQueued();

  EXPECT_TRUE(run.writer(0).status.ok());
  for (size_t i = 1; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.IsIOError()) << i;
    EXPECT_NE(std::string::npos,
              run.writer(i).status.ToString().find("injected insert"));
  }
  std::vector<GroupRecord> groups = run.env().groups();
  ASSERT_EQ(2u, groups.size());
  EXPECT_TRUE(groups[1].failed);
  EXPECT_FALSE(groups[1].published);
  EXPECT_EQ(std::vector<SequenceNumber>{1}, run.env().published());
  // Every member still ran its own insert (none was skipped).
  ExpectMemberInserts(run, 1, 1, run.size() - 1);

  auto batch = BatchWithPuts(2);
  Writer w(WriteOptions(), batch.get());
  ASSERT_TRUE(run.thread().Write(&w).ok());
  // The failed group's numbers stay used.
  EXPECT_EQ(9u, w.sequence);
  EXPECT_EQ((std::vector<SequenceNumber>{1, 10}), run.env().published());
  EXPECT_FALSE(run.env().overlapped());
}

INSTANTIATE_TEST_SUITE_P(Members, WriteThreadParallelFailureTest,
                         testing::Values(1, 2, 5));

// Four writers, each alone in its group, started so that group 0 is inside
// ApplyMemTable while groups 1..3 write their WAL records. Group 0's
// insert does not end before group 3's WAL write: without pipelining,
// group 1 would queue behind group 0 and that wait would time out.
TEST(WriteThreadPipelinedTest, WalOfLaterGroupsRunsDuringAnInsert) {
  WriterRun run(PipelinedOptions());
  run.AddWriters({2, 1, 3, 1});
  FakeCommitEnv& env = run.env();
  env.SetApplyHook([&](size_t group) {
    if (group == 0) {
      EXPECT_TRUE(env.WaitForEvent(Event::kWAL, 3));
    }
  });
  run.Start(0);
  ASSERT_TRUE(env.WaitForEvent(Event::kApplyBegin, 0));
  // Each later writer starts once the one before leads its own group.
  for (size_t i = 1; i < 4; i++) {
    run.Start(i);
    ASSERT_TRUE(env.WaitForEvent(Event::kPrepare, i));
  }
  run.JoinAll();

  const std::vector<SequenceNumber> sequences = {1, 3, 4, 7};
  for (size_t i = 0; i < 4; i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
    EXPECT_EQ(sequences[i], run.writer(i).sequence) << i;
  }
  const std::vector<Event> events = env.events();
  auto at = [&](Event::Kind kind, size_t group) {
    return FakeCommitEnv::Find(events, kind, group);
  };
  EXPECT_LT(at(Event::kApplyBegin, 0), at(Event::kWAL, 1));
  EXPECT_LT(at(Event::kWAL, 3), at(Event::kApplyEnd, 0));
  // Groups 0..2 had announced their memtable stage, none had ended it.
  EXPECT_EQ(3u, events[at(Event::kWAL, 3)].pending);
  // The memtable stages run one at a time, in WAL order, each published
  // before the next starts.
  for (size_t g = 0; g < 4; g++) {
    EXPECT_LT(at(Event::kWAL, g), at(Event::kApplyBegin, g)) << g;
    EXPECT_LT(at(Event::kApplyBegin, g), at(Event::kApplyEnd, g)) << g;
    EXPECT_LT(at(Event::kApplyEnd, g), at(Event::kPublish, g)) << g;
    if (g > 0) {
      EXPECT_LT(at(Event::kPublish, g - 1), at(Event::kApplyBegin, g)) << g;
    }
    EXPECT_EQ(1u, FakeCommitEnv::Count(events, Event::kPublish, g));
  }
  EXPECT_EQ((std::vector<SequenceNumber>{2, 3, 6, 7}), env.published());
  for (size_t g = 0; g < 4; g++) {
    const Event& publish = events[at(Event::kPublish, g)];
    EXPECT_EQ(publish.sequence, publish.inserted) << g;
  }
  EXPECT_EQ(0u, env.pending());
  EXPECT_TRUE(env.overlapped());  // several groups in the env at once
}

class WriteThreadPipelinedFailureTest
    : public testing::TestWithParam<CommitStep> {};

// Group 1 fails while group 0 inserts and group 2 waits behind it. A
// failure before the memtable stage fails group 1 alone and the queue
// moves on. A failure inside it fails group 2 too, which is past its own
// PrepareGroup already: publishing group 2 would make group 1's partial
// inserts visible. Either way the announced stages all end.
TEST_P(WriteThreadPipelinedFailureTest, FailedGroupLeavesTheQueueMoving) {
  const CommitStep step = GetParam();
  WriterRun run(PipelinedOptions());
  run.AddWriters({2, 1, 3});
  FakeCommitEnv& env = run.env();
  env.FailGroup(1, step);
  env.SetApplyHook([&](size_t group) {
    if (group == 0) {
      EXPECT_TRUE(env.WaitForEvent(Event::kWAL, 2));
    }
  });
  run.Start(0);
  ASSERT_TRUE(env.WaitForEvent(Event::kApplyBegin, 0));
  run.Start(1);
  ASSERT_TRUE(env.WaitForEvent(Event::kPrepare, 1));
  run.Start(2);
  run.JoinAll();

  const bool in_memtable = step == CommitStep::kMemTable;
  EXPECT_TRUE(run.writer(0).status.ok());
  EXPECT_TRUE(run.writer(1).status.IsIOError());
  EXPECT_EQ(in_memtable, run.writer(2).status.IsIOError())
      << run.writer(2).status.ToString();
  // A group failing in PrepareGroup reserved no numbers.
  const SequenceNumber third = step == CommitStep::kPrepare ? 3 : 4;
  EXPECT_EQ(third, run.writer(2).sequence);
  const std::vector<SequenceNumber> published =
      in_memtable ? std::vector<SequenceNumber>{2}
                  : std::vector<SequenceNumber>{2, third + 2};
  EXPECT_EQ(published, env.published());
  std::vector<GroupRecord> groups = env.groups();
  ASSERT_EQ(3u, groups.size());
  EXPECT_TRUE(groups[1].failed);
  EXPECT_FALSE(groups[1].published);
  EXPECT_EQ(in_memtable, groups[1].memtable_applied);
  EXPECT_EQ(!in_memtable, groups[2].published);
  EXPECT_FALSE(in_memtable && groups[2].memtable_applied);
  EXPECT_EQ(0u, env.pending());
}

INSTANTIATE_TEST_SUITE_P(Steps, WriteThreadPipelinedFailureTest,
                         testing::Values(CommitStep::kPrepare, CommitStep::kWAL,
                                         CommitStep::kMemTable));

}  // namespace
}  // namespace strata
