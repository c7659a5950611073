// DBImpl: flushes — immutable memtables written as level-0 tables on the
// HIGH pool — and Flush() (docs/architecture.md, "The engine").
//
// One flush runs at a time, for the family whose memtables hold the
// oldest WAL (with atomic_flush, for every family with memtables
// waiting). It takes every immutable memtable of the family present when
// it starts (oldest first; newer ones may join meanwhile), writes them as
// one table without the mutex, then installs an edit that adds the table
// at level 0 and moves the family's log number to the WAL started when
// the newest of them was retired: every older WAL's data of the family is
// then in tables. Families with nothing unflushed move their log numbers
// to the current WAL in the same record, so WALs only they kept live can
// go. Only then are the memtables dropped from the immutable list, so a
// reader always finds the data in a memtable or in the current version.
// A failed flush installs nothing (BuildTable deletes a partial file) and
// becomes the background error: the memtables stay, their WALs stay live,
// and a reopen replays them.

#include <algorithm>

#include "db/builder.h"
#include "db/compaction_filter_use.h"
#include "db/compaction_iterator.h"
#include "db/db_impl.h"
#include "db/filename.h"
#include "db/level_targets.h"
#include "db/range_del_aggregator.h"
#include "memtable/memtable.h"
#include "table/merging_iterator.h"
#include "util/logging.h"
#include "util/mutexlock.h"
#include "util/stop_watch.h"

namespace strata {

ColumnFamilyData* DBImpl::PickFlush() const {
  ColumnFamilyData* pick = nullptr;
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    if (cfd->imm.NumNotFlushed() == 0) continue;
    if (pick == nullptr ||
        cfd->imm_next_logs.front() < pick->imm_next_logs.front()) {
      pick = cfd;
    }
  }
  return pick;
}

void DBImpl::MaybeScheduleFlush() {
  // Closing: Close flushes itself if it must; memtables left unflushed
  // are still in their WALs.
  if (flush_scheduled_ || closing_ || error_handler_.IsDBStopped() ||
      PickFlush() == nullptr) {
    return;
  }
  flush_scheduled_ = true;
  env_->Schedule(&DBImpl::BGWorkFlush, this, Env::HIGH);
}

void DBImpl::BGWorkFlush(void* db) {
  static_cast<DBImpl*>(db)->BackgroundFlush();
}

void DBImpl::BackgroundFlush() {
  MutexLock l(&mutex_);
  ColumnFamilyData* pick = error_handler_.IsDBStopped() ? nullptr : PickFlush();
  if (pick != nullptr) {
    // With atomic_flush every family with memtables waiting goes in the
    // same MANIFEST record.
    std::vector<ColumnFamilyData*> cfds;
    if (options_.atomic_flush) {
      for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
        if (cfd->imm.NumNotFlushed() > 0) cfds.push_back(cfd);
      }
    } else {
      cfds.push_back(pick);
    }
    Status s = FlushMemTables(cfds);
    if (!s.ok()) {
      SetBackgroundError(s, BackgroundErrorReason::kFlush);
    } else {
      DeleteObsoleteFiles();
      MaybeScheduleCompaction();  // L0 grew
    }
    ReportStallChanges();
  }
  flush_scheduled_ = false;
  MaybeScheduleFlush();  // memtables retired while this one ran
  bg_cv_.SignalAll();
}

