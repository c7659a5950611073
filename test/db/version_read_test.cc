// The read path of a Version over real block-based tables opened through
// a TableCache: Get visits files newest data first (shadowing across
// levels, a user key split over two files of a level), AddIterators
// merged gives every entry in order, and LevelIterator walks and seeks
// like a model and passes prefix confinement through.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/level_iterator.h"
#include "db/range_del_aggregator.h"
#include "db/table_cache.h"
#include "db/version.h"
#include "db/version_builder.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "strata/table.h"
#include "table/merging_iterator.h"
#include "test/table/table_test_util.h"
#include "test/util/vector_iterator.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr int kReadLevels = 4;
constexpr char kDB[] = "/versiondb";

using Entries = test::TableEntries;

class VersionReadTest : public testing::Test {
 protected:
  VersionReadTest()
      : env_(NewMemEnv(Env::Default())),
        icmp_(BytewiseComparator()),
        prefix_(NewFixedPrefixTransform(2)) {
    BlockBasedTableOptions topts;
    topts.block_size = 128;  // several blocks per table
    topts.filter_policy.reset(NewBloomFilterPolicy(10));
    factory_.reset(NewBlockBasedTableFactory(topts));
    env_->CreateDirIfMissing(kDB);
  }

  ~VersionReadTest() override {
    if (version_ != nullptr) version_->Unref();
  }

  // Writes entries (any order) as table number, adding it to *edit. Its
  // boundaries take in the range tombstones' ends as a flush's do (a
  // tombstone's end, exclusive, as its largest key), and are widened to
  // *smallest / *largest if given.
  void AddTable(VersionEdit* edit, int level, uint64_t number, Entries entries,
                const InternalKey* smallest = nullptr,
                const InternalKey* largest = nullptr) {
    ASSERT_FALSE(entries.empty());
    test::SortTableEntries(icmp_, &entries);
    TableBuilderOptions bopts;
    bopts.icmp = &icmp_;
    bopts.prefix_extractor = prefix_.get();
    uint64_t size = 0;
    Status s = test::BuildTable(env_.get(), TableFileName(kDB, number),
                                *factory_, bopts, entries, &size);
    ASSERT_TRUE(s.ok()) << s.ToString();
    FileMetaData f;
    f.number = number;
    f.file_size = size;
    for (const auto& e : entries) {
      f.UpdateBoundaries(e.first, ExtractSequence(e.first));
    }
    for (const auto& e : entries) {
      if (ExtractValueType(e.first) != kTypeRangeDeletion) continue;
      const InternalKey end(e.second, kMaxSequenceNumber, kTypeRangeDeletion);
      if (icmp_.Compare(end.Encode(), f.largest.Encode()) > 0) f.largest = end;
    }
    if (smallest != nullptr) f.smallest = *smallest;
    if (largest != nullptr) f.largest = *largest;
    if (record_counts_) {
      f.counts_known = true;
      for (const auto& e : entries) {
        const ValueType type = ExtractValueType(e.first);
        f.num_entries++;
        if (type == kTypeDeletion || type == kTypeSingleDeletion) {
          f.num_deletions++;
        } else if (type == kTypeRangeDeletion) {
          f.num_range_deletions++;
        }
      }
    }
    edit->AddFile(level, f);
  }

  void Install(const VersionEdit& edit) {
    Version* empty = new Version(&icmp_, kReadLevels);
    empty->Ref();
    version_ = new Version(&icmp_, kReadLevels);
    version_->Ref();
    {
      VersionBuilder builder(&icmp_, empty);
      Status s = builder.Apply(edit);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_TRUE(builder.SaveTo(version_).ok());
    }
    empty->Unref();
  }

  TableCache* Cache(int max_open_files) {
    TableCacheOptions copts;
    copts.env = env_.get();
    copts.dbname = kDB;
    copts.table_factory = factory_.get();
    copts.reader_options.icmp = &icmp_;
    copts.reader_options.prefix_extractor = prefix_.get();
    copts.max_open_files = max_open_files;
    cache_.reset(new TableCache(copts));
    return cache_.get();
  }

