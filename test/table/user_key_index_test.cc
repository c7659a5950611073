// Index blocks of user keys (format version 2) and of internal keys
// (version 1): which one a table gets, and that lookups, scans and the
// index iterator agree with the model either way.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/comparator.h"
#include "strata/env.h"
#include "table/block_based_table_reader.h"
#include "table/table_properties.h"
#include "test/table/table_test_util.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// Bytewise order with separators outside the allowed range, as mode
// says, and successors below the key: the builder must not trust them.
class WildSeparatorComparator : public Comparator {
 public:
  enum Mode { kBelowStart, kAtLimit, kPastLimit };
  explicit WildSeparatorComparator(Mode mode) : mode_(mode) {}

  const char* Name() const override { return "test.WildSeparator"; }
  int Compare(const Slice& a, const Slice& b) const override {
    return a.compare(b);
  }
  void FindShortestSeparator(std::string* start,
                             const Slice& limit) const override {
    switch (mode_) {
      case kBelowStart:
        start->clear();
        break;
      case kAtLimit:
        start->assign(limit.data(), limit.size());
        break;
      case kPastLimit:
        // Shorter than start and above limit ("key..." -> "kez").
        start->assign(limit.data(), 2);
        start->push_back(static_cast<char>(limit[2] + 1));
        break;
    }
  }
  void FindShortSuccessor(std::string* key) const override { key->clear(); }

 private:
  const Mode mode_;
};