Status DBImpl::FlushMemTables(const std::vector<ColumnFamilyData*>& cfds,
                              FlushReason reason) {
  mutex_.AssertHeld();
  // What each family flushes: its immutable memtables now, oldest first
  // (newer ones may join meanwhile), kept by a ref on their list version.
  struct Job {
    ColumnFamilyData* cfd;
    MemTableListVersion* imm;
    std::vector<MemTable*> mems;
    VersionEdit edit;
    uint64_t number = 0;
    FlushJobInfo info{};
  };
  std::vector<Job> jobs;
  for (ColumnFamilyData* cfd : cfds) {
    if (cfd->imm.NumNotFlushed() == 0) continue;
    Job job;
    job.cfd = cfd;
    job.info.flush_reason = reason;
    job.imm = cfd->imm.current();
    job.mems.assign(job.imm->memtables().rbegin(), job.imm->memtables().rend());
    cfd->Ref();
    job.imm->Ref();
    jobs.push_back(std::move(job));
  }
  const uint64_t start = env_->NowMicros();
  Status s;
  for (Job& job : jobs) {
    if (s.ok()) {
      s = WriteLevel0Table(job.cfd, job.mems, &job.edit, &job.number,
                           &job.info);
    }
    job.edit.SetLogNumber(job.cfd->imm_next_logs[job.mems.size() - 1]);
  }
  std::vector<ColumnFamilyData*> group;
  std::vector<VersionEdit*> edits;
  for (Job& job : jobs) {
    if (job.cfd->dropped()) continue;  // its data went with it
    group.push_back(job.cfd);
    edits.push_back(&job.edit);
  }
  // Families with nothing unflushed need no WAL before the current one:
  // moving their log numbers along lets the older WALs go.
  std::vector<VersionEdit> idle;
  std::vector<ColumnFamilyData*> idle_cfds;
  const uint64_t current_log = live_logs_.back().number;
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    if (std::find(cfds.begin(), cfds.end(), cfd) == cfds.end() &&
        cfd->mem->num_entries() == 0 && cfd->imm.NumNotFlushed() == 0 &&
        cfd->log_number() < current_log) {
      idle_cfds.push_back(cfd);
    }
  }
  idle.resize(idle_cfds.size());
  for (size_t i = 0; i < idle_cfds.size(); i++) {
    idle[i].SetLogNumber(current_log);
    group.push_back(idle_cfds[i]);
    edits.push_back(&idle[i]);
  }
  if (s.ok() && !group.empty() && DefersWALSync() &&
      versions_->column_families()->All().size() > 1) {
    // The WALs this flush lets its families skip may hold other families'
    // halves of the same batches: they must be durable before this half
    // is, or a power loss leaves the batches torn (RocksDB syncs its
    // closed WALs before a flush for the same reason).
    mutex_.Unlock();
    {
      MutexLock l(&log_mutex_);
      s = SyncLogs();
    }
    mutex_.Lock();
  }
  if (s.ok() && !group.empty()) {
    // Once the WALs are gone, the MANIFEST is what keeps the sequence
    // from going back: it must cover every entry of the new tables.
    versions_->SetLastSequence(
        std::max(versions_->LastSequence(), last_allocated_.load()));
    s = versions_->LogAndApply(group, edits, &mutex_);
  }
  std::vector<FlushJobInfo> completed;
  for (Job& job : jobs) {
    pending_outputs_.erase(job.number);
    ColumnFamilyData* cfd = job.cfd;
    if (s.ok() && !cfd->dropped()) {
      for (const auto& added : job.edit.new_files()) {
        FlushJobInfo info = job.info;
        info.smallest_seqno = added.second.smallest_seqno;
        info.largest_seqno = added.second.largest_seqno;
        std::string why;
        const WriteStallCondition c = FamilyStall(cfd, false, &why);
        info.triggered_writes_slowdown = c == WriteStallCondition::kDelayed;
        info.triggered_writes_stop = c == WriteStallCondition::kStopped;
        completed.push_back(info);
      }
      cfd->imm.RemoveOldest(job.mems.size());
      cfd->charges.Drop(write_buffer_manager_, job.mems.size());
      cfd->imm_next_logs.erase(cfd->imm_next_logs.begin(),
                               cfd->imm_next_logs.begin() + job.mems.size());
      cfd->memtables_flushed += job.mems.size();
      LevelCompactionStats stats;  // a flush is work at L0
      stats.micros = env_->NowMicros() - start;
      stats.count = 1;
      for (const auto& added : job.edit.new_files()) {
        stats.bytes_written += added.second.file_size;
        stats.files_out++;
        stats.records_in += added.second.num_entries;
      }
      cfd->internal_stats.AddCompactionStats(0, stats);
      STRATA_LOG_INFO(info_log_,
                      "flushed %zu memtable(s) of %s to table %llu: %s",
                      job.mems.size(), cfd->name().c_str(),
                      static_cast<unsigned long long>(job.number),
                      cfd->LevelSummary().c_str());
    } else if (!s.ok()) {
      STRATA_LOG_ERROR(info_log_, "flush of %s to table %llu failed: %s",
                       cfd->name().c_str(),
                       static_cast<unsigned long long>(job.number),
                       s.ToString().c_str());
    }
    job.imm->Unref();
    cfd->Unref();
  }
  // A family dropped during the flush is no failure of the DB.
  if (s.IsColumnFamilyDropped()) s = Status::OK();
  NotifyFlushCompleted(completed);
  return s;
}

