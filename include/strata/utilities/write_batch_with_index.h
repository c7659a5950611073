// WriteBatchWithIndex: a WriteBatch that also keeps a searchable index of
// its own updates, so that a program can read what it has written but not
// yet committed: look a key up in the batch alone (GetFromBatch), in the
// batch over the DB (GetFromBatchAndDB), or iterate the batch's updates
// merged over a DB iterator (NewIteratorWithBase). GetWriteBatch() gives
// the plain batch for DB::Write.
//
// The index is kept per column family and ordered by the family's
// comparator (the handle's; backup_index_comparator for updates given
// without a handle). Within one key, entries are in the order they were
// written. With overwrite_key, a Put, Delete or SingleDelete of a key the
// index already holds replaces the key's newest entry instead of adding
// one (a Merge is always added); the batch itself keeps every update.
//
// DeleteRange is refused with NotSupported (a range cannot be looked up
// key by key in the index), as in RocksDB 7.8.
//
// Thread safety: lookups (GetFromBatch, GetFromBatchAndDB,
// MultiGetFromBatchAndDB) may run on many threads at once, and each
// iterator on one thread at a time; every other call (updates, Clear, the
// save-point calls, making an iterator) needs external synchronization.
// Clear and RollbackToSavePoint invalidate every iterator made from the
// batch; other updates leave a WBWIIterator valid but may invalidate the
// position of an iterator with a base.

#ifndef STRATA_INCLUDE_UTILITIES_WRITE_BATCH_WITH_INDEX_H_
#define STRATA_INCLUDE_UTILITIES_WRITE_BATCH_WITH_INDEX_H_

#include <cstddef>
#include <memory>
#include <string>

#include "strata/comparator.h"
#include "strata/export.h"
#include "strata/iterator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/write_batch.h"
#include "strata/write_batch_base.h"

namespace strata {

class ColumnFamilyHandle;
class DB;
class PinnableSlice;
struct DBOptions;
struct ReadOptions;

// The kind of an update seen through a WBWIIterator. The index holds only
// the first four; the others name WriteBatch records it never indexes.
enum WriteType {
  kPutRecord,
  kMergeRecord,
  kDeleteRecord,
  kSingleDeleteRecord,
  kDeleteRangeRecord,
  kLogDataRecord,
  kXIDRecord,
  kUnknownRecord,
};

// One indexed update. key and value point into the batch: valid until the
// batch next changes.
struct WriteEntry {
  WriteType type = kUnknownRecord;
  Slice key;
  Slice value;
};

// The updates of one column family of a WriteBatchWithIndex in index
// order: by key, and within a key oldest first. Seek lands on the first
// entry of the first key >= target, SeekForPrev on the last entry of the
// last key <= target.
class STRATA_EXPORT WBWIIterator {
 public:
  virtual ~WBWIIterator();

  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  virtual void Seek(const Slice& key) = 0;
  virtual void SeekForPrev(const Slice& key) = 0;
  virtual void Next() = 0;
  virtual void Prev() = 0;

  // REQUIRES: Valid(). The entry is valid until the batch next changes.
  virtual WriteEntry Entry() const = 0;

  virtual Status status() const = 0;
};

class STRATA_EXPORT WriteBatchWithIndex : public WriteBatchBase {
 public:
  // backup_index_comparator orders the keys of updates given without a
  // column family handle (and of a handle without a comparator).
  // reserved_bytes and max_bytes are the underlying WriteBatch's.
  // overwrite_key: see the file comment. protection_bytes_per_key is
  // accepted for RocksDB's signature; strata keeps no per-key checksums in
  // batches, and refuses nothing for it.
  explicit WriteBatchWithIndex(
      const Comparator* backup_index_comparator = BytewiseComparator(),
      size_t reserved_bytes = 0, bool overwrite_key = false,
      size_t max_bytes = 0, size_t protection_bytes_per_key = 0);
  ~WriteBatchWithIndex() override;
  // A moved-from batch may only be destroyed or assigned to.
  WriteBatchWithIndex(WriteBatchWithIndex&&);
  WriteBatchWithIndex& operator=(WriteBatchWithIndex&&);

