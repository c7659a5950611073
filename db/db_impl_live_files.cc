// DBImpl: what the DB tells about its files (docs/versions.md, "Live
// files") — for copies of a live DB (checkpoints, backups) and for tools.
//
// A copy lists the files under the mutex and copies them without it; the
// files stay because deletions are disabled meanwhile (the caller's
// DisableFileDeletions), not because the lists hold them.

#include <algorithm>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/options_file.h"
#include "db/wal_scan.h"
#include "util/mutexlock.h"

namespace strata {

LogFile::~LogFile() = default;

SstFileMetaData::SstFileMetaData(
    const std::string& _file_name, uint64_t _file_number,
    const std::string& _directory, uint64_t _size,
    SequenceNumber _smallest_seqno, SequenceNumber _largest_seqno,
    const std::string& _smallestkey, const std::string& _largestkey,
    uint64_t _num_reads_sampled, bool _being_compacted,
    Temperature _temperature, uint64_t _oldest_blob_file_number,
    uint64_t _oldest_ancester_time, uint64_t _file_creation_time,
    std::string& _file_checksum, std::string& _file_checksum_func_name)
    : smallest_seqno(_smallest_seqno),
      largest_seqno(_largest_seqno),
      smallestkey(_smallestkey),
      largestkey(_largestkey),
      num_reads_sampled(_num_reads_sampled),
      being_compacted(_being_compacted),
      oldest_blob_file_number(_oldest_blob_file_number),
      oldest_ancester_time(_oldest_ancester_time),
      file_creation_time(_file_creation_time) {
  relative_filename = !_file_name.empty() && _file_name[0] == '/'
                          ? _file_name.substr(1)
                          : _file_name;
  name = "/" + relative_filename;
  directory = _directory;
  db_path = _directory;
  file_number = _file_number;
  file_type = kTableFile;
  size = _size;
  temperature = _temperature;
  file_checksum = _file_checksum;
  file_checksum_func_name = _file_checksum_func_name;
}

namespace {

// The name a file has relative to the DB directory: "/000012.sst".
std::string RelativeName(const std::string& path) {
  return path.substr(path.rfind('/'));
}

class WalFile : public LogFile {
 public:
  WalFile(uint64_t number, SequenceNumber start, uint64_t size)
      : number_(number), start_(start), size_(size) {}

  std::string PathName() const override {
    return RelativeName(LogFileName("", number_));
  }
  uint64_t LogNumber() const override { return number_; }
  WalFileType Type() const override { return kAliveLogFile; }
  SequenceNumber StartSequence() const override { return start_; }
  uint64_t SizeFileBytes() const override { return size_; }

