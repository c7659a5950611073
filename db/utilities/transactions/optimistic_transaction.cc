#include "db/utilities/transactions/optimistic_transaction.h"

#include <vector>

#include "db/db_impl.h"
#include "db/utilities/transactions/occ_lock_buckets.h"
#include "db/write_callback.h"

namespace strata {

namespace {

class ConflictCheck : public WriteCallback {
 public:
  explicit ConflictCheck(OptimisticTransaction* txn) : txn_(txn) {}
  Status Check() override { return txn_->CheckTrackedKeys(); }

 private:
  OptimisticTransaction* const txn_;
};

}  // namespace

OptimisticTransaction::OptimisticTransaction(
    DB* db, DBImpl* db_impl, OccLockBuckets* buckets,
    const WriteOptions& write_options,
    const OptimisticTransactionOptions& txn_options)
    : TransactionBaseImpl(db, write_options, txn_options.cmp),
      db_impl_(db_impl),
      buckets_(buckets) {
  if (txn_options.set_snapshot) SetSnapshot();
}

OptimisticTransaction::~OptimisticTransaction() = default;

void OptimisticTransaction::Reinitialize(
    const WriteOptions& write_options,
    const OptimisticTransactionOptions& txn_options) {
  TransactionBaseImpl::Reinitialize(write_options);
  if (txn_options.set_snapshot) SetSnapshot();
}

Status OptimisticTransaction::TryLock(ColumnFamilyHandle* column_family,
                                      const Slice& key, bool read_only,
                                      bool exclusive, bool do_validate,
                                      bool /*assume_tracked*/) {
  if (!do_validate) return Status::OK();
  // Taken before the sequence below is read, so it is no newer than any
  // sequence a key is tracked at: every write the check may need to see
  // is newer than this snapshot and survives compaction. A save point's
  // rollback may bring back a snapshot older than the one held: it is
  // held instead.
  if (history_ == nullptr ||
      (snapshot_ != nullptr &&
       snapshot_->GetSequenceNumber() < history_->GetSequenceNumber())) {
    history_ = snapshot_ != nullptr ? snapshot_ : TakeSnapshot();
  }
  const SequenceNumber seq = snapshot_ != nullptr
                                 ? snapshot_->GetSequenceNumber()
                                 : db_->GetLatestSequenceNumber();
  TrackKey(column_family, key, seq, read_only, exclusive);
  return Status::OK();
}

Status OptimisticTransaction::Prepare() {
  return Status::InvalidArgument(
      "Two phase commit not supported for optimistic transactions.");
}

Status OptimisticTransaction::SetName(const TransactionName& /*name*/) {
  return Status::InvalidArgument("Optimistic transactions cannot be named.");
}

Status OptimisticTransaction::CheckTrackedKeys() {
  for (const auto& family : tracked_keys_.families()) {
    ColumnFamilyHandle* handle = family.second.handle;
    // A dropped family still answers reads; a commit that depends on it
    // fails, as RocksDB's does.
    Status live = db_impl_->CheckFamilyLive(handle);
    if (!live.ok()) return live;
    for (const auto& key : family.second.keys) {
      SequenceNumber latest = 0;
      Status s = db_impl_->GetLatestSequenceForKey(handle, key.first, &latest);
      if (!s.ok()) return s;
      if (latest > key.second.seq) return Status::Busy();
    }
  }
  return Status::OK();
}

Status OptimisticTransaction::Commit() {
  Status s = buckets_ != nullptr ? CommitParallel() : CommitSerial();
  // A failed commit leaves the transaction as it was, to be rolled back
  // or deleted; a committed one is empty and may be used again.
  if (s.ok()) Clear();
  return s;
}

Status OptimisticTransaction::CommitSerial() {
  // The check runs in the write path, after every earlier write is
  // applied and before any later one: nothing can slip in between, but
  // the commit is a group of its own and the writers behind it wait.
  ConflictCheck check(this);
  return db_impl_->WriteWithCallback(write_options_,
                                     write_batch_.GetWriteBatch(), &check);
}

Status OptimisticTransaction::CommitParallel() {
  // Every transaction tracking one of these keys waits here until this
  // commit's write has been applied (DB::Write returns after that), so
  // its check sees it. A plain write outside transactions takes no
  // bucket: one landing between this check and this write goes unseen,
  // as with RocksDB's kValidateParallel.
  std::vector<size_t> buckets;
  buckets.reserve(tracked_keys_.size());
  for (const auto& family : tracked_keys_.families()) {
    for (const auto& key : family.second.keys) {
      buckets.push_back(buckets_->BucketOf(family.first, key.first));
    }
  }
  buckets_->Lock(&buckets);
  Status s = CheckTrackedKeys();
  if (s.ok()) s = db_impl_->Write(write_options_, write_batch_.GetWriteBatch());
  buckets_->Unlock(buckets);
  return s;
}

void OptimisticTransaction::Clear() {
  TransactionBaseImpl::Clear();
  history_.reset();
}

}  // namespace strata
