// DBImpl: compactions — automatic ones on the LOW pool, CompactRange —
// and installing their results (docs/compaction.md, "In the DB").
//
// A compaction is picked under mutex_ from the current version, which it
// keeps referenced; its input files are marked being_compacted, so no
// other compaction takes them. It runs without the mutex
// (CompactionJob), then installs one edit that removes the inputs and
// adds the outputs. A trivial move installs its edit at once. A failed
// compaction installs nothing, deletes its outputs and becomes the
// background error (unless it stopped because the DB is closing).

#include <algorithm>

#include "db/compaction_job.h"
#include "db/db_impl.h"
#include "db/filename.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

int DBImpl::MaxCompactions() const {
  const int jobs = std::max(options_.max_background_jobs, 2);
  return jobs - std::max(jobs / 4, 1);
}

ColumnFamilyData* DBImpl::FamilyNeedingCompaction() const {
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    if (cfd->picker().NeedsCompaction(LevelFilesViewOf(*cfd->current()))) {
      return cfd;
    }
  }
  return nullptr;
}

void DBImpl::MaybeScheduleCompaction() {
  mutex_.AssertHeld();
  if (read_only_ || closing_ || error_handler_.IsBGWorkStopped() ||
      exclusive_manual_compactions_ > 0 || ingestions_installing_ > 0 ||
      compact_files_running_ > 0) {
    return;
  }
  // A compaction scheduled but not yet picking counts as taking the
  // work, so a burst of calls does not schedule one per call.
  if (bg_compactions_scheduled_ < MaxCompactions() &&
      FamilyNeedingCompaction() != nullptr) {
    bg_compactions_scheduled_++;
    env_->Schedule(&DBImpl::BGWorkCompaction, this, Env::LOW);
  }
}

void DBImpl::BGWorkCompaction(void* db) {
  static_cast<DBImpl*>(db)->BackgroundCompaction();
}

void DBImpl::BackgroundCompaction() {
  MutexLock l(&mutex_);
  if (!closing_ && !error_handler_.IsBGWorkStopped() &&
      exclusive_manual_compactions_ == 0 && ingestions_installing_ == 0 &&
      compact_files_running_ == 0) {
    std::unique_ptr<Compaction> c;
    Status s;
    // The first family with work its picker can take now.
    ColumnFamilyData* cfd = nullptr;
    Version* base = nullptr;
    for (ColumnFamilyData* f : versions_->column_families()->All()) {
      c = f->picker().PickCompaction(LevelFilesViewOf(*f->current()));
      if (c != nullptr) {
        cfd = f;
        break;
      }
    }
    if (c != nullptr) {
      cfd->Ref();
      base = cfd->current();
      base->Ref();
      c->MarkFilesBeingCompacted(true);
      // More work may be free beside this one.
      bg_compactions_scheduled_--;
      MaybeScheduleCompaction();
      bg_compactions_scheduled_++;
      s = RunCompaction(cfd, c.get());
      if (!s.ok() && !s.IsShutdownInProgress() && !s.IsColumnFamilyDropped()) {
        SetBackgroundError(s, BackgroundErrorReason::kCompaction);
      }
      base->Unref();
      cfd->Unref();
    }
    // With base released, the inputs are in no live version any more.
    if (c != nullptr && s.ok()) DeleteObsoleteFiles();
    if (c != nullptr) ReportStallChanges();
    bg_compactions_scheduled_--;
    // The result may need another. (With nothing picked, the inputs are
    // busy: the compaction holding them schedules when it finishes.)
    if (c != nullptr) MaybeScheduleCompaction();
  } else {
    bg_compactions_scheduled_--;
  }
  bg_cv_.SignalAll();
}

void DBImpl::CompactionDone() {
  // Compactions that found these inputs busy did not reschedule
  // themselves, and stopped writers wait for L0 to shrink: both learn of
  // it here, also between the steps of a long CompactRange.
  MaybeScheduleCompaction();
  bg_cv_.SignalAll();
}

