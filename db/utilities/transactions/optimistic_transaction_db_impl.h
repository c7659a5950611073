// OptimisticTransactionDBImpl: the OptimisticTransactionDB over a DBImpl
// (include/strata/utilities/optimistic_transaction_db.h). It adds only
// BeginTransaction; reads and plain writes pass through StackableDB.
//
// Thread safety: as DB's.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_OPTIMISTIC_TRANSACTION_DB_IMPL_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_OPTIMISTIC_TRANSACTION_DB_IMPL_H_

#include <memory>

#include "strata/utilities/optimistic_transaction_db.h"

namespace strata {

class DBImpl;
class OccLockBuckets;

class OptimisticTransactionDBImpl : public OptimisticTransactionDB {
 public:
  // Takes db, whose root (GetRootDB) is a DBImpl.
  OptimisticTransactionDBImpl(DB* db,
                              const OptimisticTransactionDBOptions& options);
  ~OptimisticTransactionDBImpl() override;

  Transaction* BeginTransaction(const WriteOptions& write_options,
                                const OptimisticTransactionOptions& txn_options,
                                Transaction* old_txn) override;

 private:
  const OptimisticTransactionDBOptions options_;
  DBImpl* const db_impl_;
  // For kValidateParallel; nullptr under kValidateSerial.
  const std::unique_ptr<OccLockBuckets> buckets_;
};

// InvalidArgument naming the first option under which the conflict check
// is not sound (unordered_write; inplace_update_support in any family).
Status CheckOptimisticTransactionOptions(
    const DBOptions& db_options,
    const std::vector<ColumnFamilyDescriptor>& column_families);

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_OPTIMISTIC_TRANSACTION_DB_IMPL_H_
