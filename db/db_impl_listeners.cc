// DBImpl: calling the EventListeners (strata/listener.h,
// docs/operations.md "Listeners"); the stall changes they are told of are
// db_impl_stall.cc's.
//
// Every callback runs without mutex_: a Notify* that is entered with it
// held releases it for the calls and takes it back, so its callers are
// places that already tolerate a release (the flush and compaction steps
// that release it to do their I/O).

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

}  // namespace strata
