// DBImpl: the write path. DB::Write hands a batch to the write thread; the
// leader of each group calls back into the CommitEnv methods below:
// PrepareGroup, AllocateSequence, WriteWAL, then the memtable inserts
// (ApplyMemTable by the leader, or InsertMember by each member in the
// parallel and unordered modes) and Publish (docs/write_path.md).

#include <algorithm>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/memtable_inserter.h"
#include "db/write_batch_internal.h"
#include "env/file_writer.h"
#include "memtable/memtable.h"
#include "util/kill_point.h"
#include "util/logging.h"
#include "util/mutexlock.h"
#include "util/stop_watch.h"

namespace strata {

Status DB::Put(const WriteOptions& options, ColumnFamilyHandle* column_family,
               const Slice& key, const Slice& value) {
  WriteBatch batch(key.size() + value.size() + 24);
  Status s = batch.Put(column_family, key, value);
  return s.ok() ? Write(options, &batch) : s;
}

Status DB::Delete(const WriteOptions& options,
                  ColumnFamilyHandle* column_family, const Slice& key) {
  WriteBatch batch(key.size() + 24);
  Status s = batch.Delete(column_family, key);
  return s.ok() ? Write(options, &batch) : s;
}

Status DB::SingleDelete(const WriteOptions& options,
                        ColumnFamilyHandle* column_family, const Slice& key) {
  WriteBatch batch(key.size() + 24);
  Status s = batch.SingleDelete(column_family, key);
  return s.ok() ? Write(options, &batch) : s;
}

Status DB::DeleteRange(const WriteOptions& options,
                       ColumnFamilyHandle* column_family,
                       const Slice& begin_key, const Slice& end_key) {
  WriteBatch batch;
  Status s = batch.DeleteRange(column_family, begin_key, end_key);
  return s.ok() ? Write(options, &batch) : s;
}

Status DB::Merge(const WriteOptions& options, ColumnFamilyHandle* column_family,
                 const Slice& key, const Slice& value) {
  WriteBatch batch;
  Status s = batch.Merge(column_family, key, value);
  return s.ok() ? Write(options, &batch) : s;
}

DB::~DB() = default;

Status DBImpl::Put(const WriteOptions& options,
                   ColumnFamilyHandle* column_family, const Slice& key,
                   const Slice& value) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  return s.ok() ? DB::Put(options, column_family, key, value) : s;
}

Status DBImpl::Delete(const WriteOptions& options,
                      ColumnFamilyHandle* column_family, const Slice& key) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  return s.ok() ? DB::Delete(options, column_family, key) : s;
}

Status DBImpl::SingleDelete(const WriteOptions& options,
                            ColumnFamilyHandle* column_family,
                            const Slice& key) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  return s.ok() ? DB::SingleDelete(options, column_family, key) : s;
}

Status DBImpl::Merge(const WriteOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& key,
                     const Slice& value) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  // RocksDB's answer for a single Merge (a batch holding one is
  // InvalidArgument, below). merge_operator never changes after Open.
  if (cfd->options().merge_operator == nullptr) {
    return Status::NotSupported("Merge: column family " + cfd->name() +
                                " has no merge_operator");
  }
  return DB::Merge(options, column_family, key, value);
}

Status DBImpl::DeleteRange(const WriteOptions& options,
                           ColumnFamilyHandle* column_family,
                           const Slice& begin_key, const Slice& end_key) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  // As RocksDB: an empty range deletes nothing, a reversed one is an error.
  const int order = cfd->user_comparator()->Compare(begin_key, end_key);
  if (order > 0) {
    return Status::InvalidArgument("DeleteRange: the end key comes before ",
                                   "the begin key");
  }
  if (order == 0) return Status::OK();
  return DB::DeleteRange(options, column_family, begin_key, end_key);
}

Status DBImpl::Write(const WriteOptions& options, WriteBatch* updates) {
  return WriteImpl(options, updates, nullptr, /*markers_allowed=*/false);
}

Status DBImpl::WriteWithCallback(const WriteOptions& options,
                                 WriteBatch* updates, WriteCallback* callback) {
  return WriteImpl(options, updates, callback, /*markers_allowed=*/true);
}

