#include "db/builder.h"

#include <algorithm>
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

// Adds the tombstones to builder and widens meta's boundaries over them.
Status AddRangeTombstones(const InternalKeyComparator& icmp,
                          InternalIterator* iter, TableBuilder* builder,
                          FileMetaData* meta) {
  for (; iter->Valid(); iter->Next()) {
    ParsedInternalKey parsed;
    Status s = ParseInternalKey(iter->key(), &parsed);
    if (!s.ok()) return s;
    if (parsed.type != kTypeRangeDeletion) {
      return Status::Corruption("range tombstone iterator yields a ",
                                "non-tombstone entry");
    }
    builder->Add(iter->key(), iter->value());
    InternalKey begin;
    begin.DecodeFrom(iter->key());
    const InternalKey end(iter->value(), kMaxSequenceNumber,
                          kTypeRangeDeletion);
    if (meta->smallest.Encode().empty() ||
        icmp.Compare(begin.Encode(), meta->smallest.Encode()) < 0) {
      meta->smallest = begin;
    }
    if (meta->largest.Encode().empty() ||
        icmp.Compare(end.Encode(), meta->largest.Encode()) > 0) {
      meta->largest = end;
    }
    meta->smallest_seqno = std::min(meta->smallest_seqno, parsed.sequence);
    meta->largest_seqno = std::max(meta->largest_seqno, parsed.sequence);
  }
  return iter->status();
}

}  // namespace

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
  if (s.ok() && range_del_iter != nullptr) {
    s = AddRangeTombstones(*options.builder_options.icmp, range_del_iter,
                           builder.get(), meta);
  }
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
    s = VerifyTable(options, *meta,
                    builder->NumEntries() -
                        builder->GetTableProperties().num_range_deletions);
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