Status DBImpl::RunCompaction(ColumnFamilyData* cfd, Compaction* c,
                             CompactionJobInfo* result, bool notify) {
  mutex_.AssertHeld();
  CompactionJobInfo info = NewCompactionJobInfo(cfd, *c, NewJobId());
  if (notify) NotifyCompaction(info, /*completed=*/false);
  std::vector<uint64_t> outputs;
  info.status = InstallCompaction(cfd, c, info.job_id, &outputs);
  if (info.status.ok()) {
    for (uint64_t number : outputs) {
      info.output_files.push_back(TableFileName(dbname_, number));
      info.output_file_infos.push_back({c->output_level(), number, 0});
    }
  }
  if (notify) NotifyCompaction(info, /*completed=*/true);
  if (result != nullptr) *result = info;
  return info.status;
}

Status DBImpl::InstallCompaction(ColumnFamilyData* cfd, Compaction* c,
                                 int job_id, std::vector<uint64_t>* outputs) {
  mutex_.AssertHeld();
  STRATA_LOG_INFO(info_log_, "compacting %s", c->Summary().c_str());
  VersionEdit edit;
  Status s;
  if (c->IsTrivialMove()) {
    LevelCompactionStats stats;
    std::string numbers;
    for (FileMetaData* f : c->inputs(0)) {
      edit.RemoveFile(c->level(), f->number);
      edit.AddFile(c->output_level(), *f);
      stats.bytes_moved += f->file_size;
      numbers += (numbers.empty() ? "" : " ") + std::to_string(f->number);
    }
    s = versions_->LogAndApply(cfd, &edit, &mutex_);
    c->MarkFilesBeingCompacted(false);
    CompactionDone();
    if (s.ok()) {
      for (FileMetaData* f : c->inputs(0)) outputs->push_back(f->number);
      stats.count = 1;
      cfd->internal_stats.AddCompactionStats(c->output_level(), stats);
    }
    STRATA_LOG_INFO(info_log_, "moved table %s to L%d: %s: %s", numbers.c_str(),
                    c->output_level(), s.ToString().c_str(),
                    cfd->LevelSummary().c_str());
    return s;
  }

  CompactionJobOptions options;
  options.build = NewTableOptions(cfd);
  options.build.builder_options.compression = c->output_compression();
  options.build.io_priority = Env::IO_LOW;
  options.input_reads = CompactionInputReads(cfd->options());
  options.merge_operator = cfd->options().merge_operator.get();
  options.statistics = options_.statistics.get();
  options.shutting_down = &shutting_down_;
  options.new_file_number = [this]() {
    MutexLock l(&mutex_);
    const uint64_t number = versions_->NewFileNumber();
    pending_outputs_.insert(number);
    return number;
  };
  if (!options_.listeners.empty()) {
    options.output_started = [this, cfd, job_id](uint64_t number) {
      NotifyTableFileCreationStarted(NewTableFileInfo(
          cfd, number, job_id, TableFileCreationReason::kCompaction));
    };
    options.output_finished = [this, cfd, job_id](uint64_t number,
                                                  uint64_t size,
                                                  const Status& status) {
      TableFileCreationInfo created;
      static_cast<TableFileCreationBriefInfo&>(created) = NewTableFileInfo(
          cfd, number, job_id, TableFileCreationReason::kCompaction);
      created.file_size = size;
      created.status = status;
      NotifyTableFileCreated(created);
    };
  }
  // Versions a reader may still see: every snapshot, and the published
  // sequence (writes allocated but not yet published stay apart).
  std::vector<SequenceNumber> snapshots = snapshots_.Sequences();
  SetCompactionFilter(cfd, *c, snapshots, &options);
  snapshots.push_back(last_published_.load(std::memory_order_acquire));
  std::sort(snapshots.begin(), snapshots.end());
  CompactionJob job(options, c, std::move(snapshots),
                    last_allocated_.load(std::memory_order_acquire));

  mutex_.Unlock();
  s = job.Run();
  mutex_.Lock();

  if (s.ok()) {
    for (const FileMetaData& f : job.outputs()) outputs->push_back(f.number);
    job.AddToEdit(&edit);
    // A failed LogAndApply may still have put the edit in the MANIFEST
    // CURRENT names: the outputs stay. The next successful one writes a
    // new MANIFEST without them, and they become obsolete files.
    s = versions_->LogAndApply(cfd, &edit, &mutex_);
  }
  for (uint64_t number : job.file_numbers()) pending_outputs_.erase(number);
  c->MarkFilesBeingCompacted(false);
  CompactionDone();
  const LevelCompactionStats& stats = job.stats();
  if (s.ok()) {
    cfd->internal_stats.AddCompactionStats(c->output_level(), stats);
    STRATA_LOG_INFO(
        info_log_,
        "compacted to L%d: %d+%d files (%llu bytes) -> %d files (%llu "
        "bytes), %llu records in, %llu out, %llu us: %s",
        c->output_level(), stats.files_in_level, stats.files_in_output_level,
        static_cast<unsigned long long>(stats.bytes_read_level +
                                        stats.bytes_read_output_level),
        stats.files_out, static_cast<unsigned long long>(stats.bytes_written),
        static_cast<unsigned long long>(stats.records_in),
        static_cast<unsigned long long>(stats.records_in -
                                        stats.records_dropped),
        static_cast<unsigned long long>(stats.micros),
        cfd->LevelSummary().c_str());
  } else if (s.IsShutdownInProgress()) {
    STRATA_LOG_INFO(info_log_, "compaction to L%d stopped: %s",
                    c->output_level(), s.ToString().c_str());
  } else {
    STRATA_LOG_ERROR(info_log_, "compaction to L%d failed: %s",
                     c->output_level(), s.ToString().c_str());
  }
  return s;
}

