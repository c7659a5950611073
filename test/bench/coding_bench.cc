// Varint and fixed-width coding: the per-entry cost of every key, value and
// length strata writes or parses.

#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

// Values whose varint encodings take 1..max_bytes bytes, evenly mixed.
std::vector<uint64_t> Values(int max_bytes, size_t n) {
  Random64 rnd(301);
  std::vector<uint64_t> values(n);
  for (uint64_t& v : values) {
    const int bytes = 1 + static_cast<int>(rnd.Uniform(max_bytes));
    const int bits = bytes * 7 > 64 ? 64 : bytes * 7;
    v = bits == 64 ? rnd.Next() : rnd.Next() & ((uint64_t{1} << bits) - 1);
  }
  return values;
}

void BM_PutVarint32(benchmark::State& state) {
  const std::vector<uint64_t> values =
      Values(static_cast<int>(state.range(0)), 4096);
  std::string buf;
  for (auto _ : state) {
    buf.clear();
    for (uint64_t v : values) PutVarint32(&buf, static_cast<uint32_t>(v));
    benchmark::DoNotOptimize(buf.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 4096);
}
BENCHMARK(BM_PutVarint32)->Arg(1)->Arg(3)->Arg(5);

void BM_GetVarint32(benchmark::State& state) {
  const std::vector<uint64_t> values =
      Values(static_cast<int>(state.range(0)), 4096);
  std::string buf;
  for (uint64_t v : values) PutVarint32(&buf, static_cast<uint32_t>(v));
  for (auto _ : state) {
    const char* p = buf.data();
    const char* limit = p + buf.size();
    uint32_t sum = 0;
    while (p < limit) {
      uint32_t v;
      p = GetVarint32Ptr(p, limit, &v);
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 4096);
}
BENCHMARK(BM_GetVarint32)->Arg(1)->Arg(3)->Arg(5);

void BM_PutVarint64(benchmark::State& state) {
  const std::vector<uint64_t> values =
      Values(static_cast<int>(state.range(0)), 4096);
  std::string buf;
  for (auto _ : state) {
    buf.clear();
    for (uint64_t v : values) PutVarint64(&buf, v);
    benchmark::DoNotOptimize(buf.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 4096);
}
BENCHMARK(BM_PutVarint64)->Arg(1)->Arg(5)->Arg(10);

void BM_GetVarint64(benchmark::State& state) {
  const std::vector<uint64_t> values =
      Values(static_cast<int>(state.range(0)), 4096);
  std::string buf;
  for (uint64_t v : values) PutVarint64(&buf, v);
  for (auto _ : state) {
    const char* p = buf.data();
    const char* limit = p + buf.size();
    uint64_t sum = 0;
    while (p < limit) {
      uint64_t v;
      p = GetVarint64Ptr(p, limit, &v);
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 4096);
}
BENCHMARK(BM_GetVarint64)->Arg(1)->Arg(5)->Arg(10);

void BM_Fixed64RoundTrip(benchmark::State& state) {
  char buf[8 * 512];
  for (auto _ : state) {
    for (uint64_t i = 0; i < 512; i++) EncodeFixed64(buf + 8 * i, i * 0x9e37);
    uint64_t sum = 0;
    for (int i = 0; i < 512; i++) sum += DecodeFixed64(buf + 8 * i);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 512);
}
BENCHMARK(BM_Fixed64RoundTrip);

}  // namespace
}  // namespace strata
