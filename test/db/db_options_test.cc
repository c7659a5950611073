// Table and memtable options seen through the DB: the table factory and
// compression are validated at open, memtables use huge-page regions as
// memtable_huge_page_size says, paranoid_file_checks reads new tables
// back, and prefix_same_as_start confines iterators to the seek key's
// prefix. Also compression_per_level. The option helpers and
// memtable_factory are db_options_helpers_test.cc.

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/level_targets.h"
#include "env/file_reader.h"
#include "gtest/gtest.h"
#include "port/port.h"
#include "strata/cache.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/slice_transform.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "table/block_based_table_factory.h"
#include "table/compression.h"
#include "table/table_properties.h"
#include "table/table_reader.h"
#include "test/db/db_test_util.h"
#include "util/bloom.h"

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
  EXPECT_EQ(1u, stats->getTickerCount(WAL_FILE_SYNCED_WRITES));
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

TEST(DBOptionsCompressionPerLevelTest, EntryOfEachLevel) {
  std::vector<CompressionType> per_level;
  EXPECT_EQ(kZlibCompression,
            CompressionForLevel(kZlibCompression, per_level, 0, 1));
  EXPECT_EQ(kZlibCompression,
            CompressionForLevel(kZlibCompression, per_level, 3, 1));

  per_level = {kNoCompression, kSnappyCompression, kZlibCompression};
  auto at = [&per_level](int level, int base_level) {
    return CompressionForLevel(kZlibCompression, per_level, level, base_level);
  };
  // Static targets: entry i is Li's, the last one for deeper levels.
  EXPECT_EQ(kNoCompression, at(0, 1));
  EXPECT_EQ(kSnappyCompression, at(1, 1));
  EXPECT_EQ(kZlibCompression, at(2, 1));
  EXPECT_EQ(kZlibCompression, at(6, 1));
  // L0 compacting into L4: entry 1 is L4's, entry 2 L5's.
  EXPECT_EQ(kNoCompression, at(0, 4));
  EXPECT_EQ(kSnappyCompression, at(4, 4));
  EXPECT_EQ(kZlibCompression, at(5, 4));
  EXPECT_EQ(kSnappyCompression, at(2, 4));

  per_level = {kSnappyCompression};
  EXPECT_EQ(kSnappyCompression, at(5, 1));
}

// The compression each table file in the DB was written with.
std::vector<std::string> TableCompressions(Env* env, const std::string& db) {
  std::vector<std::string> children, result;
  EXPECT_TRUE(env->GetChildren(db, &children).ok());
  const InternalKeyComparator icmp(BytewiseComparator());
  std::unique_ptr<TableFactory> factory(NewBlockBasedTableFactory());
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type) || type != FileType::kTableFile)
      continue;
    const std::string fname = db + "/" + child;
    std::unique_ptr<RandomAccessFile> file;
    uint64_t size = 0;
    EXPECT_TRUE(env->NewRandomAccessFile(fname, &file, EnvOptions()).ok());
    EXPECT_TRUE(env->GetFileSize(fname, &size).ok());
    TableReaderOptions options;
    options.icmp = &icmp;
    std::unique_ptr<TableReader> table;
    Status s = factory->NewTableReader(
        options,
        std::make_unique<RandomAccessFileReader>(std::move(file), fname), size,
        &table);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (s.ok()) result.push_back(table->GetTableProperties()->compression_name);
  }
  return result;
}

TEST(DBOptionsCompressionPerLevelTest, FlushAndCompactionUseTheirLevelsEntry) {
  DBHolder h;
  h.options().compression = kNoCompression;
  h.options().compression_per_level = {kNoCompression, kNoCompression,
                                       static_cast<CompressionType>(9)};
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("compression_per_level[2]"));

  if (!CompressionSupported(kSnappyCompression) ||
      !CompressionSupported(kZlibCompression)) {
    GTEST_SKIP() << "needs snappy and zlib";
  }
  h.options().compression_per_level = {kZlibCompression, kSnappyCompression};
  ASSERT_TRUE(h.Open().ok());
  for (int i = 0; i < 50; i++) {
    ASSERT_TRUE(h.Put("k" + std::to_string(i), std::string(100, 'x')).ok());
  }
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  EXPECT_EQ(std::vector<std::string>({"Zlib"}),
            TableCompressions(h.env(), h.name()));
  // One L0 table and an empty L1 would make a trivial move, but L1 takes
  // another compression, so the table is rewritten.
  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(std::vector<std::string>({"Snappy"}),
            TableCompressions(h.env(), h.name()));
  std::string files;
  ASSERT_TRUE(h.db()->GetProperty("strata.num-files-at-level1", &files));
  EXPECT_EQ("1", files);
}

}  // namespace
}  // namespace strata
