#include "db/prepared_logs.h"

#include "db/write_batch_internal.h"

namespace strata {

namespace {

class MarkerReader final : public AcceptingHandler {
 public:
  MarkerReader(PreparedLogs* logs, uint64_t log) : logs_(logs), log_(log) {}

  Status MarkEndPrepare(const Slice& xid) override {
    logs_->Prepared(xid.ToString(), log_);
    return Status::OK();
  }
  Status MarkCommit(const Slice& xid) override {
    logs_->Resolved(xid.ToString(), log_);
    return Status::OK();
  }
  Status MarkRollback(const Slice& xid) override {
    logs_->Resolved(xid.ToString(), log_);
    return Status::OK();
  }

 private:
  PreparedLogs* const logs_;
  const uint64_t log_;
};

}  // namespace

void PreparedLogs::Record(const WriteBatch& batch, uint64_t log) {
  MarkerReader reader(this, log);
  // The batch passed CheckPreparedSections before the WAL took it: the
  // iteration cannot fail.
  Status s = batch.Iterate(&reader);
  (void)s;
}

}  // namespace strata
