#include "util/lru_cache.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "strata/cache.h"
#include "util/coding.h"

namespace strata {
namespace {

// Keys and values are small ints; the deleter logs what it frees so tests
// can check exactly when the cache lets go of an entry.
std::string Key(int k) {
  std::string s;
  PutFixed32(&s, static_cast<uint32_t>(k));
  return s;
}
void* Val(int v) { return reinterpret_cast<void*>(static_cast<intptr_t>(v)); }
int IntOf(void* v) { return static_cast<int>(reinterpret_cast<intptr_t>(v)); }

std::vector<std::pair<int, int>>* deleted_log = nullptr;

void LogDeleter(const Slice& key, void* value) {
  deleted_log->emplace_back(static_cast<int>(DecodeFixed32(key.data())),
                            IntOf(value));
}

class LRUCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    deleted_log = &deleted_;
    NewCache(/*capacity=*/100);
  }
  void TearDown() override {
    cache_.reset();
    deleted_log = nullptr;
  }

  // One shard, so the LRU order is exact.
  void NewCache(size_t capacity, double high_pri_ratio = 0.0,
                bool strict = false) {
    cache_ = NewLRUCache(capacity, 0, strict, high_pri_ratio);
    ASSERT_NE(nullptr, cache_);
  }

  // The value of key, or -1; leaves the entry unpinned.
  int Lookup(int key) {
    Cache::Handle* h = cache_->Lookup(Key(key));
    if (h == nullptr) return -1;
    const int v = IntOf(cache_->Value(h));
    cache_->Release(h);
    return v;
  }

  void Insert(int key, int value, size_t charge = 1,
              Cache::Priority pri = Cache::Priority::LOW) {
    ASSERT_TRUE(
        cache_->Insert(Key(key), Val(value), charge, &LogDeleter, nullptr, pri)
            .ok());
  }

  Cache::Handle* InsertPinned(int key, int value, size_t charge = 1) {
    Cache::Handle* h = nullptr;
    EXPECT_TRUE(
        cache_->Insert(Key(key), Val(value), charge, &LogDeleter, &h).ok());
    EXPECT_NE(nullptr, h);
    return h;
  }

  std::vector<std::pair<int, int>> deleted_;
  std::shared_ptr<Cache> cache_;
};

using Deleted = std::vector<std::pair<int, int>>;

TEST_F(LRUCacheTest, HitAndMiss) {
  EXPECT_EQ(-1, Lookup(100));
  Insert(100, 101);
  EXPECT_EQ(101, Lookup(100));
  EXPECT_EQ(-1, Lookup(200));
  Insert(200, 201);
  EXPECT_EQ(101, Lookup(100));
  EXPECT_EQ(201, Lookup(200));
  EXPECT_EQ(2u, cache_->GetUsage());
  EXPECT_TRUE(deleted_.empty());
  EXPECT_STREQ("LRUCache", cache_->Name());
}

