#include "memtable/memtable_list.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "memtable/memtable.h"
#include "strata/comparator.h"
#include "test/db/read_view_test_util.h"

namespace strata {
namespace {

// Memtables here are referenced only by the list (the creator's reference
// is dropped right after Add), so a version that failed to keep one alive
// shows up as a use-after-free under ASan, and one that failed to let go
// as a leak.
class MemTableListTest : public testing::Test {
 protected:
  MemTableListTest() : icmp_(BytewiseComparator()) {}

  // A memtable holding entries, handed over to list_.
  MemTable* AddMemTable(
      const std::vector<std::pair<SequenceNumber, std::string>>& puts,
      const std::vector<SequenceNumber>& deletes = {},
      const std::string& deleted_key = "") {
    MemTable* m = new MemTable(icmp_);
    m->Ref();
    for (const auto& put : puts) {
      const std::string key = put.second.substr(0, put.second.find('='));
      const std::string value = put.second.substr(put.second.find('=') + 1);
      EXPECT_TRUE(m->Add(put.first, kTypeValue, key, value).ok());
    }
    for (SequenceNumber seq : deletes) {
      EXPECT_TRUE(m->Add(seq, kTypeDeletion, deleted_key, "").ok());
    }
    list_.Add(m);
    m->Unref();  // the list keeps it
    return m;
  }

  // The DB's point lookup over v's memtables (under an empty active
  // one): the value, "NOT_FOUND" or "ERROR: ...".
  std::string Get(MemTableListVersion* v, const std::string& key,
                  SequenceNumber seq) {
    test::MemTableReader reader(icmp_, nullptr, v);
    return reader.Get(key, seq);
  }

  // One new iterator per memtable of v, newest first (the caller deletes
  // them and keeps v referenced while they live).
  static std::vector<InternalIterator*> Iterators(MemTableListVersion* v) {
    std::vector<InternalIterator*> iters;
    for (MemTable* m : v->memtables()) iters.push_back(m->NewIterator());
    return iters;
  }

