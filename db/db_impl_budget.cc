// DBImpl: the budgets that retire memtables beyond each family's own
// write_buffer_size (docs/column_families.md, "The memtable budget" and
// "max_total_wal_size"):
//
// - the WriteBufferManager's (strata/write_buffer_manager.h): the DB
//   reports its memtables' memory by deltas (db/memtable_charges.h) in
//   PrepareGroup, at switches, flushes, drops and Close; once the
//   manager's flush rule holds, the next group retires the largest active
//   memtable of this DB; with allow_stall, groups wait while the memory
//   is past the budget and a flush is on its way to free some;
// - max_total_wal_size: once the live WALs hold more, the families whose
//   unflushed data keeps the oldest WAL alive retire their memtables, so
//   that flushing them lets it be deleted.
//
// Both run in PrepareGroup, under mutex_, before the memtable switch; the
// memtables they pick are switched with the full ones, as one switch.

#include <algorithm>

#include "db/db_impl.h"
#include "memtable/memtable.h"
#include "util/logging.h"
#include "util/stop_watch.h"

namespace strata {

namespace {

bool Contains(const std::vector<ColumnFamilyData*>& cfds,
              const ColumnFamilyData* cfd) {
  return std::find(cfds.begin(), cfds.end(), cfd) != cfds.end();
}

}  // namespace

void DBImpl::PickForWriteBufferManager(
    const std::vector<ColumnFamilyData*>& families,
    std::vector<ColumnFamilyData*>* switching) {
  // A switch already under way frees memory too: the rule is asked again
  // by the next group, with the figures it leaves.
  if (!switching->empty() || !write_buffer_manager_->ShouldFlush()) return;
  // The largest active memtable frees the most. (RocksDB takes the oldest;
  // with one DB writing to its families evenly they are the same one.) One
  // that has not grown since it was created is left alone: its successor
  // would take as much at once, so the switch would free nothing, and the
  // next group would switch again (a budget below what the families'
  // empty memtables take cannot be met).
  ColumnFamilyData* pick = nullptr;
  for (ColumnFamilyData* cfd : families) {
    if (cfd->mem->num_entries() == 0 || cfd->charges.growth() == 0) continue;
    if (pick == nullptr || cfd->charges.active() > pick->charges.active()) {
      pick = cfd;
    }
  }
  if (pick != nullptr) switching->push_back(pick);
}

uint64_t DBImpl::MaxTotalWALSize(
    const std::vector<ColumnFamilyData*>& families) const {
  if (options_.max_total_wal_size > 0) return options_.max_total_wal_size;
  // RocksDB's default: four times what the memtables may hold.
  uint64_t memtables = 0;
  for (const ColumnFamilyData* cfd : families) {
    const Options& o = cfd->options();
    memtables += static_cast<uint64_t>(o.write_buffer_size) *
                 static_cast<uint64_t>(o.max_write_buffer_number);
  }
  return 4 * memtables;
}

void DBImpl::PickForWALSize(const std::vector<ColumnFamilyData*>& families,
                            std::vector<ColumnFamilyData*>* switching) {
  if (live_logs_.size() < 2 || LiveLogBytes() <= MaxTotalWALSize(families)) {
    return;
  }
  const uint64_t oldest = live_logs_.front().number;
  for (ColumnFamilyData* cfd : families) {
    if (cfd->mem->num_entries() == 0 || Contains(*switching, cfd)) continue;
    // The first WAL the active memtable's data may be in: the one started
    // when the family last retired a memtable. Immutable memtables need
    // no switch: their flush is on its way.
    const uint64_t first_log = cfd->imm_next_logs.empty()
                                   ? cfd->log_number()
                                   : cfd->imm_next_logs.back();
    if (first_log <= oldest) {
      STRATA_LOG_INFO(info_log_,
                      "live WALs hold %llu bytes: flushing %s, which keeps "
                      "WAL %llu",
                      static_cast<unsigned long long>(LiveLogBytes()),
                      cfd->name().c_str(),
                      static_cast<unsigned long long>(oldest));
      switching->push_back(cfd);
    }
  }
}

Status DBImpl::WaitForWriteBuffer(WriteThread::WriteGroup* group) {
  mutex_.AssertHeld();
  // A group without updates (a Flush, a barrier) adds no memory: it goes
  // on, so that what it waits for is not held up behind the stall.
  bool updates = false;
  for (WriteThread::Writer* w : *group) {
    updates = updates || (w->batch != nullptr && w->batch->Count() > 0);
  }
  if (!updates) return Status::OK();
  if (group->no_slowdown()) {
    return Status::Incomplete(
        "write stall: the memtables are past the write buffer manager's "
        "budget");
  }
  if (closing_) return Status::ShutdownInProgress("the DB is closing");
  if (error_handler_.IsDBStopped()) return error_handler_.GetBGError();
  const uint64_t start = env_->NowMicros();
  // Armed under mutex_, which Close and SetBackgroundError hold to decide
  // to wake this DB: their Signal comes after, and is not lost.
  write_buffer_stall_.Arm();
  write_buffer_manager_->BeginWriteStall(&write_buffer_stall_);
  mutex_.Unlock();
  write_buffer_stall_.Block();
  mutex_.Lock();
  const uint64_t micros = env_->NowMicros() - start;
  default_cfd_->internal_stats.AddStallMicros(micros);
  Statistics* stats = options_.statistics.get();
  RecordTick(stats, STALL_MICROS, micros);
  if (stats != nullptr) stats->recordInHistogram(WRITE_STALL, micros);
  if (closing_) return Status::ShutdownInProgress("the DB is closing");
  return WriteStopStatus();
}

void DBImpl::EndWriteBufferStall() {
  if (write_buffer_manager_ != nullptr) {
    write_buffer_manager_->RemoveDBFromQueue(&write_buffer_stall_);
  }
}

}  // namespace strata
