// The cache-local bloom filter: probes of keys that were added (hits, all
// k probes checked) and of keys that were not (misses, usually rejected
// after a probe or two), over a filter of 1M keys at 10 bits/key — 1.2 MiB,
// beyond most L2 caches, so a probe pays the one cache miss the layout
// promises and no more — and building a filter, per key. Keys are 16
// bytes; the hash is in every figure, as a table lookup pays it too.

#include <cstdint>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "strata/filter_policy.h"
#include "util/bloom.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr size_t kNumKeys = 1000000;
constexpr size_t kKeySize = 16;

// n keys of 16 bytes, back to back in one buffer: a tag byte that keeps
// added and absent keys apart, then random bytes.
std::string MakeKeys(size_t n, char tag, uint64_t seed) {
  Random64 rnd(seed);
  std::string keys;
  keys.reserve(n * kKeySize);
  for (size_t i = 0; i < n; i++) {
    keys.push_back(tag);
    PutFixed64(&keys, rnd.Next());
    PutFixed32(&keys, static_cast<uint32_t>(rnd.Next()));
    keys.append(3, '.');
  }
  return keys;
}

Slice KeyAt(const std::string& keys, size_t i) {
  return Slice(keys.data() + i * kKeySize, kKeySize);
}

// One filter shared by the probe benchmarks, built on first use.
struct ProbeFixture {
  ProbeFixture()
      : policy(NewBloomFilterPolicy(10)),
        added(MakeKeys(kNumKeys, '+', 1)),
        absent(MakeKeys(kNumKeys, '-', 2)) {
    std::unique_ptr<FilterBitsBuilder> builder(policy->NewBuilder());
    for (size_t i = 0; i < kNumKeys; i++) builder->AddKey(KeyAt(added, i));
    builder->Finish(&filter);
    reader.reset(policy->NewReader(filter));
  }
  std::unique_ptr<const FilterPolicy> policy;
  std::string added;
  std::string absent;
  std::string filter;
  std::unique_ptr<FilterBitsReader> reader;
};

ProbeFixture& Fixture() {
  static ProbeFixture* fixture = new ProbeFixture;
  return *fixture;
}

// Keys are read in order (the prefetcher hides their loads), while their
// hashes send consecutive probes to unrelated lines, as a table's lookups
// would: the time is the hash plus one cache miss into the filter.
void Probe(benchmark::State& state, const std::string& keys) {
  const FilterBitsReader& reader = *Fixture().reader;
  size_t i = 0;
  int64_t matches = 0;
  for (auto _ : state) {
    matches += reader.MayMatch(KeyAt(keys, i)) ? 1 : 0;
    if (++i == kNumKeys) i = 0;
  }
  benchmark::DoNotOptimize(matches);
  state.counters["match_rate"] = benchmark::Counter(
      static_cast<double>(matches) / static_cast<double>(state.iterations()));
  state.SetItemsProcessed(state.iterations());
}

void BM_BloomProbeHit(benchmark::State& state) {
  Probe(state, Fixture().added);
}
void BM_BloomProbeMiss(benchmark::State& state) {
  Probe(state, Fixture().absent);
}
BENCHMARK(BM_BloomProbeHit);
BENCHMARK(BM_BloomProbeMiss);

// Adding range(0) keys and finishing the filter; items are keys.
void BM_BloomBuild(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::string keys = MakeKeys(n, '+', 3);
  const std::unique_ptr<const FilterPolicy> policy(NewBloomFilterPolicy(10));
  std::string filter;
  for (auto _ : state) {
    std::unique_ptr<FilterBitsBuilder> builder(policy->NewBuilder());
    for (size_t i = 0; i < n; i++) builder->AddKey(KeyAt(keys, i));
    filter.clear();
    builder->Finish(&filter);
    benchmark::DoNotOptimize(filter.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
}
BENCHMARK(BM_BloomBuild)
    ->Arg(10000)
    ->Arg(kNumKeys)
    ->Unit(benchmark::kMillisecond);

// The hash alone, for the share of a probe it takes.
void BM_BloomHash(benchmark::State& state) {
  const std::string keys = MakeKeys(1024, '+', 4);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(BloomHash(KeyAt(keys, i++ & 1023)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BloomHash);

}  // namespace
}  // namespace strata