  std::unique_ptr<Env> env_;
  InternalKeyComparator icmp_;
  std::unique_ptr<const SliceTransform> prefix_;
  std::shared_ptr<TableFactory> factory_;
  std::unique_ptr<TableCache> cache_;
  Version* version_ = nullptr;
  // AddTable records the table's counts in its metadata, as a flush or
  // compaction does (else they are unknown, as after an open of an older
  // MANIFEST).
  bool record_counts_ = false;
};

// Splits sorted entries into count contiguous runs (a sorted level).
std::vector<Entries> SplitSorted(const Entries& sorted, int count) {
  std::vector<Entries> runs;
  const size_t per = (sorted.size() + count - 1) / count;
  for (size_t i = 0; i < sorted.size(); i += per) {
    runs.emplace_back(sorted.begin() + i,
                      sorted.begin() + std::min(sorted.size(), i + per));
  }
  return runs;
}

bool CollectAll(void* arg, const Slice& key, const Slice& value, CachePin*) {
  static_cast<Entries*>(arg)->emplace_back(key.ToString(), value.ToString());
  return true;
}

bool CollectFirst(void* arg, const Slice& key, const Slice& value, CachePin*) {
  static_cast<Entries*>(arg)->emplace_back(key.ToString(), value.ToString());
  return false;
}

// A history of writes, seq 1..n, over a few keys: the oldest third in
// level 2 (three files), the next in level 1 (three files), the newest in
// three overlapping level 0 files — as flushes and compactions leave it.
// Splitting a sorted run puts some key's versions in two files.
TEST_F(VersionReadTest, GetAndIteratorsAgainstModel) {
  Random rnd(99);
  for (int round = 0; round < 12; round++) {
    SCOPED_TRACE(round);
    const std::string dir_round = std::to_string(round);
    const int num_keys = 1 + rnd.Uniform(25);
    const int n = 30 + rnd.Uniform(200);
    Entries all, thirds[3];
    for (int i = 1; i <= n; i++) {
      const std::string key =
          "k" + std::to_string(rnd.Uniform(num_keys)) + dir_round;
      const ValueType type = rnd.OneIn(5) ? kTypeDeletion : kTypeValue;
      std::string ikey;
      AppendInternalKey(&ikey, ParsedInternalKey(key, i, type));
      const std::string value =
          type == kTypeValue ? "v" + std::to_string(i) : "";
      all.emplace_back(ikey, value);
      thirds[(i - 1) * 3 / n].emplace_back(ikey, value);
    }
    VersionEdit edit;
    uint64_t number = 100 * (round + 1);
    for (int t = 0; t < 2; t++) {
      test::SortTableEntries(icmp_, &thirds[t]);
      for (const Entries& run : SplitSorted(thirds[t], 3)) {
        AddTable(&edit, 2 - t, number++, run);
      }
    }
    // Level 0: split by time, so the files overlap in keys.
    for (size_t i = 0; i < thirds[2].size(); i += (thirds[2].size() + 2) / 3) {
      AddTable(&edit, 0, number++,
               Entries(thirds[2].begin() + i,
                       thirds[2].begin() +
                           std::min(thirds[2].size(),
                                    i + (thirds[2].size() + 2) / 3)));
    }
    if (version_ != nullptr) version_->Unref();
    version_ = nullptr;
    Install(edit);
    TableCache* cache = Cache(/*max_open_files=*/rnd.OneIn(2) ? 2 : -1);
    test::SortTableEntries(icmp_, &all);

    // Get: every version of the key visible at the read sequence, newest
    // first; stopping at the first gives the newest.
    for (int q = 0; q < 60; q++) {
      const std::string key =
          "k" + std::to_string(rnd.Uniform(num_keys + 1)) + dir_round;
      const SequenceNumber read_seq = rnd.Uniform(n + 2);
      Entries expected;
      for (const auto& e : all) {
        if (ExtractUserKey(e.first) == key &&
            ExtractSequence(e.first) <= read_seq) {
          expected.push_back(e);
        }
      }
      LookupKey lkey(key, read_seq);
      Entries got;
      ASSERT_TRUE(version_
                      ->Get(ReadOptions(), lkey.internal_key(), cache, &got,
                            &CollectAll)
                      .ok());
      EXPECT_EQ(expected, got) << key << " @" << read_seq << "\n"
                               << version_->DebugString();
      Entries first;
      ASSERT_TRUE(version_
                      ->Get(ReadOptions(), lkey.internal_key(), cache, &first,
                            &CollectFirst)
                      .ok());
      EXPECT_EQ(expected.empty() ? Entries() : Entries{expected[0]}, first);
    }

    // AddIterators, merged: every entry, in order, both ways; seeks.
    std::vector<InternalIterator*> children;
    version_->AddIterators(ReadOptions(), cache, &children);
    EXPECT_EQ(static_cast<size_t>(version_->NumFiles(0) + 2), children.size());
    std::unique_ptr<InternalIterator> merged(
        NewMergingIterator(&icmp_, std::move(children)));
    Entries scanned;
    for (merged->SeekToFirst(); merged->Valid(); merged->Next()) {
      scanned.emplace_back(merged->key().ToString(),
                           merged->value().ToString());
    }
    ASSERT_TRUE(merged->status().ok()) << merged->status().ToString();
    EXPECT_EQ(all, scanned);
    Entries reversed;
    for (merged->SeekToLast(); merged->Valid(); merged->Prev()) {
      reversed.emplace_back(merged->key().ToString(),
                            merged->value().ToString());
    }
    std::reverse(reversed.begin(), reversed.end());
    EXPECT_EQ(all, reversed);
    test::VectorIterator model(&icmp_, all);
    for (int q = 0; q < 40; q++) {
      const std::string target =
          InternalKey(
              "k" + std::to_string(rnd.Uniform(num_keys + 1)) + dir_round,
              rnd.Uniform(n + 2), kValueTypeForSeek)
              .Encode()
              .ToString();
      merged->Seek(target);
      model.Seek(target);
      ASSERT_EQ(model.Valid(), merged->Valid());
      if (model.Valid()) {
        EXPECT_EQ(model.key(), merged->key());
      }
    }
  }
}

