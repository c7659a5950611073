// Close: it reports the first error met while closing (a failed flush of
// the writes made without the WAL is not hidden behind the WAL's clean
// close, nor is the earlier error that keeps them from a table), a later
// Close reports the same, and what the WAL holds survives a close that
// failed.

#include <atomic>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

// Fails the creation of table files while failing_ is set.
class FailTablesEnv : public EnvWrapper {
 public:
  explicit FailTablesEnv(Env* target) : EnvWrapper(target) {}
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    if (failing_.load() && f.size() > 4 &&
        f.compare(f.size() - 4, 4, ".sst") == 0) {
      failures_.fetch_add(1);
      return Status::IOError(f, "injected table failure");
    }
    return EnvWrapper::NewWritableFile(f, r, options);
  }
  std::atomic<bool> failing_{false};
  std::atomic<int> failures_{0};
};

class DBCloseTest : public testing::Test {
 protected:
  DBCloseTest()
      : base_(NewMemEnv(Env::Default())),
        tables_(base_.get()),
        env_(&tables_),
        h_(&env_) {}

  // One write through the WAL and one that only a memtable holds, which
  // a clean Close must flush.
  void WriteBoth() {
    ASSERT_TRUE(h_.Open().ok());
    ASSERT_TRUE(h_.Put("logged", "in the WAL").ok());
    WriteOptions no_wal;
    no_wal.disableWAL = true;
    ASSERT_TRUE(h_.db()->Put(no_wal, "unlogged", "memtable only").ok());
  }

  // Close fails with an error naming what; a second Close says the same;
  // the logged write is there on reopen.
  void ExpectFailedClose(const std::string& what) {
    const Status s = h_.db()->Close();
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(what)) << s.ToString();
    EXPECT_EQ(s.ToString(), h_.db()->Close().ToString());
    env_.ClearFailures();
    tables_.failing_ = false;
    h_.Close();
    ASSERT_TRUE(h_.Open().ok());
    EXPECT_EQ("in the WAL", h_.Get("logged"));
    EXPECT_TRUE(h_.db()->Close().ok());
  }

  std::unique_ptr<Env> base_;
  FailTablesEnv tables_;
  test::FaultInjectionEnv env_;
  test::DBHolder h_;
};

TEST_F(DBCloseTest, FailedTableWriteAtCloseIsReported) {
  WriteBoth();
  tables_.failing_ = true;
  ExpectFailedClose("injected table failure");
  EXPECT_GE(tables_.failures_.load(), 1);
}

TEST_F(DBCloseTest, FailedWALCreationAtCloseIsReported) {
  WriteBoth();
  // The flush retires the memtable first, which needs a new WAL.
  env_.FailAll(test::IOKind::kOpen, Status::IOError("injected open failure"));
  ExpectFailedClose("injected open failure");
}

// A background error before Close leaves the unlogged write where no
// flush may take it: Close reports that error instead of OK.
TEST_F(DBCloseTest, UnloggedWritesLostToAnEarlierErrorAreReported) {
  WriteBoth();
  tables_.failing_ = true;
  const Status flushed = h_.db()->Flush(FlushOptions());
  EXPECT_TRUE(flushed.IsIOError()) << flushed.ToString();
  const int failures = tables_.failures_.load();
  ExpectFailedClose("injected table failure");
  EXPECT_EQ(failures, tables_.failures_.load());  // Close wrote no table
}

TEST_F(DBCloseTest, CleanCloseFlushesUnloggedWrites) {
  WriteBoth();
  ASSERT_TRUE(h_.db()->Close().ok());
  EXPECT_TRUE(h_.db()->Close().ok());
  h_.Close();
  ASSERT_TRUE(h_.Open().ok());
  EXPECT_EQ("memtable only", h_.Get("unlogged"));
  EXPECT_EQ("in the WAL", h_.Get("logged"));
}

}  // namespace
}  // namespace strata
