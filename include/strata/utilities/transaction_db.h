// TransactionDB: a DB whose transactions lock the rows they write (and
// the rows they read with GetForUpdate) until they commit or roll back:
// pessimistic concurrency control, as RocksDB 7.8's class of this name.
// A second transaction wanting a locked row waits for it, up to its lock
// timeout (TimedOut, sub-code kLockTimeout); a wait that would close a
// cycle of waits fails at once when the transaction asked for deadlock
// detection (Busy, sub-code kDeadlock) and is recorded for
// GetDeadlockInfoBuffer(). docs/transactions.md, "Locking", describes
// the lock manager behind it.
//
// Only the WRITE_COMMITTED policy is implemented: a transaction's writes
// reach the DB when it commits. Open refuses the other policies with
// NotSupported. Range locking and user timestamps are absent.
//
// Thread safety: as DB's. A Transaction is used by one thread at a time.

#ifndef STRATA_INCLUDE_UTILITIES_TRANSACTION_DB_H_
#define STRATA_INCLUDE_UTILITIES_TRANSACTION_DB_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"
#include "strata/utilities/stackable_db.h"
#include "strata/utilities/transaction.h"

namespace strata {

class TransactionDB;
class TransactionDBMutexFactory;

enum TxnDBWritePolicy {
  WRITE_COMMITTED = 0,  // the DB sees a transaction's writes at commit
  WRITE_PREPARED,       // RocksDB's: written at prepare (refused here)
  WRITE_UNPREPARED      // RocksDB's: written before prepare (refused here)
};

constexpr uint32_t kInitialMaxDeadlocks = 5;

struct STRATA_EXPORT TransactionDBOptions {
  // The most keys of one column family locked at once; a transaction
  // needing one more waits (up to its lock timeout) for a lock of the
  // same stripe to be released, then fails with Busy, sub-code
  // kLockLimit. Not positive: no limit.
  int64_t max_num_locks = -1;

  // How many of the latest deadlocks GetDeadlockInfoBuffer() keeps.
  uint32_t max_num_deadlocks = kInitialMaxDeadlocks;

  // The lock table of each column family is split into this many
  // stripes, each with its own mutex and condition variable; more
  // stripes, less contention between unrelated keys.
  size_t num_stripes = 16;

  // A transaction's lock wait in milliseconds when its
  // TransactionOptions::lock_timeout is negative. 0: never wait;
  // negative: wait as long as it takes (a deadlock then waits forever
  // unless deadlock detection is on).
  int64_t transaction_lock_timeout = 1000;

  // The lock wait in milliseconds of writes made outside a transaction
  // (DB::Put, Merge, Delete, Write). 0: never wait; negative: no limit.
  int64_t default_lock_timeout = 1000;

  // When set, the lock manager's mutexes and condition variables come
  // from here instead of the std::mutex based default.
  std::shared_ptr<TransactionDBMutexFactory> custom_mutex_factory;

  // Only WRITE_COMMITTED is accepted by Open.
  TxnDBWritePolicy write_policy = TxnDBWritePolicy::WRITE_COMMITTED;

  // RocksDB's hot fix for write-prepared rollbacks; no effect here.
  bool rollback_merge_operands = false;

  // When true, writes outside transactions skip locking unless
  // TransactionDBWriteOptimizations says otherwise; transactions follow
  // their own TransactionOptions::skip_concurrency_control.
  bool skip_concurrency_control = false;

  // Write-unprepared only (refused here): the batch size above which a
  // transaction writes its batch early. 0 or less: no limit.
  int64_t default_write_batch_flush_threshold = 0;

  // Write-prepared/unprepared only (refused here): whether a rollback
  // deletes a key with SingleDelete (true) or Delete.
  std::function<bool(TransactionDB* /*db*/,
                     ColumnFamilyHandle* /*column_family*/,
                     const Slice& /*key*/)>
      rollback_deletion_type_callback;
};

struct STRATA_EXPORT TransactionOptions {
  // True: as calling Transaction::SetSnapshot() right after Begin.
  bool set_snapshot = false;

  // True: before waiting for a lock, the transaction checks whether the
  // wait would close a cycle of waiting transactions, and if so fails
  // with Busy, sub-code kDeadlock.
  bool deadlock_detect = false;

  // Write-prepared/unprepared only; no effect with WRITE_COMMITTED.
  bool use_only_the_last_commit_time_batch_for_recovery = false;

  // The lock wait in milliseconds. 0: never wait; negative: use
  // TransactionDBOptions::transaction_lock_timeout.
  int64_t lock_timeout = -1;

  // Milliseconds after which the transaction expires: it can no longer
  // commit, and a transaction waiting for one of its locks may take it.
  // Negative: never.
  int64_t expiration = -1;