Status DBImpl::WriteLevel0Table(ColumnFamilyData* cfd,
                                const std::vector<MemTable*>& mems,
                                VersionEdit* edit, uint64_t* number,
                                FlushJobInfo* info) {
  mutex_.AssertHeld();
  FileMetaData meta;
  // Numbered and pending in one critical section: DeleteObsoleteFiles
  // never sees the number unprotected.
  meta.number = versions_->NewFileNumber();
  pending_outputs_.insert(meta.number);
  *number = meta.number;
  const int job_id = NewJobId();
  if (info != nullptr) {
    info->cf_id = cfd->id();
    info->cf_name = cfd->name();
    info->file_path = TableFileName(dbname_, meta.number);
    info->file_number = meta.number;
    info->thread_id = env_->GetThreadID();
    info->job_id = job_id;
  }
  TableFileCreationInfo created;
  static_cast<TableFileCreationBriefInfo&>(created) =
      NewTableFileInfo(cfd, meta.number, job_id,
                       info != nullptr ? TableFileCreationReason::kFlush
                                       : TableFileCreationReason::kRecovery);
  // The versions readers may see, which the flush keeps as a compaction
  // does: a version hidden by a newer one of its stripe is not written,
  // and merge operands are combined (and filtered, should a compaction
  // filter ask to see this table).
  std::vector<SequenceNumber> snapshots = snapshots_.Sequences();
  CompactionFilterUse filter;
  filter.has_snapshot = !snapshots.empty();
  if (filter.has_snapshot) filter.newest_snapshot = snapshots.back();
  snapshots.push_back(last_published_.load(std::memory_order_acquire));
  std::sort(snapshots.begin(), snapshots.end());
  mutex_.Unlock();
  if (info != nullptr) NotifyFlushBegin(*info);
  NotifyTableFileCreationStarted(created);

  std::vector<InternalIterator*> points;
  std::vector<InternalIterator*> tombstones;
  for (MemTable* m : mems) {
    points.push_back(m->NewIterator());
    InternalIterator* t = m->NewRangeTombstoneIterator();
    if (t != nullptr) tombstones.push_back(t);
  }
  std::unique_ptr<InternalIterator> iter(
      NewMergingIterator(&cfd->icmp(), std::move(points)));
  std::unique_ptr<InternalIterator> range_iter(
      tombstones.empty()
          ? nullptr
          : NewMergingIterator(&cfd->icmp(), std::move(tombstones)));
  const Options& o = cfd->options();
  CompactionFilter::Context context{false, false, cfd->id(), created.reason};
  std::unique_ptr<CompactionFilter> owned_filter;
  Status s = PickCompactionFilter(o.compaction_filter,
                                  o.compaction_filter_factory.get(), context,
                                  &owned_filter, &filter.filter);
  // The memtables' range tombstones, so that an entry one of them covers
  // in its stripe is dropped rather than merged with newer operands.
  RangeDelAggregator covering =
      RangeDelAggregator::ForCompaction(cfd->user_comparator(), snapshots);
  for (MemTable* m : mems) {
    std::unique_ptr<InternalIterator> t(m->NewRangeTombstoneIterator());
    if (s.ok() && t != nullptr) s = covering.AddTombstones(t.get());
  }
  if (s.ok()) {
    CompactionIterator::CoveredFunction covered;
    if (!covering.IsEmpty()) covered = covering.ShouldDeleteFunction();
    std::unique_ptr<InternalIterator> kept = NewFlushIterator(
        iter.get(), cfd->user_comparator(), std::move(snapshots),
        o.merge_operator.get(), std::move(covered), filter);
    s = BuildTable(NewTableOptions(cfd), kept.get(), range_iter.get(), &meta);
  }
  if (s.ok() && meta.file_size > 0) {
    // The table's name must be durable before an edit names it.
    s = SyncDBDirectory(env_, dbname_);
    if (!s.ok()) env_->RemoveFile(TableFileName(dbname_, meta.number));
  }
  // An empty result leaves no file, which RocksDB reports as "(nil)".
  if (s.ok() && meta.file_size == 0) created.file_path = "(nil)";
  created.file_size = s.ok() ? meta.file_size : 0;
  created.status = s;
  NotifyTableFileCreated(created);
  RecordTick(options_.statistics.get(), FLUSH_WRITE_BYTES, created.file_size);

  mutex_.Lock();
  if (s.ok() && meta.file_size > 0) edit->AddFile(0, meta);
  return s;
}

