// WriteBatchBase: what every kind of write batch offers, so that code can
// fill a WriteBatch or a WriteBatchWithIndex (strata/utilities/
// write_batch_with_index.h) through one interface.
//
// The forms RocksDB adds for user-defined timestamps and wide-column
// entities are absent: strata has neither.
//
// Thread safety: as the implementation's (one writer, or many readers).

#ifndef STRATA_INCLUDE_WRITE_BATCH_BASE_H_
#define STRATA_INCLUDE_WRITE_BATCH_BASE_H_

#include <cstddef>

#include "strata/export.h"

namespace strata {

class ColumnFamilyHandle;
class Slice;
class Status;
class WriteBatch;
struct SliceParts;

class STRATA_EXPORT WriteBatchBase {
 public:
  virtual ~WriteBatchBase();

  // Each update names a column family by its handle (null: the default
  // family); the forms without a handle update the default family.

  // Store key -> value.
  virtual Status Put(ColumnFamilyHandle* column_family, const Slice& key,
                     const Slice& value) = 0;
  virtual Status Put(const Slice& key, const Slice& value) = 0;
  // The key and the value are each the concatenation of their parts. The
  // defaults join the parts and call the Slice form.
  virtual Status Put(ColumnFamilyHandle* column_family, const SliceParts& key,
                     const SliceParts& value);
  virtual Status Put(const SliceParts& key, const SliceParts& value);

  // Combine value with the key's existing value through the family's
  // merge operator.
  virtual Status Merge(ColumnFamilyHandle* column_family, const Slice& key,
                       const Slice& value) = 0;
  virtual Status Merge(const Slice& key, const Slice& value) = 0;
  virtual Status Merge(ColumnFamilyHandle* column_family, const SliceParts& key,
                       const SliceParts& value);
  virtual Status Merge(const SliceParts& key, const SliceParts& value);

  // Remove key if present.
  virtual Status Delete(ColumnFamilyHandle* column_family,
                        const Slice& key) = 0;
  virtual Status Delete(const Slice& key) = 0;
  virtual Status Delete(ColumnFamilyHandle* column_family,
                        const SliceParts& key);
  virtual Status Delete(const SliceParts& key);

  // Remove key, which the caller promises was written at most once since
  // its last deletion (and never merged).
  virtual Status SingleDelete(ColumnFamilyHandle* column_family,
                              const Slice& key) = 0;
  virtual Status SingleDelete(const Slice& key) = 0;
  virtual Status SingleDelete(ColumnFamilyHandle* column_family,
                              const SliceParts& key);
  virtual Status SingleDelete(const SliceParts& key);

  // Remove every key in [begin_key, end_key).
  virtual Status DeleteRange(ColumnFamilyHandle* column_family,
                             const Slice& begin_key, const Slice& end_key) = 0;
  virtual Status DeleteRange(const Slice& begin_key, const Slice& end_key) = 0;
  virtual Status DeleteRange(ColumnFamilyHandle* column_family,
                             const SliceParts& begin_key,
                             const SliceParts& end_key);
  virtual Status DeleteRange(const SliceParts& begin_key,
                             const SliceParts& end_key);

  // A blob written to the WAL with the batch, never applied to the DB and
  // not counted as an update.
  virtual Status PutLogData(const Slice& blob) = 0;

  // Drop every update (and every save point).
  virtual void Clear() = 0;

  // The plain batch holding the updates, owned by this object (for
  // DB::Write).
  virtual WriteBatch* GetWriteBatch() = 0;

  // Remembers the batch's current state; save points nest.
  virtual void SetSavePoint() = 0;
  // Drops every update made since the newest save point, and that save
  // point. NotFound, and the batch unchanged, if there is none.
  virtual Status RollbackToSavePoint() = 0;
  // Forgets the newest save point, keeping the updates. NotFound if there
  // is none.
  virtual Status PopSavePoint() = 0;

  // The largest size (bytes) the batch may grow to; 0: no limit.
  virtual void SetMaxBytes(size_t max_bytes) = 0;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_WRITE_BATCH_BASE_H_
