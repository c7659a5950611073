#include "db/compaction_job.h"

#include <memory>
#include <string>
#include <utility>

#include "db/filename.h"
#include "db/level_iterator.h"
#include "db/range_del_aggregator.h"
#include "db/table_cache.h"
#include "table/merging_iterator.h"
#include "table/table_reader.h"
#include "util/kill_point.h"
#include "util/stop_watch.h"

namespace strata {

// One output file being written.
class CompactionJob::Output {
 public:
  Output(const BuildTableOptions& options, uint64_t number, const Slice* lower)
      : has_lower_(lower != nullptr),
        lower_(lower != nullptr ? lower->ToString() : std::string()) {
    meta_.number = number;
    builder_ = std::make_unique<TableFileBuilder>(options, &meta_);
  }

  TableFileBuilder* builder() { return builder_.get(); }
  FileMetaData* meta() { return &meta_; }
  // Where this output's share of the range tombstones starts (null:
  // unbounded), kept as a copy: the key it came from moves on.
  const Slice* lower() const { return has_lower_ ? &lower_slice_ : nullptr; }

 private:
  const bool has_lower_;
  const std::string lower_;
  const Slice lower_slice_{lower_};
  FileMetaData meta_;
  std::unique_ptr<TableFileBuilder> builder_;
};

const std::vector<FileMetaData*>& CompactionJob::InputsOfLevel(
    int level) const {
  for (const LevelInputs& in : compaction_->middle_inputs()) {
    if (in.level == level) return in.files;
  }
  return level == compaction_->level() ? compaction_->inputs(0)
                                       : compaction_->inputs(1);
}

CompactionJob::CompactionJob(const CompactionJobOptions& options,
                             Compaction* compaction,
                             std::vector<SequenceNumber> snapshots,
                             SequenceNumber last_sequence)
    : options_(options),
      compaction_(compaction),
      snapshots_(std::move(snapshots)),
      last_sequence_(last_sequence),
      bottommost_(compaction->IsBottommost()) {}

FileScanOptions CompactionInputReads(const DBOptions& o) {
  FileScanOptions scan;
  scan.readahead_size = o.compaction_readahead_size;
  if (scan.readahead_size == 0 &&
      (o.use_direct_reads || o.use_direct_io_for_flush_and_compaction)) {
    scan.readahead_size = 2 << 20;
  }
  scan.rate_limiter = o.rate_limiter.get();
  scan.io_priority = Env::IO_LOW;
  return scan;
}

InternalIterator* CompactionJob::NewInputIterator() const {
  ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;  // the inputs are about to go away
  TableCache* cache = options_.build.table_cache;
  const InternalKeyComparator* icmp = options_.build.builder_options.icmp;
  std::vector<InternalIterator*> children;
  for (const LevelInputs& in : compaction_->AllInputs()) {
    if (in.level == 0) {
      for (const FileMetaData* f : in.files) {
        children.push_back(cache->NewIterator(ro, f->number, f->file_size,
                                              nullptr, f->global_seqno,
                                              &options_.input_reads));
      }
    } else {
      // The level iterator keeps a pointer to the list: the compaction's
      // own, which outlives the iterator.
      children.push_back(NewLevelIterator(
          ro, cache, icmp, &InputsOfLevel(in.level), &options_.input_reads));
    }
  }
  return NewMergingIterator(icmp, std::move(children));
}

Status CompactionJob::AddInputTombstones(RangeDelAggregator* aggregator) const {
  ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;
  for (const LevelInputs& in : compaction_->AllInputs()) {
    for (const FileMetaData* f : in.files) {
      Status added;
      Status s = options_.build.table_cache->WithTable(
          f->number, f->file_size,
          [&](TableReader* reader) {
            std::unique_ptr<InternalIterator> t(
                reader->NewRangeTombstoneIterator(ro));
            added = aggregator->AddTombstones(t.get());
          },
          f->global_seqno);
      if (s.ok()) s = added;
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

Status CompactionJob::Run() {
  const uint64_t start = options_.build.env->NowMicros();
  for (const LevelInputs& in : compaction_->AllInputs()) {
    uint64_t bytes = 0;
    for (const FileMetaData* f : in.files) bytes += f->file_size;
    const int files = static_cast<int>(in.files.size());
    if (in.level != compaction_->output_level()) {
      stats_.bytes_read_level += bytes;
      stats_.files_in_level += files;
    } else {
      stats_.bytes_read_output_level += bytes;
      stats_.files_in_output_level += files;
    }
  }

  const Comparator* ucmp =
      options_.build.builder_options.icmp->user_comparator();
  RangeDelAggregator tombstones =
      RangeDelAggregator::ForCompaction(ucmp, snapshots_);
  Status s = AddInputTombstones(&tombstones);
  if (s.ok()) {
    std::unique_ptr<InternalIterator> input(NewInputIterator());
    s = WriteOutputs(input.get(), &tombstones);
  }
  if (s.ok() && !outputs_.empty()) {
    // The outputs' names must be durable before an edit names them.
    s = SyncDBDirectory(options_.build.env, options_.build.dbname);
  }
  if (!s.ok()) RemoveOutputs();
  for (const FileMetaData& f : outputs_) stats_.bytes_written += f.file_size;
  stats_.files_out = static_cast<int>(outputs_.size());
  stats_.micros = options_.build.env->NowMicros() - start;
  stats_.count = 1;
  if (s.ok()) RecordStatistics();
  return s;
}

Status CompactionJob::WriteOutputs(InternalIterator* input,
                                   RangeDelAggregator* tombstones) {
  const Comparator* ucmp =
      options_.build.builder_options.icmp->user_comparator();
  CompactionIterator::CoveredFunction covered;
  if (!tombstones->IsEmpty()) covered = tombstones->ShouldDeleteFunction();
  std::unique_ptr<CompactionFilter> owned_filter;
  CompactionFilterUse filter;
  filter.level = compaction_->level();
  filter.has_snapshot = options_.has_snapshot;
  filter.newest_snapshot = options_.newest_snapshot;
  Status s = PickCompactionFilter(
      options_.compaction_filter, options_.compaction_filter_factory,
      options_.filter_context, &owned_filter, &filter.filter);
  if (!s.ok()) return s;
  CompactionIterator iter(input, ucmp, snapshots_, last_sequence_, bottommost_,
                          options_.merge_operator, covered, filter);
  std::unique_ptr<Output> output;
  std::string last_user_key;
  bool cut_pending = false;
  uint64_t n = 0;
  for (iter.SeekToFirst(); iter.Valid(); iter.Next()) {
    if ((++n & 1023) == 0 && options_.shutting_down != nullptr &&
        options_.shutting_down->load(std::memory_order_acquire)) {
      s = Status::ShutdownInProgress("compaction stopped: the DB is closing");
      break;
    }
    const Slice key = iter.key();
    const Slice user_key = ExtractUserKey(key);
    // ShouldStopBefore sees every key: it tracks the grandparents passed.
    const uint64_t output_bytes =
        output != nullptr ? output->builder()->FileSize() : 0;
    const bool stop = compaction_->ShouldStopBefore(key, output_bytes);
    if (output != nullptr) {
      if (stop || output_bytes >= compaction_->max_output_file_size()) {
        cut_pending = true;
      }
      // A user key's versions stay in one file.
      if (cut_pending && ucmp->Compare(user_key, last_user_key) != 0) {
        s = FinishOutput(output.get(), *tombstones, &user_key);
        if (!s.ok()) {
          output.reset();  // reported failed by FinishOutput; deleted here
          break;
        }
        output.reset();
        cut_pending = false;
        compaction_->OutputCut();
      }
    }
    if (output == nullptr) {
      const uint64_t number = options_.new_file_number();
      file_numbers_.push_back(number);
      if (options_.output_started) options_.output_started(number);
      // The first output takes every tombstone before its first key.
      output = std::make_unique<Output>(options_.build, number,
                                        outputs_.empty() ? nullptr : &user_key);
      s = output->builder()->Open();
      if (!s.ok()) break;
    }
    s = output->builder()->Add(key, iter.value());
    if (!s.ok()) break;
    last_user_key.assign(user_key.data(), user_key.size());
  }
  if (s.ok()) s = iter.status();
  if (!s.ok() && output != nullptr && options_.output_finished) {
    options_.output_finished(output->meta()->number, 0, s);
  }
  records_ = iter.stats();
  stats_.records_in = records_.num_input_records;
  stats_.records_dropped =
      records_.num_input_records - records_.num_output_records;
  if (!s.ok()) return s;  // output's destructor deletes its file

  if (output == nullptr && outputs_.empty() &&
      !tombstones->TombstonesForOutput(nullptr, nullptr, bottommost_).empty()) {
    // Only range tombstones survive: they still hide data below.
    const uint64_t number = options_.new_file_number();
    file_numbers_.push_back(number);
    if (options_.output_started) options_.output_started(number);
    output = std::make_unique<Output>(options_.build, number, nullptr);
    s = output->builder()->Open();
    if (!s.ok() && options_.output_finished) {
      options_.output_finished(number, 0, s);
    }
    if (!s.ok()) return s;
  }
  if (output != nullptr) s = FinishOutput(output.get(), *tombstones, nullptr);
  return s;
}

Status CompactionJob::FinishOutput(Output* output,
                                   const RangeDelAggregator& tombstones,
                                   const Slice* upper) {
  Status s;
  for (const RangeTombstone& t :
       tombstones.TombstonesForOutput(output->lower(), upper, bottommost_)) {
    const InternalKey begin(t.begin, t.seq, kTypeRangeDeletion);
    s = output->builder()->AddTombstone(begin.Encode(), t.end);
    if (!s.ok()) return s;
  }
  TEST_KILL_POINT("Compaction::FinishOutput");
  s = output->builder()->Finish();
  if (s.ok()) outputs_.push_back(*output->meta());
  if (options_.output_finished) {
    options_.output_finished(output->meta()->number,
                             s.ok() ? output->meta()->file_size : 0, s);
  }
  return s;
}

void CompactionJob::AddToEdit(VersionEdit* edit) const {
  std::vector<CompactionInputFile> deletions;
  compaction_->AddInputDeletions(&deletions);
  for (const CompactionInputFile& d : deletions) {
    edit->RemoveFile(d.level, d.number);
  }
  for (const FileMetaData& f : outputs_) {
    edit->AddFile(compaction_->output_level(), f);
  }
}

void CompactionJob::RemoveOutputs() {
  for (const FileMetaData& f : outputs_) {
    options_.build.table_cache->Evict(f.number);
    options_.build.env->RemoveFile(
        TableFileName(options_.build.dbname, f.number));
  }
  outputs_.clear();
}

void CompactionJob::RecordStatistics() const {
  Statistics* stats = options_.statistics;
  if (stats == nullptr) return;
  RecordTick(stats, COMPACT_READ_BYTES,
             stats_.bytes_read_level + stats_.bytes_read_output_level);
  RecordTick(stats, COMPACT_WRITE_BYTES, stats_.bytes_written);
  RecordTick(stats, COMPACTION_KEY_DROP_NEWER_ENTRY,
             records_.num_dropped_hidden);
  RecordTick(stats, COMPACTION_KEY_DROP_OBSOLETE,
             records_.num_dropped_obsolete_tombstones);
  stats->recordInHistogram(COMPACTION_TIME, stats_.micros);
}

}  // namespace strata
