#include "memtable/memtable.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "test/db/read_view_test_util.h"
#include "util/random.h"

namespace strata {
namespace {

// Holds the test's reference; Unref deletes the memtable at the end.
class MemTableTest : public testing::Test {
 protected:
  MemTableTest() : icmp_(BytewiseComparator()), mem_(new MemTable(icmp_)) {
    mem_->Ref();
  }
  ~MemTableTest() override { mem_->Unref(); }

  void Add(SequenceNumber seq, ValueType type, const std::string& key,
           const std::string& value = "") {
    ASSERT_TRUE(mem_->Add(seq, type, key, value).ok());
  }

  // The DB's point lookup over this memtable: the value, "NOT_FOUND" or
  // "ERROR: ...".
  std::string Get(const std::string& key, SequenceNumber seq,
                  const MergeOperator* merge_operator = nullptr) {
    test::MemTableReader reader(icmp_, mem_);
    return reader.Get(key, seq, merge_operator);
  }

  InternalKeyComparator icmp_;
  MemTable* mem_;
};

std::string IKey(const std::string& user_key, SequenceNumber seq,
                 ValueType type) {
  return InternalKey(user_key, seq, type).Encode().ToString();
}

TEST_F(MemTableTest, EmptyMemTable) {
  EXPECT_EQ("NOT_FOUND", Get("a", kMaxSequenceNumber));
  EXPECT_EQ(0u, mem_->num_entries());
  EXPECT_EQ(0u, mem_->GetFirstSequenceNumber());
  std::unique_ptr<InternalIterator> it(mem_->NewIterator());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
}

TEST_F(MemTableTest, NewerVersionIsHiddenFromOlderLookups) {
  Add(10, kTypeValue, "k", "v10");
  Add(20, kTypeValue, "k", "v20");
  EXPECT_EQ("NOT_FOUND", Get("k", 9));
  EXPECT_EQ("v10", Get("k", 10));
  EXPECT_EQ("v10", Get("k", 19));
  EXPECT_EQ("v20", Get("k", 20));
  EXPECT_EQ("v20", Get("k", kMaxSequenceNumber));
  // Neighbouring keys do not leak into each other.
  EXPECT_EQ("NOT_FOUND", Get("j", 100));
  EXPECT_EQ("NOT_FOUND", Get(std::string("k\0", 2), 100));
  EXPECT_EQ("NOT_FOUND", Get("kk", 100));
}

TEST_F(MemTableTest, DeletionHides) {
  Add(1, kTypeValue, "k", "v1");
  Add(2, kTypeDeletion, "k");
  Add(3, kTypeValue, "k", "v3");
  EXPECT_EQ("v1", Get("k", 1));
  EXPECT_EQ("NOT_FOUND", Get("k", 2));
  EXPECT_EQ("v3", Get("k", 3));
}

TEST_F(MemTableTest, SingleDeletionHides) {
  Add(5, kTypeValue, "k", "v5");
  Add(6, kTypeSingleDeletion, "k");
  EXPECT_EQ("v5", Get("k", 5));
  EXPECT_EQ("NOT_FOUND", Get("k", 6));
  EXPECT_EQ("NOT_FOUND", Get("k", 100));
}

TEST_F(MemTableTest, MergeOperandsAreResolved) {
  const std::shared_ptr<MergeOperator> append =
      MergeOperators::CreateStringAppendOperator();
  Add(1, kTypeValue, "k", "base");
  Add(2, kTypeMerge, "k", "+1");
  Add(3, kTypeMerge, "k", "+2");
  Add(4, kTypeDeletion, "k");
  Add(5, kTypeMerge, "k", "+5");
  Add(1, kTypeMerge, "m", "only");
  EXPECT_EQ("base", Get("k", 1, append.get()));
  EXPECT_EQ("base,+1", Get("k", 2, append.get()));
  EXPECT_EQ("base,+1,+2", Get("k", 3, append.get()));
  EXPECT_EQ("NOT_FOUND", Get("k", 4, append.get()));
  EXPECT_EQ("+5", Get("k", 5, append.get()));  // merged onto the deletion
  EXPECT_EQ("only", Get("m", 1, append.get()));
  // Without an operator a merge operand cannot be read.
  EXPECT_EQ(0u, Get("k", 2).find("ERROR: Invalid argument")) << Get("k", 2);
  EXPECT_EQ("base", Get("k", 1));
}

TEST_F(MemTableTest, DuplicateAddIsTryAgain) {
  Add(7, kTypeValue, "k", "v");
  Status s = mem_->Add(7, kTypeValue, "k", "other");
  EXPECT_TRUE(s.IsTryAgain()) << s.ToString();
  s = mem_->Add(7, kTypeValue, "k", "v", /*allow_concurrent=*/true);
  EXPECT_TRUE(s.IsTryAgain()) << s.ToString();
  EXPECT_EQ("v", Get("k", 7));  // the first one stays
  EXPECT_EQ(1u, mem_->num_entries());
  // Same key and sequence, another type: a different entry.
  EXPECT_TRUE(mem_->Add(7, kTypeMerge, "k", "m").ok());
  EXPECT_EQ(2u, mem_->num_entries());
}

// Range tombstones are accepted (test/memtable/range_tombstone_test.cc).
TEST_F(MemTableTest, NonEntryTypesAreRejected) {
  EXPECT_TRUE(mem_->Add(1, kTypeLogData, "a", "").IsInvalidArgument());
  EXPECT_EQ(0u, mem_->num_entries());
}

TEST_F(MemTableTest, EmptyKeyAndLargeValue) {
  const std::string big(100000, 'x');
  Add(1, kTypeValue, "", "empty-key");
  Add(2, kTypeValue, "big", big);
  EXPECT_EQ("empty-key", Get("", 5));
  EXPECT_EQ(big, Get("big", 5));
}

TEST_F(MemTableTest, IteratorOrdersVersionsNewestFirst) {
  Add(3, kTypeValue, "b", "b3");
  Add(1, kTypeValue, "a", "a1");
  Add(5, kTypeDeletion, "b");
  Add(4, kTypeValue, "b", "b4");
  Add(2, kTypeValue, "c", "c2");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {IKey("a", 1, kTypeValue), "a1"}, {IKey("b", 5, kTypeDeletion), ""},
      {IKey("b", 4, kTypeValue), "b4"}, {IKey("b", 3, kTypeValue), "b3"},
      {IKey("c", 2, kTypeValue), "c2"},
  };

