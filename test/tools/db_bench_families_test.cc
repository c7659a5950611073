// db_bench --num_column_families: the DB a run leaves has RocksDB
// db_bench's family names, every key written by a fill sits in the family
// its key number picks (k % N) and in no other, and a second run on the
// existing DB reads every key back from there.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/options.h"
#include "test/util/temp_dir.h"
#include "tools/db_bench/bench_options.h"
#include "tools/db_bench/flags.h"
#include "tools/db_bench/keys.h"
#include "tools/db_bench/workloads.h"

namespace strata {
namespace bench {
namespace {

constexpr int kFamilies = 3;
constexpr int64_t kNum = 200;

Flags RunFlags(const std::string& db, const std::string& benchmarks) {
  Flags f;
  SetDefaultFlags(&f);
  f.db = db;
  f.benchmarks = benchmarks;
  f.num = kNum;
  f.seed = 1;
  f.num_column_families = kFamilies;
  f.compression_type = "none";
  return f;
}

TEST(DbBenchFamiliesTest, NamesAreRocksDbs) {
  EXPECT_EQ("default", ColumnFamilyName(0));
  EXPECT_EQ("column_family_name_000001", ColumnFamilyName(1));
  EXPECT_EQ("column_family_name_000042", ColumnFamilyName(42));
}

TEST(DbBenchFamiliesTest, ValidationAndOptions) {
  Flags f;
  SetDefaultFlags(&f);
  Options o;
  ASSERT_TRUE(BuildOptions(f, &o).ok());
  EXPECT_FALSE(o.create_missing_column_families);
  f.num_column_families = 0;
  EXPECT_TRUE(ValidateFlags(f).IsInvalidArgument());
  f.num_column_families = 4;
  EXPECT_TRUE(ValidateFlags(f).ok());
  ASSERT_TRUE(BuildOptions(f, &o).ok());
  EXPECT_TRUE(o.create_missing_column_families);
}

TEST(DbBenchFamiliesTest, KeysLiveInTheFamilyOfTheirNumber) {
  test::TempDir dir(Env::Default(), "db_bench_cf");
  const std::string db_path = dir.File("db");
  {
    Benchmark run(RunFlags(db_path, "fillseq"));
    ASSERT_TRUE(run.Run().ok());
  }

  std::vector<std::string> names;
  ASSERT_TRUE(DB::ListColumnFamilies(DBOptions(), db_path, &names).ok());
  std::vector<std::string> expected;
  for (int i = 0; i < kFamilies; i++) expected.push_back(ColumnFamilyName(i));
  EXPECT_EQ(expected, names);

  Options options;
  std::vector<ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    descriptors.emplace_back(name, ColumnFamilyOptions());
  }
  std::vector<ColumnFamilyHandle*> handles;
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, db_path, descriptors, &handles, &raw).ok());
  std::unique_ptr<DB> db(raw);
  const KeyFormat format(16, 0, 0);
  std::string value;
  for (uint64_t k = 0; k < static_cast<uint64_t>(kNum); k++) {
    const std::string key = format.Key(k, kNum);
    for (int family = 0; family < kFamilies; family++) {
      const Status s = db->Get(ReadOptions(), handles[family], key, &value);
      if (static_cast<uint64_t>(family) == k % kFamilies) {
        EXPECT_TRUE(s.ok()) << "key " << k << " family " << family;
        EXPECT_EQ(100u, value.size());
      } else {
        EXPECT_TRUE(s.IsNotFound()) << "key " << k << " family " << family;
      }
    }
  }
  for (ColumnFamilyHandle* handle : handles) {
    ASSERT_TRUE(db->DestroyColumnFamilyHandle(handle).ok());
  }
  ASSERT_TRUE(db->Close().ok());
  db.reset();

  // The same flags reopen the DB and find every key where it was put.
  Flags again = RunFlags(db_path, "readrandom,flush,waitforcompaction");
  again.use_existing_db = true;
  Benchmark reread(again);
  testing::internal::CaptureStdout();
  const Status s = reread.Run();
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_NE(std::string::npos, out.find("(200 of 200 found)")) << out;
  EXPECT_NE(std::string::npos, out.find("flush memtable")) << out;
}

}  // namespace
}  // namespace bench
}  // namespace strata
