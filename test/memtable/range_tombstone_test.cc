// Range tombstones in the memtable: stored apart from the point entries
// (their own iterator, counted), and honoured by Get — against a model of
// random puts, deletes and range deletions read at random sequences, with
// tombstones handed in from newer sources; and concurrent adds.

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "memtable/memtable.h"
#include "strata/comparator.h"
#include "util/random.h"

namespace strata {
namespace {

class MemTableRangeDelTest : public testing::Test {
 protected:
  MemTableRangeDelTest()
      : icmp_(BytewiseComparator()), mem_(new MemTable(icmp_)) {
    mem_->Ref();
  }
  ~MemTableRangeDelTest() override { mem_->Unref(); }

  // "value", "NOT_FOUND" or "ABSENT"; *max_seq in and out.
  std::string Get(const std::string& key, SequenceNumber seq,
                  SequenceNumber* max_seq) {
    LookupKey lkey(key, seq);
    std::string value;
    Status s;
    if (!mem_->Get(lkey, &value, &s, max_seq)) return "ABSENT";
    if (s.IsNotFound()) return "NOT_FOUND";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }
  std::string Get(const std::string& key, SequenceNumber seq) {
    SequenceNumber max_seq = 0;
    const std::string with_overload = Get(key, seq, &max_seq);
    // The old signature agrees.
    LookupKey lkey(key, seq);
    std::string value;
    Status s;
    const bool found = mem_->Get(lkey, &value, &s);
    EXPECT_EQ(with_overload, !found           ? "ABSENT"
                             : s.IsNotFound() ? "NOT_FOUND"
                                              : value);
    return with_overload;
  }