  std::unique_ptr<InternalIterator> it(mem_->NewIterator());
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    ASSERT_LT(i, expected.size());
    EXPECT_EQ(expected[i].first, it->key().ToString()) << i;
    EXPECT_EQ(expected[i].second, it->value().ToString()) << i;
  }
  EXPECT_EQ(expected.size(), i);
  i = expected.size();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_GT(i, 0u);
    i--;
    EXPECT_EQ(expected[i].first, it->key().ToString()) << i;
  }
  EXPECT_EQ(0u, i);

  // Seek takes internal keys: b at sequence 4 lands on b@4; a seek key
  // (kValueTypeForSeek) at sequence 100 lands on the newest b.
  it->Seek(IKey("b", 4, kTypeValue));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("b", 4, kTypeValue), it->key().ToString());
  it->Seek(IKey("b", 100, kValueTypeForSeek));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("b", 5, kTypeDeletion), it->key().ToString());
  it->Seek(IKey("b", 2, kValueTypeForSeek));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("c", 2, kTypeValue), it->key().ToString());
  it->Seek(IKey("d", 100, kValueTypeForSeek));
  EXPECT_FALSE(it->Valid());

  it->SeekForPrev(IKey("b", 4, kTypeValue));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("b", 4, kTypeValue), it->key().ToString());
  it->SeekForPrev(IKey("b", 0, kTypeDeletion));  // after every b version
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(IKey("b", 3, kTypeValue), it->key().ToString());
  it->SeekForPrev(IKey("a", 2, kTypeValue));  // before the only a
  EXPECT_FALSE(it->Valid());
}

// What point lookups walk: the versions of one user key visible at the
// lookup's sequence, newest first, until the visitor stops.
TEST_F(MemTableTest, ForEachVersionVisitsOneKeyNewestFirst) {
  Add(1, kTypeValue, "a", "a1");
  Add(2, kTypeValue, "b", "b2");
  Add(3, kTypeMerge, "b", "b3");
  Add(4, kTypeDeletion, "b");
  Add(5, kTypeValue, "b", "b5");
  Add(6, kTypeValue, "bb", "bb6");
  Add(7, kTypeRangeDeletion, "a", "z");  // not a point version
  struct Seen {
    std::vector<std::string> entries;
    size_t stop_after = 100;
  };
  auto visit = [](void* arg, const Slice& ikey, const Slice& value) {
    auto* seen = static_cast<Seen*>(arg);
    seen->entries.push_back(ikey.ToString() + "=" + value.ToString());
    return seen->entries.size() < seen->stop_after;
  };
  Seen all;
  mem_->ForEachVersion(LookupKey("b", 4), &all, visit);
  EXPECT_EQ((std::vector<std::string>{IKey("b", 4, kTypeDeletion) + "=",
                                      IKey("b", 3, kTypeMerge) + "=b3",
                                      IKey("b", 2, kTypeValue) + "=b2"}),
            all.entries);
  Seen first;
  first.stop_after = 1;
  mem_->ForEachVersion(LookupKey("b", kMaxSequenceNumber), &first, visit);
  EXPECT_EQ(std::vector<std::string>{IKey("b", 5, kTypeValue) + "=b5"},
            first.entries);
  Seen none;
  mem_->ForEachVersion(LookupKey("a", 0), &none, visit);  // a is at 1
  mem_->ForEachVersion(LookupKey("c", kMaxSequenceNumber), &none, visit);
  EXPECT_TRUE(none.entries.empty());
}