Status DBImpl::WriteImpl(const WriteOptions& options, WriteBatch* updates,
                         WriteCallback* callback, bool markers_allowed) {
  if (options.sync && options.disableWAL) {
    return Status::InvalidArgument("WriteOptions: sync and disableWAL");
  }
  if (updates == nullptr) {
    return Status::InvalidArgument("DB::Write: the batch is null");
  }
  // Refused here, before the batch can reach the WAL, so that a program's
  // mistake never becomes the DB's background error. Bytes from outside
  // must decode (only such batches pay for the parse). A record for a
  // family that does not exist could not be applied, reads could never
  // resolve merge operands without a merge operator, and a reversed range
  // is refused as DB::DeleteRange refuses it (only batches that name a
  // family or hold a range deletion pay for that walk).
  if (WriteBatchInternal::NeedsValidation(updates)) {
    Status s = WriteBatchInternal::ValidateUnchecked(updates);
    if (!s.ok()) return s;
  }
  if (WriteBatchInternal::HasTwoPhaseMarkers(updates)) {
    // A prepared section would be skipped by the memtables and kept by
    // nobody: the batch's updates would vanish without an error.
    if (!markers_allowed) {
      return Status::InvalidArgument(
          "DB::Write: the batch holds two-phase commit markers, which only a "
          "TransactionDB writes");
    }
    // Only the WAL keeps a prepared section, and only a DB tracking the
    // sections' WALs keeps them long enough.
    if (options.disableWAL) {
      return Status::InvalidArgument(
          "two-phase commit records need the WAL: WriteOptions::disableWAL "
          "is set");
    }
    if (!two_phase_allowed_.load(std::memory_order_acquire)) {
      return Status::InvalidArgument(
          "two-phase commit records need DBOptions::allow_2pc");
    }
    // Sections that nest or do not end would fail in the memtables, after
    // the WAL took the batch: checked first.
    Status s = WriteBatchInternal::CheckPreparedSections(updates);
    if (!s.ok()) return s;
  }
  if (WriteBatchInternal::HasNonDefaultColumnFamily(updates) ||
      updates->HasDeleteRange()) {
    Status s =
        CheckBatchFamilies(updates, options.ignore_missing_column_families);
    if (!s.ok()) return s;
  } else if (updates->HasMerge() &&
             default_cfd_->options().merge_operator == nullptr) {
    return Status::InvalidArgument(
        "Merge needs Options::merge_operator, which is not set");
  }
  Statistics* stats = options_.statistics.get();
  StopWatch timer(env_, stats, DB_WRITE);
  WriteThread::Writer writer(options, updates, callback);
  Status s = write_thread_.Write(&writer);
  if (s.ok()) {
    RecordTick(stats, NUMBER_KEYS_WRITTEN, updates->Count());
    RecordTick(stats, BYTES_WRITTEN, updates->GetDataSize());
  }
  return s;
}

