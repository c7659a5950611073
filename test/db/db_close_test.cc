// Close: it reports the first error met while closing (a failed flush of
// the writes made without the WAL is not hidden behind the WAL's clean
// close), a later Close reports the same, and what the WAL holds survives
// a close that failed.

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

class DBCloseTest : public testing::Test {
 protected:
  DBCloseTest() : base_(NewMemEnv(Env::Default())), env_(base_.get()) {}

  std::unique_ptr<Env> base_;
  test::FaultInjectionEnv env_;
};

TEST_F(DBCloseTest, FailedCloseTimeFlushIsReported) {
  test::DBHolder h(&env_);
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("logged", "in the WAL").ok());
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  // A write only a memtable holds: a clean Close must flush it.
  ASSERT_TRUE(h.db()->Put(no_wal, "unlogged", "memtable only").ok());

  // The flush needs new files (a WAL for the next memtable, the table);
  // none can be created.
  env_.FailAll(test::IOKind::kOpen, Status::IOError("injected open failure"));
  const Status s = h.db()->Close();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("injected open failure"))
      << s.ToString();
  // A second Close reports the same.
  const Status again = h.db()->Close();
  EXPECT_EQ(s.ToString(), again.ToString());
  env_.ClearFailures();
  h.Close();

  // What the WAL holds is there on reopen.
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("in the WAL", h.Get("logged"));
  EXPECT_TRUE(h.db()->Close().ok());
}

TEST_F(DBCloseTest, CleanCloseFlushesUnloggedWrites) {
  test::DBHolder h(&env_);
  ASSERT_TRUE(h.Open().ok());
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  ASSERT_TRUE(h.db()->Put(no_wal, "unlogged", "memtable only").ok());
  ASSERT_TRUE(h.db()->Close().ok());
  EXPECT_TRUE(h.db()->Close().ok());
  h.Close();
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("memtable only", h.Get("unlogged"));
}

}  // namespace
}  // namespace strata