  // How many wait-for edges deadlock detection follows before assuming a
  // deadlock (recorded with limit_exceeded).
  int64_t deadlock_detect_depth = 50;

  // The most bytes the transaction's write batch may hold; 0: no limit.
  size_t max_write_batch_size = 0;

  // True: the transaction takes no locks. For an application that knows
  // its transactions never conflict (or for recovery).
  bool skip_concurrency_control = false;

  // True: Commit without Prepare is allowed.
  bool skip_prepare = true;

  // Write-unprepared only; negative: the TransactionDBOptions default.
  int64_t write_batch_flush_threshold = -1;
};

// Per-write promises for TransactionDB::Write outside transactions.
struct STRATA_EXPORT TransactionDBWriteOptimizations {
  // The batch's keys conflict with no concurrent transaction: take no
  // locks.
  bool skip_concurrency_control = false;
  // The batch holds no <column family, key> twice.
  bool skip_duplicate_key_check = false;
};

// One locked key, as GetLockStatusData() reports it.
struct STRATA_EXPORT KeyLockInfo {
  std::string key;
  std::vector<TransactionID> ids;  // the holders (one if exclusive)
  bool exclusive;
};

// One hop of a deadlock: a transaction and the key it was waiting for.
struct STRATA_EXPORT DeadlockInfo {
  TransactionID m_txn_id;
  uint32_t m_cf_id;
  bool m_exclusive;
  std::string m_waiting_key;
};

// A detected deadlock: the cycle of waits, starting at a transaction the
// detecting one waited for and ending at the detecting one; or, when
// the search went deeper than deadlock_detect_depth, no path and
// limit_exceeded. deadlock_time is in seconds since the epoch.
struct STRATA_EXPORT DeadlockPath {
  std::vector<DeadlockInfo> path;
  bool limit_exceeded;
  int64_t deadlock_time;

  explicit DeadlockPath(std::vector<DeadlockInfo> path_entry,
                        const int64_t& dl_time)
      : path(path_entry), limit_exceeded(false), deadlock_time(dl_time) {}

  // No path: an unused slot, or with limit a search that went too deep.
  explicit DeadlockPath(const int64_t& dl_time = 0, bool limit = false)
      : path(0), limit_exceeded(limit), deadlock_time(dl_time) {}

  bool empty() { return path.empty() && !limit_exceeded; }
};

class STRATA_EXPORT TransactionDB : public StackableDB {
 public:
  // Write with per-write promises; by default the promises are ignored.
  using StackableDB::Write;
  virtual Status Write(const WriteOptions& opts,
                       const TransactionDBWriteOptimizations&,
                       WriteBatch* updates) {
    return Write(opts, updates);
  }

  // A range deletion cannot be locked key by key: refused, as in RocksDB.
  // Write() with skip_concurrency_control may carry one.
  using StackableDB::DeleteRange;
  Status DeleteRange(const WriteOptions&, ColumnFamilyHandle*, const Slice&,
                     const Slice&) override {
    return Status::NotSupported();
  }

  // Opens the DB at dbname as DB::Open does, with transactions. On
  // failure *dbptr is nullptr.
  static Status Open(const Options& options,
                     const TransactionDBOptions& txn_db_options,
                     const std::string& dbname, TransactionDB** dbptr);
  static Status Open(const DBOptions& db_options,
                     const TransactionDBOptions& txn_db_options,
                     const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles,
                     TransactionDB** dbptr);

  ~TransactionDB() override {}

  // A new transaction, owned by the caller; old_txn, if given, is reused
  // (and returned) instead of allocating one. An old_txn of another DB is
  // deleted and a new transaction returned: assign the result to it.
  virtual Transaction* BeginTransaction(
      const WriteOptions& write_options,
      const TransactionOptions& txn_options = TransactionOptions(),
      Transaction* old_txn = nullptr) = 0;

  // The named transaction, or nullptr; the DB keeps ownership.
  virtual Transaction* GetTransactionByName(const TransactionName& name) = 0;
  // The transactions prepared and not yet committed or rolled back
  // (including those recovered on open).
  virtual void GetAllPreparedTransactions(std::vector<Transaction*>* trans) = 0;

  // Every lock held: column family id -> the key, its holders, its mode.
  virtual std::unordered_multimap<uint32_t, KeyLockInfo>
  GetLockStatusData() = 0;

  // The latest deadlocks detected, newest first.
  virtual std::vector<DeadlockPath> GetDeadlockInfoBuffer() = 0;
  // Keeps the target_size newest deadlocks from now on.
  virtual void SetDeadlockInfoBufferSize(uint32_t target_size) = 0;

 protected:
  // Takes ownership of db.
  explicit TransactionDB(DB* db) : StackableDB(db) {}
  TransactionDB(const TransactionDB&) = delete;
  void operator=(const TransactionDB&) = delete;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_TRANSACTION_DB_H_