void DBImpl::SetCompactionFilter(ColumnFamilyData* cfd, const Compaction& c,
                                 const std::vector<SequenceNumber>& snapshots,
                                 CompactionJobOptions* options) const {
  mutex_.AssertHeld();
  const Options& o = cfd->options();
  options->compaction_filter = o.compaction_filter;
  options->compaction_filter_factory = o.compaction_filter_factory.get();
  size_t inputs = 0;
  for (const LevelInputs& in : c.AllInputs()) inputs += in.files.size();
  size_t files = 0;
  const Version* v = cfd->current();
  for (int level = 0; level < v->num_levels(); level++) {
    files += v->NumFiles(level);
  }
  CompactionFilter::Context& context = options->filter_context;
  context.is_full_compaction = inputs == files;
  context.is_manual_compaction = c.is_manual();
  context.column_family_id = cfd->id();
  context.reason = TableFileCreationReason::kCompaction;
  options->has_snapshot = !snapshots.empty();
  if (options->has_snapshot) options->newest_snapshot = snapshots.back();
}

Status DBImpl::CompactLevelRange(ColumnFamilyData* cfd, int level,
                                 const Slice* begin, const Slice* end,
                                 bool in_place, int* output_level) {
  mutex_.AssertHeld();
  *output_level = -1;
  std::string resume;  // where the next step starts (after a cut step)
  Slice resume_slice;
  const Slice* from = begin;
  for (;;) {
    if (error_handler_.IsBGWorkStopped()) return error_handler_.GetBGError();
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    if (cfd->dropped()) return Status::ColumnFamilyDropped(cfd->name());
    if (ingestions_installing_ > 0 || compact_files_running_ > 0) {
      // An ingestion's files may land in this range; a CompactFiles may
      // be writing into a level this compaction would skip to.
      bg_cv_.Wait();
      continue;
    }
    Version* base = cfd->current();
    base->Ref();
    const LevelFilesView view = LevelFilesViewOf(*base);
    InternalKey compaction_end;
    bool conflict = false;
    // A compaction filter must see the files: none moves down unread.
    const bool filtered = cfd->options().compaction_filter != nullptr ||
                          cfd->options().compaction_filter_factory != nullptr;
    std::unique_ptr<Compaction> c = cfd->picker().CompactRange(
        view, level, from, end, &compaction_end, &conflict, filtered, in_place);
    // An in-place step may write anywhere between its inputs' bounds in
    // their own level, gaps included: as for CompactFiles, no running
    // compaction may write there, and none starts beside it.
    if (c != nullptr && in_place &&
        !CheckNoCompactionWritesThere(*base, *c).ok()) {
      c.reset();
      conflict = true;
    }
    Status s;
    if (c != nullptr) {
      *output_level = c->output_level();
      c->MarkFilesBeingCompacted(true);
      if (in_place) compact_files_running_++;
      s = RunCompaction(cfd, c.get());
      if (in_place) {
        compact_files_running_--;
        MaybeScheduleCompaction();
        bg_cv_.SignalAll();
      }
    } else if (conflict) {
      bg_cv_.Wait();  // a running compaction holds some inputs
    }
    base->Unref();
    if (c != nullptr && s.ok()) DeleteObsoleteFiles();
    if (c != nullptr) ReportStallChanges();
    if (!s.ok()) {
      if (!s.IsShutdownInProgress() && !s.IsColumnFamilyDropped()) {
        SetBackgroundError(s, BackgroundErrorReason::kCompaction);
      }
      return s;
    }
    if (c == nullptr && !conflict) return Status::OK();
    if (c != nullptr) {
      if (compaction_end.Encode().empty()) return Status::OK();
      resume = compaction_end.user_key().ToString();
      resume_slice = resume;
      from = &resume_slice;
    }
  }
}

