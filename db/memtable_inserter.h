// Applies a WriteBatch to memtables: the batch's records get consecutive
// sequence numbers from first_sequence, in batch order, and each goes to
// the memtable of its column family. A batch of 32 records or more from
// one writer (not concurrent) has its point entries linked in key order
// rather than batch order (MemTable::Stage), which readers cannot tell
// apart: the batch is published after the insert.
//
// Every record type is stored: Put, Delete, SingleDelete and Merge as
// point entries, DeleteRange as a range tombstone of the memtable. On a
// memtable with in-place updates (inplace_update_support) a Put goes
// through MemTable::Update, which may overwrite the key's newest value.
// Recovery checks each WAL record whole (WriteBatchInternal::Validate) before
// applying any of it, so a malformed record is never applied in part.
//
// A prepared section (two-phase commit: the updates between a BeginPrepare
// and an EndPrepare marker) is not applied: its updates take their
// sequence numbers and go to the PreparedSink if there is one (recovery),
// nowhere otherwise. A Commit or Rollback marker is reported to the sink;
// the updates of a commit record stand before its marker and are applied
// as any others. Sections that nest, an EndPrepare without a section and a
// section left open at the batch's end are Corruption.

#ifndef STRATA_DB_MEMTABLE_INSERTER_H_
#define STRATA_DB_MEMTABLE_INSERTER_H_

#include <cstdint>

#include "strata/slice.h"
#include "strata/status.h"
#include "strata/types.h"

namespace strata {

class MemTable;
class WriteBatch;

// Where the records of the families other than the default one go.
class MemTableRouter {
 public:
  virtual ~MemTableRouter() = default;
  // *mem = the memtable family id's records go to; null: they are
  // skipped (they still take their sequence numbers). A non-OK status
  // stops the batch.
  virtual Status Route(uint32_t id, MemTable** mem) = 0;
};

// Receives the two-phase commit records of the batches replayed.
class PreparedSink {
 public:
  virtual ~PreparedSink() = default;
  // A prepared section named xid, its updates (with their families) in
  // updates.
  virtual void Prepared(const Slice& xid, WriteBatch&& updates) = 0;
  virtual void Committed(const Slice& xid) = 0;
  virtual void RolledBack(const Slice& xid) = 0;
};

// default_mem: where the default family's records go (null: skipped).
// router: the other families' (null: a record of another family is
// InvalidArgument). concurrent: insert with the memtable's concurrent
// insert (other writers insert at the same time). ignore_duplicates: an
// entry already present (the same key, sequence and type — a WAL
// replayed twice) is skipped; otherwise it is Corruption.
Status InsertBatchIntoMemTable(const WriteBatch* batch,
                               SequenceNumber first_sequence,
                               MemTable* default_mem, MemTableRouter* router,
                               bool concurrent, bool ignore_duplicates,
                               PreparedSink* prepared = nullptr);

}  // namespace strata

#endif  // STRATA_DB_MEMTABLE_INSERTER_H_
