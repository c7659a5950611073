// TransactionBaseImpl: what every kind of Transaction shares — the
// WriteBatchWithIndex the writes go to (overwrite_key = true, as RocksDB),
// the tracked keys, save points, the snapshot, and reads of the
// transaction's own writes over the DB. A kind (optimistic, pessimistic)
// supplies TryLock, called before each tracked write and GetForUpdate,
// and Commit / Rollback / Prepare.
//
// Invariants: a key is in tracked_keys_ only if TryLock accepted it; a
// save point holds the counters and snapshot to restore, and the batch
// and tracked keys keep their own matching save points.
//
// Thread safety: none; one thread at a time uses a transaction.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_TRANSACTION_BASE_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_TRANSACTION_BASE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/utilities/transactions/tracked_keys.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"

namespace strata {

class TransactionBaseImpl : public Transaction {
 public:
  // db: the DB the transaction reads through and takes snapshots of;
  // it must outlive the transaction. cmp orders the batch's index for
  // writes without a handle.
  TransactionBaseImpl(DB* db, const WriteOptions& write_options,
                      const Comparator* cmp);
  ~TransactionBaseImpl() override;

  // The kind's check or lock for key, before it is written (read_only
  // false) or read by GetForUpdate (true). OK lets the operation go on;
  // an optimistic kind tracks the key here, a pessimistic one locks it.
  // do_validate = false: no conflict check wanted (untracked writes,
  // GetForUpdate without validation). assume_tracked: the caller says
  // the key is tracked already.
  virtual Status TryLock(ColumnFamilyHandle* column_family, const Slice& key,
                         bool read_only, bool exclusive,
                         bool do_validate = true,
                         bool assume_tracked = false) = 0;

  void SetSnapshot() override;
  void SetSnapshotOnNextOperation(
      std::shared_ptr<TransactionNotifier> notifier = nullptr) override;
  const Snapshot* GetSnapshot() const override { return snapshot_.get(); }
  void ClearSnapshot() override;

  Status Rollback() override;
  void SetSavePoint() override;
  Status RollbackToSavePoint() override;
  Status PopSavePoint() override;

