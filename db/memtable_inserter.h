// Applies a WriteBatch to a memtable: the batch's records get consecutive
// sequence numbers from first_sequence, in batch order.
//
// Every record type is stored: Put, Delete, SingleDelete and Merge as
// point entries, DeleteRange as a range tombstone of the memtable. On a
// memtable with in-place updates (inplace_update_support) a Put goes
// through MemTable::Update, which may overwrite the key's newest value.
// Recovery checks each WAL record whole with CheckBatchSupported before
// applying any of it, so a malformed record is never applied in part.

#ifndef STRATA_DB_MEMTABLE_INSERTER_H_
#define STRATA_DB_MEMTABLE_INSERTER_H_

#include "strata/status.h"
#include "strata/types.h"

namespace strata {

class MemTable;
class WriteBatch;

// concurrent: insert with the memtable's concurrent insert (other writers
// insert at the same time). ignore_duplicates: an entry already present
// (the same key, sequence and type — a WAL replayed twice) is skipped;
// otherwise it is Corruption.
Status InsertBatchIntoMemTable(const WriteBatch* batch,
                               SequenceNumber first_sequence, MemTable* mem,
                               bool concurrent, bool ignore_duplicates);

// OK if every record of batch can be applied; Corruption for a malformed
// batch, InvalidArgument for a column family other than 0.
Status CheckBatchSupported(const WriteBatch* batch);

}  // namespace strata

#endif  // STRATA_DB_MEMTABLE_INSERTER_H_
