// Options of Engine II seen through the DB: the table factory and
// compression are validated at open, memtables use huge-page regions as
// memtable_huge_page_size says, paranoid_file_checks reads new tables
// back, and prefix_same_as_start confines iterators to the seek key's
// prefix.

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "port/port.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/slice_transform.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "table/compression.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;

TEST(DBOptionsTest, DefaultsNameASupportedCodecAndATableFactory) {
  Options options;
  EXPECT_TRUE(CompressionSupported(options.compression));
  ASSERT_NE(nullptr, options.table_factory);
  EXPECT_STREQ("BlockBasedTable", options.table_factory->Name());
}

TEST(DBOptionsTest, TableFactoryAndCompressionAreValidated) {
  DBHolder h;
  h.options().table_factory = nullptr;
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("table_factory"));

  h.options().table_factory.reset(NewBlockBasedTableFactory());
  h.options().compression = static_cast<CompressionType>(7);
  s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("compression"));
  EXPECT_TRUE(h.env()->FileExists(h.name()).IsNotFound());

  for (CompressionType type :
       {kNoCompression, kSnappyCompression, kZlibCompression}) {
    SCOPED_TRACE(CompressionTypeName(type));
    h.options().compression = type;
    s = h.Open();
    if (CompressionSupported(type)) {
      EXPECT_TRUE(s.ok()) << s.ToString();
      h.Close();
    } else {
      EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
      EXPECT_NE(std::string::npos,
                s.ToString().find(CompressionTypeName(type)));
    }
  }
}

uint64_t MemTableBytes(DB* db) {
  uint64_t bytes = 0;
  EXPECT_TRUE(db->GetIntProperty("strata.cur-size-all-mem-tables", &bytes));
  return bytes;
}

// Where the system has huge pages, a memtable big enough for regions takes
// a whole region with its first write (and counts it); without regions,
// or with a buffer under 8 regions, it takes a small chunk. A size that is
// no multiple of 2 MiB is rounded up (RocksDB's db_bench sets 2048).
TEST(DBOptionsTest, MemTableHugePageRegions) {
  constexpr size_t kRegion = 2 << 20;
  DBHolder h;

  struct Case {
    size_t buffer;
    size_t region;
    bool uses_region;
  };
  for (const Case& c :
       {Case{16 << 20, kRegion, true}, Case{16 << 20, 0, false},
        Case{8 << 20, kRegion, false}, Case{16 << 20, 2048, true},
        Case{64 << 20, kRegion + 1, true}}) {
    SCOPED_TRACE(std::to_string(c.buffer) + " " + std::to_string(c.region));
    h.options().write_buffer_size = c.buffer;
    h.options().memtable_huge_page_size = c.region;
    ASSERT_TRUE(h.Open().ok());
    ASSERT_TRUE(h.db()->Put(WriteOptions(), "key", "value").ok());
    if (c.uses_region && port::HugePagesAvailable()) {
      // Rounded up to whole huge pages.
      const size_t region = (c.region + kRegion - 1) / kRegion * kRegion;
      EXPECT_GE(MemTableBytes(h.db()), region);
    } else {
      EXPECT_LT(MemTableBytes(h.db()), kRegion);
    }
    std::string value;
    ASSERT_TRUE(h.db()->Get(ReadOptions(), "key", &value).ok());
    EXPECT_EQ("value", value);
    h.Close();
  }
}

// Flips one byte of the first write to every table file (the writer's
// buffer hands a small table over in one write): its first data block
// then fails its checksum, while footer and index are intact.
class CorruptingFile : public WritableFile {
 public:
  explicit CorruptingFile(std::unique_ptr<WritableFile> target)
      : target_(std::move(target)) {}
  Status Append(const Slice& data) override {
    if (done_ || data.size() < 2) return target_->Append(data);
    done_ = true;
    std::string copy = data.ToString();
    copy[std::min<size_t>(copy.size() / 2, 20)] ^= 0x40;
    return target_->Append(copy);
  }
  Status Truncate(uint64_t size) override { return target_->Truncate(size); }
  Status Close() override { return target_->Close(); }
  Status Flush() override { return target_->Flush(); }
  Status Sync() override { return target_->Sync(); }
  Status Fsync() override { return target_->Fsync(); }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  uint64_t GetFileSize() override { return target_->GetFileSize(); }

 private:
  std::unique_ptr<WritableFile> target_;
  bool done_ = false;
};

class CorruptTablesEnv : public EnvWrapper {
 public:
  explicit CorruptTablesEnv(Env* target) : EnvWrapper(target) {}
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    Status s = target()->NewWritableFile(f, r, options);
    if (s.ok() && f.size() > 4 && f.compare(f.size() - 4, 4, ".sst") == 0) {
      *r = std::make_unique<CorruptingFile>(std::move(*r));
    }
    return s;
  }
};

