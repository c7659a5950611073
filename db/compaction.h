// Compaction: the description of one leveled compaction — which files of
// `level` and `output_level` it reads, which files two levels down its
// outputs will overlap (grandparents), and where its output files are cut.
// The picker (db/compaction_picker.h) builds it from a LevelFilesView;
// the compaction job runs it and records the result in a version edit.
//
// Invariants (the picker keeps them; compaction_picker_test checks them):
// - inputs(0) is a run of whole files of `level`, inputs(1) of
//   `output_level`, each sorted by smallest key (L0 inputs newest first);
//   a compaction of DB::CompactFiles may also have inputs of the levels
//   between (middle_inputs), and may have output_level == level;
// - the inputs are clean-cut: no user key of an input also appears in a
//   file of the same level outside the inputs, so no version of a key is
//   left behind above or beside the output;
// - no file of output_level outside inputs(1) overlaps the user-key range
//   of the inputs.
//
// Lifetime: the FileMetaData pointers are borrowed from the version the
// view was built from; that version must stay referenced while the
// Compaction lives.
//
// Thread safety: const methods may run at once. ShouldStopBefore keeps
// state for the output being written: one thread at a time.
// MarkFilesBeingCompacted writes FileMetaData::being_compacted: hold the
// DB mutex.

#ifndef STRATA_DB_COMPACTION_H_
#define STRATA_DB_COMPACTION_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "strata/options.h"
#include "strata/slice.h"

namespace strata {

// A read-only view of one version's files: files[L] are the files of
// level L — L0 newest first (they may overlap), L1+ sorted by smallest
// key and non-overlapping. What the picker and a Compaction read.
struct LevelFilesView {
  const InternalKeyComparator* icmp = nullptr;
  std::vector<std::vector<FileMetaData*>> files;

  int num_levels() const { return static_cast<int>(files.size()); }
};

class Version;

// The view of version's files (the lists are copied; the files are not,
// so the caller keeps a ref on version while it uses the view).
LevelFilesView LevelFilesViewOf(const Version& version);

// Whether a running compaction may write outputs at a level <= max_level
// within [smallest, largest] (user keys). Every such compaction has all
// its inputs at levels <= max_level, marked being_compacted, and writes
// only within the span of its inputs; the span taken is that of every
// marked file of those levels together, which is conservative: a gap
// between two compactions' inputs counts as written. Ingestion
// (PickIngestLevel) and DB::CompactFiles check their ranges against it, as
// both may place files in a level a compaction skipped to.
// REQUIRES: the DB mutex (being_compacted).
bool RunningCompactionMayWrite(const LevelFilesView& view, int max_level,
                               const Slice& smallest, const Slice& largest);

// A file a finished compaction removes from the version.
struct CompactionInputFile {
  int level;
  uint64_t number;
};

// The inputs a compaction takes from one level.
struct LevelInputs {
  int level;
  std::vector<FileMetaData*> files;
};

// What the picker fills in to build a Compaction.
struct CompactionSpec {
  int level = 0;
  int output_level = 1;
  std::vector<FileMetaData*> inputs[2];     // of level, of output_level
  std::vector<FileMetaData*> grandparents;  // of output_level + 1
  uint64_t max_output_file_size = 0;
  // What the options ask of tables in level and in output_level
  // (CompressionForLevel, with the base level at the pick). A file moves
  // down without a rewrite only if the two agree, as in RocksDB.
  CompressionType input_compression = kNoCompression;
  CompressionType output_compression = kNoCompression;
  // Grandparent overlap at which ShouldStopBefore cuts an output file.
  uint64_t max_compaction_bytes = 0;
  // The output file size aimed at; 0: none. With grandparents, an output
  // is cut early at a grandparent boundary (ShouldStopBefore) and
  // max_output_file_size is twice it, as RocksDB's
  // level_compaction_dynamic_file_size (its default) does.
  uint64_t target_output_file_size = 0;
  double score = 0;  // the level's score when picked; 0 for manual
  bool manual = false;
  // DB::CompactFiles only: the inputs of the levels strictly between
  // level and output_level, by level (each a clean run of its level),
  // and no trivial move (the files are always rewritten, as RocksDB's
  // CompactFiles does).
  std::vector<LevelInputs> middle_inputs;
  bool rewrite = false;
};

class Compaction {
 public:
  // view supplies the comparator and the levels below the output level
  // (for IsBaseLevelForKey); it is copied.
  Compaction(const LevelFilesView& view, CompactionSpec spec);
  Compaction(const Compaction&) = delete;
  Compaction& operator=(const Compaction&) = delete;

