// DB::OpenAsSecondary and catching up with the primary
// (db/db_impl_secondary.h; docs/operations.md, "Secondary instances").

#include "db/db_impl_secondary.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/write_batch_internal.h"
#include "env/file_reader.h"
#include "memtable/memtable.h"
#include "strata/env.h"
#include "util/logging.h"

namespace strata {

namespace {

// Catch-up attempts before TryAgain: each one that fails found a file
// deleted, so the primary had moved on and the next reads a newer state.
constexpr int kCatchUpAttempts = 10;

// Whether s says a file was not there to read (deleted by the primary, or
// on Windows pending deletion, which opens as access denied).
bool Vanished(const Status& s) {
  return s.IsNotFound() || s.IsPathNotFound() || s.IsIOError();
}

}  // namespace

Status DB::OpenAsSecondary(const Options& options, const std::string& name,
                           const std::string& secondary_path, DB** dbptr) {
  const std::vector<ColumnFamilyDescriptor> families = {
      ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)};
  std::vector<ColumnFamilyHandle*> handles;
  Status s =
      OpenAsSecondary(options, name, secondary_path, families, &handles, dbptr);
  if (s.ok()) {
    // The DB keeps its own handle on the default family.
    s = (*dbptr)->DestroyColumnFamilyHandle(handles[0]);
  }
  return s;
}

Status DB::OpenAsSecondary(
    const DBOptions& db_options, const std::string& name,
    const std::string& secondary_path,
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::vector<ColumnFamilyHandle*>* handles, DB** dbptr) {
  *dbptr = nullptr;
  if (handles == nullptr) {
    return Status::InvalidArgument("DB::OpenAsSecondary: handles is null");
  }
  handles->clear();
  const ColumnFamilyDescriptor* default_family = nullptr;
  Status s = DBImpl::CheckDescriptors(db_options, column_families,
                                      "DB::OpenAsSecondary", &default_family);
  if (!s.ok()) return s;
  Options options(db_options, default_family->options);
  // A table the primary deletes stays readable once open: every table is
  // kept open (RocksDB asks for max_open_files -1 too).
  options.max_open_files = -1;
  if (options.info_log == nullptr) {
    s = options.env->CreateDirIfMissing(secondary_path);
    if (!s.ok()) return s;
    options.info_log = DBImpl::NewInfoLog(options.env, secondary_path);
  }
  // An open that met the primary switching to a new MANIFEST starts again.
  for (int attempt = 0; attempt < kCatchUpAttempts; attempt++) {
    std::unique_ptr<DBImplSecondary> impl(new DBImplSecondary(options, name));
    s = impl->Open(column_families, handles);
    if (s.ok()) *dbptr = impl.release();
    if (!s.IsTryAgain()) break;
  }
  return s;
}

Status DBImplSecondary::TryCatchUpWithPrimary() {
  MutexLock l(&mutex_);
  const Status s = CatchUpWithPrimary();
  STRATA_LOG_INFO(info_log_, "caught up with %s: %s, at sequence %llu",
                  dbname_.c_str(), s.ToString().c_str(),
                  static_cast<unsigned long long>(last_published_.load()));
  return s;
}

Status DBImplSecondary::GetLiveFilesStorageInfo(
    const LiveFilesStorageInfoOptions&, std::vector<LiveFileStorageInfo>*) {
  return Status::NotSupported("GetLiveFilesStorageInfo",
                              "not supported by a secondary instance");
}

Status DBImpl::RecoverSecondary(
    const std::vector<ColumnFamilyDescriptor>& column_families) {
  std::string current;  // empty if missing: RecoverFamiliesReadOnly says
  if (!ReadFileToString(env_, CurrentFileName(dbname_), &current).ok()) {
    current.clear();
  }
  Status s = RecoverFamiliesReadOnly(column_families);
  if (!s.ok()) {
    // The MANIFEST read may have been deleted by a primary that switched
    // to a new one meanwhile.
    std::string now;
    if (ReadFileToString(env_, CurrentFileName(dbname_), &now).ok() &&
        now != current) {
      return Status::TryAgain(
          CurrentFileName(dbname_),
          "changed while the MANIFEST was read: " + s.ToString());
    }
    return s;
  }
  // The tables Recover found are opened as those of later versions are. A
  // table already deleted was removed by a MANIFEST edit (the primary
  // deletes only then), which the catch-up applies: its family's new
  // version has its tables opened then.
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    s = OpenFollowedTables(*cfd, *cfd->current());
    if (s.IsTryAgain()) {
      STRATA_LOG_INFO(info_log_, "secondary open: %s", s.ToString().c_str());
    } else if (!s.ok()) {
      return s;
    }
  }
  return CatchUpWithPrimary();
}

Status DBImpl::CatchUpWithPrimary() {
  Status s;
  for (int attempt = 0; attempt < kCatchUpAttempts; attempt++) {
    s = CatchUpOnce();
    if (!s.IsTryAgain()) break;
    STRATA_LOG_INFO(info_log_, "catch-up attempt %d: %s", attempt + 1,
                    s.ToString().c_str());
  }
  return s;
}

