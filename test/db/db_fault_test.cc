// Power loss and I/O failures, through FaultInjectionEnv: after unsynced
// data is dropped, every sync=true write survives and the DB holds a
// prefix of the write history; a failed WAL write stops writes with an
// error and loses nothing acknowledged.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"
#include "util/random.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

class DBFaultTest : public testing::TestWithParam<size_t> {
 protected:
  DBFaultTest()
      : base_(NewMemEnv(Env::Default())), env_(base_.get()), h_(&env_) {
    h_.options().write_buffer_size = GetParam();
  }

  // Simulates a power loss: the process dies (the DB is closed without
  // syncing) and the machine keeps only what was synced.
  void PowerLoss() {
    h_.Close();
    ASSERT_TRUE(env_.DropUnsyncedFileData().ok());
    ASSERT_TRUE(env_.DeleteFilesCreatedAfterLastDirSync().ok());
    env_.ResetState();
  }

  std::unique_ptr<Env> base_;
  test::FaultInjectionEnv env_;
  test::DBHolder h_;
};

TEST_P(DBFaultTest, SyncedWritesSurviveAndStateIsAPrefix) {
  Random rnd(static_cast<uint32_t>(GetParam()));
  for (int round = 0; round < 4; round++) {
    ASSERT_TRUE(h_.Open().ok());
    // history[i] = the model after i writes of this round.
    std::vector<Model> history{h_.Contents()};
    size_t last_synced = 0;
    const int writes = 300 + rnd.Uniform(300);
    for (int i = 0; i < writes; i++) {
      WriteOptions wo;
      wo.sync = rnd.OneIn(25);
      const std::string k = "k" + std::to_string(rnd.Uniform(100));
      Model next = history.back();
      if (rnd.OneIn(5)) {
        ASSERT_TRUE(h_.db()->Delete(wo, k).ok());
        next.erase(k);
      } else {
        const std::string v = std::string(rnd.Uniform(300), 'x') +
                              std::to_string(round * 1000 + i);
        ASSERT_TRUE(h_.db()->Put(wo, k, v).ok());
        next[k] = v;
      }
      history.push_back(next);
      if (wo.sync) last_synced = history.size() - 1;
    }
    if (rnd.OneIn(2)) {
      ASSERT_TRUE(h_.db()->SyncWAL().ok());
      last_synced = history.size() - 1;
    }
    PowerLoss();
    ASSERT_TRUE(h_.Open().ok());
    const Model recovered = h_.Contents();
    size_t match = history.size();
    for (size_t i = last_synced; i < history.size(); i++) {
      if (history[i] == recovered) {
        match = i;
        break;
      }
    }
    ASSERT_LT(match, history.size())
        << "round " << round << ": the recovered state is not the state "
        << "after any prefix at or beyond the last synced write ("
        << last_synced << " of " << history.size() - 1 << ")";
    h_.Close();
  }
}

TEST_P(DBFaultTest, FailedWALWriteStopsWritesAndLosesNothingAcknowledged) {
  ASSERT_TRUE(h_.Open().ok());
  Model model;
  for (int i = 0; i < 50; i++) {
    const std::string k = "k" + std::to_string(i);
    ASSERT_TRUE(h_.Put(k, "v").ok());
    model[k] = "v";
  }
  env_.FailAll(test::IOKind::kWrite, Status::IOError("injected"));
  Status s = h_.Put("failed", "x");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  env_.ClearFailures();
  // The WAL may end in a partial record: later writes are refused.
  s = h_.Put("after", "y");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(model["k3"], h_.Get("k3"));  // reads still work
  ASSERT_TRUE(h_.Reopen().ok());
  Model recovered = h_.Contents();
  recovered.erase("failed");  // unacknowledged: may or may not be there
  EXPECT_EQ(model, recovered);
  ASSERT_TRUE(h_.Put("after", "y").ok());
  EXPECT_EQ("y", h_.Get("after"));
}

TEST_P(DBFaultTest, FailedSyncIsReported) {
  ASSERT_TRUE(h_.Open().ok());
  env_.FailAll(test::IOKind::kSync, Status::IOError("injected sync"));
  WriteOptions wo;
  wo.sync = true;
  Status s = h_.db()->Put(wo, "k", "v");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(h_.db()->SyncWAL().IsIOError());
  env_.ClearFailures();
}

TEST_P(DBFaultTest, ReadErrorFailsOpenInEveryMode) {
  ASSERT_TRUE(h_.Open().ok());
  ASSERT_TRUE(h_.Put("k", "v").ok());
  h_.Close();
  for (WALRecoveryMode mode : {WALRecoveryMode::kTolerateCorruptedTailRecords,
                               WALRecoveryMode::kAbsoluteConsistency,
                               WALRecoveryMode::kPointInTimeRecovery,
                               WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    h_.options().wal_recovery_mode = mode;
    env_.FailAll(test::IOKind::kRead, Status::IOError("injected read"));
    Status s = h_.Open();
    env_.ClearFailures();
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_EQ(nullptr, h_.db());
  }
  ASSERT_TRUE(h_.Open().ok());
  EXPECT_EQ("v", h_.Get("k"));
}

INSTANTIATE_TEST_SUITE_P(WriteBufferSizes, DBFaultTest,
                         testing::Values(size_t{64} << 20, size_t{64} << 10));

}  // namespace
}  // namespace strata
