// TransactionBaseImpl's writes, snapshot and save points; its reads are
// in transaction_base_read.cc.

#include "db/utilities/transactions/transaction_base.h"

#include "strata/env.h"

namespace strata {

namespace {

std::string Join(const SliceParts& parts) {
  std::string joined;
  for (int i = 0; i < parts.num_parts; i++) {
    joined.append(parts.parts[i].data(), parts.parts[i].size());
  }
  return joined;
}

}  // namespace

TransactionBaseImpl::TransactionBaseImpl(DB* db,
                                         const WriteOptions& write_options,
                                         const Comparator* cmp)
    : db_(db),
      write_options_(write_options),
      write_batch_(cmp, 0, /*overwrite_key=*/true),
      start_micros_(db->GetEnv()->NowMicros()) {}

TransactionBaseImpl::~TransactionBaseImpl() = default;

void TransactionBaseImpl::Reinitialize(const WriteOptions& write_options) {
  Clear();
  snapshot_.reset();
  snapshot_needed_ = false;
  snapshot_notifier_.reset();
  write_options_ = write_options;
  start_micros_ = db_->GetEnv()->NowMicros();
  log_number_ = 0;
  name_.clear();
  indexing_enabled_ = true;  // as a new transaction's
  SetState(STARTED);
}

void TransactionBaseImpl::Clear() {
  write_batch_.Clear();
  commit_time_batch_.Clear();
  tracked_keys_.Clear();
  save_points_.clear();
  num_puts_ = num_deletes_ = num_merges_ = 0;
}

std::shared_ptr<const Snapshot> TransactionBaseImpl::TakeSnapshot() {
  DB* db = db_;
  return std::shared_ptr<const Snapshot>(
      db->GetSnapshot(), [db](const Snapshot* s) { db->ReleaseSnapshot(s); });
}

void TransactionBaseImpl::SetSnapshot() {
  snapshot_ = TakeSnapshot();
  snapshot_needed_ = false;
  snapshot_notifier_.reset();
}

void TransactionBaseImpl::SetSnapshotOnNextOperation(
    std::shared_ptr<TransactionNotifier> notifier) {
  snapshot_needed_ = true;
  snapshot_notifier_ = std::move(notifier);
}

void TransactionBaseImpl::SetSnapshotIfNeeded() {
  if (!snapshot_needed_) return;
  std::shared_ptr<TransactionNotifier> notifier = std::move(snapshot_notifier_);
  SetSnapshot();
  if (notifier != nullptr) notifier->SnapshotCreated(snapshot_.get());
}

void TransactionBaseImpl::ClearSnapshot() {
  snapshot_.reset();
  snapshot_needed_ = false;
  snapshot_notifier_.reset();
}

Status TransactionBaseImpl::Rollback() {
  Clear();
  return Status::OK();
}

void TransactionBaseImpl::SetSavePoint() {
  save_points_.push_back(SavePoint{snapshot_, snapshot_needed_,
                                   snapshot_notifier_, num_puts_, num_deletes_,
                                   num_merges_});
  write_batch_.SetSavePoint();
  tracked_keys_.SetSavePoint();
}

Status TransactionBaseImpl::RollbackToSavePoint() {
  if (save_points_.empty()) return Status::NotFound();
  SavePoint& sp = save_points_.back();
  snapshot_ = std::move(sp.snapshot);
  snapshot_needed_ = sp.snapshot_needed;
  snapshot_notifier_ = std::move(sp.snapshot_notifier);
  num_puts_ = sp.num_puts;
  num_deletes_ = sp.num_deletes;
  num_merges_ = sp.num_merges;
  save_points_.pop_back();
  tracked_keys_.RollbackToSavePoint();
  return write_batch_.RollbackToSavePoint();
}

Status TransactionBaseImpl::PopSavePoint() {
  if (save_points_.empty()) return Status::NotFound();
  save_points_.pop_back();
  tracked_keys_.PopSavePoint();
  return write_batch_.PopSavePoint();
}

ColumnFamilyHandle* TransactionBaseImpl::FamilyOrDefault(
    ColumnFamilyHandle* column_family) const {
  return column_family != nullptr ? column_family : db_->DefaultColumnFamily();
}

void TransactionBaseImpl::TrackKey(ColumnFamilyHandle* column_family,
                                   const Slice& key, SequenceNumber seq,
                                   bool read_only, bool exclusive) {
  tracked_keys_.Track(FamilyOrDefault(column_family), key.ToString(), seq,
                      read_only, exclusive);
}

Status TransactionBaseImpl::DoWrite(WriteKind kind,
                                    ColumnFamilyHandle* column_family,
                                    const Slice& key, const Slice& value,
                                    bool tracked, bool assume_tracked) {
  ColumnFamilyHandle* family = FamilyOrDefault(column_family);
  SetSnapshotIfNeeded();
  Status s = TryLock(family, key, /*read_only=*/false, /*exclusive=*/true,
                     /*do_validate=*/tracked, assume_tracked);
  if (!s.ok()) return s;
  // Unindexed writes go to the batch behind the index: the transaction's
  // reads do not see them (DisableIndexing).
  WriteBatchBase* batch = indexing_enabled_
                              ? static_cast<WriteBatchBase*>(&write_batch_)
                              : write_batch_.GetWriteBatch();
  switch (kind) {
    case WriteKind::kPut:
      s = batch->Put(family, key, value);
      if (s.ok()) num_puts_++;
      break;
    case WriteKind::kDelete:
      s = batch->Delete(family, key);
      if (s.ok()) num_deletes_++;
      break;
    case WriteKind::kSingleDelete:
      s = batch->SingleDelete(family, key);
      if (s.ok()) num_deletes_++;
      break;
    case WriteKind::kMerge:
      s = batch->Merge(family, key, value);
      if (s.ok()) num_merges_++;
      break;
  }
  return s;
}

Status TransactionBaseImpl::DoWriteParts(WriteKind kind,
                                         ColumnFamilyHandle* column_family,
                                         const SliceParts& key,
                                         const SliceParts& value, bool tracked,
                                         bool assume_tracked) {
  const std::string joined_key = Join(key);
  const std::string joined_value = Join(value);
  return DoWrite(kind, column_family, joined_key, joined_value, tracked,
                 assume_tracked);
}

// The public write forms, each one DoWrite.
Status TransactionBaseImpl::Put(ColumnFamilyHandle* column_family,
                                const Slice& key, const Slice& value,
                                const bool assume_tracked) {
  return DoWrite(WriteKind::kPut, column_family, key, value, true,
                 assume_tracked);
}
Status TransactionBaseImpl::Put(const Slice& key, const Slice& value) {
  return Put(nullptr, key, value);
}
Status TransactionBaseImpl::Put(ColumnFamilyHandle* column_family,
                                const SliceParts& key, const SliceParts& value,
                                const bool assume_tracked) {
  return DoWriteParts(WriteKind::kPut, column_family, key, value, true,
                      assume_tracked);
}
Status TransactionBaseImpl::Put(const SliceParts& key,
                                const SliceParts& value) {
  return Put(nullptr, key, value);
}
Status TransactionBaseImpl::Merge(ColumnFamilyHandle* column_family,
                                  const Slice& key, const Slice& value,
                                  const bool assume_tracked) {
  return DoWrite(WriteKind::kMerge, column_family, key, value, true,
                 assume_tracked);
}
Status TransactionBaseImpl::Merge(const Slice& key, const Slice& value) {
  return Merge(nullptr, key, value);
}
Status TransactionBaseImpl::Delete(ColumnFamilyHandle* column_family,
                                   const Slice& key,
                                   const bool assume_tracked) {
  return DoWrite(WriteKind::kDelete, column_family, key, Slice(), true,
                 assume_tracked);
}
Status TransactionBaseImpl::Delete(const Slice& key) {
  return Delete(nullptr, key);
}
Status TransactionBaseImpl::Delete(ColumnFamilyHandle* column_family,
                                   const SliceParts& key,
                                   const bool assume_tracked) {
  return DoWriteParts(WriteKind::kDelete, column_family, key, SliceParts(),
                      true, assume_tracked);
}
Status TransactionBaseImpl::Delete(const SliceParts& key) {
  return Delete(nullptr, key);
}
Status TransactionBaseImpl::SingleDelete(ColumnFamilyHandle* column_family,
                                         const Slice& key,
                                         const bool assume_tracked) {
  return DoWrite(WriteKind::kSingleDelete, column_family, key, Slice(), true,
                 assume_tracked);
}
Status TransactionBaseImpl::SingleDelete(const Slice& key) {
  return SingleDelete(nullptr, key);
}
Status TransactionBaseImpl::SingleDelete(ColumnFamilyHandle* column_family,
                                         const SliceParts& key,
                                         const bool assume_tracked) {
  return DoWriteParts(WriteKind::kSingleDelete, column_family, key,
                      SliceParts(), true, assume_tracked);
}
Status TransactionBaseImpl::SingleDelete(const SliceParts& key) {
  return SingleDelete(nullptr, key);
}

Status TransactionBaseImpl::PutUntracked(ColumnFamilyHandle* column_family,
                                         const Slice& key, const Slice& value) {
  return DoWrite(WriteKind::kPut, column_family, key, value, false, false);
}
Status TransactionBaseImpl::PutUntracked(const Slice& key, const Slice& value) {
  return PutUntracked(nullptr, key, value);
}
Status TransactionBaseImpl::PutUntracked(ColumnFamilyHandle* column_family,
                                         const SliceParts& key,
                                         const SliceParts& value) {
  return DoWriteParts(WriteKind::kPut, column_family, key, value, false, false);
}
Status TransactionBaseImpl::PutUntracked(const SliceParts& key,
                                         const SliceParts& value) {
  return PutUntracked(nullptr, key, value);
}
Status TransactionBaseImpl::MergeUntracked(ColumnFamilyHandle* column_family,
                                           const Slice& key,
                                           const Slice& value) {
  return DoWrite(WriteKind::kMerge, column_family, key, value, false, false);
}
Status TransactionBaseImpl::MergeUntracked(const Slice& key,
                                           const Slice& value) {
  return MergeUntracked(nullptr, key, value);
}
Status TransactionBaseImpl::DeleteUntracked(ColumnFamilyHandle* column_family,
                                            const Slice& key) {
  return DoWrite(WriteKind::kDelete, column_family, key, Slice(), false, false);
}
Status TransactionBaseImpl::DeleteUntracked(const Slice& key) {
  return DeleteUntracked(nullptr, key);
}
Status TransactionBaseImpl::DeleteUntracked(ColumnFamilyHandle* column_family,
                                            const SliceParts& key) {
  return DoWriteParts(WriteKind::kDelete, column_family, key, SliceParts(),
                      false, false);
}
Status TransactionBaseImpl::DeleteUntracked(const SliceParts& key) {
  return DeleteUntracked(nullptr, key);
}
Status TransactionBaseImpl::SingleDeleteUntracked(
    ColumnFamilyHandle* column_family, const Slice& key) {
  return DoWrite(WriteKind::kSingleDelete, column_family, key, Slice(), false,
                 false);
}
Status TransactionBaseImpl::SingleDeleteUntracked(const Slice& key) {
  return SingleDeleteUntracked(nullptr, key);
}

void TransactionBaseImpl::PutLogData(const Slice& blob) {
  write_batch_.PutLogData(blob);
}

uint64_t TransactionBaseImpl::GetElapsedTime() const {
  return (db_->GetEnv()->NowMicros() - start_micros_) / 1000;
}

}  // namespace strata
