// Index blocks of user keys (format version 2) and of internal keys
// (version 1): which one a table gets, and that lookups, scans and the
// index iterator agree with the model either way.

#include <cstdio>
#include <memory>
#include <string>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/comparator.h"
#include "table/block_based_table_reader.h"
#include "table/table_properties.h"
#include "test/table/table_test_util.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// Bytewise order with separators outside the allowed range (below the
// start, or the limit itself) and successors below the key: the builder
// must not trust them.
class WildSeparatorComparator : public Comparator {
 public:
  const char* Name() const override { return "test.WildSeparator"; }
  int Compare(const Slice& a, const Slice& b) const override {
    return a.compare(b);
  }
  void FindShortestSeparator(std::string* start,
                             const Slice& limit) const override {
    if (calls_++ % 2 == 0) {
      start->clear();
    } else {
      start->assign(limit.data(), limit.size());
    }
  }
  void FindShortSuccessor(std::string* key) const override { key->clear(); }

 private:
  mutable int calls_ = 0;
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
  UserKeyIndexTest()
      : icmp_(BytewiseComparator()), wild_icmp_(&wild_), dir_(env_, "uki") {}

  void BuildAndOpen(const InternalKeyComparator& icmp,
                    const test::TableEntries& entries) {
    BlockBasedTableOptions topts;
    topts.block_size = 256;
    topts.block_cache = NewLRUCache(1 << 20);
    factory_.reset(NewBlockBasedTableFactory(topts));
    TableBuilderOptions bopts;
    bopts.icmp = &icmp;
    const std::string fname = dir_.File("000001.sst");
    uint64_t size = 0;
    ASSERT_TRUE(
        test::BuildTable(env_, fname, *factory_, bopts, entries, &size).ok());
    TableReaderOptions ropts;
    ropts.icmp = &icmp;
    table_.reset();
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
  WildSeparatorComparator wild_;
  InternalKeyComparator wild_icmp_;
  test::TempDir dir_;
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
  // The same blocks, one table with a key spanning two of them far from
  // the rest: the user-key index saves about the trailer a block.
  const test::TableEntries unique = Entries(2000, 1);
  BuildAndOpen(icmp_, unique);
  ASSERT_EQ(2u, FormatVersion());
  const uint64_t blocks = table_->GetTableProperties()->num_data_blocks;
  const uint64_t user_index = table_->GetTableProperties()->index_size;
  test::TableEntries spanning = Entries(2000, 12);
  BuildAndOpen(icmp_, spanning);
  ASSERT_EQ(1u, FormatVersion());
  const uint64_t internal_index = table_->GetTableProperties()->index_size;
  EXPECT_LT(user_index + blocks * 6, internal_index)
      << user_index << " vs " << internal_index << " for " << blocks
      << " blocks";
}

TEST_F(UserKeyIndexTest, SeparatorsOutsideTheirRangeAreNotTrusted) {
  for (int versions : {1, 100}) {
    const test::TableEntries entries = Entries(1000, versions);
    BuildAndOpen(wild_icmp_, entries);
    EXPECT_EQ(versions == 1 ? 2u : 1u, FormatVersion());
    Check(wild_icmp_, entries);
  }
}

}  // namespace
}  // namespace strata
