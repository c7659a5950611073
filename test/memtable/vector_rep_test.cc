// The vector representation (VectorRepFactory): VectorRep's append-only
// storage and sorted runs on their own, then a MemTable built with it —
// lookups and iterators while it is mutable (the run extended as entries
// arrive, and the unsorted tail scanned), after MarkImmutable, and with a
// duplicate Add.

#include "memtable/vector_rep.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/dbformat.h"
#include "gtest/gtest.h"
#include "memtable/concurrent_arena.h"
#include "memtable/memtable.h"
#include "strata/comparator.h"
#include "test/db/read_view_test_util.h"
#include "test/memtable/scan_entries.h"
#include "test/memtable/u64_keys.h"
#include "util/random.h"

namespace strata {
namespace {

using Rep = VectorRep<test::U64Comparator>;

// Entries are 8-byte numbers (test/memtable/u64_keys.h); the chunks come
// from an arena, as in a memtable.
class VectorRepTest : public testing::Test {
 protected:
  // Owns the encoded keys; returns the entry for n.
  const char* Entry(uint64_t n) {
    keys_.push_back(std::make_unique<char[]>(8));
    std::memcpy(keys_.back().get(), &n, sizeof(n));
    return keys_.back().get();
  }
  // The numbers of a run, in its order.
  static std::vector<uint64_t> Keys(const Rep& rep, const Rep::Run& run) {
    std::vector<uint64_t> out;
    for (size_t i = 0; i < Rep::RunSize(run); i++) {
      out.push_back(test::DecodeU64Key(rep.RunAt(run, i)));
    }
    return out;
  }

