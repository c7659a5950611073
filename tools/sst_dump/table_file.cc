#include "tools/sst_dump/table_file.h"

#include <utility>

#include "env/file_reader.h"
#include "table/block.h"

namespace strata {
namespace sst_dump {

namespace {

// Wraps an error of the block reader with the block's kind, number,
// offset and size (the reader's own message names the file).
Status InBlock(const Status& s, BlockKind kind, const BlockHandle& handle,
               size_t number) {
  const std::string where = TableFile::Where(kind, handle, number);
  if (s.IsNotSupported()) return Status::NotSupported(where, s.getState());
  if (s.IsIOError()) return Status::IOError(where, s.getState());
  return Status::Corruption(where, s.getState());
}

}  // namespace

const char* BlockKindName(BlockKind kind) {
  switch (kind) {
    case BlockKind::kData:
      return "data block";
    case BlockKind::kIndex:
      return "index block";
    case BlockKind::kMetaindex:
      return "metaindex block";
    case BlockKind::kProperties:
      return "properties block";
    case BlockKind::kFilter:
      return "filter block";
    case BlockKind::kRangeDel:
      return "range deletion block";
  }
  return "block";
}

std::string TableFile::Where(BlockKind kind, const BlockHandle& handle,
                             size_t number) {
  std::string where = BlockKindName(kind);
  if (number > 0) where += " #" + std::to_string(number);
  where += " at offset " + std::to_string(handle.offset()) + " size " +
           std::to_string(handle.size());
  return where;
}

TableFile::TableFile(std::string path,
                     std::unique_ptr<RandomAccessFileReader> file,
                     uint64_t file_size)
    : path_(std::move(path)), file_(std::move(file)), file_size_(file_size) {}

TableFile::~TableFile() = default;

Status TableFile::Open(Env* env, const std::string& path,
                       std::unique_ptr<TableFile>* table) {
  table->reset();
  uint64_t size = 0;
  Status s = env->GetFileSize(path, &size);
  if (!s.ok()) return s;
  std::unique_ptr<RandomAccessFile> raw;
  s = env->NewRandomAccessFile(path, &raw, EnvOptions());
  if (!s.ok()) return s;
  std::unique_ptr<TableFile> t(new TableFile(
      path, std::make_unique<RandomAccessFileReader>(std::move(raw), path),
      size));
  s = ReadFooter(t->file_.get(), size, &t->footer_);
  if (s.ok()) s = t->ReadMetaindex();
  if (s.ok()) s = t->ReadPropertiesAndIndex();
  if (!s.ok()) return s;
  *table = std::move(t);
  return Status::OK();
}

Status TableFile::ReadBlock(BlockKind kind, const BlockHandle& handle,
                            size_t number, bool verify_checksum,
                            BlockContents* contents) const {
  Status s = strata::ReadBlock(file_.get(), file_size_, handle, verify_checksum,
                               contents);
  return s.ok() ? s : InBlock(s, kind, handle, number);
}

Status TableFile::ForEachEntry(BlockKind kind, const BlockHandle& handle,
                               size_t number, bool verify_checksum,
                               const EntryFunction& fn) const {
  BlockContents contents;
  Status s = ReadBlock(kind, handle, number, verify_checksum, &contents);
  if (!s.ok()) return s;
  Block block(std::move(contents));
  if (!block.status().ok())
    return InBlock(block.status(), kind, handle, number);
  // Stored order only (no Seek): the comparator is never consulted.
  std::unique_ptr<InternalIterator> iter(
      block.NewIterator(BytewiseComparator(), path_.c_str(), handle.offset()));
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    if (!fn(iter->key(), iter->value())) return Status::OK();
  }
  s = iter->status();
  return s.ok() ? s : InBlock(s, kind, handle, number);
}

Status TableFile::ReadStoredType(const BlockHandle& handle,
                                 unsigned char* type) const {
  char buf;
  Slice got;
  Status s = file_->Read(handle.offset() + handle.size(), 1, &got, &buf);
  if (s.ok() && got.size() != 1) {
    s = Status::Corruption(BlockLocation(path_, handle.offset()),
                           "truncated trailer");
  }
  if (s.ok()) *type = static_cast<unsigned char>(got[0]);
  return s;
}

const BlockHandle* TableFile::range_del_handle() const {
  for (const NamedHandle& e : metaindex_) {
    if (e.name == kRangeDelBlockName) return &e.handle;
  }
  return nullptr;
}

const BlockHandle* TableFile::filter_handle() const {
  for (const NamedHandle& e : metaindex_) {
    if (Slice(e.name).starts_with(kFilterBlockPrefix)) return &e.handle;
  }
  return nullptr;
}

Status TableFile::ReadMetaindex() {
  const BlockHandle& handle = footer_.metaindex_handle;
  Status bad;
  Status s = ForEachEntry(
      BlockKind::kMetaindex, handle, 0, /*verify_checksum=*/true,
      [&](const Slice& key, const Slice& value) {
        Slice v = value;
        NamedHandle e;
        e.name = key.ToString();
        if (!e.handle.DecodeFrom(&v) || !v.empty()) {
          bad = Status::Corruption(Where(BlockKind::kMetaindex, handle, 0),
                                   "malformed handle of " + e.name);
          return false;
        }
        metaindex_.push_back(std::move(e));
        return true;
      });
  if (s.ok()) s = bad;
  return s;
}

Status TableFile::ReadPropertiesAndIndex() {
  const BlockHandle* props_handle = nullptr;
  for (const NamedHandle& e : metaindex_) {
    if (e.name == kPropertiesBlockName) props_handle = &e.handle;
  }
  if (props_handle == nullptr) {
    return Status::Corruption(
        Where(BlockKind::kMetaindex, footer_.metaindex_handle, 0),
        "no properties block");
  }
  BlockContents contents;
  Status s = ReadBlock(BlockKind::kProperties, *props_handle, 0,
                       /*verify_checksum=*/true, &contents);
  if (!s.ok()) return s;
  s = DecodeTableProperties(contents.data, &props_);
  if (s.ok()) s = footer_.CheckVersion(props_.format_version);
  if (!s.ok()) return InBlock(s, BlockKind::kProperties, *props_handle, 0);
  for (const Comparator* c :
       {BytewiseComparator(), ReverseBytewiseComparator()}) {
    if (props_.comparator_name == c->Name()) user_comparator_ = c;
  }

  const BlockHandle& index = footer_.index_handle;
  Status bad;
  s = ForEachEntry(BlockKind::kIndex, index, 0, /*verify_checksum=*/true,
                   [&](const Slice& key, const Slice& value) {
                     Slice v = value;
                     NamedHandle e;
                     e.name = key.ToString();
                     // A user-key index's separator S as an internal
                     // key: (S, 0, 0), the last one of S.
                     if (footer_.index_has_user_keys()) PutFixed64(&e.name, 0);
                     if (!e.handle.DecodeFrom(&v) || !v.empty()) {
                       bad = Status::Corruption(
                           Where(BlockKind::kIndex, index, 0),
                           "malformed handle of data block #" +
                               std::to_string(data_blocks_.size() + 1));
                       return false;
                     }
                     data_blocks_.push_back(std::move(e));
                     return true;
                   });
  if (s.ok()) s = bad;
  return s;
}

}  // namespace sst_dump
}  // namespace strata
