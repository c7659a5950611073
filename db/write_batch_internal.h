// WriteBatchInternal: the engine's access to a WriteBatch's encoding
// (docs/formats/write_batch.md) — the header fields the public API hides,
// and whole-batch operations the write path and recovery need.
//
//   rep = fixed64 sequence | fixed32 count | record*
//
// The sequence number is that of the batch's first update; the DB assigns
// it when the batch joins the WAL, update i then has sequence + i.
//
// Thread safety: as WriteBatch — concurrent readers, or one writer.

#ifndef STRATA_DB_WRITE_BATCH_INTERNAL_H_
#define STRATA_DB_WRITE_BATCH_INTERNAL_H_

#include <cstddef>
#include <cstdint>

#include "strata/slice.h"
#include "strata/status.h"
#include "strata/types.h"
#include "strata/write_batch.h"

namespace strata {

// Accepts every record of every family and every two-phase commit marker:
// the base of handlers that look at some kinds only.
class AcceptingHandler : public WriteBatch::Handler {
 public:
  Status PutCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status DeleteCF(uint32_t, const Slice&) override { return Status::OK(); }
  Status SingleDeleteCF(uint32_t, const Slice&) override {
    return Status::OK();
  }
  Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status MergeCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status MarkBeginPrepare(bool) override { return Status::OK(); }
  Status MarkEndPrepare(const Slice&) override { return Status::OK(); }
  Status MarkNoop(bool) override { return Status::OK(); }
  Status MarkRollback(const Slice&) override { return Status::OK(); }
  Status MarkCommit(const Slice&) override { return Status::OK(); }
};

class WriteBatchInternal {
 public:
  // The fixed64 sequence and fixed32 count in front of the records. An
  // enumerator, not a static constexpr member: MinGW imports such a member
  // from strata.dll when code binds a reference to it, and the DLL does not
  // export it.
  enum : size_t { kHeader = 12 };

  // The count field of the header: updates, LogData blobs excluded. Only a
  // batch from outside can be shorter than the header: Count and Sequence
  // return 0 for it. REQUIRES (the setters): the batch holds the header.
  static uint32_t Count(const WriteBatch* batch);
  static void SetCount(WriteBatch* batch, uint32_t n);

  // Adds a record of type (a point type of db/dbformat.h: kTypeValue,
  // kTypeDeletion, ...) for the family with that id: what a wrapper that
  // rewrites a batch (DBWithTTL) needs without the families' handles.
  // Errors as WriteBatch::Put's.
  static Status AddRecord(WriteBatch* batch, unsigned char type,
                          uint32_t column_family_id, const Slice& key,
                          const Slice* value) {
    if (value == nullptr) {
      return batch->AddRecord(type, column_family_id, {SliceParts(&key, 1)});
    }
    return batch->AddRecord(type, column_family_id,
                            {SliceParts(&key, 1), SliceParts(value, 1)});
  }

  static SequenceNumber Sequence(const WriteBatch* batch);
  static void SetSequence(WriteBatch* batch, SequenceNumber seq);

  // The whole encoding, header included: the payload of a WAL record.
  static Slice Contents(const WriteBatch* batch) { return Slice(batch->rep_); }
  static size_t ByteSize(const WriteBatch* batch) { return batch->rep_.size(); }

  // Replaces the batch's encoding with contents (a WAL record being
  // recovered). Corruption, and the batch left unchanged, if contents is
  // shorter than the header; otherwise the records are scanned as by the
  // constructors from bytes (content flags, kUnchecked), and Iterate or
  // Validate report what is wrong with them.
  static Status SetContents(WriteBatch* batch, const Slice& contents);

  // Appends src's records to dst's and adds src's count to dst's; dst keeps
  // its sequence. The write group leader uses it to turn many batches into
  // one WAL record. dst's max_bytes is not enforced: the group has already
  // been admitted. REQUIRES: dst != src
  static void Append(WriteBatch* dst, const WriteBatch* src);

