// TransactionBaseImpl's reads: the transaction's own writes (its
// WriteBatchWithIndex) over the DB as read_options.snapshot shows it;
// GetForUpdate asks the kind's TryLock first. Also the tracked-key undo
// and the rebuild from a batch, which read the transaction's state.

#include "db/utilities/transactions/transaction_base.h"
#include "strata/iterator.h"

namespace strata {

Status TransactionBaseImpl::Get(const ReadOptions& options,
                                ColumnFamilyHandle* column_family,
                                const Slice& key, std::string* value) {
  return write_batch_.GetFromBatchAndDB(
      db_, options, FamilyOrDefault(column_family), key, value);
}

Status TransactionBaseImpl::Get(const ReadOptions& options, const Slice& key,
                                std::string* value) {
  return Get(options, nullptr, key, value);
}

std::vector<Status> TransactionBaseImpl::MultiGet(
    const ReadOptions& options,
    const std::vector<ColumnFamilyHandle*>& column_family,
    const std::vector<Slice>& keys, std::vector<std::string>* values) {
  return MultiGetImpl(options, column_family, keys, values, false);
}

std::vector<Status> TransactionBaseImpl::MultiGet(
    const ReadOptions& options, const std::vector<Slice>& keys,
    std::vector<std::string>* values) {
  return MultiGet(
      options,
      std::vector<ColumnFamilyHandle*>(keys.size(), db_->DefaultColumnFamily()),
      keys, values);
}

Status TransactionBaseImpl::GetForUpdate(const ReadOptions& options,
                                         ColumnFamilyHandle* column_family,
                                         const Slice& key, std::string* value,
                                         bool exclusive,
                                         const bool do_validate) {
  ColumnFamilyHandle* family = FamilyOrDefault(column_family);
  SetSnapshotIfNeeded();
  // Tracked before the read: a write landing between the two is then
  // seen as a conflict rather than missed.
  Status s =
      TryLock(family, key, /*read_only=*/true, exclusive, do_validate, false);
  if (!s.ok() || value == nullptr) return s;
  return Get(options, family, key, value);
}

Status TransactionBaseImpl::GetForUpdate(const ReadOptions& options,
                                         const Slice& key, std::string* value,
                                         bool exclusive,
                                         const bool do_validate) {
  return GetForUpdate(options, nullptr, key, value, exclusive, do_validate);
}

std::vector<Status> TransactionBaseImpl::MultiGetForUpdate(
    const ReadOptions& options,
    const std::vector<ColumnFamilyHandle*>& column_family,
    const std::vector<Slice>& keys, std::vector<std::string>* values) {
  return MultiGetImpl(options, column_family, keys, values, true);
}

std::vector<Status> TransactionBaseImpl::MultiGetImpl(
    const ReadOptions& options,
    const std::vector<ColumnFamilyHandle*>& column_family,
    const std::vector<Slice>& keys, std::vector<std::string>* values,
    bool for_update) {
  values->assign(keys.size(), std::string());
  if (column_family.size() != keys.size()) {
    return std::vector<Status>(
        keys.size(), Status::InvalidArgument(
                         "MultiGet: one column family handle per key needed"));
  }
  // For update, every key is tracked (or locked) before any is read, as
  // RocksDB does; a refusal fails them all.
  for (size_t i = 0; for_update && i < keys.size(); i++) {
    SetSnapshotIfNeeded();
    Status s = TryLock(FamilyOrDefault(column_family[i]), keys[i],
                       /*read_only=*/true, /*exclusive=*/true);
    if (!s.ok()) return std::vector<Status>(keys.size(), s);
  }
  std::vector<Status> statuses(keys.size());
  for (size_t i = 0; i < keys.size(); i++) {
    statuses[i] = Get(options, column_family[i], keys[i], &(*values)[i]);
  }
  return statuses;
}

std::vector<Status> TransactionBaseImpl::MultiGetForUpdate(
    const ReadOptions& options, const std::vector<Slice>& keys,
    std::vector<std::string>* values) {
  return MultiGetForUpdate(
      options,
      std::vector<ColumnFamilyHandle*>(keys.size(), db_->DefaultColumnFamily()),
      keys, values);
}

Iterator* TransactionBaseImpl::GetIterator(const ReadOptions& read_options) {
  return GetIterator(read_options, nullptr);
}

Iterator* TransactionBaseImpl::GetIterator(const ReadOptions& read_options,
                                           ColumnFamilyHandle* column_family) {
  ColumnFamilyHandle* family = FamilyOrDefault(column_family);
  return write_batch_.NewIteratorWithBase(
      family, db_->NewIterator(read_options, family), &read_options);
}

void TransactionBaseImpl::UndoGetForUpdate(ColumnFamilyHandle* column_family,
                                           const Slice& key) {
  tracked_keys_.UndoRead(FamilyOrDefault(column_family)->GetID(),
                         key.ToString());
}

void TransactionBaseImpl::UndoGetForUpdate(const Slice& key) {
  UndoGetForUpdate(nullptr, key);
}

namespace {

// Replays a batch into a transaction as tracked writes; families by id,
// through the resolver.
class ReplayHandler : public WriteBatch::Handler {
 public:
  ReplayHandler(Transaction* txn,
                const TransactionBaseImpl::FamilyResolver* resolve)
      : txn_(txn), resolve_(resolve) {}

  Status PutCF(uint32_t id, const Slice& key, const Slice& value) override {
    ColumnFamilyHandle* family = nullptr;
    Status s = (*resolve_)(id, &family);
    return s.ok() ? txn_->Put(family, key, value) : s;
  }
  Status DeleteCF(uint32_t id, const Slice& key) override {
    ColumnFamilyHandle* family = nullptr;
    Status s = (*resolve_)(id, &family);
    return s.ok() ? txn_->Delete(family, key) : s;
  }
  Status SingleDeleteCF(uint32_t id, const Slice& key) override {
    ColumnFamilyHandle* family = nullptr;
    Status s = (*resolve_)(id, &family);
    return s.ok() ? txn_->SingleDelete(family, key) : s;
  }
  Status MergeCF(uint32_t id, const Slice& key, const Slice& value) override {
    ColumnFamilyHandle* family = nullptr;
    Status s = (*resolve_)(id, &family);
    return s.ok() ? txn_->Merge(family, key, value) : s;
  }
  void LogData(const Slice& blob) override { txn_->PutLogData(blob); }

 private:
  Transaction* const txn_;
  const TransactionBaseImpl::FamilyResolver* const resolve_;
};

}  // namespace

Status TransactionBaseImpl::ReplayBatch(const WriteBatch& batch,
                                        const FamilyResolver& resolve) {
  ReplayHandler handler(this, &resolve);
  return batch.Iterate(&handler);
}

Status TransactionBaseImpl::RebuildFromWriteBatch(WriteBatch* src_batch) {
  // The batch names families by id; the transaction knows the handles of
  // the default family and of the families it has tracked keys in.
  FamilyResolver resolve = [this](uint32_t id, ColumnFamilyHandle** family) {
    if (id == 0) {
      *family = db_->DefaultColumnFamily();
      return Status::OK();
    }
    auto f = tracked_keys_.families().find(id);
    if (f == tracked_keys_.families().end()) {
      return Status::NotSupported(
          "RebuildFromWriteBatch: an update of column family " +
          std::to_string(id) +
          ", which the transaction has not used (only those it has can be "
          "replayed)");
    }
    *family = f->second.handle;
    return Status::OK();
  };
  return ReplayBatch(*src_batch, resolve);
}

}  // namespace strata