TEST_F(MemTableTest, Counters) {
  Add(100, kTypeValue, "key1", "value1");
  Add(50, kTypeDeletion, "key2");
  Add(70, kTypeSingleDeletion, "key3");
  Add(80, kTypeMerge, "key4", "m");
  EXPECT_EQ(4u, mem_->num_entries());
  EXPECT_EQ(2u, mem_->num_deletes());
  EXPECT_EQ(4u * 4 + 6 + 1, mem_->data_size());
  EXPECT_EQ(50u, mem_->GetFirstSequenceNumber());
  // A refused duplicate counts for nothing.
  EXPECT_TRUE(mem_->Add(50, kTypeDeletion, "key2", "").IsTryAgain());
  EXPECT_EQ(4u, mem_->num_entries());
  EXPECT_EQ(2u, mem_->num_deletes());
}

TEST_F(MemTableTest, MemoryUsageGrowsWithData) {
  const size_t empty = mem_->ApproximateMemoryUsage();
  const std::string value(1000, 'v');
  for (int i = 0; i < 2000; i++) {
    Add(i + 1, kTypeValue, "key" + std::to_string(i), value);
  }
  // At least the data itself; reserved chunks keep it from being exact.
  EXPECT_GE(mem_->ApproximateMemoryUsage(), empty + 2000 * 1000);
  EXPECT_LE(mem_->ApproximateMemoryUsage(), empty + 2000 * 1000 * 2);
}

// Writers Add with allow_concurrent while readers Get and iterate; at the
// end every entry is there and the counters add up.
TEST_F(MemTableTest, ConcurrentAdd) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 2000;
  std::atomic<bool> go{false};
  std::atomic<int> writers_done{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      for (int i = 0; i < kPerThread; i++) {
        // Sequences are unique across threads; keys repeat across them.
        const SequenceNumber seq = 1 + i * kThreads + t;
        const ValueType type = i % 10 == 9 ? kTypeDeletion : kTypeValue;
        Status s = mem_->Add(seq, type, "k" + std::to_string(i % 500),
                             type == kTypeValue ? std::to_string(seq) : "",
                             /*allow_concurrent=*/true);
        EXPECT_TRUE(s.ok()) << s.ToString();
      }
      writers_done.fetch_add(1, std::memory_order_release);
    });
  }
  const test::MemTableReader reader(icmp_, mem_);
  threads.emplace_back([&] {
    Random rnd(3);
    while (writers_done.load(std::memory_order_acquire) < kThreads) {
      const std::string key = "k" + std::to_string(rnd.Uniform(500));
      const std::string value = reader.Get(key, kMaxSequenceNumber);
      // A version's value is its sequence number.
      EXPECT_TRUE(value == "NOT_FOUND" ||
                  (!value.empty() &&
                   value.find_first_not_of("0123456789") == std::string::npos))
          << value;
      std::unique_ptr<InternalIterator> it(mem_->NewIterator());
      std::string prev;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::string k = it->key().ToString();
        if (!prev.empty()) {
          ASSERT_LT(icmp_.Compare(prev, k), 0);
        }
        prev = k;
      }
    }
  });
  go.store(true, std::memory_order_release);
  for (auto& th : threads) th.join();

  constexpr uint64_t kTotal = kThreads * kPerThread;
  EXPECT_EQ(kTotal, mem_->num_entries());
  EXPECT_EQ(kTotal / 10, mem_->num_deletes());
  EXPECT_EQ(1u, mem_->GetFirstSequenceNumber());
  std::unique_ptr<InternalIterator> it(mem_->NewIterator());
  uint64_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  EXPECT_EQ(kTotal, n);
  // The newest version of k7 is i = 1507 (i % 500 == 7) from the last
  // thread: seq 1 + 1507 * 4 + 3, a value.
  const SequenceNumber newest = 1 + 1507 * kThreads + (kThreads - 1);
  EXPECT_EQ(std::to_string(newest), Get("k7", kMaxSequenceNumber));
  // k9's versions are all deletions (i % 10 == 9).
  EXPECT_EQ("NOT_FOUND", Get("k9", kMaxSequenceNumber));
}

}  // namespace
}  // namespace strata