  // OK if every record of the batch parses and the header's count matches
  // them; otherwise the status Iterate would return (Corruption, or
  // NotSupported for a RocksDB record kind strata lacks). Records of every
  // column family are accepted. Lets a caller reject a damaged batch before
  // applying any of it.
  static Status Validate(const WriteBatch* batch);

  // Whether DB::Write must validate the batch before it goes further: its
  // encoding came from outside and did not decode as a well-formed batch
  // (or was changed since). A flag test: batches built by the update
  // methods never need the check.
  static bool NeedsValidation(const WriteBatch* batch) {
    return (batch->content_flags_ & WriteBatch::kUnchecked) != 0;
  }

  // Validate, and if the batch passes, its content flags are rebuilt from
  // its records and it no longer NeedsValidation.
  static Status ValidateUnchecked(WriteBatch* batch);

  // The clean-close marker (docs/formats/wal.md, "The clean-close
  // marker"): the record a clean DB::Close appends to the live WAL, a
  // batch of no updates numbered seq (the DB's last sequence) holding one
  // LogData blob that names it and the MANIFEST (its number and its size
  // once the close's edit is synced). Replayed, it does nothing; found
  // after damage, it says the damaged record was whole once; found with
  // the MANIFEST it names reading back shorter, it says that MANIFEST lost
  // edits.
  static void SetCloseMarker(WriteBatch* batch, SequenceNumber seq,
                             uint64_t manifest_number, uint64_t manifest_size);
  // Whether record (a WAL record) is a close marker; *seq is its number
  // and, if not null, *manifest_number and *manifest_size what it records
  // of the MANIFEST (0 for a marker of the older form, which has neither).
  static bool IsCloseMarker(const Slice& record, SequenceNumber* seq,
                            uint64_t* manifest_number = nullptr,
                            uint64_t* manifest_size = nullptr);

  // Two-phase commit (docs/formats/write_batch.md, "Two-phase commit"):
  //
  // MarkEndPrepare makes the batch a prepared section: a BeginPrepare
  // marker in front of its records, an EndPrepare(xid) behind them. The
  // memtables skip a prepared section's updates (they still take their
  // sequence numbers); recovery keeps it under its xid until a Commit or
  // Rollback of that xid is replayed. InvalidArgument, the batch unchanged,
  // for an empty xid or a batch that holds markers already.
  static Status MarkEndPrepare(WriteBatch* batch, const Slice& xid);
  // Appends a Commit(xid) / Rollback(xid) marker. A commit record carries
  // the transaction's updates themselves (its batch, then the marker), so
  // it applies without the prepared section. InvalidArgument for an empty
  // xid or a batch holding a prepared section.
  static Status MarkCommit(WriteBatch* batch, const Slice& xid);
  static Status MarkRollback(WriteBatch* batch, const Slice& xid);
  // Corruption if the batch's prepared sections nest or do not end, or a
  // Commit or Rollback stands inside one (what the memtables would refuse
  // after the WAL took the batch); else what Validate returns.
  static Status CheckPreparedSections(const WriteBatch* batch);
  // Whether the batch holds any two-phase commit marker.
  static bool HasTwoPhaseMarkers(const WriteBatch* batch) {
    return (batch->content_flags_ &
            (WriteBatch::kHasBeginPrepare | WriteBatch::kHasEndPrepare |
             WriteBatch::kHasCommit | WriteBatch::kHasRollback)) != 0;
  }

  // Whether some update of the batch is to a column family other than the
  // default (id 0). Exact for a batch built through the API or Append; for
  // one from outside it covers the records before the first malformed one
  // (such a batch NeedsValidation).
  static bool HasNonDefaultColumnFamily(const WriteBatch* batch) {
    return (batch->content_flags_ & WriteBatch::kHasNonDefaultColumnFamily) !=
           0;
  }
};

}  // namespace strata

#endif  // STRATA_DB_WRITE_BATCH_INTERNAL_H_