// The walk of one sorted level, against a model, through a cache that
// keeps one table open: the iterator pins the table it is on.
TEST_F(VersionReadTest, LevelIteratorAgainstModel) {
  Random rnd(7);
  Entries all;
  for (int i = 0; i < 300; i++) {
    std::string ikey;
    AppendInternalKey(&ikey, ParsedInternalKey("key" + std::to_string(i * 7),
                                               i + 1, kTypeValue));
    all.emplace_back(ikey, "value" + std::to_string(i));
  }
  test::SortTableEntries(icmp_, &all);
  VersionEdit edit;
  uint64_t number = 10;
  for (const Entries& run : SplitSorted(all, 9)) {
    AddTable(&edit, 1, number++, run);
  }
  Install(edit);
  TableCache* cache = Cache(/*max_open_files=*/1);
  std::unique_ptr<InternalIterator> iter(
      NewLevelIterator(ReadOptions(), cache, &icmp_, &version_->files(1)));
  test::VectorIterator model(&icmp_, all);

  for (int step = 0; step < 3000; step++) {
    const int op = rnd.Uniform(8);
    const std::string target =
        InternalKey("key" + std::to_string(rnd.Uniform(2200)), rnd.Uniform(400),
                    kValueTypeForSeek)
            .Encode()
            .ToString();
    if (op == 0) {
      iter->SeekToFirst();
      model.SeekToFirst();
    } else if (op == 1) {
      iter->SeekToLast();
      model.SeekToLast();
    } else if (op == 2) {
      iter->Seek(target);
      model.Seek(target);
    } else if (op == 3) {
      iter->SeekForPrev(target);
      model.SeekForPrev(target);
    } else if (model.Valid() && op < 6) {
      iter->Next();
      model.Next();
    } else if (model.Valid()) {
      iter->Prev();
      model.Prev();
    }
    ASSERT_EQ(model.Valid(), iter->Valid()) << step;
    ASSERT_TRUE(iter->status().ok());
    if (model.Valid()) {
      ASSERT_EQ(model.key(), iter->key()) << step;
      ASSERT_EQ(model.value(), iter->value()) << step;
    }
  }
}

