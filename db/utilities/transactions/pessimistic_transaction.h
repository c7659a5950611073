// PessimisticTransaction: a TransactionDB's transaction (WriteCommitted:
// its writes reach the DB at commit). TryLock takes the row lock of each
// key written (exclusive) or read with GetForUpdate (shared or
// exclusive) from the DB's PointLockManager, and holds it until Commit
// or Rollback. With a snapshot, a key newly locked must not have been
// written since the snapshot (Busy otherwise): once locked, nobody else
// can write it, so the check is final.
//
// State (Transaction::TransactionState): STARTED until Commit (->
// COMMITTED) or Prepare (-> PREPARED, then COMMITTED or ROLLEDBACK); the
// AWAITING_* states are held while the record is written. A transaction
// with an expiration whose time has passed may be marked LOCKS_STOLEN by
// the DB, atomically, when another transaction takes one of its locks; it
// can then never commit (Expired). Moving out of STARTED to commit is
// the same atomic step, so a committing transaction is never robbed.
//
// Thread safety: one thread at a time uses a transaction; the DB's lock
// stealer reads and swaps the state from other threads (atomic).

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_PESSIMISTIC_TRANSACTION_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_PESSIMISTIC_TRANSACTION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "db/utilities/transactions/lock/point_lock_manager.h"
#include "db/utilities/transactions/transaction_base.h"
#include "strata/utilities/transaction_db.h"

namespace strata {

class DBImpl;
class PessimisticTransactionDB;

class PessimisticTransaction : public TransactionBaseImpl {
 public:
  PessimisticTransaction(PessimisticTransactionDB* txn_db,
                         const WriteOptions& write_options,
                         const TransactionOptions& txn_options);
  // Releases the locks still held and leaves the DB's registers.
  ~PessimisticTransaction() override;

  // Starts over as BeginTransaction(write_options, txn_options) would,
  // with a new id.
  void Reinitialize(const WriteOptions& write_options,
                    const TransactionOptions& txn_options);

  // Whether this transaction is txn_db's.
  bool BelongsTo(const PessimisticTransactionDB* txn_db) const {
    return txn_db_ == txn_db;
  }

  Status TryLock(ColumnFamilyHandle* column_family, const Slice& key,
                 bool read_only, bool exclusive, bool do_validate = true,
                 bool assume_tracked = false) override;

  Status Prepare() override;
  Status Commit() override;
  Status Rollback() override;
  Status RollbackToSavePoint() override;
  using TransactionBaseImpl::UndoGetForUpdate;
  void UndoGetForUpdate(ColumnFamilyHandle* column_family,
                        const Slice& key) override;

  Status SetName(const TransactionName& name) override;
  TransactionID GetID() const override { return id_; }
  bool IsDeadlockDetect() const override { return deadlock_detect_; }
  std::vector<TransactionID> GetWaitingTxns(uint32_t* column_family_id,
                                            std::string* key) const override;
  // Milliseconds, as TransactionOptions::lock_timeout (negative: forever).
  void SetLockTimeout(int64_t timeout) override;

  // For the DB's ExpiredLockStealer: marks the transaction LOCKS_STOLEN
  // if it is still STARTED; true if it is (now) marked.
  bool TryStealingLocks();
  // Whether the expiration time has passed (Env clock).
  bool IsExpired() const;
  bool HasExpiration() const { return expiration_time_us_ != 0; }

  // Recovery: the transaction becomes the prepared transaction recovered
  // under its name, its updates replayed into it (locks taken).
  void MarkRecoveredPrepared() { SetState(PREPARED); }

 protected:
  // Releases the locks of the tracked keys with the rest.
  void Clear() override;

 private:
  void Initialize(const TransactionOptions& txn_options);
  // Leaves the DB's registers (by name, expirable).
  void Unregister();
  LockRequest MakeRequest() const;
  // A key newly locked under a snapshot: Busy if written since.
  Status ValidateSnapshot(ColumnFamilyHandle* column_family, const Slice& key);
  // Releases the locks of the keys tracked in before but not any more.
  void UnlockUntracked(const TrackedKeys& before);
  void UnlockAll();
  // Writes batch (updates and markers) with the DB's write path.
  Status WriteRecord(WriteBatch* batch);
  Status CommitWithoutPrepare();
  Status CommitPrepared();
  // Ends a commit or rollback: state; unless it is PREPARED (the record
  // failed), the transaction leaves the registers and drops its writes
  // and locks.
  void Finish(TransactionState state);

  PessimisticTransactionDB* const txn_db_;
  DBImpl* const db_impl_;
  PointLockManager* const lock_manager_;
  int64_t lock_timeout_us_ = 0;
  bool deadlock_detect_ = false;
  int64_t deadlock_detect_depth_ = 50;
  uint64_t expiration_time_us_ = 0;  // 0: never expires
  bool skip_concurrency_control_ = false;
  bool skip_prepare_ = true;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_PESSIMISTIC_TRANSACTION_H_