  // The updates of WriteBatchBase, each recorded in the batch and then
  // indexed; an update the batch refuses (max_bytes) is not indexed.
  using WriteBatchBase::Put;
  Status Put(ColumnFamilyHandle* column_family, const Slice& key,
             const Slice& value) override;
  Status Put(const Slice& key, const Slice& value) override;

  using WriteBatchBase::Merge;
  Status Merge(ColumnFamilyHandle* column_family, const Slice& key,
               const Slice& value) override;
  Status Merge(const Slice& key, const Slice& value) override;

  using WriteBatchBase::Delete;
  Status Delete(ColumnFamilyHandle* column_family, const Slice& key) override;
  Status Delete(const Slice& key) override;

  using WriteBatchBase::SingleDelete;
  Status SingleDelete(ColumnFamilyHandle* column_family,
                      const Slice& key) override;
  Status SingleDelete(const Slice& key) override;

  // NotSupported; the batch is unchanged.
  using WriteBatchBase::DeleteRange;
  Status DeleteRange(ColumnFamilyHandle* column_family, const Slice& begin_key,
                     const Slice& end_key) override;
  Status DeleteRange(const Slice& begin_key, const Slice& end_key) override;

  // Recorded in the batch, not indexed.
  Status PutLogData(const Slice& blob) override;

  void Clear() override;

  // The underlying batch, owned by this object. Updating it directly
  // bypasses the index.
  WriteBatch* GetWriteBatch() override;

  // An iterator over the indexed updates of column_family (the default
  // family without a handle). The caller deletes it; it must not outlive
  // this batch.
  WBWIIterator* NewIterator(ColumnFamilyHandle* column_family);
  WBWIIterator* NewIterator();

  // An iterator over base_iterator's view (typically a DB iterator of the
  // same family) with this batch's updates of column_family applied: a Put
  // replaces or adds a key, a Delete or SingleDelete hides it, Merges are
  // resolved through the family's merge operator over the base's value.
  // It goes both ways. If opts is given, its iterate_lower_bound and
  // iterate_upper_bound limit what it shows, of the batch and of the base.
  // The returned iterator owns base_iterator; the caller deletes it
  // before this batch. An update to the batch invalidates its position.
  Iterator* NewIteratorWithBase(ColumnFamilyHandle* column_family,
                                Iterator* base_iterator,
                                const ReadOptions* opts = nullptr);
  // The default family, ordered by backup_index_comparator.
  Iterator* NewIteratorWithBase(Iterator* base_iterator);

  // The key's value as this batch alone would make it: OK and *value; or
  // NotFound (not in the batch, or deleted there); MergeInProgress if the
  // batch holds only Merges for it (the base value is elsewhere). Merges
  // over a Put or deletion of the batch are resolved through the family's
  // merge operator; without a handle there is none and such a lookup is
  // InvalidArgument.
  Status GetFromBatch(ColumnFamilyHandle* column_family,
                      const DBOptions& options, const Slice& key,
                      std::string* value);
  Status GetFromBatch(const DBOptions& options, const Slice& key,
                      std::string* value) {
    return GetFromBatch(nullptr, options, key, value);
  }

  // The key's value as the DB would hold it if this batch were written
  // now: the batch's Put or deletion wins; otherwise the DB is read (at
  // read_options.snapshot, which does not hide any of the batch) and the
  // batch's Merges for the key, if any, are applied over what it holds.
  // Without a handle: the DB's default family.
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                           const Slice& key, std::string* value);
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                           const Slice& key, PinnableSlice* value);
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                           ColumnFamilyHandle* column_family, const Slice& key,
                           std::string* value);
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                           ColumnFamilyHandle* column_family, const Slice& key,
                           PinnableSlice* value);

  // GetFromBatchAndDB for each of num_keys keys, into values[i] and
  // statuses[i]. sorted_input is a hint only.
  void MultiGetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                              ColumnFamilyHandle* column_family,
                              const size_t num_keys, const Slice* keys,
                              PinnableSlice* values, Status* statuses,
                              bool sorted_input);

  // Save points of the batch; RollbackToSavePoint restores the index too.
  void SetSavePoint() override;
  Status RollbackToSavePoint() override;
  Status PopSavePoint() override;

  void SetMaxBytes(size_t max_bytes) override;
  size_t GetDataSize() const;

 private:
  friend class WriteBatchWithIndexInternal;
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_UTILITIES_WRITE_BATCH_WITH_INDEX_H_
