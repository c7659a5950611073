// Recovery without reopening (docs/reliability.md): a background error
// stops what its severity says (db/error_handler.h), reads go on, and
// DB::Resume() -- or, for a retryable error, the automatic retries --
// clears it once the interrupted work succeeds, with nothing acknowledged
// lost, before or after. Failures come from FaultInjectionEnv; table
// writes are held at a gate so that a test fails a flush and not the WAL.
//
// The automatic retries run every few milliseconds here; a test waits for
// them with a bounded poll (a deadline for correctness, not a timing).

#include <atomic>
#include <map>
#include <memory>
#include <string>

#include "db/error_handler.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/io_status.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

// Counts the table files created (a flush or compaction attempt each).
class TableCountEnv : public EnvWrapper {
 public:
  explicit TableCountEnv(Env* target) : EnvWrapper(target) {}
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    if (f.size() > 4 && f.compare(f.size() - 4, 4, ".sst") == 0) tables_++;
    return EnvWrapper::NewWritableFile(f, r, options);
  }
  int tables() const { return tables_.load(); }

 private:
  std::atomic<int> tables_{0};
};

// Polls pred every millisecond for up to 60 s; its last answer.
template <typename Pred>
bool WaitFor(Pred pred) {
  for (int i = 0; i < 60000; i++) {
    if (pred()) return true;
    Env::Default()->SleepForMicroseconds(1000);
  }
  return pred();
}

class DBResumeTest : public testing::Test {
 protected:
  DBResumeTest()
      : base_(NewMemEnv(Env::Default())),
        fault_(base_.get()),
        gate_(&fault_),
        count_(&gate_),
        h_(&count_) {
    // Tests that want automatic retries turn them on.
    h_.options().max_bgerror_resume_count = 0;
    h_.options().bgerror_resume_retry_interval = 5000;
  }

  void Put(const std::string& k, const std::string& v) {
    ASSERT_TRUE(h_.Put(k, v).ok()) << k;
    model_[k] = v;
  }
  void PutSome(const std::string& prefix, int n) {
    for (int i = 0; i < n; i++) Put(prefix + std::to_string(i), "v" + prefix);
  }

  // Makes the next flush fail with failure: the memtable is retired, the
  // flush held at the gate, its table writes set to fail, and the flush
  // let go. Returns what a waiting Flush reports.
  Status FailFlush(const Status& failure) {
    return test::FailNextFlush(h_.db(), &gate_, &fault_, failure);
  }

  // Writes fail with the background error; reads see everything.
  void ExpectStoppedButReadable(Status::Severity severity) {
    Status s = h_.Put("refused", "x");
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(severity, s.severity()) << s.ToString();
    EXPECT_EQ(model_, h_.Contents());
    for (const auto& kv : model_) {
      ASSERT_EQ(kv.second, h_.Get(kv.first)) << kv.first;
    }
  }

  // A flush fails with failure, which the DB does not retry on its own
  // within 20 retry intervals; Resume() then clears it.
  void ExpectOnlyResumeClears(const Status& failure) {
    ASSERT_TRUE(h_.Open().ok());
    PutSome("before", 50);
    const int tables = count_.tables();
    const Status s = FailFlush(failure);
    EXPECT_EQ(failure.code(), s.code()) << s.ToString();
    fault_.ClearFailures();
    Env::Default()->SleepForMicroseconds(100000);
    EXPECT_EQ(tables + 1, count_.tables());
    ExpectStoppedButReadable(Status::kHardError);
    ASSERT_TRUE(h_.db()->Resume().ok());
    ExpectWorkingAndKept();
  }

  // Polls until a write succeeds: the automatic retries cleared the
  // error.
  void AwaitWritable() {
    ASSERT_TRUE(WaitFor([&] { return h_.Put("probe", "p").ok(); }));
    model_["probe"] = "p";
  }

  // Writes work again, and everything acknowledged is there after a
  // reopen.
  void ExpectWorkingAndKept() {
    PutSome("after", 20);
    EXPECT_EQ(model_, h_.Contents());
    ASSERT_TRUE(h_.Reopen().ok());
    EXPECT_EQ(model_, h_.Contents());
    PutSome("reopened", 5);
  }

  std::unique_ptr<Env> base_;
  test::FaultInjectionEnv fault_;
  test::TableGateEnv gate_;
  TableCountEnv count_;
  test::DBHolder h_;
  Model model_;
};

