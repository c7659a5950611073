// Synthetic versions for the compaction picker's tests: files with chosen
// user-key ranges, sequence numbers and sizes, kept in a LevelFilesView
// (L0 newest first, L1+ sorted by smallest key).

#ifndef STRATA_TEST_DB_LEVEL_FILES_BUILDER_H_
#define STRATA_TEST_DB_LEVEL_FILES_BUILDER_H_

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "db/compaction.h"
#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "strata/comparator.h"

namespace strata {
namespace test {

class LevelFilesBuilder {
 public:
  explicit LevelFilesBuilder(int num_levels) : icmp_(BytewiseComparator()) {
    view_.icmp = &icmp_;
    view_.files.resize(static_cast<size_t>(num_levels));
  }
  LevelFilesBuilder(const LevelFilesBuilder&) = delete;
  LevelFilesBuilder& operator=(const LevelFilesBuilder&) = delete;

  // Adds a file holding user keys [lo, hi]: its smallest key is
  // (lo, lo_seq), its largest (hi, hi_seq). An L0 file becomes the newest.
  FileMetaData* Add(int level, const std::string& lo, const std::string& hi,
                    uint64_t size, SequenceNumber lo_seq = 10,
                    SequenceNumber hi_seq = 10) {
    FileMetaData* f = NewFile(InternalKey(lo, lo_seq, kTypeValue),
                              InternalKey(hi, hi_seq, kTypeValue), size);
    Insert(level, f);
    return f;
  }

  // A file with the given keys, in no level yet.
  FileMetaData* NewFile(const InternalKey& smallest, const InternalKey& largest,
                        uint64_t size) {
    storage_.emplace_back();
    FileMetaData* f = &storage_.back();
    f->number = next_number_++;
    f->file_size = size;
    f->smallest = smallest;
    f->largest = largest;
    f->smallest_seqno = std::min(ExtractSequence(smallest.Encode()),
                                 ExtractSequence(largest.Encode()));
    f->largest_seqno = std::max(ExtractSequence(smallest.Encode()),
                                ExtractSequence(largest.Encode()));
    return f;
  }

  // Puts f into level: first in L0 (newest), in key order in L1+.
  void Insert(int level, FileMetaData* f) {
    std::vector<FileMetaData*>& files = view_.files[level];
    if (level == 0) {
      files.insert(files.begin(), f);
      return;
    }
    auto it = std::upper_bound(
        files.begin(), files.end(), f,
        [this](const FileMetaData* a, const FileMetaData* b) {
          return icmp_.Compare(a->smallest.Encode(), b->smallest.Encode()) < 0;
        });
    files.insert(it, f);
  }

  // Takes f out of level (it stays allocated). False if it is not there.
  bool Remove(int level, const FileMetaData* f) {
    std::vector<FileMetaData*>& files = view_.files[level];
    auto it = std::find(files.begin(), files.end(), f);
    if (it == files.end()) return false;
    files.erase(it);
    return true;
  }

  const LevelFilesView& view() const { return view_; }
  const InternalKeyComparator& icmp() const { return icmp_; }

 private:
  InternalKeyComparator icmp_;
  LevelFilesView view_;
  std::deque<FileMetaData> storage_;  // stable addresses
  uint64_t next_number_ = 1;
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_LEVEL_FILES_BUILDER_H_
