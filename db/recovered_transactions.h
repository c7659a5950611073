// The transactions WAL recovery found prepared (two-phase commit: a
// prepared section replayed) and not resolved by a later Commit or
// Rollback record: a transaction DB takes them up again when it opens
// (docs/transactions.md).

#ifndef STRATA_DB_RECOVERED_TRANSACTIONS_H_
#define STRATA_DB_RECOVERED_TRANSACTIONS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "db/memtable_inserter.h"
#include "strata/slice.h"
#include "strata/write_batch.h"

namespace strata {

struct RecoveredTransaction {
  uint64_t log_number = 0;  // the WAL holding its prepared section
  WriteBatch updates;       // its updates, with their families
};

// Collects the prepared sections of the WAL records replayed, in WAL
// order: a Commit or Rollback of a name resolves the section of that name
// replayed before it.
class RecoveredTransactions final : public PreparedSink {
 public:
  // The WAL whose records are replayed next.
  void set_log_number(uint64_t log_number) { log_number_ = log_number; }

  void Prepared(const Slice& xid, WriteBatch&& updates) override {
    RecoveredTransaction& txn = unresolved_[xid.ToString()];
    txn.log_number = log_number_;
    txn.updates = std::move(updates);
  }
  void Committed(const Slice& xid) override {
    unresolved_.erase(xid.ToString());
  }
  void RolledBack(const Slice& xid) override {
    unresolved_.erase(xid.ToString());
  }

  // The unresolved transactions by name.
  std::map<std::string, RecoveredTransaction>* unresolved() {
    return &unresolved_;
  }

 private:
  uint64_t log_number_ = 0;
  std::map<std::string, RecoveredTransaction> unresolved_;
};

}  // namespace strata

#endif  // STRATA_DB_RECOVERED_TRANSACTIONS_H_
