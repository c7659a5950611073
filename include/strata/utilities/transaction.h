// Transaction: a set of reads and writes committed at once, which reads
// its own uncommitted writes. Made by OptimisticTransactionDB (and the
// pessimistic TransactionDB) through BeginTransaction; shaped as RocksDB
// 7.8's, so programs written for it compile here (docs/transactions.md).
//
// - Writes (Put, Delete, SingleDelete, Merge) go to the transaction's
//   WriteBatchWithIndex; nothing reaches the DB before Commit.
// - Reads (Get, MultiGet, GetIterator) see the transaction's writes over
//   the DB as read_options.snapshot shows it (the transaction's own
//   snapshot is not applied to reads unless the caller puts it there, as
//   in RocksDB).
// - A key written or read with GetForUpdate is "tracked": the kind of
//   transaction makes sure at commit (optimistic) or while running
//   (pessimistic, by locks) that no one else wrote it since. The
//   *Untracked writes and GetForUpdate with do_validate = false skip
//   that.
// - A conflict fails Commit with Status::Busy; nothing is written and
//   the transaction may be rolled back or deleted.
// - Members strata has no use for (user-defined timestamps, wide
//   columns, range locks) are absent.
//
// Thread safety: one transaction is used by one thread at a time;
// different transactions of one DB may run on different threads.

#ifndef STRATA_INCLUDE_UTILITIES_TRANSACTION_H_
#define STRATA_INCLUDE_UTILITIES_TRANSACTION_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class Iterator;
class WriteBatch;
class WriteBatchWithIndex;

using TransactionName = std::string;
using TransactionID = uint64_t;

// Told of the snapshot SetSnapshotOnNextOperation took, when it takes it.
class STRATA_EXPORT TransactionNotifier {
 public:
  virtual ~TransactionNotifier() {}
  virtual void SnapshotCreated(const Snapshot* new_snapshot) = 0;
};

class STRATA_EXPORT Transaction {
 public:
  Transaction(const Transaction&) = delete;
  void operator=(const Transaction&) = delete;
  // Deleting a transaction that is not committed rolls it back.
  virtual ~Transaction() {}

  // Takes a snapshot now: writes by others to keys this transaction
  // tracks after it count as conflicts; reads use it only through
  // ReadOptions::snapshot = GetSnapshot().
  virtual void SetSnapshot() = 0;
  // Takes the snapshot at the next write or GetForUpdate instead, and
  // tells notifier (if any) then.
  virtual void SetSnapshotOnNextOperation(
      std::shared_ptr<TransactionNotifier> notifier = nullptr) = 0;
  // The snapshot, or null. Owned by the transaction.
  virtual const Snapshot* GetSnapshot() const = 0;
  // Drops the snapshot: keys tracked later are checked from the time they
  // are tracked.
  virtual void ClearSnapshot() = 0;

  // Two-phase commit's first step; for kinds without it, InvalidArgument.
  virtual Status Prepare() = 0;
  // Writes the transaction's batch if no tracked key conflicts (Busy
  // otherwise, with nothing written).
  virtual Status Commit() = 0;
  // Drops the writes and tracked keys.
  virtual Status Rollback() = 0;

  // Save points: RollbackToSavePoint undoes the writes, tracked keys and
  // snapshot changes made since the last SetSavePoint (NotFound if there
  // is none); PopSavePoint forgets it and keeps the changes.
  virtual void SetSavePoint() = 0;
  virtual Status RollbackToSavePoint() = 0;
  virtual Status PopSavePoint() = 0;

