// Group commit of synced writes against FakeCommitEnv: the leader of a
// synced group waits, bounded, for the writers the last sync released, so
// that they share its sync. The fake's clock makes each sync "take" a set
// time, which bounds the wait at half of it; the tests order the writers
// with the runner's hold and join callbacks, never with sleeps.

#include <cstddef>
#include <memory>
#include <vector>

#include "db/write_thread.h"
#include "gtest/gtest.h"
#include "test/db/fake_commit_env.h"
#include "test/db/write_thread_runner.h"

namespace strata {
namespace {

using Writer = WriteThread::Writer;

// Long enough that only a writer arriving can end a wait within a test.
constexpr uint64_t kForever = uint64_t{1000} * 1000 * 1000;

WriteOptions Synced() {
  WriteOptions options;
  options.sync = true;
  return options;
}

WriteThread::Options WithGather(WriteThread::Options options,
                                uint64_t max_usec) {
  options.max_sync_gather_usec = max_usec;
  return options;
}

// The members of every group the env saw, as writer numbers of run.
std::vector<std::vector<int>> GroupsOf(WriterRun& run) {
  std::vector<std::vector<int>> result;
  for (const GroupRecord& g : run.env().groups()) {
    std::vector<int> members;
    for (const Writer* w : g.members) members.push_back(run.IndexOf(w));
    result.push_back(members);
  }
  return result;
}

class WriteThreadGatherTest
    : public testing::TestWithParam<WriteThread::Options (*)()> {
 protected:
  WriteThread::Options Options(uint64_t max_usec) const {
    return WithGather(GetParam()(), max_usec);
  }
};

WriteThread::Options SerialOptions() { return WriteThread::Options(); }

// Writer 0 syncs alone while 1 and 2 queue; when 0 comes back (as writer
// 3, the same thread's next write in a closed loop) the group 1 leads
// waits for it, and the three share one sync. Writer 3 starts only once
// that leader waits, so without the wait it could not be in the group.
TEST_P(WriteThreadGatherTest, ReturningWriterJoinsTheNextSync) {
  WriterRun run(Options(kForever));
  Counter gathers;
  run.thread().TEST_SetGatherCallback(gathers.Callback());
  run.env().set_sync_micros(kForever);
  for (int i = 0; i < 4; i++) run.Add(BatchWithPuts(1), Synced());
  run.StartQueued(3);
  run.Release();
  ASSERT_TRUE(gathers.WaitFor(1));
  ASSERT_TRUE(run.WaitReturned(0));
  run.Start(3);
  run.JoinAll();
  EXPECT_EQ((std::vector<std::vector<int>>{{0}, {1, 2, 3}}), GroupsOf(run));
  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
  }
  EXPECT_EQ(2u, run.env().published().size());
}

// Three synced writers, each sync taking sync_micros on the fake clock:
// writer 0 is to sync alone while writers 1 and 2 queue behind it, and
// writer 0 does not write again.
void AddOneSyncAndTwoBehind(WriterRun& run, uint64_t sync_micros) {
  run.env().set_sync_micros(sync_micros);
  for (int i = 0; i < 3; i++) run.Add(BatchWithPuts(1), Synced());
}

// After AddOneSyncAndTwoBehind: 1 and 2 committed together without
// writer 0, every write succeeding.
void ExpectTwoCommittedWithoutTheFirst(WriterRun& run) {
  EXPECT_EQ((std::vector<std::vector<int>>{{0}, {1, 2}}), GroupsOf(run));
  for (size_t i = 0; i < run.size(); i++) {
    EXPECT_TRUE(run.writer(i).status.ok()) << i;
  }
}

// After AddOneSyncAndTwoBehind, on a stopped fake clock that the test
// moves: the leader of 1 and 2 waits for writer 0, is still waiting one
// microsecond before `window` has passed since writer 0's sync ended, and
// goes on without it once the window has passed. The clock moves only
// when the test moves it, so a slow machine cannot end the wait early.
void ExpectWaitEndsAfter(WriterRun& run, uint64_t sync_micros,
                         uint64_t window) {
  Counter gathers;
  Counter ends;
  run.thread().TEST_SetGatherCallback(gathers.Callback());
  run.thread().TEST_SetGatherEndCallback(ends.Callback());
  run.env().StopClock();
  AddOneSyncAndTwoBehind(run, sync_micros);
  run.StartQueued();
  run.Release();
  EXPECT_TRUE(gathers.WaitFor(1));
  run.env().AdvanceMicros(window - 1);
  // Only the leader reads the clock now, waiting or not. It reads it
  // twice after the advance either way: in its wait, or once there and
  // then for its own sync's time after ending the wait.
  Counter& reads = run.env().clock_reads();
  EXPECT_TRUE(reads.WaitFor(reads.value() + 2));
  EXPECT_EQ(0, ends.value());
  run.env().AdvanceMicros(1);
  run.JoinAll();
  ExpectTwoCommittedWithoutTheFirst(run);
  EXPECT_EQ(1, gathers.value());
  EXPECT_EQ(1, ends.value());
}

// When the released writer does not write again, the wait ends at half
// the last sync's time and the group goes without it.
TEST_P(WriteThreadGatherTest, WaitEndsAtHalfTheSyncTime) {
  WriterRun run(Options(kForever));
  ExpectWaitEndsAfter(run, 3000, 1500);
}

// The option bounds the wait below half the sync time.
TEST_P(WriteThreadGatherTest, WaitEndsAtTheOption) {
  WriterRun run(Options(700));
  ExpectWaitEndsAfter(run, kForever, 700);
}

// Off (0), the option never makes a leader wait, however long the sync.
TEST_P(WriteThreadGatherTest, ZeroTurnsTheWaitOff) {
  WriterRun run(Options(0));
  Counter gathers;
  run.thread().TEST_SetGatherCallback(gathers.Callback());
  AddOneSyncAndTwoBehind(run, kForever);
  run.RunQueued();
  ExpectTwoCommittedWithoutTheFirst(run);
  EXPECT_EQ(0, gathers.value());
}

// A lone synced writer is the whole of its last group: it never waits for
// itself (it would wait "forever" here and its second write not return).
TEST_P(WriteThreadGatherTest, LoneWriterDoesNotWait) {
  WriterRun run(Options(kForever));
  run.env().set_sync_micros(kForever);
  run.Add(BatchWithPuts(1), Synced());
  run.Add(BatchWithPuts(1), Synced());
  run.Start(0);
  ASSERT_TRUE(run.WaitReturned(0));
  run.Start(1);
  ASSERT_TRUE(run.WaitReturned(1));
  run.JoinAll();
  EXPECT_EQ((std::vector<std::vector<int>>{{0}, {1}}), GroupsOf(run));
}

// Only a synced leader waits: unsynced writers queued behind a synced
// group go on without the writer it released.
TEST_P(WriteThreadGatherTest, UnsyncedLeaderDoesNotWait) {
  WriterRun run(Options(kForever));
  Counter gathers;
  run.thread().TEST_SetGatherCallback(gathers.Callback());
  run.env().set_sync_micros(kForever);
  run.Add(BatchWithPuts(1), Synced());
  run.Add(BatchWithPuts(1));
  run.Add(BatchWithPuts(1));
  run.RunQueued();
  EXPECT_EQ((std::vector<std::vector<int>>{{0}, {1, 2}}), GroupsOf(run));
  EXPECT_EQ(0, gathers.value());
}

// A synced group of more than four is completed through a few of its
// members (each completes a share of the others): every member returns,
// with the group's status, whether it succeeded or failed.
TEST_P(WriteThreadGatherTest, LargeSyncedGroupCompletesEveryMember) {
  for (bool fail : {false, true}) {
    WriterRun run(Options(0));
    if (fail) run.env().FailGroup(1, CommitStep::kWAL);
    for (int i = 0; i < 11; i++) run.Add(BatchWithPuts(1), Synced());
    run.RunQueued();
    std::vector<int> members;
    for (int i = 1; i < 11; i++) members.push_back(i);
    ASSERT_EQ((std::vector<std::vector<int>>{{0}, members}), GroupsOf(run));
    EXPECT_TRUE(run.writer(0).status.ok());
    for (size_t i = 1; i < run.size(); i++) {
      EXPECT_EQ(fail, run.writer(i).status.IsIOError()) << i;
      EXPECT_EQ(fail, !run.writer(i).status.ok()) << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, WriteThreadGatherTest,
                         testing::Values(&SerialOptions, &ParallelOptions,
                                         &PipelinedOptions, &UnorderedOptions,
                                         &SnapshotSafeOptions));

}  // namespace
}  // namespace strata
