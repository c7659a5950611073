// WriteBatchWithIndex: each update goes to the batch first and, if the
// batch takes it, into the index (wbwi_index.h). Reads are
// WriteBatchWithIndexInternal lookups (wbwi_lookup.h), optionally finished
// by a DB read, and BaseDeltaIterator (base_delta_iterator.h).

#include "strata/utilities/write_batch_with_index.h"

#include "db/utilities/write_batch_with_index/base_delta_iterator.h"
#include "db/utilities/write_batch_with_index/wbwi_lookup.h"
#include "db/utilities/write_batch_with_index/wbwi_rep.h"
#include "strata/db.h"
#include "strata/options.h"

namespace strata {

using Internal = WriteBatchWithIndexInternal;

WriteBatchWithIndex::WriteBatchWithIndex(
    const Comparator* backup_index_comparator, size_t reserved_bytes,
    bool overwrite_key, size_t max_bytes, size_t /*protection_bytes_per_key*/)
    : rep_(new Rep(backup_index_comparator, reserved_bytes, overwrite_key,
                   max_bytes)) {}

WriteBatchWithIndex::~WriteBatchWithIndex() = default;
WriteBatchWithIndex::WriteBatchWithIndex(WriteBatchWithIndex&&) = default;
WriteBatchWithIndex& WriteBatchWithIndex::operator=(WriteBatchWithIndex&&) =
    default;

// Records an update through add (a WriteBatch method bound to its
// arguments) and indexes it if the batch took it.
template <typename AddFn>
static Status AddIndexed(WriteBatch* batch, WriteBatchIndex* index,
                         const Comparator* backup_comparator,
                         ColumnFamilyHandle* column_family, WriteType type,
                         AddFn add) {
  const size_t offset = batch->GetDataSize();
  Status s = add(batch);
  if (s.ok()) {
    index->Add(Internal::FamilyId(column_family),
               Internal::ComparatorOf(column_family, backup_comparator), offset,
               type);
  }
  return s;
}

#define STRATA_WBWI_ADD(type, call)                               \
  AddIndexed(&rep_->batch, &rep_->index, rep_->backup_comparator, \
             column_family, type, [&](WriteBatch* b) { return b->call; })

Status WriteBatchWithIndex::Put(ColumnFamilyHandle* column_family,
                                const Slice& key, const Slice& value) {
  return STRATA_WBWI_ADD(kPutRecord, Put(column_family, key, value));
}

Status WriteBatchWithIndex::Put(const Slice& key, const Slice& value) {
  return Put(nullptr, key, value);
}

Status WriteBatchWithIndex::Merge(ColumnFamilyHandle* column_family,
                                  const Slice& key, const Slice& value) {
  return STRATA_WBWI_ADD(kMergeRecord, Merge(column_family, key, value));
}

Status WriteBatchWithIndex::Merge(const Slice& key, const Slice& value) {
  return Merge(nullptr, key, value);
}

Status WriteBatchWithIndex::Delete(ColumnFamilyHandle* column_family,
                                   const Slice& key) {
  return STRATA_WBWI_ADD(kDeleteRecord, Delete(column_family, key));
}

Status WriteBatchWithIndex::Delete(const Slice& key) {
  return Delete(nullptr, key);
}

Status WriteBatchWithIndex::SingleDelete(ColumnFamilyHandle* column_family,
                                         const Slice& key) {
  return STRATA_WBWI_ADD(kSingleDeleteRecord, SingleDelete(column_family, key));
}

Status WriteBatchWithIndex::SingleDelete(const Slice& key) {
  return SingleDelete(nullptr, key);
}

Status WriteBatchWithIndex::DeleteRange(ColumnFamilyHandle* /*column_family*/,
                                        const Slice& /*begin_key*/,
                                        const Slice& /*end_key*/) {
  return Status::NotSupported("DeleteRange unsupported in WriteBatchWithIndex");
}

Status WriteBatchWithIndex::DeleteRange(const Slice& begin_key,
                                        const Slice& end_key) {
  return DeleteRange(nullptr, begin_key, end_key);
}

Status WriteBatchWithIndex::PutLogData(const Slice& blob) {
  return rep_->batch.PutLogData(blob);
}

void WriteBatchWithIndex::Clear() {
  rep_->batch.Clear();
  rep_->index.Clear();
}

WriteBatch* WriteBatchWithIndex::GetWriteBatch() { return &rep_->batch; }

WBWIIterator* WriteBatchWithIndex::NewIterator(
    ColumnFamilyHandle* column_family) {
  const IndexSet* set = rep_->index.Family(
      Internal::FamilyId(column_family),
      Internal::ComparatorOf(column_family, rep_->backup_comparator));
  return new WBWIIteratorImpl(&rep_->index, set);
}

WBWIIterator* WriteBatchWithIndex::NewIterator() {
  return NewIterator(nullptr);
}

Iterator* WriteBatchWithIndex::NewIteratorWithBase(
    ColumnFamilyHandle* column_family, Iterator* base_iterator,
    const ReadOptions* opts) {
  const Comparator* cmp =
      Internal::ComparatorOf(column_family, rep_->backup_comparator);
  const IndexSet* set =
      rep_->index.Family(Internal::FamilyId(column_family), cmp);
  return new BaseDeltaIterator(
      base_iterator, new WBWIIteratorImpl(&rep_->index, set),
      set->key_comp().comparator(), Internal::MergeOperatorOf(column_family),
      opts == nullptr ? nullptr : opts->iterate_lower_bound,
      opts == nullptr ? nullptr : opts->iterate_upper_bound);
}

Iterator* WriteBatchWithIndex::NewIteratorWithBase(Iterator* base_iterator) {
  return NewIteratorWithBase(nullptr, base_iterator, nullptr);
}

Status WriteBatchWithIndex::GetFromBatch(ColumnFamilyHandle* column_family,
                                         const DBOptions& /*options*/,
                                         const Slice& key, std::string* value) {
  MergeContext operands;
  Status s;
  const MergeOperator* op = Internal::MergeOperatorOf(column_family);
  switch (Internal::GetFromBatch(this, column_family, op, key, &operands, value,
                                 &s)) {
    case Internal::kFound:
    case Internal::kError:
      if (s.IsInvalidArgument() && column_family == nullptr) {
        return Status::InvalidArgument(
            "Must provide a column_family to resolve merges");
      }
      return s;
    case Internal::kMergeInProgress:
      return Status::MergeInProgress();
    case Internal::kDeleted:
    case Internal::kNotFound:
      break;
  }
  return Status::NotFound();
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db,
                                              const ReadOptions& read_options,
                                              const Slice& key,
                                              std::string* value) {
  return GetFromBatchAndDB(db, read_options, db->DefaultColumnFamily(), key,
                           value);
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db,
                                              const ReadOptions& read_options,
                                              const Slice& key,
                                              PinnableSlice* value) {
  return GetFromBatchAndDB(db, read_options, db->DefaultColumnFamily(), key,
                           value);
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db,
                                              const ReadOptions& read_options,
                                              ColumnFamilyHandle* column_family,
                                              const Slice& key,
                                              std::string* value) {
  PinnableSlice pinnable(value);
  Status s = GetFromBatchAndDB(db, read_options, column_family, key, &pinnable);
  if (s.ok() && pinnable.IsPinned())
    value->assign(pinnable.data(), pinnable.size());
  return s;
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db,
                                              const ReadOptions& read_options,
                                              ColumnFamilyHandle* column_family,
                                              const Slice& key,
                                              PinnableSlice* value) {
  if (column_family == nullptr) column_family = db->DefaultColumnFamily();
  const MergeOperator* op = Internal::MergeOperatorOf(column_family);
  MergeContext operands;
  Status s;
  value->Reset();
  switch (Internal::GetFromBatch(this, column_family, op, key, &operands,
                                 value->GetSelf(), &s)) {
    case Internal::kFound:
      value->PinSelf();
      return s;
    case Internal::kError:
      return s;
    case Internal::kDeleted:
      return Status::NotFound();
    case Internal::kNotFound:
      return db->Get(read_options, column_family, key, value);
    case Internal::kMergeInProgress:
      break;
  }
  // The batch holds only operands: merge them over what the DB holds.
  PinnableSlice base;
  s = db->Get(read_options, column_family, key, &base);
  if (!s.ok() && !s.IsNotFound()) return s;
  s = FinishMerge(op, key, s.ok() ? &base : nullptr, &operands,
                  value->GetSelf());
  if (s.ok()) value->PinSelf();
  return s;
}

void WriteBatchWithIndex::MultiGetFromBatchAndDB(
    DB* db, const ReadOptions& read_options, ColumnFamilyHandle* column_family,
    const size_t num_keys, const Slice* keys, PinnableSlice* values,
    Status* statuses, bool /*sorted_input*/) {
  for (size_t i = 0; i < num_keys; i++) {
    statuses[i] =
        GetFromBatchAndDB(db, read_options, column_family, keys[i], &values[i]);
  }
}

void WriteBatchWithIndex::SetSavePoint() { rep_->batch.SetSavePoint(); }

Status WriteBatchWithIndex::RollbackToSavePoint() {
  Status s = rep_->batch.RollbackToSavePoint();
  if (s.ok()) rep_->index.Truncate(rep_->batch.GetDataSize());
  return s;
}

Status WriteBatchWithIndex::PopSavePoint() {
  return rep_->batch.PopSavePoint();
}

void WriteBatchWithIndex::SetMaxBytes(size_t max_bytes) {
  rep_->batch.SetMaxBytes(max_bytes);
}

size_t WriteBatchWithIndex::GetDataSize() const {
  return rep_->batch.GetDataSize();
}

}  // namespace strata