BuildTableOptions DBImpl::NewTableOptions(const ColumnFamilyData* cfd) const {
  return TableOptionsFor(env_, dbname_, *cfd);
}

Status DBImpl::Flush(const FlushOptions& options,
                     ColumnFamilyHandle* column_family) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  return FlushFamilies(options, {cfd});
}

Status DBImpl::Flush(const FlushOptions& options,
                     const std::vector<ColumnFamilyHandle*>& column_families) {
  std::vector<ColumnFamilyData*> cfds;
  Status s = FamiliesOf(column_families, &cfds);
  return s.ok() ? FlushFamilies(options, cfds) : s;
}

Status DBImpl::FlushFamilies(const FlushOptions& options,
                             const std::vector<ColumnFamilyData*>& cfds) {
  {
    MutexLock l(&mutex_);
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    for (ColumnFamilyData* cfd : cfds) {
      if (cfd->dropped()) {
        return Status::ColumnFamilyDropped("Flush: ", cfd->name());
      }
      cfd->flush_requested = true;
    }
  }
  // The switch happens in a group's PrepareGroup, where no leader is
  // inserting into the memtables being retired.
  WriteThread::Writer request(WriteOptions(), nullptr);
  Status s = write_thread_.Write(&request);
  MutexLock l(&mutex_);
  if (!s.ok()) return s;
  std::vector<std::pair<ColumnFamilyData*, uint64_t>> targets;
  for (ColumnFamilyData* cfd : cfds) {
    // Still requested after the group: the memtable was not retired, as
    // its new WAL could not be created (writes go on into the old one).
    if (cfd->flush_requested && !switch_error_.ok()) return switch_error_;
    targets.emplace_back(cfd, cfd->memtables_retired);
  }
  for (const auto& target : targets) {
    ColumnFamilyData* cfd = target.first;
    while (options.wait && cfd->memtables_flushed < target.second &&
           !error_handler_.IsDBStopped() && !cfd->dropped()) {
      if (closing_ && !flush_scheduled_) {
        // No flush starts once the DB is closing; the memtables left are
        // in their WALs.
        return Status::ShutdownInProgress("the DB closed before the flush");
      }
      bg_cv_.Wait();
    }
    if (options.wait && cfd->memtables_flushed < target.second) {
      return cfd->dropped()
                 ? Status::ColumnFamilyDropped("Flush: ", cfd->name())
                 : error_handler_.GetBGError();
    }
  }
  return Status::OK();
}

}  // namespace strata
