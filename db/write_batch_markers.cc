// The two-phase commit markers a transaction DB writes into its batches
// (docs/formats/write_batch.md, "Two-phase commit").

#include <string>

#include "db/dbformat.h"
#include "db/write_batch_internal.h"
#include "strata/write_batch.h"

namespace strata {

namespace {

Status CheckXid(const char* marker, const Slice& xid) {
  if (xid.empty()) {
    return Status::InvalidArgument(std::string("WriteBatch ") + marker +
                                   ": the transaction's name (xid) is empty");
  }
  return Status::OK();
}

}  // namespace

Status WriteBatchInternal::MarkEndPrepare(WriteBatch* batch, const Slice& xid) {
  Status s = CheckXid("MarkEndPrepare", xid);
  if (!s.ok()) return s;
  if (HasTwoPhaseMarkers(batch)) {
    return Status::InvalidArgument(
        "WriteBatch MarkEndPrepare: the batch holds two-phase commit markers "
        "already");
  }
  if (batch->rep_.size() < kHeader) {
    return Status::InvalidArgument(
        "WriteBatch MarkEndPrepare: the batch is smaller than its header");
  }
  s = batch->AddRecord(kTypeEndPrepareXID, 0, {SliceParts(&xid, 1)});
  if (!s.ok()) return s;
  batch->rep_.insert(kHeader, 1, static_cast<char>(kTypeBeginPrepareXID));
  // Save points are lengths of the encoding, all past the header.
  for (WriteBatch::SavePoint& point : batch->save_points_) point.size++;
  batch->content_flags_ |= WriteBatch::kHasBeginPrepare;
  return Status::OK();
}

namespace {

Status CheckNotPrepared(const char* marker, const WriteBatch* batch) {
  if (batch->HasBeginPrepare() || batch->HasEndPrepare()) {
    return Status::InvalidArgument(std::string("WriteBatch ") + marker +
                                   ": the batch holds a prepared section");
  }
  return Status::OK();
}

}  // namespace

namespace {

// Checks that prepared sections neither nest nor stay open, and that no
// commit or rollback stands inside one.
class SectionChecker final : public AcceptingHandler {
 public:
  Status MarkBeginPrepare(bool) override {
    if (open_) return Status::Corruption("nested prepared sections");
    open_ = true;
    return Status::OK();
  }
  Status MarkEndPrepare(const Slice&) override {
    if (!open_) {
      return Status::Corruption("EndPrepare without a prepared section");
    }
    open_ = false;
    return Status::OK();
  }
  Status MarkNoop(bool) override { return Status::OK(); }
  Status MarkRollback(const Slice&) override { return Outside(); }
  Status MarkCommit(const Slice&) override { return Outside(); }

  bool open() const { return open_; }

 private:
  Status Outside() const {
    return open_ ? Status::Corruption(
                       "Commit or Rollback inside a prepared section")
                 : Status::OK();
  }

  bool open_ = false;
};

}  // namespace

Status WriteBatchInternal::CheckPreparedSections(const WriteBatch* batch) {
  SectionChecker checker;
  Status s = batch->Iterate(&checker);
  if (s.ok() && checker.open()) {
    s = Status::Corruption("prepared section without its EndPrepare");
  }
  return s;
}

Status WriteBatchInternal::MarkCommit(WriteBatch* batch, const Slice& xid) {
  Status s = CheckXid("MarkCommit", xid);
  if (s.ok()) s = CheckNotPrepared("MarkCommit", batch);
  if (!s.ok()) return s;
  return batch->AddRecord(kTypeCommitXID, 0, {SliceParts(&xid, 1)});
}

Status WriteBatchInternal::MarkRollback(WriteBatch* batch, const Slice& xid) {
  Status s = CheckXid("MarkRollback", xid);
  if (s.ok()) s = CheckNotPrepared("MarkRollback", batch);
  if (!s.ok()) return s;
  return batch->AddRecord(kTypeRollbackXID, 0, {SliceParts(&xid, 1)});
}

}  // namespace strata
