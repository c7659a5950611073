// DBImpl: CompactFiles — a compaction of files the application names,
// run on the calling thread (docs/operations.md, "CompactFiles").
//
// The named files are grown as RocksDB grows them, so that the result
// leaves every level consistent:
//   - from the topmost input level down to output_level, each level's
//     inputs become a run from the first to the last input, extended in
//     L1+ to a clean cut (no user key split between an input and a file
//     beside it);
//   - in L0, the run reaches the oldest L0 file. RocksDB does so only for
//     an output level below L0; strata also does it for L0 to L0, because
//     an L0 output must not hold data older than an L0 file outside the
//     compaction (the tombstones it drops as bottommost would otherwise
//     uncover that file's keys);
//   - every file of the levels from the current one to output_level that
//     overlaps the inputs' user-key range so far joins them.
// A file that would join while another compaction holds it makes the
// call fail with Aborted rather than wait.

#include <map>
#include <set>
#include <string>

#include "db/compaction.h"
#include "db/db_impl.h"
#include "db/filename.h"
#include "table/compression.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// The number of a table file named as GetLiveFilesMetaData names it
// ("/000012.sst"), without the '/', or as a full path. False for any
// other name (RocksDB reads a bare number as file 0, which never exists).
bool TableNumberOf(const std::string& name, uint64_t* number) {
  const size_t slash = name.find_last_of("/\\");
  const std::string base =
      slash == std::string::npos ? name : name.substr(slash + 1);
  FileType type;
  return ParseFileName(base, number, &type) && type == FileType::kTableFile;
}

std::string TableName(uint64_t number) {
  return TableFileName("", number).substr(1);  // "000012.sst"
}

// Grows [*smallest, *largest] (user keys; empty: no range yet) to cover f.
void Cover(const Comparator* ucmp, const FileMetaData* f, bool* have_range,
           std::string* smallest, std::string* largest) {
  const Slice lo = f->smallest.user_key(), hi = f->largest.user_key();
  if (!*have_range || ucmp->Compare(lo, *smallest) < 0) {
    smallest->assign(lo.data(), lo.size());
  }
  if (!*have_range || ucmp->Compare(hi, *largest) > 0) {
    largest->assign(hi.data(), hi.size());
  }
  *have_range = true;
}

}  // namespace

Status DBImpl::CheckNoCompactionWritesThere(const Version& base,
                                            const Compaction& c) const {
  mutex_.AssertHeld();
  InternalKey smallest, largest;
  c.GetRange(&smallest, &largest);
  if (RunningCompactionMayWrite(LevelFilesViewOf(base), c.output_level(),
                                smallest.user_key(), largest.user_key())) {
    return Status::Aborted(
        "CompactFiles: a running compaction may write into the inputs' "
        "key range at or above level " +
        std::to_string(c.output_level()) + "; try again when it is done");
  }
  return Status::OK();
}

Status DBImpl::PickCompactFiles(ColumnFamilyData* cfd,
                                const CompactionOptions& options,
                                const std::vector<std::string>& names,
                                int output_level,
                                std::unique_ptr<Compaction>* c) {
  mutex_.AssertHeld();
  const int num_levels = cfd->num_levels();
  if (output_level < 0 || output_level >= num_levels) {
    return Status::InvalidArgument(
        "CompactFiles: output level " + std::to_string(output_level) +
        " of column family " + cfd->name() + " is outside [0, " +
        std::to_string(num_levels - 1) + "]");
  }
  if (names.empty()) {
    return Status::InvalidArgument(
        "CompactFiles: a compaction must include at least one file");
  }
  const LevelFilesView view = LevelFilesViewOf(*cfd->current());
  // Where each file lives: number -> (level, index in the level).
  std::map<uint64_t, std::pair<int, size_t>> where;
  for (int level = 0; level < num_levels; level++) {
    for (size_t i = 0; i < view.files[level].size(); i++) {
      where[view.files[level][i]->number] = {level, i};
    }
  }
  // The chosen files of each level, by index.
  std::vector<std::set<size_t>> chosen(num_levels);
  int top = output_level;
  for (const std::string& name : names) {
    uint64_t number;
    if (!TableNumberOf(name, &number)) {
      return Status::InvalidArgument("CompactFiles: not a table file name: ",
                                     name);
    }
    auto it = where.find(number);
    if (it == where.end()) {
      return Status::InvalidArgument(
          "CompactFiles: input file " + TableName(number) +
          " does not exist in column family " + cfd->name());
    }
    const int level = it->second.first;
    if (view.files[level][it->second.second]->being_compacted) {
      return Status::Aborted("CompactFiles: input file " + TableName(number) +
                             " is already being compacted");
    }
    if (level > output_level) {
      return Status::InvalidArgument(
          "CompactFiles: cannot compact input file " + TableName(number) +
          " of L" + std::to_string(level) + " up to L" +
          std::to_string(output_level));
    }
    chosen[level].insert(it->second.second);
    top = std::min(top, level);
  }

  const Comparator* ucmp = cfd->user_comparator();
  bool have_range = false;
  std::string smallest, largest;
  for (int level = top; level <= output_level; level++) {
    const std::vector<FileMetaData*>& files = view.files[level];
    if (!chosen[level].empty()) {
      size_t first = *chosen[level].begin();
      size_t last = *chosen[level].rbegin();
      if (level == 0) {
        last = files.size() - 1;  // every older L0 file (see above)
      } else {
        while (first > 0 &&
               ucmp->Compare(files[first - 1]->largest.user_key(),
                             files[first]->smallest.user_key()) >= 0) {
          first--;
        }
        while (last + 1 < files.size() &&
               ucmp->Compare(files[last + 1]->smallest.user_key(),
                             files[last]->largest.user_key()) <= 0) {
          last++;
        }
      }
      for (size_t i = first; i <= last; i++) {
        chosen[level].insert(i);
        Cover(ucmp, files[i], &have_range, &smallest, &largest);
      }
    }
    if (!have_range) continue;
    // The levels from here down to the output take what overlaps.
    for (int m = std::max(level, 1); m <= output_level; m++) {
      for (size_t i = 0; i < view.files[m].size(); i++) {
        const FileMetaData* f = view.files[m][i];
        if (ucmp->Compare(f->largest.user_key(), smallest) >= 0 &&
            ucmp->Compare(f->smallest.user_key(), largest) <= 0) {
          chosen[m].insert(i);
        }
      }
    }
  }

  CompactionSpec spec;
  spec.level = top;
  spec.output_level = output_level;
  for (int level = top; level <= output_level; level++) {
    std::vector<FileMetaData*> files;
    for (size_t i : chosen[level]) {
      FileMetaData* f = view.files[level][i];
      if (f->being_compacted) {
        return Status::Aborted("CompactFiles: file " + TableName(f->number) +
                               " of L" + std::to_string(level) +
                               ", which the compaction must include, is "
                               "being compacted");
      }
      files.push_back(f);
    }
    if (level == top) {
      spec.inputs[0] = std::move(files);
    } else if (level == output_level) {
      spec.inputs[1] = std::move(files);
    } else if (!files.empty()) {
      spec.middle_inputs.push_back({level, std::move(files)});
    }
  }
  spec.max_output_file_size = options.output_file_size_limit;
  spec.output_compression = options.compression;
  spec.input_compression = options.compression;
  spec.max_compaction_bytes = cfd->picker().options().max_compaction_bytes;
  spec.manual = true;
  spec.rewrite = true;
  *c = std::make_unique<Compaction>(view, std::move(spec));
  return Status::OK();
}

