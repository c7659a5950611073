#include "db/level_iterator.h"

#include <memory>

#include "db/table_cache.h"
#include "db/version.h"

namespace strata {

namespace {

// Invariant: file_ iterates files[index_] when index_ < files.size(), and
// is null otherwise. Valid() only on an entry of file_.
class LevelIterator final : public InternalIterator {
 public:
  LevelIterator(const ReadOptions& read_options, TableCache* table_cache,
                const InternalKeyComparator* icmp,
                const std::vector<FileMetaData*>* files,
                const FileScanOptions* scan)
      : read_options_(read_options),
        scan_(scan),
        table_cache_(table_cache),
        icmp_(icmp),
        files_(*files),
        index_(files->size()) {}

  bool Valid() const override { return file_ != nullptr && file_->Valid(); }
  Slice key() const override { return file_->key(); }
  Slice value() const override { return file_->value(); }
  Status status() const override {
    return file_ != nullptr ? file_->status() : Status::OK();
  }

  void SeekToFirst() override {
    OpenFile(0);
    if (file_ != nullptr) file_->SeekToFirst();
    SkipExhaustedForward();
  }

  void SeekToLast() override {
    OpenFile(files_.empty() ? 0 : files_.size() - 1);
    if (file_ != nullptr) file_->SeekToLast();
    SkipExhaustedBackward();
  }

  void Seek(const Slice& target) override {
    OpenFile(FindFile(*icmp_, files_, target));
    if (file_ != nullptr) file_->Seek(target);
    if (confined_ && Exhausted() &&
        !IsTombstoneBound(files_[index_]->largest)) {
      OpenFile(files_.size());  // see ConfinedSeekMissed
      return;
    }
    SkipExhaustedForward();
  }

  void SeekForPrev(const Slice& target) override {
    // The last entry <= target is in the first file ending at or after
    // target, unless that file starts after target; then it ends the
    // file before (if any).
    size_t i = FindFile(*icmp_, files_, target);
    if (i == files_.size()) {
      if (i == 0) {  // no files: not Valid()
        OpenFile(0);
        return;
      }
      i--;  // every file ends before target: the last one
    } else if (icmp_->Compare(files_[i]->smallest.Encode(), target) > 0) {
      i = i == 0 ? files_.size() : i - 1;
    }
    OpenFile(i);
    if (file_ != nullptr) file_->SeekForPrev(target);
    if (confined_ && Exhausted() &&
        !IsTombstoneBound(files_[index_]->smallest)) {
      OpenFile(files_.size());  // see ConfinedSeekMissed
      return;
    }
    SkipExhaustedBackward();
  }

  void Next() override {
    file_->Next();
    SkipExhaustedForward();
  }

  void Prev() override {
    file_->Prev();
    SkipExhaustedBackward();
  }

  void SetSeekConfinedToPrefix(bool confined) override {
    confined_ = confined;
    if (file_ != nullptr) file_->SetSeekConfinedToPrefix(confined);
  }

 private:
  // ConfinedSeekMissed: a confined Seek lands in the first file ending at
  // or after the target, and a file's iterator comes back empty from a
  // seek inside its range only when its prefix filter rules the target's
  // prefix out. Then the file's largest key lies past every key of that
  // prefix (keys of one prefix are contiguous, and the file ends at or
  // after the target), and so do all later files: the level holds none,
  // and the walk stops instead of opening the next files. SeekForPrev
  // mirrors this. Not so when the file's boundary was widened over a
  // range tombstone (IsTombstoneBound): its points may end before the
  // target's prefix does, and the next file may hold keys of it.
  static bool IsTombstoneBound(const InternalKey& bound) {
    ParsedInternalKey parsed;
    return ParseInternalKey(bound.Encode(), &parsed).ok() &&
           parsed.type == kTypeRangeDeletion;
  }

  // file_ is done without error, so the walk may go on to a neighbour.
  bool Exhausted() const {
    return file_ != nullptr && !file_->Valid() && file_->status().ok();
  }

  void SkipExhaustedForward() {
    while (Exhausted()) {
      OpenFile(index_ + 1);
      if (file_ != nullptr) file_->SeekToFirst();
    }
  }

  void SkipExhaustedBackward() {
    while (Exhausted()) {
      // index_ 0 steps to files_.size(): none.
      OpenFile(index_ == 0 ? files_.size() : index_ - 1);
      if (file_ != nullptr) file_->SeekToLast();
    }
  }

  // Positions on file i (none for i >= files_.size()), reusing the open
  // iterator when it is already that file's and healthy.
  void OpenFile(size_t i) {
    if (i >= files_.size()) {
      index_ = files_.size();
      file_.reset();
      return;
    }
    if (file_ != nullptr && index_ == i && file_->status().ok()) return;
    index_ = i;
    const FileMetaData* f = files_[i];
    file_.reset(table_cache_->NewIterator(read_options_, f->number,
                                          f->file_size, nullptr,
                                          f->global_seqno, scan_));
    if (confined_) file_->SetSeekConfinedToPrefix(true);
  }

  const ReadOptions read_options_;
  const FileScanOptions* const scan_;  // may be null
  TableCache* const table_cache_;
  const InternalKeyComparator* const icmp_;
  const std::vector<FileMetaData*>& files_;
  size_t index_;
  std::unique_ptr<InternalIterator> file_;
  bool confined_ = false;
};

}  // namespace

InternalIterator* NewLevelIterator(const ReadOptions& read_options,
                                   TableCache* table_cache,
                                   const InternalKeyComparator* icmp,
                                   const std::vector<FileMetaData*>* files,
                                   const FileScanOptions* scan) {
  return new LevelIterator(read_options, table_cache, icmp, files, scan);
}

}  // namespace strata
