#include "db/memtable_inserter.h"

#include <cassert>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/write_batch_internal.h"
#include "memtable/memtable.h"
#include "strata/write_batch.h"

namespace strata {

namespace {

// Batches of fewer records link each as it comes: sorting a few saves
// little.
constexpr uint32_t kMinStagedBatch = 32;

class MemTableInserter final : public WriteBatch::Handler {
 public:
  MemTableInserter(SequenceNumber sequence, MemTable* default_mem,
                   MemTableRouter* router, bool concurrent,
                   bool ignore_duplicates, uint32_t stage_count,
                   PreparedSink* prepared)
      : sequence_(sequence),
        default_mem_(default_mem),
        router_(router),
        concurrent_(concurrent),
        ignore_duplicates_(ignore_duplicates),
        stage_count_(stage_count),
        prepared_(prepared) {}

  Status MarkBeginPrepare(bool) override {
    if (in_section_) return Status::Corruption("nested prepared sections");
    in_section_ = true;
    section_.Clear();
    return Status::OK();
  }
  Status MarkEndPrepare(const Slice& xid) override {
    if (!in_section_) {
      return Status::Corruption("EndPrepare without a prepared section");
    }
    in_section_ = false;
    if (prepared_ != nullptr) prepared_->Prepared(xid, std::move(section_));
    section_.Clear();
    return Status::OK();
  }
  Status MarkCommit(const Slice& xid) override {
    if (in_section_) return Status::Corruption("Commit in a prepared section");
    if (prepared_ != nullptr) prepared_->Committed(xid);
    return Status::OK();
  }
  Status MarkRollback(const Slice& xid) override {
    if (in_section_) {
      return Status::Corruption("Rollback in a prepared section");
    }
    if (prepared_ != nullptr) prepared_->RolledBack(xid);
    return Status::OK();
  }
  Status MarkNoop(bool) override { return Status::OK(); }

  // Links the entries staged in each memtable; called once Iterate is
  // done, whatever it returned (what came before an error is applied, as
  // without staging).
  Status LinkStaged() {
    Status result;
    for (auto& staged : staged_) {
      Status s = Duplicates(staged.first->LinkStaged(&staged.second));
      if (result.ok()) result = s;
    }
    return result;
  }

  // Called once Iterate is done.
  Status Finish() const {
    if (in_section_) {
      return Status::Corruption("prepared section without its EndPrepare");
    }
    return Status::OK();
  }

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
    if (in_section_) {
      sequence_++;
      if (prepared_ == nullptr) return Status::OK();
      const bool has_value = type == kTypeValue || type == kTypeMerge ||
                             type == kTypeRangeDeletion;
      return WriteBatchInternal::AddRecord(&section_, type, cf, key,
                                           has_value ? &value : nullptr);
    }
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
    if (stage_count_ > 0 && type != kTypeRangeDeletion && mem->CanStage()) {
      return mem->Stage(sequence, type, key, value, StagedFor(mem));
    }
    Status s;
    if (type == kTypeValue && mem->inplace_update_support()) {
      // Never concurrent: DB::Open refuses the combination.
      assert(!concurrent_);
      s = mem->Update(sequence, key, value);
    } else {
      s = mem->Add(sequence, type, key, value, concurrent_);
    }
    return Duplicates(s);
  }

  // TryAgain (an entry already present) as the caller asked.
  Status Duplicates(const Status& s) const {
    if (!s.IsTryAgain()) return s;
    return ignore_duplicates_
               ? Status::OK()
               : Status::Corruption("duplicate entry in memtable");
  }

  MemTable::Staged* StagedFor(MemTable* mem) {
    for (auto& staged : staged_) {
      if (staged.first == mem) return &staged.second;
    }
    staged_.emplace_back(mem, MemTable::Staged());
    // Room for the whole batch at once, not grown entry by entry.
    staged_.back().second.entries.reserve(stage_count_);
    return &staged_.back().second;
  }

  SequenceNumber sequence_;
  MemTable* const default_mem_;
  MemTableRouter* const router_;
  const bool concurrent_;
  const bool ignore_duplicates_;
  // The batch's record count when its entries are staged, else 0.
  const uint32_t stage_count_;
  PreparedSink* const prepared_;
  // Per memtable, its entries staged to be linked in key order.
  std::vector<std::pair<MemTable*, MemTable::Staged>> staged_;
  bool in_section_ = false;
  WriteBatch section_;  // the open section's updates, for prepared_
};

}  // namespace

Status InsertBatchIntoMemTable(const WriteBatch* batch,
                               SequenceNumber first_sequence,
                               MemTable* default_mem, MemTableRouter* router,
                               bool concurrent, bool ignore_duplicates,
                               PreparedSink* prepared) {
  // A large batch from the one writer links its entries in key order
  // (MemTable::Stage); concurrent writers share the list, which no
  // cached search path survives.
  const uint32_t count = WriteBatchInternal::Count(batch);
  const uint32_t stage_count =
      !concurrent && count >= kMinStagedBatch ? count : 0;
  MemTableInserter inserter(first_sequence, default_mem, router, concurrent,
                            ignore_duplicates, stage_count, prepared);
  Status s = batch->Iterate(&inserter);
  Status linked = inserter.LinkStaged();
  if (s.ok()) s = linked;
  if (s.ok()) s = inserter.Finish();
  return s;
}

}  // namespace strata