TEST(ErrorHandlerTest, ClassifyGradesAsDocumented) {
  using R = BackgroundErrorReason;
  IOStatus retryable = IOStatus::IOError("flaky");
  retryable.SetRetryable(true);
  struct Case {
    R reason;
    Status status;
    Status::Severity severity;
    bool retryable;
  } cases[] = {
      {R::kCompaction, Status::NoSpace("full"), Status::kSoftError, true},
      {R::kCompaction, retryable, Status::kSoftError, true},
      {R::kCompaction, Status::IOError("x"), Status::kHardError, false},
      {R::kCompaction, Status::Corruption("x"), Status::kUnrecoverableError,
       false},
      {R::kFlush, Status::NoSpace("full"), Status::kHardError, true},
      {R::kFlush, retryable, Status::kHardError, true},
      {R::kFlush, Status::IOError("x"), Status::kHardError, false},
      {R::kFlush, Status::Corruption("x"), Status::kUnrecoverableError, false},
      {R::kFlush, Status::InvalidArgument("x"), Status::kFatalError, false},
      {R::kFlush, Status::NotSupported("x"), Status::kFatalError, false},
      {R::kFlush, Status::Busy("held"), Status::kHardError, true},
      {R::kCompaction, Status::Busy("held"), Status::kSoftError, true},
      {R::kWriteCallback, Status::Busy("held"), Status::kHardError, true},
      {R::kWriteCallback, Status::NoSpace("full"), Status::kHardError, true},
      {R::kWriteCallback, Status::IOError("x"), Status::kHardError, false},
      {R::kMemTable, Status::NoSpace("x"), Status::kFatalError, false},
      {R::kMemTable, Status::Corruption("x"), Status::kUnrecoverableError,
       false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.status.ToString());
    SCOPED_TRACE(static_cast<int>(c.reason));
    bool retry = !c.retryable;
    EXPECT_EQ(c.severity, ErrorHandler::Classify(c.reason, c.status, &retry));
    EXPECT_EQ(c.retryable, retry);
  }
  // The mark survives copies and the trip through Status.
  Status plain = retryable;
  EXPECT_TRUE(status_to_io_status(Status(plain)).GetRetryable());
  EXPECT_FALSE(status_to_io_status(Status::IOError("x")).GetRetryable());
  EXPECT_EQ(Status::kHardError, Status(plain, Status::kHardError).severity());
}

TEST_F(DBResumeTest, ResumeOnAHealthyDBAndAfterClose) {
  ASSERT_TRUE(h_.Open().ok());
  EXPECT_TRUE(h_.db()->Resume().ok());
  PutSome("k", 3);
  EXPECT_TRUE(h_.db()->Resume().ok());
  ASSERT_TRUE(h_.db()->Close().ok());
  Status s = h_.db()->Resume();
  EXPECT_TRUE(s.IsShutdownInProgress()) << s.ToString();
}

TEST_F(DBResumeTest, FlushNoSpaceStopsWritesUntilResume) {
  ASSERT_TRUE(h_.Open().ok());
  PutSome("before", 50);
  Status s = FailFlush(Status::NoSpace("injected"));
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  ExpectStoppedButReadable(Status::kHardError);
  EXPECT_TRUE(h_.Put("refused", "x").IsNoSpace());
  // The device is still full: the retry fails and the DB stays stopped.
  s = h_.db()->Resume();
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  ExpectStoppedButReadable(Status::kHardError);
  fault_.ClearFailures();
  s = h_.db()->Resume();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(h_.db()->Resume().ok());  // healthy now
  ExpectWorkingAndKept();
}

TEST_F(DBResumeTest, FlushNoSpaceRecoversAutomatically) {
  h_.options().max_bgerror_resume_count = 1 << 30;
  ASSERT_TRUE(h_.Open().ok());
  PutSome("before", 50);
  const int tables = count_.tables();
  EXPECT_TRUE(FailFlush(Status::NoSpace("injected")).IsNoSpace());
  // The retries keep failing while the device is full...
  ASSERT_TRUE(WaitFor([&] { return count_.tables() >= tables + 3; }));
  ExpectStoppedButReadable(Status::kHardError);
  // ...and one succeeds once it is not.
  fault_.ClearFailures();
  AwaitWritable();
  EXPECT_TRUE(h_.db()->Resume().ok());
  ExpectWorkingAndKept();
}

TEST_F(DBResumeTest, RetryableIOErrorRecoversAutomatically) {
  h_.options().max_bgerror_resume_count = 1 << 30;
  ASSERT_TRUE(h_.Open().ok());
  PutSome("before", 50);
  IOStatus flaky = IOStatus::IOError("injected, retryable");
  flaky.SetRetryable(true);
  Status s = FailFlush(flaky);
  EXPECT_TRUE(s.IsIOError() && !s.IsNoSpace()) << s.ToString();
  ExpectStoppedButReadable(Status::kHardError);
  fault_.ClearFailures();
  AwaitWritable();
  ExpectWorkingAndKept();
}

