#include "db/version_set.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_builder.h"
#include "env/file_reader.h"
#include "env/file_writer.h"
#include "util/logging.h"

namespace strata {

namespace {

// CURRENT holds one file name; anything much longer is damage, and is not
// read into memory.
constexpr uint64_t kMaxCurrentFileSize = 4096;

// Keeps the first damage a MANIFEST reader reports.
class ManifestReporter final : public log::Reader::Reporter {
 public:
  void Corruption(size_t, const Status& status) override {
    if (first_.ok()) first_ = status;
  }
  const Status& first() const { return first_; }

 private:
  Status first_;
};

}  // namespace

// A LogAndApply call waiting for its turn.
struct VersionSet::ManifestWriter {
  explicit ManifestWriter(port::Mutex* mu) : cv(mu) {}
  port::CondVar cv;
};

VersionSet::VersionSet(const std::string& dbname, Env* env,
                       const InternalKeyComparator* icmp,
                       TableCache* table_cache,
                       const VersionSetOptions& options)
    : dbname_(dbname),
      env_(env),
      icmp_(icmp),
      table_cache_(table_cache),
      options_(options),
      compact_pointers_(options.num_levels),
      dummy_versions_(icmp, 0) {
  assert(options.num_levels >= 1 &&
         options.num_levels <= config::kMaxNumLevels);
  AppendVersion(new Version(icmp_, options_.num_levels));
}

VersionSet::~VersionSet() {
  assert(writers_.empty());
  current_->Unref();
  assert(dummy_versions_.next_ == &dummy_versions_);  // no version leaked
}

void VersionSet::AppendVersion(Version* v) {
  assert(v->refs_ == 0 && v != current_);
  if (current_ != nullptr) current_->Unref();
  current_ = v;
  v->Ref();
  // Insert at the tail of the ring.
  v->prev_ = dummy_versions_.prev_;
  v->next_ = &dummy_versions_;
  v->prev_->next_ = v;
  v->next_->prev_ = v;
}

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

void VersionSet::ApplyCounters(const VersionEdit& edit) {
  if (edit.has_log_number()) log_number_ = edit.log_number();
  for (const auto& cp : edit.compact_pointers()) {
    if (cp.first < options_.num_levels) {
      compact_pointers_[cp.first] = cp.second.Encode().ToString();
    }
  }
}

void VersionSet::WriteSnapshot(VersionEdit* edit) const {
  edit->SetComparatorName(icmp_->user_comparator()->Name());
  edit->SetLogNumber(log_number_);
  edit->SetLastSequence(LastSequence());
  for (int level = 0; level < options_.num_levels; level++) {
    if (!compact_pointers_[level].empty()) {
      InternalKey key;
      key.DecodeFrom(compact_pointers_[level]);
      edit->SetCompactPointer(level, key);
    }
    for (const FileMetaData* f : current_->files(level)) {
      edit->AddFile(level, *f);
    }
  }
  // The next file number goes in by the caller, after it has taken the
  // new MANIFEST's number.
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

Status VersionSet::LogAndApply(VersionEdit* edit, port::Mutex* mu) {
  mu->AssertHeld();
  ManifestWriter w(mu);
  writers_.push_back(&w);
  while (writers_.front() != &w) w.cv.Wait();

  Status s;
  if (edit->has_log_number()) {
    if (edit->log_number() < log_number_ ||
        edit->log_number() >= next_file_number_.load()) {
      s = Status::InvalidArgument(
          "LogAndApply: log number " + NumberToString(edit->log_number()) +
          " outside [" + NumberToString(log_number_) + ", " +
          NumberToString(next_file_number_.load()) + ")");
    }
  } else {
    edit->SetLogNumber(log_number_);
  }
  edit->SetLastSequence(LastSequence());

  Version* v = new Version(icmp_, options_.num_levels);
  if (s.ok()) {
    VersionBuilder builder(icmp_, current_);
    s = builder.Apply(*edit);
    if (s.ok()) s = builder.SaveTo(v);
  }

  // A new MANIFEST begins with the state before this edit; the edit
  // follows it as its second record.
  uint64_t new_manifest = 0;
  std::string snapshot;
  if (s.ok() && (descriptor_log_ == nullptr ||
                 manifest_file_size_ >= options_.max_manifest_file_size)) {
    new_manifest = NewFileNumber();
    VersionEdit snapshot_edit;
    WriteSnapshot(&snapshot_edit);
    snapshot_edit.SetNextFile(next_file_number_.load());
    snapshot_edit.EncodeTo(&snapshot);
  }
  edit->SetNextFile(next_file_number_.load());

  bool io_failed = false;
  bool current_switch_tried = false;
  std::unique_ptr<log::Writer> new_log;
  if (s.ok()) {
    std::string record;
    edit->EncodeTo(&record);
    // Only the front writer touches the MANIFEST, so mu can go while the
    // I/O runs; current_ does not change meanwhile.
    mu->Unlock();
    if (new_manifest != 0) s = StartManifest(new_manifest, snapshot, &new_log);
    log::Writer* log =
        new_manifest != 0 ? new_log.get() : descriptor_log_.get();
    if (s.ok()) s = log->AddRecord(record);
    if (s.ok()) s = log->file()->Sync(options_.use_fsync);
    if (s.ok() && new_manifest != 0) {
      current_switch_tried = true;
      const std::string name =
          DescriptorFileName(dbname_, new_manifest).substr(dbname_.size() + 1);
      s = WriteFileAtomically(env_, dbname_, new_manifest,
                              CurrentFileName(dbname_), name + "\n");
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
    ApplyCounters(*edit);
    AppendVersion(v);
  } else {
    delete v;
    if (io_failed) {
      // What reached the MANIFEST is unknown: never append to it again.
      // The next LogAndApply writes a new one from the state in memory.
      descriptor_log_.reset();
      if (new_log != nullptr) {
        new_log->Close();
        new_log.reset();
        // Once CURRENT may name it, the new MANIFEST must stay.
        if (!current_switch_tried) {
          env_->RemoveFile(DescriptorFileName(dbname_, new_manifest));
        }
      }
    }
  }

  writers_.pop_front();
  if (!writers_.empty()) writers_.front()->cv.Signal();
  return s;
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

Status VersionSet::Recover(bool* save_manifest) {
  std::string fname;
  uint64_t manifest_number = 0;
  Status s = ReadCurrentFile(&fname, &manifest_number);
  if (!s.ok()) return s;

  std::unique_ptr<SequentialFile> file;
  s = env_->NewSequentialFile(fname, &file, options_.env_options);
  if (!s.ok()) {
    if (s.IsNotFound()) {
      return Status::Corruption("CURRENT names a missing MANIFEST", fname);
    }
    return s;
  }

  bool have_log_number = false;
  bool have_next_file = false;
  bool have_last_sequence = false;
  uint64_t next_file = 0;
  SequenceNumber last_sequence = 0;
  uint64_t max_file_number = 0;
  const std::string ucmp_name = icmp_->user_comparator()->Name();
  VersionBuilder builder(icmp_, current_);
  {
    ManifestReporter reporter;
    log::Reader reader(
        std::make_unique<SequentialFileReader>(std::move(file), fname),
        &reporter, /*checksum=*/true, manifest_number);
    Slice record;
    std::string scratch;
    // A record cut short by the end of the file is an edit whose append
    // a crash interrupted before its sync: it was never acknowledged, so
    // it is dropped (a recovered MANIFEST is never appended to). Any other
    // damage is Corruption.
    while (s.ok() &&
           reader.ReadRecord(&record, &scratch,
                             WALRecoveryMode::kTolerateCorruptedTailRecords)) {
      if (!reporter.first().ok()) break;
      const std::string where =
          fname + " offset " + NumberToString(reader.LastRecordOffset());
      VersionEdit edit;
      s = edit.DecodeFrom(record);
      if (!s.ok()) {
        s = Status::Corruption(where, s.getState());
        break;
      }
      if (edit.has_comparator() && edit.comparator() != ucmp_name) {
        s = Status::InvalidArgument(
            fname, "the DB's comparator is " + edit.comparator() +
                       ", it is being opened with " + ucmp_name);
        break;
      }
      s = builder.Apply(edit);
      if (!s.ok()) {
        s = s.IsCorruption() ? Status::Corruption(where, s.getState())
                             : Status::InvalidArgument(where, s.getState());
        break;
      }
      for (const auto& nf : edit.new_files()) {
        max_file_number = std::max(max_file_number, nf.second.number);
      }
      ApplyCounters(edit);
      if (edit.has_log_number()) have_log_number = true;
      if (edit.has_next_file_number()) {
        next_file = edit.next_file_number();
        have_next_file = true;
      }
      if (edit.has_last_sequence()) {
        last_sequence = edit.last_sequence();
        have_last_sequence = true;
      }
    }
    if (s.ok() && !reporter.first().ok()) {
      // The reader's message names the MANIFEST's number and offset.
      s = Status::Corruption(fname, reporter.first().getState());
    }
  }
  if (s.ok()) {
    if (!have_next_file) {
      s = Status::Corruption(fname, "no next file number recorded");
    } else if (!have_log_number) {
      s = Status::Corruption(fname, "no log number recorded");
    } else if (!have_last_sequence) {
      s = Status::Corruption(fname, "no last sequence recorded");
    }
  }
  Version* v = nullptr;
  if (s.ok()) {
    v = new Version(icmp_, options_.num_levels);
    s = builder.SaveTo(v);
    if (!s.ok()) {
      delete v;
      s = Status::Corruption(fname, s.getState());
    }
  }
  if (!s.ok()) {
    log_number_ = 0;
    compact_pointers_.assign(options_.num_levels, std::string());
    return s;
  }

  AppendVersion(v);
  manifest_file_number_ = manifest_number;
  MarkFileNumberUsed(next_file == 0 ? 0 : next_file - 1);
  MarkFileNumberUsed(manifest_number);
  MarkFileNumberUsed(log_number_);
  MarkFileNumberUsed(max_file_number);
  SetLastSequence(std::max(LastSequence(), last_sequence));
  *save_manifest = true;
  return Status::OK();
}

void VersionSet::AddLiveFiles(std::vector<uint64_t>* live) const {
  for (const Version* v = dummy_versions_.next_; v != &dummy_versions_;
       v = v->next_) {
    v->AddLiveFiles(live);
  }
}

int VersionSet::NumLevelFiles(int level) const {
  return current_->NumFiles(level);
}

uint64_t VersionSet::NumLevelBytes(int level) const {
  return current_->NumLevelBytes(level);
}

std::string VersionSet::LevelSummary() const {
  std::string r = "files[";
  for (int level = 0; level < options_.num_levels; level++) {
    r += " " + NumberToString(current_->NumFiles(level));
  }
  r += " ]";
  return r;
}

}  // namespace strata
