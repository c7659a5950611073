#include "db/level_targets.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace strata {

namespace {

constexpr uint64_t kNoTarget = std::numeric_limits<uint64_t>::max();

// d as a byte count: targets computed in floating point (multipliers are
// doubles, and base * multiplier^6 overflows 64 bits for large settings)
// saturate instead of wrapping.
uint64_t ToBytes(double d) {
  if (!(d > 0)) return 0;
  if (d >= 18446744073709551615.0) return kNoTarget;
  return static_cast<uint64_t>(d);
}

}  // namespace

CompressionType CompressionForLevel(
    CompressionType compression, const std::vector<CompressionType>& per_level,
    int level, int base_level) {
  if (per_level.empty()) return compression;
  const int last = static_cast<int>(per_level.size()) - 1;
  if (level <= 0 || last == 0) return per_level[0];
  // Levels between L0 and the base level are empty, so no output goes
  // there; should one, it takes the base level's entry.
  const int index = std::max(level - base_level + 1, 1);
  return per_level[static_cast<size_t>(std::min(index, last))];
}

CompactionPickerOptions CompactionPickerOptions::FromOptions(
    const ColumnFamilyOptions& cf) {
  CompactionPickerOptions o;
  o.num_levels = cf.num_levels;
  o.level0_file_num_compaction_trigger = cf.level0_file_num_compaction_trigger;
  o.max_bytes_for_level_base = cf.max_bytes_for_level_base;
  o.max_bytes_for_level_multiplier = cf.max_bytes_for_level_multiplier;
  o.level_compaction_dynamic_level_bytes =
      cf.level_compaction_dynamic_level_bytes;
  o.target_file_size_base = cf.target_file_size_base;
  o.target_file_size_multiplier = cf.target_file_size_multiplier;
  o.max_compaction_bytes = cf.max_compaction_bytes;
  // kCompactionStyleNone leaves every compaction to the application.
  o.disable_auto_compactions = cf.disable_auto_compactions ||
                               cf.compaction_style == kCompactionStyleNone;
  o.compression = cf.compression;
  o.compression_per_level = cf.compression_per_level;
  return o.Sanitized();
}

CompactionPickerOptions CompactionPickerOptions::Sanitized() const {
  CompactionPickerOptions o = *this;
  // Leveled compaction needs a level to compact into.
  o.num_levels = std::max(o.num_levels, 2);
  o.level0_file_num_compaction_trigger =
      std::max(o.level0_file_num_compaction_trigger, 1);
  o.max_bytes_for_level_base =
      std::max<uint64_t>(o.max_bytes_for_level_base, 1);
  // Below 1 (or NaN) lower levels would shrink, and dynamic targets divide
  // by it.
  if (!(o.max_bytes_for_level_multiplier >= 1)) {
    o.max_bytes_for_level_multiplier = 1;
  }
  o.target_file_size_base = std::max<uint64_t>(o.target_file_size_base, 1);
  o.target_file_size_multiplier = std::max(o.target_file_size_multiplier, 1);
  if (o.max_compaction_bytes == 0) {
    o.max_compaction_bytes = o.target_file_size_base > kNoTarget / 25
                                 ? kNoTarget
                                 : 25 * o.target_file_size_base;
  }
  return o;
}

LevelTargets::LevelTargets(const CompactionPickerOptions& options,
                           const std::vector<uint64_t>& level_bytes,
                           size_t l0_files)
    : target_file_size_base_(options.target_file_size_base),
      target_file_size_multiplier_(options.target_file_size_multiplier),
      max_bytes_(static_cast<size_t>(options.num_levels), kNoTarget) {
  assert(options.num_levels >= 2);
  if (options.level_compaction_dynamic_level_bytes) {
    ComputeDynamic(options, level_bytes, l0_files);
  } else {
    ComputeStatic(options);
  }
}

void LevelTargets::ComputeStatic(const CompactionPickerOptions& options) {
  base_level_ = 1;
  double target = static_cast<double>(options.max_bytes_for_level_base);
  for (int level = 1; level < num_levels(); level++) {
    max_bytes_[level] = ToBytes(target);
    target *= options.max_bytes_for_level_multiplier;
  }
}

void LevelTargets::ComputeDynamic(const CompactionPickerOptions& options,
                                  const std::vector<uint64_t>& level_bytes,
                                  size_t l0_files) {
  const int last = num_levels() - 1;
  const double multiplier = options.max_bytes_for_level_multiplier;
  const uint64_t base_max = options.max_bytes_for_level_base;
  const uint64_t base_min = std::max<uint64_t>(
      1, ToBytes(static_cast<double>(base_max) / multiplier));
  auto bytes_at = [&](int level) -> uint64_t {
    return static_cast<size_t>(level) < level_bytes.size() ? level_bytes[level]
                                                           : 0;
  };

  int first_non_empty = -1;
  uint64_t largest = 0;
  for (int level = 1; level <= last; level++) {
    const uint64_t bytes = bytes_at(level);
    if (bytes > 0 && first_non_empty < 0) first_non_empty = level;
    largest = std::max(largest, bytes);
  }
  if (largest == 0) {
    // Nothing below L0 yet: L0 compacts straight into the last level, so
    // data is written once more at most before it reaches its final level.
    base_level_ = last;
    max_bytes_[last] = base_max;
    return;
  }

  // If the largest level were the last one, the target of the first
  // non-empty level would be `estimate`.
  double estimate = static_cast<double>(largest);
  for (int level = last - 1; level >= first_non_empty; level--) {
    estimate /= multiplier;
  }
  double base_size;
  base_level_ = first_non_empty;
  if (estimate <= static_cast<double>(base_min)) {
    // The tree is smaller than a full one of this depth: the first
    // non-empty level gets the smallest base target, and the levels below
    // grow from it (the last level's target then exceeds its size).
    base_size = static_cast<double>(base_min) + 1;
  } else {
    // Move the base level up while it would exceed base_max, so each
    // level keeps to about the multiplier times the one above.
    while (base_level_ > 1 && estimate > static_cast<double>(base_max)) {
      base_level_--;
      estimate /= multiplier;
    }
    base_size =
        std::max(1.0, std::min(estimate, static_cast<double>(base_max)));
  }

  // An L0 backlog larger than the base level's target (by bytes, or twice
  // the compaction trigger in files) becomes the base target, and the
  // levels below share the remaining fan-out, so L0 drains into a base
  // level that can take it instead of stalling writes.
  double level_multiplier = multiplier;
  const double l0_bytes = static_cast<double>(bytes_at(0));
  if (l0_bytes > base_size &&
      (l0_bytes > static_cast<double>(base_max) ||
       l0_files / 2 >=
           static_cast<size_t>(options.level0_file_num_compaction_trigger))) {
    base_size = l0_bytes;
    level_multiplier =
        base_level_ == last
            ? 1.0
            : std::pow(static_cast<double>(largest) / base_size,
                       1.0 / static_cast<double>(last - base_level_));
  }

  double size = base_size;
  for (int level = base_level_; level <= last; level++) {
    if (level > base_level_) size *= level_multiplier;
    // No target below base_max: a level smaller than L0's usual size would
    // out-score L0 and starve it.
    max_bytes_[level] = std::max(ToBytes(size), base_max);
  }
}

uint64_t LevelTargets::MaxFileSizeForLevel(int level) const {
  const int steps = std::max(0, level - base_level_);
  double size = static_cast<double>(target_file_size_base_);
  for (int i = 0; i < steps; i++) size *= target_file_size_multiplier_;
  return std::max<uint64_t>(1, ToBytes(size));
}

}  // namespace strata
