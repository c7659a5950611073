// WriteBatch save points, and the defaults of WriteBatchBase's SliceParts
// forms.
//
// A save point is the batch's size, count and content flags when it was
// set: records are only ever appended, so truncating rep_ to that size and
// restoring the header's count undoes everything since. The content flags
// are restored rather than recomputed, which keeps a rollback O(1).

#include "db/write_batch_internal.h"
#include "strata/write_batch.h"
#include "strata/write_batch_base.h"

namespace strata {

namespace {

// The parts of a SliceParts joined into *buf.
Slice Join(const SliceParts& parts, std::string* buf) {
  for (int i = 0; i < parts.num_parts; i++) {
    buf->append(parts.parts[i].data(), parts.parts[i].size());
  }
  return Slice(*buf);
}

}  // namespace

WriteBatchBase::~WriteBatchBase() = default;

Status WriteBatchBase::Put(ColumnFamilyHandle* column_family,
                           const SliceParts& key, const SliceParts& value) {
  std::string k, v;
  return Put(column_family, Join(key, &k), Join(value, &v));
}

Status WriteBatchBase::Put(const SliceParts& key, const SliceParts& value) {
  return Put(nullptr, key, value);
}

Status WriteBatchBase::Merge(ColumnFamilyHandle* column_family,
                             const SliceParts& key, const SliceParts& value) {
  std::string k, v;
  return Merge(column_family, Join(key, &k), Join(value, &v));
}

Status WriteBatchBase::Merge(const SliceParts& key, const SliceParts& value) {
  return Merge(nullptr, key, value);
}

Status WriteBatchBase::Delete(ColumnFamilyHandle* column_family,
                              const SliceParts& key) {
  std::string k;
  return Delete(column_family, Join(key, &k));
}

Status WriteBatchBase::Delete(const SliceParts& key) {
  return Delete(nullptr, key);
}

Status WriteBatchBase::SingleDelete(ColumnFamilyHandle* column_family,
                                    const SliceParts& key) {
  std::string k;
  return SingleDelete(column_family, Join(key, &k));
}

Status WriteBatchBase::SingleDelete(const SliceParts& key) {
  return SingleDelete(nullptr, key);
}

Status WriteBatchBase::DeleteRange(ColumnFamilyHandle* column_family,
                                   const SliceParts& begin_key,
                                   const SliceParts& end_key) {
  std::string b, e;
  return DeleteRange(column_family, Join(begin_key, &b), Join(end_key, &e));
}

Status WriteBatchBase::DeleteRange(const SliceParts& begin_key,
                                   const SliceParts& end_key) {
  return DeleteRange(nullptr, begin_key, end_key);
}

void WriteBatch::SetSavePoint() {
  save_points_.push_back({rep_.size(), Count(), content_flags_});
}

Status WriteBatch::RollbackToSavePoint() {
  if (save_points_.empty()) return Status::NotFound("no save point");
  const SavePoint sp = save_points_.back();
  save_points_.pop_back();
  // A batch from outside may have been replaced (SetContents) by a shorter
  // one since: then there is nothing to truncate to.
  if (sp.size > rep_.size()) {
    return Status::Corruption("save point beyond the end of the batch");
  }
  rep_.resize(sp.size);
  if (rep_.size() >= WriteBatchInternal::kHeader) {
    WriteBatchInternal::SetCount(this, sp.count);
  }
  content_flags_ = sp.content_flags;
  return Status::OK();
}

Status WriteBatch::PopSavePoint() {
  if (save_points_.empty()) return Status::NotFound("no save point");
  save_points_.pop_back();
  return Status::OK();
}

}  // namespace strata
