// StressTest's writes: each marks its keys' expected-state slots pending,
// writes, then commits the slots; a sync point marks acknowledged writes
// durable; a family is cleared by dropping and creating it again.

#include <algorithm>

#include "strata/write_batch.h"
#include "tools/db_stress/stress_test.h"
#include "tools/db_stress/values.h"
#include "util/mutexlock.h"

namespace strata {
namespace stress {

Status StressTest::SyncPoint() {
  WriteLock l(&sync_mu_);
  Status s;
  if (flags_.disable_wal) {
    s = db_->Flush(FlushOptions(), handles_);
  } else {
    s = db_->SyncWAL();
  }
  if (!s.ok()) return s;
  AwaitCrashBeforeCommit();
  for (int cf = 0; cf < num_cf_; cf++) {
    for (int64_t key = 0; key < flags_.max_key; key++) {
      const uint32_t slot = expected_->Get(cf, key);
      if (!SlotUnsynced(slot)) continue;
      expected_->Set(cf, key, SlotMarkDurable(slot));
    }
  }
  return Status::OK();
}

void StressTest::Apply(const std::vector<Mutation>& muts, bool as_batch) {
  for (const Mutation& m : muts) {
    const uint32_t slot = expected_->Get(m.cf, m.key);
    const KeyState latest = LatestState(slot);
    KeyState next;
    switch (m.kind) {
      case Mutation::kPut:
        next.deleted = false;
        next.base = m.arg;
        break;
      case Mutation::kMerge:
        next.deleted = false;
        next.base = MergedBase(latest.base, latest.deleted, m.arg);
        break;
      case Mutation::kDelete:
      case Mutation::kSingleDelete:
        break;
    }
    expected_->Set(m.cf, m.key, SlotBeginWrite(slot, next));
  }
  Status s;
  if (as_batch) {
    WriteBatch batch;
    for (const Mutation& m : muts) {
      ColumnFamilyHandle* h = handles_[m.cf];
      const std::string k = KeyString(m.key);
      switch (m.kind) {
        case Mutation::kPut:
          s = batch.Put(h, k, ValueFor(m.key, m.arg));
          break;
        case Mutation::kMerge:
          s = batch.Merge(h, k, MergeOperand(m.arg));
          break;
        case Mutation::kDelete:
          s = batch.Delete(h, k);
          break;
        case Mutation::kSingleDelete:
          s = batch.SingleDelete(h, k);
          break;
      }
      if (!s.ok()) break;
    }
    if (s.ok()) s = db_->Write(write_options_, &batch);
  } else {
    for (const Mutation& m : muts) {
      ColumnFamilyHandle* h = handles_[m.cf];
      const std::string k = KeyString(m.key);
      switch (m.kind) {
        case Mutation::kPut:
          s = db_->Put(write_options_, h, k, ValueFor(m.key, m.arg));
          break;
        case Mutation::kMerge:
          s = db_->Merge(write_options_, h, k, MergeOperand(m.arg));
          break;
        case Mutation::kDelete:
          s = db_->Delete(write_options_, h, k);
          break;
        case Mutation::kSingleDelete:
          s = db_->SingleDelete(write_options_, h, k);
          break;
      }
      if (!s.ok()) break;
    }
  }
  if (!s.ok()) {
    // The slots stay pending: either state is right after a restart.
    Fail("write failed: " + s.ToString());
    return;
  }
  AwaitCrashBeforeCommit();
  for (const Mutation& m : muts) {
    expected_->Set(
        m.cf, m.key,
        SlotCommitWrite(expected_->Get(m.cf, m.key), writes_durable_));
  }
}

void StressTest::DoWrite(ThreadState* t, int cf, int64_t key, bool remove) {
  const bool all_families =
      flags_.test_batches_snapshots ||
      (num_cf_ > 1 && flags_.batch_one_in > 0 &&
       t->rnd.OneIn(static_cast<int>(flags_.batch_one_in)));
  std::vector<std::pair<int, int64_t>> keys;
  if (all_families) {
    for (int c = 0; c < num_cf_; c++) keys.emplace_back(c, key);
  } else {
    keys.emplace_back(cf, key);
  }
  ReadLock sync(&sync_mu_);
  KeyLocks::Guard guard(locks_.get(), keys);
  // One kind and argument for every family, so that with
  // test_batches_snapshots the families stay equal.
  Mutation::Kind kind = remove ? Mutation::kDelete : Mutation::kPut;
  if (!remove && flags_.use_merge && t->rnd.OneIn(2)) kind = Mutation::kMerge;
  const uint32_t arg = kind == Mutation::kMerge
                           ? 1 + t->rnd.Uniform(100)
                           : t->rnd.Uniform(static_cast<int>(kValueBaseLimit));
  std::vector<Mutation> muts;
  for (const auto& k : keys) {
    Mutation m{k.first, key, kind, arg};
    if (NoOverwrite(key)) {
      // Written only while absent, removed by SingleDelete: never two
      // puts without a delete between them, as SingleDelete requires.
      const bool absent = LatestState(expected_->Get(k.first, key)).deleted;
      if (absent == remove) continue;
      if (remove) m.kind = Mutation::kSingleDelete;
      if (m.kind == Mutation::kMerge) m.kind = Mutation::kPut;
    }
    muts.push_back(m);
  }
  if (muts.empty()) return;
  Apply(muts, all_families || muts.size() > 1);
}

void StressTest::DoDeleteRange(ThreadState* t, int cf, int64_t key) {
  const int64_t end = std::min(
      no_overwrite_start_,
      key + 1 + t->rnd.Uniform(static_cast<int>(flags_.range_deletion_width)));
  if (key >= end) return;
  std::vector<int> families;
  if (flags_.test_batches_snapshots) {
    for (int c = 0; c < num_cf_; c++) families.push_back(c);
  } else {
    families.push_back(cf);
  }
  std::vector<std::pair<int, int64_t>> keys;
  for (int c : families) {
    for (int64_t k = key; k < end; k++) keys.emplace_back(c, k);
  }
  ReadLock sync(&sync_mu_);
  KeyLocks::Guard guard(locks_.get(), keys);
  for (const auto& k : keys) {
    expected_->Set(
        k.first, k.second,
        SlotBeginWrite(expected_->Get(k.first, k.second), KeyState()));
  }
  WriteBatch batch;
  Status s;
  for (int c : families) {
    s = batch.DeleteRange(handles_[c], KeyString(key), KeyString(end));
    if (!s.ok()) break;
  }
  if (s.ok()) s = db_->Write(write_options_, &batch);
  if (!s.ok()) return Fail("DeleteRange failed: " + s.ToString());
  AwaitCrashBeforeCommit();
  for (const auto& k : keys) {
    expected_->Set(
        k.first, k.second,
        SlotCommitWrite(expected_->Get(k.first, k.second), writes_durable_));
  }
}

void StressTest::ClearFamily(ThreadState* t) {
  if (num_cf_ < 2) return;
  const int cf = 1 + static_cast<int>(t->rnd.Uniform(num_cf_ - 1));
  // A POSIX rwlock lets new readers in while a writer waits, and the other
  // threads hold families_mu_ for all but an instant: they hold back at
  // clear_waiting_ until the lock is taken.
  clear_waiting_.store(true, std::memory_order_release);
  WriteLock families(&families_mu_);
  clear_waiting_.store(false, std::memory_order_release);
  // Until the family is created again, a crash leaves it either as it was
  // or gone (and created empty at the next open): each key pending a
  // delete.
  for (int64_t key = 0; key < flags_.max_key; key++) {
    expected_->Set(cf, key,
                   SlotBeginWrite(expected_->Get(cf, key), KeyState()));
  }
  Status s = db_->DropColumnFamily(handles_[cf]);
  if (s.ok()) {
    // From here the handle is gone; until a new one is in place, no
    // operation may run (they check failed_ under families_mu_).
    s = db_->DestroyColumnFamilyHandle(handles_[cf]);
    handles_[cf] = nullptr;
  }
  if (s.ok()) {
    s = db_->CreateColumnFamily(ColumnFamilyOptions(options_), FamilyName(cf),
                                &handles_[cf]);
  }
  if (!s.ok()) {
    return Fail("clearing family " + FamilyName(cf) +
                " failed: " + s.ToString());
  }
  generation_[cf]++;
  families_cleared_++;
  AwaitCrashBeforeCommit();
  // The MANIFEST records both changes before they return, synced: the
  // family's emptiness is durable whatever the write options.
  for (int64_t key = 0; key < flags_.max_key; key++) {
    expected_->Set(cf, key,
                   SlotCommitWrite(expected_->Get(cf, key), /*durable=*/true));
  }
}

}  // namespace stress
}  // namespace strata
