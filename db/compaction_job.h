// CompactionJob: runs one Compaction that is not a trivial move — reads
// its input files, drops what no reader can see (CompactionIterator with
// the inputs' range tombstones), and writes the result as new table files
// of the output level (docs/compaction.md, "Running a compaction").
//
// Output files are cut at max_output_file_size and where
// Compaction::ShouldStopBefore says, but never between two entries of
// one user key, so no user key spans two files of the output level. Each
// output holds the range tombstones of its key range
// (RangeDelAggregator::TombstonesForOutput): from the previous output's
// cut (or unbounded) up to the next output's first key (or unbounded).
// Every output is synced and opened (read back with paranoid_file_checks)
// before Run returns OK (TableFileBuilder); on any error every output written
// is deleted, so a failed compaction leaves no file behind and installs
// nothing.
//
// The job does not touch the version set: the caller installs the result
// (AddToEdit) under the DB mutex.
//
// Thread safety: Run runs without the DB mutex, on one thread; the
// Compaction's input files must stay referenced (their version held) and
// marked being_compacted until the job is installed or abandoned.

#ifndef STRATA_DB_COMPACTION_JOB_H_
#define STRATA_DB_COMPACTION_JOB_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "db/builder.h"
#include "db/compaction.h"
#include "db/compaction_filter_use.h"
#include "db/compaction_iterator.h"
#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "db/internal_stats.h"
#include "db/version_edit.h"
#include "env/file_reader.h"
#include "strata/merge_operator.h"
#include "strata/statistics.h"
#include "strata/status.h"

namespace strata {

class RangeDelAggregator;

// How a compaction of a DB with options o reads its inputs: in chunks of
// compaction_readahead_size (0 with direct reads or writes: 2 MiB, as
// RocksDB sanitizes it, since the OS then reads nothing ahead), asking
// o.rate_limiter at IO_LOW when it limits reads.
FileScanOptions CompactionInputReads(const DBOptions& o);

struct CompactionJobOptions {
  // Where outputs go and how they are built; build.table_cache (required)
  // also opens the inputs.
  BuildTableOptions build;
  // How the inputs are read: readahead and the rate limiter for reads.
  FileScanOptions input_reads;
  const MergeOperator* merge_operator = nullptr;  // may be null
  Statistics* statistics = nullptr;               // may be null
  // A fresh file number, registered as a pending output so the DB does not
  // delete the file as obsolete meanwhile. Called from Run.
  std::function<uint64_t()> new_file_number;
  // Told of each output file as Run starts it and when it is finished
  // (or failed: the file is then deleted); may be empty. Called without
  // the DB mutex, from Run.
  std::function<void(uint64_t number)> output_started;
  std::function<void(uint64_t number, uint64_t size, const Status& s)>
      output_finished;
  // Set when the DB is closing: Run stops with ShutdownInProgress.
  const std::atomic<bool>* shutting_down = nullptr;
  // The family's compaction filter or factory (db/compaction_filter_use.h;
  // either may be null, neither owned), and what a factory is told.
  const CompactionFilter* compaction_filter = nullptr;
  CompactionFilterFactory* compaction_filter_factory = nullptr;
  CompactionFilter::Context filter_context{};
  // The newest live snapshot: what it and older ones see is never
  // filtered.
  bool has_snapshot = false;
  SequenceNumber newest_snapshot = 0;
};

class CompactionJob {
 public:
  // snapshots: ascending; last_sequence: at least the newest sequence in
  // any input. compaction must outlive the job.
  CompactionJob(const CompactionJobOptions& options, Compaction* compaction,
                std::vector<SequenceNumber> snapshots,
                SequenceNumber last_sequence);
  CompactionJob(const CompactionJob&) = delete;
  CompactionJob& operator=(const CompactionJob&) = delete;

  // Reads the inputs and writes the outputs (none if nothing survives).
  Status Run();

  // After an OK Run: removes the input files and adds the outputs at the
  // output level.
  void AddToEdit(VersionEdit* edit) const;

  const std::vector<FileMetaData>& outputs() const { return outputs_; }
  // Every file number Run took (the caller's pending outputs), including
  // those of outputs a failure deleted.
  const std::vector<uint64_t>& file_numbers() const { return file_numbers_; }
  // What the job read and wrote, as strata.stats counts it (count 1).
  const LevelCompactionStats& stats() const { return stats_; }
  // The compaction iterator's record counts.
  const CompactionIteratorStats& records() const { return records_; }

 private:
  class Output;

  // The compaction's own list of its inputs in level (L1+).
  const std::vector<FileMetaData*>& InputsOfLevel(int level) const;
  // Builds the merged iterator over every input file.
  InternalIterator* NewInputIterator() const;
  // Adds every input file's range tombstones to *aggregator.
  Status AddInputTombstones(RangeDelAggregator* aggregator) const;
  Status WriteOutputs(InternalIterator* input, RangeDelAggregator* tombstones);
  // Finishes the open output with the tombstones of [lower, upper).
  Status FinishOutput(Output* output, const RangeDelAggregator& tombstones,
                      const Slice* upper);
  void RecordStatistics() const;
  // Deletes the outputs (Run's failure path). Never after a failed
  // install: the edit may be in the MANIFEST all the same.
  void RemoveOutputs();

  const CompactionJobOptions options_;
  Compaction* const compaction_;
  const std::vector<SequenceNumber> snapshots_;
  const SequenceNumber last_sequence_;
  const bool bottommost_;
  std::vector<FileMetaData> outputs_;
  std::vector<uint64_t> file_numbers_;
  LevelCompactionStats stats_;
  CompactionIteratorStats records_;
};

}  // namespace strata

#endif  // STRATA_DB_COMPACTION_JOB_H_
