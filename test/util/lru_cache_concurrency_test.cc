// Eight threads hammering one small LRU cache with random Insert, Lookup,
// Ref, Release and Erase, holding handles across operations. Values live
// in a pool that outlives the cache, and the deleter poisons them instead
// of freeing memory, so a holder that finds its pinned value poisoned
// proves the cache freed an entry in use; a value deleted twice, or never,
// shows up in the counts. Meant to run under ThreadSanitizer too.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/cache.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

struct TrackedValue {
  std::atomic<bool> live{false};
  uint32_t key = 0;
  std::atomic<int> deletes{0};
};

void PoisonValue(const Slice& key, void* value) {
  auto* v = static_cast<TrackedValue*>(value);
  EXPECT_EQ(v->key, DecodeFixed32(key.data()));
  v->live.store(false, std::memory_order_release);
  v->deletes.fetch_add(1, std::memory_order_relaxed);
}

struct Held {
  Cache::Handle* handle;
  uint32_t key;
};

class LRUCacheConcurrencyTest : public testing::TestWithParam<bool /*strict*/> {
 protected:
  static constexpr int kThreads = 8;
  static constexpr int kOpsPerThread = 20000;
  static constexpr int kKeys = 200;
  static constexpr size_t kCapacity = 64;  // a multiple of the 4 shards

  // One thread's random walk; failures are recorded through gtest.
  void Run(Cache* cache, int thread_id) {
    Random rnd(1000 + thread_id);
    std::vector<Held> held;
    std::string key;
    const size_t slot_base = static_cast<size_t>(thread_id) * kOpsPerThread;
    for (int op = 0; op < kOpsPerThread; op++) {
      const uint32_t k = rnd.Uniform(kKeys);
      key.clear();
      PutFixed32(&key, k);
      const uint32_t action = rnd.Uniform(100);
      if (action < 40) {
        Cache::Handle* h = cache->Lookup(key);
        if (h != nullptr) held.push_back({h, k});
      } else if (action < 75) {
        TrackedValue* v = &values_[slot_base + op];
        v->key = k;
        v->live.store(true, std::memory_order_relaxed);
        const size_t charge = 1 + rnd.Uniform(4);
        const bool pin = rnd.OneIn(2);
        Cache::Handle* h = nullptr;
        Status s = cache->Insert(
            key, v, charge, &PoisonValue, pin ? &h : nullptr,
            rnd.OneIn(4) ? Cache::Priority::HIGH : Cache::Priority::LOW);
        if (s.IsIncomplete()) {
          // Strict and full: the value is still ours to dispose of.
          ASSERT_TRUE(GetParam());
          ASSERT_EQ(nullptr, h);
          PoisonValue(key, v);
        } else {
          ASSERT_TRUE(s.ok()) << s.ToString();
          if (pin) held.push_back({h, k});
        }
      } else if (action < 85) {
        cache->Erase(key);
      } else if (action < 90 && !held.empty()) {
        const Held some = held[rnd.Uniform(static_cast<int>(held.size()))];
        ASSERT_TRUE(cache->Ref(some.handle));
        held.push_back(some);
      }
      if (GetParam()) {
        ASSERT_LE(cache->GetUsage(), kCapacity);
      }
      // Every pinned value is still alive and the one of its key.
      for (const Held& h : held) {
        auto* v = static_cast<TrackedValue*>(cache->Value(h.handle));
        ASSERT_TRUE(v->live.load(std::memory_order_acquire));
        ASSERT_EQ(h.key, v->key);
        ASSERT_EQ(0, v->deletes.load(std::memory_order_relaxed));
      }
      // Keep a few handles across operations, then let go of some.
      while (held.size() > 3 || (!held.empty() && rnd.OneIn(3))) {
        const size_t i = rnd.Uniform(static_cast<int>(held.size()));
        cache->Release(held[i].handle, rnd.OneIn(10));
        held[i] = held.back();
        held.pop_back();
      }
    }
    for (const Held& h : held) cache->Release(h.handle);
  }

  std::unique_ptr<TrackedValue[]> values_{
      new TrackedValue[size_t{kThreads} * kOpsPerThread]};
};

TEST_P(LRUCacheConcurrencyTest, RandomOperationsKeepInvariants) {
  std::shared_ptr<Cache> cache = NewLRUCache(kCapacity, 2, GetParam(), 0.25);
  ASSERT_NE(nullptr, cache);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([this, &cache, t] { Run(cache.get(), t); });
  }
  for (std::thread& t : threads) t.join();

  // Nothing pinned: usage is within capacity, strict or not.
  EXPECT_EQ(0u, cache->GetPinnedUsage());
  EXPECT_LE(cache->GetUsage(), kCapacity);
  cache->EraseUnRefEntries();
  EXPECT_EQ(0u, cache->GetUsage());
  cache.reset();

  // Every value handed to the cache was deleted exactly once.
  size_t inserted = 0;
  for (size_t i = 0; i < size_t{kThreads} * kOpsPerThread; i++) {
    const TrackedValue& v = values_[i];
    if (v.deletes.load() == 0 && !v.live.load()) continue;  // slot unused
    inserted++;
    ASSERT_FALSE(v.live.load()) << "value " << i << " never deleted";
    ASSERT_EQ(1, v.deletes.load()) << "value " << i;
  }
  EXPECT_GT(inserted, 0u);
}

INSTANTIATE_TEST_SUITE_P(StrictAndNot, LRUCacheConcurrencyTest,
                         testing::Bool());

}  // namespace
}  // namespace strata
