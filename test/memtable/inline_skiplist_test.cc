#include "memtable/inline_skiplist.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <set>
#include <thread>
#include <unordered_set>
#include <vector>

#include "gtest/gtest.h"
#include "memtable/concurrent_arena.h"
#include "test/memtable/u64_keys.h"
#include "util/random.h"

namespace strata {
namespace {

using TestComparator = test::U64Comparator;
using TestList = InlineSkipList<TestComparator>;

uint64_t DecodeKey(const char* p) { return test::DecodeU64Key(p); }
char* NewKey(TestList* list, uint64_t k) { return test::NewU64Key(list, k); }

bool Insert(TestList* list, uint64_t k) {
  return list->Insert(NewKey(list, k));
}

bool InsertConcurrently(TestList* list, uint64_t k) {
  return list->InsertConcurrently(NewKey(list, k));
}

using Target = test::U64Target;

// The key at it, or -1 when it is not Valid().
int64_t KeyAt(const TestList::Iterator& it) {
  return it.Valid() ? static_cast<int64_t>(DecodeKey(it.key())) : -1;
}

bool Contains(const TestList& list, uint64_t k) {
  return list.Contains(Target(k).bytes);
}

// Every key, first to last (forward) or last to first.
std::vector<uint64_t> Scan(const TestList& list, bool forward) {
  std::vector<uint64_t> keys;
  TestList::Iterator it(&list);
  forward ? it.SeekToFirst() : it.SeekToLast();
  while (it.Valid()) {
    keys.push_back(DecodeKey(it.key()));
    forward ? it.Next() : it.Prev();
  }
  return keys;
}

std::vector<uint64_t> ScanForward(const TestList& list) {
  return Scan(list, true);
}

std::vector<uint64_t> ScanBackward(const TestList& list) {
  return Scan(list, false);
}

// Checks list against model: contents in both directions, Contains,
// Seek and SeekForPrev for every target in [0, limit).
void VerifyAgainstModel(const TestList& list, const std::set<uint64_t>& model,
                        uint64_t limit) {
  ASSERT_EQ(std::vector<uint64_t>(model.begin(), model.end()),
            ScanForward(list));
  ASSERT_EQ(std::vector<uint64_t>(model.rbegin(), model.rend()),
            ScanBackward(list));
  TestList::Iterator it(&list);
  for (uint64_t t = 0; t < limit; t++) {
    ASSERT_EQ(model.count(t) == 1, Contains(list, t)) << t;

    it.Seek(Target(t).bytes);
    const auto ge = model.lower_bound(t);
    ASSERT_EQ(ge == model.end() ? -1 : static_cast<int64_t>(*ge), KeyAt(it))
        << t;

    it.SeekForPrev(Target(t).bytes);
    const auto gt = model.upper_bound(t);
    ASSERT_EQ(gt == model.begin() ? -1 : static_cast<int64_t>(*std::prev(gt)),
              KeyAt(it))
        << t;
  }
}

TEST(InlineSkipListTest, Empty) {
  ConcurrentArena arena;
  TestList list(TestComparator(), &arena);
  EXPECT_FALSE(Contains(list, 10));
  TestList::Iterator it(&list);
  EXPECT_FALSE(it.Valid());
  it.SeekToFirst();
  EXPECT_FALSE(it.Valid());
  it.SeekToLast();
  EXPECT_FALSE(it.Valid());
  it.Seek(Target(100).bytes);
  EXPECT_FALSE(it.Valid());
  it.SeekForPrev(Target(100).bytes);
  EXPECT_FALSE(it.Valid());
}

TEST(InlineSkipListTest, RandomInsertMatchesModel) {
  constexpr uint64_t kRange = 5000;
  ConcurrentArena arena;
  TestList list(TestComparator(), &arena);
  std::set<uint64_t> model;
  Random rnd(1000);
  for (int i = 0; i < 2000; i++) {
    const uint64_t k = rnd.Uniform(kRange);
    const bool fresh = model.insert(k).second;
    ASSERT_EQ(fresh, Insert(&list, k)) << k;
  }
  VerifyAgainstModel(list, model, kRange + 10);
}

TEST(InlineSkipListTest, DuplicateIsRejectedAndListUnchanged) {
  ConcurrentArena arena;
  TestList list(TestComparator(), &arena);
  ASSERT_TRUE(Insert(&list, 10));
  ASSERT_TRUE(Insert(&list, 20));
  EXPECT_FALSE(Insert(&list, 10));
  EXPECT_FALSE(Insert(&list, 20));
  EXPECT_FALSE(InsertConcurrently(&list, 10));
  EXPECT_TRUE(Insert(&list, 15));
  EXPECT_EQ((std::vector<uint64_t>{10, 15, 20}), ScanForward(list));
}

TEST(InlineSkipListTest, IteratorEdges) {
  ConcurrentArena arena;
  TestList list(TestComparator(), &arena);
  for (uint64_t k : {20, 40, 60}) ASSERT_TRUE(Insert(&list, k));
  TestList::Iterator it(&list);

  it.Seek(Target(61).bytes);  // past the last key
  EXPECT_EQ(-1, KeyAt(it));
  it.Seek(Target(0).bytes);  // before the first key
  EXPECT_EQ(20, KeyAt(it));
  it.Seek(Target(40).bytes);  // exact
  EXPECT_EQ(40, KeyAt(it));

  it.SeekForPrev(Target(19).bytes);  // before the first key
  EXPECT_EQ(-1, KeyAt(it));
  it.SeekForPrev(Target(1000).bytes);  // past the last key
  EXPECT_EQ(60, KeyAt(it));
  it.SeekForPrev(Target(40).bytes);  // exact
  EXPECT_EQ(40, KeyAt(it));
  it.SeekForPrev(Target(59).bytes);  // between
  EXPECT_EQ(40, KeyAt(it));

  it.SeekToFirst();
  it.Prev();  // before the first
  EXPECT_EQ(-1, KeyAt(it));
  it.SeekToLast();
  EXPECT_EQ(60, KeyAt(it));
  it.Next();  // after the last
  EXPECT_EQ(-1, KeyAt(it));

  // Direction changes.
  it.Seek(Target(40).bytes);
  it.Prev();
  EXPECT_EQ(20, KeyAt(it));
  it.Next();
  it.Next();
  EXPECT_EQ(60, KeyAt(it));
}

TEST(InlineSkipListTest, SingleKey) {
  ConcurrentArena arena;
  TestList list(TestComparator(), &arena);
  ASSERT_TRUE(Insert(&list, 7));
  TestList::Iterator it(&list);
  it.SeekToLast();
  EXPECT_EQ(7, KeyAt(it));
  it.SeekToFirst();
  EXPECT_EQ(7, KeyAt(it));
  it.Prev();
  EXPECT_EQ(-1, KeyAt(it));
}

// The insert orders that exercise the cached search path: ascending (the
// cache always fits), descending (it never fits at level 0), runs of
// ascending keys starting at random places, and gaps filled in later.
TEST(InlineSkipListTest, InsertOrdersMatchModel) {
  constexpr uint64_t kN = 3000;
  std::vector<std::vector<uint64_t>> orders(4);
  for (uint64_t i = 0; i < kN; i++) orders[0].push_back(2 * i);
  for (uint64_t i = kN; i > 0; i--) orders[1].push_back(2 * i);
  Random rnd(42);
  while (orders[2].size() < kN) {
    const uint64_t start = rnd.Uniform(2 * kN);
    for (uint64_t k = start; k < start + 20; k++) orders[2].push_back(k);
  }
  orders[3] = orders[0];
  for (uint64_t i = 0; i < kN; i++) orders[3].push_back(2 * i + 1);

  for (size_t o = 0; o < orders.size(); o++) {
    SCOPED_TRACE(o);
    ConcurrentArena arena;
    TestList list(TestComparator(), &arena);
    std::set<uint64_t> model;
    for (uint64_t k : orders[o]) {
      ASSERT_EQ(model.insert(k).second, Insert(&list, k)) << k;
    }
    VerifyAgainstModel(list, model, 2 * kN + 30);
  }
}

// Ascending inserts must not search from the head each time: with the
// cached path, each costs about one comparison, against dozens for random
// keys.
TEST(InlineSkipListTest, AscendingInsertUsesCachedPath) {
  constexpr int kN = 20000;
  uint64_t sequential_compares = 0;
  uint64_t random_compares = 0;
  {
    ConcurrentArena arena;
    TestList list(TestComparator{&sequential_compares}, &arena);
    for (int i = 0; i < kN; i++) ASSERT_TRUE(Insert(&list, i));
  }
  {
    ConcurrentArena arena;
    TestList list(TestComparator{&random_compares}, &arena);
    Random rnd(5);
    for (int i = 0; i < kN; i++) Insert(&list, rnd.Next());
  }
  EXPECT_LT(sequential_compares, 3u * kN);
  EXPECT_GT(random_compares, 10u * kN);
}

// Sorted batches into a list: what n Inserts would leave, keys already
// present (or repeated in the batch) refused and reported.
std::vector<uint64_t> InsertSortedBatch(TestList* list,
                                        std::vector<uint64_t> batch) {
  std::sort(batch.begin(), batch.end());
  std::vector<const char*> keys;
  for (uint64_t k : batch) keys.push_back(NewKey(list, k));
  std::vector<uint64_t> refused;
  list->InsertSorted(keys.data(), keys.size(), [&](const char* key) {
    refused.push_back(DecodeKey(key));
  });
  return refused;
}

TEST(InlineSkipListTest, InsertSortedMatchesModel) {
  constexpr uint64_t kRange = 6000;
  for (int32_t height : {1, 12}) {
    SCOPED_TRACE(height);
    ConcurrentArena arena;
    TestList list(TestComparator(), &arena, height);
    std::set<uint64_t> model;
    Random rnd(77);
    for (int i = 0; i < 1000; i++) {
      const uint64_t k = rnd.Uniform(kRange);
      ASSERT_EQ(model.insert(k).second, Insert(&list, k));
    }
    for (int round = 0; round < 30; round++) {
      std::vector<uint64_t> batch;
      const int n = 1 + static_cast<int>(rnd.Uniform(200));
      for (int i = 0; i < n; i++) batch.push_back(rnd.Uniform(kRange));
      std::vector<uint64_t> expected_refused;
      std::set<uint64_t> in_batch;
      std::vector<uint64_t> sorted = batch;
      std::sort(sorted.begin(), sorted.end());
      for (uint64_t k : sorted) {
        if (!in_batch.insert(k).second || model.count(k) == 1) {
          expected_refused.push_back(k);
        }
      }
      model.insert(batch.begin(), batch.end());
      ASSERT_EQ(expected_refused, InsertSortedBatch(&list, batch));
      // Serial inserts after a batch search afresh.
      const uint64_t k = rnd.Uniform(kRange);
      ASSERT_EQ(model.insert(k).second, Insert(&list, k)) << k;
    }
    VerifyAgainstModel(list, model, kRange + 10);
  }
}

// A dense batch links each key after the batch's previous one instead of
// walking from where its search ended: into an empty list every search
// ends at the head, and walking from there over the batch's earlier keys
// would take millions of comparisons. The second batch, each key between
// two present ones, checks the interleaved links.
TEST(InlineSkipListTest, InsertSortedDenseBatchesStayCheap) {
  constexpr uint64_t kN = 4000;
  uint64_t compares = 0;
  ConcurrentArena arena;
  TestList list(TestComparator{&compares}, &arena);
  std::vector<uint64_t> batch;
  for (uint64_t k = 0; k < kN; k++) batch.push_back(k * 2);
  ASSERT_TRUE(InsertSortedBatch(&list, batch).empty());
  EXPECT_LT(compares, kN * 40);
  batch.clear();
  for (uint64_t k = 0; k < kN; k++) batch.push_back(k * 2 + 1);
  ASSERT_TRUE(InsertSortedBatch(&list, batch).empty());
  std::set<uint64_t> model;
  for (uint64_t k = 0; k < 2 * kN; k++) model.insert(k);
  VerifyAgainstModel(list, model, 2 * kN + 10);
}

TEST(InlineSkipListTest, ExtremeShapes) {
  for (int32_t height : {1, 2, 32}) {
    for (int32_t branching : {2, 4, 16}) {
      SCOPED_TRACE(testing::Message() << height << "/" << branching);
      ConcurrentArena arena;
      TestList list(TestComparator(), &arena, height, branching);
      std::set<uint64_t> model;
      Random rnd(height * 100 + branching);
      for (int i = 0; i < 500; i++) {
        const uint64_t k = rnd.Uniform(1000);
        ASSERT_EQ(model.insert(k).second, rnd.OneIn(2)
                                              ? Insert(&list, k)
                                              : InsertConcurrently(&list, k));
      }
      VerifyAgainstModel(list, model, 1010);
    }
  }
}

// Several threads insert disjoint keys and race on a shared range: every
// shared key must be inserted by exactly one of them.
TEST(InlineSkipListTest, InsertConcurrentlyFromSeveralThreads) {
  constexpr int kThreads = 4;
  constexpr uint64_t kOwn = 3000;
  constexpr uint64_t kShared = 2000;
  constexpr uint64_t kSharedBase = 1000000;
  ConcurrentArena arena;
  TestList list(TestComparator(), &arena);
  std::vector<std::atomic<int>> winners(kShared);
  for (auto& w : winners) w.store(0);
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      Random rnd(t + 1);
      for (uint64_t i = 0; i < kOwn; i++) {
        EXPECT_TRUE(InsertConcurrently(&list, i * kThreads + t));
        const uint64_t s = rnd.Uniform(kShared);
        if (InsertConcurrently(&list, kSharedBase + s)) winners[s]++;
      }
      for (uint64_t s = 0; s < kShared; s++) {  // whatever is still missing
        if (InsertConcurrently(&list, kSharedBase + s)) winners[s]++;
      }
    });
  }
  go.store(true, std::memory_order_release);
  for (auto& th : threads) th.join();

  std::set<uint64_t> model;
  for (uint64_t k = 0; k < kOwn * kThreads; k++) model.insert(k);
  for (uint64_t s = 0; s < kShared; s++) {
    ASSERT_EQ(1, winners[s].load()) << s;
    model.insert(kSharedBase + s);
  }
  ASSERT_EQ(std::vector<uint64_t>(model.begin(), model.end()),
            ScanForward(list));
  ASSERT_EQ(std::vector<uint64_t>(model.rbegin(), model.rend()),
            ScanBackward(list));
  for (uint64_t k : model) ASSERT_TRUE(Contains(list, k)) << k;
  EXPECT_FALSE(Contains(list, kOwn * kThreads));
  // Serial inserts after concurrent ones: the cached path must cope.
  EXPECT_TRUE(Insert(&list, kOwn * kThreads));
  EXPECT_FALSE(Insert(&list, kSharedBase));
  EXPECT_TRUE(Insert(&list, kSharedBase + kShared));
}

