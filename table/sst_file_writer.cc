// SstFileWriter (include/strata/sst_file_writer.h): a TableBuilder of the
// options' table factory fed user keys at sequence number 0, with the
// external-file version in the properties (docs/formats/table.md,
// "External files").

#include "strata/sst_file_writer.h"

#include <memory>

#include "db/dbformat.h"
#include "env/file_writer.h"
#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/table.h"
#include "table/table_builder.h"

namespace strata {

struct SstFileWriter::Rep {
  Rep(const EnvOptions& eo, const Options& o, const Comparator* ucmp,
      ColumnFamilyHandle* cf)
      : env_options(eo),
        options(o),
        env(o.env != nullptr ? o.env : Env::Default()),
        user_comparator(ucmp),
        icmp(ucmp) {
    if (cf != nullptr) {
      cf_id = cf->GetID();
      cf_name = cf->GetName();
    }
  }

  const EnvOptions env_options;
  const Options options;
  Env* const env;
  const Comparator* const user_comparator;
  const InternalKeyComparator icmp;
  uint64_t cf_id = kUnknownColumnFamilyId;
  std::string cf_name;

  std::unique_ptr<WritableFileWriter> file;
  std::unique_ptr<TableBuilder> builder;
  ExternalSstFileInfo info;
  bool has_point = false;  // info.largest_key holds the last point key
  std::string ikey;        // scratch for the internal key

  Status CheckOpen() const {
    if (builder == nullptr) {
      return Status::InvalidArgument("SstFileWriter: no file open (Open ",
                                     "first, and not after Finish)");
    }
    return Status::OK();
  }

  Status AddPoint(const Slice& user_key, const Slice& value, ValueType type) {
    Status s = CheckOpen();
    if (!s.ok()) return s;
    if (has_point &&
        user_comparator->Compare(user_key, info.largest_key) <= 0) {
      return Status::InvalidArgument(
          "SstFileWriter: keys must be added in strictly increasing order");
    }
    ikey.clear();
    AppendInternalKey(&ikey, ParsedInternalKey(user_key, 0, type));
    builder->Add(ikey, value);
    s = builder->status();
    if (!s.ok()) return s;
    if (!has_point) info.smallest_key.assign(user_key.data(), user_key.size());
    info.largest_key.assign(user_key.data(), user_key.size());
    has_point = true;
    info.num_entries++;
    return s;
  }

  Status AddRange(const Slice& begin, const Slice& end) {
    Status s = CheckOpen();
    if (!s.ok()) return s;
    const int order = user_comparator->Compare(begin, end);
    if (order > 0) {
      return Status::InvalidArgument("SstFileWriter::DeleteRange: the end ",
                                     "key comes before the begin key");
    }
    if (order == 0) return s;  // an empty range deletes nothing
    ikey.clear();
    AppendInternalKey(&ikey, ParsedInternalKey(begin, 0, kTypeRangeDeletion));
    builder->Add(ikey, end);
    s = builder->status();
    if (!s.ok()) return s;
    if (info.num_range_del_entries == 0 ||
        user_comparator->Compare(begin, info.smallest_range_del_key) < 0) {
      info.smallest_range_del_key.assign(begin.data(), begin.size());
    }
    if (info.num_range_del_entries == 0 ||
        user_comparator->Compare(end, info.largest_range_del_key) > 0) {
      info.largest_range_del_key.assign(end.data(), end.size());
    }
    info.num_range_del_entries++;
    return s;
  }