  ConcurrentArena arena_;
  std::vector<std::unique_ptr<char[]>> keys_;
};

TEST_F(VectorRepTest, AppendsAcrossChunksAndDirectoryPages) {
  Rep rep(test::U64Comparator(), &arena_, 0);
  const size_t before = arena_.ApproximateMemoryUsage();
  // Past many chunks of 1024 and into a second directory page.
  constexpr uint64_t kN = (1u << 20) + 3000;
  for (uint64_t i = 0; i < kN; i++) rep.Append(Entry(i * 7 % kN));
  ASSERT_EQ(kN, rep.size());
  for (uint64_t i = 0; i < kN; i += 997) {
    ASSERT_EQ(i * 7 % kN, test::DecodeU64Key(rep.At(i))) << i;
  }
  std::vector<uint64_t> seen;
  rep.ForEach(1000, 3000,
              [&](const char* e) { seen.push_back(test::DecodeU64Key(e)); });
  ASSERT_EQ(2000u, seen.size());
  EXPECT_EQ(1000u * 7 % kN, seen.front());
  EXPECT_EQ(2999u * 7 % kN, seen.back());
  // The chunks are the arena's memory.
  EXPECT_GE(arena_.ApproximateMemoryUsage() - before, kN * sizeof(char*));
}

TEST_F(VectorRepTest, SortedRunsExtendAndDropDuplicates) {
  Rep rep(test::U64Comparator(), &arena_, 16);
  for (uint64_t n : {5, 1, 9, 3}) rep.Append(Entry(n));
  auto run = rep.Sorted(0);
  EXPECT_EQ(4u, run->covered);
  EXPECT_TRUE(run->sorted_copy);
  EXPECT_EQ((std::vector<uint64_t>{1, 3, 5, 9}), Keys(rep, *run));
  // Within the allowance the cached run is reused.
  rep.Append(Entry(4));
  EXPECT_EQ(run, rep.Sorted(1));
  // Extended: merged, and an entry equal to an older one is dropped (the
  // older one, appended first, stays).
  const char* older_three = rep.RunAt(*run, 1);
  rep.Append(Entry(3));
  rep.Append(Entry(0));
  rep.Append(Entry(10));
  rep.Append(Entry(4));  // a duplicate within the new part too
  auto run2 = rep.Sorted(0);
  EXPECT_EQ(9u, run2->covered);
  EXPECT_EQ((std::vector<uint64_t>{0, 1, 3, 4, 5, 9, 10}), Keys(rep, *run2));
  EXPECT_EQ(older_three, rep.RunAt(*run2, 2));
  // The old run is still whole for whoever holds it.
  EXPECT_EQ((std::vector<uint64_t>{1, 3, 5, 9}), Keys(rep, *run));
  EXPECT_EQ(nullptr, rep.final_run());
}

TEST_F(VectorRepTest, FinalRunAfterMarkImmutable) {
  Rep rep(test::U64Comparator(), &arena_, 0);
  Random rnd(301);
  std::vector<uint64_t> expected;
  for (int i = 0; i < 3000; i++) {
    const uint64_t n = rnd.Next() % 100000;
    rep.Append(Entry(n));
    expected.push_back(n);
  }
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  rep.Sorted(10);  // a partial run while mutable
  EXPECT_EQ(nullptr, rep.final_run());
  rep.MarkImmutable();
  EXPECT_EQ(nullptr, rep.final_run());  // published by the next Sorted
  auto run = rep.Sorted(100);
  ASSERT_NE(nullptr, rep.final_run());
  EXPECT_EQ(run.get(), rep.final_run());
  EXPECT_EQ(expected, Keys(rep, *rep.final_run()));
}

// A sequential load needs no copy: the run is the append order, extended
// in place while the order holds, and copied once it breaks.
TEST_F(VectorRepTest, InOrderInputIsTheRunItself) {
  Rep rep(test::U64Comparator(), &arena_, 0);
  for (uint64_t i = 0; i < 3000; i += 2) rep.Append(Entry(i));
  auto run = rep.Sorted(0);
  EXPECT_FALSE(run->sorted_copy);
  EXPECT_TRUE(run->entries.empty());
  EXPECT_EQ(1500u, Rep::RunSize(*run));
  rep.Append(Entry(5000));
  auto longer = rep.Sorted(0);
  EXPECT_FALSE(longer->sorted_copy);
  EXPECT_EQ(1501u, Rep::RunSize(*longer));
  rep.Append(Entry(1));     // out of order
  rep.Append(Entry(2998));  // a duplicate of an older entry
  auto merged = rep.Sorted(0);
  EXPECT_TRUE(merged->sorted_copy);
  std::vector<uint64_t> keys = Keys(rep, *merged);
  ASSERT_EQ(1502u, keys.size());
  EXPECT_EQ(0u, keys[0]);
  EXPECT_EQ(1u, keys[1]);
  EXPECT_EQ(2u, keys[2]);
  EXPECT_EQ(5000u, keys.back());
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
}

// Readers take runs while the one writer appends: every run is sorted and
// covers at least what was appended before it was asked for (minus the
// allowance), and the entries after it can be read.
TEST_F(VectorRepTest, ReadersBesideTheWriter) {
  constexpr uint64_t kEntries = 20000;
  std::vector<const char*> entries;
  for (uint64_t i = 0; i < kEntries; i++) {
    // Ascending stretches broken now and then: in-place runs and copies.
    entries.push_back(Entry(i % 3000 == 2999 ? i / 2 : i));
  }
  Rep rep(test::U64Comparator(), &arena_, 0);
  std::atomic<bool> done{false};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; t++) {
    readers.emplace_back([&, t] {
      const size_t allowance = t == 0 ? 0 : 500;
      while (!done.load()) {
        const size_t before = rep.size();
        auto run = rep.Sorted(allowance);
        EXPECT_GE(run->covered + allowance, before);
        const std::vector<uint64_t> keys = Keys(rep, *run);
        EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
        const size_t end = rep.size();
        size_t tail = 0;
        rep.ForEach(run->covered, end, [&](const char*) { tail++; });
        EXPECT_EQ(end - run->covered, tail);
      }
    });
  }
  for (const char* e : entries) rep.Append(e);
  done.store(true);
  for (std::thread& t : readers) t.join();
  // 1499, 4499 and 7499 come twice.
  EXPECT_EQ(kEntries - 3, Rep::RunSize(*rep.Sorted(0)));
}

// A MemTable with the vector representation.
class VectorMemTableTest : public testing::Test {
 protected:
  VectorMemTableTest() : icmp_(BytewiseComparator()) {
    MemTableOptions options;
    options.vector_rep = true;
    mem_ = new MemTable(icmp_, options);
    mem_->Ref();
  }
  ~VectorMemTableTest() override { mem_->Unref(); }

