// Range tombstones in memtables: stored apart from the point entries
// (their own iterator, counted), and honoured by the DB's point lookup
// (ReadView::Get) within a memtable and across memtables — against a
// model of random puts, merges, deletes and range deletions read at
// random sequences; and concurrent adds with readers.

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "memtable/memtable.h"
#include "memtable/memtable_list.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "test/db/read_view_test_util.h"
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

  // Retires mem_ to the immutable list and starts a new one, as a
  // memtable switch does.
  void SwitchMemTable() {
    imm_.Add(mem_);
    mem_->Unref();  // the list keeps it
    mem_ = new MemTable(icmp_);
    mem_->Ref();
  }

  // The DB's point lookup over every memtable: the value, "NOT_FOUND" or
  // "ERROR: ...".
  std::string Get(const std::string& key, SequenceNumber seq,
                  const MergeOperator* merge_operator = nullptr) {
    test::MemTableReader reader(icmp_, mem_, imm_.current());
    return reader.Get(key, seq, merge_operator);
  }

  InternalKeyComparator icmp_;
  MemTableList imm_;
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
  EXPECT_EQ("NOT_FOUND", Get("b", 2));
  EXPECT_EQ("NOT_FOUND", Get("a", 5));
  ASSERT_TRUE(mem_->Add(5, kTypeValue, "m", "vm").ok());
  EXPECT_EQ("vm", Get("m", 5));  // the end is exclusive
}

// A tombstone in a newer memtable deletes older versions in older
// memtables, and an older tombstone does not delete a newer version.
TEST_F(MemTableRangeDelTest, TombstonesReachAcrossMemTables) {
  ASSERT_TRUE(mem_->Add(1, kTypeValue, "b", "b1").ok());
  ASSERT_TRUE(mem_->Add(2, kTypeValue, "x", "x2").ok());
  ASSERT_TRUE(mem_->Add(3, kTypeRangeDeletion, "w", "y").ok());
  SwitchMemTable();
  ASSERT_TRUE(mem_->Add(4, kTypeValue, "x", "x4").ok());
  ASSERT_TRUE(mem_->Add(5, kTypeRangeDeletion, "a", "c").ok());
  SwitchMemTable();
  ASSERT_TRUE(mem_->Add(6, kTypeValue, "c", "c6").ok());
  EXPECT_EQ("b1", Get("b", 4));
  EXPECT_EQ("NOT_FOUND", Get("b", 5));
  EXPECT_EQ("x2", Get("x", 2));
  EXPECT_EQ("NOT_FOUND", Get("x", 3));
  EXPECT_EQ("x4", Get("x", 6));
  EXPECT_EQ("c6", Get("c", 6));
}

// A random history over keys "a".."j" — values, deletions, merges and
// range deletions spread over several memtables — and the model's answer
// for a read at a sequence.
struct Op {
  ValueType type;
  std::string key;
  std::string end_or_value;
  SequenceNumber seq;
};

std::string ModelGet(const std::vector<Op>& ops, const std::string& key,
                     SequenceNumber read_seq) {
  SequenceNumber tombstone = 0;
  std::vector<const Op*> versions;  // of key, visible
  for (const Op& op : ops) {
    if (op.seq > read_seq) continue;
    if (op.type == kTypeRangeDeletion) {
      if (op.key <= key && key < op.end_or_value) {
        tombstone = std::max(tombstone, op.seq);
      }
    } else if (op.key == key) {
      versions.push_back(&op);
    }
  }
  std::sort(versions.begin(), versions.end(),
            [](const Op* a, const Op* b) { return a->seq > b->seq; });
  const std::string* base = nullptr;
  std::vector<std::string> operands;  // newest first
  for (const Op* v : versions) {
    if (v->seq < tombstone) break;  // deleted with everything older
    if (v->type == kTypeMerge) {
      operands.push_back(v->end_or_value);
      continue;
    }
    if (v->type == kTypeValue) base = &v->end_or_value;
    break;
  }
  if (operands.empty()) return base != nullptr ? *base : "NOT_FOUND";
  std::string merged = base != nullptr ? *base + "," : "";
  for (auto it = operands.rbegin(); it != operands.rend(); ++it) {
    merged += *it + (it + 1 != operands.rend() ? "," : "");
  }
  return merged;
}

TEST_F(MemTableRangeDelTest, RandomAgainstModel) {
  const std::shared_ptr<MergeOperator> append =
      MergeOperators::CreateStringAppendOperator();
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
    if (r < 4) {
      op.type = kTypeValue;
      op.end_or_value = "v" + std::to_string(seq);
    } else if (r < 5) {
      op.type = kTypeMerge;
      op.end_or_value = "m" + std::to_string(seq);
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
    if (rnd.OneIn(40)) SwitchMemTable();
    if (seq % 30 != 0) continue;
    for (int q = 0; q < 200; q++) {
      const std::string key =
          rnd.OneIn(4) ? random_key() + "x" : random_key();  // between keys
      const SequenceNumber read_seq = rnd.Uniform(static_cast<int>(seq) + 2);
      ASSERT_EQ(ModelGet(ops, key, read_seq), Get(key, read_seq, append.get()))
          << key << " at " << read_seq << " of " << seq << " with "
          << imm_.NumNotFlushed() << " immutable memtables";
    }
  }
  EXPECT_GT(imm_.NumNotFlushed(), 2);
}

TEST_F(MemTableRangeDelTest, ConcurrentAdds) {
  constexpr int kThreads = 4;
  // Each read after a new tombstone fragments them all again, so the
  // test's cost grows with the square of this.
  constexpr int kPerThread = 250;
  const test::MemTableReader reader(icmp_, mem_);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([this, &reader, t] {
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
        // Readers run alongside; a key is written once, and its
        // tombstone does not cover it (it starts at the key).
        const std::string got = reader.Get(key, seq);
        EXPECT_EQ(i % 2 == 0 ? "NOT_FOUND" : "v", got) << key;
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
