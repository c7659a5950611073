// GlobalSeqnoReader: a view of an ingested external table (SstFileWriter)
// whose entries, written at sequence number 0, read as one global
// sequence number recorded in the MANIFEST (FileMetaData::global_seqno;
// docs/operations.md, "Bulk ingestion"). The file is never rewritten: the
// keys are rewritten as they are read.
//
// In an external table every point user key appears once, so a key's
// position among the table's keys does not change with its number; only
// seeks need care (a seek to (k, s) with s below the global number must
// pass k by).
//
// Thread safety: as the wrapped reader. The view borrows the reader and
// the comparator; iterators it makes own only their wrapped iterator.

#ifndef STRATA_TABLE_GLOBAL_SEQNO_READER_H_
#define STRATA_TABLE_GLOBAL_SEQNO_READER_H_

#include <memory>

#include "db/dbformat.h"
#include "table/internal_iterator.h"
#include "table/table_reader.h"

namespace strata {

// iter's keys with sequence number global_seqno; takes ownership of iter.
InternalIterator* NewGlobalSeqnoIterator(InternalIterator* iter,
                                         SequenceNumber global_seqno,
                                         const InternalKeyComparator* icmp);

class GlobalSeqnoReader final : public TableReader {
 public:
  GlobalSeqnoReader(TableReader* base, SequenceNumber global_seqno,
                    const InternalKeyComparator* icmp)
      : base_(base), global_seqno_(global_seqno), icmp_(icmp) {}

  InternalIterator* NewIterator(const ReadOptions& read_options) override;
  InternalIterator* NewRangeTombstoneIterator(
      const ReadOptions& read_options) override;
  // Nothing of the table is visible to a lookup below the global number.
  // (MultiGet: the default, one Get per key.)
  Status Get(const ReadOptions& read_options, const Slice& internal_key,
             void* arg, GetEntryFunction handle_entry) override;
  bool PrefixMayMatch(const Slice& prefix) override {
    return base_->PrefixMayMatch(prefix);
  }
  uint64_t ApproximateOffsetOf(const Slice& internal_key) override {
    return base_->ApproximateOffsetOf(internal_key);
  }
  std::shared_ptr<const TableProperties> GetTableProperties() const override {
    return base_->GetTableProperties();
  }
  size_t ApproximateMemoryUsage() const override {
    return base_->ApproximateMemoryUsage();
  }

 private:
  TableReader* const base_;
  const SequenceNumber global_seqno_;
  const InternalKeyComparator* const icmp_;
};

}  // namespace strata

#endif  // STRATA_TABLE_GLOBAL_SEQNO_READER_H_
