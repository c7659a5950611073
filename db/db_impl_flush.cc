// DBImpl: flushes — immutable memtables written as level-0 tables on the
// HIGH pool — Flush(), and the memtable rule of the write stalls
// (docs/architecture.md, "The engine").
//
// One flush runs at a time. It takes every immutable memtable present
// when it starts (oldest first; newer ones may join imm_ meanwhile),
// writes them as one table without the mutex, then installs an edit that
// adds the table at level 0 and moves the log number to the WAL started
// when the newest of them was retired: every older WAL's data is then in
// tables. Only then are the memtables dropped from imm_, so a reader always
// finds the data in a memtable or in the current version. A failed flush
// installs nothing (BuildTable deletes a partial file) and becomes the
// background error: the memtables stay, their WALs stay live, and a
// reopen replays them.

#include <algorithm>

#include "db/builder.h"
#include "db/db_impl.h"
#include "db/filename.h"
#include "db/level_targets.h"
#include "memtable/memtable.h"
#include "table/merging_iterator.h"
#include "util/logging.h"
#include "util/mutexlock.h"
#include "util/stop_watch.h"

namespace strata {

MemTable* DBImpl::NewMemTable() const {
  const size_t block =
      std::min<size_t>(std::max<size_t>(options_.write_buffer_size / 8,
                                        ConcurrentArena::kMinBlockSize),
                       ConcurrentArena::kDefaultBlockSize);
  // A region may stay partly unused: at most an eighth of the buffer.
  const size_t region = options_.memtable_huge_page_size;
  const bool use_regions = region > 0 && port::HugePagesAvailable() &&
                           options_.write_buffer_size / 8 >= region;
  MemTableOptions options;
  options.arena_block_size = block;
  options.huge_page_region = use_regions ? region : 0;
  // ValidateOptions let through only the factories handled here.
  const auto* vector =
      dynamic_cast<const VectorRepFactory*>(options_.memtable_factory.get());
  if (vector != nullptr) {
    options.vector_rep = true;
    options.vector_reserve = vector->count();
  }
  if (options_.inplace_update_support) {
    options.inplace_update_locks = options_.inplace_update_num_locks;
  }
  return new MemTable(icmp_, options);
}

void DBImpl::MaybeScheduleFlush() {
  // Closing: Close flushes itself if it must; memtables left unflushed
  // are still in their WALs.
  if (flush_scheduled_ || closing_ || !bg_error_.ok() ||
      imm_.NumNotFlushed() == 0) {
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
  if (bg_error_.ok() && imm_.NumNotFlushed() > 0) {
    Status s = FlushMemTables();
    if (!s.ok()) {
      SetBackgroundError(s);
    } else {
      DeleteObsoleteFiles();
      MaybeScheduleCompaction();  // L0 grew
    }
  }
  flush_scheduled_ = false;
  MaybeScheduleFlush();  // memtables retired while this one ran
  bg_cv_.SignalAll();
}

Status DBImpl::FlushMemTables() {
  mutex_.AssertHeld();
  MemTableListVersion* imm = imm_.current();
  imm->Ref();  // keeps the memtables while the mutex is released
  const std::vector<MemTable*> mems(imm->memtables().rbegin(),
                                    imm->memtables().rend());
  const uint64_t next_log = imm_next_logs_[mems.size() - 1];
  VersionEdit edit;
  uint64_t number = 0;
  const uint64_t start = env_->NowMicros();
  Status s = WriteLevel0Table(mems, &edit, &number);
  if (s.ok()) {
    edit.SetLogNumber(next_log);
    // Once the WALs are gone, the MANIFEST is what keeps the sequence
    // from going back: it must cover every entry of the new table.
    versions_->SetLastSequence(
        std::max(versions_->LastSequence(), last_allocated_.load()));
    s = versions_->LogAndApply(&edit, &mutex_);
  }
  pending_outputs_.erase(number);
  if (s.ok()) {
    imm_.RemoveOldest(mems.size());
    imm_next_logs_.erase(imm_next_logs_.begin(),
                         imm_next_logs_.begin() + mems.size());
    memtables_flushed_ += mems.size();
    LevelCompactionStats stats;  // a flush is work at L0
    stats.micros = env_->NowMicros() - start;
    stats.count = 1;
    for (const auto& added : edit.new_files()) {
      stats.bytes_written += added.second.file_size;
      stats.files_out++;
      stats.records_in += added.second.num_entries;
    }
    internal_stats_.AddCompactionStats(0, stats);
    STRATA_LOG_INFO(info_log_, "flushed %zu memtable(s) to table %llu: %s",
                    mems.size(), static_cast<unsigned long long>(number),
                    versions_->LevelSummary().c_str());
  } else {
    STRATA_LOG_ERROR(info_log_, "flush to table %llu failed: %s",
                     static_cast<unsigned long long>(number),
                     s.ToString().c_str());
  }
  imm->Unref();
  return s;
}

Status DBImpl::WriteLevel0Table(const std::vector<MemTable*>& mems,
                                VersionEdit* edit, uint64_t* number) {
  mutex_.AssertHeld();
  FileMetaData meta;
  // Numbered and pending in one critical section: DeleteObsoleteFiles
  // never sees the number unprotected.
  meta.number = versions_->NewFileNumber();
  pending_outputs_.insert(meta.number);
  *number = meta.number;
  mutex_.Unlock();

  std::vector<InternalIterator*> points;
  std::vector<InternalIterator*> tombstones;
  for (MemTable* m : mems) {
    points.push_back(m->NewIterator());
    InternalIterator* t = m->NewRangeTombstoneIterator();
    if (t != nullptr) tombstones.push_back(t);
  }
  std::unique_ptr<InternalIterator> iter(
      NewMergingIterator(&icmp_, std::move(points)));
  std::unique_ptr<InternalIterator> range_iter(
      tombstones.empty() ? nullptr
                         : NewMergingIterator(&icmp_, std::move(tombstones)));
  Status s = BuildTable(NewTableOptions(), iter.get(), range_iter.get(), &meta);
  if (s.ok() && meta.file_size > 0) {
    // The table's name must be durable before an edit names it.
    s = SyncDBDirectory(env_, dbname_);
    if (!s.ok()) env_->RemoveFile(TableFileName(dbname_, meta.number));
  }

  mutex_.Lock();
  if (s.ok() && meta.file_size > 0) edit->AddFile(0, meta);
  return s;
}

BuildTableOptions DBImpl::NewTableOptions() const {
  BuildTableOptions options;
  options.env = env_;
  options.dbname = dbname_;
  options.table_factory = options_.table_factory.get();
  options.builder_options.icmp = &icmp_;
  // L0's; a compaction replaces it with its output level's.
  options.builder_options.compression =
      CompressionForLevel(options_.compression, options_.compression_per_level,
                          0, /*base_level=*/1);
  options.builder_options.prefix_extractor = options_.prefix_extractor.get();
  options.builder_options.creation_time = env_->NowMicros() / 1000000;
  options.env_options = EnvOptions(options_);
  options.use_fsync = options_.use_fsync;
  options.table_cache = table_cache_.get();
  options.paranoid_file_checks = options_.paranoid_file_checks;
  return options;
}

Status DBImpl::WaitForWriteRoom(WriteThread::WriteGroup* group, bool full) {
  mutex_.AssertHeld();
  Statistics* stats = options_.statistics.get();
  const uint64_t start = env_->NowMicros();
  bool stalled = false;
  Status s;
  for (;;) {
    WriteStallInputs in;
    in.num_unflushed_memtables = imm_.NumNotFlushed() + (full ? 1 : 0);
    in.max_write_buffer_number = options_.max_write_buffer_number;
    in.num_l0_files = versions_->NumLevelFiles(0);
    in.level0_slowdown_writes_trigger = options_.level0_slowdown_writes_trigger;
    in.level0_stop_writes_trigger = options_.level0_stop_writes_trigger;
    in.disable_auto_compactions = options_.disable_auto_compactions;
    std::string reason;
    const WriteStallCondition c = ComputeWriteStall(in, &reason);
    write_controller_.SetCondition(c);
    if (c == WriteStallCondition::kNormal) break;
    if (group->no_slowdown()) {
      s = Status::Incomplete("write stall: ", reason);
      break;
    }
    stalled = true;
    if (closing_) {
      // No compaction starts once the DB is closing: the stall would
      // never end, and Close waits for this group.
      s = Status::ShutdownInProgress("the DB is closing");
      break;
    }
    if (c == WriteStallCondition::kStopped) {
      if (write_stop_wait_callback_) write_stop_wait_callback_();
      bg_cv_.Wait();
    } else {
      uint64_t bytes = 0;
      for (WriteThread::Writer* w : *group) {
        if (w->batch != nullptr) bytes += w->batch->GetDataSize();
      }
      const uint64_t delay =
          write_controller_.GetDelay(env_->NowMicros(), bytes);
      mutex_.Unlock();
      env_->SleepForMicroseconds(static_cast<int>(delay));
      mutex_.Lock();
      break;  // paid for; the next group asks again
    }
    if (!bg_error_.ok()) {
      s = bg_error_;
      break;
    }
  }
  if (stalled) {
    const uint64_t micros = env_->NowMicros() - start;
    internal_stats_.AddStallMicros(micros);
    RecordTick(stats, STALL_MICROS, micros);
    if (stats != nullptr) stats->recordInHistogram(WRITE_STALL, micros);
  }
  return s;
}

Status DBImpl::Flush(const FlushOptions& options) {
  uint64_t target;
  {
    MutexLock l(&mutex_);
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    flush_requested_ = true;
  }
  // The switch happens in a group's PrepareGroup, where no leader is
  // inserting into the memtable being retired.
  WriteThread::Writer request(WriteOptions(), nullptr);
  Status s = write_thread_.Write(&request);
  MutexLock l(&mutex_);
  if (!s.ok()) return s;
  // Still requested after the group: the memtable was not retired, as
  // its new WAL could not be created (writes go on into the old one).
  if (flush_requested_ && !switch_error_.ok()) return switch_error_;
  target = memtables_retired_;
  while (options.wait && memtables_flushed_ < target && bg_error_.ok()) {
    if (closing_ && !flush_scheduled_) {
      // No flush starts once the DB is closing; the memtables left are
      // in their WALs.
      return Status::ShutdownInProgress("the DB closed before the flush");
    }
    bg_cv_.Wait();
  }
  return memtables_flushed_ >= target || !options.wait ? Status::OK()
                                                       : bg_error_;
}

}  // namespace strata