  int level() const { return spec_.level; }
  int output_level() const { return spec_.output_level; }
  // which: 0 for level's files, 1 for output_level's.
  const std::vector<FileMetaData*>& inputs(int which) const {
    return spec_.inputs[which];
  }
  const std::vector<FileMetaData*>& grandparents() const {
    return spec_.grandparents;
  }
  const std::vector<LevelInputs>& middle_inputs() const {
    return spec_.middle_inputs;
  }
  // Every input level with inputs, top down: level, the middle levels,
  // output_level.
  std::vector<LevelInputs> AllInputs() const;
  uint64_t max_output_file_size() const { return spec_.max_output_file_size; }
  uint64_t target_output_file_size() const {
    return spec_.target_output_file_size;
  }
  CompressionType output_compression() const {
    return spec_.output_compression;
  }
  uint64_t max_compaction_bytes() const { return spec_.max_compaction_bytes; }
  double score() const { return spec_.score; }
  bool is_manual() const { return spec_.manual; }

  // Total size of the input files.
  uint64_t TotalInputBytes() const;

  // The smallest and largest internal keys over all inputs.
  // REQUIRES: at least one input file.
  void GetRange(InternalKey* smallest, InternalKey* largest) const;

  // The compaction can be done by moving its one input file to
  // output_level in the version, without reading or writing it: nothing
  // in output_level overlaps it and its grandparent overlap is at most
  // max_compaction_bytes (so the moved file is no worse a future input
  // than a rewritten one).
  bool IsTrivialMove() const;

  // Called with each key of the output in increasing order, and the
  // bytes of the current output so far (its file size: 0 until its first
  // block is written, and when none is open): whether the output
  // should end before internal_key. It should when it already overlaps
  // more than max_compaction_bytes of grandparents (a large overlap makes
  // the file an expensive input of the next compaction); and, with a
  // target_output_file_size, when internal_key crosses a grandparent
  // boundary and either the output has reached 50% of the target plus 5%
  // for each boundary it has crossed, this one included (at most 90%), or
  // the key skipped a
  // whole grandparent file of more than an eighth of the target. Outputs
  // cut at the next level's file boundaries overlap fewer of its files
  // when they are compacted down. Cutting at max_output_file_size is the
  // caller's.
  bool ShouldStopBefore(const Slice& internal_key, uint64_t output_bytes);
  // The caller ended the current output for its own reason (its size):
  // the next output's grandparent overlap counts from zero.
  void OutputCut() {
    overlapped_bytes_ = 0;
    boundaries_crossed_ = 0;
  }

  // No file in a level below output_level may hold user_key: a tombstone
  // for it that no snapshot needs can be dropped, and the oldest version
  // of it needs no sequence number.
  bool IsBaseLevelForKey(const Slice& user_key) const;

  // No file in a level below output_level overlaps the user-key range of
  // the inputs: the output holds the oldest data of its range, so
  // tombstones no snapshot needs can go.
  bool IsBottommost() const;

  // Sets being_compacted on every input file.
  void MarkFilesBeingCompacted(bool being_compacted);

  // Appends the input files (level, number) to *deletions: what the
  // version edit of the finished compaction removes.
  void AddInputDeletions(std::vector<CompactionInputFile>* deletions) const;

  // One line for the info log, e.g.
  // "L1 -> L2 score 1.50: 2+1 files (3072 bytes) [7 8] + [4], 1 grandparents".
  std::string Summary() const;

 private:
  const InternalKeyComparator* icmp_;
  CompactionSpec spec_;
  // The levels below output_level, for IsBaseLevelForKey.
  std::vector<std::vector<FileMetaData*>> lower_levels_;

  // ShouldStopBefore's progress through grandparents for the current
  // output file.
  // grandparent_index_ is the first grandparent not wholly before the
  // last key, inside_grandparent_ whether that key was within it.
  size_t grandparent_index_ = 0;
  bool inside_grandparent_ = false;
  bool seen_key_ = false;
  uint64_t overlapped_bytes_ = 0;
  size_t boundaries_crossed_ = 0;
};

}  // namespace strata

#endif  // STRATA_DB_COMPACTION_H_
