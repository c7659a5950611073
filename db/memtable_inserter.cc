#include "db/memtable_inserter.h"

#include <cassert>

#include "db/dbformat.h"
#include "memtable/memtable.h"
#include "strata/write_batch.h"

namespace strata {

namespace {

class MemTableInserter final : public WriteBatch::Handler {
 public:
  MemTableInserter(SequenceNumber sequence, MemTable* mem, bool concurrent,
                   bool ignore_duplicates)
      : sequence_(sequence),
        mem_(mem),
        concurrent_(concurrent),
        ignore_duplicates_(ignore_duplicates),
        inplace_(mem->inplace_update_support()) {}

  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    if (inplace_ && cf == 0) {
      // Never concurrent: DB::Open refuses the combination.
      assert(!concurrent_);
      return Finish(mem_->Update(sequence_, key, value));
    }
    return Add(cf, kTypeValue, key, value);
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, kTypeDeletion, key, Slice());
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, kTypeSingleDeletion, key, Slice());
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin,
                       const Slice& end) override {
    return Add(cf, kTypeRangeDeletion, begin, end);
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, kTypeMerge, key, value);
  }

 private:
  Status Add(uint32_t cf, ValueType type, const Slice& key,
             const Slice& value) {
    if (cf != 0) {
      return Status::InvalidArgument("no column family other than 0");
    }
    return Finish(mem_->Add(sequence_, type, key, value, concurrent_));
  }

  // The outcome of the record at sequence_, which the next record follows.
  Status Finish(Status s) {
    if (s.IsTryAgain()) {
      s = ignore_duplicates_
              ? Status::OK()
              : Status::Corruption("duplicate entry in memtable");
    }
    sequence_++;
    return s;
  }

  SequenceNumber sequence_;
  MemTable* const mem_;
  const bool concurrent_;
  const bool ignore_duplicates_;
  const bool inplace_;  // Puts go through MemTable::Update
};

class SupportChecker final : public WriteBatch::Handler {
 public:
  Status PutCF(uint32_t cf, const Slice&, const Slice&) override {
    return Check(cf);
  }
  Status DeleteCF(uint32_t cf, const Slice&) override { return Check(cf); }
  Status SingleDeleteCF(uint32_t cf, const Slice&) override {
    return Check(cf);
  }
  Status DeleteRangeCF(uint32_t cf, const Slice&, const Slice&) override {
    return Check(cf);
  }
  Status MergeCF(uint32_t cf, const Slice&, const Slice&) override {
    return Check(cf);
  }

 private:
  static Status Check(uint32_t cf) {
    return cf == 0 ? Status::OK()
                   : Status::InvalidArgument("no column family other than 0");
  }
};

}  // namespace

Status InsertBatchIntoMemTable(const WriteBatch* batch,
                               SequenceNumber first_sequence, MemTable* mem,
                               bool concurrent, bool ignore_duplicates) {
  MemTableInserter inserter(first_sequence, mem, concurrent, ignore_duplicates);
  return batch->Iterate(&inserter);
}

Status CheckBatchSupported(const WriteBatch* batch) {
  SupportChecker checker;
  return batch->Iterate(&checker);
}

}  // namespace strata
