// DBImpl: opening — creation, recovery from the MANIFEST and the WALs.
// The options check is db_impl_options.cc; the WAL replay is
// db_impl_wal_recovery.cc.

#include <algorithm>
#include <cassert>
#include <map>
#include <set>
#include <utility>

#include "db/db_impl.h"
#include "db/filename.h"
#include "env/file_reader.h"
#include "env/file_writer.h"
#include "memtable/memtable.h"
#include "util/logging.h"
#include "util/mutexlock.h"
#include "util/random.h"

namespace strata {

namespace {

WriteThread::Options WriteThreadOptions(const Options& options) {
  WriteThread::Options result;
  result.parallel_memtable = options.allow_concurrent_memtable_write;
  result.pipelined = options.enable_pipelined_write;
  result.unordered = options.unordered_write;
  result.unordered_snapshot_safe = options.unordered_write_snapshot_safe;
  result.adaptive_yield = options.enable_write_thread_adaptive_yield;
  result.max_yield_usec = options.write_thread_max_yield_usec;
  result.slow_yield_usec = options.write_thread_slow_yield_usec;
  result.max_sync_gather_usec = options.write_thread_sync_gather_usec;
  return result;
}

}  // namespace

static VersionSetOptions VersionSetOptionsFor(const Options& options) {
  VersionSetOptions result;
  result.max_manifest_file_size = options.max_manifest_file_size;
  result.use_fsync = options.use_fsync;
  result.env_options = EnvOptions(options);
  return result;
}

DBImpl::DBImpl(const Options& options, const std::string& dbname,
               bool read_only)
    : options_(SanitizeOptions(options)),
      dbname_(dbname),
      env_(options.env),
      info_log_(options.info_log),
      versions_(new VersionSet(dbname_, env_, VersionSetOptionsFor(options_),
                               options_)),
      default_cfd_(versions_->default_cfd()),
      read_only_(read_only),
      error_handler_(&mutex_, env_, info_log_,
                     options_.max_bgerror_resume_count,
                     options_.bgerror_resume_retry_interval,
                     [this]() {
                       mutex_.AssertHeld();  // the retry thread holds it
                       return ResumeImpl();
                     }),
      write_buffer_manager_(options_.write_buffer_manager.get()),
      write_controller_(options.delayed_write_rate),
      bg_cv_(&mutex_),
      write_thread_(WriteThreadOptions(options), this) {
  MutexLock l(&mutex_);
  default_handle_ = new ColumnFamilyHandleImpl(default_cfd_, this);
  if (options_.allow_2pc && !read_only_) TrackPreparedLogs();
}

DBImpl::~DBImpl() {
  CloseImpl(/*force=*/true);
  delete default_handle_;
}

Status DB::Open(const Options& options, const std::string& name, DB** dbptr) {
  const std::vector<ColumnFamilyDescriptor> families = {
      ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)};
  std::vector<ColumnFamilyHandle*> handles;
  Status s = Open(options, name, families, &handles, dbptr);
  if (s.ok()) {
    // The DB keeps its own handle on the default family.
    s = (*dbptr)->DestroyColumnFamilyHandle(handles[0]);
    assert(s.ok());
  }
  return s;
}

Status DB::Open(const Options& options, const std::string& name,
                std::unique_ptr<DB>* dbptr) {
  DB* db = nullptr;
  Status s = Open(options, name, &db);
  dbptr->reset(db);
  return s;
}

Status DB::Open(const DBOptions& db_options, const std::string& name,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                std::vector<ColumnFamilyHandle*>* handles, DB** dbptr) {
  *dbptr = nullptr;
  if (handles == nullptr) {
    return Status::InvalidArgument("DB::Open: handles is null");
  }
  handles->clear();
  const ColumnFamilyDescriptor* default_family = nullptr;
  Status s = DBImpl::CheckDescriptors(db_options, column_families, "DB::Open",
                                      &default_family);
  if (!s.ok()) return s;
  std::unique_ptr<DBImpl> impl(
      new DBImpl(Options(db_options, default_family->options), name));
  s = impl->Open(column_families, handles);
  if (s.ok()) *dbptr = impl.release();
  return s;
}

