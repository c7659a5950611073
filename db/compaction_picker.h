// CompactionPicker: chooses the next leveled compaction from a view of one
// version's files (docs/compaction.md).
//
// - Scores: L0 = files not being compacted / level0_file_num_compaction_
//   trigger; L1+ = bytes not being compacted / the level's target
//   (db/level_targets.h). The last level has no score. A level with score
//   >= 1 needs a compaction; the highest is tried first.
// - Inputs: in L1+ the file whose overlap with the next level is smallest
//   relative to its own size; in L0 the oldest file and every L0 file
//   overlapping it, transitively. Inputs are expanded to clean cuts, the
//   output level's overlapping files added, and the level's inputs grown
//   when that adds no output-level file and stays under
//   max_compaction_bytes. A file of L1+ overlapping nothing in the next
//   level moves down without a rewrite, and takes the files after it
//   along while they overlap nothing there either (up to
//   kMaxFilesPerMove files and max_compaction_bytes).
// - Files marked being_compacted are never inputs, and no L0 compaction
//   starts while another runs (L0 files overlap each other).
//
// The picker keeps no state between calls: everything it needs is in the
// view and the files' being_compacted flags. The caller marks the picked
// compaction's files (Compaction::MarkFilesBeingCompacted) before it picks
// again.
//
// Thread safety: const methods may run at once, but reading
// being_compacted needs the DB mutex held, as does marking.

#ifndef STRATA_DB_COMPACTION_PICKER_H_
#define STRATA_DB_COMPACTION_PICKER_H_

#include <memory>
#include <vector>

#include "db/compaction.h"
#include "db/dbformat.h"
#include "db/level_targets.h"
#include "strata/slice.h"

namespace strata {

struct LevelScore {
  int level;
  double score;
};

class CompactionPicker {
 public:
  // The most files one trivial move takes down.
  static constexpr size_t kMaxFilesPerMove = 4;

  // options are sanitized (CompactionPickerOptions::Sanitized).
  explicit CompactionPicker(const CompactionPickerOptions& options);

  const CompactionPickerOptions& options() const { return options_; }

  // The level targets for the view's current level sizes.
  // REQUIRES (every method): view.num_levels() == options().num_levels,
  // and view.icmp set.
  LevelTargets Targets(const LevelFilesView& view) const;

  // The scores of levels 0 .. num_levels-2, highest first (equal scores:
  // the lower level first).
  std::vector<LevelScore> ComputeScores(const LevelFilesView& view) const;

  // Some level's score is >= 1 and automatic compactions are enabled.
  // (PickCompaction may still find nothing: the inputs may be busy.)
  bool NeedsCompaction(const LevelFilesView& view) const;

  // The compaction of the highest-scoring level (score >= 1) whose inputs
  // are free; null if none or if automatic compactions are disabled.
  std::unique_ptr<Compaction> PickCompaction(const LevelFilesView& view) const;

  // A manual compaction step: the files of `level` overlapping the user
  // keys [*begin, *end] (null: unbounded), compacted into level + 1 (L0:
  // into the base level). In L1+ a step takes files in key order up to
  // about max_compaction_bytes; *compaction_end is then set to the largest
  // key of the step's inputs, and the caller continues from its user key
  // once the step has run. *compaction_end is cleared when the step reaches
  // the end of the range.
  // Returns null, with *conflict false, when nothing in level overlaps the
  // range (or level is the last one, or out of range), and null with
  // *conflict true when inputs it needs are being compacted: wait for
  // that compaction and call again.
  //
  // rewrite: every step rewrites its files (no trivial move), and
  // in_place (level >= 1) compacts the level into itself: what a family
  // with a compaction filter asks, so that the filter sees every entry of
  // the range, as RocksDB's kIfHaveCompactionFilter does.
  std::unique_ptr<Compaction> CompactRange(const LevelFilesView& view,
                                           int level, const Slice* begin,
                                           const Slice* end,
                                           InternalKey* compaction_end,
                                           bool* conflict, bool rewrite = false,
                                           bool in_place = false) const;

  // The files of level whose user-key range meets [*begin, *end] (null:
  // unbounded), in level order. In L0 the range grows to every file
  // overlapping a file found, transitively, so the result is clean.
  static void GetOverlappingInputs(const LevelFilesView& view, int level,
                                   const Slice* begin, const Slice* end,
                                   std::vector<FileMetaData*>* inputs);

 private:
  std::unique_ptr<Compaction> PickLevel0(const LevelFilesView& view,
                                         const LevelTargets& targets,
                                         double score) const;
  std::unique_ptr<Compaction> PickLevel(const LevelFilesView& view,
                                        const LevelTargets& targets, int level,
                                        double score) const;

  // With spec set up for a trivial move of a sorted level's file(s):
  // adds the files after the last input while the run still overlaps no
  // output-level file, keeps clean cuts, and stays within
  // kMaxFilesPerMove files and max_compaction_bytes (of its own bytes,
  // and of the grandparents it covers). Otherwise leaves spec as it is.
  void ExtendTrivialMove(const LevelFilesView& view,
                         CompactionSpec* spec) const;

  // With spec->inputs[0] set and clean: adds the output level's inputs
  // (clean), grows inputs[0] where that is free, and sets grandparents and
  // the output file size. False if an output-level input is being
  // compacted.
  bool SetupOtherInputs(const LevelFilesView& view, const LevelTargets& targets,
                        CompactionSpec* spec) const;
  // For a compaction of spec->level into itself: sets grandparents (of
  // the next level), the output file size and compression. Always true.
  bool SetupInPlace(const LevelFilesView& view, const LevelTargets& targets,
                    CompactionSpec* spec) const;

  CompactionPickerOptions options_;
};

}  // namespace strata

#endif  // STRATA_DB_COMPACTION_PICKER_H_
