// DBImpl: deleting obsolete files (docs/formats/files.md, "Obsolete
// files").
//
// What is obsolete is decided under the mutex from the state that makes
// files live; the directory is listed and files deleted without it. A file
// created after the decision cannot be deleted by mistake: new WALs and
// MANIFESTs are numbered above the thresholds, and a new table is in
// pending_outputs_ from before its file exists until a version holds it.

#include <unordered_set>

#include "db/db_impl.h"
#include "db/filename.h"
#include "util/logging.h"

namespace strata {

void DBImpl::DeleteObsoleteFiles() {
  mutex_.AssertHeld();
  if (file_deletions_disabled_ > 0) return;
  std::vector<uint64_t> live_tables;
  versions_->AddLiveFiles(&live_tables);
  live_tables.insert(live_tables.end(), pending_outputs_.begin(),
                     pending_outputs_.end());
  const std::unordered_set<uint64_t> live(live_tables.begin(),
                                          live_tables.end());
  const uint64_t min_log = versions_->MinLogNumberToKeep();
  // Every family's reader cache, dropped families still alive included
  // (a deleted table is in one of them at most). Referenced: a family
  // dropped meanwhile must not go while its cache is used.
  std::vector<ColumnFamilyData*> families = versions_->column_families()->All();
  const auto& dropped = versions_->column_families()->Dropped();
  families.insert(families.end(), dropped.begin(), dropped.end());
  for (ColumnFamilyData* cfd : families) cfd->Ref();
  const uint64_t min_manifest = versions_->ManifestFileNumber();
  // Tables numbered at or above this were created after the snapshot of
  // live files (their job put them in pending_outputs_ later than it).
  const uint64_t next_file = versions_->NextFileNumberPeek();
  while (!live_logs_.empty() && live_logs_.front().number < min_log) {
    finished_log_bytes_ -= live_logs_.front().size;
    live_logs_.erase(live_logs_.begin());
  }

  mutex_.Unlock();
  // Obsolete retired WALs are closed before their files are deleted (an
  // Env need not delete open files). Not under mutex_: a sync=true write
  // may hold log_mutex_ while it syncs them.
  CloseRetiredLogsBelow(min_log);
  std::vector<std::string> children;
  Status s = env_->GetChildren(dbname_, &children);
  if (!s.ok()) {
    STRATA_LOG_WARN(info_log_, "cannot list %s for obsolete files: %s",
                    dbname_.c_str(), s.ToString().c_str());
  }
  std::vector<uint64_t> evicted;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type)) continue;
    bool obsolete = false;
    switch (type) {
      case FileType::kWalFile:
        obsolete = number < min_log;
        break;
      case FileType::kDescriptorFile:
        obsolete = number < min_manifest;
        break;
      case FileType::kTableFile:
        obsolete = number < next_file && live.count(number) == 0;
        break;
      default:
        break;
    }
    if (!obsolete) continue;
    if (type == FileType::kTableFile) {
      for (ColumnFamilyData* cfd : families) cfd->table_cache()->Evict(number);
    }
    Status del = env_->RemoveFile(dbname_ + "/" + child);
    if (del.ok()) {
      STRATA_LOG_INFO(info_log_, "deleted obsolete file %s", child.c_str());
    } else {
      STRATA_LOG_WARN(info_log_, "cannot delete obsolete file %s: %s",
                      child.c_str(), del.ToString().c_str());
    }
    if (type == FileType::kTableFile) {
      NotifyTableFileDeleted(dbname_ + "/" + child, del);
    }
  }
  mutex_.Lock();
  for (ColumnFamilyData* cfd : families) cfd->Unref();
}

}  // namespace strata