Status DB::Open(const DBOptions& db_options, const std::string& name,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                std::vector<ColumnFamilyHandle*>* handles,
                std::unique_ptr<DB>* dbptr) {
  DB* db = nullptr;
  Status s = Open(db_options, name, column_families, handles, &db);
  dbptr->reset(db);
  return s;
}

Status DBImpl::CheckDescriptors(
    const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& column_families,
    const char* caller, const ColumnFamilyDescriptor** default_family) {
  *default_family = nullptr;
  std::set<std::string> names;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (!names.insert(d.name).second) {
      return Status::InvalidArgument(std::string(caller) + ": column family ",
                                     d.name + " is named twice");
    }
    if (d.name == kDefaultColumnFamilyName) *default_family = &d;
    Status s = ValidateOptions(Options(db_options, d.options));
    if (!s.ok()) return s;
  }
  if (*default_family == nullptr) {
    return Status::InvalidArgument(
        std::string(caller) +
        ": column_families must include the default column family");
  }
  return Status::OK();
}

Status DB::ListColumnFamilies(const DBOptions& db_options,
                              const std::string& name,
                              std::vector<std::string>* column_families) {
  if (db_options.env == nullptr) {
    return Status::InvalidArgument("DBOptions::env is null");
  }
  return VersionSet::ListColumnFamilies(db_options.env, name, column_families);
}

Status DBImpl::Open(const std::vector<ColumnFamilyDescriptor>& column_families,
                    std::vector<ColumnFamilyHandle*>* handles) {
  MutexLock l(&mutex_);
  Status s = secondary_   ? RecoverSecondary(column_families)
             : read_only_ ? RecoverReadOnly(column_families)
                          : Recover(column_families);
  if (s.ok()) {
    for (const ColumnFamilyDescriptor& d : column_families) {
      handles->push_back(
          NewHandle(versions_->column_families()->FindByName(d.name)));
    }
    opened_ = true;
    if (read_only_) return s;  // and no background work ever
    env_->IncBackgroundThreadsIfNeeded(1, Env::HIGH);
    env_->IncBackgroundThreadsIfNeeded(MaxCompactions(), Env::LOW);
    MaybeScheduleCompaction();  // the tree as recovered may need one
    STRATA_LOG_INFO(info_log_, "opened %s at sequence %llu", dbname_.c_str(),
                    static_cast<unsigned long long>(last_published_.load()));
  }
  return s;
}

