// TransactionDB::Open, and PessimisticTransactionDB's transactions and
// registers. Writes outside transactions and the recovery of prepared
// transactions are in pessimistic_transaction_db_write.cc.

#include "db/utilities/transactions/pessimistic_transaction_db.h"

#include "db/db_impl.h"
#include "db/utilities/transactions/pessimistic_transaction.h"
#include "util/mutexlock.h"

namespace strata {

Status CheckTransactionDBOptions(
    const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
    const std::vector<ColumnFamilyDescriptor>& column_families) {
  if (txn_db_options.write_policy != WRITE_COMMITTED) {
    return Status::NotSupported(
        "TransactionDB: only the WRITE_COMMITTED write_policy is implemented "
        "(WRITE_PREPARED and WRITE_UNPREPARED are not)");
  }
  // RocksDB's statuses for these two.
  if (db_options.unordered_write) {
    return Status::NotSupported(
        "TransactionDB: WRITE_COMMITTED is incompatible with unordered_write");
  }
  // An in-place update overwrites the sequence number the snapshot
  // validation reads.
  for (const ColumnFamilyDescriptor& family : column_families) {
    if (family.options.inplace_update_support) {
      return Status::InvalidArgument(
          "TransactionDB: inplace_update_support is not supported (column "
          "family " +
          family.name + ")");
    }
  }
  return Status::OK();
}

Status TransactionDB::Open(const Options& options,
                           const TransactionDBOptions& txn_db_options,
                           const std::string& dbname, TransactionDB** dbptr) {
  *dbptr = nullptr;
  Status s = CheckTransactionDBOptions(
      options, txn_db_options,
      {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)});
  if (!s.ok()) return s;
  // The DB keeps the WALs prepared sections need only with allow_2pc
  // (docs/transactions.md, "Keeping the WALs sections need"); Prepare
  // works whatever the caller set, as in RocksDB.
  Options with_2pc = options;
  with_2pc.allow_2pc = true;
  DB* db = nullptr;
  s = DB::Open(with_2pc, dbname, &db);
  if (!s.ok()) return s;
  auto* txn_db = new PessimisticTransactionDB(db, txn_db_options);
  s = txn_db->RecoverPreparedTransactions({});
  if (!s.ok()) {
    delete txn_db;
    return s;
  }
  *dbptr = txn_db;
  return s;
}

Status TransactionDB::Open(
    const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
    const std::string& dbname,
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::vector<ColumnFamilyHandle*>* handles, TransactionDB** dbptr) {
  *dbptr = nullptr;
  Status s =
      CheckTransactionDBOptions(db_options, txn_db_options, column_families);
  if (!s.ok()) return s;
  DBOptions with_2pc = db_options;
  with_2pc.allow_2pc = true;
  DB* db = nullptr;
  s = DB::Open(with_2pc, dbname, column_families, handles, &db);
  if (!s.ok()) return s;
  auto* txn_db = new PessimisticTransactionDB(db, txn_db_options);
  s = txn_db->RecoverPreparedTransactions(*handles);
  if (!s.ok()) {
    for (ColumnFamilyHandle* handle : *handles) {
      txn_db->DestroyColumnFamilyHandle(handle);
    }
    handles->clear();
    delete txn_db;
    return s;
  }
  *dbptr = txn_db;
  return s;
}

PessimisticTransactionDB::PessimisticTransactionDB(
    DB* db, const TransactionDBOptions& options)
    : TransactionDB(db),
      options_(options),
      db_impl_(static_cast<DBImpl*>(GetRootDB())),
      lock_manager_(options, db->GetEnv(), this) {}

PessimisticTransactionDB::~PessimisticTransactionDB() {
  // The named transactions still here (recovered ones, and those their
  // owners did not delete), as RocksDB; each unregisters itself.
  for (;;) {
    PessimisticTransaction* txn = nullptr;
    {
      MutexLock l(&registry_mutex_);
      if (by_name_.empty()) break;
      txn = by_name_.begin()->second;
    }
    delete txn;
  }
}

Transaction* PessimisticTransactionDB::BeginTransaction(
    const WriteOptions& write_options, const TransactionOptions& txn_options,
    Transaction* old_txn) {
  if (old_txn != nullptr) {
    // Only a transaction of this DB is reused; another (of another DB or
    // kind) is deleted and replaced, as callers assign the result to it.
    auto* reused = dynamic_cast<PessimisticTransaction*>(old_txn);
    if (reused != nullptr && reused->BelongsTo(this)) {
      reused->Reinitialize(write_options, txn_options);
      return reused;
    }
    delete old_txn;
  }
  return new PessimisticTransaction(this, write_options, txn_options);
}

Status PessimisticTransactionDB::RegisterName(const TransactionName& name,
                                              PessimisticTransaction* txn) {
  MutexLock l(&registry_mutex_);
  if (!by_name_.emplace(name, txn).second) {
    return Status::InvalidArgument("Transaction name must be unique.");
  }
  return Status::OK();
}

void PessimisticTransactionDB::UnregisterName(const TransactionName& name,
                                              PessimisticTransaction* txn) {
  MutexLock l(&registry_mutex_);
  auto it = by_name_.find(name);
  if (it != by_name_.end() && it->second == txn) by_name_.erase(it);
}

Status PessimisticTransactionDB::CheckFamilyNotDropped(uint32_t cf_id) {
  if (!any_dropped_.load(std::memory_order_acquire)) return Status::OK();
  MutexLock l(&registry_mutex_);
  if (dropped_.count(cf_id) == 0) return Status::OK();
  return Status::InvalidArgument("Column family id not found: " +
                                 std::to_string(cf_id));
}

void PessimisticTransactionDB::RegisterExpirable(TransactionID id,
                                                 PessimisticTransaction* txn) {
  MutexLock l(&registry_mutex_);
  expirable_[id] = txn;
}

void PessimisticTransactionDB::UnregisterExpirable(TransactionID id) {
  MutexLock l(&registry_mutex_);
  expirable_.erase(id);
}

bool PessimisticTransactionDB::TryStealingLocks(TransactionID holder) {
  // Under registry_mutex_, so the holder cannot be deleted meanwhile
  // (its destructor unregisters first).
  MutexLock l(&registry_mutex_);
  auto it = expirable_.find(holder);
  // A holder not registered has no expiration: it keeps its locks.
  return it != expirable_.end() && it->second->TryStealingLocks();
}

Transaction* PessimisticTransactionDB::GetTransactionByName(
    const TransactionName& name) {
  MutexLock l(&registry_mutex_);
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

void PessimisticTransactionDB::GetAllPreparedTransactions(
    std::vector<Transaction*>* trans) {
  trans->clear();
  MutexLock l(&registry_mutex_);
  for (const auto& entry : by_name_) {
    if (entry.second->GetState() == Transaction::PREPARED) {
      trans->push_back(entry.second);
    }
  }
}

std::unordered_multimap<uint32_t, KeyLockInfo>
PessimisticTransactionDB::GetLockStatusData() {
  return lock_manager_.GetLockStatusData();
}

std::vector<DeadlockPath> PessimisticTransactionDB::GetDeadlockInfoBuffer() {
  return lock_manager_.GetDeadlockInfoBuffer();
}

void PessimisticTransactionDB::SetDeadlockInfoBufferSize(uint32_t target_size) {
  lock_manager_.Resize(target_size);
}

}  // namespace strata
