#include "db/version_builder.h"

#include <algorithm>
#include <string>

#include "util/logging.h"

namespace strata {

namespace {

void UnrefFile(FileMetaData* f) {
  if (--f->refs == 0) delete f;
}

std::string FileName(uint64_t number) { return "#" + NumberToString(number); }

}  // namespace

VersionBuilder::VersionBuilder(const InternalKeyComparator* icmp, Version* base)
    : icmp_(icmp), base_(base), levels_(base->num_levels()) {
  base_->Ref();
  for (int level = 0; level < base_->num_levels(); level++) {
    for (const FileMetaData* f : base_->files(level)) live_[f->number] = level;
  }
}

VersionBuilder::~VersionBuilder() {
  for (LevelChanges& changes : levels_) {
    for (auto& added : changes.added) UnrefFile(added.second);
  }
  base_->Unref();
}

Status VersionBuilder::CheckLevel(const Slice& what, int level) const {
  if (level < 0 || level >= static_cast<int>(levels_.size())) {
    return Status::InvalidArgument(
        what, "level " + NumberToString(level) + " but the DB has " +
                  NumberToString(levels_.size()) + " levels (num_levels)");
  }
  return Status::OK();
}

Status VersionBuilder::Apply(const VersionEdit& edit) {
  // Check the whole edit first, so a bad one changes nothing. Removals
  // come before additions: an edit may move a file between levels.
  std::map<uint64_t, int> removed;
  for (const auto& d : edit.deleted_files()) {
    Status s = CheckLevel("removed file " + FileName(d.second), d.first);
    if (!s.ok()) return s;
    auto it = live_.find(d.second);
    if (it == live_.end() || it->second != d.first) {
      return Status::Corruption(
          "version edit removes file " + FileName(d.second) + " from level " +
          NumberToString(d.first) + ", which does not hold it");
    }
    removed[d.second] = d.first;
  }
  std::set<uint64_t> added;
  for (const auto& nf : edit.new_files()) {
    const FileMetaData& f = nf.second;
    Status s = CheckLevel("added file " + FileName(f.number), nf.first);
    if (!s.ok()) return s;
    if ((live_.count(f.number) != 0 && removed.count(f.number) == 0) ||
        !added.insert(f.number).second) {
      return Status::Corruption("version edit adds file " + FileName(f.number) +
                                " twice");
    }
    if (!f.smallest.Valid() || !f.largest.Valid() ||
        icmp_->Compare(f.smallest.Encode(), f.largest.Encode()) > 0) {
      return Status::Corruption("version edit adds file " + FileName(f.number) +
                                " whose smallest key is above its largest");
    }
  }

  for (const auto& r : removed) {
    LevelChanges& changes = levels_[r.second];
    auto it = changes.added.find(r.first);
    if (it != changes.added.end()) {
      UnrefFile(it->second);
      changes.added.erase(it);
    } else {
      changes.deleted.insert(r.first);
    }
    live_.erase(r.first);
  }
  for (const auto& nf : edit.new_files()) {
    FileMetaData* f = new FileMetaData(nf.second);
    f->refs = 1;
    f->being_compacted = false;
    levels_[nf.first].added[f->number] = f;
    // A file moved back to a level it left is no longer deleted there.
    levels_[nf.first].deleted.erase(f->number);
    live_[f->number] = nf.first;
  }
  return Status::OK();
}

Status VersionBuilder::SaveTo(Version* v) const {
  for (int level = 0; level < static_cast<int>(levels_.size()); level++) {
    const LevelChanges& changes = levels_[level];
    std::vector<FileMetaData*> files;
    for (FileMetaData* f : base_->files(level)) {
      if (changes.deleted.count(f->number) == 0 &&
          changes.added.count(f->number) == 0) {
        files.push_back(f);
      }
    }
    for (const auto& added : changes.added) files.push_back(added.second);

    if (level == 0) {
      // Newest first: a read must meet newer data before older.
      std::sort(files.begin(), files.end(),
                [](const FileMetaData* a, const FileMetaData* b) {
                  if (a->largest_seqno != b->largest_seqno) {
                    return a->largest_seqno > b->largest_seqno;
                  }
                  return a->number > b->number;
                });
    } else {
      std::sort(files.begin(), files.end(),
                [this](const FileMetaData* a, const FileMetaData* b) {
                  const int c = icmp_->Compare(a->smallest.Encode(),
                                               b->smallest.Encode());
                  return c != 0 ? c < 0 : a->number < b->number;
                });
      for (size_t i = 1; i < files.size(); i++) {
        if (icmp_->Compare(files[i - 1]->largest.Encode(),
                           files[i]->smallest.Encode()) >= 0) {
          return Status::Corruption("files " + FileName(files[i - 1]->number) +
                                    " and " + FileName(files[i]->number) +
                                    " overlap in level " +
                                    NumberToString(level));
        }
      }
    }
    for (FileMetaData* f : files) f->refs++;
    v->SetLevelFiles(level, std::move(files));
  }
  return Status::OK();
}

}  // namespace strata