  // Drops an unfinished file.
  void Abandon() {
    if (builder == nullptr) return;
    builder->Abandon();
    builder.reset();
    file->Close();
    file.reset();
    env->RemoveFile(info.file_path);
  }
};

SstFileWriter::SstFileWriter(const EnvOptions& env_options,
                             const Options& options,
                             const Comparator* user_comparator,
                             ColumnFamilyHandle* column_family,
                             bool /*invalidate_page_cache*/,
                             Env::IOPriority /*io_priority*/,
                             bool /*skip_filters*/)
    : rep_(new Rep(
          env_options, options,
          user_comparator != nullptr ? user_comparator : BytewiseComparator(),
          column_family)) {}

SstFileWriter::~SstFileWriter() { rep_->Abandon(); }

Status SstFileWriter::Open(const std::string& file_path) {
  Rep* r = rep_.get();
  r->Abandon();
  if (r->options.table_factory == nullptr) {
    return Status::InvalidArgument("SstFileWriter: options.table_factory ",
                                   "is null");
  }
  Env* env = r->env;
  std::unique_ptr<WritableFile> file;
  Status s = env->NewWritableFile(file_path, &file, r->env_options);
  if (!s.ok()) return s;
  r->file = std::make_unique<WritableFileWriter>(std::move(file), file_path,
                                                 r->env_options);
  TableBuilderOptions bo;
  bo.icmp = &r->icmp;
  bo.compression = r->options.compression;
  bo.prefix_extractor = r->options.prefix_extractor.get();
  bo.creation_time = env->NowMicros() / 1000000;
  bo.column_family_id = r->cf_id;
  bo.column_family_name = r->cf_name;
  bo.external_sst_file_version = kExternalSstFileVersion;
  r->builder.reset(
      r->options.table_factory->NewTableBuilder(bo, r->file.get()));
  r->info = ExternalSstFileInfo();
  r->info.file_path = file_path;
  r->info.version = static_cast<int32_t>(kExternalSstFileVersion);
  r->has_point = false;
  s = r->builder->status();
  if (!s.ok()) r->Abandon();
  return s;
}

Status SstFileWriter::Add(const Slice& user_key, const Slice& value) {
  return Put(user_key, value);
}

Status SstFileWriter::Put(const Slice& user_key, const Slice& value) {
  return rep_->AddPoint(user_key, value, kTypeValue);
}

Status SstFileWriter::Merge(const Slice& user_key, const Slice& value) {
  return rep_->AddPoint(user_key, value, kTypeMerge);
}

Status SstFileWriter::Delete(const Slice& user_key) {
  return rep_->AddPoint(user_key, Slice(), kTypeDeletion);
}

Status SstFileWriter::DeleteRange(const Slice& begin_key,
                                  const Slice& end_key) {
  return rep_->AddRange(begin_key, end_key);
}

Status SstFileWriter::Put(const Slice&, const Slice&, const Slice&) {
  return Status::NotSupported("SstFileWriter: user-defined timestamps");
}

Status SstFileWriter::Delete(const Slice&, const Slice&) {
  return Status::NotSupported("SstFileWriter: user-defined timestamps");
}

Status SstFileWriter::DeleteRange(const Slice&, const Slice&, const Slice&) {
  return Status::NotSupported("SstFileWriter: user-defined timestamps");
}

Status SstFileWriter::Finish(ExternalSstFileInfo* file_info) {
  Rep* r = rep_.get();
  Status s = r->CheckOpen();
  if (!s.ok()) return s;
  if (r->info.num_entries == 0 && r->info.num_range_del_entries == 0) {
    r->Abandon();
    return Status::InvalidArgument("SstFileWriter: cannot create an sst ",
                                   "file with no entries");
  }
  s = r->builder->Finish();
  if (s.ok()) {
    r->info.file_size = r->builder->FileSize();
    s = r->file->Sync(r->options.use_fsync);
  }
  const Status close = r->file->Close();
  if (s.ok()) s = close;
  r->builder.reset();
  r->file.reset();
  if (!s.ok()) {
    r->env->RemoveFile(r->info.file_path);
    return s;
  }
  if (file_info != nullptr) *file_info = r->info;
  return s;
}

uint64_t SstFileWriter::FileSize() {
  return rep_->builder != nullptr ? rep_->builder->FileSize()
                                  : rep_->info.file_size;
}

}  // namespace strata
