// The range-deletion block of block-based tables: tombstones added in any
// order among the point entries come back sorted from
// NewRangeTombstoneIterator (copying and mmap-like reads, index and filter
// in the reader or in the cache), and never from NewIterator or Get; the
// properties count them. Damage: every flipped byte of the block (and of
// everything after it) fails Open with a located Corruption, and so do
// crafted blocks whose checksums are right but whose entries are not
// range tombstones in order.

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "table/block_based_table_reader.h"
#include "table/format.h"
#include "table/table_properties.h"
#include "test/table/table_test_util.h"
#include "test/util/testutil.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

const char kFileName[] = "ranges.sst";

using test::TombstoneKey;

class RangeDelBlockTest : public testing::Test {
 protected:
  RangeDelBlockTest() : icmp_(BytewiseComparator()) {
    bopts_.icmp = &icmp_;
    MakeFactory(/*cache_index_and_filter=*/false);
  }

  void MakeFactory(bool cache_index_and_filter) {
    BlockBasedTableOptions topts;
    topts.block_size = 256;
    topts.filter_policy.reset(NewBloomFilterPolicy(10));
    topts.block_cache = NewLRUCache(1 << 20);
    topts.cache_index_and_filter_blocks = cache_index_and_filter;
    factory_.reset(NewBlockBasedTableFactory(topts));
  }

  // Random point entries and num_tombstones tombstones with distinct
  // (begin, seq), interleaved in random order into *adds.
  void MakeModel(uint32_t seed, int num_points, int num_tombstones,
                 test::TableEntries* adds) {
    Random rnd(seed);
    points_ = test::RandomTableEntries(seed, num_points, icmp_,
                                       /*large_values=*/false);
    tombstones_.clear();
    std::set<std::string> seen;
    while (static_cast<int>(tombstones_.size()) < num_tombstones) {
      std::string begin(1 + rnd.Uniform(6), 'a');
      for (char& c : begin) c = static_cast<char>('a' + rnd.Uniform(26));
      std::string end = begin + static_cast<char>('a' + rnd.Uniform(26));
      const std::string key = TombstoneKey(begin, 1 + rnd.Uniform(5000000));
      if (!seen.insert(key).second) continue;
      tombstones_.emplace_back(key, end);
    }
    std::vector<size_t> order(tombstones_.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    for (size_t i = order.size(); i > 1; i--) {
      std::swap(order[i - 1], order[rnd.Uniform(static_cast<int>(i))]);
    }
    adds->clear();
    size_t next = 0;
    for (const auto& p : points_) {
      while (next < order.size() && rnd.OneIn(2)) {
        adds->push_back(tombstones_[order[next++]]);
      }
      adds->push_back(p);
    }
    while (next < order.size()) adds->push_back(tombstones_[order[next++]]);
    std::sort(tombstones_.begin(), tombstones_.end(),
              [this](const auto& a, const auto& b) {
                return icmp_.Compare(a.first, b.first) < 0;
              });
  }

  Status Build(const test::TableEntries& adds, std::string* contents) {
    return test::BuildTableInMemory(*factory_, bopts_, adds, contents);
  }

  Status Open(const std::string& contents, bool in_memory,
              std::unique_ptr<TableReader>* table) {
    std::unique_ptr<RandomAccessFileReader> file(new RandomAccessFileReader(
        std::unique_ptr<RandomAccessFile>(
            new test::StringFile(contents, in_memory)),
        kFileName));
    TableReaderOptions ropts;
    ropts.icmp = &icmp_;
    return factory_->NewTableReader(ropts, std::move(file), contents.size(),
                                    table);
  }

  static test::TableEntries ReadAll(InternalIterator* iter) {
    test::TableEntries out;
    for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
      out.emplace_back(iter->key().ToString(), iter->value().ToString());
    }
    EXPECT_TRUE(iter->status().ok()) << iter->status().ToString();
    return out;
  }