std::string UserKey(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

std::string IKey(const std::string& user_key, SequenceNumber seq,
                 ValueType type = kTypeValue) {
  std::string key;
  AppendInternalKey(&key, ParsedInternalKey(user_key, seq, type));
  return key;
}

// n user keys of one version each; with versions_of_middle > 1, the
// middle key has that many (enough to span blocks).
test::TableEntries Entries(int n, int versions_of_middle) {
  test::TableEntries entries;
  for (int i = 0; i < n; i++) {
    const int versions = i == n / 2 ? versions_of_middle : 1;
    for (int v = 0; v < versions; v++) {
      entries.emplace_back(IKey(UserKey(i), 1000000 - v),
                           "value-" + std::to_string(i) + "-" +
                               std::to_string(v) + std::string(20, 'x'));
    }
  }
  return entries;
}

class UserKeyIndexTest : public testing::Test {
 protected:
  UserKeyIndexTest() : icmp_(BytewiseComparator()), dir_(env_, "uki") {}

  // Builds entries (in icmp's order) in blocks of 256 bytes and opens the
  // table, with topts' other options.
  void BuildAndOpen(const InternalKeyComparator& icmp,
                    const test::TableEntries& entries,
                    BlockBasedTableOptions topts = BlockBasedTableOptions()) {
    topts.block_size = 256;
    topts.block_cache = NewLRUCache(1 << 20);
    factory_.reset(NewBlockBasedTableFactory(topts));
    TableBuilderOptions bopts;
    bopts.icmp = &icmp;
    fname_ = dir_.File("000001.sst");
    const std::string& fname = fname_;
    uint64_t size = 0;
    table_.reset();  // the file is written again
    ASSERT_TRUE(
        test::BuildTable(env_, fname, *factory_, bopts, entries, &size).ok());
    TableReaderOptions ropts;
    ropts.icmp = &icmp;
    ASSERT_TRUE(
        test::OpenTable(env_, fname, EnvOptions(), *factory_, ropts, &table_)
            .ok());
  }

  uint64_t FormatVersion() const {
    return table_->GetTableProperties()->format_version;
  }

  // Scans, Gets (present and absent keys) and the index iterator against
  // entries.
  void Check(const InternalKeyComparator& icmp,
             const test::TableEntries& entries) {
    ReadOptions ro;
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ro));
    size_t i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_LT(i, entries.size());
      ASSERT_EQ(entries[i].first, it->key().ToString());
    }
    ASSERT_TRUE(it->status().ok());
    ASSERT_EQ(entries.size(), i);

    for (size_t j = 0; j < entries.size(); j++) {
      const Slice user_key = ExtractUserKey(entries[j].first);
      if (j > 0 && ExtractUserKey(entries[j - 1].first) == user_key) continue;
      LookupKey lkey(user_key, kMaxSequenceNumber);
      test::GetResult got =
          test::CollectGet(table_.get(), ro, lkey.internal_key());
      ASSERT_TRUE(got.status.ok()) << got.status.ToString();
      size_t k = j;
      for (const auto& e : got.entries) {
        ASSERT_LT(k, entries.size());
        ASSERT_EQ(entries[k], e);
        k++;
      }
      ASSERT_TRUE(k == entries.size() ||
                  ExtractUserKey(entries[k].first) != user_key)
          << "Get missed versions of " << user_key.ToString();
      // Between this key and the next, before and after every key.
      for (const std::string& absent :
           {user_key.ToString() + "a", std::string("a"), std::string("z")}) {
        LookupKey miss(absent, kMaxSequenceNumber);
        got = test::CollectGet(table_.get(), ro, miss.internal_key());
        ASSERT_TRUE(got.status.ok());
        ASSERT_TRUE(got.entries.empty()) << absent;
      }
    }

    // One MultiGet of every user key (and a key after each) in order: each
    // gets its versions, as the model has them.
    std::vector<std::string> keys;
    std::vector<test::TableEntries> want;
    for (size_t j = 0; j < entries.size(); j++) {
      const Slice user_key = ExtractUserKey(entries[j].first);
      if (j == 0 || ExtractUserKey(entries[j - 1].first) != user_key) {
        keys.push_back(
            IKey(user_key.ToString(), kMaxSequenceNumber, kValueTypeForSeek));
        want.emplace_back();
        keys.push_back(IKey(user_key.ToString() + "a", kMaxSequenceNumber,
                            kValueTypeForSeek));
        want.emplace_back();
        want[want.size() - 2].push_back(entries[j]);
      } else {
        want[want.size() - 2].push_back(entries[j]);
      }
    }
    std::vector<test::TableEntries> got(keys.size());
    std::vector<TableLookup> lookups(keys.size());
    std::vector<TableLookup*> ptrs;
    for (size_t j = 0; j < keys.size(); j++) {
      lookups[j].internal_key = keys[j];
      lookups[j].arg = &got[j];
      ptrs.push_back(&lookups[j]);
    }
    table_->MultiGet(
        ro, ptrs.data(), ptrs.size(),
        [](void* arg, const Slice& key, const Slice& value, CachePin*) {
          static_cast<test::TableEntries*>(arg)->emplace_back(key.ToString(),
                                                              value.ToString());
          return true;
        });
    for (size_t j = 0; j < keys.size(); j++) {
      ASSERT_TRUE(lookups[j].status.ok()) << lookups[j].status.ToString();
      ASSERT_EQ(want[j], got[j]) << "MultiGet of key " << j;
    }

    // The index over internal keys: Seek lands on the first entry >= the
    // target, SeekForPrev on the last <= it, targets of every trailer
    // (0 included: the last internal key of its user key).
    std::unique_ptr<InternalIterator> index(
        static_cast<BlockBasedTable*>(table_.get())->TEST_NewIndexIterator());
    for (size_t j = 0; j < entries.size(); j++) {
      const std::string user_key = ExtractUserKey(entries[j].first).ToString();
      for (const std::string& target :
           {entries[j].first, IKey(user_key, 0, kTypeDeletion),
            IKey(user_key, kMaxSequenceNumber, kValueTypeForSeek)}) {
        index->Seek(target);
        if (!index->Valid()) {
          // Only past the table's last key: the last separator need not
          // reach further.
          ASSERT_GT(icmp.Compare(target, entries.back().first), 0);
          index->SeekToLast();
          ASSERT_TRUE(index->Valid());
          ASSERT_LT(icmp.Compare(index->key(), target), 0);
          continue;
        }
        ASSERT_GE(icmp.Compare(index->key(), target), 0);
        index->Prev();
        if (index->Valid()) {
          ASSERT_LT(icmp.Compare(index->key(), target), 0);
        }
        index->SeekForPrev(target);
        if (index->Valid()) {
          ASSERT_LE(icmp.Compare(index->key(), target), 0);
          index->Next();
          if (index->Valid()) {
            ASSERT_GT(icmp.Compare(index->key(), target), 0);
          }
        }
      }
    }
    ASSERT_TRUE(index->status().ok());
  }

  Env* const env_ = Env::Default();
  InternalKeyComparator icmp_;
  test::TempDir dir_;
  std::string fname_;
  std::unique_ptr<TableFactory> factory_;
  std::unique_ptr<TableReader> table_;
};

TEST_F(UserKeyIndexTest, OneVersionPerKeyGivesUserKeys) {
  const test::TableEntries entries = Entries(2000, 1);
  BuildAndOpen(icmp_, entries);
  EXPECT_EQ(2u, FormatVersion());
  EXPECT_GT(table_->GetTableProperties()->num_data_blocks, 100u);
  Check(icmp_, entries);
}