int DBImpl::DeepestLevelOverlapping(ColumnFamilyData* cfd, const Slice* begin,
                                    const Slice* end) const {
  mutex_.AssertHeld();
  int deepest = 0;
  for (int l = 1; l < cfd->num_levels(); l++) {
    if (cfd->current()->OverlapInLevel(l, begin, end)) deepest = l;
  }
  return deepest;
}

Status DBImpl::CompactRange(const CompactRangeOptions& options,
                            ColumnFamilyHandle* column_family,
                            const Slice* begin, const Slice* end) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  if (begin != nullptr && end != nullptr &&
      cfd->user_comparator()->Compare(*begin, *end) > 0) {
    return Status::InvalidArgument("CompactRange: begin is after end");
  }
  s = FlushFamilies(FlushOptions(), {cfd});
  if (!s.ok()) return s;
  // As RocksDB 7.8: under kCompactionStyleNone the flush is all
  // CompactRange does (CompactFiles compacts).
  if (cfd->options().compaction_style == kCompactionStyleNone) return s;

  MutexLock l(&mutex_);
  if (closing_) return Status::ShutdownInProgress("the DB is closing");
  manual_compactions_++;
  if (options.exclusive_manual_compaction) {
    exclusive_manual_compactions_++;
    // Automatic compactions finish first: the range ends fully compacted.
    while (bg_compactions_scheduled_ > 0) bg_cv_.Wait();
  }
  // Level by level, down to the deepest level holding part of the range;
  // L0 always goes down (its files overlap each other). With a compaction
  // filter the deepest level is compacted into itself too, so that the
  // filter sees all of the range (RocksDB's kIfHaveCompactionFilter);
  // as in RocksDB, that is the deepest level at the start, so data only
  // in L0 is compacted once.
  cfd->Ref();
  const bool filtered = cfd->options().compaction_filter != nullptr ||
                        cfd->options().compaction_filter_factory != nullptr;
  const int last = cfd->num_levels() - 1;
  const int deepest_at_start = DeepestLevelOverlapping(cfd, begin, end);
  for (int level = 0; s.ok() && level <= last; level++) {
    const int deepest = DeepestLevelOverlapping(cfd, begin, end);
    if (level > 0 && level > deepest) break;
    const bool in_place =
        level > 0 && level == deepest && level <= deepest_at_start;
    if (level > 0 && level == deepest && !(in_place && filtered)) break;
    int output_level;
    s = CompactLevelRange(cfd, level, begin, end, in_place, &output_level);
    if (in_place) break;
    // L0 goes to the base level; the levels above it are empty.
    if (level == 0 && output_level > 1) level = output_level - 1;
  }
  cfd->Unref();
  if (options.exclusive_manual_compaction) exclusive_manual_compactions_--;
  manual_compactions_--;
  MaybeScheduleCompaction();
  bg_cv_.SignalAll();
  return s;
}

Status DBImpl::WaitForBackgroundWork() {
  MutexLock l(&mutex_);
  for (;;) {
    if (error_handler_.IsBGWorkStopped()) return error_handler_.GetBGError();
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    if (!flush_scheduled_ && bg_compactions_scheduled_ == 0 &&
        manual_compactions_ == 0) {
      // Nothing runs: start what is needed, or return if nothing is.
      // (Scheduling only then: a job finding its inputs busy would
      // otherwise be rescheduled in a loop.)
      MaybeScheduleFlush();
      MaybeScheduleCompaction();
      if (!flush_scheduled_ && bg_compactions_scheduled_ == 0) {
        return Status::OK();
      }
    }
    bg_cv_.Wait();
  }
}

}  // namespace strata