  // Everything the table returns matches the model.
  void CheckTable(TableReader* table) {
    ReadOptions ro;
    std::unique_ptr<InternalIterator> ranges(
        table->NewRangeTombstoneIterator(ro));
    if (tombstones_.empty()) {
      EXPECT_EQ(nullptr, ranges);
    } else {
      ASSERT_NE(nullptr, ranges);
      EXPECT_EQ(tombstones_, ReadAll(ranges.get()));
      // Seeks work on it as on any internal iterator.
      ranges->Seek(tombstones_.back().first);
      ASSERT_TRUE(ranges->Valid());
      EXPECT_EQ(tombstones_.back().first, ranges->key().ToString());
    }
    std::unique_ptr<InternalIterator> iter(table->NewIterator(ro));
    EXPECT_EQ(points_, ReadAll(iter.get()));
    // Get hands out point entries only, also at a tombstone's begin key.
    for (const auto& t : tombstones_) {
      LookupKey lkey(ExtractUserKey(t.first), kMaxSequenceNumber);
      test::GetResult got = test::CollectGet(table, ro, lkey.internal_key());
      ASSERT_TRUE(got.status.ok());
      for (const auto& e : got.entries) {
        EXPECT_NE(kTypeRangeDeletion, ExtractValueType(e.first));
      }
    }
    for (const auto& p : points_) {
      LookupKey lkey(ExtractUserKey(p.first), ExtractSequence(p.first));
      test::GetResult got = test::CollectGet(table, ro, lkey.internal_key());
      ASSERT_TRUE(got.status.ok());
      ASSERT_FALSE(got.entries.empty());
      EXPECT_EQ(p, got.entries.front());
    }
    auto props = table->GetTableProperties();
    EXPECT_EQ(tombstones_.size(), props->num_range_deletions);
    EXPECT_EQ(points_.size() + tombstones_.size(), props->num_entries);
    uint64_t deletions = 0;
    for (const auto& p : points_) {
      const ValueType t = ExtractValueType(p.first);
      if (t == kTypeDeletion || t == kTypeSingleDeletion) deletions++;
    }
    EXPECT_EQ(deletions, props->num_deletions);
  }

  static BlockHandle RangeDelHandle(TableReader* table) {
    return static_cast<BlockBasedTable*>(table)->TEST_RangeDelHandle();
  }

  InternalKeyComparator icmp_;
  TableBuilderOptions bopts_;
  std::unique_ptr<TableFactory> factory_;
  test::TableEntries points_;
  test::TableEntries tombstones_;
};

TEST_F(RangeDelBlockTest, RoundTrip) {
  for (bool cache_index : {false, true}) {
    MakeFactory(cache_index);
    test::TableEntries adds;
    MakeModel(7, 120, 40, &adds);
    std::string contents;
    ASSERT_TRUE(Build(adds, &contents).ok());
    for (bool in_memory : {false, true}) {
      SCOPED_TRACE(std::string(cache_index ? "cached index, " : "") +
                   (in_memory ? "mmap" : "buffered"));
      std::unique_ptr<TableReader> table;
      Status s = Open(contents, in_memory, &table);
      ASSERT_TRUE(s.ok()) << s.ToString();
      CheckTable(table.get());
      EXPECT_GT(RangeDelHandle(table.get()).size(), 0u);
    }
  }
}

TEST_F(RangeDelBlockTest, SequenceRangeIncludesTombstones) {
  test::TableEntries adds = {{TombstoneKey("m", 900), "n"},
                             {TombstoneKey("a", 1, kTypeValue), "v"},
                             {TombstoneKey("b", 50, kTypeValue), "w"},
                             {TombstoneKey("c", 0), "d"}};
  std::string contents;
  ASSERT_TRUE(Build(adds, &contents).ok());
  std::unique_ptr<TableReader> table;
  ASSERT_TRUE(Open(contents, false, &table).ok());
  EXPECT_EQ(0u, table->GetTableProperties()->smallest_seqno);
  EXPECT_EQ(900u, table->GetTableProperties()->largest_seqno);
}

TEST_F(RangeDelBlockTest, NoTombstonesNoBlock) {
  test::TableEntries adds;
  MakeModel(8, 50, 0, &adds);
  std::string contents;
  ASSERT_TRUE(Build(adds, &contents).ok());
  EXPECT_EQ(std::string::npos, contents.find(kRangeDelBlockName));
  std::unique_ptr<TableReader> table;
  ASSERT_TRUE(Open(contents, false, &table).ok());
  CheckTable(table.get());
  EXPECT_EQ(0u, RangeDelHandle(table.get()).size());
}

TEST_F(RangeDelBlockTest, OnlyTombstones) {
  test::TableEntries adds;
  MakeModel(9, 0, 25, &adds);
  ASSERT_TRUE(points_.empty());
  std::string contents;
  ASSERT_TRUE(Build(adds, &contents).ok());
  for (bool in_memory : {false, true}) {
    std::unique_ptr<TableReader> table;
    Status s = Open(contents, in_memory, &table);
    ASSERT_TRUE(s.ok()) << s.ToString();
    CheckTable(table.get());
    EXPECT_EQ(0u, table->GetTableProperties()->num_data_blocks);
  }
}

TEST_F(RangeDelBlockTest, DuplicateTombstoneIsRefused) {
  test::TableEntries adds = {{TombstoneKey("a", 5), "c"},
                             {TombstoneKey("a", 5), "d"}};
  std::string contents;
  EXPECT_TRUE(Build(adds, &contents).IsInvalidArgument());
}

