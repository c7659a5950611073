// WriteBatch encoding and decoding: building a batch of N Puts (16-byte
// keys, 100-byte values), and Iterate over it with a handler that does
// nothing — the fixed cost the write path and recovery pay per update.

#include <cstdlib>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "strata/write_batch.h"

namespace strata {
namespace {

constexpr size_t kKeySize = 16;
constexpr size_t kValueSize = 100;

// i in decimal, zero-padded to kKeySize digits (keys sort by number).
std::string Key(int64_t i) {
  std::string key(kKeySize, '0');
  for (size_t pos = kKeySize; pos > 0 && i > 0; i /= 10) {
    key[--pos] = static_cast<char>('0' + i % 10);
  }
  return key;
}

void Fill(WriteBatch* batch, int64_t n, const std::string& value) {
  for (int64_t i = 0; i < n; i++) {
    Status s = batch->Put(Key(i), value);
    if (!s.ok()) std::abort();
  }
}

void BM_WriteBatchPut(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::string value(kValueSize, 'v');
  // Keys are made up front so that the loop measures the encoding only.
  std::vector<std::string> keys;
  for (int64_t i = 0; i < n; i++) keys.push_back(Key(i));
  WriteBatch batch;
  for (auto _ : state) {
    batch.Clear();
    for (const std::string& key : keys) {
      Status s = batch.Put(key, value);
      benchmark::DoNotOptimize(s);
    }
    benchmark::DoNotOptimize(batch.Data().data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(batch.GetDataSize()));
}

class NoopHandler : public WriteBatch::Handler {
 public:
  Status PutCF(uint32_t, const Slice& key, const Slice& value) override {
    bytes_ += key.size() + value.size();
    return Status::OK();
  }
  size_t bytes_ = 0;
};

void BM_WriteBatchIterate(benchmark::State& state) {
  const int64_t n = state.range(0);
  WriteBatch batch;
  Fill(&batch, n, std::string(kValueSize, 'v'));
  for (auto _ : state) {
    NoopHandler handler;
    Status s = batch.Iterate(&handler);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(handler.bytes_);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(batch.GetDataSize()));
}

BENCHMARK(BM_WriteBatchPut)->RangeMultiplier(16)->Range(1, 4096);
BENCHMARK(BM_WriteBatchIterate)->RangeMultiplier(16)->Range(1, 4096);

}  // namespace
}  // namespace strata
