// OptimisticTransactionDB: a DB whose transactions take no locks while
// they run; each is checked when it commits. Shaped as RocksDB 7.8's.
//
// A transaction tracks every key it writes or reads with GetForUpdate,
// with the sequence number the DB had when it did (its snapshot's, if it
// has one). Commit writes the batch only if no tracked key was written
// since then by anyone else — checked atomically with the write — and
// returns Status::Busy otherwise, writing nothing (docs/transactions.md).
//
// Open refuses options under which the check is not sound:
// unordered_write and a family with inplace_update_support.
//
// Thread safety: as DB's; each Transaction is used by one thread at a
// time.

#ifndef STRATA_INCLUDE_UTILITIES_OPTIMISTIC_TRANSACTION_DB_H_
#define STRATA_INCLUDE_UTILITIES_OPTIMISTIC_TRANSACTION_DB_H_

#include <cstdint>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/export.h"
#include "strata/utilities/stackable_db.h"

namespace strata {

class Transaction;

struct OptimisticTransactionOptions {
  // Take a snapshot when the transaction begins (Transaction::SetSnapshot).
  bool set_snapshot = false;
  // Orders the keys of writes made without a column family handle in the
  // transaction's batch index.
  const Comparator* cmp = BytewiseComparator();
};

// How commits are checked, in RocksDB. strata runs every check inside the
// write path, one commit at a time (kValidateSerial's way); both values are
// accepted and give the same result.
enum class OccValidationPolicy {
  kValidateSerial = 0,
  kValidateParallel = 1,
};

struct OptimisticTransactionDBOptions {
  OccValidationPolicy validate_policy = OccValidationPolicy::kValidateParallel;
  // RocksDB's lock striping for parallel validation; accepted, unused.
  uint32_t occ_lock_buckets = (1 << 20);
};

class STRATA_EXPORT OptimisticTransactionDB : public StackableDB {
 public:
  static Status Open(const Options& options, const std::string& dbname,
                     OptimisticTransactionDB** dbptr);
  static Status Open(const DBOptions& db_options, const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles,
                     OptimisticTransactionDB** dbptr);
  static Status Open(const DBOptions& db_options,
                     const OptimisticTransactionDBOptions& occ_options,
                     const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles,
                     OptimisticTransactionDB** dbptr);

  ~OptimisticTransactionDB() override {}

  // A new transaction; the caller owns it and deletes it before the DB.
  // With old_txn (a transaction of this DB, committed or rolled back or
  // not), old_txn is reset and returned instead of a new one; an old_txn
  // of another DB is deleted and a new one returned.
  virtual Transaction* BeginTransaction(
      const WriteOptions& write_options,
      const OptimisticTransactionOptions& txn_options =
          OptimisticTransactionOptions(),
      Transaction* old_txn = nullptr) = 0;

  OptimisticTransactionDB(const OptimisticTransactionDB&) = delete;
  void operator=(const OptimisticTransactionDB&) = delete;

 protected:
  explicit OptimisticTransactionDB(DB* db) : StackableDB(db) {}
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_OPTIMISTIC_TRANSACTION_DB_H_