  void Add(SequenceNumber seq, ValueType type, const std::string& key,
           const std::string& value = "") {
    ASSERT_TRUE(mem_->Add(seq, type, key, value).ok());
  }
  std::string Get(const std::string& key,
                  SequenceNumber seq = kMaxSequenceNumber) {
    return test::MemTableReader(icmp_, mem_).Get(key, seq);
  }
  static std::string Scan(InternalIterator* it, bool forward) {
    return test::ScanEntries(it, forward);
  }

  InternalKeyComparator icmp_;
  MemTable* mem_;
};

TEST_F(VectorMemTableTest, UnsortedInsertsReadInOrder) {
  Add(3, kTypeValue, "c", "c3");
  Add(1, kTypeValue, "a", "a1");
  Add(4, kTypeValue, "b", "b4");
  Add(2, kTypeValue, "b", "b2");
  Add(5, kTypeDeletion, "a");
  EXPECT_EQ("NOT_FOUND", Get("a"));
  EXPECT_EQ("a1", Get("a", 4));
  EXPECT_EQ("b4", Get("b"));
  EXPECT_EQ("b2", Get("b", 3));
  EXPECT_EQ("NOT_FOUND", Get("b", 1));
  EXPECT_EQ("c3", Get("c"));
  EXPECT_EQ("NOT_FOUND", Get("d"));
  EXPECT_EQ(5u, mem_->num_entries());
  EXPECT_EQ(1u, mem_->num_deletes());
  EXPECT_EQ(1u, mem_->GetFirstSequenceNumber());

  std::unique_ptr<InternalIterator> it(mem_->NewIterator());
  // Versions of one user key newest first.
  EXPECT_EQ("a@5= a@1=a1 b@4=b4 b@2=b2 c@3=c3 ", Scan(it.get(), true));
  EXPECT_EQ("c@3=c3 b@2=b2 b@4=b4 a@1=a1 a@5= ", Scan(it.get(), false));
  it->Seek(InternalKey("b", 3, kValueTypeForSeek).Encode());
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b2", it->value().ToString());
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b4", it->value().ToString());
  it->SeekForPrev(InternalKey("b", 0, kTypeValue).Encode());
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b2", it->value().ToString());
  it->Seek(InternalKey("d", kMaxSequenceNumber, kValueTypeForSeek).Encode());
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev(InternalKey("a", kMaxSequenceNumber, kTypeValue).Encode());
  EXPECT_FALSE(it->Valid());
}

TEST_F(VectorMemTableTest, IteratorSeesWhatWasThereAtCreation) {
  Add(1, kTypeValue, "m", "m1");
  std::unique_ptr<InternalIterator> before(mem_->NewIterator());
  Add(2, kTypeValue, "a", "a2");
  Add(3, kTypeValue, "z", "z3");
  EXPECT_EQ("m@1=m1 ", Scan(before.get(), true));
  std::unique_ptr<InternalIterator> after(mem_->NewIterator());
  EXPECT_EQ("a@2=a2 m@1=m1 z@3=z3 ", Scan(after.get(), true));
  // Lookups see the new entries (scanned unsorted, or in an extended run).
  EXPECT_EQ("a2", Get("a"));
  EXPECT_EQ("z3", Get("z"));
}

TEST_F(VectorMemTableTest, LookupsWhileMutableMatchAModel) {
  // Many more entries than a lookup scans unsorted, so that lookups mix
  // binary search in an extended run with the scan of the newer tail.
  Random rnd(17);
  std::map<std::string, std::string> model;
  SequenceNumber seq = 0;
  for (int step = 0; step < 6000; step++) {
    const std::string k = "k" + std::to_string(rnd.Uniform(500));
    if (rnd.OneIn(3)) {
      auto found = model.find(k);
      ASSERT_EQ(found == model.end() ? "NOT_FOUND" : found->second, Get(k))
          << k << " at step " << step;
    } else if (rnd.OneIn(8)) {
      Add(++seq, kTypeDeletion, k);
      model.erase(k);
    } else {
      const std::string v = "v" + std::to_string(step);
      Add(++seq, kTypeValue, k, v);
      model[k] = v;
    }
  }
  mem_->MarkImmutable();
  for (const auto& kv : model) ASSERT_EQ(kv.second, Get(kv.first));
  std::unique_ptr<InternalIterator> it(mem_->NewIterator());
  std::string last_user_key;
  size_t newest_versions = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string user_key = ExtractUserKey(it->key()).ToString();
    if (user_key != last_user_key) {
      ParsedInternalKey parsed;
      ASSERT_TRUE(ParseInternalKey(it->key(), &parsed).ok());
      if (parsed.type == kTypeValue) {
        ASSERT_EQ(model[user_key], it->value().ToString());
        newest_versions++;
      }
      last_user_key = user_key;
    }
  }
  EXPECT_EQ(model.size(), newest_versions);
}