Status DBImpl::PrepareGroup(WriteThread::WriteGroup* group) {
  MutexLock l(&mutex_);
  if (closing_) return Status::ShutdownInProgress("the DB is closing");
  if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
  if (!ingest_jobs_.empty()) {
    // Ingestions run here, before this group's numbers are allocated:
    // every write before them is applied, none after them has begun.
    RunIngestJobs();
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
  }
  if (group->leader()->callback != nullptr) {
    // The callback reads what every earlier group wrote
    // (db/write_callback.h); in the pipelined and unordered modes some
    // inserts may still be running.
    WaitForMemTableWrites();
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
  }
  if (routes_stale_) {
    // A family was created or dropped: no insert may use the old routes.
    WaitForMemTableWrites();
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
    RebuildRoutes();
  }
  const std::vector<ColumnFamilyData*>& families =
      routes_.load(std::memory_order_relaxed)->all();
  Status s;
  bool flush_requested = false;
  for (ColumnFamilyData* cfd : families) {
    flush_requested = flush_requested || cfd->flush_requested;
  }
  if (flush_requested) {
    // A flush covers every write published before it. In the unordered
    // and pipelined modes some may still be on their way into the
    // memtable, which may even look empty meanwhile.
    WaitForMemTableWrites();
    // The wait released mutex_: an insert may have failed meanwhile.
    if (closing_) return Status::ShutdownInProgress("the DB is closing");
    if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
  }
  std::vector<ColumnFamilyData*>& switching = switching_;
  switching.clear();
  bool l0_slowdown = false;
  for (ColumnFamilyData* cfd : families) {
    const Options& o = cfd->options();
    const MemTable* mem = cfd->mem;
    const size_t usage = mem->ApproximateMemoryUsage();
    // The memtable budget learns what the groups before this one added.
    cfd->charges.Grow(write_buffer_manager_, usage);
    const bool full = usage >= o.write_buffer_size && mem->num_entries() > 0;
    if (full || (cfd->flush_requested && mem->num_entries() > 0)) {
      switching.push_back(cfd);
    } else {
      cfd->flush_requested = false;  // nothing to flush
    }
    l0_slowdown = l0_slowdown || (!o.disable_auto_compactions &&
                                  cfd->current()->NumFiles(0) >=
                                      o.level0_slowdown_writes_trigger);
  }
  if (write_buffer_manager_ != nullptr) {
    PickForWriteBufferManager(families, &switching);
  }
  if (families.size() > 1) PickForWALSize(families, &switching);
  if (!switching.empty() && options_.atomic_flush) {
    // The families are flushed together: every one with data retires its
    // memtable now.
    switching.clear();
    for (ColumnFamilyData* cfd : families) {
      if (cfd->mem->num_entries() > 0) switching.push_back(cfd);
    }
  }
  if (!switching.empty()) {
    s = WaitForWriteRoom(group, switching);
    // Inserts still running into the memtables being retired finish
    // first: a flush must find them complete.
    if (s.ok()) {
      WaitForMemTableWrites();
      if (closing_) s = Status::ShutdownInProgress("the DB is closing");
      if (s.ok()) s = WriteStopStatus();
    }
    // A family dropped while this leader waited keeps its memtable: it
    // will never be flushed (nor charged to the budget again).
    switching.erase(std::remove_if(switching.begin(), switching.end(),
                                   [](const ColumnFamilyData* cfd) {
                                     return cfd->dropped();
                                   }),
                    switching.end());
    if (s.ok() && !switching.empty()) {
      s = SwitchMemTables(switching);
      // No new WAL (the background error is not set): keep writing to the
      // current memtables and WAL; the next group tries again.
      if (!s.ok() && !error_handler_.IsDBStopped()) s = Status::OK();
    }
    if (!s.ok()) return s;
  } else if (l0_slowdown) {
    // The level-0 rules of the write stalls hold for every group.
    s = WaitForWriteRoom(group, switching);
    if (!s.ok()) return s;
  }
  if (write_buffer_manager_ != nullptr &&
      write_buffer_manager_->ShouldStall()) {
    s = WaitForWriteBuffer(group);
    if (!s.ok()) return s;
  }
  uint64_t writes = 0, keys = 0, bytes = 0;
  for (WriteThread::Writer* w : *group) {
    if (w->batch == nullptr || w->batch->Count() == 0) continue;
    writes++;
    keys += w->batch->Count();
    bytes += w->batch->GetDataSize();
  }
  if (group->disable_wal() && keys > 0) has_unlogged_writes_ = true;
  InternalStats& stats = default_cfd_->internal_stats;
  stats.AddUserWrites(writes, keys);
  stats.AddUserBytes(bytes);
  if (writes > 0 && !group->disable_wal()) {
    // The group's one WAL record: the batches merged under one header.
    stats.AddWalBytes(bytes - WriteBatchInternal::kHeader * (writes - 1));
    if (group->need_sync()) stats.AddWalSync(group->size());
  }
  for (ColumnFamilyData* cfd : families) {
    cfd->write_mem.store(cfd->mem, std::memory_order_release);
  }
  return s;
}

SequenceNumber DBImpl::AllocateSequence(uint64_t count) {
  return last_allocated_.fetch_add(count, std::memory_order_relaxed) + 1;
}