  // Reads of the transaction's writes over the DB (see above).
  virtual Status Get(const ReadOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& key,
                     std::string* value) = 0;
  virtual Status Get(const ReadOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& key,
                     PinnableSlice* pinnable_val) {
    Status s = Get(options, column_family, key, pinnable_val->GetSelf());
    pinnable_val->PinSelf();
    return s;
  }
  virtual Status Get(const ReadOptions& options, const Slice& key,
                     std::string* value) = 0;
  virtual Status Get(const ReadOptions& options, const Slice& key,
                     PinnableSlice* pinnable_val) {
    Status s = Get(options, key, pinnable_val->GetSelf());
    pinnable_val->PinSelf();
    return s;
  }
  virtual std::vector<Status> MultiGet(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys, std::vector<std::string>* values) = 0;
  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values) = 0;
  virtual void MultiGet(const ReadOptions& options,
                        ColumnFamilyHandle* column_family,
                        const size_t num_keys, const Slice* keys,
                        PinnableSlice* values, Status* statuses,
                        const bool /*sorted_input*/ = false) {
    for (size_t i = 0; i < num_keys; ++i) {
      statuses[i] = Get(options, column_family, keys[i], &values[i]);
    }
  }

  // Get, and track the key as if written (exclusive) or read (shared, a
  // pessimistic kind's read lock). do_validate = false: read only, do not
  // check the key against the snapshot. value may be null (track only).
  virtual Status GetForUpdate(const ReadOptions& options,
                              ColumnFamilyHandle* column_family,
                              const Slice& key, std::string* value,
                              bool exclusive = true,
                              const bool do_validate = true) = 0;
  virtual Status GetForUpdate(const ReadOptions& options,
                              ColumnFamilyHandle* column_family,
                              const Slice& key, PinnableSlice* pinnable_val,
                              bool exclusive = true,
                              const bool do_validate = true) {
    if (pinnable_val == nullptr) {
      std::string* no_value = nullptr;
      return GetForUpdate(options, column_family, key, no_value, exclusive,
                          do_validate);
    }
    Status s = GetForUpdate(options, column_family, key,
                            pinnable_val->GetSelf(), exclusive, do_validate);
    pinnable_val->PinSelf();
    return s;
  }
  virtual Status GetForUpdate(const ReadOptions& options, const Slice& key,
                              std::string* value, bool exclusive = true,
                              const bool do_validate = true) = 0;
  virtual std::vector<Status> MultiGetForUpdate(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys, std::vector<std::string>* values) = 0;
  virtual std::vector<Status> MultiGetForUpdate(
      const ReadOptions& options, const std::vector<Slice>& keys,
      std::vector<std::string>* values) = 0;

  // An iterator over the transaction's writes merged over the DB's view
  // at read_options.snapshot. The caller owns it; delete it before the
  // transaction. A write to the transaction invalidates its position.
  virtual Iterator* GetIterator(const ReadOptions& read_options) = 0;
  virtual Iterator* GetIterator(const ReadOptions& read_options,
                                ColumnFamilyHandle* column_family) = 0;

  // Tracked writes. assume_tracked: the caller promises the key is
  // tracked already (a pessimistic kind then skips taking its lock).
  virtual Status Put(ColumnFamilyHandle* column_family, const Slice& key,
                     const Slice& value, const bool assume_tracked = false) = 0;
  virtual Status Put(const Slice& key, const Slice& value) = 0;
  virtual Status Put(ColumnFamilyHandle* column_family, const SliceParts& key,
                     const SliceParts& value,
                     const bool assume_tracked = false) = 0;
  virtual Status Put(const SliceParts& key, const SliceParts& value) = 0;

  virtual Status Merge(ColumnFamilyHandle* column_family, const Slice& key,
                       const Slice& value,
                       const bool assume_tracked = false) = 0;
  virtual Status Merge(const Slice& key, const Slice& value) = 0;

  virtual Status Delete(ColumnFamilyHandle* column_family, const Slice& key,
                        const bool assume_tracked = false) = 0;
  virtual Status Delete(const Slice& key) = 0;
  virtual Status Delete(ColumnFamilyHandle* column_family,
                        const SliceParts& key,
                        const bool assume_tracked = false) = 0;
  virtual Status Delete(const SliceParts& key) = 0;

  virtual Status SingleDelete(ColumnFamilyHandle* column_family,
                              const Slice& key,
                              const bool assume_tracked = false) = 0;
  virtual Status SingleDelete(const Slice& key) = 0;
  virtual Status SingleDelete(ColumnFamilyHandle* column_family,
                              const SliceParts& key,
                              const bool assume_tracked = false) = 0;
  virtual Status SingleDelete(const SliceParts& key) = 0;

  // Writes not checked for conflicts (an optimistic kind does not track
  // them; a pessimistic one still locks the key).
  virtual Status PutUntracked(ColumnFamilyHandle* column_family,
                              const Slice& key, const Slice& value) = 0;
  virtual Status PutUntracked(const Slice& key, const Slice& value) = 0;
  virtual Status PutUntracked(ColumnFamilyHandle* column_family,
                              const SliceParts& key,
                              const SliceParts& value) = 0;
  virtual Status PutUntracked(const SliceParts& key,
                              const SliceParts& value) = 0;
  virtual Status MergeUntracked(ColumnFamilyHandle* column_family,
                                const Slice& key, const Slice& value) = 0;
  virtual Status MergeUntracked(const Slice& key, const Slice& value) = 0;
  virtual Status DeleteUntracked(ColumnFamilyHandle* column_family,
                                 const Slice& key) = 0;
  virtual Status DeleteUntracked(const Slice& key) = 0;
  virtual Status DeleteUntracked(ColumnFamilyHandle* column_family,
                                 const SliceParts& key) = 0;
  virtual Status DeleteUntracked(const SliceParts& key) = 0;
  virtual Status SingleDeleteUntracked(ColumnFamilyHandle* column_family,
                                       const Slice& key) = 0;
  virtual Status SingleDeleteUntracked(const Slice& key) = 0;

  // A blob for the WAL only (WriteBatch::PutLogData).
  virtual void PutLogData(const Slice& blob) = 0;

  // While indexing is disabled, writes go to the batch unindexed: cheaper,
  // but the transaction's reads do not see them.
  virtual void DisableIndexing() = 0;
  virtual void EnableIndexing() = 0;

  // Keys tracked; writes of each kind (untracked ones included).
  virtual uint64_t GetNumKeys() const = 0;
  virtual uint64_t GetNumPuts() const = 0;
  virtual uint64_t GetNumDeletes() const = 0;
  virtual uint64_t GetNumMerges() const = 0;
  // Milliseconds since the transaction began.
  virtual uint64_t GetElapsedTime() const = 0;

  // The transaction's batch; the transaction owns it.
  virtual WriteBatchWithIndex* GetWriteBatch() = 0;

  // Lock wait bound in milliseconds (pessimistic kinds; others ignore it).
  virtual void SetLockTimeout(int64_t timeout) = 0;
  virtual WriteOptions* GetWriteOptions() = 0;
  virtual void SetWriteOptions(const WriteOptions& write_options) = 0;

  // Undoes one GetForUpdate of key: the key stops being tracked once every
  // GetForUpdate of it is undone and it was not written.
  virtual void UndoGetForUpdate(ColumnFamilyHandle* column_family,
                                const Slice& key) = 0;
  virtual void UndoGetForUpdate(const Slice& key) = 0;

  // Replays src_batch's updates into the transaction, as tracked writes.
  virtual Status RebuildFromWriteBatch(WriteBatch* src_batch) = 0;

  // A batch written with the commit (two-phase kinds; ignored otherwise).
  virtual WriteBatch* GetCommitTimeWriteBatch() = 0;

  virtual void SetLogNumber(uint64_t log) { log_number_ = log; }
  virtual uint64_t GetLogNumber() const { return log_number_; }

  virtual Status SetName(const TransactionName& name) = 0;
  virtual TransactionName GetName() const { return name_; }
  virtual TransactionID GetID() const { return 0; }
  virtual bool IsDeadlockDetect() const { return false; }
  // The transactions this one waits for (pessimistic kinds), and the key.
  virtual std::vector<TransactionID> GetWaitingTxns(
      uint32_t* /*column_family_id*/, std::string* /*key*/) const {
    return std::vector<TransactionID>();
  }

  enum TransactionState {
    STARTED = 0,
    AWAITING_PREPARE = 1,
    PREPARED = 2,
    AWAITING_COMMIT = 3,
    COMMITTED = 4,
    COMMITED = COMMITTED,  // RocksDB's old spelling
    AWAITING_ROLLBACK = 5,
    ROLLEDBACK = 6,
    LOCKS_STOLEN = 7,
  };
  TransactionState GetState() const { return txn_state_; }
  void SetState(TransactionState state) { txn_state_ = state; }
  uint64_t GetId() { return id_; }

 protected:
  Transaction() : log_number_(0), txn_state_(STARTED) {}

  uint64_t log_number_;
  TransactionName name_;
  std::atomic<TransactionState> txn_state_;
  uint64_t id_ = 0;
  virtual void SetId(uint64_t id) { id_ = id; }
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_TRANSACTION_H_