TEST_F(LRUCacheTest, InsertReplacesAndFreesTheOldEntry) {
  Insert(1, 10);
  Insert(1, 11);
  EXPECT_EQ(11, Lookup(1));
  EXPECT_EQ((Deleted{{1, 10}}), deleted_);
  EXPECT_EQ(1u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, ReplacedPinnedEntryIsFreedOnLastRelease) {
  Cache::Handle* old = InsertPinned(1, 10, 5);
  Insert(1, 11, 3);
  EXPECT_EQ(11, Lookup(1));
  // Still readable through the old handle; both charges count.
  EXPECT_EQ(10, IntOf(cache_->Value(old)));
  EXPECT_TRUE(deleted_.empty());
  EXPECT_EQ(8u, cache_->GetUsage());
  EXPECT_TRUE(cache_->Release(old));
  EXPECT_EQ((Deleted{{1, 10}}), deleted_);
  EXPECT_EQ(3u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, EraseUnpinnedFreesAtOnce) {
  Insert(1, 10);
  Insert(2, 20);
  cache_->Erase(Key(1));
  EXPECT_EQ(-1, Lookup(1));
  EXPECT_EQ(20, Lookup(2));
  EXPECT_EQ((Deleted{{1, 10}}), deleted_);
  cache_->Erase(Key(1));  // absent: nothing happens
  EXPECT_EQ(1u, deleted_.size());
  EXPECT_EQ(1u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, ErasePinnedFreesOnLastRelease) {
  Cache::Handle* h = InsertPinned(1, 10);
  ASSERT_TRUE(cache_->Ref(h));
  cache_->Erase(Key(1));
  EXPECT_EQ(-1, Lookup(1));
  EXPECT_TRUE(deleted_.empty());
  EXPECT_EQ(10, IntOf(cache_->Value(h)));
  EXPECT_FALSE(cache_->Release(h));
  EXPECT_TRUE(deleted_.empty());
  EXPECT_TRUE(cache_->Release(h));
  EXPECT_EQ((Deleted{{1, 10}}), deleted_);
  EXPECT_EQ(0u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, ReleaseReturnsWhetherItFreed) {
  Cache::Handle* h = InsertPinned(1, 10);
  EXPECT_FALSE(cache_->Release(h));  // cached, unpinned now
  EXPECT_EQ(10, Lookup(1));
  h = cache_->Lookup(Key(1));
  cache_->Ref(h);
  EXPECT_FALSE(cache_->Release(h, /*erase_if_last_ref=*/true));  // not last
  EXPECT_TRUE(cache_->Release(h, /*erase_if_last_ref=*/true));
  EXPECT_EQ(-1, Lookup(1));
  EXPECT_EQ((Deleted{{1, 10}}), deleted_);
}

TEST_F(LRUCacheTest, EvictsLeastRecentlyUsedFirst) {
  NewCache(5);
  for (int i = 0; i < 5; i++) Insert(i, i * 10);
  // Use 0 and 2: 1 becomes the oldest, then 3, 4, 0, 2.
  EXPECT_EQ(0, Lookup(0));
  EXPECT_EQ(20, Lookup(2));
  Insert(5, 50);
  EXPECT_EQ((Deleted{{1, 10}}), deleted_);
  Insert(6, 60);
  Insert(7, 70);
  EXPECT_EQ((Deleted{{1, 10}, {3, 30}, {4, 40}}), deleted_);
  EXPECT_EQ(0, Lookup(0));
  EXPECT_EQ(20, Lookup(2));
  EXPECT_EQ(5u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, ChargesCountTowardCapacity) {
  NewCache(10);
  Insert(1, 1, 4);
  Insert(2, 2, 4);
  EXPECT_EQ(8u, cache_->GetUsage());
  // Needs 5: evicting 1 (oldest) leaves 4 + 5 = 9.
  Insert(3, 3, 5);
  EXPECT_EQ((Deleted{{1, 1}}), deleted_);
  EXPECT_EQ(9u, cache_->GetUsage());
  // Needs 10: everything else goes.
  Insert(4, 4, 10);
  EXPECT_EQ((Deleted{{1, 1}, {2, 2}, {3, 3}}), deleted_);
  EXPECT_EQ(10u, cache_->GetUsage());
  Cache::Handle* h = cache_->Lookup(Key(4));
  EXPECT_EQ(10u, cache_->GetCharge(h));
  EXPECT_EQ(10u, cache_->GetUsage(h));
  cache_->Release(h);
}

TEST_F(LRUCacheTest, PinnedEntriesAreNeverEvicted) {
  NewCache(3);
  std::vector<Cache::Handle*> pinned;
  for (int i = 0; i < 3; i++) pinned.push_back(InsertPinned(i, i));
  // Non-strict: a pinned insert goes over capacity; an unpinned one that
  // cannot fit is dropped at once, as if evicted.
  pinned.push_back(InsertPinned(3, 3));
  EXPECT_EQ(4u, cache_->GetUsage());
  EXPECT_EQ(4u, cache_->GetPinnedUsage());
  Insert(4, 4);
  EXPECT_EQ((Deleted{{4, 4}}), deleted_);
  EXPECT_EQ(-1, Lookup(4));
  for (int i = 0; i < 4; i++) EXPECT_EQ(i, IntOf(cache_->Value(pinned[i])));
  // Over capacity, the first entry released is freed; then it fits.
  EXPECT_TRUE(cache_->Release(pinned[0]));
  EXPECT_EQ((Deleted{{4, 4}, {0, 0}}), deleted_);
  EXPECT_FALSE(cache_->Release(pinned[1]));
  EXPECT_EQ(1, Lookup(1));
  EXPECT_EQ(3u, cache_->GetUsage());
  EXPECT_EQ(2u, cache_->GetPinnedUsage());
  cache_->Release(pinned[2]);
  cache_->Release(pinned[3]);
  EXPECT_EQ(0u, cache_->GetPinnedUsage());
}

TEST_F(LRUCacheTest, InsertThatCannotFitEvictsNothing) {
  NewCache(10);
  Cache::Handle* pinned = InsertPinned(0, 0, 8);
  Insert(1, 1);
  Insert(2, 2);
  // Even with 1 and 2 gone, 8 + 5 > 10: the new entry alone is dropped.
  Insert(3, 3, 5);
  EXPECT_EQ((Deleted{{3, 3}}), deleted_);
  EXPECT_EQ(1, Lookup(1));
  EXPECT_EQ(2, Lookup(2));
  // One that fits once unpinned entries go evicts the oldest first.
  Insert(4, 4, 2);
  EXPECT_EQ((Deleted{{3, 3}, {1, 1}, {2, 2}}), deleted_);
  cache_->Release(pinned);
}

// A new value that cannot fit still replaces the key's old one: the key
// must not keep answering with the stale value.
TEST_F(LRUCacheTest, InsertThatCannotFitStillReplacesTheKey) {
  NewCache(10);
  Cache::Handle* pinned = InsertPinned(0, 0, 8);
  Insert(1, 1);
  Insert(1, 2, 5);  // 8 + 5 > 10
  EXPECT_EQ(-1, Lookup(1));
  EXPECT_EQ((Deleted{{1, 1}, {1, 2}}), deleted_);
  EXPECT_EQ(8u, cache_->GetUsage());
  // Likewise when the old entry is pinned: it is freed by its release.
  Cache::Handle* old = InsertPinned(3, 3);
  Insert(3, 4, 5);
  EXPECT_EQ(-1, Lookup(3));
  EXPECT_EQ(3, IntOf(cache_->Value(old)));
  EXPECT_TRUE(cache_->Release(old));
  EXPECT_EQ((Deleted{{1, 1}, {1, 2}, {3, 4}, {3, 3}}), deleted_);
  EXPECT_EQ(8u, cache_->GetUsage());
  cache_->Release(pinned);
}

TEST_F(LRUCacheTest, StrictCapacityLimit) {
  NewCache(2, 0.0, /*strict=*/true);
  EXPECT_TRUE(cache_->HasStrictCapacityLimit());
  Cache::Handle* a = InsertPinned(1, 1);
  Cache::Handle* b = InsertPinned(2, 2);
  // With a handle: Incomplete, the value stays the caller's.
  Cache::Handle* h = reinterpret_cast<Cache::Handle*>(&h);
  Status s = cache_->Insert(Key(3), Val(3), 1, &LogDeleter, &h);
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  EXPECT_EQ(nullptr, h);
  EXPECT_TRUE(deleted_.empty());
  // Without: OK, and the value is deleted at once.
  s = cache_->Insert(Key(4), Val(4), 1, &LogDeleter);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ((Deleted{{4, 4}}), deleted_);
  EXPECT_EQ(2u, cache_->GetUsage());
  // Once unpinned, entries make room again.
  cache_->Release(a);
  EXPECT_NE(nullptr, (h = InsertPinned(5, 5)));
  EXPECT_EQ((Deleted{{4, 4}, {1, 1}}), deleted_);
  cache_->Release(h);
  cache_->Release(b);

  cache_->SetStrictCapacityLimit(false);
  EXPECT_FALSE(cache_->HasStrictCapacityLimit());
}

TEST_F(LRUCacheTest, SetCapacityEvictsUnpinned) {
  NewCache(10);
  Cache::Handle* pinned = InsertPinned(0, 0);
  for (int i = 1; i < 10; i++) Insert(i, i);
  cache_->SetCapacity(4);
  EXPECT_EQ(4u, cache_->GetCapacity());
  EXPECT_EQ(4u, cache_->GetUsage());
  EXPECT_EQ((Deleted{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}}),
            deleted_);
  EXPECT_EQ(0, IntOf(cache_->Value(pinned)));
  cache_->SetCapacity(0);
  EXPECT_EQ(1u, cache_->GetUsage());  // the pinned one
  EXPECT_TRUE(cache_->Release(pinned));
  EXPECT_EQ(0u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, EraseUnRefEntriesKeepsPinned) {
  Cache::Handle* pinned = InsertPinned(0, 0, 7);
  Insert(1, 1);
  Insert(2, 2);
  EXPECT_EQ(7u, cache_->GetPinnedUsage());
  cache_->EraseUnRefEntries();
  EXPECT_EQ((Deleted{{1, 1}, {2, 2}}), deleted_);
  EXPECT_EQ(7u, cache_->GetUsage());
  EXPECT_EQ(-1, Lookup(1));
  cache_->Release(pinned);
  EXPECT_EQ(0, Lookup(0));  // still cached, now unpinned
  cache_->EraseUnRefEntries();
  EXPECT_EQ(0u, cache_->GetUsage());
  EXPECT_EQ(3u, deleted_.size());
}

TEST_F(LRUCacheTest, WithoutHighPriPoolPriorityIsIgnored) {
  NewCache(4, /*high_pri_ratio=*/0.0);
  Insert(1, 1, 1, Cache::Priority::HIGH);
  Insert(2, 2, 1, Cache::Priority::HIGH);
  for (int i = 3; i <= 5; i++) Insert(i, i);
  EXPECT_EQ((Deleted{{1, 1}}), deleted_);
}

TEST_F(LRUCacheTest, HighPriEntriesOutliveLowOnesInThePool) {
  NewCache(10, /*high_pri_ratio=*/0.5);  // a pool of 5
  for (int i = 1; i <= 3; i++) Insert(i, i, 1, Cache::Priority::HIGH);
  for (int i = 100; i < 120; i++) Insert(i, i);
  // Only LOW entries were evicted; the HIGH ones sit in the pool.
  ASSERT_EQ(13u, deleted_.size());
  for (const auto& d : deleted_) EXPECT_GE(d.first, 100);
  for (int i = 1; i <= 3; i++) EXPECT_EQ(i, Lookup(i));
  for (int i = 113; i < 120; i++) EXPECT_EQ(i, Lookup(i));
  deleted_.clear();

  // Five newer HIGH entries fill the pool; 1..3 (refreshed by the lookups
  // above, in that order) slide out of it, becoming the newest LOW ones.
  for (int i = 4; i <= 8; i++) Insert(i, i, 1, Cache::Priority::HIGH);
  EXPECT_EQ(
      (Deleted{{113, 113}, {114, 114}, {115, 115}, {116, 116}, {117, 117}}),
      deleted_);
  deleted_.clear();
  for (int i = 200; i < 205; i++) Insert(i, i);
  // LOW entries go first, then the ex-pool entries in LRU order; 4..8 stay.
  EXPECT_EQ((Deleted{{118, 118}, {119, 119}, {1, 1}, {2, 2}, {3, 3}}),
            deleted_);
  for (int i = 4; i <= 8; i++) EXPECT_EQ(i, Lookup(i));
}

TEST_F(LRUCacheTest, RatioOneKeepsAllHighEntries) {
  NewCache(4, /*high_pri_ratio=*/1.0);
  for (int i = 1; i <= 3; i++) Insert(i, i, 1, Cache::Priority::HIGH);
  for (int i = 10; i < 20; i++) Insert(i, i);
  for (int i = 1; i <= 3; i++) EXPECT_EQ(i, Lookup(i));
  EXPECT_EQ(19, Lookup(19));
  EXPECT_EQ(-1, Lookup(18));
}

TEST_F(LRUCacheTest, ManyEntriesGrowTheHashTable) {
  NewCache(1 << 20);
  constexpr int kN = 20000;
  for (int i = 0; i < kN; i++) Insert(i, i + 1);
  for (int i = 0; i < kN; i++) ASSERT_EQ(i + 1, Lookup(i)) << i;
  for (int i = 0; i < kN; i += 2) cache_->Erase(Key(i));
  for (int i = 0; i < kN; i++) {
    ASSERT_EQ(i % 2 == 0 ? -1 : i + 1, Lookup(i)) << i;
  }
  EXPECT_EQ(static_cast<size_t>(kN / 2), cache_->GetUsage());
}

TEST_F(LRUCacheTest, EmptyAndLongKeys) {
  ASSERT_TRUE(cache_->Insert("", Val(1), 1, nullptr).ok());
  const std::string long_key(10000, 'k');
  ASSERT_TRUE(cache_->Insert(long_key, Val(2), 1, nullptr).ok());
  Cache::Handle* h = cache_->Lookup("");
  ASSERT_NE(nullptr, h);
  EXPECT_EQ(1, IntOf(cache_->Value(h)));
  cache_->Release(h);
  h = cache_->Lookup(long_key);
  ASSERT_NE(nullptr, h);
  EXPECT_EQ(2, IntOf(cache_->Value(h)));
  cache_->Release(h);
  EXPECT_EQ(nullptr, cache_->Lookup(std::string(9999, 'k')));
}

TEST_F(LRUCacheTest, ShardsSplitTheCapacity) {
  cache_ = NewLRUCache(1600, 4);
  ASSERT_NE(nullptr, cache_);
  for (int i = 0; i < 1000; i++) Insert(i, i);
  EXPECT_EQ(1000u, cache_->GetUsage());
  for (int i = 0; i < 1000; i++) ASSERT_EQ(i, Lookup(i));
  // Each shard holds at most 100.
  for (int i = 1000; i < 5000; i++) Insert(i, i);
  EXPECT_LE(cache_->GetUsage(), 1600u);
  EXPECT_GT(cache_->GetUsage(), 1400u);
  cache_->SetCapacity(160);
  EXPECT_LE(cache_->GetUsage(), 160u);
  EXPECT_EQ(160u, cache_->GetCapacity());
}

TEST_F(LRUCacheTest, NewIdIsUnique) {
  const uint64_t a = cache_->NewId();
  const uint64_t b = cache_->NewId();
  EXPECT_NE(a, b);
  EXPECT_NE(0u, a);
}

TEST(NewLRUCacheTest, RejectsInvalidArguments) {
  EXPECT_EQ(nullptr, NewLRUCache(1 << 20, 20));
  EXPECT_EQ(nullptr, NewLRUCache(1 << 20, 25));
  EXPECT_EQ(nullptr, NewLRUCache(1 << 20, 0, false, -0.1));
  EXPECT_EQ(nullptr, NewLRUCache(1 << 20, 0, false, 1.01));
  EXPECT_EQ(nullptr, NewLRUCache(1 << 20, 0, false,
                                 std::numeric_limits<double>::quiet_NaN()));
  EXPECT_NE(nullptr, NewLRUCache(1 << 20, 0, false, 0.0));
  EXPECT_NE(nullptr, NewLRUCache(1 << 20, 0, false, 1.0));
  LRUCacheOptions options(1 << 20, 20, false, 0.5);
  EXPECT_EQ(nullptr, NewLRUCache(options));
  options.num_shard_bits = 2;
  EXPECT_NE(nullptr, NewLRUCache(options));
}

TEST(NewLRUCacheTest, PicksShardBitsFromCapacity) {
  EXPECT_EQ(0, DefaultCacheShardBits(0));
  EXPECT_EQ(0, DefaultCacheShardBits(1023 * 1024));
  EXPECT_EQ(1, DefaultCacheShardBits(1024 * 1024));
  EXPECT_EQ(4, DefaultCacheShardBits(8 << 20));
  EXPECT_EQ(6, DefaultCacheShardBits(size_t{1} << 30));
  std::shared_ptr<Cache> cache = NewLRUCache(8 << 20);
  auto* lru = dynamic_cast<LRUCache*>(cache.get());
  ASSERT_NE(nullptr, lru);
  EXPECT_EQ(4, lru->num_shard_bits());
  EXPECT_EQ(size_t{8} << 20, cache->GetCapacity());
  EXPECT_FALSE(cache->HasStrictCapacityLimit());
  cache = NewLRUCache(1 << 20, 19);  // the largest allowed
  ASSERT_NE(nullptr, cache);
  EXPECT_EQ(19, dynamic_cast<LRUCache*>(cache.get())->num_shard_bits());
}

TEST(NewLRUCacheTest, HugeCapacityDoesNotOverflow) {
  std::shared_ptr<Cache> cache =
      NewLRUCache(std::numeric_limits<size_t>::max(), 3, false, 0.5);
  ASSERT_NE(nullptr, cache);
  ASSERT_TRUE(cache->Insert("k", Val(1), 1000, nullptr).ok());
  ASSERT_TRUE(
      cache->Insert("h", Val(2), 1000, nullptr, nullptr, Cache::Priority::HIGH)
          .ok());
  Cache::Handle* h = cache->Lookup("k");
  ASSERT_NE(nullptr, h);
  cache->Release(h);
  EXPECT_EQ(2000u, cache->GetUsage());
}

}  // namespace
}  // namespace strata
