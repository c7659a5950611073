// BuildTable, the flush step: a memtable's entries become a verified,
// synced table whose metadata describes it; a failure at any I/O leaves no
// file behind.

#include "db/builder.h"

#include <memory>
#include <string>

#include "db/filename.h"
#include "db/table_cache.h"
#include "gtest/gtest.h"
#include "memtable/memtable.h"
#include "strata/table.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

class BuildTableTest : public testing::Test {
 protected:
  BuildTableTest()
      : mem_env_(NewMemEnv(Env::Default())),
        env_(mem_env_.get()),
        icmp_(BytewiseComparator()),
        factory_(NewBlockBasedTableFactory()) {
    env_.CreateDirIfMissing(kDB);
    TableCacheOptions copts;
    copts.env = &env_;
    copts.dbname = kDB;
    copts.table_factory = factory_.get();
    copts.reader_options.icmp = &icmp_;
    cache_.reset(new TableCache(copts));
    mem_ = new MemTable(icmp_);
    mem_->Ref();
  }
  ~BuildTableTest() override { mem_->Unref(); }

  BuildTableOptions Options() {
    BuildTableOptions o;
    o.env = &env_;
    o.dbname = kDB;
    o.table_factory = factory_.get();
    o.builder_options.icmp = &icmp_;
    o.table_cache = cache_.get();
    o.paranoid_file_checks = true;  // the full read-back is tested here
    return o;
  }

  Status Build(FileMetaData* meta) {
    std::unique_ptr<InternalIterator> it(mem_->NewIterator());
    return BuildTable(Options(), it.get(), meta);
  }

  static constexpr const char* kDB = "/builder";
  std::unique_ptr<Env> mem_env_;
  test::FaultInjectionEnv env_;
  InternalKeyComparator icmp_;
  std::shared_ptr<TableFactory> factory_;
  std::unique_ptr<TableCache> cache_;
  MemTable* mem_;
};

TEST_F(BuildTableTest, WritesAVerifiedTableAndDescribesIt) {
  for (int i = 0; i < 500; i++) {
    const std::string key = "key" + std::to_string(1000 + i);
    ASSERT_TRUE(mem_->Add(10 + i, kTypeValue, key, std::string(50, 'v')).ok());
  }
  ASSERT_TRUE(mem_->Add(600, kTypeDeletion, "key1000", "").ok());
  FileMetaData meta;
  meta.number = 7;
  ASSERT_TRUE(Build(&meta).ok());
  uint64_t size = 0;
  ASSERT_TRUE(env_.GetFileSize(TableFileName(kDB, 7), &size).ok());
  EXPECT_EQ(size, meta.file_size);
  // The deletion (seq 600) sorts before the put of key1000.
  EXPECT_EQ(InternalKey("key1000", 600, kTypeDeletion).Encode(),
            meta.smallest.Encode());
  EXPECT_EQ(InternalKey("key1499", 509, kTypeValue).Encode(),
            meta.largest.Encode());
  EXPECT_EQ(10u, meta.smallest_seqno);
  EXPECT_EQ(600u, meta.largest_seqno);
  EXPECT_EQ(501u, meta.num_entries);
  EXPECT_EQ(1u, meta.num_deletions);

  std::unique_ptr<InternalIterator> table(
      cache_->NewIterator(ReadOptions(), 7, meta.file_size));
  std::unique_ptr<InternalIterator> source(mem_->NewIterator());
  table->SeekToFirst();
  for (source->SeekToFirst(); source->Valid(); source->Next()) {
    ASSERT_TRUE(table->Valid());
    EXPECT_EQ(source->key(), table->key());
    EXPECT_EQ(source->value(), table->value());
    table->Next();
  }
  EXPECT_FALSE(table->Valid());
  EXPECT_TRUE(table->status().ok());
}

TEST_F(BuildTableTest, NothingToWriteWritesNoFile) {
  FileMetaData meta;
  meta.number = 8;
  ASSERT_TRUE(Build(&meta).ok());
  EXPECT_EQ(0u, meta.file_size);
  EXPECT_TRUE(env_.FileExists(TableFileName(kDB, 8)).IsNotFound());
}

// Every I/O of the build in turn fails (NoSpace): the error comes back and
// no file is left for anyone to install.
TEST_F(BuildTableTest, AFailureAnywhereLeavesNoFile) {
  for (int i = 0; i < 1000; i++) {
    const std::string key = "k" + std::to_string(100000 + i);
    ASSERT_TRUE(mem_->Add(i + 1, kTypeValue, key, std::string(100, 'x')).ok());
  }
  FileMetaData probe;
  probe.number = 1;
  const uint64_t before = env_.io_count();
  ASSERT_TRUE(Build(&probe).ok());
  const uint64_t ios = env_.io_count() - before;
  ASSERT_GT(ios, 3u);
  ASSERT_TRUE(env_.RemoveFile(TableFileName(kDB, 1)).ok());
  cache_->Evict(1);
  int failures = 0;
  for (uint64_t n = 1; n <= ios; n++) {
    FileMetaData meta;
    meta.number = 100 + n;
    env_.FailNthIO(n, Status::NoSpace("injected"));
    Status s = Build(&meta);
    env_.ClearFailures();
    SCOPED_TRACE("failing I/O " + std::to_string(n));
    if (s.ok()) {
      // The failed I/O did not matter (e.g. a failed delete of nothing).
      EXPECT_GT(meta.file_size, 0u);
      continue;
    }
    failures++;
    EXPECT_TRUE(s.IsNoSpace() || s.IsIOError()) << s.ToString();
    EXPECT_EQ(0u, meta.file_size);
    EXPECT_TRUE(env_.FileExists(TableFileName(kDB, meta.number)).IsNotFound());
  }
  EXPECT_GT(failures, 0);
}

}  // namespace
}  // namespace strata