Status DBImpl::WriteWAL(WriteThread::WriteGroup* group) {
  // One record for the whole group: the members' batches concatenated in
  // queue order under the group's first sequence number.
  WriteBatch* merged = nullptr;
  size_t members = 0;
  for (WriteThread::Writer* w : *group) {
    // A commit or rollback marker alone has no update, but must be logged.
    if (w->batch == nullptr ||
        (w->batch->Count() == 0 &&
         !WriteBatchInternal::HasTwoPhaseMarkers(w->batch))) {
      continue;
    }
    WriteBatchInternal::SetSequence(w->batch, w->sequence);
    if (members == 0) {
      merged = w->batch;
    } else {
      if (members == 1) {
        // A copy, flags and all: the leader's batch passed DB::Write's
        // checks, so its bytes need no second decoding.
        group_batch_ = *merged;
        merged = &group_batch_;
      }
      WriteBatchInternal::Append(merged, w->batch);
    }
    members++;
  }
  Statistics* stats = options_.statistics.get();
  Status s;
  {
    MutexLock l(&log_mutex_);
    if (merged != nullptr) {
      const Slice record = WriteBatchInternal::Contents(merged);
      TEST_KILL_POINT("WAL::Append");
      s = log_->AddRecord(record);
      if (s.ok()) RecordTwoPhaseMarkers(group);
      RecordTick(stats, WAL_FILE_BYTES, record.size());
    }
    // In the OS before the write is acknowledged: a process crash then
    // loses nothing acknowledged. A synced group's record goes out with its
    // sync, in one durable write where the WAL is write-through
    // (WritableFile::AppendAndSync).
    if (s.ok() && group->need_sync()) {
      StopWatch timer(env_, stats, WAL_FILE_SYNC_MICROS);
      s = SyncLogs();  // retired WALs first
      RecordTick(stats, WAL_FILE_SYNCED);
      RecordTick(stats, WAL_FILE_SYNCED_WRITES, group->size());
    } else if (s.ok() && merged != nullptr) {
      s = log_->file()->Flush();
    }
    // Only a whole record counts: after a failure this stays where the
    // last complete one ended (RetireLog of a failed WAL).
    if (s.ok() && merged != nullptr) {
      log_bytes_.store(log_->file()->GetFileSize(), std::memory_order_relaxed);
    }
  }

  if (members > 1) group_batch_.Clear();
  if (!s.ok()) {
    // The WAL may now end in a partial record: no later write may follow.
    MutexLock ml(&mutex_);
    SetBackgroundError(s, BackgroundErrorReason::kWriteCallback);
  }
  return s;
}

void DBImpl::RecordTwoPhaseMarkers(WriteThread::WriteGroup* group) {
  for (WriteThread::Writer* w : *group) {
    if (w->batch != nullptr &&
        WriteBatchInternal::HasTwoPhaseMarkers(w->batch)) {
      prepared_logs_.Record(*w->batch, log_->log_number());
    }
  }
}

