// OptimisticTransaction: a Transaction that takes no locks. TryLock only
// tracks the key with the sequence number it depends on from: the
// transaction's snapshot's, or the DB's latest taken before the read or
// write. Commit runs the conflict check inside DBImpl::WriteWithCallback,
// atomic with the write: a tracked key whose newest write
// (DBImpl::GetLatestSequenceForKey) is newer than its sequence fails the
// commit with Busy, and nothing is written (docs/transactions.md).
//
// The check needs every write newer than a tracked sequence to still be
// findable; a deletion could otherwise be compacted away at the bottom
// level. So from its first tracked key to its commit or rollback the
// transaction holds a snapshot no newer than any tracked sequence
// (history_): the user's snapshot if it has one then, else its own.
//
// Thread safety: none (one thread at a time uses a transaction).

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_OPTIMISTIC_TRANSACTION_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_OPTIMISTIC_TRANSACTION_H_

#include <memory>

#include "db/utilities/transactions/transaction_base.h"
#include "strata/utilities/optimistic_transaction_db.h"

namespace strata {

class DBImpl;
class OccLockBuckets;

class OptimisticTransaction : public TransactionBaseImpl {
 public:
  // db reads and snapshots; db_impl checks and commits (db's root).
  // buckets: the DB's key locks for parallel validation, or nullptr to
  // validate inside the write path (kValidateSerial).
  OptimisticTransaction(DB* db, DBImpl* db_impl, OccLockBuckets* buckets,
                        const WriteOptions& write_options,
                        const OptimisticTransactionOptions& txn_options);
  ~OptimisticTransaction() override;

  // Starts over as BeginTransaction(write_options, txn_options) would.
  void Reinitialize(const WriteOptions& write_options,
                    const OptimisticTransactionOptions& txn_options);

  Status TryLock(ColumnFamilyHandle* column_family, const Slice& key,
                 bool read_only, bool exclusive, bool do_validate = true,
                 bool assume_tracked = false) override;

  Status Prepare() override;
  Status Commit() override;
  Status SetName(const TransactionName& name) override;
  void SetLockTimeout(int64_t /*timeout*/) override {}

  // The conflict check: OK, Busy for a conflict, or the error that kept
  // a key from being checked. Runs inside the write path (serial
  // validation) or with the tracked keys' buckets locked (parallel).
  Status CheckTrackedKeys();

  // Whether this transaction commits into db_impl.
  bool BelongsTo(const DBImpl* db_impl) const { return db_impl_ == db_impl; }

 protected:
  void Clear() override;

 private:
  // The two validation policies' commits.
  Status CommitSerial();
  Status CommitParallel();

  DBImpl* const db_impl_;
  OccLockBuckets* const buckets_;
  std::shared_ptr<const Snapshot> history_;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_OPTIMISTIC_TRANSACTION_H_
