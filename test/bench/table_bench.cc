// Point lookups in a block-based table of 100 K entries (4 KiB blocks,
// no compression), all blocks in a warm block cache: keys present (hit)
// and absent (miss), with and without a bloom filter (10 bits per key).
// A miss without a filter seeks the index and a data block; with one,
// it normally stops at the filter.

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "db/dbformat.h"
#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "test/table/table_test_util.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr int kNumKeys = 100000;

std::string UserKey(int i, bool present) {
  char buf[32];
  // Present keys end in '0', absent ones in '5': same prefix, same blocks.
  std::snprintf(buf, sizeof(buf), "key%08d%c", i, present ? '0' : '5');
  return buf;
}

struct BenchTable {
  InternalKeyComparator icmp{BytewiseComparator()};
  std::unique_ptr<TableFactory> factory;
  std::unique_ptr<TableReader> reader;
};

// One table per filter setting, built once.
BenchTable* GetTable(bool filter) {
  static BenchTable* tables[2] = {nullptr, nullptr};
  BenchTable*& t = tables[filter ? 1 : 0];
  if (t != nullptr) return t;
  t = new BenchTable;
  BlockBasedTableOptions topts;
  topts.block_cache = NewLRUCache(256 << 20);
  if (filter) topts.filter_policy.reset(NewBloomFilterPolicy(10));
  t->factory.reset(NewBlockBasedTableFactory(topts));
  test::TableEntries entries;
  for (int i = 0; i < kNumKeys; i++) {
    entries.emplace_back(
        InternalKey(UserKey(i, true), 100, kTypeValue).Encode().ToString(),
        std::string(100, static_cast<char>('a' + i % 26)));
  }
  TableBuilderOptions bopts;
  bopts.icmp = &t->icmp;
  std::string contents;
  Status s = test::BuildTableInMemory(*t->factory, bopts, entries, &contents);
  if (s.ok()) {
    const uint64_t size = contents.size();
    std::unique_ptr<RandomAccessFileReader> file(new RandomAccessFileReader(
        std::unique_ptr<RandomAccessFile>(
            new test::StringFile(std::move(contents), false)),
        "bench.sst"));
    TableReaderOptions ropts;
    ropts.icmp = &t->icmp;
    s = t->factory->NewTableReader(ropts, std::move(file), size, &t->reader);
  }
  if (!s.ok()) {
    std::fprintf(stderr, "table_bench: %s\n", s.ToString().c_str());
    std::abort();
  }
  // Warm the cache: every data block.
  std::unique_ptr<InternalIterator> it(t->reader->NewIterator(ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  return t;
}

bool CountEntry(void* arg, const Slice&, const Slice&, CachePin*) {
  ++*static_cast<int64_t*>(arg);
  return false;
}

void BM_TableGet(benchmark::State& state) {
  const bool filter = state.range(0) != 0;
  const bool hit = state.range(1) != 0;
  BenchTable* t = GetTable(filter);
  Random rnd(301);
  int64_t found = 0;
  ReadOptions ro;
  for (auto _ : state) {
    LookupKey lkey(UserKey(static_cast<int>(rnd.Uniform(kNumKeys)), hit),
                   kMaxSequenceNumber);
    Status s = t->reader->Get(ro, lkey.internal_key(), &found, &CountEntry);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["found"] = benchmark::Counter(
      static_cast<double>(found) / static_cast<double>(state.iterations()));
  state.SetLabel(std::string(filter ? "filter" : "no filter") +
                 (hit ? ", hit" : ", miss"));
}

BENCHMARK(BM_TableGet)
    ->ArgNames({"filter", "hit"})
    ->Args({0, 1})
    ->Args({0, 0})
    ->Args({1, 1})
    ->Args({1, 0});

}  // namespace
}  // namespace strata
