// An ingestion whose MANIFEST write fails: the MANIFEST may hold the edit
// all the same (the record written, its sync failed), so the tables the
// ingestion brought in must stay, and the DB must stop writing as after
// any failed MANIFEST write; a reopen then finds every file the MANIFEST
// names, and the ingested data or none of it.

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/sst_file_writer.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// Fails the syncs of the MANIFEST while armed.
class ManifestSyncFailEnv : public test::FaultInjectionEnv {
 public:
  explicit ManifestSyncFailEnv(Env* base) : FaultInjectionEnv(base) {}
  Status MaybeFail(test::IOKind kind, const std::string& path,
                   const char* op) override {
    if (armed && kind == test::IOKind::kSync &&
        path.find("MANIFEST") != std::string::npos) {
      return Status::IOError(path, "injected MANIFEST sync failure");
    }
    return FaultInjectionEnv::MaybeFail(kind, path, op);
  }
  bool armed = false;
};

TEST(ExternalSstFileFaultTest, FailedManifestWriteKeepsTheIngestedTables) {
  ManifestSyncFailEnv env(Env::Default());
  test::TempDir files(Env::Default(), "ingest_fault");
  test::DBHolder h(&env);
  h.options().create_if_missing = true;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put(test::Key(1), "old").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());

  const std::string path = files.File("a.sst");
  SstFileWriter writer(EnvOptions(), h.options());
  ASSERT_TRUE(writer.Open(path).ok());
  ASSERT_TRUE(writer.Put(test::Key(1), "ingested").ok());
  ASSERT_TRUE(writer.Put(test::Key(2), "ingested").ok());
  ASSERT_TRUE(writer.Finish().ok());
  const size_t tables_before = test::ListDBFiles(&env, h.name()).tables.size();

  env.armed = true;
  Status s = h.db()->IngestExternalFile({path}, IngestExternalFileOptions());
  env.armed = false;
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  // The table brought in stays: the MANIFEST may name it.
  EXPECT_EQ(tables_before + 1, test::ListDBFiles(&env, h.name()).tables.size());
  // The caller's file is untouched.
  EXPECT_TRUE(env.FileExists(path).ok());
  // Writes stop until the DB is resumed or reopened.
  EXPECT_FALSE(h.Put(test::Key(3), "x").ok());

  ASSERT_TRUE(h.Reopen().ok());
  const std::map<std::string, std::string> contents = h.Contents();
  // Either the edit made it into the MANIFEST or it did not; all or none.
  if (contents.count(test::Key(2)) > 0) {
    EXPECT_EQ("ingested", contents.at(test::Key(1)));
    EXPECT_EQ("ingested", contents.at(test::Key(2)));
  } else {
    EXPECT_EQ("old", contents.at(test::Key(1)));
  }
  ASSERT_TRUE(h.Put(test::Key(3), "x").ok());
  EXPECT_EQ("x", h.Get(test::Key(3)));
}

}  // namespace
}  // namespace strata
