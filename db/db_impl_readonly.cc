// DB::OpenForReadOnly and the DB it returns (db/db_impl_readonly.h).

#include "db/db_impl_readonly.h"

#include <map>

#include "db/filename.h"
#include "memtable/memtable.h"
#include "strata/env.h"

namespace strata {

namespace {

Status Refused(const char* what) {
  return Status::NotSupported(what, "not supported by a read-only DB");
}

}  // namespace

Status DB::OpenForReadOnly(const Options& options, const std::string& name,
                           DB** dbptr, bool error_if_wal_file_exists) {
  const std::vector<ColumnFamilyDescriptor> families = {
      ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)};
  std::vector<ColumnFamilyHandle*> handles;
  Status s = OpenForReadOnly(options, name, families, &handles, dbptr,
                             error_if_wal_file_exists);
  if (s.ok()) {
    // The DB keeps its own handle on the default family.
    s = (*dbptr)->DestroyColumnFamilyHandle(handles[0]);
  }
  return s;
}

Status DB::OpenForReadOnly(
    const DBOptions& db_options, const std::string& name,
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::vector<ColumnFamilyHandle*>* handles, DB** dbptr,
    bool error_if_wal_file_exists) {
  *dbptr = nullptr;
  if (handles == nullptr) {
    return Status::InvalidArgument("DB::OpenForReadOnly: handles is null");
  }
  handles->clear();
  const ColumnFamilyDescriptor* default_family = nullptr;
  Status s = DBImpl::CheckDescriptors(db_options, column_families,
                                      "DB::OpenForReadOnly", &default_family);
  if (!s.ok()) return s;
  std::unique_ptr<DBImplReadOnly> impl(
      new DBImplReadOnly(Options(db_options, default_family->options), name));
  impl->error_if_wal_file_exists_ = error_if_wal_file_exists;
  s = impl->Open(column_families, handles);
  if (s.ok()) *dbptr = impl.release();
  return s;
}

Status DBImpl::RecoverFamiliesReadOnly(
    const std::vector<ColumnFamilyDescriptor>& column_families) {
  Status s = env_->FileExists(CurrentFileName(dbname_));
  if (s.IsNotFound()) {
    // IOError, as RocksDB's read-only open reports a missing CURRENT.
    return Status::IOError(CurrentFileName(dbname_),
                           "no such file: no DB there (a read-only open "
                           "creates nothing)");
  }
  if (!s.ok()) return s;
  std::map<std::string, Options> family_options;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (d.name != kDefaultColumnFamilyName) {
      family_options[d.name] = SanitizeOptions(Options(options_, d.options));
    }
  }
  // The families not named stay closed: their WAL records are skipped.
  bool save_manifest = false;
  s = versions_->Recover(family_options, &save_manifest,
                         /*every_family=*/false);
  if (!s.ok()) return s;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (versions_->column_families()->FindByName(d.name) == nullptr) {
      return Status::InvalidArgument(dbname_,
                                     ": has no column family " + d.name +
                                         " (a read-only open creates none)");
    }
  }
  return Status::OK();
}

Status DBImpl::RecoverReadOnly(
    const std::vector<ColumnFamilyDescriptor>& column_families) {
  Status s = RecoverFamiliesReadOnly(column_families);
  if (!s.ok()) return s;
  std::vector<uint64_t> logs;
  s = FindLogFiles(&logs);
  if (!s.ok()) return s;
  s = ReplayLogs(logs);
  if (!s.ok()) return s;
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    if (error_if_wal_file_exists_ && cfd->mem->num_entries() > 0) {
      return Status::InvalidArgument(dbname_,
                                     ": its WALs hold writes not in tables "
                                     "(error_if_wal_file_exists is true)");
    }
  }
  // The replayed WALs are what a copy of this DB needs besides its tables
  // (GetLiveFilesStorageInfo).
  for (uint64_t number : logs) {
    uint64_t size = 0;
    s = env_->GetFileSize(LogFileName(dbname_, number), &size);
    if (!s.ok()) return s;
    live_logs_.push_back({number, size});
  }
  RebuildRoutes();
  return Status::OK();
}