Status DBImpl::CompactFiles(const CompactionOptions& compact_options,
                            ColumnFamilyHandle* column_family,
                            const std::vector<std::string>& input_file_names,
                            const int output_level, const int output_path_id,
                            std::vector<std::string>* const output_file_names,
                            CompactionJobInfo* compaction_job_info) {
  if (read_only_) {
    return Status::NotSupported("CompactFiles",
                                "not supported by a read-only DB");
  }
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  if (output_path_id != -1 && output_path_id != 0) {
    return Status::InvalidArgument(
        "CompactFiles: output_path_id " + std::to_string(output_path_id) +
        " (strata writes every file to the DB directory: path 0)");
  }
  CompressionType compression = compact_options.compression;
  if (compression != kNoCompression && compression != kSnappyCompression &&
      compression != kZlibCompression) {
    return Status::InvalidArgument(
        "CompactFiles: unknown compression type ",
        std::to_string(static_cast<int>(compression)));
  }
  if (!CompressionSupported(compression)) {
    // CompactionOptions' default is snappy; a build without it writes
    // the outputs uncompressed, as RocksDB's table builder stores a block
    // raw when its codec is missing.
    compression = kNoCompression;
  }
  CompactionOptions options = compact_options;
  options.compression = compression;

  MutexLock l(&mutex_);
  // An ingestion writing its MANIFEST record may be placing files where
  // these inputs would go.
  while (ingestions_installing_ > 0 && !closing_) bg_cv_.Wait();
  if (closing_) return Status::ShutdownInProgress("the DB is closing");
  if (error_handler_.IsBGWorkStopped()) return error_handler_.GetBGError();
  if (cfd->dropped()) return Status::ColumnFamilyDropped(cfd->name());
  std::unique_ptr<Compaction> c;
  cfd->Ref();
  Version* base = cfd->current();
  base->Ref();
  s = PickCompactFiles(cfd, options, input_file_names, output_level, &c);
  if (s.ok()) s = CheckNoCompactionWritesThere(*base, *c);
  CompactionJobInfo info{};
  if (s.ok()) {
    manual_compactions_++;  // WaitForBackgroundWork and Close wait for it
    // No other compaction starts meanwhile: this one may skip levels, and
    // one picked beside it could write into a gap between its inputs.
    compact_files_running_++;
    c->MarkFilesBeingCompacted(true);
    s = RunCompaction(cfd, c.get(), &info, /*notify=*/false);
    compact_files_running_--;
  } else {
    c.reset();
  }
  base->Unref();
  if (c != nullptr) {
    // With base released, the inputs are in no live version any more.
    if (s.ok()) DeleteObsoleteFiles();
    ReportStallChanges();
    if (!s.ok() && !s.IsShutdownInProgress() && !s.IsColumnFamilyDropped()) {
      SetBackgroundError(s, BackgroundErrorReason::kCompaction);
    }
  }
  cfd->Unref();
  if (c != nullptr) manual_compactions_--;
  MaybeScheduleCompaction();
  bg_cv_.SignalAll();
  if (s.ok() && output_file_names != nullptr) {
    output_file_names->insert(output_file_names->end(),
                              info.output_files.begin(),
                              info.output_files.end());
  }
  if (c != nullptr && compaction_job_info != nullptr) {
    *compaction_job_info = info;
  }
  return s;
}

}  // namespace strata
