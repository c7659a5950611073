// WriteCallback: a check a write runs inside the write path, atomically
// with its commit — what an optimistic transaction's conflict check needs
// (docs/transactions.md).
//
// A write with a callback commits in a group of its own. Its leader runs
// the callback after every earlier write is applied to the memtables (in
// every write mode: the DB drains inserts still running first) and before
// the write takes its sequence numbers; no other write is applied
// meanwhile. A non-OK status fails the write: nothing of its batch is
// logged or applied, and the DB carries on.
//
// Thread safety: Check runs on the writing thread, once, with no DB lock
// held; it may read the DB (DBImpl::GetLatestSequenceForKey) but must not
// write to it.

#ifndef STRATA_DB_WRITE_CALLBACK_H_
#define STRATA_DB_WRITE_CALLBACK_H_

#include "strata/status.h"

namespace strata {

class WriteCallback {
 public:
  virtual ~WriteCallback() = default;

  // OK lets the write commit; anything else is the write's status.
  virtual Status Check() = 0;
};

}  // namespace strata

#endif  // STRATA_DB_WRITE_CALLBACK_H_
