// LRU cache: Lookup + Release of hot keys (the block cache's hit path)
// from one and two threads, with one shard (every thread on one mutex)
// and with 16; and Insert into a full cache, each insert evicting.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "strata/cache.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr int kHotKeys = 1024;

std::string BenchKey(uint64_t k) {
  std::string key;
  PutFixed64(&key, k);
  key.append(8, 'k');  // a block cache key is about this long
  return key;
}

// Caches of kHotKeys entries for shard bits 0 and 4, built once.
struct HotFixture {
  HotFixture() {
    for (int i = 0; i < kHotKeys; i++) keys.push_back(BenchKey(i));
    for (int bits : {0, 4}) {
      std::shared_ptr<Cache> cache = NewLRUCache(kHotKeys * 4096, bits);
      for (const std::string& k : keys) {
        cache->Insert(k, nullptr, 4096, nullptr);
      }
      caches.push_back(cache);
    }
  }
  Cache* cache(int bits) { return caches[bits == 0 ? 0 : 1].get(); }

  std::vector<std::string> keys;
  std::vector<std::shared_ptr<Cache>> caches;
};

HotFixture* Hot() {
  static HotFixture* fixture = new HotFixture();
  return fixture;
}

void BM_LookupHot(benchmark::State& state) {
  HotFixture* f = Hot();
  Cache* cache = f->cache(static_cast<int>(state.range(0)));
  Random rnd(301 + static_cast<uint32_t>(state.thread_index()));
  for (auto _ : state) {
    Cache::Handle* h = cache->Lookup(f->keys[rnd.Uniform(kHotKeys)]);
    benchmark::DoNotOptimize(h);
    cache->Release(h);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_LookupHot)
    ->ArgName("shard_bits")
    ->Arg(0)
    ->Arg(4)
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime();

void BM_InsertWithEviction(benchmark::State& state) {
  constexpr size_t kEntries = 4096;
  std::shared_ptr<Cache> cache =
      NewLRUCache(kEntries, static_cast<int>(state.range(0)));
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 4 * kEntries; i++) keys.push_back(BenchKey(i));
  // Filled first, so every timed insert evicts one entry.
  for (size_t i = 0; i < kEntries; i++)
    cache->Insert(keys[i], nullptr, 1, nullptr);
  size_t next = kEntries;
  for (auto _ : state) {
    cache->Insert(keys[next], nullptr, 1, nullptr);
    if (++next == keys.size()) next = 0;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_InsertWithEviction)->ArgName("shard_bits")->Arg(0)->Arg(4);

}  // namespace
}  // namespace strata
