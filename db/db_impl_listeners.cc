// DBImpl: calling the EventListeners (strata/listener.h,
// docs/operations.md "Listeners"), and the write stall states they are
// told of.
//
// Every callback runs without mutex_: a Notify* that is entered with it
// held releases it for the calls and takes it back, so its callers are
// places that already tolerate a release (the flush and compaction steps
// that release it to do their I/O).
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

#include "db/compaction.h"
#include "db/db_impl.h"
#include "db/filename.h"

namespace strata {

void DBImpl::NotifyFlushBegin(const FlushJobInfo& info) {
  for (const auto& listener : options_.listeners) {
    listener->OnFlushBegin(this, info);
  }
}

void DBImpl::NotifyFlushCompleted(const std::vector<FlushJobInfo>& infos) {
  mutex_.AssertHeld();
  if (options_.listeners.empty() || infos.empty()) return;
  mutex_.Unlock();
  for (const FlushJobInfo& info : infos) {
    for (const auto& listener : options_.listeners) {
      listener->OnFlushCompleted(this, info);
    }
  }
  mutex_.Lock();
}

void DBImpl::NotifyTableFileCreationStarted(
    const TableFileCreationBriefInfo& info) {
  for (const auto& listener : options_.listeners) {
    listener->OnTableFileCreationStarted(info);
  }
}

void DBImpl::NotifyTableFileCreated(const TableFileCreationInfo& info) {
  for (const auto& listener : options_.listeners) {
    listener->OnTableFileCreated(info);
  }
}

void DBImpl::NotifyTableFileDeleted(const std::string& path, const Status& s) {
  if (options_.listeners.empty()) return;
  TableFileDeletionInfo info;
  info.db_name = dbname_;
  info.file_path = path;
  info.status = s;
  for (const auto& listener : options_.listeners) {
    listener->OnTableFileDeleted(info);
  }
}

void DBImpl::NotifyCompaction(const CompactionJobInfo& info, bool completed) {
  mutex_.AssertHeld();
  if (options_.listeners.empty()) return;
  mutex_.Unlock();
  for (const auto& listener : options_.listeners) {
    if (completed) {
      listener->OnCompactionCompleted(this, info);
    } else {
      listener->OnCompactionBegin(this, info);
    }
  }
  mutex_.Lock();
}

CompactionJobInfo DBImpl::NewCompactionJobInfo(const ColumnFamilyData* cfd,
                                               const Compaction& c,
                                               int job_id) const {
  CompactionJobInfo info{};
  info.cf_id = cfd->id();
  info.cf_name = cfd->name();
  info.thread_id = env_->GetThreadID();
  info.job_id = job_id;
  info.base_input_level = c.level();
  info.output_level = c.output_level();
  for (const LevelInputs& in : c.AllInputs()) {
    for (const FileMetaData* f : in.files) {
      info.input_files.push_back(TableFileName(dbname_, f->number));
      info.input_file_infos.push_back({in.level, f->number, 0});
    }
  }
  if (c.is_manual()) {
    info.compaction_reason = CompactionReason::kManualCompaction;
  } else if (c.level() == 0) {
    info.compaction_reason = CompactionReason::kLevelL0FilesNum;
  } else {
    info.compaction_reason = CompactionReason::kLevelMaxLevelSize;
  }
  info.compression = c.output_compression();
  info.blob_compression_type = kNoCompression;
  return info;
}

TableFileCreationBriefInfo DBImpl::NewTableFileInfo(
    const ColumnFamilyData* cfd, uint64_t number, int job_id,
    TableFileCreationReason reason) const {
  TableFileCreationBriefInfo info;
  info.db_name = dbname_;
  info.cf_name = cfd->name();
  info.file_path = TableFileName(dbname_, number);
  info.job_id = job_id;
  info.reason = reason;
  return info;
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