// Every thread inserts the same ascending keys. A thread that falls behind
// meets only duplicates, which are refused quickly, so the threads bunch up
// and keep racing for the same key at the same place: each key must still
// be inserted exactly once, with nothing lost.
TEST(InlineSkipListTest, ThreadsRaceForTheSameKeys) {
  constexpr int kThreads = 4;
  constexpr uint64_t kKeys = 20000;
  ConcurrentArena arena;
  TestList list(TestComparator(), &arena);
  std::vector<std::atomic<int>> winners(kKeys);
  for (auto& w : winners) w.store(0);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      for (uint64_t k = 0; k < kKeys; k++) {
        if (InsertConcurrently(&list, k)) winners[k]++;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (uint64_t k = 0; k < kKeys; k++) ASSERT_EQ(1, winners[k].load()) << k;
  std::vector<uint64_t> all(kKeys);
  for (uint64_t k = 0; k < kKeys; k++) all[k] = k;
  ASSERT_EQ(all, ScanForward(list));
}

// Readers racing writers, after LevelDB's skiplist ConcurrentTest. Each key
// carries a checksum of itself, so a reader that saw a node before its key
// was written would notice. Writers publish how far they got; a reader
// must see, in strictly ascending order and intact, every key published
// before its scan began (and may see more).
class ReadWhileWritingTest : public testing::TestWithParam<int> {
 protected:
  static uint64_t Check(uint64_t v) {
    return ((v * 0x9E3779B97F4A7C15ull) >> 40) & 0xffff;
  }
  static uint64_t MakeKey(uint64_t v) { return (v << 16) | Check(v); }
  static bool IsIntact(uint64_t k) { return (k & 0xffff) == Check(k >> 16); }
};

TEST_P(ReadWhileWritingTest, ReadersSeeConsistentList) {
  // 0: one writer using serial Insert; -1: one writer inserting sorted
  // batches.
  const int writers = GetParam();
  const int kWriters = writers <= 0 ? 1 : writers;
  constexpr int kReaders = 2;
  constexpr int kKeys = 12000;
  std::vector<uint64_t> keys;
  Random rnd(99);
  for (int i = 0; i < kKeys; i++) keys.push_back(MakeKey(rnd.Next()));

  ConcurrentArena arena;
  TestList list(TestComparator(), &arena);
  std::vector<std::atomic<int>> published(kWriters);  // per writer
  for (auto& p : published) p.store(0);
  std::atomic<int> readers_ready{0};
  std::atomic<int> writers_done{0};

  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; w++) {
    threads.emplace_back([&, w] {
      while (readers_ready.load(std::memory_order_acquire) < kReaders) {
        std::this_thread::yield();
      }
      int done = 0;
      if (writers < 0) {
        // Batches of 64 through InsertSorted, published whole.
        for (int i = 0; i < kKeys; i += 64) {
          const auto end = keys.begin() + std::min(i + 64, kKeys);
          InsertSortedBatch(&list,
                            std::vector<uint64_t>(keys.begin() + i, end));
          done = static_cast<int>(end - keys.begin());
          published[0].store(done, std::memory_order_release);
          std::this_thread::yield();
        }
      }
      for (int i = w; writers >= 0 && i < kKeys; i += kWriters) {
        if (writers == 0) {
          Insert(&list, keys[i]);  // false only for a repeated random key
        } else {
          InsertConcurrently(&list, keys[i]);
        }
        published[w].store(++done, std::memory_order_release);
        if (done % 64 == 0) std::this_thread::yield();
      }
      writers_done.fetch_add(1, std::memory_order_release);
    });
  }
  for (int r = 0; r < kReaders; r++) {
    threads.emplace_back([&, r] {
      Random rrnd(r + 7);
      readers_ready.fetch_add(1, std::memory_order_release);
      bool last_pass = false;
      int passes = 0;
      while (!last_pass) {
        last_pass = writers_done.load(std::memory_order_acquire) == kWriters;
        std::vector<uint64_t> required;
        for (int w = 0; w < kWriters; w++) {
          const int n = published[w].load(std::memory_order_acquire);
          for (int j = 0; j < n; j++)
            required.push_back(keys[w + j * kWriters]);
        }
        std::unordered_set<uint64_t> seen;
        TestList::Iterator it(&list);
        uint64_t prev = 0;
        for (it.SeekToFirst(); it.Valid(); it.Next()) {
          const uint64_t k = DecodeKey(it.key());
          ASSERT_TRUE(IsIntact(k)) << k;
          if (!seen.empty()) {
            ASSERT_LT(prev, k);
          }
          prev = k;
          seen.insert(k);
        }
        for (uint64_t k : required) ASSERT_EQ(1u, seen.count(k)) << k;
        // Seek must not skip a published key: nothing published lies in
        // [target, result).
        for (int s = 0; s < 4 && !required.empty(); s++) {
          const uint64_t target = MakeKey(rrnd.Next());
          it.Seek(Target(target).bytes);
          const uint64_t found =
              it.Valid() ? DecodeKey(it.key()) : ~uint64_t{0};
          ASSERT_GE(found, target);
          for (uint64_t k : required) {
            ASSERT_FALSE(k >= target && k < found) << k;
          }
          const uint64_t probe =
              required[rrnd.Uniform(static_cast<int>(required.size()))];
          ASSERT_TRUE(Contains(list, probe)) << probe;
        }
        passes++;
      }
      EXPECT_GE(passes, 1);
    });
  }
  for (auto& th : threads) th.join();
  std::set<uint64_t> model(keys.begin(), keys.end());
  ASSERT_EQ(std::vector<uint64_t>(model.begin(), model.end()),
            ScanForward(list));
}

INSTANTIATE_TEST_SUITE_P(Writers, ReadWhileWritingTest,
                         testing::Values(-1, 0, 1, 3),
                         [](const testing::TestParamInfo<int>& info) {
                           if (info.param < 0) return std::string("Sorted");
                           return info.param == 0
                                      ? std::string("SerialInsert")
                                      : "Concurrent" +
                                            std::to_string(info.param);
                         });

}  // namespace
}  // namespace strata
