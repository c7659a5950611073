// crc32c throughput: the dispatching Extend (what the engine calls), the
// portable slicing-by-8 code and the SSE4.2 instruction path, over buffers
// from a log record header to a large block.

#include <string>

#include "benchmark/benchmark.h"
#include "util/crc32c.h"

namespace strata {
namespace {

template <uint32_t (*Extend)(uint32_t, const char*, size_t)>
void BM_Crc32c(benchmark::State& state) {
  const std::string data(static_cast<size_t>(state.range(0)), 'x');
  uint32_t crc = 0;
  for (auto _ : state) {
    crc = Extend(crc, data.data(), data.size());
    benchmark::DoNotOptimize(crc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
}

void BM_Crc32cHardware(benchmark::State& state) {
  if (!crc32c::IsHardwareAccelerated()) {
    state.SkipWithError("no CRC32C instruction on this CPU");
    return;
  }
  BM_Crc32c<crc32c::ExtendHardware>(state);
}

BENCHMARK_TEMPLATE(BM_Crc32c, crc32c::Extend)
    ->Name("BM_Crc32cExtend")
    ->RangeMultiplier(16)
    ->Range(16, 1 << 20);
BENCHMARK_TEMPLATE(BM_Crc32c, crc32c::ExtendPortable)
    ->Name("BM_Crc32cPortable")
    ->RangeMultiplier(16)
    ->Range(16, 1 << 20);
BENCHMARK(BM_Crc32cHardware)->RangeMultiplier(16)->Range(16, 1 << 20);

}  // namespace
}  // namespace strata
