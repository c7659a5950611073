// BlockBasedTableOptions and the reader's behaviour around them: block
// cache use (fill_cache, no_block_cache, index and filter in the cache),
// the filter sparing reads, prefix filtering, a policy of another name,
// comparator mismatch, empty tables, codecs, concurrent readers.

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "table/block_based_table_reader.h"
#include "table/compression.h"
#include "table/table_properties.h"
#include "test/table/table_test_util.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

class TableOptionsTest : public testing::Test {
 protected:
  TableOptionsTest() : icmp_(BytewiseComparator()), dir_(env_, "topts") {
    entries_ = test::RandomTableEntries(5, 800, icmp_, /*large_values=*/false);
  }

  // Builds entries with table_options and opens the table with the same.
  void BuildAndOpen(const BlockBasedTableOptions& table_options,
                    const SliceTransform* prefix_extractor = nullptr) {
    factory_.reset(NewBlockBasedTableFactory(table_options));
    TableBuilderOptions bopts;
    bopts.icmp = &icmp_;
    bopts.prefix_extractor = prefix_extractor;
    fname_ = dir_.File("t.sst");
    ASSERT_TRUE(
        test::BuildTable(env_, fname_, *factory_, bopts, entries_, &file_size_)
            .ok());
    Reopen(*factory_, prefix_extractor);
  }

  void Reopen(const TableFactory& factory,
              const SliceTransform* prefix_extractor = nullptr,
              const EnvOptions& env_options = EnvOptions()) {
    table_.reset();
    TableReaderOptions ropts;
    ropts.icmp = &icmp_;
    ropts.prefix_extractor = prefix_extractor;
    reads_ = 0;
    Status s = test::OpenTable(env_, fname_, env_options, factory, ropts,
                               &table_, &reads_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // Scans everything; returns the number of entries.
  size_t Scan(const ReadOptions& ro) {
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ro));
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
    EXPECT_TRUE(it->status().ok());
    return n;
  }

  // Gets n absent user keys; returns the file reads they cost.
  int MissReads(int n) {
    const int before = reads_.load();
    for (int i = 0; i < n; i++) {
      LookupKey lkey("missing-" + std::to_string(i), kMaxSequenceNumber);
      test::GetResult got =
          test::CollectGet(table_.get(), ReadOptions(), lkey.internal_key());
      EXPECT_TRUE(got.status.ok());
      EXPECT_TRUE(got.entries.empty());
    }
    return reads_.load() - before;
  }

  Env* const env_ = Env::Default();
  InternalKeyComparator icmp_;
  test::TempDir dir_;
  test::TableEntries entries_;
  std::unique_ptr<TableFactory> factory_;
  std::string fname_;
  uint64_t file_size_ = 0;
  std::unique_ptr<TableReader> table_;
  std::atomic<int> reads_{0};
};

TEST_F(TableOptionsTest, DataBlocksGoThroughTheBlockCache) {
  BlockBasedTableOptions topts;
  topts.block_size = 512;
  topts.block_cache = NewLRUCache(4 << 20);
  BuildAndOpen(topts);
  Cache* cache = topts.block_cache.get();
  ASSERT_EQ(cache->GetUsage(), 0u);  // index and filter in the reader

  // fill_cache = false: nothing is kept.
  ASSERT_EQ(Scan(ReadOptions(true, false)), entries_.size());
  EXPECT_EQ(cache->GetUsage(), 0u);

  ASSERT_EQ(Scan(ReadOptions()), entries_.size());
  const size_t usage = cache->GetUsage();
  EXPECT_GT(usage, 0u);
  // A second scan is served by the cache: no file reads.
  const int before = reads_.load();
  ASSERT_EQ(Scan(ReadOptions()), entries_.size());
  EXPECT_EQ(reads_.load(), before);
  EXPECT_EQ(cache->GetUsage(), usage);
  EXPECT_EQ(cache->GetPinnedUsage(), 0u);  // iterators released their pins

  // A second reader of the same file has keys of its own.
  std::unique_ptr<TableReader> first = std::move(table_);
  Reopen(*factory_);
  ASSERT_EQ(Scan(ReadOptions()), entries_.size());
  EXPECT_GT(reads_.load(), 0);
  EXPECT_GT(cache->GetUsage(), usage);
}

