// The cost of picking a compaction, paid under the DB mutex: scores and
// the overlap-ratio ranking of every file of the chosen level, over trees
// of growing size (L1 with n files, L2 with 10n, L3 with 100n, L1 over
// its target so it is the level picked).

#include <cstdio>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "db/compaction_picker.h"
#include "test/db/level_files_builder.h"

namespace strata {
namespace {

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%08d", i);
  return buf;
}

// Level L gets files_at_l1 * 10^(L-1) files over the same key space.
void BuildTree(int files_at_l1, test::LevelFilesBuilder* b) {
  constexpr int kKeySpace = 10000000;
  int files = files_at_l1;
  for (int level = 1; level <= 3; level++, files *= 10) {
    const int width = kKeySpace / files;
    for (int i = 0; i < files; i++) {
      b->Add(level, Key(i * width), Key(i * width + width - 1),
             1000 + static_cast<uint64_t>(i % 7) * 100);
    }
  }
}

void BM_PickCompaction(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  test::LevelFilesBuilder b(4);
  BuildTree(n, &b);
  CompactionPickerOptions o;
  o.num_levels = 4;
  o.max_bytes_for_level_base = 100;  // L1 always over its target
  o.max_bytes_for_level_multiplier = 1000000;
  CompactionPicker picker(o);
  for (auto _ : state) {
    std::unique_ptr<Compaction> c = picker.PickCompaction(b.view());
    benchmark::DoNotOptimize(c.get());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

void BM_ComputeScores(benchmark::State& state) {
  test::LevelFilesBuilder b(4);
  BuildTree(static_cast<int>(state.range(0)), &b);
  CompactionPickerOptions o;
  o.num_levels = 4;
  o.level_compaction_dynamic_level_bytes = true;
  CompactionPicker picker(o);
  for (auto _ : state) {
    benchmark::DoNotOptimize(picker.ComputeScores(b.view()));
  }
}

BENCHMARK(BM_PickCompaction)->RangeMultiplier(10)->Range(10, 1000);
BENCHMARK(BM_ComputeScores)->RangeMultiplier(10)->Range(10, 1000);

}  // namespace
}  // namespace strata