  using Transaction::Get;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, std::string* value) override;
  Status Get(const ReadOptions& options, const Slice& key,
             std::string* value) override;
  using Transaction::MultiGet;
  std::vector<Status> MultiGet(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys,
      std::vector<std::string>* values) override;
  std::vector<Status> MultiGet(const ReadOptions& options,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override;
  using Transaction::GetForUpdate;
  Status GetForUpdate(const ReadOptions& options,
                      ColumnFamilyHandle* column_family, const Slice& key,
                      std::string* value, bool exclusive = true,
                      const bool do_validate = true) override;
  Status GetForUpdate(const ReadOptions& options, const Slice& key,
                      std::string* value, bool exclusive = true,
                      const bool do_validate = true) override;
  std::vector<Status> MultiGetForUpdate(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys,
      std::vector<std::string>* values) override;
  std::vector<Status> MultiGetForUpdate(
      const ReadOptions& options, const std::vector<Slice>& keys,
      std::vector<std::string>* values) override;
  Iterator* GetIterator(const ReadOptions& read_options) override;
  Iterator* GetIterator(const ReadOptions& read_options,
                        ColumnFamilyHandle* column_family) override;

  Status Put(ColumnFamilyHandle* column_family, const Slice& key,
             const Slice& value, const bool assume_tracked = false) override;
  Status Put(const Slice& key, const Slice& value) override;
  Status Put(ColumnFamilyHandle* column_family, const SliceParts& key,
             const SliceParts& value,
             const bool assume_tracked = false) override;
  Status Put(const SliceParts& key, const SliceParts& value) override;
  Status Merge(ColumnFamilyHandle* column_family, const Slice& key,
               const Slice& value, const bool assume_tracked = false) override;
  Status Merge(const Slice& key, const Slice& value) override;
  Status Delete(ColumnFamilyHandle* column_family, const Slice& key,
                const bool assume_tracked = false) override;
  Status Delete(const Slice& key) override;
  Status Delete(ColumnFamilyHandle* column_family, const SliceParts& key,
                const bool assume_tracked = false) override;
  Status Delete(const SliceParts& key) override;
  Status SingleDelete(ColumnFamilyHandle* column_family, const Slice& key,
                      const bool assume_tracked = false) override;
  Status SingleDelete(const Slice& key) override;
  Status SingleDelete(ColumnFamilyHandle* column_family, const SliceParts& key,
                      const bool assume_tracked = false) override;
  Status SingleDelete(const SliceParts& key) override;

  Status PutUntracked(ColumnFamilyHandle* column_family, const Slice& key,
                      const Slice& value) override;
  Status PutUntracked(const Slice& key, const Slice& value) override;
  Status PutUntracked(ColumnFamilyHandle* column_family, const SliceParts& key,
                      const SliceParts& value) override;
  Status PutUntracked(const SliceParts& key, const SliceParts& value) override;
  Status MergeUntracked(ColumnFamilyHandle* column_family, const Slice& key,
                        const Slice& value) override;
  Status MergeUntracked(const Slice& key, const Slice& value) override;
  Status DeleteUntracked(ColumnFamilyHandle* column_family,
                         const Slice& key) override;
  Status DeleteUntracked(const Slice& key) override;
  Status DeleteUntracked(ColumnFamilyHandle* column_family,
                         const SliceParts& key) override;
  Status DeleteUntracked(const SliceParts& key) override;
  Status SingleDeleteUntracked(ColumnFamilyHandle* column_family,
                               const Slice& key) override;
  Status SingleDeleteUntracked(const Slice& key) override;
  void PutLogData(const Slice& blob) override;

  void DisableIndexing() override { indexing_enabled_ = false; }
  void EnableIndexing() override { indexing_enabled_ = true; }

  uint64_t GetNumKeys() const override { return tracked_keys_.size(); }
  uint64_t GetNumPuts() const override { return num_puts_; }
  uint64_t GetNumDeletes() const override { return num_deletes_; }
  uint64_t GetNumMerges() const override { return num_merges_; }
  uint64_t GetElapsedTime() const override;

  WriteBatchWithIndex* GetWriteBatch() override { return &write_batch_; }
  WriteOptions* GetWriteOptions() override { return &write_options_; }
  void SetWriteOptions(const WriteOptions& write_options) override {
    write_options_ = write_options;
  }

  void UndoGetForUpdate(ColumnFamilyHandle* column_family,
                        const Slice& key) override;
  void UndoGetForUpdate(const Slice& key) override;
  Status RebuildFromWriteBatch(WriteBatch* src_batch) override;
  WriteBatch* GetCommitTimeWriteBatch() override { return &commit_time_batch_; }

  // The handle of a family id in a batch, or why there is none.
  using FamilyResolver =
      std::function<Status(uint32_t id, ColumnFamilyHandle** family)>;
  // Replays batch's updates as tracked writes (each through TryLock).
  Status ReplayBatch(const WriteBatch& batch, const FamilyResolver& resolve);

 protected:
  enum class WriteKind { kPut, kDelete, kSingleDelete, kMerge };

  // Starts over as a new transaction on write_options: no writes, tracked
  // keys, save points or snapshot; the clock restarted.
  void Reinitialize(const WriteOptions& write_options);
  // Drops the writes, tracked keys and save points (not the snapshot):
  // what a commit or a rollback leaves.
  virtual void Clear();
  // Records that key was tracked at seq (for the kinds' TryLock).
  void TrackKey(ColumnFamilyHandle* column_family, const Slice& key,
                SequenceNumber seq, bool read_only, bool exclusive);
  // Takes the snapshot SetSnapshotOnNextOperation asked for, if any.
  void SetSnapshotIfNeeded();
  // A new snapshot of db_, released when the last owner drops it.
  std::shared_ptr<const Snapshot> TakeSnapshot();
  // The handle itself, or the DB's default family for null.
  ColumnFamilyHandle* FamilyOrDefault(ColumnFamilyHandle* column_family) const;

  DB* const db_;
  WriteOptions write_options_;
  // Shared so a kind may keep the snapshot alive past ClearSnapshot.
  std::shared_ptr<const Snapshot> snapshot_;
  WriteBatchWithIndex write_batch_;
  TrackedKeys tracked_keys_;

 private:
  struct SavePoint {
    std::shared_ptr<const Snapshot> snapshot;
    bool snapshot_needed;
    std::shared_ptr<TransactionNotifier> snapshot_notifier;
    uint64_t num_puts;
    uint64_t num_deletes;
    uint64_t num_merges;
  };

  // MultiGet, and MultiGetForUpdate with for_update.
  std::vector<Status> MultiGetImpl(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys, std::vector<std::string>* values,
      bool for_update);
  // The one path of every write: TryLock (if tracked), then the batch
  // (indexed or not), then the counter.
  Status DoWrite(WriteKind kind, ColumnFamilyHandle* column_family,
                 const Slice& key, const Slice& value, bool tracked,
                 bool assume_tracked);
  Status DoWriteParts(WriteKind kind, ColumnFamilyHandle* column_family,
                      const SliceParts& key, const SliceParts& value,
                      bool tracked, bool assume_tracked);

  WriteBatch commit_time_batch_;
  uint64_t start_micros_ = 0;
  uint64_t num_puts_ = 0;
  uint64_t num_deletes_ = 0;
  uint64_t num_merges_ = 0;
  bool indexing_enabled_ = true;
  bool snapshot_needed_ = false;
  std::shared_ptr<TransactionNotifier> snapshot_notifier_;
  std::vector<SavePoint> save_points_;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_TRANSACTION_BASE_H_
