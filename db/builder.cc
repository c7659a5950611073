#include "db/builder.h"

#include <algorithm>
#include <memory>

#include "db/column_family.h"
#include "db/filename.h"
#include "db/level_targets.h"
#include "db/table_cache.h"
#include "strata/table.h"
#include "table/table_properties.h"
#include "util/kill_point.h"

namespace strata {

namespace {

// Opens the table through the cache; with paranoid_file_checks also reads
// it back: every entry must be there, with no error.
Status VerifyTable(const BuildTableOptions& options, const FileMetaData& meta,
                   uint64_t expected_entries) {
  if (!options.paranoid_file_checks) {
    return options.table_cache->WithTable(meta.number, meta.file_size,
                                          [](TableReader*) {});
  }
  // Point entries only: range tombstones are in a block of their own.
  ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;
  std::unique_ptr<InternalIterator> it(
      options.table_cache->NewIterator(ro, meta.number, meta.file_size));
  uint64_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  Status s = it->status();
  if (s.ok() && n != expected_entries) {
    s = Status::Corruption(TableFileName(options.dbname, meta.number),
                           "reads back " + std::to_string(n) + " entries of " +
                               std::to_string(expected_entries) + " written");
  }
  return s;
}

}  // namespace

TableFileBuilder::TableFileBuilder(const BuildTableOptions& options,
                                   FileMetaData* meta)
    : options_(options),
      meta_(meta),
      fname_(TableFileName(options.dbname, meta->number)) {
  meta_->file_size = 0;
}

TableFileBuilder::~TableFileBuilder() {
  if (finished_ || writer_ == nullptr) return;
  if (builder_ != nullptr) builder_->Abandon();
  writer_->Close();
  options_.env->RemoveFile(fname_);
}

Status TableFileBuilder::Open() {
  std::unique_ptr<WritableFile> file;
  Status s = options_.env->NewWritableFile(fname_, &file, options_.env_options);
  if (!s.ok()) return s;
  writer_ = std::make_unique<WritableFileWriter>(std::move(file), fname_,
                                                 options_.env_options);
  writer_->SetRateLimiter(options_.rate_limiter, options_.io_priority);
  builder_.reset(options_.table_factory->NewTableBuilder(
      options_.builder_options, writer_.get()));
  return builder_->status();
}

Status TableFileBuilder::Add(const Slice& key, const Slice& value) {
  ParsedInternalKey parsed;
  Status s = ParseInternalKey(key, &parsed);
  if (!s.ok()) return s;
  meta_->UpdateBoundaries(key, parsed.sequence);
  builder_->Add(key, value);
  points_++;
  return builder_->status();
}

Status TableFileBuilder::AddTombstone(const Slice& key, const Slice& value) {
  ParsedInternalKey parsed;
  Status s = ParseInternalKey(key, &parsed);
  if (!s.ok()) return s;
  if (parsed.type != kTypeRangeDeletion) {
    return Status::Corruption("range tombstone iterator yields a ",
                              "non-tombstone entry");
  }
  builder_->Add(key, value);
  meta_->UpdateTombstoneBoundaries(*options_.builder_options.icmp, key,
                                   parsed.sequence, value);
  return builder_->status();
}

uint64_t TableFileBuilder::NumEntries() const { return builder_->NumEntries(); }

uint64_t TableFileBuilder::FileSize() const { return builder_->FileSize(); }

Status TableFileBuilder::Finish() {
  TEST_KILL_POINT("TableFile::Finish");
  Status s = builder_->Finish();
  if (s.ok()) {
    meta_->file_size = builder_->FileSize();
    const TableProperties props = builder_->GetTableProperties();
    meta_->num_entries = props.num_entries;
    meta_->num_deletions = props.num_deletions;
    meta_->num_range_deletions = props.num_range_deletions;
    meta_->counts_known = true;
    TEST_KILL_POINT("TableFile::Sync");
    s = writer_->Sync(options_.use_fsync);
  }
  const Status close = writer_->Close();
  if (s.ok()) s = close;
  if (s.ok() && options_.table_cache != nullptr) {
    s = VerifyTable(options_, *meta_, points_);
  }
  if (s.ok()) {
    finished_ = true;
    return s;
  }
  // Nothing partial may survive: the caller installs only what is OK.
  if (options_.table_cache != nullptr) {
    options_.table_cache->Evict(meta_->number);
  }
  options_.env->RemoveFile(fname_);
  meta_->file_size = 0;
  finished_ = true;  // abandoned and removed
  return s;
}

BuildTableOptions TableOptionsFor(Env* env, const std::string& dbname,
                                  const ColumnFamilyData& cfd) {
  const Options& o = cfd.options();
  BuildTableOptions options;
  options.env = env;
  options.dbname = dbname;
  options.table_factory = o.table_factory.get();
  options.builder_options.icmp = &cfd.icmp();
  // L0's; a compaction replaces it with its output level's.
  options.builder_options.compression = CompressionForLevel(
      o.compression, o.compression_per_level, 0, /*base_level=*/1);
  options.builder_options.prefix_extractor = o.prefix_extractor.get();
  options.builder_options.creation_time = env->NowMicros() / 1000000;
  // What RepairDB files the table under.
  options.builder_options.column_family_id = cfd.id();
  options.builder_options.column_family_name = cfd.name();
  options.env_options = EnvOptions(o);
  options.use_fsync = o.use_fsync;
  options.table_cache = cfd.table_cache();
  options.paranoid_file_checks = o.paranoid_file_checks;
  options.rate_limiter = o.rate_limiter.get();
  options.io_priority = Env::IO_HIGH;
  return options;
}

Status BuildTable(const BuildTableOptions& options, InternalIterator* iter,
                  FileMetaData* meta) {
  return BuildTable(options, iter, nullptr, meta);
}

Status BuildTable(const BuildTableOptions& options, InternalIterator* iter,
                  InternalIterator* range_del_iter, FileMetaData* meta) {
  meta->file_size = 0;
  iter->SeekToFirst();
  if (range_del_iter != nullptr) range_del_iter->SeekToFirst();
  if (!iter->Valid() &&
      (range_del_iter == nullptr || !range_del_iter->Valid())) {
    Status s = iter->status();
    if (s.ok() && range_del_iter != nullptr) s = range_del_iter->status();
    return s;
  }

  TableFileBuilder table(options, meta);
  Status s = table.Open();
  for (; s.ok() && iter->Valid(); iter->Next()) {
    s = table.Add(iter->key(), iter->value());
  }
  if (s.ok()) s = iter->status();
  if (range_del_iter != nullptr) {
    for (; s.ok() && range_del_iter->Valid(); range_del_iter->Next()) {
      s = table.AddTombstone(range_del_iter->key(), range_del_iter->value());
    }
    if (s.ok()) s = range_del_iter->status();
  }
  if (s.ok()) s = table.Finish();
  return s;  // on error the table's destructor deletes the file
}

}  // namespace strata
