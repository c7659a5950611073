#include "db/memtable_inserter.h"

#include <cassert>
#include <string>

#include "db/dbformat.h"
#include "memtable/memtable.h"
#include "strata/write_batch.h"

namespace strata {

namespace {

class MemTableInserter final : public WriteBatch::Handler {
 public:
  MemTableInserter(SequenceNumber sequence, MemTable* default_mem,
                   MemTableRouter* router, bool concurrent,
                   bool ignore_duplicates)
      : sequence_(sequence),
        default_mem_(default_mem),
        router_(router),
        concurrent_(concurrent),
        ignore_duplicates_(ignore_duplicates) {}

  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
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
    MemTable* mem = default_mem_;
    if (cf != 0) {
      if (router_ == nullptr) {
        return Status::InvalidArgument("write batch: column family " +
                                       std::to_string(cf) + " does not exist");
      }
      Status s = router_->Route(cf, &mem);
      if (!s.ok()) return s;
    }
    const SequenceNumber sequence = sequence_++;
    if (mem == nullptr) return Status::OK();  // not for this memtable set
    Status s;
    if (type == kTypeValue && mem->inplace_update_support()) {
      // Never concurrent: DB::Open refuses the combination.
      assert(!concurrent_);
      s = mem->Update(sequence, key, value);
    } else {
      s = mem->Add(sequence, type, key, value, concurrent_);
    }
    if (s.IsTryAgain()) {
      s = ignore_duplicates_
              ? Status::OK()
              : Status::Corruption("duplicate entry in memtable");
    }
    return s;
  }

  SequenceNumber sequence_;
  MemTable* const default_mem_;
  MemTableRouter* const router_;
  const bool concurrent_;
  const bool ignore_duplicates_;
};

}  // namespace

Status InsertBatchIntoMemTable(const WriteBatch* batch,
                               SequenceNumber first_sequence,
                               MemTable* default_mem, MemTableRouter* router,
                               bool concurrent, bool ignore_duplicates) {
  MemTableInserter inserter(first_sequence, default_mem, router, concurrent,
                            ignore_duplicates);
  return batch->Iterate(&inserter);
}

}  // namespace strata