Status DBImpl::CatchUpOnce() {
  // The WALs are opened before the MANIFEST is read. The primary deletes a
  // WAL only once a MANIFEST edit has put its data in tables, so every
  // WAL the MANIFEST read next still needs is among those opened, or was
  // created after them (its writes follow all of theirs). Open files stay
  // readable when the primary deletes them.
  std::vector<std::string> children;
  Status s = env_->GetChildren(dbname_, &children);
  if (!s.ok()) return s;
  std::map<uint64_t, std::unique_ptr<SequentialFile>> wals;
  std::map<uint64_t, Status> unopened;
  for (const std::string& child : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(child, &number, &type) || type != FileType::kWalFile) {
      continue;
    }
    std::unique_ptr<SequentialFile> file;
    s = env_->NewSequentialFile(LogFileName(dbname_, number), &file,
                                EnvOptions());
    if (s.ok()) {
      wals[number] = std::move(file);
    } else if (Vanished(s)) {
      unopened[number] = s;  // deleted meanwhile, unless still needed
    } else {
      return s;
    }
  }

  // A WAL listed but not opened was deleted meanwhile. If the families'
  // log numbers (which only grow) do not yet show it obsolete, the attempt
  // stops before anything changes; the next lists the directory again.
  for (const auto& u : unopened) {
    if (u.first >= versions_->MinLogNumber()) {
      return Status::TryAgain(LogFileName(dbname_, u.first),
                              "could not be opened: " + u.second.ToString());
    }
  }
  s = versions_->FollowManifest(
      [this](const ColumnFamilyData& cfd, const Version& v) {
        return OpenFollowedTables(cfd, v);
      });
  if (!s.ok()) return s;
  // Dropped families leave the routes the replay uses.
  RebuildRoutes();
  const uint64_t min_log = versions_->MinLogNumber();

  // Fresh memtables hold what the WALs hold now; readers keep the old
  // ones they reference.
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    MemTable* old = cfd->mem;
    cfd->mem = NewMemTable(cfd);
    if (old != nullptr) old->Unref();
  }
  // The WALs in order, each record into the families whose log number it
  // is at or past, up to the first record not whole (the primary is
  // writing it, or damage): what follows it would not continue a prefix.
  SequenceNumber max_sequence = 0;
  WriteBatch batch;
  std::string scratch;
  Slice record;
  bool stopped = false;
  for (auto& w : wals) {
    if (stopped) break;
    if (w.first < min_log) continue;
    const std::string fname = LogFileName(dbname_, w.first);
    // A torn tail or damage: where the reading stops.
    log::Reader::FirstReporter reporter;
    log::Reader reader(
        std::make_unique<SequentialFileReader>(std::move(w.second), fname),
        &reporter, /*checksum=*/true, w.first);
    while (reader.ReadRecord(&record, &scratch,
                             WALRecoveryMode::kAbsoluteConsistency)) {
      if (!reporter.first().ok()) break;
      SequenceNumber marker;
      if (WriteBatchInternal::IsCloseMarker(record, &marker)) continue;
      Status bad = record.size() < WriteBatchInternal::kHeader
                       ? Status::Corruption("record too small for a batch")
                       : WriteBatchInternal::SetContents(&batch, record);
      if (bad.ok()) bad = WriteBatchInternal::Validate(&batch);
      if (bad.IsNotSupported()) {
        return Status::NotSupported(fname, bad.ToString());
      }
      if (!bad.ok()) {
        reporter.Corruption(record.size(), bad);
        break;
      }
      s = ReplayBatch(&batch, w.first, &max_sequence, /*prepared=*/nullptr);
      if (!s.ok()) return s;
    }
    if (!reporter.first().ok()) {
      STRATA_LOG_INFO(info_log_, "secondary: %s ends the WALs read: %s",
                      fname.c_str(), reporter.first().ToString().c_str());
      stopped = true;
    }
  }
  // The newest write read, in a table or a WAL. (Not the MANIFEST's last
  // sequence: it can number a write still being appended to a WAL, which
  // a later catch-up would then show to a snapshot taken now.)
  SequenceNumber last = std::max(last_published_.load(), max_sequence);
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    const Version* v = cfd->current();
    for (int level = 0; level < v->num_levels(); level++) {
      for (const FileMetaData* f : v->files(level)) {
        last = std::max({last, f->largest_seqno, f->global_seqno});
      }
    }
  }
  last_allocated_ = last_published_ = last;
  if (last > versions_->LastSequence()) versions_->SetLastSequence(last);
  EvictUnfollowedTables();
  return Status::OK();
}

Status DBImpl::OpenFollowedTables(const ColumnFamilyData& cfd,
                                  const Version& v) {
  // Every table is tried: those that open stay open whatever happens.
  Status vanished;
  for (int level = 0; level < v.num_levels(); level++) {
    for (const FileMetaData* f : v.files(level)) {
      Status s = cfd.table_cache()->WithTable(
          f->number, f->file_size, [](TableReader*) {}, f->global_seqno);
      if (s.ok()) continue;
      // (The table cache reports a missing table as Corruption, lest Get
      // read NotFound as "no such key".)
      const std::string fname = TableFileName(dbname_, f->number);
      if (!Vanished(s) && !env_->FileExists(fname).IsNotFound()) return s;
      if (vanished.ok()) {
        vanished =
            Status::TryAgain(fname, "could not be opened: " + s.ToString());
      }
    }
  }
  return vanished;
}

void DBImpl::EvictUnfollowedTables() {
  std::map<uint32_t, std::set<uint64_t>> now;
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    std::vector<uint64_t> live;
    cfd->AddLiveFiles(&live);
    std::set<uint64_t>& tables = now[cfd->id()];
    tables.insert(live.begin(), live.end());
    for (uint64_t number : followed_tables_[cfd->id()]) {
      if (tables.count(number) == 0) cfd->table_cache()->Evict(number);
    }
  }
  followed_tables_ = std::move(now);
}

}  // namespace strata
