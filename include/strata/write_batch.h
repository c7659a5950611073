// WriteBatch: an ordered list of updates applied to a DB atomically by
// DB::Write — readers see all of a batch or none of it.
//
// The encoding (docs/formats/write_batch.md) is RocksDB's: a 12-byte header
// (fixed64 sequence, fixed32 count) followed by tagged records. Data()
// exposes it; the same bytes are the payload of a WAL record.
//
// Thread safety: const methods may be called from many threads; anything
// that modifies the batch needs external synchronization.

#ifndef STRATA_INCLUDE_WRITE_BATCH_H_
#define STRATA_INCLUDE_WRITE_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT WriteBatch {
 public:
  // reserved_bytes: initial capacity. max_bytes: if non-zero, an update
  // that would grow the batch beyond it fails with MemoryLimit-style
  // InvalidArgument and leaves the batch unchanged.
  explicit WriteBatch(size_t reserved_bytes = 0, size_t max_bytes = 0);
  WriteBatch(const WriteBatch&);
  WriteBatch& operator=(const WriteBatch&);
  WriteBatch(WriteBatch&&) noexcept;
  WriteBatch& operator=(WriteBatch&&) noexcept;
  ~WriteBatch();

  // Store key -> value.
  Status Put(const Slice& key, const Slice& value);

  // Remove key if present.
  Status Delete(const Slice& key);

  // Remove key, which the caller promises was Put at most once since it
  // was last deleted (and never merged); cheaper to compact than Delete.
  Status SingleDelete(const Slice& key);

  // Remove every key in [begin_key, end_key).
  Status DeleteRange(const Slice& begin_key, const Slice& end_key);

  // Combine value with the key's existing value through
  // Options::merge_operator.
  Status Merge(const Slice& key, const Slice& value);

  // A blob that is written to the WAL with the batch but never applied;
  // Iterate hands it to Handler::LogData. Not counted by Count().
  Status PutLogData(const Slice& blob);

  // Drop every update.
  void Clear();

  // Number of updates (Put, Delete, SingleDelete, DeleteRange, Merge).
  uint32_t Count() const;

  // Whether the batch holds a Merge / a DeleteRange.
  bool HasMerge() const { return (content_flags_ & kHasMerge) != 0; }
  bool HasDeleteRange() const {
    return (content_flags_ & kHasDeleteRange) != 0;
  }

  // The encoded batch.
  const std::string& Data() const { return rep_; }
  size_t GetDataSize() const { return rep_.size(); }

  // Receives the updates of a batch in order. Override the column-family
  // forms to return a Status; the plain forms are called for column
  // family 0 (the only one strata has).
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

    // Return false to stop the iteration early.
    virtual bool Continue();
  };

  // Hands every record to handler in order. A malformed batch stops the
  // iteration with Status::Corruption; the first non-OK status a handler
  // returns stops it with that status.
  Status Iterate(Handler* handler) const;

 private:
  friend class WriteBatchInternal;

  enum ContentFlags : uint32_t {
    kHasMerge = 1u << 0,
    kHasDeleteRange = 1u << 1,
  };

  // The content flag a record tag sets (0: none).
  static uint32_t ContentFlagOf(char tag);
  Status CheckSize(size_t old_size);

  std::string rep_;
  size_t max_bytes_;
  uint32_t content_flags_ = 0;  // kinds of records in rep_, kept exact
};

}  // namespace strata

#endif  // STRATA_INCLUDE_WRITE_BATCH_H_
