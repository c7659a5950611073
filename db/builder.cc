#include "db/builder.h"

#include <memory>

#include "db/filename.h"
#include "db/table_cache.h"
#include "env/file_writer.h"
#include "strata/table.h"
#include "table/table_properties.h"

namespace strata {

namespace {

// Reads the table back through the cache: every entry must be there, in
// order, with no error.
Status VerifyTable(const BuildTableOptions& options, const FileMetaData& meta,
                   uint64_t expected_entries) {
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

Status BuildTable(const BuildTableOptions& options, InternalIterator* iter,
                  FileMetaData* meta) {
  meta->file_size = 0;
  iter->SeekToFirst();
  if (!iter->Valid()) return iter->status();

  const std::string fname = TableFileName(options.dbname, meta->number);
  std::unique_ptr<WritableFile> file;
  Status s = options.env->NewWritableFile(fname, &file, options.env_options);
  if (!s.ok()) return s;
  WritableFileWriter writer(std::move(file), fname, options.env_options);
  std::unique_ptr<TableBuilder> builder(
      options.table_factory->NewTableBuilder(options.builder_options, &writer));
  for (; iter->Valid() && builder->status().ok(); iter->Next()) {
    const Slice key = iter->key();
    ParsedInternalKey parsed;
    s = ParseInternalKey(key, &parsed);
    if (!s.ok()) break;
    meta->UpdateBoundaries(key, parsed.sequence);
    builder->Add(key, iter->value());
  }
  if (s.ok()) s = iter->status();
  if (s.ok()) s = builder->status();
  if (s.ok()) {
    s = builder->Finish();
  } else {
    builder->Abandon();
  }
  if (s.ok()) {
    meta->file_size = builder->FileSize();
    const TableProperties props = builder->GetTableProperties();
    meta->num_entries = props.num_entries;
    meta->num_deletions = props.num_deletions;
    s = writer.Sync(options.use_fsync);
  }
  const Status close = writer.Close();
  if (s.ok()) s = close;
  if (s.ok() && options.table_cache != nullptr) {
    s = VerifyTable(options, *meta, builder->NumEntries());
  }
  if (!s.ok()) {
    // Nothing partial may survive: the caller installs only what is OK.
    if (options.table_cache != nullptr)
      options.table_cache->Evict(meta->number);
    options.env->RemoveFile(fname);
    meta->file_size = 0;
  }
  return s;
}

}  // namespace strata