// The range-deletion block is checked at open, always with its checksum:
// any flip in it, or in anything after it (properties, metaindex, index,
// footer), fails Open with a Corruption naming the file and an offset.
TEST_F(RangeDelBlockTest, EveryFlipFromTheBlockOnFailsOpen) {
  test::TableEntries adds;
  MakeModel(10, 30, 12, &adds);
  std::string contents;
  ASSERT_TRUE(Build(adds, &contents).ok());
  std::unique_ptr<TableReader> table;
  ASSERT_TRUE(Open(contents, false, &table).ok());
  const BlockHandle handle = RangeDelHandle(table.get());
  table.reset();
  ASSERT_GT(handle.size(), 0u);
  for (size_t pos = handle.offset(); pos < contents.size(); pos++) {
    std::string damaged = contents;
    damaged[pos] ^= static_cast<char>(1u << (pos % 8));
    Status s = Open(damaged, pos % 2 == 0, &table);
    ASSERT_TRUE(test::IsLocatedCorruption(s, kFileName))
        << "flip at " << pos << ": " << s.ToString();
  }
}

// The block as written for restart interval 1 (docs/formats/table.md),
// from raw entries: what a hostile writer can produce.
std::string RawBlock(
    const std::vector<std::pair<std::string, std::string>>& e) {
  std::string block;
  std::vector<uint32_t> restarts;
  for (const auto& kv : e) {
    restarts.push_back(static_cast<uint32_t>(block.size()));
    PutVarint32(&block, 0);
    PutVarint32(&block, static_cast<uint32_t>(kv.first.size()));
    PutVarint32(&block, static_cast<uint32_t>(kv.second.size()));
    block += kv.first;
    block += kv.second;
  }
  for (uint32_t r : restarts) PutFixed32(&block, r);
  PutFixed32(&block, static_cast<uint32_t>(restarts.size()));
  return block;
}

// Checksums right, contents wrong: Open must still refuse the block.
TEST_F(RangeDelBlockTest, CraftedBlocksAreCorruption) {
  test::TableEntries adds = {{TombstoneKey("c", 4), "d"},
                             {TombstoneKey("a", 5), "b"},
                             {TombstoneKey("k", 1, kTypeValue), "v"}};
  std::string contents;
  ASSERT_TRUE(Build(adds, &contents).ok());
  std::unique_ptr<TableReader> table;
  ASSERT_TRUE(Open(contents, false, &table).ok());
  const BlockHandle handle = RangeDelHandle(table.get());
  table.reset();
  const std::string good =
      RawBlock({{TombstoneKey("a", 5), "b"}, {TombstoneKey("c", 4), "d"}});
  ASSERT_EQ(good, contents.substr(handle.offset(), handle.size()));

  // Replacements of the same size.
  std::string bad_restarts = good;
  EncodeFixed32(&bad_restarts[bad_restarts.size() - 4], 0xffffffffu);
  const std::vector<std::pair<const char*, std::string>> crafted = {
      {"point entry", RawBlock({{TombstoneKey("a", 5, kTypeValue), "b"},
                                {TombstoneKey("c", 4), "d"}})},
      {"out of order",
       RawBlock({{TombstoneKey("c", 4), "d"}, {TombstoneKey("a", 5), "b"}})},
      {"same key twice",
       RawBlock({{TombstoneKey("a", 5), "b"}, {TombstoneKey("a", 5), "d"}})},
      {"short key",
       RawBlock({{"ab", std::string(8, 'x')}, {TombstoneKey("c", 4), "d"}})},
      {"unknown type",
       RawBlock({{TombstoneKey("a", 5, static_cast<ValueType>(0x44)), "b"},
                 {TombstoneKey("c", 4), "d"}})},
      {"restart count", bad_restarts},
  };
  for (const auto& c : crafted) {
    ASSERT_EQ(good.size(), c.second.size()) << c.first;
    std::string damaged = contents;
    damaged.replace(handle.offset(), handle.size(), c.second);
    const uint32_t crc =
        ComputeBlockChecksum(c.second.data(), c.second.size(), 0);
    EncodeFixed32(&damaged[handle.offset() + handle.size() + 1], crc);
    for (bool in_memory : {false, true}) {
      Status s = Open(damaged, in_memory, &table);
      ASSERT_TRUE(test::IsLocatedCorruption(s, kFileName))
          << c.first << ": " << s.ToString();
      EXPECT_NE(
          std::string::npos,
          s.ToString().find("block at " + std::to_string(handle.offset())))
          << c.first << ": " << s.ToString();
    }
  }
}

}  // namespace
}  // namespace strata