TEST_F(TableOptionsTest, MmapReadsUseTheFileInPlace) {
  BlockBasedTableOptions topts;
  topts.block_size = 512;
  topts.block_cache = NewLRUCache(4 << 20);
  BuildAndOpen(topts);  // uncompressed
  const size_t copied_index = table_->ApproximateMemoryUsage();
  EXPECT_GE(copied_index, table_->GetTableProperties()->index_size / 2);
  EnvOptions mmap;
  mmap.use_mmap_reads = true;
  Reopen(*factory_, nullptr, mmap);
  // The index block is the file's bytes; data blocks are neither copied
  // nor cached.
  EXPECT_LT(table_->ApproximateMemoryUsage(), copied_index / 2);
  ASSERT_EQ(Scan(ReadOptions()), entries_.size());
  EXPECT_EQ(topts.block_cache->GetUsage(), 0u);
}

TEST_F(TableOptionsTest, NoBlockCacheReadsEveryTime) {
  BlockBasedTableOptions topts;
  topts.block_size = 512;
  topts.no_block_cache = true;
  topts.block_cache = NewLRUCache(4 << 20);  // ignored
  BuildAndOpen(topts);
  const int opened = reads_.load();
  ASSERT_EQ(Scan(ReadOptions()), entries_.size());
  const int first = reads_.load() - opened;
  EXPECT_EQ(first,
            static_cast<int>(table_->GetTableProperties()->num_data_blocks));
  ASSERT_EQ(Scan(ReadOptions()), entries_.size());
  EXPECT_EQ(reads_.load() - opened, 2 * first);
  EXPECT_EQ(topts.block_cache->GetUsage(), 0u);
}

TEST_F(TableOptionsTest, IndexAndFilterInTheCache) {
  for (bool high : {true, false}) {
    BlockBasedTableOptions topts;
    topts.block_size = 512;
    topts.cache_index_and_filter_blocks = true;
    topts.cache_index_and_filter_blocks_with_high_priority = high;
    topts.filter_policy.reset(NewBloomFilterPolicy(10));
    topts.block_cache = NewLRUCache(4 << 20);
    BuildAndOpen(topts);
    auto* bbt = static_cast<BlockBasedTable*>(table_.get());
    EXPECT_FALSE(bbt->TEST_IndexInReader());
    EXPECT_TRUE(bbt->TEST_HasFilter());
    Cache* cache = topts.block_cache.get();
    const size_t meta = cache->GetUsage();
    EXPECT_GE(meta, table_->GetTableProperties()->index_size / 2);
    EXPECT_EQ(table_->ApproximateMemoryUsage(), 0u);
    EXPECT_EQ(MissReads(50), 0);  // filter from the cache says no
    // Evicted: read again from the file, then cached again.
    cache->EraseUnRefEntries();
    ASSERT_EQ(cache->GetUsage(), 0u);
    ASSERT_EQ(Scan(ReadOptions()), entries_.size());
    EXPECT_GT(cache->GetUsage(), 0u);
    EXPECT_LE(MissReads(50), 5);
    // Closing the table drops its index and filter.
    cache->EraseUnRefEntries();
    ASSERT_EQ(Scan(ReadOptions(true, false)), entries_.size());
    EXPECT_GT(cache->GetUsage(), 0u);
    table_.reset();
    EXPECT_EQ(cache->GetUsage(), 0u);
  }
}

