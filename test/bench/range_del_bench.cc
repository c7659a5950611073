// Range tombstones: building a fragmented list, and ShouldDelete over a
// sorted scan (forward positioning: a cursor walk) against the same keys
// with random-access positioning (a binary search per key per source).
// Argument: tombstones per source (4 sources, overlapping ranges).

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "db/range_del_aggregator.h"
#include "db/range_tombstone_fragmenter.h"
#include "strata/comparator.h"
#include "util/random.h"

namespace strata {
namespace {

std::string Key(uint32_t i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%08u", i);
  return buf;
}

constexpr uint32_t kKeySpace = 1000000;

std::vector<RangeTombstone> Tombstones(uint32_t seed, int n) {
  Random rnd(seed);
  std::vector<RangeTombstone> out;
  for (int i = 0; i < n; i++) {
    const uint32_t begin = rnd.Uniform(kKeySpace);
    const uint32_t len = 1 + rnd.Uniform(kKeySpace / static_cast<uint32_t>(n));
    out.emplace_back(Key(begin), Key(begin + len), 1 + rnd.Uniform(1000000));
  }
  return out;
}

void BM_Fragment(benchmark::State& state) {
  const std::vector<RangeTombstone> ts =
      Tombstones(1, static_cast<int>(state.range(0)));
  for (auto _ : state) {
    FragmentedRangeTombstoneList list(ts, BytewiseComparator());
    benchmark::DoNotOptimize(list.size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
}
BENCHMARK(BM_Fragment)->Range(16, 4096);

template <RangeDelPositioning kMode>
void BM_ShouldDeleteScan(benchmark::State& state) {
  RangeDelAggregator agg =
      RangeDelAggregator::ForRead(BytewiseComparator(), kMaxSequenceNumber);
  for (uint32_t s = 0; s < 4; s++) {
    agg.AddTombstones(std::make_shared<const FragmentedRangeTombstoneList>(
        Tombstones(10 + s, static_cast<int>(state.range(0))),
        BytewiseComparator()));
  }
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < kKeySpace; i += 97) keys.push_back(Key(i));
  size_t deleted = 0;
  for (auto _ : state) {
    for (const std::string& k : keys) {
      deleted +=
          agg.ShouldDelete(ParsedInternalKey(k, 500000, kTypeValue), kMode);
    }
  }
  benchmark::DoNotOptimize(deleted);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(keys.size()));
}
BENCHMARK_TEMPLATE(BM_ShouldDeleteScan, RangeDelPositioning::kForwardTraversal)
    ->Name("BM_ShouldDeleteForwardScan")
    ->Range(16, 4096);
BENCHMARK_TEMPLATE(BM_ShouldDeleteScan, RangeDelPositioning::kRandomAccess)
    ->Name("BM_ShouldDeleteBinarySearch")
    ->Range(16, 4096);

}  // namespace
}  // namespace strata
