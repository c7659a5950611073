// The cache-local bloom filter: probes of keys that were added (hits, all
// k probes checked) and of keys that were not (misses, usually rejected
// after a probe or two), over a filter of 1M keys at 10 bits/key — 1.2 MiB,
// larger than L2, so a probe pays the one cache miss the layout promises
// and no more — and building a filter, per key. Keys are 16-byte strings,
// the hash included in every figure, as a table lookup pays it too.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "strata/filter_policy.h"
#include "util/bloom.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr int kNumKeys = 1000000;

// Sixteen bytes: a tag byte that keeps added and absent keys apart, then
// random bytes.
std::vector<std::string> MakeKeys(size_t n, char tag, uint64_t seed) {
  Random64 rnd(seed);
  std::vector<std::string> keys(n);
  for (std::string& key : keys) {
    key.assign(1, tag);
    PutFixed64(&key, rnd.Next());
    PutFixed32(&key, static_cast<uint32_t>(rnd.Next()));
    key.append(3, '.');
  }
  return keys;
}

// One filter shared by the probe benchmarks, built on first use.
struct ProbeFixture {
  ProbeFixture()
      : policy(NewBloomFilterPolicy(10)),
        added(MakeKeys(kNumKeys, '+', 1)),
        absent(MakeKeys(kNumKeys, '-', 2)) {
    std::unique_ptr<FilterBitsBuilder> builder(policy->NewBuilder());
    for (const std::string& key : added) builder->AddKey(key);
    builder->Finish(&filter);
    reader.reset(policy->NewReader(filter));
  }
  std::unique_ptr<const FilterPolicy> policy;
  std::vector<std::string> added;
  std::vector<std::string> absent;
  std::string filter;
  std::unique_ptr<FilterBitsReader> reader;
};

ProbeFixture& Fixture() {
  static ProbeFixture* fixture = new ProbeFixture;
  return *fixture;
}

// Keys are visited in a scattered order so consecutive probes hit
// unrelated lines, as lookups of a table would.
void Probe(benchmark::State& state, const std::vector<std::string>& keys) {
  const FilterBitsReader& reader = *Fixture().reader;
  size_t i = 0;
  int64_t matches = 0;
  for (auto _ : state) {
    matches += reader.MayMatch(keys[i]) ? 1 : 0;
    i += 7919;  // prime: every key once per cycle
    if (i >= keys.size()) i -= keys.size();
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
  const std::vector<std::string> keys =
      MakeKeys(static_cast<size_t>(state.range(0)), '+', 3);
  const std::unique_ptr<const FilterPolicy> policy(NewBloomFilterPolicy(10));
  std::string filter;
  for (auto _ : state) {
    std::unique_ptr<FilterBitsBuilder> builder(policy->NewBuilder());
    for (const std::string& key : keys) builder->AddKey(key);
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
  const std::vector<std::string> keys = MakeKeys(1024, '+', 4);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(BloomHash(keys[i++ & 1023]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BloomHash);

}  // namespace
}  // namespace strata
