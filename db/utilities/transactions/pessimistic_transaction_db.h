// PessimisticTransactionDB: the TransactionDB over a DBImpl
// (include/strata/utilities/transaction_db.h), WriteCommitted only. It
// owns the PointLockManager its transactions lock rows with, and keeps
// two registers: named transactions by name (GetTransactionByName,
// GetAllPreparedTransactions) and transactions with an expiration by id
// (the ExpiredLockStealer's side: a lock of an expired holder is handed
// over only after the holder is marked LOCKS_STOLEN).
//
// Writes made outside transactions (Put, Delete, SingleDelete, Merge,
// Write) lock their keys for the write's length, with
// default_lock_timeout, so they never overwrite a row a transaction
// holds.
//
// At Open the prepared transactions WAL recovery found unresolved
// become PREPARED transactions again (names, updates, locks). As in
// RocksDB, the DB deletes at close the named transactions still
// registered (recovered or not) that their owners have not deleted.
//
// Thread safety: as DB's. Locking order: a lock stripe's mutex, then
// registry_mutex_ (the stealer runs under a stripe's mutex); nothing
// calls into the lock manager with registry_mutex_ held.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_PESSIMISTIC_TRANSACTION_DB_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_PESSIMISTIC_TRANSACTION_DB_H_

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/utilities/transactions/lock/point_lock_manager.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/utilities/transaction_db.h"

namespace strata {

class DBImpl;
class PessimisticTransaction;

class PessimisticTransactionDB : public TransactionDB,
                                 private ExpiredLockStealer {
 public:
  // Takes db, whose root (GetRootDB) is a DBImpl.
  PessimisticTransactionDB(DB* db, const TransactionDBOptions& options);
  ~PessimisticTransactionDB() override;

  // Takes up the prepared transactions recovered by the DB; handles are
  // the families opened (the default family is known without them).
  Status RecoverPreparedTransactions(
      const std::vector<ColumnFamilyHandle*>& handles);

  Transaction* BeginTransaction(const WriteOptions& write_options,
                                const TransactionOptions& txn_options,
                                Transaction* old_txn) override;
  Transaction* GetTransactionByName(const TransactionName& name) override;
  void GetAllPreparedTransactions(std::vector<Transaction*>* trans) override;
  std::unordered_multimap<uint32_t, KeyLockInfo> GetLockStatusData() override;
  std::vector<DeadlockPath> GetDeadlockInfoBuffer() override;
  void SetDeadlockInfoBufferSize(uint32_t target_size) override;

  using TransactionDB::Put;
  Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, const Slice& value) override;
  using TransactionDB::Delete;
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                const Slice& key) override;
  using TransactionDB::SingleDelete;
  Status SingleDelete(const WriteOptions& options,
                      ColumnFamilyHandle* column_family,
                      const Slice& key) override;
  using TransactionDB::Merge;
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* column_family,
               const Slice& key, const Slice& value) override;
  using TransactionDB::Write;
  Status Write(const WriteOptions& options, WriteBatch* updates) override;
  Status Write(const WriteOptions& options,
               const TransactionDBWriteOptimizations& optimizations,
               WriteBatch* updates) override;

  Status DropColumnFamily(ColumnFamilyHandle* column_family) override;
  Status DropColumnFamilies(
      const std::vector<ColumnFamilyHandle*>& column_families) override;

  // For the transactions.
  DBImpl* db_impl() const { return db_impl_; }
  PointLockManager* lock_manager() { return &lock_manager_; }
  const TransactionDBOptions& txn_db_options() const { return options_; }
  TransactionID NextTransactionID() { return next_id_.fetch_add(1) + 1; }
  // InvalidArgument (RocksDB's message) if another has name; else
  // registers txn under it.
  Status RegisterName(const TransactionName& name, PessimisticTransaction* txn);
  // Forgets name if txn is the one registered under it.
  void UnregisterName(const TransactionName& name, PessimisticTransaction* txn);
  // InvalidArgument (RocksDB's message) if the family cf_id was dropped
  // through this DB: its keys can no longer be locked.
  Status CheckFamilyNotDropped(uint32_t cf_id);
  void RegisterExpirable(TransactionID id, PessimisticTransaction* txn);
  void UnregisterExpirable(TransactionID id);

 private:
  bool TryStealingLocks(TransactionID holder) override;
  // The write with its keys locked (a fresh id) for its length.
  Status WriteLocked(const WriteOptions& options, WriteBatch* updates);
  // Write of the one update add puts into a batch.
  Status WriteOne(const WriteOptions& options,
                  const std::function<Status(WriteBatch*)>& add);

  const TransactionDBOptions options_;
  DBImpl* const db_impl_;
  PointLockManager lock_manager_;
  std::atomic<TransactionID> next_id_{0};

  port::Mutex registry_mutex_;
  std::map<TransactionName, PessimisticTransaction*> by_name_
      GUARDED_BY(registry_mutex_);
  std::unordered_map<TransactionID, PessimisticTransaction*> expirable_
      GUARDED_BY(registry_mutex_);
  // Families dropped; any_dropped_ spares the common case the mutex.
  std::atomic<bool> any_dropped_{false};
  std::set<uint32_t> dropped_ GUARDED_BY(registry_mutex_);
};

// NotSupported or InvalidArgument naming the first option a TransactionDB
// cannot run under: a write policy other than WRITE_COMMITTED,
// unordered_write, inplace_update_support in any family.
Status CheckTransactionDBOptions(
    const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
    const std::vector<ColumnFamilyDescriptor>& column_families);

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_PESSIMISTIC_TRANSACTION_DB_H_