TEST_F(DBResumeTest, PlainIOErrorWaitsForResume) {
  h_.options().max_bgerror_resume_count = 1 << 30;
  ExpectOnlyResumeClears(Status::IOError("injected"));  // not retryable
}

TEST_F(DBResumeTest, ZeroResumeCountMeansNoAutomaticRetry) {
  ExpectOnlyResumeClears(Status::NoSpace("injected"));
}

TEST_F(DBResumeTest, AutomaticRetriesStopAtTheCount) {
  h_.options().max_bgerror_resume_count = 2;
  ASSERT_TRUE(h_.Open().ok());
  PutSome("before", 50);
  const int tables = count_.tables();
  EXPECT_TRUE(FailFlush(Status::NoSpace("injected")).IsNoSpace());
  ASSERT_TRUE(WaitFor([&] { return count_.tables() >= tables + 3; }));
  Env::Default()->SleepForMicroseconds(100000);
  EXPECT_EQ(tables + 3, count_.tables());  // the flush and two retries
  fault_.ClearFailures();
  Env::Default()->SleepForMicroseconds(50000);
  ExpectStoppedButReadable(Status::kHardError);
  ASSERT_TRUE(h_.db()->Resume().ok());
  ExpectWorkingAndKept();
}

TEST_F(DBResumeTest, CorruptionNeedsAReopen) {
  h_.options().max_bgerror_resume_count = 1 << 30;
  ASSERT_TRUE(h_.Open().ok());
  PutSome("before", 50);
  EXPECT_TRUE(FailFlush(Status::Corruption("injected")).IsCorruption());
  fault_.ClearFailures();
  ExpectStoppedButReadable(Status::kUnrecoverableError);
  Status s = h_.db()->Resume();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(Status::kUnrecoverableError, s.severity());
  ExpectStoppedButReadable(Status::kUnrecoverableError);
  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ(model_, h_.Contents());
  ExpectWorkingAndKept();
}

// A failed WAL sync is not retryable: the DB stays stopped until Resume,
// which moves every acknowledged write into synced tables through a new
// WAL -- so even a power loss right after it loses none of them.
TEST_F(DBResumeTest, FailedWALSyncStaysUntilResumeAndLosesNothing) {
  h_.options().max_bgerror_resume_count = 1 << 30;
  ASSERT_TRUE(h_.Open().ok());
  PutSome("unsynced", 30);
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  PutSome("memtable", 30);
  fault_.FailAll(test::IOKind::kSync, Status::IOError("injected sync"));
  WriteOptions sync;
  sync.sync = true;
  Status s = h_.db()->Put(sync, "failed", "x");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  fault_.ClearFailures();
  Env::Default()->SleepForMicroseconds(50000);
  // The unacknowledged write may be seen (its record reached the WAL) or
  // not; every acknowledged one is.
  Model seen = h_.Contents();
  seen.erase("failed");
  EXPECT_EQ(model_, seen);
  s = h_.Put("refused", "x");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(Status::kHardError, s.severity());
  // Still failing: Resume fails, and the DB stays stopped.
  fault_.FailAll(test::IOKind::kSync, Status::IOError("injected sync"));
  EXPECT_FALSE(h_.db()->Resume().ok());
  EXPECT_FALSE(h_.Put("refused", "x").ok());
  fault_.ClearFailures();
  s = h_.db()->Resume();
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(h_.db()->Put(sync, "synced after", "y").ok());
  model_["synced after"] = "y";
  // A power loss: only what was synced stays.
  h_.Close();
  ASSERT_TRUE(fault_.DropUnsyncedFileData().ok());
  ASSERT_TRUE(fault_.DeleteFilesCreatedAfterLastDirSync().ok());
  fault_.ResetState();
  ASSERT_TRUE(h_.Open().ok());
  Model recovered = h_.Contents();
  recovered.erase("failed");
  EXPECT_EQ(model_, recovered);
  ExpectWorkingAndKept();
}

class DBResumeWriteModeTest : public DBResumeTest,
                              public testing::WithParamInterface<int> {};

