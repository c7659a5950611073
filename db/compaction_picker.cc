#include "db/compaction_picker.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <utility>

namespace strata {

namespace {

uint64_t TotalBytes(const std::vector<FileMetaData*>& files) {
  uint64_t total = 0;
  for (const FileMetaData* f : files) total += f->file_size;
  return total;
}

bool AnyBeingCompacted(const std::vector<FileMetaData*>& files) {
  for (const FileMetaData* f : files) {
    if (f->being_compacted) return true;
  }
  return false;
}

// The user-key range of the files of a and b (b may be null). The slices
// point into the files' keys. REQUIRES: some file.
void UserRange(const Comparator* ucmp, const std::vector<FileMetaData*>& a,
               const std::vector<FileMetaData*>* b, Slice* smallest,
               Slice* largest) {
  bool first = true;
  auto add = [&](const std::vector<FileMetaData*>& files) {
    for (const FileMetaData* f : files) {
      const Slice lo = f->smallest.user_key();
      const Slice hi = f->largest.user_key();
      if (first || ucmp->Compare(lo, *smallest) < 0) *smallest = lo;
      if (first || ucmp->Compare(hi, *largest) > 0) *largest = hi;
      first = false;
    }
  };
  add(a);
  if (b != nullptr) add(*b);
  assert(!first);
}

// Grows the inputs of a sorted level (L1+) until no user key straddles
// the boundary between an input and a neighbour: two files of one level
// can share a user key (different versions of it), and compacting one
// without the other would leave an older version above a newer one.
void ExpandToCleanCut(const LevelFilesView& view, int level,
                      std::vector<FileMetaData*>* inputs) {
  if (level == 0 || inputs->empty()) return;  // L0 overlap is transitive
  const Comparator* ucmp = view.icmp->user_comparator();
  for (;;) {
    Slice lo, hi;
    UserRange(ucmp, *inputs, nullptr, &lo, &hi);
    std::vector<FileMetaData*> grown;
    CompactionPicker::GetOverlappingInputs(view, level, &lo, &hi, &grown);
    if (grown.size() == inputs->size()) return;
    *inputs = std::move(grown);
  }
}

}  // namespace

CompactionPicker::CompactionPicker(const CompactionPickerOptions& options)
    : options_(options.Sanitized()) {}

void CompactionPicker::GetOverlappingInputs(
    const LevelFilesView& view, int level, const Slice* begin, const Slice* end,
    std::vector<FileMetaData*>* inputs) {
  inputs->clear();
  const Comparator* ucmp = view.icmp->user_comparator();
  const std::vector<FileMetaData*>& files = view.files[level];
  if (level > 0) {
    // Sorted and disjoint: start at the first file ending at or after
    // begin, stop at the first starting after end.
    auto it = files.begin();
    if (begin != nullptr) {
      it = std::lower_bound(files.begin(), files.end(), *begin,
                            [ucmp](const FileMetaData* f, const Slice& key) {
                              return ucmp->Compare(f->largest.user_key(), key) <
                                     0;
                            });
    }
    for (; it != files.end(); ++it) {
      if (end != nullptr && ucmp->Compare((*it)->smallest.user_key(), *end) > 0)
        break;
      inputs->push_back(*it);
    }
    return;
  }
  // L0 files overlap each other: a file found may widen the range to
  // files already passed, so start over whenever the range grows.
  Slice lo, hi;
  bool has_lo = begin != nullptr, has_hi = end != nullptr;
  if (has_lo) lo = *begin;
  if (has_hi) hi = *end;
  for (size_t i = 0; i < files.size();) {
    const Slice f_lo = files[i]->smallest.user_key();
    const Slice f_hi = files[i]->largest.user_key();
    i++;
    if ((has_hi && ucmp->Compare(f_lo, hi) > 0) ||
        (has_lo && ucmp->Compare(f_hi, lo) < 0)) {
      continue;  // outside the range
    }
    inputs->push_back(files[i - 1]);
    bool grew = false;
    if (has_lo && ucmp->Compare(f_lo, lo) < 0) {
      lo = f_lo;
      grew = true;
    }
    if (has_hi && ucmp->Compare(f_hi, hi) > 0) {
      hi = f_hi;
      grew = true;
    }
    if (grew) {
      inputs->clear();
      i = 0;
    }
  }
}

LevelTargets CompactionPicker::Targets(const LevelFilesView& view) const {
  assert(view.num_levels() == options_.num_levels);
  std::vector<uint64_t> level_bytes;
  for (const auto& files : view.files) level_bytes.push_back(TotalBytes(files));
  return LevelTargets(options_, level_bytes,
                      view.files.empty() ? 0 : view.files[0].size());
}

namespace {

std::vector<LevelScore> ScoresFor(const CompactionPickerOptions& options,
                                  const LevelFilesView& view,
                                  const LevelTargets& targets) {
  std::vector<LevelScore> scores;
  // Files being compacted are already on their way down: counting them
  // would pick the level again before that compaction finishes.
  size_t l0_files = 0;
  for (const FileMetaData* f : view.files[0]) {
    if (!f->being_compacted) l0_files++;
  }
  scores.push_back(LevelScore{
      0, static_cast<double>(l0_files) /
             static_cast<double>(options.level0_file_num_compaction_trigger)});
  for (int level = 1; level + 1 < view.num_levels(); level++) {
    uint64_t bytes = 0;
    for (const FileMetaData* f : view.files[level]) {
      if (!f->being_compacted) bytes += f->file_size;
    }
    scores.push_back(LevelScore{
        level, static_cast<double>(bytes) /
                   static_cast<double>(targets.MaxBytesForLevel(level))});
  }
  std::stable_sort(scores.begin(), scores.end(),
                   [](const LevelScore& a, const LevelScore& b) {
                     return a.score > b.score;
                   });
  return scores;
}

}  // namespace

std::vector<LevelScore> CompactionPicker::ComputeScores(
    const LevelFilesView& view) const {
  return ScoresFor(options_, view, Targets(view));
}

bool CompactionPicker::NeedsCompaction(const LevelFilesView& view) const {
  if (options_.disable_auto_compactions) return false;
  const std::vector<LevelScore> scores = ComputeScores(view);
  return !scores.empty() && scores.front().score >= 1;
}

std::unique_ptr<Compaction> CompactionPicker::PickCompaction(
    const LevelFilesView& view) const {
  if (options_.disable_auto_compactions) return nullptr;
  const LevelTargets targets = Targets(view);
  for (const LevelScore& s : ScoresFor(options_, view, targets)) {
    if (s.score < 1) break;
    std::unique_ptr<Compaction> c =
        s.level == 0 ? PickLevel0(view, targets, s.score)
                     : PickLevel(view, targets, s.level, s.score);
    if (c != nullptr) return c;
  }
  return nullptr;
}

std::unique_ptr<Compaction> CompactionPicker::PickLevel0(
    const LevelFilesView& view, const LevelTargets& targets,
    double score) const {
  const std::vector<FileMetaData*>& files = view.files[0];
  // L0 files overlap: two L0 compactions at once could each take part of
  // a key's versions and write them to the base level out of order.
  if (files.empty() || AnyBeingCompacted(files)) return nullptr;
  // Oldest first: its data has waited longest, and a file cannot leave L0
  // without the older files it overlaps. Each group tried is the closure
  // of a file under overlap, so groups are disjoint and independent.
  std::set<const FileMetaData*> tried;
  for (size_t i = files.size(); i-- > 0;) {
    if (tried.count(files[i]) > 0) continue;
    const Slice lo = files[i]->smallest.user_key();
    const Slice hi = files[i]->largest.user_key();
    CompactionSpec spec;
    spec.level = 0;
    spec.output_level = targets.base_level();
    spec.score = score;
    GetOverlappingInputs(view, 0, &lo, &hi, &spec.inputs[0]);
    tried.insert(spec.inputs[0].begin(), spec.inputs[0].end());
    if (SetupOtherInputs(view, targets, &spec)) {
      return std::unique_ptr<Compaction>(new Compaction(view, std::move(spec)));
    }
  }
  return nullptr;
}

std::unique_ptr<Compaction> CompactionPicker::PickLevel(
    const LevelFilesView& view, const LevelTargets& targets, int level,
    double score) const {
  const std::vector<FileMetaData*>& files = view.files[level];
  // Rank the free files by next-level overlap per byte of their own: the
  // smallest ratio moves the most bytes down per byte rewritten.
  std::vector<std::pair<double, size_t>> ranked;
  std::vector<FileMetaData*> overlap;
  for (size_t i = 0; i < files.size(); i++) {
    const FileMetaData* f = files[i];
    if (f->being_compacted) continue;
    const Slice lo = f->smallest.user_key();
    const Slice hi = f->largest.user_key();
    GetOverlappingInputs(view, level + 1, &lo, &hi, &overlap);
    if (AnyBeingCompacted(overlap)) continue;
    const double own = static_cast<double>(std::max<uint64_t>(f->file_size, 1));
    ranked.emplace_back(static_cast<double>(TotalBytes(overlap)) / own, i);
  }
  std::stable_sort(
      ranked.begin(), ranked.end(),
      [](const std::pair<double, size_t>& a,
         const std::pair<double, size_t>& b) { return a.first < b.first; });
  for (const auto& candidate : ranked) {
    CompactionSpec spec;
    spec.level = level;
    spec.output_level = level + 1;
    spec.score = score;
    spec.inputs[0].push_back(files[candidate.second]);
    ExpandToCleanCut(view, level, &spec.inputs[0]);
    if (AnyBeingCompacted(spec.inputs[0])) continue;
    if (SetupOtherInputs(view, targets, &spec)) {
      ExtendTrivialMove(view, &spec);
      return std::unique_ptr<Compaction>(new Compaction(view, std::move(spec)));
    }
  }
  return nullptr;
}

void CompactionPicker::ExtendTrivialMove(const LevelFilesView& view,
                                         CompactionSpec* spec) const {
  std::vector<FileMetaData*>& inputs0 = spec->inputs[0];
  const int level = spec->level;
  const int out = spec->output_level;
  if (level == 0 || !spec->inputs[1].empty() ||
      spec->input_compression != spec->output_compression) {
    return;  // not a move: the files are rewritten anyway
  }
  const std::vector<FileMetaData*>& files = view.files[level];
  const Comparator* ucmp = view.icmp->user_comparator();
  while (inputs0.size() < kMaxFilesPerMove) {
    auto last = std::find(files.begin(), files.end(), inputs0.back());
    if (last == files.end() || last + 1 == files.end()) return;
    std::vector<FileMetaData*> grown = inputs0;
    grown.push_back(*(last + 1));
    ExpandToCleanCut(view, level, &grown);
    if (grown.size() > kMaxFilesPerMove || AnyBeingCompacted(grown) ||
        TotalBytes(grown) > options_.max_compaction_bytes) {
      return;
    }
    Slice lo, hi;
    UserRange(ucmp, grown, nullptr, &lo, &hi);
    std::vector<FileMetaData*> overlap;
    GetOverlappingInputs(view, out, &lo, &hi, &overlap);
    if (!overlap.empty()) return;  // the run would need a rewrite
    std::vector<FileMetaData*> grandparents;
    if (out + 1 < view.num_levels()) {
      GetOverlappingInputs(view, out + 1, &lo, &hi, &grandparents);
    }
    // As for one file: a move whose range covers much of the level below
    // would make a costly compaction later.
    if (TotalBytes(grandparents) > options_.max_compaction_bytes) return;
    inputs0 = std::move(grown);
    spec->grandparents = std::move(grandparents);
  }
}

bool CompactionPicker::SetupOtherInputs(const LevelFilesView& view,
                                        const LevelTargets& targets,
                                        CompactionSpec* spec) const {
  const Comparator* ucmp = view.icmp->user_comparator();
  const int level = spec->level;
  const int out = spec->output_level;
  std::vector<FileMetaData*>& inputs0 = spec->inputs[0];
  std::vector<FileMetaData*>& inputs1 = spec->inputs[1];
  assert(!inputs0.empty());

  Slice lo, hi;
  UserRange(ucmp, inputs0, nullptr, &lo, &hi);
  GetOverlappingInputs(view, out, &lo, &hi, &inputs1);
  ExpandToCleanCut(view, out, &inputs1);
  if (AnyBeingCompacted(inputs1)) return false;

  // The output-level files may reach past the level's inputs; the level
  // files in that wider range come along when they cost no further
  // output-level file and the whole stays within max_compaction_bytes.
  if (!inputs1.empty()) {
    Slice all_lo, all_hi;
    UserRange(ucmp, inputs0, &inputs1, &all_lo, &all_hi);
    std::vector<FileMetaData*> grown0;
    GetOverlappingInputs(view, level, &all_lo, &all_hi, &grown0);
    ExpandToCleanCut(view, level, &grown0);
    if (grown0.size() > inputs0.size() && !AnyBeingCompacted(grown0) &&
        TotalBytes(grown0) + TotalBytes(inputs1) <
            options_.max_compaction_bytes) {
      Slice grown_lo, grown_hi;
      UserRange(ucmp, grown0, nullptr, &grown_lo, &grown_hi);
      std::vector<FileMetaData*> grown1;
      GetOverlappingInputs(view, out, &grown_lo, &grown_hi, &grown1);
      ExpandToCleanCut(view, out, &grown1);
      if (grown1.size() == inputs1.size()) inputs0 = std::move(grown0);
    }
  }

  if (out + 1 < view.num_levels()) {
    Slice all_lo, all_hi;
    UserRange(ucmp, inputs0, &inputs1, &all_lo, &all_hi);
    GetOverlappingInputs(view, out + 1, &all_lo, &all_hi, &spec->grandparents);
  }
  // Above data of the next level, outputs may end early at its file
  // boundaries, and so may also grow to twice the target.
  spec->target_output_file_size = targets.MaxFileSizeForLevel(out);
  const uint64_t target = spec->target_output_file_size;
  spec->max_output_file_size = spec->grandparents.empty() ? target
                               : target > UINT64_MAX / 2  ? UINT64_MAX
                                                          : 2 * target;
  spec->input_compression =
      CompressionForLevel(options_.compression, options_.compression_per_level,
                          level, targets.base_level());
  spec->output_compression =
      CompressionForLevel(options_.compression, options_.compression_per_level,
                          out, targets.base_level());
  spec->max_compaction_bytes = options_.max_compaction_bytes;
  return true;
}

bool CompactionPicker::SetupInPlace(const LevelFilesView& view,
                                    const LevelTargets& targets,
                                    CompactionSpec* spec) const {
  const int level = spec->level;
  if (level + 1 < view.num_levels()) {
    Slice lo, hi;
    UserRange(view.icmp->user_comparator(), spec->inputs[0], nullptr, &lo, &hi);
    GetOverlappingInputs(view, level + 1, &lo, &hi, &spec->grandparents);
  }
  spec->max_output_file_size = targets.MaxFileSizeForLevel(level);
  spec->input_compression =
      CompressionForLevel(options_.compression, options_.compression_per_level,
                          level, targets.base_level());
  spec->output_compression = spec->input_compression;
  spec->max_compaction_bytes = options_.max_compaction_bytes;
  return true;
}

std::unique_ptr<Compaction> CompactionPicker::CompactRange(
    const LevelFilesView& view, int level, const Slice* begin, const Slice* end,
    InternalKey* compaction_end, bool* conflict, bool rewrite,
    bool in_place) const {
  compaction_end->Clear();
  *conflict = false;
  in_place = in_place && level >= 1;
  if (level < 0 || level >= view.num_levels() ||
      (!in_place && level + 1 >= view.num_levels())) {
    return nullptr;
  }
  const LevelTargets targets = Targets(view);

  CompactionSpec spec;
  spec.level = level;
  spec.output_level = in_place     ? level
                      : level == 0 ? targets.base_level()
                                   : level + 1;
  spec.manual = true;
  spec.rewrite = rewrite || in_place;
  std::vector<FileMetaData*> all;
  GetOverlappingInputs(view, level, begin, end, &all);
  if (all.empty()) return nullptr;

  // A sorted level proceeds in pieces of about max_compaction_bytes (at
  // least one file, cut cleanly). L0 files overlapping the range must go
  // together, whatever their size.
  std::vector<FileMetaData*>& inputs0 = spec.inputs[0];
  if (level == 0) {
    // As for automatic picks: one L0 compaction at a time.
    if (AnyBeingCompacted(view.files[0])) {
      *conflict = true;
      return nullptr;
    }
    inputs0 = all;
  } else if (in_place) {
    // Every file at once: the outputs land in this level, so a later
    // step starting at a cut would pick this step's own outputs again
    // (and could do so forever).
    inputs0 = all;
  } else {
    uint64_t bytes = 0;
    for (FileMetaData* f : all) {
      if (!inputs0.empty() && bytes >= options_.max_compaction_bytes) break;
      inputs0.push_back(f);
      bytes += f->file_size;
    }
  }
  ExpandToCleanCut(view, level, &inputs0);
  if (AnyBeingCompacted(inputs0) ||
      !(in_place ? SetupInPlace(view, targets, &spec)
                 : SetupOtherInputs(view, targets, &spec))) {
    *conflict = true;
    return nullptr;
  }
  if (std::find(inputs0.begin(), inputs0.end(), all.back()) == inputs0.end()) {
    *compaction_end = inputs0.back()->largest;
  }
  return std::unique_ptr<Compaction>(new Compaction(view, std::move(spec)));
}

}  // namespace strata
