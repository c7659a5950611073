// Block-based tables round-trip: built from a random model of internal
// keys, read back over a grid of block sizes, codecs, filter on/off,
// buffered / direct / mmap reads and one or several versions per user key
// (an index of user keys, format version 2, or of internal keys),
// checked against the model.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "table/compression.h"
#include "table/table_properties.h"
#include "test/table/table_test_util.h"
#include "test/util/temp_dir.h"
#include "util/random.h"

namespace strata {
namespace {

enum class ReadMode { kBuffered, kDirect, kMmap };

const char* ReadModeName(ReadMode mode) {
  switch (mode) {
    case ReadMode::kBuffered:
      return "buffered";
    case ReadMode::kDirect:
      return "direct";
    case ReadMode::kMmap:
      return "mmap";
  }
  return "?";
}

using GridParam = std::tuple<uint64_t /*block_size*/, CompressionType,
                             bool /*filter*/, ReadMode, bool /*one_version*/>;

class TableRoundTripTest : public testing::TestWithParam<GridParam> {
 protected:
  TableRoundTripTest() : icmp_(BytewiseComparator()), dir_(env_, "table") {}

  const test::TableEntries& entries() const { return entries_; }

  // Builds the table of the parameters; false (having checked the
  // builder's refusal) if this build lacks the codec.
  bool Build() {
    BlockBasedTableOptions topts;
    topts.block_size = std::get<0>(GetParam());
    if (std::get<2>(GetParam())) {
      topts.filter_policy.reset(NewBloomFilterPolicy(10));
    }
    topts.block_cache = NewLRUCache(1 << 20);
    factory_.reset(NewBlockBasedTableFactory(topts));
    TableBuilderOptions bopts;
    bopts.icmp = &icmp_;
    bopts.compression = std::get<1>(GetParam());
    bopts.creation_time = 1234567;
    entries_ = test::RandomTableEntries(301, 1500, icmp_);
    if (std::get<4>(GetParam())) {
      // The newest version of each user key only.
      test::TableEntries newest;
      for (const auto& e : entries_) {
        if (newest.empty() ||
            ExtractUserKey(newest.back().first) != ExtractUserKey(e.first)) {
          newest.push_back(e);
        }
      }
      entries_.swap(newest);
    }
    fname_ = dir_.File("000001.sst");
    Status s =
        test::BuildTable(env_, fname_, *factory_, bopts, entries_, &file_size_);
    if (!CompressionSupported(bopts.compression)) {
      EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
      EXPECT_NE(s.ToString().find(CompressionTypeName(bopts.compression)),
                std::string::npos)
          << s.ToString();
      return false;
    }
    EXPECT_TRUE(s.ok()) << s.ToString();
    return s.ok();
  }

  // Opens the table in the parameters' read mode; false if direct I/O is
  // not available on this file system.
  bool Open() {
    EnvOptions eo;
    const ReadMode mode = std::get<3>(GetParam());
    eo.use_direct_reads = mode == ReadMode::kDirect;
    eo.use_mmap_reads = mode == ReadMode::kMmap;
    TableReaderOptions ropts;
    ropts.icmp = &icmp_;
    Status s = test::OpenTable(env_, fname_, eo, *factory_, ropts, &table_);
    if (mode == ReadMode::kDirect &&
        (s.IsInvalidArgument() || s.IsNotSupported())) {
      std::printf("direct I/O unsupported here (%s): read mode skipped\n",
                  s.ToString().c_str());
      return false;
    }
    EXPECT_TRUE(s.ok()) << s.ToString();
    return s.ok();
  }