TEST_F(TableOptionsTest, StrictFullCacheStillServesReads) {
  BlockBasedTableOptions topts;
  topts.block_size = 512;
  topts.cache_index_and_filter_blocks = true;
  topts.block_cache = NewLRUCache(1024, 0, /*strict=*/true);
  BuildAndOpen(topts);
  ASSERT_EQ(Scan(ReadOptions()), entries_.size());
  for (size_t i = 0; i < entries_.size(); i += 13) {
    LookupKey lkey(ExtractUserKey(entries_[i].first), kMaxSequenceNumber);
    test::GetResult got =
        test::CollectGet(table_.get(), ReadOptions(), lkey.internal_key());
    ASSERT_TRUE(got.status.ok());
    ASSERT_FALSE(got.entries.empty());
  }
  EXPECT_LE(topts.block_cache->GetUsage(), 1024u);
}

TEST_F(TableOptionsTest, FilterSparesReadsOfAbsentKeys) {
  BlockBasedTableOptions topts;
  topts.no_block_cache = true;
  BuildAndOpen(topts);
  const int without = MissReads(200);
  EXPECT_GE(without, 150);  // a data block read per lookup (mostly)

  topts.filter_policy.reset(NewBloomFilterPolicy(10));
  BuildAndOpen(topts);
  EXPECT_TRUE(static_cast<BlockBasedTable*>(table_.get())->TEST_HasFilter());
  EXPECT_LE(MissReads(200), 12);  // ~1% false positives
  EXPECT_GT(table_->ApproximateMemoryUsage(),
            table_->GetTableProperties()->filter_size / 2);

  // Present keys are all found through the filter.
  for (const auto& e : entries_) {
    LookupKey lkey(ExtractUserKey(e.first), kMaxSequenceNumber);
    test::GetResult got =
        test::CollectGet(table_.get(), ReadOptions(), lkey.internal_key());
    ASSERT_FALSE(got.entries.empty());
  }
}

// A reader configured with a policy of another name ignores the filter.
class OtherNamePolicy : public FilterPolicy {
 public:
  OtherNamePolicy() : base_(NewBloomFilterPolicy(10)) {}
  const char* Name() const override { return "test.OtherFilter"; }
  FilterBitsBuilder* NewBuilder() const override { return base_->NewBuilder(); }
  FilterBitsReader* NewReader(const Slice& contents) const override {
    return base_->NewReader(contents);
  }

 private:
  std::unique_ptr<const FilterPolicy> base_;
};

TEST_F(TableOptionsTest, FilterOfAnotherPolicyNameIsIgnored) {
  BlockBasedTableOptions topts;
  topts.no_block_cache = true;
  topts.filter_policy.reset(NewBloomFilterPolicy(10));
  BuildAndOpen(topts);
  topts.filter_policy = std::make_shared<OtherNamePolicy>();
  std::unique_ptr<TableFactory> other(NewBlockBasedTableFactory(topts));
  Reopen(*other);
  EXPECT_FALSE(static_cast<BlockBasedTable*>(table_.get())->TEST_HasFilter());
  EXPECT_GE(MissReads(100), 75);
  ASSERT_EQ(Scan(ReadOptions()), entries_.size());
}

