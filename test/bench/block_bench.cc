// Blocks: building a 4 KiB data block of 16-byte keys and 100-byte values
// (entries/s), random seeks into one (bytewise and internal-key order),
// and compressing / uncompressing such a block with each codec.

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "db/dbformat.h"
#include "strata/comparator.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/compression.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr size_t kBlockSize = 4096;
constexpr int kRestartInterval = 16;

// 16-byte sorted keys ("key" + 13 digits): neighbours share most bytes,
// as in a real table.
std::string UserKey(uint64_t i) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "key%013llu",
                static_cast<unsigned long long>(i));
  return std::string(buf, 16);
}

// Values of 100 bytes, half random and half repeated, so codecs have
// something to find but not everything.
std::string Value(Random* rnd) {
  std::string v(100, 'v');
  for (size_t i = 0; i < 50; i++)
    v[i] = static_cast<char>('a' + rnd->Uniform(26));
  return v;
}

// The keys (bytewise or internal) and the bytes of one 4 KiB block.
struct BuiltBlock {
  std::vector<std::string> keys;
  std::string bytes;
};

BuiltBlock BuildBlock(bool internal_keys) {
  Random rnd(301);
  BlockBuilder builder(kRestartInterval);
  BuiltBlock b;
  for (uint64_t i = 0;; i++) {
    std::string key = UserKey(i * 7);
    if (internal_keys)
      key = InternalKey(key, 1000 - i, kTypeValue).Encode().ToString();
    const std::string value = Value(&rnd);
    if (builder.EstimateSizeAfterKV(key, value) > kBlockSize && i > 0) break;
    builder.Add(key, value);
    b.keys.push_back(key);
  }
  b.bytes = builder.Finish().ToString();
  return b;
}

void BM_BlockBuild(benchmark::State& state) {
  Random rnd(7);
  std::vector<std::string> keys;
  std::vector<std::string> values;
  for (uint64_t i = 0; i < 64; i++) {
    keys.push_back(UserKey(i * 7));
    values.push_back(Value(&rnd));
  }
  BlockBuilder builder(kRestartInterval);
  int64_t entries = 0;
  for (auto _ : state) {
    builder.Reset();
    for (size_t i = 0; i < keys.size(); i++) {
      if (builder.CurrentSizeEstimate() >= kBlockSize) break;
      builder.Add(keys[i], values[i]);
      entries++;
    }
    benchmark::DoNotOptimize(builder.Finish().data());
  }
  state.SetItemsProcessed(entries);
}
BENCHMARK(BM_BlockBuild);

void BM_BlockSeek(benchmark::State& state) {
  const bool internal_keys = state.range(0) != 0;
  InternalKeyComparator icmp(BytewiseComparator());
  const Comparator* cmp = internal_keys ? static_cast<const Comparator*>(&icmp)
                                        : BytewiseComparator();
  const BuiltBlock built = BuildBlock(internal_keys);
  std::unique_ptr<char[]> buf(new char[built.bytes.size()]);
  std::memcpy(buf.get(), built.bytes.data(), built.bytes.size());
  Block block(BlockContents(std::move(buf), built.bytes.size()));
  std::unique_ptr<InternalIterator> it(block.NewIterator(cmp));
  Random rnd(11);
  for (auto _ : state) {
    it->Seek(built.keys[rnd.Uniform(static_cast<int>(built.keys.size()))]);
    benchmark::DoNotOptimize(it->value().data());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(internal_keys ? "internal-key" : "bytewise");
}
BENCHMARK(BM_BlockSeek)->Arg(0)->Arg(1);

// The codec named by the benchmark's argument, or false (the run skipped)
// when this build lacks it.
bool CodecOf(benchmark::State& state, CompressionType* type) {
  *type = static_cast<CompressionType>(state.range(0));
  state.SetLabel(CompressionTypeName(*type));
  if (CompressionSupported(*type)) return true;
  state.SkipWithError("codec not built in");
  return false;
}

void BM_Compress(benchmark::State& state) {
  CompressionType type;
  if (!CodecOf(state, &type)) return;
  const std::string raw = BuildBlock(false).bytes;
  std::string out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(CompressBlock(type, raw, &out).ok());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(raw.size()));
  state.counters["ratio"] =
      static_cast<double>(out.size()) / static_cast<double>(raw.size());
}
BENCHMARK(BM_Compress)->Arg(kSnappyCompression)->Arg(kZlibCompression);

void BM_Uncompress(benchmark::State& state) {
  CompressionType type;
  if (!CodecOf(state, &type)) return;
  const std::string raw = BuildBlock(false).bytes;
  std::string compressed;
  if (!CompressBlock(type, raw, &compressed).ok()) {
    state.SkipWithError("compression failed");
    return;
  }
  std::unique_ptr<char[]> out;
  size_t out_size = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        UncompressBlock(type, compressed, &out, &out_size).ok());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(raw.size()));
}
BENCHMARK(BM_Uncompress)->Arg(kSnappyCompression)->Arg(kZlibCompression);

}  // namespace
}  // namespace strata