TEST_P(DBResumeWriteModeTest, FailedWALWriteResumesThroughANewWAL) {
  h_.options().enable_pipelined_write = GetParam() == 1;
  h_.options().unordered_write = GetParam() == 2;
  ASSERT_TRUE(h_.Open().ok());
  PutSome("before", 100);
  fault_.FailAll(test::IOKind::kWrite, Status::IOError("injected"));
  Status s = h_.Put("failed", "x");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  fault_.ClearFailures();
  // The WAL may end in a partial record: nothing is appended to it.
  EXPECT_FALSE(h_.Put("refused", "x").ok());
  s = h_.db()->Resume();
  ASSERT_TRUE(s.ok()) << s.ToString();
  Model seen = h_.Contents();
  EXPECT_EQ(0u, seen.count("failed"));  // not in a memtable
  PutSome("after", 100);
  EXPECT_EQ(model_, h_.Contents());
  // The failed WAL is behind every family's log number: a reopen does not
  // read it (its partial record with intact writes after it would fail
  // the open).
  ASSERT_TRUE(h_.Reopen().ok());
  Model recovered = h_.Contents();
  recovered.erase("failed");
  EXPECT_EQ(model_, recovered);
  ExpectWorkingAndKept();
}

INSTANTIATE_TEST_SUITE_P(Modes, DBResumeWriteModeTest,
                         testing::Values(0, 1, 2));

// A Close after a failed WAL write (no Resume) drops what the failed
// write left in the WAL's buffer: written out at the close, the write that
// failed would come back at the reopen.
TEST_F(DBResumeTest, CloseAfterAFailedWALWriteDropsTheFailedWrite) {
  ASSERT_TRUE(h_.Open().ok());
  PutSome("before", 100);
  fault_.FailAll(test::IOKind::kWrite, Status::IOError("injected"));
  EXPECT_TRUE(h_.Put("failed", "x").IsIOError());
  fault_.ClearFailures();
  h_.Close();
  ASSERT_TRUE(h_.Open().ok());
  // Everything acknowledged, nothing else.
  EXPECT_EQ(model_, h_.Contents());
  ExpectWorkingAndKept();
}

// A Resume that switched to a new WAL and then could not flush leaves the
// failed WAL live, named by the new one's predecessor record with its
// length as of its last complete record: a reopen now (a crash) replays
// it and opens, losing nothing acknowledged.
TEST_F(DBResumeTest, ReopenAfterAResumeThatSwitchedButCouldNotFlush) {
  ASSERT_TRUE(h_.Open().ok());
  PutSome("before", 100);
  fault_.FailAll(test::IOKind::kWrite, Status::IOError("injected"));
  EXPECT_TRUE(h_.Put("failed", "x").IsIOError());
  fault_.ClearFailures();
  fault_.FailAll(test::IOKind::kSync, Status::IOError("injected sync"));
  Status s = h_.db()->Resume();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  fault_.ClearFailures();
  ExpectStoppedButReadable(Status::kHardError);
  s = h_.Reopen();
  ASSERT_TRUE(s.ok()) << s.ToString();
  // The failed WAL was closed with its buffer dropped: the failed write's
  // record, which only the buffer held, never reached it.
  EXPECT_EQ(model_, h_.Contents());
  ExpectWorkingAndKept();
}

// A compaction's NoSpace is soft: writes go on; compactions wait for a
// retry (Resume here; the automatic one below).
TEST_F(DBResumeTest, CompactionNoSpaceDoesNotStopWrites) {
  h_.options().disable_auto_compactions = true;
  ASSERT_TRUE(h_.Open().ok());
  for (int i = 0; i < 3; i++) {
    PutSome("t" + std::to_string(i) + "-", 30);
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }
  fault_.FailAll(test::IOKind::kWrite, Status::NoSpace("injected"));
  Status s = h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  fault_.ClearFailures();
  PutSome("while soft", 30);
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  EXPECT_EQ(model_, h_.Contents());
  s = h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_EQ(Status::kSoftError, s.severity());
  ASSERT_TRUE(h_.db()->Resume().ok());
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  uint64_t l0 = 1;
  ASSERT_TRUE(h_.db()->GetIntProperty("strata.num-files-at-level0", &l0));
  EXPECT_EQ(0u, l0);
  ExpectWorkingAndKept();
}

TEST_F(DBResumeTest, CompactionNoSpaceIsRetriedAutomatically) {
  h_.options().disable_auto_compactions = true;
  h_.options().max_bgerror_resume_count = 1 << 30;
  ASSERT_TRUE(h_.Open().ok());
  for (int i = 0; i < 3; i++) {
    PutSome("t" + std::to_string(i) + "-", 30);
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }
  fault_.FailAll(test::IOKind::kWrite, Status::NoSpace("injected"));
  EXPECT_TRUE(h_.db()
                  ->CompactRange(CompactRangeOptions(), nullptr, nullptr)
                  .IsNoSpace());
  fault_.ClearFailures();
  PutSome("while soft", 30);
  ASSERT_TRUE(WaitFor([&] {
    return h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok();
  }));
  ExpectWorkingAndKept();
}

}  // namespace
}  // namespace strata