TEST_F(VersionReadTest, LevelIteratorEmptyLevelAndMissingFile) {
  std::vector<FileMetaData*> none;
  TableCache* cache = Cache(-1);
  std::unique_ptr<InternalIterator> empty(
      NewLevelIterator(ReadOptions(), cache, &icmp_, &none));
  empty->SeekToFirst();
  EXPECT_FALSE(empty->Valid());
  empty->SeekToLast();
  EXPECT_FALSE(empty->Valid());
  empty->SeekForPrev("x");
  EXPECT_FALSE(empty->Valid());
  EXPECT_TRUE(empty->status().ok());

  // A file the level names but the directory lacks: the error stops the
  // walk, it is not skipped.
  VersionEdit edit;
  AddTable(&edit, 1, 1,
           {{InternalKey("a", 1, kTypeValue).Encode().ToString(), "1"}});
  edit.AddFile(1, 2, 100, InternalKey("b", 1, kTypeValue),
               InternalKey("c", 1, kTypeValue), 1, 1);
  Install(edit);
  std::unique_ptr<InternalIterator> iter(
      NewLevelIterator(ReadOptions(), cache, &icmp_, &version_->files(1)));
  iter->SeekToFirst();
  ASSERT_TRUE(iter->Valid());
  iter->Next();
  EXPECT_FALSE(iter->Valid());
  EXPECT_FALSE(iter->status().ok());
  LookupKey lkey("b", 5);
  Entries got;
  EXPECT_FALSE(
      version_
          ->Get(ReadOptions(), lkey.internal_key(), cache, &got, &CollectAll)
          .ok());
}

// Files of prefixes "aa"/"ab", "ad", "af": a confined seek for "ac" is
// turned away by the filter of the file it lands in and leaves the level
// empty; unconfined, it lands on the next key.
TEST_F(VersionReadTest, LevelIteratorPassesPrefixConfinement) {
  auto entry = [](const std::string& k) {
    return Entries::value_type(
        InternalKey(k, 1, kTypeValue).Encode().ToString(), "v" + k);
  };
  VersionEdit edit;
  AddTable(&edit, 1, 1, {entry("aa1"), entry("ab1")});
  AddTable(&edit, 1, 2, {entry("ad1"), entry("ad2")});
  AddTable(&edit, 1, 3, {entry("ad3"), entry("af1")});
  Install(edit);
  TableCache* cache = Cache(-1);
  ReadOptions ro;
  ro.prefix_same_as_start = true;  // tables check prefixes when confined
  std::unique_ptr<InternalIterator> iter(
      NewLevelIterator(ro, cache, &icmp_, &version_->files(1)));
  const std::string ac =
      InternalKey("ac5", 9, kValueTypeForSeek).Encode().ToString();
  const std::string ae =
      InternalKey("ae5", 9, kValueTypeForSeek).Encode().ToString();
  const std::string ad =
      InternalKey("ad25", 9, kValueTypeForSeek).Encode().ToString();

  iter->Seek(ac);
  ASSERT_TRUE(iter->Valid());
  EXPECT_EQ("ad1", ExtractUserKey(iter->key()).ToString());
  iter->SeekForPrev(ae);
  ASSERT_TRUE(iter->Valid());
  EXPECT_EQ("ad3", ExtractUserKey(iter->key()).ToString());

  iter->SetSeekConfinedToPrefix(true);
  iter->Seek(ac);
  EXPECT_FALSE(iter->Valid());
  EXPECT_TRUE(iter->status().ok());
  iter->SeekForPrev(ae);
  EXPECT_FALSE(iter->Valid());
  EXPECT_TRUE(iter->status().ok());
  // A prefix that continues into the next file is still found.
  iter->Seek(ad);
  ASSERT_TRUE(iter->Valid());
  EXPECT_EQ("ad3", ExtractUserKey(iter->key()).ToString());
  iter->Prev();
  ASSERT_TRUE(iter->Valid());
  EXPECT_EQ("ad2", ExtractUserKey(iter->key()).ToString());

  iter->SetSeekConfinedToPrefix(false);
  iter->Seek(ac);
  ASSERT_TRUE(iter->Valid());
  EXPECT_EQ("ad1", ExtractUserKey(iter->key()).ToString());
}