Status DBImpl::Recover(
    const std::vector<ColumnFamilyDescriptor>& column_families) {
  if (options_.create_if_missing) {
    Status s = env_->CreateDirIfMissing(dbname_);
    if (!s.ok()) return s;
  }
  Status s = env_->FileExists(CurrentFileName(dbname_));
  if (s.IsNotFound()) {
    if (!options_.create_if_missing) {
      return Status::InvalidArgument(
          dbname_, ": does not exist (create_if_missing is false)");
    }
  } else if (!s.ok()) {
    return s;
  }

  s = env_->LockFile(LockFileName(dbname_), &db_lock_);
  if (!s.ok()) {
    db_lock_ = nullptr;
    return s;
  }

  if (info_log_ == nullptr) info_log_ = NewInfoLog(env_, dbname_);

  // Re-check under the lock: another process may have created it. Only
  // NotFound means there is none: an error checking says nothing, and
  // taken for "no CURRENT" it would fail the open of an existing DB with
  // a misleading Corruption (or create one over it).
  s = env_->FileExists(CurrentFileName(dbname_));
  if (!s.ok() && !s.IsNotFound()) return s;
  if (s.IsNotFound()) {
    std::vector<std::string> children;
    s = env_->GetChildren(dbname_, &children);
    if (!s.ok()) return s;
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(child, &number, &type) &&
          (type == FileType::kWalFile || type == FileType::kTableFile ||
           type == FileType::kDescriptorFile)) {
        return Status::Corruption(
            dbname_, ": holds " + child +
                         " but no CURRENT (a DestroyDB cut short?); not "
                         "creating a DB over it");
      }
    }
    s = CreateNew();
    if (!s.ok()) return s;
  } else if (options_.error_if_exists) {
    return Status::InvalidArgument(dbname_,
                                   ": exists (error_if_exists is true)");
  }

  s = CheckRecordedOptions(column_families);
  if (!s.ok()) return s;

  std::map<std::string, Options> family_options;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (d.name != kDefaultColumnFamilyName) {
      family_options[d.name] = SanitizeOptions(Options(options_, d.options));
    }
  }
  bool save_manifest = false;
  s = versions_->Recover(family_options, &save_manifest);
  if (!s.ok()) return s;
  // Families named but not in the DB: created once the WALs are replayed.
  std::vector<const ColumnFamilyDescriptor*> missing;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (versions_->column_families()->FindByName(d.name) != nullptr) continue;
    if (!options_.create_missing_column_families) {
      return Status::InvalidArgument(
          dbname_, ": has no column family " + d.name +
                       " (create_missing_column_families is false)");
    }
    missing.push_back(&d);
  }

  std::vector<uint64_t> logs;
  s = FindLogFiles(&logs);
  if (!s.ok()) return s;
  // A copy of a DB (a checkpoint) comes without IDENTITY: it is a DB of
  // its own, with an id of its own.
  s = env_->FileExists(IdentityFileName(dbname_));
  if (s.IsNotFound()) s = WriteIdentity(versions_->NewFileNumber());
  if (!s.ok()) return s;

  const std::vector<ColumnFamilyData*> families =
      versions_->column_families()->All();
  s = ReplayLogs(logs);
  if (!s.ok()) return s;

  const uint64_t log_number = NewFileNumber();
  {
    MutexLock l(&log_mutex_);
    s = NewLogFile(log_number, /*sync_dir=*/true, &log_);
    // WALs kept for prepared sections are replayed again by the next
    // open, this one's after them: it must name its predecessor, as a WAL
    // started at a switch does (a WAL without one after replayed WALs
    // reads as a power loss's hole).
    if (s.ok() && prepared_floor_set_ && last_replayed_log_ != 0) {
      s = log_->AddPredecessor(last_replayed_log_, last_replayed_end_);
    }
  }
  if (!s.ok()) return s;
  // The replayed WALs are obsolete once the edit below is in (their sizes
  // do not count towards max_total_wal_size).
  for (uint64_t number : logs) live_logs_.push_back({number, 0});
  live_logs_.push_back({log_number, 0});
  // The recovered data goes into level-0 tables and every family's log
  // number moves to the new WAL, in one MANIFEST record, so the replayed
  // WALs become obsolete. That is also what keeps a recovery that dropped
  // damaged records from meeting the damage again (a later point-in-time
  // open would stop at it and lose every write made after this open):
  // the damaged WAL is gone once the edit is durable, and until then it is
  // replayed the same way. (A recovered MANIFEST is never appended to:
  // this edit starts a new one.)
  std::vector<VersionEdit> edits(families.size());
  std::vector<VersionEdit*> edit_ptrs;
  std::vector<uint64_t> tables;
  for (size_t i = 0; s.ok() && i < families.size(); i++) {
    ColumnFamilyData* cfd = families[i];
    if (cfd->mem->num_entries() > 0) {
      cfd->mem->MarkImmutable();  // replayed in full: no write follows
      uint64_t table = 0;
      s = WriteLevel0Table(cfd, {cfd->mem}, &edits[i], &table, nullptr);
      tables.push_back(table);
    }
    edits[i].SetLogNumber(log_number);
    edit_ptrs.push_back(&edits[i]);
  }
  if (s.ok()) s = versions_->LogAndApply(families, edit_ptrs, &mutex_);
  for (uint64_t table : tables) pending_outputs_.erase(table);
  if (!s.ok()) return s;
  for (ColumnFamilyData* cfd : families) {
    cfd->mem->Unref();
    cfd->mem = NewMemTable(cfd);
  }
  for (const ColumnFamilyDescriptor* d : missing) {
    ColumnFamilyData* cfd = nullptr;
    s = CreateFamily(d->name, d->options, &cfd);
    if (!s.ok()) return s;
  }
  RebuildRoutes();
  DeleteObsoleteFiles();
  return PersistOptions();
}