// paranoid_file_checks reads a new table back before it counts: a flush of
// a table damaged on its way to the disk fails. Without it the table is
// only opened, the flush succeeds, and the damage shows on the first read
// of the block (as in RocksDB).
TEST(DBOptionsTest, ParanoidFileChecksReadNewTablesBack) {
  for (bool paranoid : {true, false}) {
    SCOPED_TRACE(paranoid ? "paranoid" : "not paranoid");
    CorruptTablesEnv env(Env::Default());
    DBHolder h(&env);
    h.options().compression = kNoCompression;
    h.options().paranoid_file_checks = paranoid;
    ASSERT_TRUE(h.Open().ok());
    ASSERT_TRUE(h.db()->Put(WriteOptions(), "a", std::string(100, 'v')).ok());
    Status s = h.db()->Flush(FlushOptions());
    std::string value;
    if (paranoid) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      // Not installed: the memtable still serves the key.
      EXPECT_TRUE(h.db()->Get(ReadOptions(), "a", &value).ok());
    } else {
      ASSERT_TRUE(s.ok()) << s.ToString();
      s = h.db()->Get(ReadOptions(), "a", &value);
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    }
    h.Close();
  }
}

TEST(DBOptionsTest, PrefixSameAsStartStaysInThePrefix) {
  DBHolder h;
  h.options().prefix_extractor.reset(NewFixedPrefixTransform(3));
  ASSERT_TRUE(h.Open().ok());
  for (const char* k : {"aa", "aaa1", "aaa2", "aab1", "abc", "b"}) {
    ASSERT_TRUE(h.Put(k, "v").ok());
  }
  auto scan = [&h](const ReadOptions& ro, const Slice& start, bool forward) {
    std::unique_ptr<Iterator> it(h.db()->NewIterator(ro));
    std::string keys;
    if (forward) {
      for (it->Seek(start); it->Valid(); it->Next()) {
        keys += it->key().ToString() + " ";
      }
    } else {
      for (it->SeekForPrev(start); it->Valid(); it->Prev()) {
        keys += it->key().ToString() + " ";
      }
    }
    EXPECT_TRUE(it->status().ok());
    return keys;
  };
  ReadOptions prefix;
  prefix.prefix_same_as_start = true;
  EXPECT_EQ("aaa1 aaa2 ", scan(prefix, "aaa", true));
  EXPECT_EQ("aaa2 aaa1 ", scan(prefix, "aaa9", false));
  EXPECT_EQ("", scan(prefix, "aac", true));
  // A target outside the extractor's domain is not confined.
  EXPECT_EQ("aa aaa1 aaa2 aab1 abc b ", scan(prefix, "a", true));

  ReadOptions total = prefix;
  total.total_order_seek = true;
  EXPECT_EQ("aaa1 aaa2 aab1 abc b ", scan(total, "aaa", true));
  EXPECT_EQ("aaa1 aaa2 aab1 abc b ", scan(ReadOptions(), "aaa", true));
}

TEST(DBOptionsTest, StatisticsCountWritesAndReads) {
  DBHolder h;
  std::shared_ptr<Statistics> stats = CreateDBStatistics();
  h.options().statistics = stats;
  ASSERT_TRUE(h.Open().ok());
  uint64_t batch_bytes = 0;
  for (int i = 0; i < 10; i++) {
    WriteBatch batch;
    ASSERT_TRUE(batch.Put("key" + std::to_string(i), "value").ok());
    batch_bytes += batch.GetDataSize();
    WriteOptions wo;
    wo.sync = i == 3;
    ASSERT_TRUE(h.db()->Write(wo, &batch).ok());
  }
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  ASSERT_TRUE(h.db()->Put(no_wal, "unlogged", "v").ok());
  EXPECT_EQ(11u, stats->getTickerCount(NUMBER_KEYS_WRITTEN));
  EXPECT_LT(batch_bytes, stats->getTickerCount(BYTES_WRITTEN));
  EXPECT_EQ(1u, stats->getTickerCount(WAL_FILE_SYNCED));
  EXPECT_GE(stats->getTickerCount(WAL_FILE_BYTES), batch_bytes);
  EXPECT_EQ(11u, stats->getTickerCount(WRITE_DONE_BY_SELF));  // one thread
  EXPECT_EQ(0u, stats->getTickerCount(WRITE_DONE_BY_OTHER));
  HistogramData writes;
  stats->histogramData(DB_WRITE, &writes);
  EXPECT_EQ(11u, writes.count);

  std::string value;
  ASSERT_TRUE(h.db()->Get(ReadOptions(), "key1", &value).ok());
  EXPECT_TRUE(h.db()->Get(ReadOptions(), "missing", &value).IsNotFound());
  std::vector<std::string> values;
  h.db()->MultiGet(ReadOptions(), {"key2", "key3", "nope"}, &values);
  EXPECT_EQ(5u, stats->getTickerCount(NUMBER_KEYS_READ));
  EXPECT_EQ(15u, stats->getTickerCount(BYTES_READ));  // three "value"s
  EXPECT_EQ(1u, stats->getTickerCount(MEMTABLE_HIT));
  EXPECT_EQ(1u, stats->getTickerCount(MEMTABLE_MISS));
  HistogramData gets, multigets;
  stats->histogramData(DB_GET, &gets);
  stats->histogramData(DB_MULTIGET, &multigets);
  EXPECT_EQ(2u, gets.count);
  EXPECT_EQ(1u, multigets.count);
}

}  // namespace
}  // namespace strata