TEST_F(VectorMemTableTest, ImmutableSortsOnceAndReadsTheFinalRun) {
  for (int i = 99; i >= 0; i--) {
    Add(static_cast<SequenceNumber>(100 - i), kTypeValue,
        "k" + std::to_string(1000 + i), "v" + std::to_string(i));
  }
  mem_->MarkImmutable();
  std::unique_ptr<InternalIterator> it(mem_->NewIterator());
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("k1000", ExtractUserKey(it->key()).ToString());
  it->SeekToLast();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("k1099", ExtractUserKey(it->key()).ToString());
  it->Seek(
      InternalKey("k1050", kMaxSequenceNumber, kValueTypeForSeek).Encode());
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("v50", it->value().ToString());
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("v49", it->value().ToString());
  // Versions of one key, added newest first, read newest first.
  EXPECT_EQ("v42", Get("k1042"));
  std::unique_ptr<InternalIterator> again(mem_->NewIterator());
  const std::string forward = Scan(again.get(), true);
  const std::string backward = Scan(again.get(), false);
  EXPECT_EQ(0u, forward.find("k1000@100=v0 k1001@99=v1 "));
  EXPECT_EQ(0u, backward.find("k1099@1=v99 k1098@2=v98 "));
}

TEST_F(VectorMemTableTest, VersionsOfOneKeyInAnyArrivalOrder) {
  // Sequences arrive out of order (as they may not in a DB, but a
  // representation must not depend on it).
  for (SequenceNumber seq : {4, 9, 1, 7, 3}) {
    Add(seq, kTypeValue, "k", "v" + std::to_string(seq));
  }
  EXPECT_EQ("v9", Get("k"));
  EXPECT_EQ("v7", Get("k", 8));
  EXPECT_EQ("v3", Get("k", 3));
  std::unique_ptr<InternalIterator> it(mem_->NewIterator());
  EXPECT_EQ("k@9=v9 k@7=v7 k@4=v4 k@3=v3 k@1=v1 ", Scan(it.get(), true));
  mem_->MarkImmutable();
  std::unique_ptr<InternalIterator> final_it(mem_->NewIterator());
  EXPECT_EQ("k@1=v1 k@3=v3 k@4=v4 k@7=v7 k@9=v9 ", Scan(final_it.get(), false));
  EXPECT_EQ("v4", Get("k", 6));
}

TEST_F(VectorMemTableTest, DuplicateAddIsDroppedWhenSorted) {
  Add(7, kTypeValue, "k", "v");
  // Accepted, unlike the skiplist's TryAgain; the first one stays.
  Add(7, kTypeValue, "k", "v");
  Add(8, kTypeValue, "k", "v8");
  EXPECT_EQ("v", Get("k", 7));
  std::unique_ptr<InternalIterator> it(mem_->NewIterator());
  EXPECT_EQ("k@8=v8 k@7=v ", Scan(it.get(), true));
  EXPECT_TRUE(mem_->Add(9, kTypeValue, "k", "x", /*allow_concurrent=*/true)
                  .IsInvalidArgument());
}

TEST_F(VectorMemTableTest, RangeTombstonesStayInTheirSkiplist) {
  Add(1, kTypeValue, "b", "b1");
  Add(2, kTypeRangeDeletion, "a", "c");
  std::unique_ptr<InternalIterator> points(mem_->NewIterator());
  EXPECT_EQ("b@1=b1 ", Scan(points.get(), true));
  std::unique_ptr<InternalIterator> ranges(mem_->NewRangeTombstoneIterator());
  ASSERT_NE(nullptr, ranges);
  EXPECT_EQ("a@2=c ", Scan(ranges.get(), true));
  EXPECT_EQ("NOT_FOUND", Get("b"));  // the tombstone covers it
}

}  // namespace
}  // namespace strata