  InternalKeyComparator icmp_;
  MemTable* mem_;
};

TEST_F(MemTableRangeDelTest, StoredApart) {
  EXPECT_EQ(nullptr, mem_->NewRangeTombstoneIterator());
  ASSERT_TRUE(mem_->Add(1, kTypeValue, "b", "vb").ok());
  ASSERT_TRUE(mem_->Add(2, kTypeRangeDeletion, "c", "f").ok());
  ASSERT_TRUE(mem_->Add(3, kTypeRangeDeletion, "a", "d").ok());
  ASSERT_TRUE(mem_->Add(4, kTypeRangeDeletion, "a", "b").ok());
  // Same tombstone again (a replayed WAL): refused like a point entry.
  EXPECT_TRUE(mem_->Add(4, kTypeRangeDeletion, "a", "b").IsTryAgain());
  EXPECT_EQ(4u, mem_->num_entries());
  EXPECT_EQ(3u, mem_->num_range_deletes());
  EXPECT_EQ(0u, mem_->num_deletes());
  EXPECT_EQ((1u + 2) + 2 + 2 + 2, mem_->data_size());
  EXPECT_EQ(1u, mem_->GetFirstSequenceNumber());

  std::unique_ptr<InternalIterator> points(mem_->NewIterator());
  points->SeekToFirst();
  ASSERT_TRUE(points->Valid());
  EXPECT_EQ("b", ExtractUserKey(points->key()).ToString());
  points->Next();
  EXPECT_FALSE(points->Valid());

  std::unique_ptr<InternalIterator> iter(mem_->NewRangeTombstoneIterator());
  ASSERT_NE(nullptr, iter);
  std::vector<std::string> got;
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    ParsedInternalKey p;
    ASSERT_TRUE(ParseInternalKey(iter->key(), &p).ok());
    EXPECT_EQ(kTypeRangeDeletion, p.type);
    got.push_back(p.user_key.ToString() + "@" + std::to_string(p.sequence) +
                  "-" + iter->value().ToString());
  }
  EXPECT_EQ((std::vector<std::string>{"a@4-b", "a@3-d", "c@2-f"}), got);
  EXPECT_TRUE(iter->status().ok());
}

TEST_F(MemTableRangeDelTest, GetHonoursTombstones) {
  ASSERT_TRUE(mem_->Add(1, kTypeValue, "k", "v1").ok());
  ASSERT_TRUE(mem_->Add(2, kTypeRangeDeletion, "a", "m").ok());
  ASSERT_TRUE(mem_->Add(3, kTypeValue, "k", "v3").ok());
  ASSERT_TRUE(mem_->Add(4, kTypeRangeDeletion, "k", "k").ok());  // empty
  EXPECT_EQ("v1", Get("k", 1));
  EXPECT_EQ("NOT_FOUND", Get("k", 2));
  EXPECT_EQ("v3", Get("k", 3));
  EXPECT_EQ("v3", Get("k", 10));
  // No point version here, but a covering tombstone: deleted everywhere
  // older.
  EXPECT_EQ("ABSENT", Get("b", 1));
  EXPECT_EQ("NOT_FOUND", Get("b", 2));
  EXPECT_EQ("ABSENT", Get("m", 5));  // the end is exclusive
  EXPECT_EQ("NOT_FOUND", Get("a", 5));

  SequenceNumber max_seq = 0;
  EXPECT_EQ("v3", Get("k", 10, &max_seq));
  EXPECT_EQ(2u, max_seq);
  // A newer source's tombstone (seq 7) hides the older version here.
  max_seq = 7;
  EXPECT_EQ("NOT_FOUND", Get("k", 10, &max_seq));
  EXPECT_EQ(7u, max_seq);
  max_seq = 0;
  EXPECT_EQ("ABSENT", Get("z", 10, &max_seq));
  EXPECT_EQ(0u, max_seq);
}

// A random history over keys "a".."j" and the model's answer for a read.
struct Op {
  ValueType type;
  std::string key;
  std::string end_or_value;
  SequenceNumber seq;
};

std::string ModelGet(const std::vector<Op>& ops, const std::string& key,
                     SequenceNumber read_seq, SequenceNumber newer_tombstone,
                     SequenceNumber* max_seq) {
  SequenceNumber tomb = 0;
  const Op* point = nullptr;
  for (const Op& op : ops) {
    if (op.seq > read_seq) continue;
    if (op.type == kTypeRangeDeletion) {
      if (op.key <= key && key < op.end_or_value) tomb = std::max(tomb, op.seq);
    } else if (op.key == key && (point == nullptr || op.seq > point->seq)) {
      point = &op;
    }
  }
  *max_seq = std::max(tomb, newer_tombstone);
  if (*max_seq > 0 && (point == nullptr || point->seq < *max_seq)) {
    return "NOT_FOUND";
  }
  if (point == nullptr) return "ABSENT";
  return point->type == kTypeValue ? point->end_or_value : "NOT_FOUND";
}

TEST_F(MemTableRangeDelTest, RandomAgainstModel) {
  Random rnd(2024);
  std::vector<Op> ops;
  auto random_key = [&rnd] {
    return std::string(1, static_cast<char>('a' + rnd.Uniform(10)));
  };
  for (SequenceNumber seq = 1; seq <= 300; seq++) {
    Op op;
    op.seq = seq;
    op.key = random_key();
    const uint32_t r = rnd.Uniform(10);
    if (r < 5) {
      op.type = kTypeValue;
      op.end_or_value = "v" + std::to_string(seq);
    } else if (r < 7) {
      op.type = kTypeDeletion;
    } else {
      op.type = kTypeRangeDeletion;
      op.end_or_value = random_key();
      if (op.end_or_value < op.key && !rnd.OneIn(5)) {
        std::swap(op.key, op.end_or_value);
      }
    }
    ASSERT_TRUE(mem_->Add(op.seq, op.type, op.key, op.end_or_value).ok());
    ops.push_back(op);
    if (seq % 30 != 0) continue;
    for (int q = 0; q < 200; q++) {
      const std::string key =
          rnd.OneIn(4) ? random_key() + "x" : random_key();  // between keys
      const SequenceNumber read_seq = rnd.Uniform(static_cast<int>(seq) + 2);
      const SequenceNumber newer =
          rnd.OneIn(3) ? rnd.Uniform(static_cast<int>(seq)) : 0;
      SequenceNumber want_max = 0;
      const std::string want = ModelGet(ops, key, read_seq, newer, &want_max);
      SequenceNumber got_max = newer;
      ASSERT_EQ(want, Get(key, read_seq, &got_max))
          << key << " at " << read_seq << " newer " << newer;
      ASSERT_EQ(want_max, got_max) << key << " at " << read_seq;
    }
  }
}

TEST_F(MemTableRangeDelTest, ConcurrentAdds) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([this, t] {
      for (int i = 0; i < kPerThread; i++) {
        const SequenceNumber seq =
            1 + static_cast<SequenceNumber>(t * kPerThread + i);
        const std::string key = "k" + std::to_string(seq);
        if (i % 2 == 0) {
          EXPECT_TRUE(
              mem_->Add(seq, kTypeRangeDeletion, key, key + "z", true).ok());
        } else {
          EXPECT_TRUE(mem_->Add(seq, kTypeValue, key, "v", true).ok());
        }
        // Readers run alongside.
        SequenceNumber max_seq = 0;
        LookupKey lkey(key, seq);
        std::string value;
        Status s;
        mem_->Get(lkey, &value, &s, &max_seq);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(uint64_t{kThreads * kPerThread}, mem_->num_entries());
  EXPECT_EQ(uint64_t{kThreads * kPerThread / 2}, mem_->num_range_deletes());
  std::unique_ptr<InternalIterator> iter(mem_->NewRangeTombstoneIterator());
  ASSERT_NE(nullptr, iter);
  int n = 0;
  std::string prev;
  for (iter->SeekToFirst(); iter->Valid(); iter->Next(), n++) {
    if (n > 0) {
      EXPECT_LT(icmp_.Compare(prev, iter->key()), 0);
    }
    prev = iter->key().ToString();
  }
  EXPECT_EQ(kThreads * kPerThread / 2, n);
  std::unique_ptr<InternalIterator> points(mem_->NewIterator());
  n = 0;
  for (points->SeekToFirst(); points->Valid(); points->Next()) n++;
  EXPECT_EQ(kThreads * kPerThread / 2, n);
}

}  // namespace
}  // namespace strata