 private:
  const uint64_t number_;
  const SequenceNumber start_;
  const uint64_t size_;
};

// The sequence number of the first write batch in WAL number (0 if it has
// none yet); a WAL deleted meanwhile is NotFound.
Status FirstSequenceOf(Env* env, const std::string& dbname, uint64_t number,
                       SequenceNumber* start) {
  *start = 0;
  return ScanWal(env, dbname, number,
                 [start](bool is_batch, SequenceNumber first, uint64_t) {
                   if (is_batch) *start = first;
                   return !is_batch;
                 });
}

// A LogFile describing WAL number; a WAL deleted meanwhile is NotFound.
Status DescribeWal(Env* env, const std::string& dbname, uint64_t number,
                   std::unique_ptr<LogFile>* result) {
  SequenceNumber start;
  uint64_t size = 0;
  Status s = FirstSequenceOf(env, dbname, number, &start);
  if (s.ok()) s = env->GetFileSize(LogFileName(dbname, number), &size);
  if (s.ok()) result->reset(new WalFile(number, start, size));
  return s;
}

SstFileMetaData TableMetaData(const std::string& dbname,
                              const FileMetaData& f) {
  std::string no_checksum;
  SstFileMetaData meta(RelativeName(TableFileName(dbname, f.number)), f.number,
                       dbname, f.file_size, f.smallest_seqno, f.largest_seqno,
                       f.smallest.user_key().ToString(),
                       f.largest.user_key().ToString(),
                       /*_num_reads_sampled=*/0, f.being_compacted,
                       Temperature::kUnknown, /*_oldest_blob_file_number=*/0,
                       /*_oldest_ancester_time=*/0, /*_file_creation_time=*/0,
                       no_checksum, no_checksum);
  meta.num_entries = f.num_entries;
  meta.num_deletions = f.num_deletions;
  return meta;
}

}  // namespace

Status DBImpl::DisableFileDeletions() {
  MutexLock l(&mutex_);
  file_deletions_disabled_++;
  return Status::OK();
}

Status DBImpl::EnableFileDeletions(bool force) {
  MutexLock l(&mutex_);
  if (force) {
    file_deletions_disabled_ = 0;
  } else if (file_deletions_disabled_ > 0) {
    file_deletions_disabled_--;
  }
  if (file_deletions_disabled_ == 0 && opened_ && !closing_) {
    DeleteObsoleteFiles();
  }
  return Status::OK();
}

Status DBImpl::FlushAllFamilies() {
  std::vector<ColumnFamilyData*> families;
  {
    MutexLock l(&mutex_);
    families = versions_->column_families()->All();
    for (ColumnFamilyData* cfd : families) cfd->Ref();
  }
  Status s;
  for (ColumnFamilyData* cfd : families) {
    // A family dropped meanwhile has no files to list.
    Status f = FlushFamilies(FlushOptions(), {cfd});
    if (s.ok() && !f.ok() && !f.IsColumnFamilyDropped()) s = f;
  }
  MutexLock l(&mutex_);
  for (ColumnFamilyData* cfd : families) cfd->Unref();
  return s;
}

Status DBImpl::NewestOptionsFile(uint64_t* number, bool* found) const {
  return FindNewestOptionsFile(env_, dbname_, number, found);
}

Status DBImpl::GetLiveFiles(std::vector<std::string>& files,
                            uint64_t* manifest_file_size, bool flush_memtable) {
  if (flush_memtable) {
    Status s = FlushAllFamilies();
    if (!s.ok()) return s;
  }
  uint64_t options_number;
  bool has_options;
  Status s = NewestOptionsFile(&options_number, &has_options);
  if (!s.ok()) return s;

  MutexLock l(&mutex_);
  std::vector<uint64_t> tables;
  versions_->AddLiveFiles(&tables);
  std::sort(tables.begin(), tables.end());
  tables.erase(std::unique(tables.begin(), tables.end()), tables.end());
  files.clear();
  files.push_back(RelativeName(CurrentFileName(dbname_)));
  files.push_back(RelativeName(
      DescriptorFileName(dbname_, versions_->ManifestFileNumber())));
  if (has_options) {
    files.push_back(RelativeName(OptionsFileName(dbname_, options_number)));
  }
  for (uint64_t number : tables) {
    files.push_back(RelativeName(TableFileName(dbname_, number)));
  }
  *manifest_file_size = versions_->ManifestFileSize();
  return Status::OK();
}

Status DBImpl::GetSortedWalFiles(VectorLogPtr& files) {
  std::vector<uint64_t> numbers;
  {
    MutexLock l(&mutex_);
    const uint64_t min_log = versions_->MinLogNumberToKeep();
    for (const LiveLog& log : live_logs_) {
      if (log.number >= min_log) numbers.push_back(log.number);
    }
  }
  files.clear();
  for (uint64_t number : numbers) {
    std::unique_ptr<LogFile> wal;
    Status s = DescribeWal(env_, dbname_, number, &wal);
    // Flushed and deleted since it was listed: no longer a live WAL.
    if (s.IsNotFound()) continue;
    if (!s.ok()) return s;
    files.push_back(std::move(wal));
  }
  return Status::OK();
}

Status DBImpl::GetCurrentWalFile(std::unique_ptr<LogFile>* current_log_file) {
  uint64_t number;
  {
    MutexLock l(&mutex_);
    number = live_logs_.back().number;
  }
  return DescribeWal(env_, dbname_, number, current_log_file);
}

void DBImpl::GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) {
  MutexLock l(&mutex_);
  metadata->clear();
  for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
    const Version* v = cfd->current();
    for (int level = 0; level < v->num_levels(); level++) {
      for (const FileMetaData* f : v->files(level)) {
        LiveFileMetaData meta;
        static_cast<SstFileMetaData&>(meta) = TableMetaData(dbname_, *f);
        meta.column_family_name = cfd->name();
        meta.level = level;
        metadata->push_back(std::move(meta));
      }
    }
  }
}

void DBImpl::GetColumnFamilyMetaData(ColumnFamilyHandle* column_family,
                                     ColumnFamilyMetaData* metadata) {
  ColumnFamilyData* cfd = nullptr;
  *metadata = ColumnFamilyMetaData();
  if (!FamilyOf(column_family, &cfd).ok()) return;
  MutexLock l(&mutex_);
  metadata->name = cfd->name();
  const Version* v = cfd->current();
  for (int level = 0; level < v->num_levels(); level++) {
    std::vector<SstFileMetaData> files;
    uint64_t level_size = 0;
    for (const FileMetaData* f : v->files(level)) {
      files.push_back(TableMetaData(dbname_, *f));
      level_size += f->file_size;
    }
    metadata->size += level_size;
    metadata->file_count += files.size();
    metadata->levels.emplace_back(level, level_size, std::move(files));
  }
}

Status DBImpl::GetDbIdentity(std::string& identity) const {
  std::string contents;
  Status s = ReadFileToString(env_, IdentityFileName(dbname_), &contents);
  if (!s.ok()) return s;
  while (!contents.empty() &&
         (contents.back() == '\n' || contents.back() == '\r')) {
    contents.pop_back();
  }
  identity = contents;
  return Status::OK();
}

}  // namespace strata