Status DBImpl::ApplyMemTable(WriteThread::WriteGroup* group) {
  Statistics* stats = options_.statistics.get();
  RecordTick(stats, WRITE_DONE_BY_SELF);
  RecordTick(stats, WRITE_DONE_BY_OTHER, group->size() - 1);
  for (WriteThread::Writer* w : *group) {
    if (w->batch == nullptr || w->batch->Count() == 0) continue;
    Status s = InsertWriter(w, /*concurrent=*/false);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

namespace {

// Routes a write group's records to the memtables PrepareGroup set; a
// family no longer in the routes was dropped after the batch was checked,
// and its records go with it.
class LiveRouter final : public MemTableRouter {
 public:
  explicit LiveRouter(const ColumnFamilyRoutes* routes) : routes_(routes) {}
  Status Route(uint32_t id, MemTable** mem) override {
    ColumnFamilyData* cfd = routes_->Find(id);
    *mem = cfd == nullptr ? nullptr
                          : cfd->write_mem.load(std::memory_order_acquire);
    return Status::OK();
  }

 private:
  const ColumnFamilyRoutes* const routes_;
};

}  // namespace

Status DBImpl::InsertWriter(WriteThread::Writer* w, bool concurrent) {
  LiveRouter router(routes_.load(std::memory_order_acquire));
  Status s = InsertBatchIntoMemTable(
      w->batch, w->sequence,
      default_cfd_->write_mem.load(std::memory_order_acquire), &router,
      concurrent, /*ignore_duplicates=*/false);
  if (!s.ok()) {
    // The WAL has the batch but the memtable only part of it.
    MutexLock l(&mutex_);
    SetBackgroundError(s, BackgroundErrorReason::kMemTable);
  }
  return s;
}

bool DBImpl::CanInsertInParallel(const WriteThread::WriteGroup& group) {
  // Merge operands are applied one group at a time, in order (as RocksDB).
  for (WriteThread::Writer* w : group) {
    if (w->batch != nullptr && w->batch->HasMerge()) return false;
  }
  return true;
}

Status DBImpl::InsertMember(WriteThread::Writer* w) {
  RecordTick(options_.statistics.get(), WRITE_DONE_BY_SELF);
  return InsertWriter(w, /*concurrent=*/true);
}

void DBImpl::MemTableWritesPending(uint64_t n) {
  pending_memtable_writes_.fetch_add(n, std::memory_order_acq_rel);
}

void DBImpl::MemTableWriteDone() {
  if (pending_memtable_writes_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    // A waiter checks the count under mutex_ before it sleeps: signalling
    // under it cannot slip between the two.
    MutexLock l(&mutex_);
    bg_cv_.SignalAll();
  }
}

void DBImpl::WaitForMemTableWrites() {
  if (pending_memtable_writes_.load(std::memory_order_acquire) == 0) return;
  if (memtable_writes_wait_callback_) memtable_writes_wait_callback_();
  while (pending_memtable_writes_.load(std::memory_order_acquire) > 0) {
    bg_cv_.Wait();
  }
}

void DBImpl::Publish(SequenceNumber last_sequence) {
  last_published_.store(last_sequence, std::memory_order_release);
}

uint64_t DBImpl::NowMicros() { return env_->NowNanos() / 1000; }

Status DBImpl::SwitchMemTables(const std::vector<ColumnFamilyData*>& cfds,
                               bool wal_failed) {
  TEST_KILL_POINT("DBImpl::SwitchMemTables");
  const uint64_t number = NewFileNumber();
  std::unique_ptr<log::Writer> new_log;
  Status s = NewLogFile(number, /*sync_dir=*/!DefersWALSync(), &new_log);
  if (!s.ok()) {
    STRATA_LOG_WARN(info_log_, "cannot start WAL %llu: %s",
                    static_cast<unsigned long long>(number),
                    s.ToString().c_str());
    env_->RemoveFile(LogFileName(dbname_, number));
    switch_error_ = s;
    return s;
  }
  uint64_t finished_size = 0;
  {
    // Synced here only in the modes that cannot stop at a WAL whose end a
    // power loss took (db_impl_wal.cc).
    MutexLock l(&log_mutex_);
    s = RetireLog(std::move(new_log), wal_failed, &finished_size);
  }
  if (!s.ok()) {
    // Not under log_mutex_: the listeners are called without mutex_,
    // which is taken before log_mutex_.
    SetBackgroundError(s, BackgroundErrorReason::kWriteCallback);
    return s;
  }
  live_logs_.back().size = finished_size;
  finished_log_bytes_ += finished_size;
  live_logs_.push_back({number, 0});
  for (ColumnFamilyData* cfd : cfds) {
    const size_t usage = cfd->mem->ApproximateMemoryUsage();
    if (memtable_switch_callback_) memtable_switch_callback_(usage);
    cfd->charges.Retire(write_buffer_manager_, usage);
    cfd->imm.Add(cfd->mem);
    cfd->imm_next_logs.push_back(number);
    cfd->memtables_retired++;
    cfd->flush_requested = false;
    cfd->mem->Unref();  // imm holds its own reference
    cfd->mem = NewMemTable(cfd);
    // What the new memtable takes at once counts from now on.
    cfd->charges.Grow(write_buffer_manager_,
                      cfd->mem->ApproximateMemoryUsage());
  }
  switch_error_ = Status::OK();
  MaybeScheduleFlush();
  STRATA_LOG_INFO(info_log_, "memtable full: new WAL %llu",
                  static_cast<unsigned long long>(number));
  return Status::OK();
}

}  // namespace strata