TEST_F(TableOptionsTest, PrefixFilter) {
  std::unique_ptr<const SliceTransform> prefix(NewFixedPrefixTransform(3));
  BlockBasedTableOptions topts;
  topts.filter_policy.reset(NewBloomFilterPolicy(10));
  topts.whole_key_filtering = false;
  BuildAndOpen(topts, prefix.get());
  EXPECT_EQ(table_->GetTableProperties()->prefix_extractor_name,
            prefix->Name());
  EXPECT_EQ(table_->GetTableProperties()->whole_key_filtering, 0u);
  int misses = 0;
  for (const auto& e : entries_) {
    const Slice user_key = ExtractUserKey(e.first);
    if (user_key.size() < 3) continue;
    ASSERT_TRUE(table_->PrefixMayMatch(Slice(user_key.data(), 3)));
  }
  for (int i = 0; i < 100; i++) {
    const std::string p = "#" + std::to_string(10 + i);
    misses += !table_->PrefixMayMatch(p);
  }
  EXPECT_GE(misses, 90);
  // Whole keys are not in the filter, but a lookup checks the key's prefix:
  // keys of absent prefixes cost (almost) no reads.
  const int before = reads_.load();
  for (int i = 0; i < 100; i++) {
    LookupKey lkey("#" + std::to_string(10 + i) + "-key", kMaxSequenceNumber);
    test::GetResult got =
        test::CollectGet(table_.get(), ReadOptions(), lkey.internal_key());
    ASSERT_TRUE(got.status.ok());
    ASSERT_TRUE(got.entries.empty());
  }
  EXPECT_LE(reads_.load() - before, 10);

  // Opened without the extractor (or with another): no prefix filtering.
  Reopen(*factory_, nullptr);
  EXPECT_TRUE(table_->PrefixMayMatch("#10"));
  std::unique_ptr<const SliceTransform> other(NewFixedPrefixTransform(4));
  Reopen(*factory_, other.get());
  EXPECT_TRUE(table_->PrefixMayMatch("#100"));
}

// A prefix seek (prefix_same_as_start) into a table whose filter rules the
// prefix out finds nothing without reading; a total-order seek, or a
// prefix the table has, is an ordinary seek.
TEST_F(TableOptionsTest, PrefixSeekSkipsTablesWithoutThePrefix) {
  std::unique_ptr<const SliceTransform> prefix(NewFixedPrefixTransform(3));
  BlockBasedTableOptions topts;
  topts.filter_policy.reset(NewBloomFilterPolicy(10));
  topts.no_block_cache = true;
  BuildAndOpen(topts, prefix.get());
  ReadOptions prefix_seek;
  prefix_seek.prefix_same_as_start = true;
  ReadOptions total_order = prefix_seek;
  total_order.total_order_seek = true;

  std::unique_ptr<InternalIterator> it(table_->NewIterator(prefix_seek));
  std::unique_ptr<InternalIterator> all(table_->NewIterator(total_order));
  it->SetSeekConfinedToPrefix(true);   // as DBIter does for a prefix seek
  all->SetSeekConfinedToPrefix(true);  // ignored: total order
  for (const auto& e : entries_) {
    const Slice user_key = ExtractUserKey(e.first);
    if (user_key.size() < 3) continue;
    InternalKey target(Slice(user_key.data(), 3), kMaxSequenceNumber,
                       kValueTypeForSeek);
    it->Seek(target.Encode());
    ASSERT_TRUE(it->Valid());
    EXPECT_TRUE(ExtractUserKey(it->key()).starts_with(target.user_key()));
  }
  int skipped = 0;
  for (int i = 0; i < 100; i++) {
    // No key of the table has '#' in its first three bytes.
    InternalKey target("#" + std::to_string(10 + i), kMaxSequenceNumber,
                       kValueTypeForSeek);
    const int before = reads_.load();
    it->Seek(target.Encode());
    if (!it->Valid()) {
      EXPECT_TRUE(it->status().ok());
      EXPECT_EQ(before, reads_.load());
      skipped++;
      it->SeekForPrev(target.Encode());
      EXPECT_FALSE(it->Valid());
    }
    // A total-order seek lands where the model says.
    auto expected = std::lower_bound(
        entries_.begin(), entries_.end(), target.Encode().ToString(),
        [this](const std::pair<std::string, std::string>& e,
               const std::string& t) { return icmp_.Compare(e.first, t) < 0; });
    all->Seek(target.Encode());
    ASSERT_EQ(expected != entries_.end(), all->Valid());
    if (all->Valid()) {
      EXPECT_EQ(expected->first, all->key().ToString());
    }
  }
  EXPECT_GE(skipped, 90);
  // Unconfined (the caller will look past the prefix), nothing is skipped.
  it->SetSeekConfinedToPrefix(false);
  for (int i = 0; i < 100; i++) {
    InternalKey target("#" + std::to_string(10 + i), kMaxSequenceNumber,
                       kValueTypeForSeek);
    it->Seek(target.Encode());
    all->Seek(target.Encode());
    ASSERT_EQ(all->Valid(), it->Valid());
    if (it->Valid()) {
      EXPECT_EQ(all->key().ToString(), it->key().ToString());
    }
  }
  // After a skipped seek the iterator works again from a full seek.
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(entries_.front().first, it->key().ToString());
}

