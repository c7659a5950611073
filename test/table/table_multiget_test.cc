// BlockBasedTable::MultiGet against Get over a random table (cache on and
// off, filter on and off, buffered and mmap reads); that the keys of one
// data block cost one read (no cache) or one cache lookup; and the block
// pins handed with the entries (CachePin), which keep a value readable
// after the lookup without a copy.

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "strata/statistics.h"
#include "table/pinned_value.h"
#include "test/table/table_test_util.h"
#include "test/util/temp_dir.h"
#include "util/random.h"

namespace strata {
namespace {

// What one lookup of a MultiGet received.
struct Collected {
  test::TableEntries entries;
  int pinned = 0;           // entries handed with a block pin
  bool first_only = false;  // stop after the first entry
};

bool Collect(void* arg, const Slice& key, const Slice& value, CachePin* pin) {
  Collected* c = static_cast<Collected*>(arg);
  c->entries.emplace_back(key.ToString(), value.ToString());
  if (pin != nullptr) c->pinned++;
  return !c->first_only;
}

// Pins the first value it is handed into the PinnableSlice arg.
bool PinValue(void* arg, const Slice&, const Slice& value, CachePin* pin) {
  PinnableSlice* out = static_cast<PinnableSlice*>(arg);
  if (pin != nullptr) {
    pin->PinInto(value, out);
  } else {
    out->PinSelf(value);
  }
  return false;
}

class TableMultiGetTest : public testing::Test {
 protected:
  TableMultiGetTest() : icmp_(BytewiseComparator()), dir_(env_, "mget") {}

  void Build(const test::TableEntries& entries, bool cache, bool filter,
             uint64_t block_size = 4096) {
    BlockBasedTableOptions topts;
    topts.block_size = block_size;
    if (filter) topts.filter_policy.reset(NewBloomFilterPolicy(10));
    if (cache) {
      cache_ = NewLRUCache(4 << 20);
      topts.block_cache = cache_;
    } else {
      topts.no_block_cache = true;
    }
    factory_.reset(NewBlockBasedTableFactory(topts));
    TableBuilderOptions bopts;
    bopts.icmp = &icmp_;
    bopts.compression = kNoCompression;
    fname_ = dir_.File("000001.sst");
    uint64_t size = 0;
    ASSERT_TRUE(
        test::BuildTable(env_, fname_, *factory_, bopts, entries, &size).ok());
  }

  void Open(bool mmap = false) {
    EnvOptions eo;
    eo.use_mmap_reads = mmap;
    TableReaderOptions ropts;
    ropts.icmp = &icmp_;
    ropts.statistics = stats_.get();
    ASSERT_TRUE(
        test::OpenTable(env_, fname_, eo, *factory_, ropts, &table_, &reads_)
            .ok());
  }

  // table_->MultiGet of keys (internal keys, in the order given), args[i]
  // handed with keys[i]'s entries; the lookups after the call.
  std::vector<TableLookup> RunMultiGet(const std::vector<std::string>& keys,
                                       const std::vector<void*>& args,
                                       GetEntryFunction handle_entry) {
    std::vector<TableLookup> lookups(keys.size());
    std::vector<TableLookup*> ptrs;
    for (size_t i = 0; i < keys.size(); i++) {
      lookups[i].internal_key = keys[i];
      lookups[i].arg = args[i];
      ptrs.push_back(&lookups[i]);
    }
    table_->MultiGet(ReadOptions(), ptrs.data(), ptrs.size(), handle_entry);
    return lookups;
  }

  // What each key's lookup received (Collect).
  std::vector<Collected> MultiGet(const std::vector<std::string>& keys,
                                  bool first_only = false) {
    std::vector<Collected> got(keys.size());
    std::vector<void*> args;
    for (Collected& c : got) {
      c.first_only = first_only;
      args.push_back(&c);
    }
    const std::vector<TableLookup> lookups = RunMultiGet(keys, args, &Collect);
    for (size_t i = 0; i < keys.size(); i++) {
      EXPECT_TRUE(lookups[i].status.ok()) << lookups[i].status.ToString();
      // done: the collector asked to stop (it only does so with
      // first_only, on an entry).
      EXPECT_EQ(lookups[i].done, first_only && !got[i].entries.empty());
    }
    return got;
  }

  static std::string Lookup(const Slice& user_key, SequenceNumber seq) {
    LookupKey lkey(user_key, seq);
    return lkey.internal_key().ToString();
  }

