#include "db/compaction.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <utility>

#include "db/version.h"

namespace strata {

LevelFilesView LevelFilesViewOf(const Version& version) {
  LevelFilesView view;
  view.icmp = version.comparator();
  view.files.resize(version.num_levels());
  for (int level = 0; level < version.num_levels(); level++) {
    view.files[level] = version.files(level);
  }
  return view;
}

bool RunningCompactionMayWrite(const LevelFilesView& view, int max_level,
                               const Slice& smallest, const Slice& largest) {
  const Comparator* ucmp = view.icmp->user_comparator();
  const FileMetaData* lo = nullptr;
  const FileMetaData* hi = nullptr;
  for (int level = 0; level <= max_level && level < view.num_levels();
       level++) {
    for (const FileMetaData* f : view.files[level]) {
      if (!f->being_compacted) continue;
      if (lo == nullptr ||
          ucmp->Compare(f->smallest.user_key(), lo->smallest.user_key()) < 0) {
        lo = f;
      }
      if (hi == nullptr ||
          ucmp->Compare(f->largest.user_key(), hi->largest.user_key()) > 0) {
        hi = f;
      }
    }
  }
  return lo != nullptr &&
         ucmp->Compare(lo->smallest.user_key(), largest) <= 0 &&
         ucmp->Compare(hi->largest.user_key(), smallest) >= 0;
}

Compaction::Compaction(const LevelFilesView& view, CompactionSpec spec)
    : icmp_(view.icmp), spec_(std::move(spec)) {
  assert(icmp_ != nullptr);
  assert(spec_.output_level >= spec_.level);
  for (int level = spec_.output_level + 1; level < view.num_levels(); level++) {
    lower_levels_.push_back(view.files[level]);
  }
}

std::vector<LevelInputs> Compaction::AllInputs() const {
  std::vector<LevelInputs> all;
  if (!spec_.inputs[0].empty()) all.push_back({spec_.level, spec_.inputs[0]});
  all.insert(all.end(), spec_.middle_inputs.begin(), spec_.middle_inputs.end());
  if (!spec_.inputs[1].empty()) {
    all.push_back({spec_.output_level, spec_.inputs[1]});
  }
  return all;
}

uint64_t Compaction::TotalInputBytes() const {
  uint64_t total = 0;
  for (const LevelInputs& in : AllInputs()) {
    for (const FileMetaData* f : in.files) total += f->file_size;
  }
  return total;
}

void Compaction::GetRange(InternalKey* smallest, InternalKey* largest) const {
  bool first = true;
  for (const LevelInputs& in : AllInputs()) {
    for (const FileMetaData* f : in.files) {
      if (first ||
          icmp_->Compare(f->smallest.Encode(), smallest->Encode()) < 0) {
        *smallest = f->smallest;
      }
      if (first || icmp_->Compare(f->largest.Encode(), largest->Encode()) > 0) {
        *largest = f->largest;
      }
      first = false;
    }
  }
  assert(!first);
}

bool Compaction::IsTrivialMove() const {
  // Several files move together only from a sorted level, where they
  // are disjoint; L0 files may overlap each other.
  if (spec_.rewrite || !spec_.middle_inputs.empty() ||
      spec_.inputs[0].empty() || !spec_.inputs[1].empty() ||
      (spec_.level == 0 && spec_.inputs[0].size() != 1)) {
    return false;
  }
  if (spec_.input_compression != spec_.output_compression) return false;
  uint64_t grandparent_bytes = 0;
  for (const FileMetaData* f : spec_.grandparents) {
    grandparent_bytes += f->file_size;
  }
  return grandparent_bytes <= spec_.max_compaction_bytes;
}

bool Compaction::ShouldStopBefore(const Slice& internal_key,
                                  uint64_t output_bytes) {
  const std::vector<FileMetaData*>& gp = spec_.grandparents;
  // Walk the grandparent boundaries up to internal_key. Grandparents
  // wholly before it have been passed by the current output; their bytes
  // count once it has a key (a file passed before the output's first key
  // does not overlap it). skipped: bytes of files entered and left by
  // this one step, which the output holds no key of.
  size_t crossed = 0;
  uint64_t skipped = 0;
  bool entered_here = false;
  while (grandparent_index_ < gp.size()) {
    const FileMetaData* f = gp[grandparent_index_];
    if (!inside_grandparent_) {
      if (icmp_->Compare(internal_key, f->smallest.Encode()) < 0) break;
      inside_grandparent_ = true;
      entered_here = true;
      if (seen_key_) crossed++;
    } else {
      if (icmp_->Compare(internal_key, f->largest.Encode()) <= 0) break;
      if (seen_key_) {
        overlapped_bytes_ += f->file_size;
        crossed++;
        if (entered_here) skipped += f->file_size;
      }
      inside_grandparent_ = false;
      entered_here = false;
      grandparent_index_++;
    }
  }
  seen_key_ = true;
  boundaries_crossed_ += crossed;
  bool stop = overlapped_bytes_ > spec_.max_compaction_bytes;
  const uint64_t target = spec_.target_output_file_size;
  if (!stop && crossed > 0 && target > 0 && output_bytes > 0) {
    const uint64_t percent =
        50 + std::min<uint64_t>(5 * boundaries_crossed_, 40);
    stop =
        skipped > target / 8 || output_bytes >= (target + 99) / 100 * percent;
  }
  if (stop) {
    // internal_key starts the next output file, which overlaps nothing yet.
    OutputCut();
  }
  return stop;
}

bool Compaction::IsBottommost() const {
  InternalKey smallest, largest;
  GetRange(&smallest, &largest);
  const Comparator* ucmp = icmp_->user_comparator();
  const Slice lo = smallest.user_key(), hi = largest.user_key();
  for (const auto& files : lower_levels_) {
    for (const FileMetaData* f : files) {
      if (ucmp->Compare(f->largest.user_key(), lo) >= 0 &&
          ucmp->Compare(f->smallest.user_key(), hi) <= 0) {
        return false;
      }
    }
  }
  return true;
}

bool Compaction::IsBaseLevelForKey(const Slice& user_key) const {
  const Comparator* ucmp = icmp_->user_comparator();
  for (const auto& files : lower_levels_) {
    // The first file whose largest user key is >= user_key is the only
    // one of a sorted level that can hold it.
    auto it =
        std::lower_bound(files.begin(), files.end(), user_key,
                         [ucmp](const FileMetaData* f, const Slice& key) {
                           return ucmp->Compare(f->largest.user_key(), key) < 0;
                         });
    if (it != files.end() &&
        ucmp->Compare((*it)->smallest.user_key(), user_key) <= 0) {
      return false;
    }
  }
  return true;
}

void Compaction::MarkFilesBeingCompacted(bool being_compacted) {
  for (const LevelInputs& in : AllInputs()) {
    for (FileMetaData* f : in.files) {
      assert(f->being_compacted != being_compacted);
      f->being_compacted = being_compacted;
    }
  }
}

void Compaction::AddInputDeletions(
    std::vector<CompactionInputFile>* deletions) const {
  for (const LevelInputs& in : AllInputs()) {
    for (const FileMetaData* f : in.files) {
      deletions->push_back(CompactionInputFile{in.level, f->number});
    }
  }
}

namespace {

void AppendNumbers(const std::vector<FileMetaData*>& files, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < files.size(); i++) {
    if (i > 0) out->push_back(' ');
    out->append(std::to_string(files[i]->number));
  }
  out->push_back(']');
}

}  // namespace

std::string Compaction::Summary() const {
  char score[32];
  std::snprintf(score, sizeof(score), "%.2f", spec_.score);
  std::string out = "L" + std::to_string(spec_.level) + " -> L" +
                    std::to_string(spec_.output_level) +
                    (spec_.manual ? " manual" : "") + " score " + score + ": " +
                    std::to_string(spec_.inputs[0].size()) + "+" +
                    std::to_string(spec_.inputs[1].size()) + " files (" +
                    std::to_string(TotalInputBytes()) + " bytes) ";
  AppendNumbers(spec_.inputs[0], &out);
  for (const LevelInputs& in : spec_.middle_inputs) {
    out.append(" + L" + std::to_string(in.level) + " ");
    AppendNumbers(in.files, &out);
  }
  out.append(" + ");
  AppendNumbers(spec_.inputs[1], &out);
  out.append(", " + std::to_string(spec_.grandparents.size()) +
             " grandparents");
  if (IsTrivialMove()) out.append(", trivial move");
  return out;
}

}  // namespace strata
