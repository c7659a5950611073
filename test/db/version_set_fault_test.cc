// VersionSet under failures: crash safety with injected I/O failures and
// power loss, failed writes, refused edits, live files of held versions,
// concurrent LogAndApply calls.

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "db/version_set.h"
#include "gtest/gtest.h"
#include "test/db/version_set_test_util.h"

namespace strata {
namespace test {
namespace {

class VersionSetFaultTest : public VersionSetTest {};

// Power loss after every LogAndApply that returned OK, and an I/O failure
// at each point of the next one followed by a power loss: recovery gives
// every acknowledged edit, and the failed one either wholly or not at all.
TEST_P(VersionSetFaultTest, CrashSafety) {
  int failed_runs = 0;
  // Real fsyncs are slow: every third I/O point on the default Env.
  const uint64_t step = GetParam() ? 1 : 3;
  for (uint64_t fail_at = 1; fail_at < 60; fail_at += step) {
    SCOPED_TRACE("fail_at " + NumberToString(fail_at));
    ASSERT_TRUE(RemoveRecursively(env_.get(), dir_).ok());
    ASSERT_TRUE(env_->CreateDirIfMissing(dir_).ok());
    SyncDir();
    env_->ResetState();
    EditGenerator gen(static_cast<uint32_t>(fail_at));
    Model acked, attempted;
    {
      auto vs = NewSet(/*max_manifest=*/400);
      for (int i = 0; i < 12; i++) {
        attempted = acked;
        VersionEdit edit = gen.Next(vs.get(), &attempted);
        if (i == 8) env_->FailNthIO(fail_at, Status::IOError("injected"));
        Status s = Apply(vs.get(), &edit);
        if (!s.ok()) {
          failed_runs++;
          break;
        }
        acked = attempted;
        ASSERT_EQ(acked, StateOf(vs.get()));
      }
      env_->ClearFailures();
      env_->SetFilesystemActive(false);  // the process dies
    }
    ASSERT_TRUE(env_->DropUnsyncedFileData().ok());
    ASSERT_TRUE(env_->DeleteFilesCreatedAfterLastDirSync().ok());
    env_->ResetState();
    env_->SetFilesystemActive(true);
    auto vs = NewSet();
    Status s = Recover(vs.get());
    ASSERT_TRUE(s.ok()) << s.ToString();
    const Model recovered = StateOf(vs.get());
    EXPECT_TRUE(recovered == acked || recovered == attempted);
  }
  EXPECT_GT(failed_runs, 5);  // the failures did hit LogAndApply
}

// A failed write leaves the old version current; the next LogAndApply
// starts a new MANIFEST that does not hold the failed edit.
TEST_P(VersionSetFaultTest, FailedWriteKeepsOldVersion) {
  Model model;
  EditGenerator gen(5);
  auto vs = NewSet();
  VersionEdit edit = gen.Next(vs.get(), &model);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  const Model before = model;
  const uint64_t manifest = vs->ManifestFileNumber();
  Version* v = vs->current();

  Model lost = model;
  VersionEdit failing;
  failing.AddFile(1, vs->NewFileNumber(), 5, InternalKey("x", 1, kTypeValue),
                  InternalKey("y", 1, kTypeValue), 1, 1);
  env_->FailAll(IOKind::kSync, Status::IOError("sync failed"));
  Status s = Apply(vs.get(), &failing);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(v, vs->current());
  EXPECT_EQ(before, StateOf(vs.get()));
  env_->ClearFailures();

  edit = gen.Next(vs.get(), &model);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  EXPECT_GT(vs->ManifestFileNumber(), manifest);
  vs.reset();
  vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(model, StateOf(vs.get()));
}

// An edit the builder refuses changes nothing, on disk or in memory.
TEST_P(VersionSetFaultTest, InvalidEditRejected) {
  auto vs = NewSet();
  VersionEdit edit;
  edit.AddFile(1, vs->NewFileNumber(), 5, InternalKey("a", 1, kTypeValue),
               InternalKey("b", 1, kTypeValue), 1, 1);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  const Model before = StateOf(vs.get());
  VersionEdit bad;
  bad.RemoveFile(2, 12345);
  EXPECT_TRUE(Apply(vs.get(), &bad).IsCorruption());
  VersionEdit old_log;
  old_log.SetLogNumber(vs->NextFileNumberPeek() + 10);
  EXPECT_TRUE(Apply(vs.get(), &old_log).IsInvalidArgument());
  EXPECT_EQ(before, StateOf(vs.get()));
  VersionEdit good;
  good.SetLogNumber(vs->NewFileNumber());
  ASSERT_TRUE(Apply(vs.get(), &good).ok());
  const uint64_t log_number = vs->LogNumber();
  VersionEdit back;
  back.SetLogNumber(log_number - 1);
  EXPECT_TRUE(Apply(vs.get(), &back).IsInvalidArgument());
  vs.reset();
  vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(before, StateOf(vs.get()));
  EXPECT_EQ(log_number, vs->LogNumber());
  EXPECT_EQ("files[ 0 1 0 0 0 ]", vs->LevelSummary());
  EXPECT_EQ(1, vs->NumLevelFiles(1));
  EXPECT_EQ(5u, vs->NumLevelBytes(1));
}

// A version a reader holds keeps its files live after newer versions
// dropped them.
TEST_P(VersionSetFaultTest, ReferencedVersionsKeepFilesLive) {
  auto vs = NewSet();
  const uint64_t a = vs->NewFileNumber(), b = vs->NewFileNumber();
  VersionEdit edit;
  edit.AddFile(0, a, 5, InternalKey("a", 1, kTypeValue),
               InternalKey("b", 1, kTypeValue), 1, 1);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  Version* held;
  {
    MutexLock l(&mu_);
    held = vs->current();
    held->Ref();  // as an iterator would
  }
  edit.Clear();
  edit.RemoveFile(0, a);
  edit.AddFile(1, b, 5, InternalKey("a", 1, kTypeValue),
               InternalKey("b", 1, kTypeValue), 1, 1);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  std::vector<uint64_t> live;
  vs->AddLiveFiles(&live);
  std::sort(live.begin(), live.end());
  EXPECT_EQ((std::vector<uint64_t>{a, b}), live);
  {
    MutexLock l(&mu_);
    held->Unref();
  }
  live.clear();
  vs->AddLiveFiles(&live);
  EXPECT_EQ((std::vector<uint64_t>{b}), live);
}

// LogAndApply from several threads: the calls queue up, all land.
TEST_P(VersionSetFaultTest, ConcurrentLogAndApply) {
  Model model;
  port::Mutex model_mu;
  {
    auto vs = NewSet(/*max_manifest=*/2000);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; t++) {
      threads.emplace_back([&, t]() {
        for (int i = 0; i < 25; i++) {
          const uint64_t number = vs->NewFileNumber();
          const std::string key = "t" + NumberToString(number);
          VersionEdit edit;
          FileMetaData f;
          f.number = number;
          f.file_size = t;
          f.smallest = InternalKey(key + "a", 1, kTypeValue);
          f.largest = InternalKey(key + "b", 1, kTypeValue);
          f.smallest_seqno = f.largest_seqno = 1;
          edit.AddFile(t + 1, f);
          ASSERT_TRUE(Apply(vs.get(), &edit).ok());
          MutexLock l(&model_mu);
          model[number] = {t + 1, Describe(f)};
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(model, StateOf(vs.get()));
  }
  auto vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(model, StateOf(vs.get()));
}

INSTANTIATE_TEST_SUITE_P(Envs, VersionSetFaultTest,
                         testing::Values(true, false),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "MemEnv" : "DefaultEnv";
                         });

}  // namespace
}  // namespace test
}  // namespace strata