  // The user keys of entries whose data block starts at offset.
  std::vector<std::string> KeysInBlockAt(const test::TableEntries& entries,
                                         uint64_t offset) {
    std::vector<std::string> keys;
    for (const auto& e : entries) {
      if (table_->ApproximateOffsetOf(e.first) == offset) {
        keys.push_back(Lookup(ExtractUserKey(e.first), kMaxSequenceNumber));
      }
    }
    return keys;
  }

  uint64_t Ticker(Tickers t) const { return stats_->getTickerCount(t); }

  Env* const env_ = Env::Default();
  InternalKeyComparator icmp_;
  test::TempDir dir_;
  std::shared_ptr<Cache> cache_;
  std::shared_ptr<Statistics> stats_ = CreateDBStatistics();
  std::unique_ptr<TableFactory> factory_;
  std::string fname_;
  std::unique_ptr<TableReader> table_;
  std::atomic<int> reads_{0};
};

TEST_F(TableMultiGetTest, MatchesGetWithCacheFilterAndMmapOnAndOff) {
  const test::TableEntries model = test::RandomTableEntries(17, 1200, icmp_);
  for (int config = 0; config < 8; config++) {
    const bool cache = config & 1, filter = config & 2, mmap = config & 4;
    SCOPED_TRACE(testing::Message() << "cache " << cache << " filter " << filter
                                    << " mmap " << mmap);
    Build(model, cache, filter, 1024);
    Open(mmap);
    Random rnd(config + 1);
    for (int round = 0; round < 30; round++) {
      // Existing user keys at random sequences, absent keys, duplicates.
      std::vector<std::string> keys;
      const int n = 1 + static_cast<int>(rnd.Uniform(40));
      for (int i = 0; i < n; i++) {
        const auto& e = model[rnd.Uniform(static_cast<int>(model.size()))];
        const uint32_t r = rnd.Uniform(8);
        if (r == 0) {
          keys.push_back(Lookup(ExtractUserKey(e.first).ToString() + "~", 5));
        } else if (r == 1 && !keys.empty()) {
          keys.push_back(keys.back());
        } else {
          const SequenceNumber seq =
              r == 2 ? rnd.Uniform(2000000) : kMaxSequenceNumber;
          keys.push_back(Lookup(ExtractUserKey(e.first), seq));
        }
      }
      // Sorted mostly, as the DB hands them; unsorted must be right too.
      if (!rnd.OneIn(4)) {
        std::sort(keys.begin(), keys.end(),
                  [this](const std::string& a, const std::string& b) {
                    return icmp_.Compare(a, b) < 0;
                  });
      }
      const bool first_only = rnd.OneIn(3);
      const std::vector<Collected> got = MultiGet(keys, first_only);
      for (size_t i = 0; i < keys.size(); i++) {
        test::GetResult want =
            test::CollectGet(table_.get(), ReadOptions(), keys[i]);
        ASSERT_TRUE(want.status.ok());
        if (first_only && want.entries.size() > 1) want.entries.resize(1);
        ASSERT_EQ(got[i].entries, want.entries) << "key " << i;
        // A cached block lends its pin; an owned or mapped one cannot.
        const int pinned_expected =
            cache && !mmap ? static_cast<int>(got[i].entries.size()) : 0;
        if (!mmap) {
          ASSERT_EQ(got[i].pinned, pinned_expected);
        }
      }
    }
    table_.reset();
  }
}

// 300 keys with 40-byte values in 512-byte blocks: many blocks.
test::TableEntries SmallEntries(const InternalKeyComparator& icmp) {
  test::TableEntries entries;
  for (int i = 0; i < 300; i++) {
    char key[16];
    std::snprintf(key, sizeof(key), "key%05d", i);
    std::string ikey;
    AppendInternalKey(&ikey, ParsedInternalKey(key, 100 + i, kTypeValue));
    entries.emplace_back(ikey,
                         std::string(40, static_cast<char>('a' + i % 26)));
  }
  test::SortTableEntries(icmp, &entries);
  return entries;
}

TEST_F(TableMultiGetTest, KeysOfOneBlockCostOneRead) {
  const test::TableEntries model = SmallEntries(icmp_);
  Build(model, /*cache=*/false, /*filter=*/false, 512);
  Open();
  const std::vector<std::string> first = KeysInBlockAt(model, 0);
  ASSERT_GE(first.size(), 3u);
  int before = reads_.load();
  std::vector<Collected> got = MultiGet(first, /*first_only=*/true);
  EXPECT_EQ(reads_.load() - before, 1);
  for (const Collected& c : got) ASSERT_EQ(c.entries.size(), 1u);

  // One Get per key reads the block each time.
  before = reads_.load();
  for (const std::string& k : first) {
    Collected c;
    c.first_only = true;  // as the DB's Get: stop at the value
    ASSERT_TRUE(table_->Get(ReadOptions(), k, &c, &Collect).ok());
    ASSERT_EQ(c.entries.size(), 1u);
  }
  EXPECT_EQ(reads_.load() - before, static_cast<int>(first.size()));

  // Keys of two blocks: two reads.
  const uint64_t second_offset =
      table_->ApproximateOffsetOf(model[first.size()].first);
  std::vector<std::string> two = first;
  for (const std::string& k : KeysInBlockAt(model, second_offset)) {
    two.push_back(k);
  }
  before = reads_.load();
  got = MultiGet(two, /*first_only=*/true);
  EXPECT_EQ(reads_.load() - before, 2);
}

// One key a block ("kaxyz", "kcxyz", ..., index keys shortened to "kb",
// "kd", ...): a key absent between two blocks ends its search at the
// first block's index key instead of reading the next block.
TEST_F(TableMultiGetTest, AbsentKeyAtABlockEndReadsOneBlock) {
  test::TableEntries model;
  for (int i = 0; i < 10; i++) {
    std::string ikey;
    AppendInternalKey(
        &ikey, ParsedInternalKey(
                   std::string("k") + static_cast<char>('a' + 2 * i) + "xyz",
                   100, kTypeValue));
    model.emplace_back(ikey, "value");
  }
  Build(model, /*cache=*/false, /*filter=*/false, /*block_size=*/1);
  Open();
  const std::string absent = Lookup("kaz", kMaxSequenceNumber);
  ASSERT_EQ(table_->ApproximateOffsetOf(absent), 0u);  // lands on "kaxyz"
  int before = reads_.load();
  EXPECT_TRUE(
      test::CollectGet(table_.get(), ReadOptions(), absent).entries.empty());
  EXPECT_EQ(reads_.load() - before, 1);
  // With "kaxyz" and "kcxyz": their two blocks, nothing more.
  before = reads_.load();
  const std::vector<Collected> got =
      MultiGet({Lookup("kaxyz", kMaxSequenceNumber), absent,
                Lookup("kcxyz", kMaxSequenceNumber)});
  EXPECT_EQ(reads_.load() - before, 2);
  EXPECT_EQ(got[0].entries.size(), 1u);
  EXPECT_TRUE(got[1].entries.empty());
  EXPECT_EQ(got[2].entries.size(), 1u);
}

TEST_F(TableMultiGetTest, KeysOfOneBlockCostOneCacheLookupAndPinIt) {
  const test::TableEntries model = SmallEntries(icmp_);
  Build(model, /*cache=*/true, /*filter=*/true, 512);
  Open();
  const std::vector<std::string> first = KeysInBlockAt(model, 0);
  ASSERT_GE(first.size(), 3u);
  const uint64_t miss = Ticker(BLOCK_CACHE_DATA_MISS);
  const uint64_t hit = Ticker(BLOCK_CACHE_DATA_HIT);
  MultiGet(first, /*first_only=*/true);
  EXPECT_EQ(Ticker(BLOCK_CACHE_DATA_MISS) - miss, 1u);
  EXPECT_EQ(Ticker(BLOCK_CACHE_DATA_HIT) - hit, 0u);
  MultiGet(first, /*first_only=*/true);
  EXPECT_EQ(Ticker(BLOCK_CACHE_DATA_MISS) - miss, 1u);
  EXPECT_EQ(Ticker(BLOCK_CACHE_DATA_HIT) - hit, 1u);
  ASSERT_EQ(cache_->GetPinnedUsage(), 0u);

  // Every value of the block pinned, each through a pin of its own; the
  // block stays after the table closes and the cache, its capacity 0,
  // evicts what nobody pins; the last release frees it.
  std::vector<PinnableSlice> values(first.size());
  std::vector<void*> args;
  for (PinnableSlice& v : values) args.push_back(&v);
  RunMultiGet(first, args, &PinValue);
  table_.reset();
  cache_->SetCapacity(0);
  EXPECT_GT(cache_->GetPinnedUsage(), 0u);
  for (size_t i = 0; i < first.size(); i++) {
    ASSERT_TRUE(values[i].IsPinned());
    EXPECT_EQ(values[i].ToString(), model[i].second);
  }
  for (size_t i = 0; i + 1 < first.size(); i++) {
    values[i].Reset();
    EXPECT_GT(cache_->GetPinnedUsage(), 0u);  // the last still holds it
  }
  values.back().Reset();
  EXPECT_EQ(cache_->GetPinnedUsage(), 0u);
  EXPECT_EQ(cache_->GetUsage(), 0u);
}

}  // namespace
}  // namespace strata
