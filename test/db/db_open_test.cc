// Opening a DB on versions: CURRENT marks the DB, the MANIFEST records
// it, and the file counter is the VersionSet's.

#include <memory>
#include <string>
#include <vector>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

using test::DBHolder;

test::DBFiles List(DBHolder& h) { return test::ListDBFiles(h.env(), h.name()); }

TEST(DBOpenTest, ReopensKeepOneManifestNamedByCurrent) {
  DBHolder h;
  uint64_t last_manifest = 0;
  for (int i = 0; i < 4; i++) {
    ASSERT_TRUE(h.Open().ok());
    ASSERT_TRUE(h.Put("k" + std::to_string(i), "v").ok());
    const test::DBFiles l = List(h);
    ASSERT_TRUE(l.current);
    ASSERT_EQ(1u, l.manifests.size());
    EXPECT_GT(l.manifests[0], last_manifest);  // a new one at each open
    last_manifest = l.manifests[0];
    std::string current;
    ASSERT_TRUE(
        ReadFileToString(h.env(), CurrentFileName(h.name()), &current).ok());
    EXPECT_EQ(DescriptorFileName(h.name(), last_manifest),
              h.name() + "/" + current.substr(0, current.size() - 1));
    // WALs and MANIFESTs share one counter: no number is used twice.
    for (uint64_t log : l.logs) EXPECT_NE(log, last_manifest);
    h.Close();
  }
  ASSERT_TRUE(h.Open().ok());
  for (int i = 0; i < 4; i++) EXPECT_EQ("v", h.Get("k" + std::to_string(i)));
}

TEST(DBOpenTest, CurrentNotIdentityMarksTheDB) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("k", "v").ok());
  h.Close();
  // IDENTITY is informative only now.
  ASSERT_TRUE(h.env()->RemoveFile(IdentityFileName(h.name())).ok());
  h.options().create_if_missing = false;
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("v", h.Get("k"));
  h.Close();
  // Without CURRENT the directory is no DB; its WALs are not replayed
  // into a new one.
  ASSERT_TRUE(h.env()->RemoveFile(CurrentFileName(h.name())).ok());
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  h.options().create_if_missing = true;
  s = h.Open();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST(DBOpenTest, CreationCutShortBeforeCurrentIsRedone) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  h.Close();
  // As if the creating process died after OPTIONS and IDENTITY.
  const test::DBFiles l = List(h);
  ASSERT_TRUE(h.env()->RemoveFile(CurrentFileName(h.name())).ok());
  for (uint64_t m : l.manifests) {
    ASSERT_TRUE(h.env()->RemoveFile(DescriptorFileName(h.name(), m)).ok());
  }
  for (uint64_t w : l.logs) {
    ASSERT_TRUE(h.env()->RemoveFile(LogFileName(h.name(), w)).ok());
  }
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ("1", h.Get("a"));
}

// Each I/O of a DB's creation failing in turn: whatever the open returns,
// the next one (nothing failing) opens the DB or creates it.
TEST(DBOpenTest, ACreationFailingAnywhereCanBeRedone) {
  std::unique_ptr<Env> base(NewMemEnv(Env::Default()));
  uint64_t ios = 0;
  {
    test::FaultInjectionEnv probe(base.get());
    DBHolder h(&probe);
    const uint64_t before = probe.io_count();
    ASSERT_TRUE(h.Open().ok());
    ios = probe.io_count() - before;
  }
  ASSERT_GT(ios, 10u);
  int failed = 0;
  for (uint64_t n = 1; n <= ios; n++) {
    SCOPED_TRACE("failing I/O " + std::to_string(n));
    test::FaultInjectionEnv fault(base.get());
    DBHolder h(&fault);
    fault.FailNthIO(n, Status::IOError("injected"));
    Status s = h.Open();
    fault.ClearFailures();
    failed += s.ok() ? 0 : 1;
    h.Close();
    Status again = h.Open();
    ASSERT_TRUE(again.ok()) << again.ToString() << " after " << s.ToString();
    ASSERT_TRUE(h.Put("k", "v").ok());
    ASSERT_TRUE(h.Reopen().ok());
    EXPECT_EQ("v", h.Get("k"));
  }
  EXPECT_GT(failed, 0);
}

// An error checking for CURRENT once the lock is held is that error, not
// "no CURRENT" (which, with tables there, is a misleading Corruption).
TEST(DBOpenTest, StatErrorOnCurrentUnderTheLockIsAnIOError) {
  std::unique_ptr<Env> base(NewMemEnv(Env::Default()));
  test::FaultInjectionEnv fault(base.get());
  DBHolder h(&fault);
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("k", "v").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  h.Close();
  // Which I/O of an open is the second look for CURRENT.
  const std::string current = CurrentFileName(h.name());
  fault.RecordIOs(true);
  ASSERT_TRUE(h.Open().ok());
  h.Close();
  fault.RecordIOs(false);
  const std::vector<test::IOEvent> ios = fault.TakeRecordedIOs();
  uint64_t second = 0;
  int seen = 0;
  for (size_t i = 0; i < ios.size() && second == 0; i++) {
    if (ios[i].kind == test::IOKind::kStat && ios[i].path == current &&
        ++seen == 2) {
      second = i + 1;
    }
  }
  ASSERT_NE(0u, second) << "no second check of " << current;
  fault.FailNthIO(second, Status::IOError("injected"));
  Status s = h.Open();
  fault.ClearFailures();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("injected")) << s.ToString();
  h.Close();
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("v", h.Get("k"));
}

TEST(DBOpenTest, DamagedManifestFailsTheOpen) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("k", "v").ok());
  h.Close();
  const test::DBFiles l = List(h);
  ASSERT_EQ(1u, l.manifests.size());
  const std::string fname = DescriptorFileName(h.name(), l.manifests[0]);
  std::string contents;
  ASSERT_TRUE(ReadFileToString(h.env(), fname, &contents).ok());
  contents[contents.size() / 2] ^= 0x40;
  ASSERT_TRUE(WriteStringToFile(h.env(), contents, fname, true).ok());
  Status s = h.Open();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("MANIFEST")) << s.ToString();
}

TEST(DBOpenTest, NumLevelsBeyondTheFormatIsRefused) {
  DBHolder h;
  h.options().num_levels = 65;
  EXPECT_TRUE(h.Open().IsInvalidArgument());
}

// A table the version names but the directory lacks (lost to damage, a
// MANIFEST that lost its later edits, or deleted by mistake) is damage:
// the open fails naming it, before it deletes anything, and never opens
// to report the table's keys as absent. Put back, the DB opens whole.
TEST(DBOpenTest, AMissingTableFailsTheOpenAndCostsNothing) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h.Put("b", "2").ok());
  h.Close();
  const test::DBFiles l = List(h);
  ASSERT_EQ(1u, l.tables.size());
  const std::string table = TableFileName(h.name(), l.tables[0]);
  ASSERT_TRUE(h.env()->RenameFile(table, h.name() + "/aside").ok());
  h.options().create_if_missing = false;
  Status s = h.Open();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(table)) << s.ToString();
  EXPECT_EQ(l.logs, List(h).logs);
  EXPECT_EQ(l.manifests, List(h).manifests);

  ASSERT_TRUE(h.env()->RenameFile(h.name() + "/aside", table).ok());
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("1", h.Get("a"));
  EXPECT_EQ("2", h.Get("b"));
}

}  // namespace
}  // namespace strata
