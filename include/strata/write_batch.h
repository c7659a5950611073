// WriteBatch: an ordered list of updates applied to a DB atomically by
// DB::Write — readers see all of a batch or none of it.
//
// The encoding (docs/formats/write_batch.md) is RocksDB's: a 12-byte header
// (fixed64 sequence, fixed32 count) followed by tagged records. Data()
// exposes it; the same bytes are the payload of a WAL record.
//
// Every update names a column family: through its ColumnFamilyHandle, or,
// in the forms without one (and with a null handle), the default family
// (id 0). Records of the default family are encoded as they were before
// column families existed.
//
// Thread safety: const methods may be called from many threads; anything
// that modifies the batch needs external synchronization.

#ifndef STRATA_INCLUDE_WRITE_BATCH_H_
#define STRATA_INCLUDE_WRITE_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/write_batch_base.h"

namespace strata {

class ColumnFamilyHandle;

class STRATA_EXPORT WriteBatch : public WriteBatchBase {
 public:
  // reserved_bytes: initial capacity. max_bytes: if non-zero, an update
  // that would grow the batch beyond it fails with MemoryLimit-style
  // InvalidArgument and leaves the batch unchanged.
  explicit WriteBatch(size_t reserved_bytes = 0, size_t max_bytes = 0);

  // A batch whose encoding is rep, e.g. the Data() of a batch built
  // elsewhere. rep is not trusted: it is kept as given (Data() returns it)
  // and decoded once here, so that Count() is the header's count and
  // HasMerge() / HasDeleteRange() cover the records that decode. DB::Write
  // refuses such a batch, before anything reaches the WAL, unless every
  // record decodes and their number matches the header: Corruption saying
  // what is wrong and at which offset (NotSupported for a RocksDB record
  // kind strata lacks). A rep shorter than the 12-byte header has Count()
  // 0, Iterate() Corruption, and refuses further updates until Clear().
  explicit WriteBatch(const std::string& rep);
  explicit WriteBatch(std::string&& rep);
  WriteBatch(const WriteBatch&);
  WriteBatch& operator=(const WriteBatch&);
  WriteBatch(WriteBatch&&) noexcept;
  WriteBatch& operator=(WriteBatch&&) noexcept;
  ~WriteBatch() override;

  // Each update below comes in two forms: one for the column family of
  // column_family (the default family if it is null), and one without a
  // handle for the default family. The batch records only the family's id,
  // so the handle need not outlive the call.

  // Store key -> value.
  Status Put(ColumnFamilyHandle* column_family, const Slice& key,
             const Slice& value) override;
  Status Put(const Slice& key, const Slice& value) override;

  // Store key -> value, each the concatenation of its parts (the record is
  // the same as Put of the joined strings).
  Status Put(ColumnFamilyHandle* column_family, const SliceParts& key,
             const SliceParts& value) override;
  Status Put(const SliceParts& key, const SliceParts& value) override;

  // Remove key if present.
  Status Delete(ColumnFamilyHandle* column_family, const Slice& key) override;
  Status Delete(const Slice& key) override;
  Status Delete(ColumnFamilyHandle* column_family,
                const SliceParts& key) override;
  Status Delete(const SliceParts& key) override;

  // Remove key, which the caller promises was Put at most once since it
  // was last deleted (and never merged); cheaper to compact than Delete.
  Status SingleDelete(ColumnFamilyHandle* column_family,
                      const Slice& key) override;
  Status SingleDelete(const Slice& key) override;
  Status SingleDelete(ColumnFamilyHandle* column_family,
                      const SliceParts& key) override;
  Status SingleDelete(const SliceParts& key) override;

  // Remove every key in [begin_key, end_key).
  Status DeleteRange(ColumnFamilyHandle* column_family, const Slice& begin_key,
                     const Slice& end_key) override;
  Status DeleteRange(const Slice& begin_key, const Slice& end_key) override;
  Status DeleteRange(ColumnFamilyHandle* column_family,
                     const SliceParts& begin_key,
                     const SliceParts& end_key) override;
  Status DeleteRange(const SliceParts& begin_key,
                     const SliceParts& end_key) override;

  // Combine value with the key's existing value through the family's
  // merge_operator.
  Status Merge(ColumnFamilyHandle* column_family, const Slice& key,
               const Slice& value) override;
  Status Merge(const Slice& key, const Slice& value) override;
  Status Merge(ColumnFamilyHandle* column_family, const SliceParts& key,
               const SliceParts& value) override;
  Status Merge(const SliceParts& key, const SliceParts& value) override;

  // A blob that is written to the WAL with the batch but never applied;
  // Iterate hands it to Handler::LogData. Not counted by Count().
  Status PutLogData(const Slice& blob) override;

  // Drop every update and every save point.
  void Clear() override;

  // The batch itself.
  WriteBatch* GetWriteBatch() override { return this; }

  // Save points: SetSavePoint remembers the batch's size, count and
  // content; RollbackToSavePoint truncates the batch back to the newest
  // one and forgets it; PopSavePoint forgets it and keeps the updates.
  // Both return NotFound, changing nothing, when there is no save point.
  // Copies and moves of a batch take its save points along.
  void SetSavePoint() override;
  Status RollbackToSavePoint() override;
  Status PopSavePoint() override;

