// DBImpl::GetLiveFilesStorageInfo: every file a copy of the live DB needs,
// seen at one instant (docs/versions.md, "Live files").
//
// Under the mutex it takes the families' current tables, the MANIFEST's
// number and length, the WALs not yet obsolete and the published sequence
// number S; these agree, because a flush installs its table and moves its
// family's log number in one step, under the mutex, together with the
// MANIFEST's new length. The copy must hold exactly the writes up to S:
// the tables hold only published writes, and each WAL is cut after its
// last record at or below S (a WAL is written in sequence order, and a
// published write's record is in the OS before it is published). WALs
// after the one holding a record past S are left out.

#include <algorithm>
#include <cassert>
#include <utility>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/wal_scan.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// Reads WAL number up to its first batch past last: *end is where the
// records before it end, *beyond whether there is such a batch.
Status WalPrefix(Env* env, const std::string& dbname, uint64_t number,
                 SequenceNumber last, uint64_t* end, bool* beyond) {
  *end = 0;
  *beyond = false;
  return ScanWal(env, dbname, number,
                 [&](bool is_batch, SequenceNumber first, uint64_t record_end) {
                   if (is_batch && first > last) {
                     *beyond = true;
                     return false;
                   }
                   *end = record_end;
                   return true;
                 });
}

LiveFileStorageInfo LiveFile(const std::string& dbname, const std::string& path,
                             uint64_t number, FileType type, uint64_t size) {
  LiveFileStorageInfo file;
  file.relative_filename = path.substr(path.rfind('/') + 1);
  file.directory = dbname;
  file.file_number = number;
  file.file_type = type;
  file.size = size;
  return file;
}

}  // namespace

Status DBImpl::GetLiveFilesStorageInfo(
    const LiveFilesStorageInfoOptions& opts,
    std::vector<LiveFileStorageInfo>* files) {
  SequenceNumber sequence;
  return LiveFilesAt(opts, files, &sequence);
}

Status DBImpl::LiveFilesAt(const LiveFilesStorageInfoOptions& opts,
                           std::vector<LiveFileStorageInfo>* files,
                           SequenceNumber* sequence) {
  files->clear();
  bool flush = opts.wal_size_for_flush == 0;
  if (!flush) {
    MutexLock l(&mutex_);
    flush = LiveLogBytes() >= opts.wal_size_for_flush;
  }
  Status s;
  if (flush) s = FlushAllFamilies();
  uint64_t options_number = 0;
  bool has_options = false;
  if (s.ok()) s = NewestOptionsFile(&options_number, &has_options);
  if (!s.ok()) return s;

  std::vector<std::pair<uint64_t, uint64_t>> tables;  // number, size
  std::vector<LiveLog> wals;  // the finished ones with their lengths
  uint64_t manifest_number, manifest_size;
  SequenceNumber last;
  {
    MutexLock l(&mutex_);
    last = last_published_.load(std::memory_order_acquire);
    for (ColumnFamilyData* cfd : versions_->column_families()->All()) {
      const Version* v = cfd->current();
      for (int level = 0; level < v->num_levels(); level++) {
        for (const FileMetaData* f : v->files(level)) {
          assert(f->largest_seqno <= last);
          tables.emplace_back(f->number, f->file_size);
        }
      }
    }
    manifest_number = versions_->ManifestFileNumber();
    manifest_size = versions_->ManifestFileSize();
    const uint64_t min_log = versions_->MinLogNumberToKeep();
    for (const LiveLog& log : live_logs_) {
      if (log.number >= min_log) wals.push_back(log);
    }
  }
  std::sort(tables.begin(), tables.end());

  for (const auto& table : tables) {
    files->push_back(LiveFile(dbname_, TableFileName(dbname_, table.first),
                              table.first, kTableFile, table.second));
  }
  if (has_options) {
    const std::string path = OptionsFileName(dbname_, options_number);
    uint64_t size = 0;
    s = env_->GetFileSize(path, &size);
    if (!s.ok()) return s;
    files->push_back(
        LiveFile(dbname_, path, options_number, kOptionsFile, size));
  }
  const std::string manifest = DescriptorFileName(dbname_, manifest_number);
  files->push_back(LiveFile(dbname_, manifest, manifest_number, kDescriptorFile,
                            manifest_size));
  files->back().trim_to_size = true;
  for (size_t i = 0; i < wals.size(); i++) {
    const uint64_t number = wals[i].number;
    uint64_t end;
    bool beyond;
    s = WalPrefix(env_, dbname_, number, last, &end, &beyond);
    if (!s.ok()) return s;
    // A WAL followed by another in the copy goes whole, as long as it was
    // when finished: the next one's predecessor record names that length,
    // which a recovery checks (a WAL holding no record but that
    // predecessor record of its own is not empty).
    const bool followed = !beyond && i + 1 < wals.size();
    files->push_back(LiveFile(dbname_, LogFileName(dbname_, number), number,
                              kWalFile, followed ? wals[i].size : end));
    files->back().trim_to_size = true;
    if (beyond) break;  // the later WALs hold only later writes
  }
  LiveFileStorageInfo current =
      LiveFile(dbname_, CurrentFileName(dbname_), 0, kCurrentFile, 0);
  current.replacement_contents =
      manifest.substr(manifest.rfind('/') + 1) + "\n";
  current.size = current.replacement_contents.size();
  files->push_back(std::move(current));

  if (opts.include_checksum_info) {
    for (LiveFileStorageInfo& file : *files) {
      file.file_checksum_func_name = "Unknown";
    }
  }
  *sequence = last;
  return Status::OK();
}

}  // namespace strata