Status DBImplReadOnly::CreateColumnFamily(const ColumnFamilyOptions&,
                                          const std::string&,
                                          ColumnFamilyHandle** handle) {
  if (handle != nullptr) *handle = nullptr;
  return Refused("CreateColumnFamily");
}

Status DBImplReadOnly::DropColumnFamily(ColumnFamilyHandle*) {
  return Refused("DropColumnFamily");
}

Status DBImplReadOnly::Write(const WriteOptions&, WriteBatch*) {
  return Refused("Write");
}

Status DBImplReadOnly::Put(const WriteOptions&, ColumnFamilyHandle*,
                           const Slice&, const Slice&) {
  return Refused("Put");
}

Status DBImplReadOnly::Delete(const WriteOptions&, ColumnFamilyHandle*,
                              const Slice&) {
  return Refused("Delete");
}

Status DBImplReadOnly::SingleDelete(const WriteOptions&, ColumnFamilyHandle*,
                                    const Slice&) {
  return Refused("SingleDelete");
}

Status DBImplReadOnly::Merge(const WriteOptions&, ColumnFamilyHandle*,
                             const Slice&, const Slice&) {
  return Refused("Merge");
}

Status DBImplReadOnly::DeleteRange(const WriteOptions&, ColumnFamilyHandle*,
                                   const Slice&, const Slice&) {
  return Refused("DeleteRange");
}

Status DBImplReadOnly::SyncWAL() { return Refused("SyncWAL"); }

Status DBImplReadOnly::Resume() { return Refused("Resume"); }

Status DBImplReadOnly::IngestExternalFile(ColumnFamilyHandle*,
                                          const std::vector<std::string>&,
                                          const IngestExternalFileOptions&) {
  return Refused("IngestExternalFile");
}

Status DBImplReadOnly::IngestExternalFiles(
    const std::vector<IngestExternalFileArg>&) {
  return Refused("IngestExternalFiles");
}

Status DBImplReadOnly::Flush(const FlushOptions&, ColumnFamilyHandle*) {
  return Refused("Flush");
}

Status DBImplReadOnly::Flush(const FlushOptions&,
                             const std::vector<ColumnFamilyHandle*>&) {
  return Refused("Flush");
}

Status DBImplReadOnly::CompactRange(const CompactRangeOptions&,
                                    ColumnFamilyHandle*, const Slice*,
                                    const Slice*) {
  return Refused("CompactRange");
}

Status DBImplReadOnly::SetOptions(
    ColumnFamilyHandle*, const std::unordered_map<std::string, std::string>&) {
  return Refused("SetOptions");
}

Status DBImplReadOnly::DisableFileDeletions() {
  return Refused("DisableFileDeletions");
}

Status DBImplReadOnly::EnableFileDeletions(bool) {
  return Refused("EnableFileDeletions");
}

Status DBImplReadOnly::GetLiveFiles(std::vector<std::string>& files,
                                    uint64_t* manifest_file_size, bool) {
  return DBImpl::GetLiveFiles(files, manifest_file_size,
                              /*flush_memtable=*/false);
}

Status DBImplReadOnly::GetLiveFilesStorageInfo(
    const LiveFilesStorageInfoOptions& opts,
    std::vector<LiveFileStorageInfo>* files) {
  LiveFilesStorageInfoOptions no_flush = opts;
  no_flush.wal_size_for_flush = UINT64_MAX;
  return DBImpl::GetLiveFilesStorageInfo(no_flush, files);
}

Status DBImplReadOnly::GetCurrentWalFile(std::unique_ptr<LogFile>*) {
  return Refused("GetCurrentWalFile");
}

}  // namespace strata