  // Updates that would grow the batch past max_bytes (0: no limit) fail
  // from now on; the updates already in it stay.
  void SetMaxBytes(size_t max_bytes) override { max_bytes_ = max_bytes; }

  // Number of updates (Put, Delete, SingleDelete, DeleteRange, Merge).
  uint32_t Count() const;

  // Whether the batch holds a Merge / a DeleteRange.
  bool HasMerge() const { return (content_flags_ & kHasMerge) != 0; }
  bool HasDeleteRange() const {
    return (content_flags_ & kHasDeleteRange) != 0;
  }

  // Whether Iterate will call the handler's MarkBeginPrepare /
  // MarkEndPrepare / MarkCommit / MarkRollback: the two-phase commit
  // markers a transaction DB writes (docs/formats/write_batch.md).
  bool HasBeginPrepare() const {
    return (content_flags_ & kHasBeginPrepare) != 0;
  }
  bool HasEndPrepare() const { return (content_flags_ & kHasEndPrepare) != 0; }
  bool HasCommit() const { return (content_flags_ & kHasCommit) != 0; }
  bool HasRollback() const { return (content_flags_ & kHasRollback) != 0; }

  // The encoded batch.
  const std::string& Data() const { return rep_; }
  size_t GetDataSize() const { return rep_.size(); }

  // Receives the updates of a batch in order, each with its column family
  // id. A handler that takes every family overrides the CF forms. The
  // default CF forms pass updates of the default family (id 0) to the plain
  // forms and refuse any other family with InvalidArgument, so a handler
  // written before column families cannot apply them to the wrong one.
  class STRATA_EXPORT Handler {
   public:
    virtual ~Handler();

    virtual Status PutCF(uint32_t column_family_id, const Slice& key,
                         const Slice& value);
    virtual void Put(const Slice& key, const Slice& value);

    virtual Status DeleteCF(uint32_t column_family_id, const Slice& key);
    virtual void Delete(const Slice& key);

    virtual Status SingleDeleteCF(uint32_t column_family_id, const Slice& key);
    virtual void SingleDelete(const Slice& key);

    virtual Status DeleteRangeCF(uint32_t column_family_id,
                                 const Slice& begin_key, const Slice& end_key);

    virtual Status MergeCF(uint32_t column_family_id, const Slice& key,
                           const Slice& value);
    virtual void Merge(const Slice& key, const Slice& value);

    virtual void LogData(const Slice& blob);

    // The two-phase commit markers, in the order of the batch. The
    // defaults refuse them with InvalidArgument naming the marker, so a
    // handler that does not know them cannot take a prepared section's
    // updates for committed ones. MarkBeginPrepare's argument is RocksDB's
    // (an unprepared section; strata writes none). MarkNoop's empty_batch
    // says no update came before it in the batch.
    virtual Status MarkBeginPrepare(bool unprepared = false);
    virtual Status MarkEndPrepare(const Slice& xid);
    virtual Status MarkNoop(bool empty_batch);
    virtual Status MarkRollback(const Slice& xid);
    virtual Status MarkCommit(const Slice& xid);

    // Return false to stop the iteration early.
    virtual bool Continue();
  };

  // Hands every record to handler in order. A malformed batch stops the
  // iteration with Status::Corruption, a record of a kind RocksDB writes
  // but strata does not implement (a blob index, a wide-column entity, the
  // WritePrepared and WriteUnprepared markers) with Status::NotSupported;
  // the first non-OK status a handler returns stops it with that status.
  Status Iterate(Handler* handler) const;

 private:
  friend class WriteBatchInternal;

  enum ContentFlags : uint32_t {
    kHasMerge = 1u << 0,
    kHasDeleteRange = 1u << 1,
    kHasNonDefaultColumnFamily = 1u << 2,
    // rep_ came from outside (a constructor from bytes, SetContents) and
    // did not decode as a well-formed batch: DB::Write validates it. Never
    // set by the update methods, whose records are well-formed by
    // construction, so batches built through them pay for no check.
    kUnchecked = 1u << 3,
    kHasBeginPrepare = 1u << 4,
    kHasEndPrepare = 1u << 5,
    kHasCommit = 1u << 6,
    kHasRollback = 1u << 7,
  };

  // Sets content_flags_ from the records of rep_: the kinds of those that
  // decode, and kUnchecked unless all decode and match the header's count.
  void ScanContents();

  // The content flags of an update of the given type (a ValueType of the
  // default-family form: kTypeValue, not kTypeColumnFamilyValue) to the
  // given family.
  static uint32_t ContentFlagsOf(unsigned char type, uint32_t column_family_id);

  // Appends a record of the given type for column family column_family_id,
  // whose fields are each the concatenation of a SliceParts, and counts it.
  // Fails, leaving the batch unchanged, if a field or the count does not
  // fit the encoding or the record would take the batch past max_bytes_.
  Status AddRecord(unsigned char type, uint32_t column_family_id,
                   std::initializer_list<SliceParts> fields);

  struct SavePoint {
    size_t size;
    uint32_t count;
    uint32_t content_flags;
  };

  std::string rep_;
  size_t max_bytes_;
  std::vector<SavePoint> save_points_;
  // The kinds of records in rep_: exact for a batch built by the update
  // methods; for one from outside, those of the records before the first
  // malformed one (such a batch is kUnchecked).
  uint32_t content_flags_ = 0;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_WRITE_BATCH_H_
