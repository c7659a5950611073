// PessimisticTransaction's locking: TryLock, the snapshot validation, the
// releases at rollback to a save point and UndoGetForUpdate, expiration.
// The state machine (Prepare, Commit, Rollback, SetName) is in
// pessimistic_transaction_commit.cc.

#include "db/utilities/transactions/pessimistic_transaction.h"

#include "db/db_impl.h"
#include "db/utilities/transactions/pessimistic_transaction_db.h"

namespace strata {

PessimisticTransaction::PessimisticTransaction(
    PessimisticTransactionDB* txn_db, const WriteOptions& write_options,
    const TransactionOptions& txn_options)
    : TransactionBaseImpl(txn_db->GetRootDB(), write_options,
                          BytewiseComparator()),
      txn_db_(txn_db),
      db_impl_(txn_db->db_impl()),
      lock_manager_(txn_db->lock_manager()) {
  Initialize(txn_options);
}

PessimisticTransaction::~PessimisticTransaction() {
  Unregister();
  UnlockAll();
}

void PessimisticTransaction::Initialize(const TransactionOptions& txn_options) {
  SetId(txn_db_->NextTransactionID());
  const int64_t timeout_ms =
      txn_options.lock_timeout >= 0
          ? txn_options.lock_timeout
          : txn_db_->txn_db_options().transaction_lock_timeout;
  SetLockTimeout(timeout_ms);
  deadlock_detect_ = txn_options.deadlock_detect;
  deadlock_detect_depth_ = txn_options.deadlock_detect_depth;
  skip_concurrency_control_ = txn_options.skip_concurrency_control;
  skip_prepare_ = txn_options.skip_prepare;
  expiration_time_us_ = 0;
  if (txn_options.expiration >= 0) {
    // An expiration of 0 expires at once, as RocksDB's; the +1 keeps the
    // lock manager's "0 = never" apart from a clock reading 0.
    expiration_time_us_ = db_->GetEnv()->NowMicros() +
                          static_cast<uint64_t>(txn_options.expiration) * 1000;
    if (expiration_time_us_ == 0) expiration_time_us_ = 1;
    txn_db_->RegisterExpirable(id_, this);
  }
  if (txn_options.set_snapshot) SetSnapshot();
}

void PessimisticTransaction::Reinitialize(
    const WriteOptions& write_options, const TransactionOptions& txn_options) {
  Unregister();
  TransactionBaseImpl::Reinitialize(write_options);
  Initialize(txn_options);
}

void PessimisticTransaction::Unregister() {
  if (!name_.empty()) txn_db_->UnregisterName(name_, this);
  if (expiration_time_us_ != 0) txn_db_->UnregisterExpirable(id_);
}

void PessimisticTransaction::SetLockTimeout(int64_t timeout) {
  lock_timeout_us_ = timeout < 0 ? -1 : timeout * 1000;
}

LockRequest PessimisticTransaction::MakeRequest() const {
  LockRequest request;
  request.id = id_;
  request.timeout_us = lock_timeout_us_;
  request.deadlock_detect = deadlock_detect_;
  request.deadlock_detect_depth = deadlock_detect_depth_;
  request.expiration_time_us = expiration_time_us_;
  return request;
}

bool PessimisticTransaction::IsExpired() const {
  return expiration_time_us_ != 0 &&
         db_->GetEnv()->NowMicros() >= expiration_time_us_;
}

bool PessimisticTransaction::TryStealingLocks() {
  TransactionState expected = STARTED;
  return txn_state_.compare_exchange_strong(expected, LOCKS_STOLEN) ||
         expected == LOCKS_STOLEN;
}

Status PessimisticTransaction::TryLock(ColumnFamilyHandle* column_family,
                                       const Slice& key, bool read_only,
                                       bool exclusive, bool do_validate,
                                       bool /*assume_tracked*/) {
  if (skip_concurrency_control_) return Status::OK();
  ColumnFamilyHandle* family = FamilyOrDefault(column_family);
  const uint32_t cf_id = family->GetID();
  const std::string key_str = key.ToString();
  const TrackedKeyInfo* tracked = tracked_keys_.Find(cf_id, key_str);
  const bool previously_locked = tracked != nullptr;
  const bool upgrade = previously_locked && exclusive && !tracked->exclusive;
  if (!previously_locked || upgrade) {
    Status s = txn_db_->CheckFamilyNotDropped(cf_id);
    if (!s.ok()) return s;
    s = lock_manager_->TryLock(MakeRequest(), cf_id, key_str,
                               exclusive || upgrade);
    if (!s.ok()) return s;
  }
  // The sequence the key is known unwritten since: the snapshot's once
  // validated; kMaxSequenceNumber when never validated.
  SequenceNumber seq = previously_locked ? tracked->seq : kMaxSequenceNumber;
  if (do_validate && snapshot_ != nullptr &&
      seq > snapshot_->GetSequenceNumber()) {
    Status s = ValidateSnapshot(family, key);
    if (!s.ok()) {
      // A lock taken just now for nothing is given back; an upgrade
      // stays (the key was the transaction's already).
      if (!previously_locked) lock_manager_->UnLock(id_, cf_id, key_str);
      return s;
    }
    seq = snapshot_->GetSequenceNumber();
  }
  TrackKey(family, key, seq, read_only, exclusive || upgrade);
  return Status::OK();
}

Status PessimisticTransaction::ValidateSnapshot(
    ColumnFamilyHandle* column_family, const Slice& key) {
  Status live = db_impl_->CheckFamilyLive(column_family);
  if (!live.ok()) return live;
  SequenceNumber latest = 0;
  Status s = db_impl_->GetLatestSequenceForKey(column_family, key, &latest);
  if (!s.ok()) return s;
  return latest > snapshot_->GetSequenceNumber() ? Status::Busy()
                                                 : Status::OK();
}

std::vector<TransactionID> PessimisticTransaction::GetWaitingTxns(
    uint32_t* column_family_id, std::string* key) const {
  uint32_t cf_id = 0;
  std::string waiting_key;
  std::vector<TransactionID> ids =
      lock_manager_->GetWaitingTxns(id_, &cf_id, &waiting_key);
  if (column_family_id != nullptr) *column_family_id = cf_id;
  if (key != nullptr) *key = waiting_key;
  return ids;
}

void PessimisticTransaction::UnlockAll() {
  LockedKeys keys;
  for (const auto& family : tracked_keys_.families()) {
    std::vector<std::string>& list = keys[family.first];
    for (const auto& key : family.second.keys) list.push_back(key.first);
  }
  if (!keys.empty()) lock_manager_->UnLock(id_, keys);
}

void PessimisticTransaction::UnlockUntracked(const TrackedKeys& before) {
  LockedKeys keys;
  for (const auto& family : before.families()) {
    for (const auto& key : family.second.keys) {
      if (tracked_keys_.Find(family.first, key.first) == nullptr) {
        keys[family.first].push_back(key.first);
      }
    }
  }
  if (!keys.empty()) lock_manager_->UnLock(id_, keys);
}

void PessimisticTransaction::Clear() {
  UnlockAll();
  TransactionBaseImpl::Clear();
}

Status PessimisticTransaction::RollbackToSavePoint() {
  const TrackedKeys before = tracked_keys_;
  Status s = TransactionBaseImpl::RollbackToSavePoint();
  // Keys first locked after the save point are not the transaction's any
  // more; those tracked before it keep their locks.
  UnlockUntracked(before);
  return s;
}

void PessimisticTransaction::UndoGetForUpdate(ColumnFamilyHandle* column_family,
                                              const Slice& key) {
  const uint32_t cf_id = FamilyOrDefault(column_family)->GetID();
  const std::string key_str = key.ToString();
  const bool was_tracked = tracked_keys_.Find(cf_id, key_str) != nullptr;
  TransactionBaseImpl::UndoGetForUpdate(column_family, key);
  if (was_tracked && tracked_keys_.Find(cf_id, key_str) == nullptr &&
      !skip_concurrency_control_) {
    lock_manager_->UnLock(id_, cf_id, key_str);
  }
}

}  // namespace strata