  Env* const env_ = Env::Default();
  InternalKeyComparator icmp_;
  test::TempDir dir_;
  std::unique_ptr<TableFactory> factory_;
  test::TableEntries entries_;
  std::string fname_;
  uint64_t file_size_ = 0;
  std::unique_ptr<TableReader> table_;
};

TEST_P(TableRoundTripTest, ScansSeeksGetsAndProperties) {
  if (!Build()) GTEST_SKIP() << "codec not built in (refusal checked)";
  if (!Open()) GTEST_SKIP() << "direct I/O unsupported on this file system";
  const test::TableEntries& model = entries();
  ReadOptions ro;

  // Full scans, both directions.
  {
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ro));
    size_t i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_LT(i, model.size());
      ASSERT_EQ(it->key().ToString(), model[i].first);
      ASSERT_EQ(it->value().ToString(), model[i].second);
    }
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
    ASSERT_EQ(i, model.size());
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      ASSERT_GT(i, 0u);
      i--;
      ASSERT_EQ(it->key().ToString(), model[i].first);
    }
    ASSERT_TRUE(it->status().ok());
    ASSERT_EQ(i, 0u);
  }

  // Seek / SeekForPrev to model keys and to keys between them.
  Random rnd(77);
  auto less = [this](const auto& e, const std::string& k) {
    return icmp_.Compare(e.first, k) < 0;
  };
  std::unique_ptr<InternalIterator> it(table_->NewIterator(ro));
  for (int n = 0; n < 400; n++) {
    const auto& base = model[rnd.Uniform(static_cast<int>(model.size()))];
    std::string target = base.first;
    if (rnd.OneIn(2)) {
      // Same user key, another sequence number: between versions.
      target.clear();
      AppendInternalKey(
          &target, ParsedInternalKey(ExtractUserKey(base.first),
                                     rnd.Uniform(2000000), kValueTypeForSeek));
    }
    auto lb = std::lower_bound(model.begin(), model.end(), target, less);
    it->Seek(target);
    if (lb == model.end()) {
      ASSERT_FALSE(it->Valid());
    } else {
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(it->key().ToString(), lb->first);
      it->Next();
      if (lb + 1 == model.end()) {
        ASSERT_FALSE(it->Valid());
      } else {
        ASSERT_TRUE(it->Valid());
        ASSERT_EQ(it->key().ToString(), (lb + 1)->first);
      }
    }
    // SeekForPrev: the last entry <= target.
    auto ub = std::upper_bound(model.begin(), model.end(), target,
                               [this](const std::string& k, const auto& e) {
                                 return icmp_.Compare(k, e.first) < 0;
                               });
    it->SeekForPrev(target);
    if (ub == model.begin()) {
      ASSERT_FALSE(it->Valid());
    } else {
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(it->key().ToString(), (ub - 1)->first);
      it->Prev();
      if (ub - 1 == model.begin()) {
        ASSERT_FALSE(it->Valid());
      } else {
        ASSERT_TRUE(it->Valid());
        ASSERT_EQ(it->key().ToString(), (ub - 2)->first);
      }
    }
  }
  ASSERT_TRUE(it->status().ok());

  // Get: every version of each user key from the lookup's sequence down.
  for (size_t i = 0; i < model.size(); i++) {
    const Slice user_key = ExtractUserKey(model[i].first);
    if (i > 0 && ExtractUserKey(model[i - 1].first) == user_key) continue;
    LookupKey lkey(user_key, kMaxSequenceNumber);
    test::GetResult got =
        test::CollectGet(table_.get(), ro, lkey.internal_key());
    ASSERT_TRUE(got.status.ok()) << got.status.ToString();
    size_t j = i;
    for (const auto& e : got.entries) {
      ASSERT_LT(j, model.size());
      ASSERT_EQ(e, model[j]);
      j++;
    }
    ASSERT_TRUE(j == model.size() || ExtractUserKey(model[j].first) != user_key)
        << "Get missed versions";
    ASSERT_GT(j, i);
    // At a sequence below the newest version's: the older ones only.
    const SequenceNumber newest = ExtractSequence(model[i].first);
    if (newest > 0) {
      LookupKey older(user_key, newest - 1);
      got = test::CollectGet(table_.get(), ro, older.internal_key());
      ASSERT_TRUE(got.status.ok());
      ASSERT_EQ(got.entries.size(), j - i - 1);
    }
  }
  // Absent user keys: nothing.
  for (int n = 0; n < 200; n++) {
    const std::string user_key = "absent-" + std::to_string(n);
    LookupKey lkey(user_key, kMaxSequenceNumber);
    test::GetResult got =
        test::CollectGet(table_.get(), ro, lkey.internal_key());
    ASSERT_TRUE(got.status.ok());
    ASSERT_TRUE(got.entries.empty());
  }

  // ApproximateOffsetOf: 0 at the start, monotonic, the file size past
  // the end.
  uint64_t last = 0;
  ASSERT_EQ(table_->ApproximateOffsetOf(model.front().first), 0u);
  for (size_t i = 0; i < model.size(); i += 7) {
    const uint64_t off = table_->ApproximateOffsetOf(model[i].first);
    ASSERT_GE(off, last);
    ASSERT_LE(off, file_size_);
    last = off;
  }
  std::string past;
  AppendInternalKey(&past,
                    ParsedInternalKey("\xff\xff\xff\xff", 0, kTypeDeletion));
  ASSERT_EQ(table_->ApproximateOffsetOf(past), file_size_);

  // Properties.
  auto props = table_->GetTableProperties();
  ASSERT_NE(props, nullptr);
  uint64_t deletions = 0, merges = 0, key_bytes = 0, value_bytes = 0;
  SequenceNumber smallest = kMaxSequenceNumber, largest = 0;
  for (const auto& e : model) {
    const ValueType t = ExtractValueType(e.first);
    deletions += t == kTypeDeletion || t == kTypeSingleDeletion;
    merges += t == kTypeMerge;
    key_bytes += e.first.size();
    value_bytes += e.second.size();
    smallest = std::min(smallest, ExtractSequence(e.first));
    largest = std::max(largest, ExtractSequence(e.first));
  }
  EXPECT_EQ(props->num_entries, model.size());
  EXPECT_EQ(props->num_deletions, deletions);
  EXPECT_EQ(props->num_merge_operands, merges);
  EXPECT_EQ(props->num_range_deletions, 0u);
  EXPECT_EQ(props->raw_key_size, key_bytes);
  EXPECT_EQ(props->raw_value_size, value_bytes);
  EXPECT_EQ(props->smallest_seqno, smallest);
  EXPECT_EQ(props->largest_seqno, largest);
  EXPECT_EQ(props->creation_time, 1234567u);
  // One version per user key: no user key spans two blocks, so the index
  // holds user keys. Several, in blocks this small: some key does.
  if (std::get<4>(GetParam())) {
    EXPECT_EQ(props->format_version, 2u);
  } else if (std::get<0>(GetParam()) <= 1024) {
    EXPECT_EQ(props->format_version, 1u);
  }
  EXPECT_EQ(props->comparator_name, "leveldb.BytewiseComparator");
  EXPECT_EQ(props->compression_name,
            CompressionTypeName(std::get<1>(GetParam())));
  EXPECT_GE(props->num_data_blocks, 1u);
  // Small blocks: many of them.
  if (std::get<0>(GetParam()) <= 1024) {
    EXPECT_GT(props->num_data_blocks, 20u);
  }
  EXPECT_GT(props->index_size, 0u);
  EXPECT_LT(props->data_size + props->index_size + props->filter_size,
            file_size_);
  if (std::get<2>(GetParam())) {
    EXPECT_GT(props->filter_size, 0u);
    EXPECT_EQ(props->filter_policy_name, "strata.BloomFilter");
    EXPECT_EQ(props->whole_key_filtering, 1u);
  } else {
    EXPECT_EQ(props->filter_size, 0u);
    EXPECT_EQ(props->filter_policy_name, "");
  }
  // Compressible values: compression shrinks the data.
  if (std::get<1>(GetParam()) != kNoCompression) {
    EXPECT_LT(props->data_size, props->raw_key_size + props->raw_value_size);
  }
}

std::string GridName(const testing::TestParamInfo<GridParam>& info) {
  return "block" + std::to_string(std::get<0>(info.param)) + "_" +
         CompressionTypeName(std::get<1>(info.param)) + "_" +
         (std::get<2>(info.param) ? "filter" : "nofilter") + "_" +
         ReadModeName(std::get<3>(info.param)) +
         (std::get<4>(info.param) ? "_oneversion" : "_versions");
}

INSTANTIATE_TEST_SUITE_P(
    Grid, TableRoundTripTest,
    testing::Combine(testing::Values(uint64_t{256}, uint64_t{1024},
                                     uint64_t{4096}, uint64_t{65536}),
                     testing::Values(kNoCompression, kSnappyCompression,
                                     kZlibCompression),
                     testing::Bool(),
                     testing::Values(ReadMode::kBuffered, ReadMode::kDirect,
                                     ReadMode::kMmap),
                     testing::Bool()),
    GridName);

}  // namespace
}  // namespace strata