TEST_F(VersionReadTest, ConfinedSeeksPassTombstoneWidenedBounds) {
  auto entry = [](const std::string& k) {
    return Entries::value_type(
        InternalKey(k, 1, kTypeValue).Encode().ToString(), "v" + k);
  };
  // Table 1's points end at ab1 but a tombstone widened it to ad1; table
  // 3's points start at af1 but a tombstone widened it down to ad5.
  const InternalKey wide_end("ad1", kMaxSequenceNumber, kTypeRangeDeletion);
  const InternalKey wide_start("ad5", 2, kTypeRangeDeletion);
  VersionEdit edit;
  AddTable(&edit, 1, 1, {entry("aa1"), entry("ab1")}, nullptr, &wide_end);
  AddTable(&edit, 1, 2, {entry("ad1"), entry("ad2")});
  AddTable(&edit, 1, 3, {entry("af1"), entry("ag1")}, &wide_start, nullptr);
  Install(edit);
  ReadOptions ro;
  ro.prefix_same_as_start = true;
  std::unique_ptr<InternalIterator> iter(
      NewLevelIterator(ro, Cache(-1), &icmp_, &version_->files(1)));
  iter->SetSeekConfinedToPrefix(true);
  // The seek lands in table 1, which has nothing of prefix "ad"; table 2
  // has.
  iter->Seek(InternalKey("ad0", 9, kValueTypeForSeek).Encode());
  ASSERT_TRUE(iter->Valid()) << iter->status().ToString();
  EXPECT_EQ("ad1", ExtractUserKey(iter->key()).ToString());
  // Backwards: lands in table 3, whose points all lie after ad7.
  iter->SeekForPrev(InternalKey("ad7", 9, kValueTypeForSeek).Encode());
  ASSERT_TRUE(iter->Valid()) << iter->status().ToString();
  EXPECT_EQ("ad2", ExtractUserKey(iter->key()).ToString());
}

