// Leveled compaction's options and the size targets of the levels.
//
// CompactionPickerOptions is the part of ColumnFamilyOptions the picker
// reads, sanitized (FromOptions), so the picker can be built and tested
// without a DB. LevelTargets turns the options and the current sizes of
// the levels into the bytes each level may hold before it needs a
// compaction, the level L0 compacts into (the base level) and the output
// file size of each level:
//
// - static targets: L1 = max_bytes_for_level_base, each level below
//   max_bytes_for_level_multiplier times the one above; base level 1.
// - dynamic targets (level_compaction_dynamic_level_bytes): the largest
//   level's actual size is the last level's target, each level above it
//   multiplier times smaller, until a level would get less than
//   base/multiplier: that level is the base level, and the levels between
//   L0 and it stay empty. docs/compaction.md gives the details.
//
// Invariant (dynamic): every level in [1, base_level) is empty when the
// targets are computed — the base level never lies below the first
// non-empty level.
//
// Thread safety: plain values; share read-only.

#ifndef STRATA_DB_LEVEL_TARGETS_H_
#define STRATA_DB_LEVEL_TARGETS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "strata/options.h"

namespace strata {

struct CompactionPickerOptions {
  int num_levels = 7;
  int level0_file_num_compaction_trigger = 4;
  uint64_t max_bytes_for_level_base = 256ull << 20;
  double max_bytes_for_level_multiplier = 10;
  bool level_compaction_dynamic_level_bytes = false;
  uint64_t target_file_size_base = 64ull << 20;
  int target_file_size_multiplier = 1;
  uint64_t max_compaction_bytes = 25 * (64ull << 20);
  // PickCompaction picks nothing; CompactRange still works.
  bool disable_auto_compactions = false;
  // The compression of each level (CompressionForLevel).
  CompressionType compression = kNoCompression;
  std::vector<CompressionType> compression_per_level;

  // The options of cf, sanitized: at least 2 levels, a trigger and sizes
  // of at least 1, multipliers of at least 1, and max_compaction_bytes 0
  // replaced by 25 * target_file_size_base.
  static CompactionPickerOptions FromOptions(const ColumnFamilyOptions& cf);

  // This struct with the same rules applied (tests build it by hand).
  CompactionPickerOptions Sanitized() const;
};

class LevelTargets {
 public:
  // level_bytes[L] is the total file size of level L (missing levels are
  // empty); l0_files the number of L0 files (dynamic targets grow the
  // base level when L0 backs up). options must be sanitized.
  LevelTargets(const CompactionPickerOptions& options,
               const std::vector<uint64_t>& level_bytes, size_t l0_files);

  int num_levels() const { return static_cast<int>(max_bytes_.size()); }

  // The level L0 compacts into: 1 with static targets.
  int base_level() const { return base_level_; }

  // The bytes level may hold before its score reaches 1. Levels above the
  // base level (dynamic) have no target: UINT64_MAX.
  // REQUIRES: 1 <= level < num_levels()
  uint64_t MaxBytesForLevel(int level) const { return max_bytes_[level]; }

  // Where a compaction's output into level is cut: target_file_size_base
  // times target_file_size_multiplier per level below the base level.
  // REQUIRES: 0 <= level < num_levels()
  uint64_t MaxFileSizeForLevel(int level) const;

 private:
  void ComputeStatic(const CompactionPickerOptions& options);
  void ComputeDynamic(const CompactionPickerOptions& options,
                      const std::vector<uint64_t>& level_bytes,
                      size_t l0_files);

  int base_level_ = 1;
  uint64_t target_file_size_base_;
  int target_file_size_multiplier_;
  std::vector<uint64_t> max_bytes_;  // [0] unused
};

// The compression of the tables written into level: compression, or when
// per_level (ColumnFamilyOptions::compression_per_level) is not empty its
// entry for level, counted from base_level (the level L0 compacts into) as
// RocksDB counts it. Entry 0 is L0's, entry 1 the base level's, entry i
// level base_level + i - 1's; a level past the end takes the last entry.
CompressionType CompressionForLevel(
    CompressionType compression, const std::vector<CompressionType>& per_level,
    int level, int base_level);

}  // namespace strata

#endif  // STRATA_DB_LEVEL_TARGETS_H_
