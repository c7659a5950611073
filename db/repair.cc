// RepairDB and the Repairer's steps that deal with the directory and the
// MANIFEST: finding the files, reading what the old MANIFESTs still say,
// the families, writing the new MANIFEST, moving files to lost/.

#include "db/repair.h"

#include <algorithm>
#include <set>
#include <utility>

#include "db/column_family.h"
#include "db/db_impl.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "env/file_reader.h"
#include "util/logging.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

VersionSetOptions VersionSetOptionsFor(const Options& options) {
  VersionSetOptions result;
  result.max_manifest_file_size = options.max_manifest_file_size;
  result.use_fsync = options.use_fsync;
  result.env_options = EnvOptions(options);
  return result;
}

bool IsDBFile(FileType type) {
  return type == FileType::kWalFile || type == FileType::kTableFile ||
         type == FileType::kDescriptorFile || type == FileType::kCurrentFile;
}

Status Repair(const std::string& dbname, const DBOptions& db_options,
              const std::vector<ColumnFamilyDescriptor>& column_families,
              const ColumnFamilyOptions* unknown_cf_opts) {
  if (db_options.env == nullptr) {
    return Status::InvalidArgument("RepairDB: DBOptions::env is null");
  }
  std::set<std::string> names;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (!names.insert(d.name).second) {
      return Status::InvalidArgument("RepairDB: column family ",
                                     d.name + " is named twice");
    }
    Status s = DBImpl::ValidateOptions(Options(db_options, d.options));
    if (!s.ok()) return s;
  }
  if (names.count(kDefaultColumnFamilyName) == 0) {
    return Status::InvalidArgument(
        "RepairDB: column_families must include the default column family");
  }
  if (unknown_cf_opts != nullptr) {
    Status s = DBImpl::ValidateOptions(Options(db_options, *unknown_cf_opts));
    if (!s.ok()) return s;
  }
  Repairer repairer(dbname, db_options, column_families, unknown_cf_opts);
  return repairer.Run();
}

}  // namespace

Status RepairDB(const std::string& dbname, const DBOptions& db_options,
                const std::vector<ColumnFamilyDescriptor>& column_families) {
  return Repair(dbname, db_options, column_families, nullptr);
}

Status RepairDB(const std::string& dbname, const DBOptions& db_options,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                const ColumnFamilyOptions& unknown_cf_opts) {
  return Repair(dbname, db_options, column_families, &unknown_cf_opts);
}

Status RepairDB(const std::string& dbname, const Options& options) {
  const ColumnFamilyOptions cf_options(options);
  return Repair(dbname, DBOptions(options),
                {ColumnFamilyDescriptor(kDefaultColumnFamilyName, cf_options)},
                &cf_options);
}

Repairer::Repairer(const std::string& dbname, const DBOptions& db_options,
                   const std::vector<ColumnFamilyDescriptor>& families,
                   const ColumnFamilyOptions* unknown_options)
    : dbname_(dbname),
      env_(db_options.env),
      db_options_(db_options),
      info_log_(db_options.info_log) {
  for (const ColumnFamilyDescriptor& d : families) {
    family_options_[d.name] =
        DBImpl::SanitizeOptions(Options(db_options, d.options));
  }
  if (unknown_options != nullptr) {
    unknown_options_.reset(new Options(
        DBImpl::SanitizeOptions(Options(db_options, *unknown_options))));
  }
  const Options& default_options = family_options_[kDefaultColumnFamilyName];
  versions_.reset(new VersionSet(
      dbname_, env_, VersionSetOptionsFor(default_options), default_options));
  families_[0] = versions_->default_cfd();
  families_[0]->Ref();
}

Repairer::~Repairer() {
  for (auto& entry : families_) entry.second->Unref();
  families_.clear();
}

