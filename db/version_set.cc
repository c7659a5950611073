#include "db/version_set.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_builder.h"
#include "env/file_reader.h"
#include "env/file_writer.h"
#include "util/kill_point.h"
#include "util/logging.h"

namespace strata {

namespace {

// CURRENT holds one file name; anything much longer is damage, and is not
// read into memory.
constexpr uint64_t kMaxCurrentFileSize = 4096;

}  // namespace

// A LogAndApply call waiting for its turn.
struct VersionSet::ManifestWriter {
  explicit ManifestWriter(port::Mutex* mu) : cv(mu) {}
  port::CondVar cv;
};

VersionSet::VersionSet(const std::string& dbname, Env* env,
                       const VersionSetOptions& options,
                       const Options& default_options)
    : dbname_(dbname),
      env_(env),
      options_(options),
      default_cfd_(new ColumnFamilyData(0, kDefaultColumnFamilyName,
                                        default_options, dbname)) {
  assert(default_options.num_levels >= 1 &&
         default_options.num_levels <= config::kMaxNumLevels);
  column_families_.Add(default_cfd_);
}

VersionSet::~VersionSet() { assert(writers_.empty()); }

void VersionSet::MarkFileNumberUsed(uint64_t number) {
  uint64_t next = next_file_number_.load();
  while (next <= number &&
         !next_file_number_.compare_exchange_weak(next, number + 1)) {
  }
}

void VersionSet::SetLastSequence(SequenceNumber seq) {
  assert(seq >= LastSequence());
  last_sequence_.store(seq, std::memory_order_release);
}

uint64_t VersionSet::MinLogNumber() const {
  uint64_t min_log = UINT64_MAX;
  for (ColumnFamilyData* cfd : column_families_.All()) {
    min_log = std::min(min_log, cfd->log_number());
  }
  return min_log;
}

uint64_t VersionSet::MinLogNumberToKeep() const {
  const uint64_t min_log = MinLogNumber();
  return min_log_number_to_keep_ != 0
             ? std::min(min_log, min_log_number_to_keep_)
             : min_log;
}

void VersionSet::ApplyCounters(ColumnFamilyData* cfd, const VersionEdit& edit) {
  if (edit.has_log_number()) cfd->log_number_ = edit.log_number();
  for (const auto& cp : edit.compact_pointers()) {
    if (cp.first < cfd->num_levels()) {
      cfd->compact_pointers_[cp.first] = cp.second.Encode().ToString();
    }
  }
}

void VersionSet::WriteSnapshot(const ColumnFamilyData* cfd,
                               VersionEdit* edit) const {
  edit->SetColumnFamily(cfd->id());
  if (cfd->id() != 0) edit->AddColumnFamily(cfd->name());
  edit->SetComparatorName(cfd->user_comparator()->Name());
  edit->SetLogNumber(cfd->log_number());
  for (int level = 0; level < cfd->num_levels(); level++) {
    if (!cfd->CompactPointer(level).empty()) {
      InternalKey key;
      key.DecodeFrom(cfd->CompactPointer(level));
      edit->SetCompactPointer(level, key);
    }
    for (const FileMetaData* f : cfd->current()->files(level)) {
      edit->AddFile(level, *f);
    }
  }
}

std::string VersionSet::SnapshotRecord() const {
  // The default family first, with the DB's counters: a DB with no other
  // family has the MANIFEST it had before families existed.
  std::vector<VersionEdit> edits;
  for (ColumnFamilyData* cfd : column_families_.All()) {
    edits.emplace_back();
    WriteSnapshot(cfd, &edits.back());
  }
  edits.front().SetLastSequence(LastSequence());
  if (column_families_.max_id() > 0) {
    edits.front().SetMaxColumnFamily(column_families_.max_id());
  }
  edits.front().SetNextFile(next_file_number_.load());
  if (min_log_number_to_keep_ != 0) {
    edits.front().SetMinLogNumberToKeep(min_log_number_to_keep_);
  }
  std::vector<const VersionEdit*> ptrs;
  for (const VersionEdit& e : edits) ptrs.push_back(&e);
  std::string record;
  VersionEdit::EncodeGroup(ptrs, &record);
  return record;
}

Status VersionSet::StartManifest(uint64_t number, const std::string& snapshot,
                                 std::unique_ptr<log::Writer>* writer) {
  const std::string fname = DescriptorFileName(dbname_, number);
  const EnvOptions env_options =
      env_->OptimizeForManifestWrite(options_.env_options);
  std::unique_ptr<WritableFile> file;
  Status s = env_->NewWritableFile(fname, &file, env_options);
  if (!s.ok()) return s;
  writer->reset(new log::Writer(
      std::make_unique<WritableFileWriter>(std::move(file), fname, env_options),
      number));
  return (*writer)->AddRecord(snapshot);
}

Status VersionSet::LogAndApply(const std::vector<ColumnFamilyData*>& cfds,
                               const std::vector<VersionEdit*>& edits,
                               port::Mutex* mu) {
  mu->AssertHeld();
  assert(!cfds.empty() && cfds.size() == edits.size());
  ManifestWriter w(mu);
  writers_.push_back(&w);
  while (writers_.front() != &w) w.cv.Wait();

  Status s;
  for (ColumnFamilyData* cfd : cfds) {
    // A flush or compaction that ran while its family was dropped.
    if (cfd->dropped()) s = Status::ColumnFamilyDropped(cfd->name());
  }
  // New versions (refs 0), owned here until installed.
  std::vector<Version*> versions;
  for (size_t i = 0; s.ok() && i < cfds.size(); i++) {
    ColumnFamilyData* cfd = cfds[i];
    VersionEdit* edit = edits[i];
    edit->SetColumnFamily(cfd->id());
    if (edit->has_log_number()) {
      if (edit->log_number() < cfd->log_number() ||
          edit->log_number() >= next_file_number_.load()) {
        s = Status::InvalidArgument(
            "LogAndApply: log number " + NumberToString(edit->log_number()) +
            " outside [" + NumberToString(cfd->log_number()) + ", " +
            NumberToString(next_file_number_.load()) + ")");
      }
    } else {
      edit->SetLogNumber(cfd->log_number());
    }
    versions.push_back(new Version(&cfd->icmp(), cfd->num_levels()));
    if (s.ok() && !edit->is_column_family_drop()) {
      VersionBuilder builder(&cfd->icmp(), cfd->current());
      s = builder.Apply(*edit);
      if (s.ok()) s = builder.SaveTo(versions.back());
    }
  }
  edits.back()->SetLastSequence(LastSequence());
  if (prepared_log_floor_) {
    edits.back()->SetMinLogNumberToKeep(prepared_log_floor_());
  }

  // A new MANIFEST begins with the state before these edits; they follow
  // it as its second record.
  uint64_t new_manifest = 0;
  std::string snapshot;
  if (s.ok() && (descriptor_log_ == nullptr ||
                 manifest_file_size_ >= options_.max_manifest_file_size)) {
    new_manifest = NewFileNumber();
    snapshot = SnapshotRecord();
  }
  edits.back()->SetNextFile(next_file_number_.load());

  bool io_failed = false;
  bool current_switched = false;
  std::unique_ptr<log::Writer> new_log;
  if (s.ok()) {
    std::string record;
    VersionEdit::EncodeGroup(
        std::vector<const VersionEdit*>(edits.begin(), edits.end()), &record);
    // Only the front writer touches the MANIFEST, so mu can go while the
    // I/O runs; no family's current version changes meanwhile.
    mu->Unlock();
    if (new_manifest != 0) s = StartManifest(new_manifest, snapshot, &new_log);
    log::Writer* log =
        new_manifest != 0 ? new_log.get() : descriptor_log_.get();
    TEST_KILL_POINT("Manifest::AddRecord");
    if (s.ok()) s = log->AddRecord(record);
    TEST_KILL_POINT("Manifest::Sync");
    if (s.ok()) s = log->file()->Sync(options_.use_fsync);
    if (s.ok() && new_manifest != 0) {
      const std::string name =
          DescriptorFileName(dbname_, new_manifest).substr(dbname_.size() + 1);
      s = WriteFileAtomically(env_, dbname_, new_manifest,
                              CurrentFileName(dbname_), name + "\n",
                              &current_switched);
    }
    mu->Lock();
    io_failed = !s.ok();
  }

  if (s.ok()) {
    if (new_manifest != 0) {
      descriptor_log_ = std::move(new_log);
      manifest_file_number_ = new_manifest;
    }
    manifest_file_size_ = descriptor_log_->file()->GetFileSize();
    if (edits.back()->has_min_log_number_to_keep()) {
      min_log_number_to_keep_ = edits.back()->min_log_number_to_keep();
    }
    for (size_t i = 0; i < cfds.size(); i++) {
      ColumnFamilyData* cfd = cfds[i];
      ApplyCounters(cfd, *edits[i]);
      if (edits[i]->is_column_family_drop()) {
        delete versions[i];
        column_families_.Remove(cfd);
        continue;
      }
      cfd->AppendVersion(versions[i]);
      if (edits[i]->is_column_family_add()) column_families_.Add(cfd);
    }
  } else {
    for (Version* v : versions) delete v;
  }
  if (io_failed) {
    // What reached the MANIFEST is unknown: never append to it again.
    // The next LogAndApply writes a new one from the state in memory.
    descriptor_log_.reset();
    if (new_log != nullptr) {
      new_log->Close();
      new_log.reset();
      // Once CURRENT names it, the new MANIFEST must stay. Until then it
      // must go: a MANIFEST without CURRENT is what a DestroyDB cut short
      // leaves, and an open refuses to create a DB over it — a creation
      // failing here would leave a directory no open takes.
      if (!current_switched) {
        env_->RemoveFile(DescriptorFileName(dbname_, new_manifest));
      }
    }
  }

  writers_.pop_front();
  if (!writers_.empty()) writers_.front()->cv.Signal();
  return s;
}

Status VersionSet::CreateColumnFamily(const std::string& name,
                                      const Options& options,
                                      uint64_t log_number, port::Mutex* mu,
                                      ColumnFamilyData** result) {
  mu->AssertHeld();
  assert(column_families_.FindByName(name) == nullptr);
  const uint32_t id = column_families_.max_id() + 1;
  // Referenced while the edit is written, so a failure frees it.
  ColumnFamilyData* cfd = new ColumnFamilyData(id, name, options, dbname_);
  cfd->Ref();
  VersionEdit edit;
  edit.AddColumnFamily(name);
  edit.SetComparatorName(cfd->user_comparator()->Name());
  edit.SetMaxColumnFamily(id);
  edit.SetLogNumber(log_number);
  Status s = LogAndApply(cfd, &edit, mu);
  *result = s.ok() ? cfd : nullptr;
  cfd->Unref();  // the set holds it now, if it was added
  return s;
}

Status VersionSet::DropColumnFamily(ColumnFamilyData* cfd, port::Mutex* mu) {
  mu->AssertHeld();
  assert(cfd->id() != 0 && !cfd->dropped());
  VersionEdit edit;
  edit.DropColumnFamily();
  return LogAndApply(cfd, &edit, mu);
}

Status VersionSet::ReadCurrentFile(std::string* manifest_name,
                                   uint64_t* number) {
  const std::string current = CurrentFileName(dbname_);
  uint64_t size = 0;
  Status s = env_->GetFileSize(current, &size);
  if (!s.ok()) return s;
  if (size > kMaxCurrentFileSize) {
    return Status::Corruption(current, "is " + NumberToString(size) +
                                           " bytes, too long for a file name");
  }
  std::string contents;
  s = ReadFileToString(env_, current, &contents);
  if (!s.ok()) return s;
  if (contents.empty() || contents.back() != '\n') {
    return Status::Corruption(current, "does not end with a newline");
  }
  contents.pop_back();
  FileType type;
  if (!ParseFileName(contents, number, &type) ||
      type != FileType::kDescriptorFile) {
    return Status::Corruption(current, "does not name a MANIFEST: \"" +
                                           EscapeString(contents) + "\"");
  }
  *manifest_name = dbname_ + "/" + contents;
  return Status::OK();
}

Status VersionSet::ReadManifest(
    const std::string& fname, uint64_t number,
    const std::function<Status(const VersionEdit&, const std::string&)>& fn,
    uint64_t* end, uint64_t skip) {
  std::unique_ptr<SequentialFile> file;
  Status s = env_->NewSequentialFile(fname, &file, options_.env_options);
  if (!s.ok()) {
    if (s.IsNotFound()) {
      return Status::Corruption("CURRENT names a missing MANIFEST", fname);
    }
    return s;
  }
  // The first damage the reader reports.
  log::Reader::FirstReporter reporter;
  log::Reader reader(
      std::make_unique<SequentialFileReader>(std::move(file), fname), &reporter,
      /*checksum=*/true, number);
  reader.CheckTornTails();
  Slice record;
  std::string scratch;
  std::vector<VersionEdit> edits;
  // A record cut short by the end of the file is an edit whose append a
  // crash interrupted before its sync: it was never acknowledged, so it
  // is dropped (a recovered MANIFEST is never appended to). Any other
  // damage is Corruption — a record that looks cut short while an intact
  // record follows it included (CheckTornTails): its length is damaged,
  // and dropping it would drop the acknowledged edits after it, whose
  // tables the open would then delete as obsolete.
  while (s.ok() &&
         reader.ReadRecord(&record, &scratch,
                           WALRecoveryMode::kTolerateCorruptedTailRecords)) {
    if (!reporter.first().ok()) break;
    if (reader.LastRecordOffset() < skip) continue;
    const std::string where =
        fname + " offset " + NumberToString(reader.LastRecordOffset());
    s = VersionEdit::DecodeGroup(record, &edits);
    if (!s.ok()) return Status::Corruption(where, s.getState());
    for (const VersionEdit& edit : edits) {
      s = fn(edit, where);
      if (!s.ok()) return s;
    }
  }
  if (!reporter.first().ok()) {
    // The reader's message names the MANIFEST's number and offset.
    return Status::Corruption(fname, reporter.first().getState());
  }
  if (end != nullptr) *end = reader.EndOfLastRecord();
  return s;
}

Status VersionSet::Recover(const std::map<std::string, Options>& families,
                           bool* save_manifest, bool every_family) {
  std::string fname;
  uint64_t manifest_number = 0;
  Status s = ReadCurrentFile(&fname, &manifest_number);
  if (!s.ok()) return s;

  bool have_log_number = false;
  bool have_next_file = false;
  bool have_last_sequence = false;
  uint64_t next_file = 0;
  SequenceNumber last_sequence = 0;
  uint64_t max_file_number = 0;
  // The builders of the families being recovered, by id.
  std::map<uint32_t, std::unique_ptr<VersionBuilder>> builders;
  builders[0].reset(
      new VersionBuilder(&default_cfd_->icmp(), default_cfd_->current()));
  // Families recorded but not in families: their edits are skipped.
  std::map<uint32_t, std::string> unopened;
  s = ReadManifest(
      fname, manifest_number,
      [&](const VersionEdit& edit, const std::string& where) {
        const uint32_t id = edit.column_family();
        column_families_.UpdateMaxId(id);
        if (edit.has_max_column_family()) {
          column_families_.UpdateMaxId(edit.max_column_family());
        }
        if (edit.is_column_family_add()) {
          if (id == 0 || column_families_.Find(id) != nullptr ||
              unopened.count(id) > 0) {
            return Status::Corruption(
                where, "adds column family " + NumberToString(id) + " again");
          }
          const auto it = families.find(edit.column_family_name());
          if (it == families.end()) {
            unopened[id] = edit.column_family_name();
            return Status::OK();
          }
          ColumnFamilyData* cfd = new ColumnFamilyData(
              id, edit.column_family_name(), it->second, dbname_);
          column_families_.Add(cfd);
          builders[id].reset(new VersionBuilder(&cfd->icmp(), cfd->current()));
        }
        if (unopened.count(id) > 0) {
          if (edit.is_column_family_drop()) unopened.erase(id);
          return Status::OK();
        }
        ColumnFamilyData* cfd = column_families_.Find(id);
        if (cfd == nullptr) {
          return Status::Corruption(where, "edits column family " +
                                               NumberToString(id) +
                                               ", which does not exist");
        }
        if (edit.has_comparator() &&
            edit.comparator() != cfd->user_comparator()->Name()) {
          return Status::InvalidArgument(
              fname, "column family " + cfd->name() + "'s comparator is " +
                         edit.comparator() + ", it is being opened with " +
                         cfd->user_comparator()->Name());
        }
        if (edit.is_column_family_drop()) {
          if (id == 0) {
            return Status::Corruption(where, "drops the default column family");
          }
          builders.erase(id);
          column_families_.Remove(cfd);
          return Status::OK();
        }
        Status a = builders[id]->Apply(edit);
        if (!a.ok()) {
          return a.IsCorruption()
                     ? Status::Corruption(where, a.getState())
                     : Status::InvalidArgument(where, a.getState());
        }
        for (const auto& nf : edit.new_files()) {
          max_file_number = std::max(max_file_number, nf.second.number);
        }
        ApplyCounters(cfd, edit);
        if (edit.has_log_number()) have_log_number = true;
        if (edit.has_next_file_number()) {
          next_file = edit.next_file_number();
          have_next_file = true;
        }
        if (edit.has_last_sequence()) {
          last_sequence = edit.last_sequence();
          have_last_sequence = true;
        }
        if (edit.has_min_log_number_to_keep()) {
          min_log_number_to_keep_ = edit.min_log_number_to_keep();
        }
        return Status::OK();
      },
      &recovered_manifest_end_);
  if (s.ok()) {
    if (!have_next_file) {
      s = Status::Corruption(fname, "no next file number recorded");
    } else if (!have_log_number) {
      s = Status::Corruption(fname, "no log number recorded");
    } else if (!have_last_sequence) {
      s = Status::Corruption(fname, "no last sequence recorded");
    }
  }
  if (s.ok() && every_family && !unopened.empty()) {
    std::string names;
    for (const auto& entry : unopened) {
      names += (names.empty() ? "" : ", ") + entry.second;
    }
    s = Status::InvalidArgument(
        dbname_, "every column family must be opened; not given: " + names);
  }
  std::vector<std::pair<ColumnFamilyData*, Version*>> recovered;
  for (const auto& entry : builders) {
    if (!s.ok()) break;
    ColumnFamilyData* cfd = column_families_.Find(entry.first);
    Version* v = new Version(&cfd->icmp(), cfd->num_levels());
    s = entry.second->SaveTo(v);
    if (!s.ok()) {
      delete v;
      s = Status::Corruption(fname, s.getState());
      break;
    }
    recovered.emplace_back(cfd, v);
  }
  builders.clear();  // they hold refs on the families' versions
  if (!s.ok()) {
    for (auto& r : recovered) delete r.second;
    return s;
  }
  for (auto& r : recovered) {
    r.first->AppendVersion(r.second);
    MarkFileNumberUsed(r.first->log_number());
  }
  manifest_file_number_ = manifest_number;
  MarkFileNumberUsed(next_file == 0 ? 0 : next_file - 1);
  MarkFileNumberUsed(manifest_number);
  MarkFileNumberUsed(max_file_number);
  SetLastSequence(std::max(LastSequence(), last_sequence));
  *save_manifest = true;
  return Status::OK();
}

Status VersionSet::ListColumnFamilies(Env* env, const std::string& dbname,
                                      std::vector<std::string>* names) {
  names->clear();
  VersionSet reader(dbname, env, VersionSetOptions(), Options());
  std::string fname;
  uint64_t number = 0;
  Status s = reader.ReadCurrentFile(&fname, &number);
  if (!s.ok()) return s;
  std::map<uint32_t, std::string> live;
  live[0] = kDefaultColumnFamilyName;
  s = reader.ReadManifest(
      fname, number, [&](const VersionEdit& edit, const std::string& where) {
        if (edit.is_column_family_add()) {
          live[edit.column_family()] = edit.column_family_name();
        } else if (edit.is_column_family_drop()) {
          if (edit.column_family() == 0) {
            return Status::Corruption(where, "drops the default column family");
          }
          live.erase(edit.column_family());
        }
        return Status::OK();
      });
  if (!s.ok()) return s;
  for (const auto& entry : live) names->push_back(entry.second);
  return Status::OK();
}

void VersionSet::AddLiveFiles(std::vector<uint64_t>* live) const {
  for (ColumnFamilyData* cfd : column_families_.All()) {
    cfd->AddLiveFiles(live);
  }
  for (ColumnFamilyData* cfd : column_families_.Dropped()) {
    cfd->AddLiveFiles(live);
  }
}

int VersionSet::NumLevelFiles(int level) const {
  return current()->NumFiles(level);
}

uint64_t VersionSet::NumLevelBytes(int level) const {
  return current()->NumLevelBytes(level);
}

}  // namespace strata
