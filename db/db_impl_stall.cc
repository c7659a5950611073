// DBImpl: write stalls — a write group leader waiting for room
// (WaitForWriteRoom: the memtable and L0 rules of db/write_controller.h,
// docs/write_path.md "Stalls") — and the per-family stall states the
// listeners are told of (OnStallConditionsChanged).
//
// Write stall changes are recorded under mutex_ where the condition is
// computed — by a write group leader in WaitForWriteRoom, and after each
// flush or compaction — and queued. They are delivered only by the
// threads of flushes and compactions (background or CompactFiles /
// CompactRange callers), never by a writer: a listener may write from
// OnStallConditionsChanged, which would deadlock on the write thread a
// leader holds. One thread delivers at a time, draining the queue, so the
// changes arrive in the order they happened.

#include <algorithm>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "util/stop_watch.h"

namespace strata {

Status DBImpl::WaitForWriteRoom(
    WriteThread::WriteGroup* group,
    const std::vector<ColumnFamilyData*>& switching) {
  mutex_.AssertHeld();
  Statistics* stats = options_.statistics.get();
  const uint64_t start = env_->NowMicros();
  bool stalled = false;
  Status s;
  // Flushes and compactions ending meanwhile count these memtables as
  // full when they report the stall state (ReportStallChanges).
  stall_switching_ = &switching;
  for (;;) {
    // The worst condition over the families decides.
    WriteStallCondition c = WriteStallCondition::kNormal;
    std::string reason;
    for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
      const bool full =
          std::find(switching.begin(), switching.end(), cfd) != switching.end();
      std::string why;
      const WriteStallCondition fc = FamilyStall(cfd, full, &why);
      RecordStall(cfd, fc);
      if (fc == WriteStallCondition::kStopped ||
          (fc == WriteStallCondition::kDelayed &&
           c == WriteStallCondition::kNormal)) {
        c = fc;
        reason = cfd->id() == 0 ? why : cfd->name() + ": " + why;
      }
    }
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
    if (error_handler_.IsDBStopped()) {
      s = error_handler_.GetBGError();
      break;
    }
  }
  stall_switching_ = nullptr;
  if (stalled) {
    const uint64_t micros = env_->NowMicros() - start;
    default_cfd_->internal_stats.AddStallMicros(micros);
    RecordTick(stats, STALL_MICROS, micros);
    if (stats != nullptr) stats->recordInHistogram(WRITE_STALL, micros);
  }
  return s;
}

WriteStallCondition DBImpl::FamilyStall(const ColumnFamilyData* cfd, bool full,
                                        std::string* why) const {
  const Options& o = cfd->options();
  WriteStallInputs in;
  in.num_unflushed_memtables = cfd->imm.NumNotFlushed() + (full ? 1 : 0);
  in.max_write_buffer_number = o.max_write_buffer_number;
  in.num_l0_files = cfd->current()->NumFiles(0);
  in.level0_slowdown_writes_trigger = o.level0_slowdown_writes_trigger;
  in.level0_stop_writes_trigger = o.level0_stop_writes_trigger;
  in.disable_auto_compactions = o.disable_auto_compactions;
  return ComputeWriteStall(in, why);
}

void DBImpl::RecordStall(const ColumnFamilyData* cfd, WriteStallCondition c) {
  auto it =
      stall_conditions_.emplace(cfd->id(), WriteStallCondition::kNormal).first;
  if (it->second == c) return;
  if (!options_.listeners.empty()) {
    WriteStallInfo info;
    info.cf_name = cfd->name();
    info.condition.cur = c;
    info.condition.prev = it->second;
    stall_changes_.push_back(info);
  }
  it->second = c;
}

void DBImpl::ReportStallChanges() {
  mutex_.AssertHeld();
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    const bool full =
        stall_switching_ != nullptr &&
        std::find(stall_switching_->begin(), stall_switching_->end(), cfd) !=
            stall_switching_->end();
    std::string why;
    RecordStall(cfd, FamilyStall(cfd, full, &why));
  }
  if (delivering_stall_changes_) return;  // that thread delivers these too
  delivering_stall_changes_ = true;
  while (!stall_changes_.empty()) {
    const WriteStallInfo info = stall_changes_.front();
    stall_changes_.pop_front();
    mutex_.Unlock();
    for (const auto& listener : options_.listeners) {
      listener->OnStallConditionsChanged(info);
    }
    mutex_.Lock();
  }
  delivering_stall_changes_ = false;
}

}  // namespace strata