TEST_F(TableOptionsTest, ComparatorMismatchIsRefused) {
  BuildAndOpen(BlockBasedTableOptions());
  InternalKeyComparator reverse(ReverseBytewiseComparator());
  TableReaderOptions ropts;
  ropts.icmp = &reverse;
  std::unique_ptr<TableReader> t;
  Status s = test::OpenTable(env_, fname_, EnvOptions(), *factory_, ropts, &t);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("leveldb.BytewiseComparator"), std::string::npos);
}

TEST_F(TableOptionsTest, EmptyTable) {
  entries_.clear();
  BlockBasedTableOptions topts;
  topts.filter_policy.reset(NewBloomFilterPolicy(10));
  BuildAndOpen(topts);
  EXPECT_EQ(Scan(ReadOptions()), 0u);
  std::unique_ptr<InternalIterator> it(table_->NewIterator(ReadOptions()));
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek(InternalKey("a", 1, kTypeValue).Encode());
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(MissReads(3), 0);
  EXPECT_EQ(table_->GetTableProperties()->num_entries, 0u);
  EXPECT_EQ(table_->GetTableProperties()->filter_size, 0u);
}

TEST_F(TableOptionsTest, ValuesLargerThanABlock) {
  entries_.clear();
  for (int i = 0; i < 20; i++) {
    entries_.emplace_back(
        InternalKey("k" + std::to_string(100 + i), 5, kTypeValue)
            .Encode()
            .ToString(),
        std::string(10000 + i, static_cast<char>('a' + i)));
  }
  BlockBasedTableOptions topts;
  topts.block_size = 256;
  BuildAndOpen(topts);
  EXPECT_EQ(table_->GetTableProperties()->num_data_blocks, 20u);
  for (const auto& e : entries_) {
    test::GetResult got =
        test::CollectGet(table_.get(), ReadOptions(), e.first);
    ASSERT_EQ(got.entries.size(), 1u);
    EXPECT_EQ(got.entries[0].second, e.second);
  }
}

TEST_F(TableOptionsTest, UnknownCodecIsNotSupported) {
  std::unique_ptr<TableFactory> f(NewBlockBasedTableFactory());
  TableBuilderOptions bopts;
  bopts.icmp = &icmp_;
  bopts.compression = static_cast<CompressionType>(9);
  uint64_t size = 0;
  Status s =
      test::BuildTable(env_, dir_.File("x.sst"), *f, bopts, entries_, &size);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

TEST_F(TableOptionsTest, ConcurrentReaders) {
  BlockBasedTableOptions topts;
  topts.block_size = 512;
  topts.block_cache = NewLRUCache(64 << 10);  // smaller than the table
  topts.cache_index_and_filter_blocks = true;
  topts.filter_policy.reset(NewBloomFilterPolicy(10));
  BuildAndOpen(topts);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; round++) {
        for (size_t i = t; i < entries_.size(); i += 4) {
          LookupKey lkey(ExtractUserKey(entries_[i].first), kMaxSequenceNumber);
          test::GetResult got = test::CollectGet(table_.get(), ReadOptions(),
                                                 lkey.internal_key());
          if (!got.status.ok() || got.entries.empty()) failures++;
        }
        std::unique_ptr<InternalIterator> it(
            table_->NewIterator(ReadOptions()));
        size_t n = 0;
        for (it->SeekToLast(); it->Valid(); it->Prev()) n++;
        if (n != entries_.size()) failures++;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace strata