TEST_F(UserKeyIndexTest, AUserKeySpanningBlocksKeepsInternalKeys) {
  const test::TableEntries entries = Entries(2000, 100);
  BuildAndOpen(icmp_, entries);
  EXPECT_EQ(1u, FormatVersion());
  Check(icmp_, entries);
  // Older versions of the spanning key from a lookup below the newest.
  const std::string middle = UserKey(1000);
  LookupKey older(middle, 1000000 - 60);
  test::GetResult got =
      test::CollectGet(table_.get(), ReadOptions(), older.internal_key());
  ASSERT_TRUE(got.status.ok());
  ASSERT_EQ(40u, got.entries.size());
  EXPECT_EQ(IKey(middle, 1000000 - 60), got.entries.front().first);
}

TEST_F(UserKeyIndexTest, TheUserKeyIndexIsSmaller) {
  // The same keys, one of them spanning two blocks in the second table:
  // the user-key index saves about the trailer a block.
  BuildAndOpen(icmp_, Entries(2000, 1));
  ASSERT_EQ(2u, FormatVersion());
  const auto user = table_->GetTableProperties();
  BuildAndOpen(icmp_, Entries(2000, 12));
  ASSERT_EQ(1u, FormatVersion());
  const auto internal = table_->GetTableProperties();
  const double user_per_block =
      static_cast<double>(user->index_size) / user->num_data_blocks;
  const double internal_per_block =
      static_cast<double>(internal->index_size) / internal->num_data_blocks;
  EXPECT_LT(user_per_block + 6, internal_per_block);
}

TEST_F(UserKeyIndexTest, SeparatorsOutsideTheirRangeAreNotTrusted) {
  for (auto mode :
       {WildSeparatorComparator::kBelowStart, WildSeparatorComparator::kAtLimit,
        WildSeparatorComparator::kPastLimit}) {
    WildSeparatorComparator wild(mode);
    InternalKeyComparator icmp(&wild);
    for (int versions : {1, 100}) {
      SCOPED_TRACE(std::to_string(mode) + " " + std::to_string(versions));
      const test::TableEntries entries = Entries(1000, versions);
      BuildAndOpen(icmp, entries);
      EXPECT_EQ(versions == 1 ? 2u : 1u, FormatVersion());
      Check(icmp, entries);
      table_.reset();
    }
  }
}

TEST_F(UserKeyIndexTest, IndexInTheCacheRestartsAndAnotherOrder) {
  BlockBasedTableOptions cached;
  cached.cache_index_and_filter_blocks = true;
  BlockBasedTableOptions restarts;
  restarts.index_block_restart_interval = 4;
  InternalKeyComparator reverse(ReverseBytewiseComparator());
  struct Case {
    const InternalKeyComparator* icmp;
    BlockBasedTableOptions topts;
  } cases[] = {{&icmp_, cached}, {&icmp_, restarts}, {&reverse, restarts}};
  for (const Case& c : cases) {
    for (int versions : {1, 100}) {
      SCOPED_TRACE(std::string(c.icmp->Name()) + " " +
                   std::to_string(versions));
      test::TableEntries entries = Entries(1000, versions);
      test::SortTableEntries(*c.icmp, &entries);
      BuildAndOpen(*c.icmp, entries, c.topts);
      EXPECT_EQ(versions == 1 ? 2u : 1u, FormatVersion());
      Check(*c.icmp, entries);
    }
  }
}

TEST_F(UserKeyIndexTest, AChangedVersionByteIsFound) {
  // The footer has no checksum; the properties name the version too.
  for (int versions : {1, 100}) {
    BuildAndOpen(icmp_, Entries(500, versions));
    const uint64_t version = FormatVersion();
    table_.reset();
    std::string contents;
    ASSERT_TRUE(ReadFileToString(env_, fname_, &contents).ok());
    // The fixed32 version sits 12 bytes before the end (then the magic).
    const size_t at = contents.size() - 12;
    ASSERT_EQ(version, static_cast<uint8_t>(contents[at]));
    contents[at] = static_cast<char>(version == 1 ? 2 : 1);
    ASSERT_TRUE(WriteStringToFile(env_, contents, fname_).ok());
    TableReaderOptions ropts;
    ropts.icmp = &icmp_;
    Status s =
        test::OpenTable(env_, fname_, EnvOptions(), *factory_, ropts, &table_);
    ASSERT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.ToString().find("format version"), std::string::npos)
        << s.ToString();
    EXPECT_TRUE(test::IsLocatedCorruption(s, fname_)) << s.ToString();
  }
}

}  // namespace
}  // namespace strata
