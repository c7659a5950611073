#include "db/utilities/transactions/optimistic_transaction_db_impl.h"

#include "db/db_impl.h"
#include "db/utilities/transactions/occ_lock_buckets.h"
#include "db/utilities/transactions/optimistic_transaction.h"

namespace strata {

Status CheckOptimisticTransactionOptions(
    const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& column_families) {
  // Under unordered_write a write is readable before earlier ones are, so
  // a check can pass while a conflicting write is still being applied.
  if (db_options.unordered_write) {
    return Status::InvalidArgument(
        "OptimisticTransactionDB: unordered_write is not supported (the "
        "conflict check needs writes applied in sequence order)");
  }
  // In-place updates overwrite a key's version, and its sequence number
  // with it, so the newest write's sequence is no longer known.
  for (const ColumnFamilyDescriptor& family : column_families) {
    if (family.options.inplace_update_support) {
      return Status::InvalidArgument(
          "OptimisticTransactionDB: inplace_update_support is not supported "
          "(column family " +
          family.name + ")");
    }
  }
  return Status::OK();
}

Status OptimisticTransactionDB::Open(const Options& options,
                                     const std::string& dbname,
                                     OptimisticTransactionDB** dbptr) {
  *dbptr = nullptr;
  Status s = CheckOptimisticTransactionOptions(
      options, {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)});
  if (!s.ok()) return s;
  DB* db = nullptr;
  s = DB::Open(options, dbname, &db);
  if (!s.ok()) return s;
  *dbptr =
      new OptimisticTransactionDBImpl(db, OptimisticTransactionDBOptions());
  return s;
}

Status OptimisticTransactionDB::Open(
    const DBOptions& db_options, const std::string& dbname,
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::vector<ColumnFamilyHandle*>* handles,
    OptimisticTransactionDB** dbptr) {
  return Open(db_options, OptimisticTransactionDBOptions(), dbname,
              column_families, handles, dbptr);
}

Status OptimisticTransactionDB::Open(
    const DBOptions& db_options,
    const OptimisticTransactionDBOptions& occ_options,
    const std::string& dbname,
    const std::vector<ColumnFamilyDescriptor>& column_families,
    std::vector<ColumnFamilyHandle*>* handles,
    OptimisticTransactionDB** dbptr) {
  *dbptr = nullptr;
  Status s = CheckOptimisticTransactionOptions(db_options, column_families);
  if (!s.ok()) return s;
  DB* db = nullptr;
  s = DB::Open(db_options, dbname, column_families, handles, &db);
  if (!s.ok()) return s;
  *dbptr = new OptimisticTransactionDBImpl(db, occ_options);
  return s;
}

OptimisticTransactionDBImpl::OptimisticTransactionDBImpl(
    DB* db, const OptimisticTransactionDBOptions& options)
    : OptimisticTransactionDB(db),
      options_(options),
      db_impl_(static_cast<DBImpl*>(GetRootDB())),
      buckets_(options.validate_policy == OccValidationPolicy::kValidateParallel
                   ? new OccLockBuckets(options.occ_lock_buckets)
                   : nullptr) {}

OptimisticTransactionDBImpl::~OptimisticTransactionDBImpl() = default;

Transaction* OptimisticTransactionDBImpl::BeginTransaction(
    const WriteOptions& write_options,
    const OptimisticTransactionOptions& txn_options, Transaction* old_txn) {
  if (old_txn != nullptr) {
    // Only a transaction of this DB is reused; another (of another DB or
    // kind) is deleted and replaced, as callers assign the result to it.
    auto* reused = dynamic_cast<OptimisticTransaction*>(old_txn);
    if (reused != nullptr && reused->BelongsTo(db_impl_)) {
      reused->Reinitialize(write_options, txn_options);
      return reused;
    }
    delete old_txn;
  }
  return new OptimisticTransaction(GetRootDB(), db_impl_, buckets_.get(),
                                   write_options, txn_options);
}

}  // namespace strata