// AddRangeTombstones looks only at tables whose range meets the keys
// asked for and that may hold tombstones: a point lookup opens the one
// table per sorted level that can cover the key, whatever the number of
// files, and none whose counts say it holds no tombstone.
TEST_F(VersionReadTest, RangeTombstonesComeOnlyFromTablesThatMayCoverTheKeys) {
  constexpr int kFiles = 40;
  auto name = [](int i, const char* suffix) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "f%03d%s", i, suffix);
    return std::string(buf);
  };
  auto value = [](const std::string& k, SequenceNumber seq) {
    return Entries::value_type(
        InternalKey(k, seq, kTypeValue).Encode().ToString(), "v");
  };
  auto tombstone = [](const std::string& begin, const std::string& end,
                      SequenceNumber seq) {
    return Entries::value_type(
        InternalKey(begin, seq, kTypeRangeDeletion).Encode().ToString(), end);
  };
  // Level 1: file i holds f<i>a..f<i>z; the even ones also a tombstone
  // [f<i>b, f<i>y) at 100 + i. Counts recorded.
  record_counts_ = true;
  VersionEdit edit;
  for (int i = 0; i < kFiles; i++) {
    Entries entries = {value(name(i, "a"), 1), value(name(i, "z"), 1)};
    if (i % 2 == 0) {
      entries.push_back(tombstone(name(i, "b"), name(i, "y"), 100 + i));
    }
    AddTable(&edit, 1, 10 + i, entries);
  }
  // The last file of level 1: a tombstone [f050b, f052) reaching past its
  // only point key, f050a.
  AddTable(&edit, 1, 60,
           {value(name(50, "a"), 1), tombstone(name(50, "b"), "f052", 150)});
  // Level 0, counts unknown: one table over files 5..7 without tombstones,
  // which must be looked at all the same, and one over file 30 with one.
  record_counts_ = false;
  AddTable(&edit, 0, 1, {value(name(5, "c"), 200), value(name(7, "c"), 201)});
  AddTable(&edit, 0, 2,
           {value(name(30, "c"), 202),
            tombstone(name(30, "c"), name(30, "d"), 203)});
  Install(edit);

  // How many tables AddRangeTombstones opened, and what it gathered.
  struct Result {
    size_t opened;
    SequenceNumber covering;
  };
  auto gather = [&](const std::string* lo, const std::string* hi,
                    const std::string& probe) {
    TableCache* cache = Cache(-1);
    RangeDelAggregator agg = RangeDelAggregator::ForRead(
        icmp_.user_comparator(), kMaxSequenceNumber);
    const Slice lo_slice = lo != nullptr ? Slice(*lo) : Slice();
    const Slice hi_slice = hi != nullptr ? Slice(*hi) : Slice();
    Status s = version_->AddRangeTombstones(
        ReadOptions(), cache, lo != nullptr ? &lo_slice : nullptr,
        hi != nullptr ? &hi_slice : nullptr, &agg);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return Result{cache->NumOpen(), agg.MaxCoveringSeq(probe)};
  };

  // A key in an even file: that table alone.
  std::string key = name(10, "m");
  Result r = gather(&key, &key, key);
  EXPECT_EQ(1u, r.opened);
  EXPECT_EQ(110u, r.covering);
  // Outside the tombstone of its table.
  key = name(10, "z");
  r = gather(&key, &key, key);
  EXPECT_EQ(1u, r.opened);
  EXPECT_EQ(0u, r.covering);
  // A key in an odd file (recorded: no tombstones) opens nothing.
  key = name(11, "m");
  r = gather(&key, &key, key);
  EXPECT_EQ(0u, r.opened);
  EXPECT_EQ(0u, r.covering);
  // Between two files.
  key = name(12, "zz");
  r = gather(&key, &key, key);
  EXPECT_EQ(0u, r.opened);
  // A key under the level-0 table of unknown counts: it is opened.
  key = name(6, "m");
  r = gather(&key, &key, key);
  EXPECT_EQ(2u, r.opened);  // that one and file 6
  EXPECT_EQ(106u, r.covering);
  key = name(30, "c");
  r = gather(&key, &key, key);
  EXPECT_EQ(2u, r.opened);
  EXPECT_EQ(203u, r.covering);
  // Beyond the last point key of a table, under its tombstone: found by
  // the table's boundaries, which the tombstone's end sets.
  key = name(51, "m");
  r = gather(&key, &key, key);
  EXPECT_EQ(1u, r.opened);
  EXPECT_EQ(150u, r.covering);
  key = "f052";  // the end is exclusive
  r = gather(&key, &key, key);
  EXPECT_EQ(0u, r.covering);
  // A range: every table in it that may hold tombstones.
  const std::string lo = name(20, "");
  const std::string hi = name(25, "");
  r = gather(&lo, &hi, name(22, "c"));
  EXPECT_EQ(3u, r.opened);  // 20, 22, 24
  EXPECT_EQ(122u, r.covering);
  // Unbounded: all of them.
  r = gather(nullptr, nullptr, name(38, "x"));
  EXPECT_EQ(kFiles / 2 + 3u, r.opened);
  EXPECT_EQ(138u, r.covering);
}

}  // namespace
}  // namespace strata
