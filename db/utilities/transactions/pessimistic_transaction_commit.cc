// PessimisticTransaction's state machine: SetName, Prepare, Commit,
// Rollback, with RocksDB's statuses for calls out of order. The records
// written are docs/transactions.md's "Two-phase commit records".

#include <string>

#include "db/db_impl.h"
#include "db/utilities/transactions/pessimistic_transaction.h"
#include "db/utilities/transactions/pessimistic_transaction_db.h"
#include "db/write_batch_internal.h"

namespace strata {

namespace {

constexpr size_t kMaxNameLength = 512;

// Why a transaction in state cannot be prepared or committed (action).
Status NotInState(Transaction::TransactionState state, const char* action) {
  switch (state) {
    case Transaction::PREPARED:
      return Status::InvalidArgument("Transaction has already been prepared.");
    case Transaction::LOCKS_STOLEN:
      return Status::Expired();
    case Transaction::COMMITTED:
      return Status::InvalidArgument("Transaction has already been committed.");
    case Transaction::ROLLEDBACK:
      return Status::InvalidArgument(
          "Transaction has already been rolledback.");
    default:
      return Status::InvalidArgument(
          std::string("Transaction is not in state for ") + action);
  }
}

}  // namespace

Status PessimisticTransaction::SetName(const TransactionName& name) {
  if (GetState() != STARTED) {
    return Status::InvalidArgument("Transaction is beyond state for naming.");
  }
  if (!name_.empty()) {
    return Status::InvalidArgument("Transaction has already been named.");
  }
  if (name.empty() || name.size() > kMaxNameLength) {
    return Status::InvalidArgument(
        "Transaction name length must be between 1 and 512 chars.");
  }
  Status s = txn_db_->RegisterName(name, this);
  if (s.ok()) name_ = name;
  return s;
}

Status PessimisticTransaction::WriteRecord(WriteBatch* batch) {
  return db_impl_->WriteWithCallback(write_options_, batch, nullptr);
}

Status PessimisticTransaction::Prepare() {
  if (name_.empty()) {
    return Status::InvalidArgument(
        "Cannot prepare a transaction that has not been named.");
  }
  if (IsExpired()) return Status::Expired();
  TransactionState expected = STARTED;
  if (!txn_state_.compare_exchange_strong(expected, AWAITING_PREPARE)) {
    return NotInState(expected, "prepare.");
  }
  // The section is a copy: the transaction's batch stays its updates,
  // for the commit record.
  WriteBatch section(*write_batch_.GetWriteBatch());
  Status s = WriteBatchInternal::MarkEndPrepare(&section, name_);
  if (s.ok()) s = WriteRecord(&section);
  // Prepared, it may no longer expire: its locks are kept until the
  // commit or rollback record is written.
  SetState(s.ok() ? PREPARED : STARTED);
  return s;
}

Status PessimisticTransaction::Commit() {
  if (IsExpired()) return Status::Expired();
  TransactionState expected = STARTED;
  if (txn_state_.compare_exchange_strong(expected, AWAITING_COMMIT)) {
    return CommitWithoutPrepare();
  }
  if (expected == PREPARED) {
    SetState(AWAITING_COMMIT);
    return CommitPrepared();
  }
  return NotInState(expected, "commit.");
}

Status PessimisticTransaction::CommitWithoutPrepare() {
  if (!skip_prepare_) {
    SetState(STARTED);
    return Status::TxnNotPrepared("Txn not prepared");
  }
  if (WriteBatchInternal::Count(GetCommitTimeWriteBatch()) > 0) {
    SetState(STARTED);
    return Status::InvalidArgument(
        "Commit-time batch contains values that will not be committed.");
  }
  Status s = WriteRecord(write_batch_.GetWriteBatch());
  // As RocksDB: committed or failed, the transaction is done with its
  // writes and locks (a failed write is the DB's background error).
  Finish(s.ok() ? COMMITTED : AWAITING_COMMIT);
  return s;
}

Status PessimisticTransaction::CommitPrepared() {
  // The commit record carries the updates themselves, then the
  // commit-time batch, then Commit(name): it applies by itself.
  WriteBatch record(*write_batch_.GetWriteBatch());
  WriteBatchInternal::Append(&record, GetCommitTimeWriteBatch());
  Status s = WriteBatchInternal::MarkCommit(&record, name_);
  if (s.ok()) s = WriteRecord(&record);
  Finish(s.ok() ? COMMITTED : PREPARED);
  return s;
}

void PessimisticTransaction::Finish(TransactionState state) {
  // A prepared transaction whose record failed stays as it was, to be
  // committed or rolled back again.
  if (state != PREPARED) {
    Unregister();
    Clear();
  }
  SetState(state);
}

Status PessimisticTransaction::Rollback() {
  const TransactionState state = GetState();
  if (state == STARTED) {
    Clear();
    return Status::OK();
  }
  if (state == COMMITTED) {
    return Status::InvalidArgument(
        "This transaction has already been committed.");
  }
  if (state != PREPARED) {
    return Status::InvalidArgument(
        "Two phase transaction is not in state for rollback.");
  }
  SetState(AWAITING_ROLLBACK);
  WriteBatch record;
  Status s = WriteBatchInternal::MarkRollback(&record, name_);
  if (s.ok()) s = WriteRecord(&record);
  Finish(s.ok() ? ROLLEDBACK : PREPARED);
  return s;
}

}  // namespace strata