Status Repairer::Run() {
  // A directory with nothing of a DB is not made one: no LOCK is left in
  // it, and the caller learns that it named the wrong place.
  std::vector<std::string> children;
  Status s = env_->GetChildren(dbname_, &children);
  if (!s.ok()) {
    if (s.IsNotFound()) {
      return Status::InvalidArgument(dbname_,
                                     "does not exist: no DB to repair");
    }
    return s;
  }
  bool any = false;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(child, &number, &type) && IsDBFile(type)) any = true;
  }
  if (!any) {
    return Status::InvalidArgument(
        dbname_,
        "holds no CURRENT, MANIFEST, WAL or table file: no DB to repair");
  }

  FileLock* lock = nullptr;
  s = env_->LockFile(LockFileName(dbname_), &lock);
  if (!s.ok()) {
    if (s.IsLockHeld()) {
      return Status::LockHeld(dbname_,
                              "is open (its LOCK is held): RepairDB needs the "
                              "DB closed");
    }
    return s;
  }
  if (info_log_ == nullptr) info_log_ = DBImpl::NewInfoLog(env_, dbname_);
  STRATA_LOG_WARN(info_log_, "repair of %s begins", dbname_.c_str());

  s = FindFiles();
  if (s.ok()) {
    ReadOldManifests();
    std::vector<ScannedTable> scanned;
    ScanTables(&scanned);
    AssignTables(scanned);
    s = ConvertLogs();
  }
  if (s.ok()) s = SeparateOverlaps();
  if (s.ok()) s = WriteManifest();
  if (s.ok()) {
    // CURRENT names the new MANIFEST: what the old files held is in it.
    for (uint64_t number : manifests_) {
      Archive(DescriptorFileName(dbname_, number), "replaced by the repair");
    }
    for (uint64_t number : logs_) {
      Archive(LogFileName(dbname_, number), "replayed into tables");
    }
    for (uint64_t number : replaced_) {
      env_->RemoveFile(TableFileName(dbname_, number));
    }
    uint64_t tables = 0;
    uint64_t bytes = 0;
    for (const auto& entry : good_) {
      for (const FileMetaData& f : entry.second) {
        tables++;
        bytes += f.file_size;
      }
    }
    STRATA_LOG_WARN(info_log_,
                    "repaired %s: %llu tables, %llu bytes, %zu column "
                    "families, last sequence %llu; some data may have been "
                    "lost (see the messages above)",
                    dbname_.c_str(), static_cast<unsigned long long>(tables),
                    static_cast<unsigned long long>(bytes), families_.size(),
                    static_cast<unsigned long long>(versions_->LastSequence()));
  } else {
    // Nothing names the tables written so far; a later repair must not
    // find them beside the WALs they came from.
    for (uint64_t number : written_) {
      env_->RemoveFile(TableFileName(dbname_, number));
    }
    STRATA_LOG_ERROR(info_log_, "repair of %s failed: %s", dbname_.c_str(),
                     s.ToString().c_str());
  }
  env_->UnlockFile(lock);
  return s;
}

Status Repairer::FindFiles() {
  std::vector<std::string> children;
  Status s = env_->GetChildren(dbname_, &children);
  if (!s.ok()) return s;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type)) continue;
    if (type == FileType::kInfoLogFile) continue;  // numbered by time
    // No file found may have its number handed out again.
    versions_->MarkFileNumberUsed(number);
    if (type == FileType::kTableFile) tables_.push_back(number);
    if (type == FileType::kWalFile) logs_.push_back(number);
    if (type == FileType::kDescriptorFile) manifests_.push_back(number);
  }
  std::sort(tables_.begin(), tables_.end());
  std::sort(logs_.begin(), logs_.end());
  std::sort(manifests_.begin(), manifests_.end());
  STRATA_LOG_INFO(info_log_, "repair found %zu tables, %zu WALs, %zu MANIFESTs",
                  tables_.size(), logs_.size(), manifests_.size());
  return Status::OK();
}

void Repairer::ReadOldManifests() {
  // Oldest first, so that what a newer MANIFEST says wins; each is read
  // up to its first damage, its intact records trusted (checksums).
  for (uint64_t number : manifests_) {
    const std::string fname = DescriptorFileName(dbname_, number);
    std::unique_ptr<SequentialFile> file;
    Status s = env_->NewSequentialFile(fname, &file, EnvOptions());
    if (!s.ok()) {
      STRATA_LOG_WARN(info_log_, "%s: not read: %s", fname.c_str(),
                      s.ToString().c_str());
      continue;
    }
    RepairReporter reporter(info_log_.get());
    log::Reader reader(
        std::make_unique<SequentialFileReader>(std::move(file), fname),
        &reporter, /*checksum=*/true, number);
    Slice record;
    std::string scratch;
    std::vector<VersionEdit> edits;
    while (s.ok() && reader.ReadRecord(&record, &scratch,
                                       WALRecoveryMode::kAbsoluteConsistency)) {
      if (!reporter.first().ok()) break;
      s = VersionEdit::DecodeGroup(record, &edits);
      for (size_t i = 0; s.ok() && i < edits.size(); i++) {
        const VersionEdit& edit = edits[i];
        const uint32_t id = edit.column_family();
        if (edit.is_column_family_add()) {
          manifest_families_[id] = edit.column_family_name();
        } else if (edit.is_column_family_drop() && id != 0) {
          manifest_families_.erase(id);
          dropped_families_.insert(id);
        }
        if (edit.has_last_sequence()) {
          max_sequence_ = std::max(max_sequence_, edit.last_sequence());
        }
        if (edit.has_next_file_number() && edit.next_file_number() > 0) {
          versions_->MarkFileNumberUsed(edit.next_file_number() - 1);
        }
      }
    }
    if (!s.ok() || !reporter.first().ok()) {
      STRATA_LOG_WARN(info_log_, "%s: read up to its damage: %s", fname.c_str(),
                      (s.ok() ? reporter.first() : s).ToString().c_str());
    }
    if (!reporter.read_error().ok()) {
      STRATA_LOG_WARN(info_log_, "%s: read up to an error: %s", fname.c_str(),
                      reporter.read_error().ToString().c_str());
    }
  }
  for (const auto& entry : manifest_families_) {
    STRATA_LOG_INFO(info_log_, "old MANIFEST names column family %s (id %u)",
                    entry.second.c_str(), entry.first);
  }
}

