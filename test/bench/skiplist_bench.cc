// InlineSkipList on ConcurrentArena: serial inserts of ascending keys (the
// cached search path) against random keys, InsertConcurrently from one and
// two threads into a shared list, and point lookups (Contains, Seek) on a
// list of 1M entries. Keys are 8-byte integers, so the numbers are about
// the list, not about key comparison.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "memtable/concurrent_arena.h"
#include "memtable/inline_skiplist.h"
#include "test/memtable/u64_keys.h"
#include "util/random.h"

namespace strata {
namespace {

using test::U64Comparator;
using List = InlineSkipList<U64Comparator>;

char* NewKey(List* list, uint64_t k) { return test::NewU64Key(list, k); }

std::vector<uint64_t> RandomKeys(size_t n, uint64_t seed) {
  Random64 rnd(seed);
  std::vector<uint64_t> keys(n);
  for (uint64_t& k : keys) k = rnd.Next();
  return keys;
}

// Each iteration fills a fresh list with range(0) keys in the given order.
void InsertSerial(benchmark::State& state, bool sequential) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<uint64_t> keys = RandomKeys(n, 301);
  if (sequential) std::sort(keys.begin(), keys.end());
  for (auto _ : state) {
    state.PauseTiming();
    auto arena = std::make_unique<ConcurrentArena>();
    auto list = std::make_unique<List>(U64Comparator(), arena.get());
    state.ResumeTiming();
    for (uint64_t k : keys) list->Insert(NewKey(list.get(), k));
    state.PauseTiming();
    list.reset();
    arena.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}

void BM_InsertSequential(benchmark::State& state) { InsertSerial(state, true); }
void BM_InsertRandom(benchmark::State& state) { InsertSerial(state, false); }
BENCHMARK(BM_InsertSequential)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_InsertRandom)->Arg(100000)->Unit(benchmark::kMillisecond);

// One list shared by the benchmark's threads; each thread inserts random
// keys of its own, one per iteration. Items per second count all threads.
ConcurrentArena* shared_arena = nullptr;
List* shared_list = nullptr;

void BM_InsertConcurrently(benchmark::State& state) {
  if (state.thread_index() == 0) {
    shared_arena = new ConcurrentArena();
    shared_list = new List(U64Comparator(), shared_arena);
  }
  Random64 rnd(1000 + static_cast<uint64_t>(state.thread_index()));
  for (auto _ : state) {
    shared_list->InsertConcurrently(NewKey(shared_list, rnd.Next()));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  if (state.thread_index() == 0) {
    delete shared_list;
    delete shared_arena;
  }
}
// The same total of inserts for each thread count, so both runs end with a
// list of the same size (insert cost grows with it).
constexpr int64_t kConcurrentInserts = 400000;
BENCHMARK(BM_InsertConcurrently)
    ->Threads(1)
    ->Iterations(kConcurrentInserts)
    ->UseRealTime();
BENCHMARK(BM_InsertConcurrently)
    ->Threads(2)
    ->Iterations(kConcurrentInserts / 2)
    ->UseRealTime();

constexpr size_t kLookupEntries = 1000000;

// Built once, on first use, and kept for the process.
struct LookupFixture {
  LookupFixture()
      : keys(RandomKeys(kLookupEntries, 7)), list(U64Comparator(), &arena) {
    for (uint64_t k : keys) list.Insert(NewKey(&list, k));
  }
  std::vector<uint64_t> keys;
  ConcurrentArena arena;
  List list;
};

LookupFixture* Lookup() {
  static LookupFixture* fixture = new LookupFixture();
  return fixture;
}

void BM_Contains(benchmark::State& state) {
  LookupFixture* f = Lookup();
  Random rnd(11);
  size_t found = 0;
  for (auto _ : state) {
    const test::U64Target target(f->keys[rnd.Uniform(kLookupEntries)]);
    found += f->list.Contains(target.bytes);
  }
  benchmark::DoNotOptimize(found);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_Contains);

void BM_Seek(benchmark::State& state) {
  LookupFixture* f = Lookup();
  Random64 rnd(13);
  List::Iterator it(&f->list);
  for (auto _ : state) {
    const test::U64Target target(rnd.Next());  // mostly between two keys
    it.Seek(target.bytes);
    benchmark::DoNotOptimize(it.Valid());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_Seek);

}  // namespace
}  // namespace strata