std::shared_ptr<Logger> DBImpl::NewInfoLog(Env* env,
                                           const std::string& dbname) {
  // Keep the previous LOG; a DB that cannot log still opens.
  env->RenameFile(InfoLogFileName(dbname),
                  OldInfoLogFileName(dbname, env->NowMicros()));
  std::shared_ptr<Logger> info_log;
  if (!env->NewLogger(InfoLogFileName(dbname), &info_log).ok()) {
    info_log.reset();
  }
  return info_log;
}

Status DBImpl::FindLogFiles(std::vector<uint64_t>* logs) {
  std::vector<std::string> children;
  Status s = env_->GetChildren(dbname_, &children);
  if (!s.ok()) return s;
  const uint64_t min_log = versions_->MinLogNumberToKeep();
  std::set<uint64_t> tables;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type)) continue;
    if (type == FileType::kInfoLogFile) continue;  // numbered by time
    if (type == FileType::kTableFile) tables.insert(number);
    // Files written after the MANIFEST's last edit (a WAL started at a
    // switch) are numbered above what it records.
    versions_->MarkFileNumberUsed(number);
    // Older WALs are fully in tables and hold no prepared section
    // (DeleteObsoleteFiles removes them).
    if (type == FileType::kWalFile && number >= min_log) {
      logs->push_back(number);
    }
  }
  std::sort(logs->begin(), logs->end());
  std::vector<uint64_t> live;
  versions_->AddLiveFiles(&live);
  for (uint64_t number : live) {
    if (tables.count(number) == 0) {
      return Status::Corruption(
          TableFileName(dbname_, number),
          "missing: the MANIFEST holds this table but the DB directory does "
          "not");
    }
  }
  return Status::OK();
}

Status DBImpl::CreateNew() {
  // A VersionSet of its own numbers the new files; the DB's set then
  // recovers what it wrote, as for any open. IDENTITY first, CURRENT
  // last: CURRENT marks a complete DB, so a crash before it leaves a
  // directory the next open creates the DB in again. (The OPTIONS file
  // is written once the open has succeeded, as at every open.)
  VersionSet creator(dbname_, env_, VersionSetOptionsFor(options_), options_);
  Status s = WriteIdentity(creator.NewFileNumber());
  if (!s.ok()) return s;
  // The first edit writes MANIFEST (a snapshot naming the comparator)
  // and CURRENT.
  port::Mutex mu;
  VersionEdit edit;
  {
    MutexLock l(&mu);
    s = creator.LogAndApply(&edit, &mu);
  }
  if (s.ok()) {
    STRATA_LOG_INFO(info_log_, "created %s", dbname_.c_str());
  }
  return s;
}

Status DBImpl::ReplayLogs(const std::vector<uint64_t>& logs) {
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    cfd->mem = NewMemTable(cfd);
  }
  Status s = RecoverLogFiles(logs);
  if (!s.ok()) return s;
  // Prepared sections no commit or rollback resolved keep their WALs
  // until a transaction DB resolves them.
  for (const auto& entry : *recovered_transactions_.unresolved()) {
    prepared_logs_.Prepared(entry.first, entry.second.log_number);
  }
  // Also when the MANIFEST still records a WAL to keep (a DB that used
  // two-phase commit, reopened without allow_2pc): the number must be
  // brought down as the sections' WALs are released.
  if ((!recovered_transactions_.unresolved()->empty() ||
       versions_->RecordedMinLogNumberToKeep() != 0) &&
      !read_only_) {
    TrackPreparedLogs();
  }
  // The MANIFEST may record a later sequence than the WALs hold (data
  // dropped by a point-in-time recovery): numbering continues above both.
  const SequenceNumber last =
      std::max(versions_->LastSequence(), last_allocated_.load());
  last_allocated_ = last_published_ = last;
  versions_->SetLastSequence(last);
  return Status::OK();
}

Status DBImpl::WriteIdentity(uint64_t temp_number) {
  Random64 rnd(env_->NowMicros() ^
               (reinterpret_cast<uintptr_t>(this) * 0x9e3779b97f4a7c15ull));
  char id[40];
  std::snprintf(id, sizeof(id), "%016llx%016llx\n",
                static_cast<unsigned long long>(rnd.Next()),
                static_cast<unsigned long long>(rnd.Next()));
  return WriteFileAtomically(env_, dbname_, temp_number,
                             IdentityFileName(dbname_), id);
}

}  // namespace strata