ColumnFamilyData* Repairer::FamilyFor(uint32_t id, const std::string& name,
                                      std::string* why) {
  const auto found = families_.find(id);
  if (found != families_.end()) {
    if (found->second->name() == name) return found->second;
    *why = "column family id " + NumberToString(id) + " is " +
           found->second->name() + ", not " + name;
    return nullptr;
  }
  if (dropped_families_.count(id) > 0) {
    *why = "column family " + name + " (id " + NumberToString(id) +
           ") was dropped";
    return nullptr;
  }
  for (const auto& entry : families_) {
    if (entry.second->name() == name) {
      *why = "column family " + name + " is id " + NumberToString(entry.first) +
             ", not " + NumberToString(id);
      return nullptr;
    }
  }
  const auto options = family_options_.find(name);
  const Options* o = options != family_options_.end() ? &options->second
                                                      : unknown_options_.get();
  if (o == nullptr) {
    *why = "column family " + name + " (id " + NumberToString(id) +
           ") is not among the column families given (RepairDB with "
           "unknown_cf_opts keeps it)";
    return nullptr;
  }
  ColumnFamilyData* cfd = new ColumnFamilyData(id, name, *o, dbname_);
  cfd->Ref();
  families_[id] = cfd;
  STRATA_LOG_INFO(info_log_, "column family %s (id %u) kept", name.c_str(), id);
  return cfd;
}

Status Repairer::WriteManifest() {
  // The tables' names must be durable before the MANIFEST names them.
  Status s = SyncDBDirectory(env_, dbname_);
  if (!s.ok()) return s;
  MutexLock l(&mu_);
  // Past every WAL replayed: an open replays none of them again, should
  // one stay behind.
  const uint64_t log_number = versions_->NewFileNumber();
  versions_->SetLastSequence(
      std::max(versions_->LastSequence(), max_sequence_));
  std::vector<ColumnFamilyData*> cfds;
  std::vector<VersionEdit> edits(families_.size());
  std::vector<VersionEdit*> edit_ptrs;
  for (const auto& entry : families_) {
    ColumnFamilyData* cfd = entry.second;
    VersionEdit* edit = &edits[cfds.size()];
    if (cfd->id() != 0) {
      edit->AddColumnFamily(cfd->name());
      edit->SetComparatorName(cfd->user_comparator()->Name());
    }
    edit->SetLogNumber(log_number);
    for (const FileMetaData& f : good_[cfd->id()]) edit->AddFile(0, f);
    cfds.push_back(cfd);
    edit_ptrs.push_back(edit);
  }
  if (families_.rbegin()->first > 0) {
    edits.front().SetMaxColumnFamily(families_.rbegin()->first);
  }
  return versions_->LogAndApply(cfds, edit_ptrs, &mu_);
}

void Repairer::RepairReporter::Corruption(size_t bytes, const Status& status) {
  if (!status.IsCorruption()) {
    if (read_error_.ok()) read_error_ = status;
    return;
  }
  if (first_.ok()) first_ = status;
  STRATA_LOG_WARN(info_log_, "repair: %zu bytes dropped: %s", bytes,
                  status.ToString().c_str());
}

void Repairer::Archive(const std::string& fname, const std::string& why) {
  const std::string lost = dbname_ + "/lost";
  const std::string base = fname.substr(fname.find_last_of("/\\") + 1);
  Status s = env_->CreateDirIfMissing(lost);
  if (s.ok()) s = env_->RenameFile(fname, lost + "/" + base);
  STRATA_LOG_WARN(info_log_, "%s: %s; moved to lost/: %s", fname.c_str(),
                  why.c_str(), s.ToString().c_str());
}

}  // namespace strata