  InternalKeyComparator icmp_;
  MemTableList list_;
};

TEST_F(MemTableListTest, EmptyList) {
  EXPECT_EQ(0, list_.NumNotFlushed());
  EXPECT_EQ(0u, list_.ApproximateMemoryUsage());
  EXPECT_EQ("NOT_FOUND", Get(list_.current(), "k", kMaxSequenceNumber));
  EXPECT_TRUE(list_.current()->memtables().empty());
}

TEST_F(MemTableListTest, GetReadsNewestMemTableFirst) {
  MemTable* older = AddMemTable({{1, "k=old"}, {2, "x=x2"}, {3, "only=o"}});
  MemTable* newer = AddMemTable({{10, "k=new"}}, {11}, "x");
  ASSERT_EQ(2, list_.NumNotFlushed());
  EXPECT_EQ(newer, list_.current()->memtables()[0]);
  EXPECT_EQ(older, list_.current()->memtables()[1]);

  MemTableListVersion* v = list_.current();
  EXPECT_EQ("new", Get(v, "k", kMaxSequenceNumber));
  EXPECT_EQ("new", Get(v, "k", 10));
  // Nothing in the newer memtable is visible at 9: the older one answers.
  EXPECT_EQ("old", Get(v, "k", 9));
  EXPECT_EQ("NOT_FOUND", Get(v, "k", 0));
  // A tombstone in the newer memtable hides the older value.
  EXPECT_EQ("NOT_FOUND", Get(v, "x", 11));
  EXPECT_EQ("x2", Get(v, "x", 10));
  EXPECT_EQ("o", Get(v, "only", 100));
  EXPECT_EQ("NOT_FOUND", Get(v, "missing", 100));
}

TEST_F(MemTableListTest, MemoryUsageIsTheSumOverMemTables) {
  MemTable* a = AddMemTable({{1, "a=1"}});
  MemTable* b = AddMemTable({{2, "b=" + std::string(100000, 'b')}});
  EXPECT_EQ(a->ApproximateMemoryUsage() + b->ApproximateMemoryUsage(),
            list_.ApproximateMemoryUsage());
  EXPECT_EQ(list_.ApproximateMemoryUsage(),
            list_.current()->ApproximateMemoryUsage());
  list_.RemoveOldest(1);
  EXPECT_EQ(b->ApproximateMemoryUsage(), list_.ApproximateMemoryUsage());
}

TEST_F(MemTableListTest, RemoveOldestDropsOnlyTheOldest) {
  AddMemTable({{1, "a=1"}});
  MemTable* second = AddMemTable({{2, "b=2"}});
  MemTable* third = AddMemTable({{3, "c=3"}});
  list_.RemoveOldest(1);
  ASSERT_EQ(2, list_.NumNotFlushed());
  EXPECT_EQ(third, list_.current()->memtables()[0]);
  EXPECT_EQ(second, list_.current()->memtables()[1]);
  EXPECT_EQ("NOT_FOUND", Get(list_.current(), "a", 100));
  EXPECT_EQ("2", Get(list_.current(), "b", 100));
  list_.RemoveOldest(2);
  EXPECT_EQ(0, list_.NumNotFlushed());
  EXPECT_EQ("NOT_FOUND", Get(list_.current(), "c", 100));
  list_.RemoveOldest(0);  // nothing to do
  EXPECT_EQ(0, list_.NumNotFlushed());
}

TEST_F(MemTableListTest, ReferencedVersionKeepsMemTablesAlive) {
  AddMemTable({{1, "a=1"}});
  AddMemTable({{2, "b=2"}});
  MemTableListVersion* reader = list_.current();
  reader->Ref();  // a reader pins the version under the DB mutex
  std::vector<InternalIterator*> iters = Iterators(reader);

  list_.RemoveOldest(2);  // both flushed
  AddMemTable({{3, "c=3"}});
  EXPECT_EQ(1, list_.NumNotFlushed());
  EXPECT_EQ("NOT_FOUND", Get(list_.current(), "a", 100));

  // The reader's version is unchanged and its memtables still readable.
  EXPECT_EQ(2, reader->NumMemTables());
  EXPECT_EQ("1", Get(reader, "a", 100));
  EXPECT_EQ("2", Get(reader, "b", 100));
  EXPECT_EQ("NOT_FOUND", Get(reader, "c", 100));
  ASSERT_EQ(2u, iters.size());
  iters[1]->SeekToFirst();
  ASSERT_TRUE(iters[1]->Valid());
  EXPECT_EQ("a", ExtractUserKey(iters[1]->key()).ToString());
  EXPECT_EQ("1", iters[1]->value().ToString());

  for (InternalIterator* it : iters) delete it;
  reader->Unref();  // the last holder: the flushed memtables go now
}

TEST_F(MemTableListTest, IteratorsComeNewestFirst) {
  AddMemTable({{1, "k=v1"}, {2, "m=v2"}});
  AddMemTable({{3, "k=v3"}});
  std::vector<InternalIterator*> iters = Iterators(list_.current());
  ASSERT_EQ(2u, iters.size());

  std::vector<std::string> seen;
  for (InternalIterator* it : iters) {
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ParsedInternalKey parsed;
      ASSERT_TRUE(ParseInternalKey(it->key(), &parsed).ok());
      seen.push_back(parsed.user_key.ToString() + "@" +
                     std::to_string(parsed.sequence) + "=" +
                     it->value().ToString());
    }
    delete it;
  }
  EXPECT_EQ((std::vector<std::string>{"k@3=v3", "k@1=v1", "m@2=v2"}), seen);
}

TEST_F(MemTableListTest, VersionsShareMemTables) {
  MemTable* first = AddMemTable({{1, "a=1"}});
  MemTableListVersion* v1 = list_.current();
  v1->Ref();
  AddMemTable({{2, "b=2"}});
  MemTableListVersion* v2 = list_.current();
  EXPECT_NE(v1, v2);
  ASSERT_EQ(1, v1->NumMemTables());
  ASSERT_EQ(2, v2->NumMemTables());
  EXPECT_EQ(first, v1->memtables()[0]);
  EXPECT_EQ(first, v2->memtables()[1]);
  v1->Unref();
  // first lives on in v2.
  EXPECT_EQ("1", Get(list_.current(), "a", 100));
}

}  // namespace
}  // namespace strata
