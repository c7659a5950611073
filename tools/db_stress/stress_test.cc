#include "tools/db_stress/stress_test.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <thread>

#include "strata/iterator.h"
#include "strata/memtablerep.h"
#include "strata/snapshot.h"
#include "strata/write_batch.h"
#include "tools/db_stress/crash.h"
#include "tools/db_stress/values.h"
#include "util/mutexlock.h"

namespace strata {
namespace stress {

namespace {

constexpr int kMaxIterateWidth = 32;
constexpr int kSnapshotKeys = 4;
constexpr int kMultiGetKeys = 4;

std::string FamilyName(int cf) {
  return cf == 0 ? kDefaultColumnFamilyName : "cf" + std::to_string(cf);
}

}  // namespace

// A snapshot a thread holds, with what it read through it.
struct StressTest::ThreadState {
  int id = 0;
  Random rnd{1};
  int64_t ops = 0;
  const Snapshot* snapshot = nullptr;
  int64_t snapshot_taken_at = 0;
  struct SnapRead {
    int cf;
    int64_t key;
    bool found;
    std::string value;
  };
  std::vector<SnapRead> snap_reads;
};

StressTest::StressTest(const StressFlags& flags)
    : flags_(flags),
      num_cf_(static_cast<int>(flags.column_families)),
      no_overwrite_start_(flags.max_key -
                          flags.max_key * flags.nooverwritepercent / 100),
      writes_durable_(!flags.disable_wal && (flags.sync || !flags.power_loss)),
      env_(Env::Default()) {
  if (flags_.power_loss) {
    fault_env_ = std::make_unique<test::FaultInjectionEnv>(Env::Default());
    env_ = fault_env_.get();
  }
}

StressTest::~StressTest() { CloseDb(); }

test::FaultInjectionEnv* StressTest::fault_env() { return fault_env_.get(); }

Status StressTest::BuildOptions() {
  options_ = Options();
  options_.env = env_;
  options_.create_if_missing = true;
  options_.create_missing_column_families = true;
  options_.merge_operator = NewStressMergeOperator();
  options_.unordered_write = flags_.unordered_write;
  options_.enable_pipelined_write = flags_.enable_pipelined_write;
  options_.use_direct_reads = flags_.use_direct_reads;
  options_.write_buffer_size = static_cast<size_t>(flags_.write_buffer_size);
  options_.target_file_size_base =
      static_cast<uint64_t>(flags_.target_file_size_base);
  options_.max_bytes_for_level_base =
      static_cast<uint64_t>(flags_.max_bytes_for_level_base);
  if (flags_.compression_type == "snappy") {
    options_.compression = kSnappyCompression;
  } else if (flags_.compression_type == "zlib") {
    options_.compression = kZlibCompression;
  } else {
    options_.compression = kNoCompression;
  }
  if (flags_.memtablerep == "vector") {
    options_.memtable_factory = std::make_shared<VectorRepFactory>();
    options_.allow_concurrent_memtable_write = false;
  }
  write_options_ = WriteOptions();
  write_options_.sync = flags_.sync;
  write_options_.disableWAL = flags_.disable_wal;
  return Status::OK();
}

Status StressTest::OpenDb() {
  std::vector<ColumnFamilyDescriptor> families;
  for (int cf = 0; cf < num_cf_; cf++) {
    families.emplace_back(FamilyName(cf), ColumnFamilyOptions(options_));
  }
  Status s =
      DB::Open(DBOptions(options_), flags_.db, families, &handles_, &db_);
  if (!s.ok()) {
    db_ = nullptr;
    handles_.clear();
  }
  return s;
}

Status StressTest::CloseDb() {
  if (db_ == nullptr) return Status::OK();
  for (ColumnFamilyHandle* h : handles_) db_->DestroyColumnFamilyHandle(h);
  handles_.clear();
  Status s = db_->Close();
  delete db_;
  db_ = nullptr;
  return s;
}

void StressTest::AwaitCrashBeforeCommit() {
  // A simulated power loss that began after the DB acknowledged the write
  // (or the sync) may still cut it: the fault-injection Env records a sync
  // when it returns and drops what it had not recorded when the crash
  // began. Only what was acknowledged before the crash began is known to
  // be on disk, so from then on nothing is committed; the slots stay
  // pending, which allows either state.
  if (Crashing()) WaitForCrash();
}

void StressTest::Fail(const std::string& message) {
  // After a simulated power loss began, writes fail on purpose.
  if (Crashing()) WaitForCrash();
  MutexLock l(&print_mu_);
  std::fprintf(stderr, "db_stress: VERIFICATION FAILED: %s\n", message.c_str());
  std::fflush(stderr);
  failed_.store(true);
}

bool StressTest::ReadState(int64_t key, const Status& s, const Slice& value,
                           KeyState* found, bool* wellformed,
                           std::string* error) {
  *wellformed = true;
  if (s.IsNotFound()) {
    *found = KeyState();
    return true;
  }
  if (!s.ok()) {
    *error = s.ToString();
    return false;
  }
  found->deleted = false;
  if (!ParseValue(value, key, &found->base)) {
    *wellformed = false;
    *error = "a value that is not this key's (" + std::to_string(value.size()) +
             " bytes)";
  }
  return true;
}

void StressTest::CheckRead(int cf, int64_t key, const Status& s,
                           const Slice& value, const char* op) {
  KeyState found;
  bool wellformed;
  std::string error;
  const uint32_t slot = expected_->Get(cf, key);
  if (!ReadState(key, s, value, &found, &wellformed, &error)) {
    Fail(std::string(op) + " failed: family " + FamilyName(cf) + " key " +
         std::to_string(key) + ": " + error);
    return;
  }
  const KeyState want = LatestState(slot);
  if (!wellformed || !(found == want)) {
    Fail(std::string(op) + ": family " + FamilyName(cf) + " key " +
         std::to_string(key) + ": expected " + DescribeState(want) + ", got " +
         (wellformed ? DescribeState(found) : error));
  }
}

Status StressTest::VerifyAll(const char* when) {
  uint64_t adopted = 0;
  for (int cf = 0; cf < num_cf_; cf++) {
    std::vector<KeyState> states(static_cast<size_t>(flags_.max_key));
    for (int64_t key = 0; key < flags_.max_key; key++) {
      std::string value;
      const Status s =
          db_->Get(ReadOptions(), handles_[cf], KeyString(key), &value);
      KeyState found;
      bool wellformed;
      std::string error;
      if (!ReadState(key, s, value, &found, &wellformed, &error)) {
        Fail(std::string("verification ") + when + ": Get failed: family " +
             FamilyName(cf) + " key " + std::to_string(key) + ": " + error);
        return Status::Corruption("verification failed");
      }
      const uint32_t slot = expected_->Get(cf, key);
      if (!SlotAccepts(slot, found, wellformed)) {
        Fail(std::string("verification ") + when + ": family " +
             FamilyName(cf) + " key " + std::to_string(key) + ": expected " +
             DescribeSlot(slot) + ", got " +
             (wellformed ? DescribeState(found) : error));
        return Status::Corruption("verification failed");
      }
      const uint32_t adopt = SlotAdopt(found);
      if (adopt != slot) {
        Status ws = expected_->Set(cf, key, adopt);
        if (!ws.ok()) return ws;
        adopted++;
      }
      states[static_cast<size_t>(key)] = found;
    }
    // A scan must show exactly the keys Get found, with the same values.
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), handles_[cf]));
    int64_t next = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      int64_t key;
      if (!ParseKeyString(it->key(), &key) || key < 0 ||
          key >= flags_.max_key) {
        Fail(std::string("verification ") + when + ": family " +
             FamilyName(cf) + ": scan found a key that was never written (" +
             std::to_string(it->key().size()) + " bytes)");
        return Status::Corruption("verification failed");
      }
      for (; next < key; next++) {
        if (!states[static_cast<size_t>(next)].deleted) {
          Fail(std::string("verification ") + when + ": family " +
               FamilyName(cf) + " key " + std::to_string(next) +
               ": Get found it, a scan skipped it");
          return Status::Corruption("verification failed");
        }
      }
      uint32_t base;
      const KeyState want = states[static_cast<size_t>(key)];
      if (want.deleted || !ParseValue(it->value(), key, &base) ||
          base != want.base) {
        Fail(std::string("verification ") + when + ": family " +
             FamilyName(cf) + " key " + std::to_string(key) + ": Get found " +
             DescribeState(want) + ", a scan found another state");
        return Status::Corruption("verification failed");
      }
      next = key + 1;
    }
    if (!it->status().ok()) {
      Fail(std::string("verification ") + when +
           ": scan failed: " + it->status().ToString());
      return Status::Corruption("verification failed");
    }
    for (; next < flags_.max_key; next++) {
      if (!states[static_cast<size_t>(next)].deleted) {
        Fail(std::string("verification ") + when + ": family " +
             FamilyName(cf) + " key " + std::to_string(next) +
             ": Get found it, a scan did not reach it");
        return Status::Corruption("verification failed");
      }
    }
  }
  verified_keys_ += static_cast<uint64_t>(num_cf_ * flags_.max_key);
  std::fprintf(stdout,
               "db_stress: verification %s: %" PRId64
               " keys x %d families OK (%" PRIu64
               " took one of their allowed uncertain states)\n",
               when, flags_.max_key, num_cf_, adopted);
  std::fflush(stdout);
  return Status::OK();
}

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
      s = expected_->Set(cf, key, SlotMarkDurable(slot));
      if (!s.ok()) return s;
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
    Status s = expected_->Set(m.cf, m.key, SlotBeginWrite(slot, next));
    if (!s.ok()) {
      Fail("expected state: " + s.ToString());
      return;
    }
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
    s = expected_->Set(
        m.cf, m.key,
        SlotCommitWrite(expected_->Get(m.cf, m.key), writes_durable_));
    if (!s.ok()) {
      Fail("expected state: " + s.ToString());
      return;
    }
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
    Status s = expected_->Set(
        k.first, k.second,
        SlotBeginWrite(expected_->Get(k.first, k.second), KeyState()));
    if (!s.ok()) return Fail("expected state: " + s.ToString());
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
    s = expected_->Set(
        k.first, k.second,
        SlotCommitWrite(expected_->Get(k.first, k.second), writes_durable_));
    if (!s.ok()) return Fail("expected state: " + s.ToString());
  }
}

void StressTest::DoRead(ThreadState* t, int cf, int64_t key) {
  if (flags_.use_multiget && t->rnd.OneIn(2)) {
    std::vector<std::pair<int, int64_t>> keys;
    std::vector<ColumnFamilyHandle*> hs;
    std::vector<std::string> key_strings;
    for (int i = 0; i < kMultiGetKeys; i++) {
      const int c = i == 0 ? cf : static_cast<int>(t->rnd.Uniform(num_cf_));
      const int64_t k =
          i == 0 ? key : t->rnd.Uniform(static_cast<int>(flags_.max_key));
      keys.emplace_back(c, k);
      hs.push_back(handles_[c]);
      key_strings.push_back(KeyString(k));
    }
    std::vector<Slice> slices(key_strings.begin(), key_strings.end());
    KeyLocks::Guard guard(locks_.get(), keys);
    std::vector<std::string> values;
    std::vector<Status> st = db_->MultiGet(ReadOptions(), hs, slices, &values);
    for (size_t i = 0; i < keys.size(); i++) {
      CheckRead(keys[i].first, keys[i].second, st[i], values[i], "MultiGet");
    }
    return;
  }
  KeyLocks::Guard guard(locks_.get(), {{cf, key}});
  std::string value;
  const Status s =
      db_->Get(ReadOptions(), handles_[cf], KeyString(key), &value);
  CheckRead(cf, key, s, value, "Get");
}

void StressTest::DoBatchRead(ThreadState* t, int64_t key) {
  // No lock: whatever state the key is in, a snapshot shows every family
  // in the same one, as every write reached them in one batch.
  (void)t;
  ReadOptions ro;
  ro.snapshot = db_->GetSnapshot();
  const std::string k = KeyString(key);
  std::vector<Slice> keys(static_cast<size_t>(num_cf_), k);
  std::vector<std::string> values;
  std::vector<Status> st = db_->MultiGet(ro, handles_, keys, &values);
  db_->ReleaseSnapshot(ro.snapshot);
  KeyState first;
  for (int cf = 0; cf < num_cf_; cf++) {
    KeyState found;
    bool wellformed;
    std::string error;
    if (!ReadState(key, st[cf], values[cf], &found, &wellformed, &error) ||
        !wellformed) {
      return Fail("batched read: family " + FamilyName(cf) + " key " +
                  std::to_string(key) + ": " + error);
    }
    if (cf == 0) {
      first = found;
    } else if (!(found == first)) {
      return Fail("batched read at one snapshot: key " + std::to_string(key) +
                  " is " + DescribeState(first) + " in family " +
                  FamilyName(0) + " but " + DescribeState(found) +
                  " in family " + FamilyName(cf));
    }
  }
}

void StressTest::DoIterate(ThreadState* t, int cf, int64_t lo, int64_t hi,
                           bool both_ways) {
  std::vector<std::pair<int, int64_t>> keys;
  for (int64_t k = lo; k < hi; k++) keys.emplace_back(cf, k);
  KeyLocks::Guard guard(locks_.get(), keys);
  std::vector<int64_t> want;
  for (int64_t k = lo; k < hi; k++) {
    if (!LatestState(expected_->Get(cf, k)).deleted) want.push_back(k);
  }
  const std::string lo_key = KeyString(lo);
  const std::string hi_key = KeyString(hi);
  const Slice lo_slice(lo_key), hi_slice(hi_key);
  ReadOptions ro;
  // Bounds, or none and a seek: both must stop at the right keys.
  const bool bounded = t->rnd.OneIn(2);
  if (bounded) {
    ro.iterate_lower_bound = &lo_slice;
    ro.iterate_upper_bound = &hi_slice;
  }
  std::unique_ptr<Iterator> it(db_->NewIterator(ro, handles_[cf]));
  const std::string where = "family " + FamilyName(cf) + " keys [" +
                            std::to_string(lo) + ", " + std::to_string(hi) +
                            ")" + (bounded ? " (bounds)" : "");
  // Checks the key and value at it against want[i].
  auto check_at = [&](size_t i, const char* dir) -> bool {
    int64_t key;
    uint32_t base;
    if (!ParseKeyString(it->key(), &key) || key != want[i] ||
        !ParseValue(it->value(), key, &base) ||
        base != LatestState(expected_->Get(cf, key)).base) {
      std::string got =
          "a key of " + std::to_string(it->key().size()) + " bytes";
      if (ParseKeyString(it->key(), &key)) {
        got = "key " + std::to_string(key) +
              (ParseValue(it->value(), key, &base)
                   ? " with base " + std::to_string(base)
                   : " with a value not of that key") +
              " (expected there: " +
              DescribeState(LatestState(expected_->Get(cf, key))) + ")";
      }
      Fail(std::string("iterator ") + dir + " over " + where +
           ": expected key " + std::to_string(want[i]) + " with " +
           DescribeState(LatestState(expected_->Get(cf, want[i]))) + ", got " +
           got);
      return false;
    }
    return true;
  };
  auto in_range = [&]() {
    return it->Valid() && (bounded || it->key().compare(hi_slice) < 0);
  };

  size_t i = 0;
  for (it->Seek(lo_slice); in_range(); it->Next(), i++) {
    if (i >= want.size()) {
      return Fail("iterator forward over " + where + ": found key beyond " +
                  "the " + std::to_string(want.size()) + " expected");
    }
    if (!check_at(i, "forward")) return;
  }
  if (!it->status().ok()) return Fail("iterator: " + it->status().ToString());
  if (i != want.size()) {
    return Fail("iterator forward over " + where + ": missed key " +
                std::to_string(want[i]));
  }
  if (!both_ways) return;

  size_t n = 0;
  if (bounded && t->rnd.OneIn(2)) {
    it->SeekToLast();
  } else {
    it->SeekForPrev(KeyString(hi - 1));
  }
  for (; it->Valid() && it->key().compare(lo_slice) >= 0; it->Prev(), n++) {
    if (n >= want.size()) {
      return Fail("iterator backward over " + where + ": found extra keys");
    }
    if (!check_at(want.size() - 1 - n, "backward")) return;
  }
  if (!it->status().ok()) return Fail("iterator: " + it->status().ToString());
  if (n != want.size()) {
    return Fail("iterator backward over " + where + ": missed key " +
                std::to_string(want[want.size() - 1 - n]));
  }

  // A seek into the middle, then a step back: a change of direction.
  const int64_t mid = lo + t->rnd.Uniform(static_cast<int>(hi - lo));
  const size_t at = static_cast<size_t>(
      std::lower_bound(want.begin(), want.end(), mid) - want.begin());
  it->Seek(KeyString(mid));
  if (at < want.size()) {
    if (!in_range()) {
      return Fail("iterator Seek(" + std::to_string(mid) + ") over " + where +
                  ": expected key " + std::to_string(want[at]) + ", got none");
    }
    if (!check_at(at, "after Seek")) return;
    it->Prev();
    const bool before = it->Valid() && it->key().compare(lo_slice) >= 0;
    if (at == 0) {
      if (before) {
        return Fail("iterator Seek then Prev over " + where +
                    ": found a key below " + std::to_string(want[0]));
      }
    } else if (!before) {
      return Fail("iterator Seek then Prev over " + where + ": missed key " +
                  std::to_string(want[at - 1]));
    } else if (!check_at(at - 1, "Seek then Prev")) {
      return;
    }
  } else if (in_range()) {
    return Fail("iterator Seek(" + std::to_string(mid) + ") over " + where +
                ": found a key past the last expected");
  }
}

void StressTest::TakeSnapshot(ThreadState* t) {
  std::vector<std::pair<int, int64_t>> keys;
  for (int i = 0; i < kSnapshotKeys; i++) {
    keys.emplace_back(static_cast<int>(t->rnd.Uniform(num_cf_)),
                      t->rnd.Uniform(static_cast<int>(flags_.max_key)));
  }
  KeyLocks::Guard guard(locks_.get(), keys);
  t->snapshot = db_->GetSnapshot();
  t->snapshot_taken_at = t->ops;
  t->snap_reads.clear();
  ReadOptions ro;
  ro.snapshot = t->snapshot;
  for (const auto& k : keys) {
    std::string value;
    const Status s =
        db_->Get(ro, handles_[k.first], KeyString(k.second), &value);
    CheckRead(k.first, k.second, s, value, "Get at a new snapshot");
    t->snap_reads.push_back({k.first, k.second, s.ok(), value});
  }
}

void StressTest::CheckSnapshot(ThreadState* t) {
  ReadOptions ro;
  ro.snapshot = t->snapshot;
  for (const auto& r : t->snap_reads) {
    std::string value;
    const Status s = db_->Get(ro, handles_[r.cf], KeyString(r.key), &value);
    if (!(s.ok() || s.IsNotFound()) || s.ok() != r.found ||
        (s.ok() && value != r.value)) {
      Fail("snapshot changed: family " + FamilyName(r.cf) + " key " +
           std::to_string(r.key) + " read " +
           (r.found ? "a value" : "nothing") + " when the snapshot was new, " +
           (s.ok() ? "another value" : s.ToString()) + " " +
           std::to_string(t->ops - t->snapshot_taken_at) + " ops later");
      break;
    }
  }
  db_->ReleaseSnapshot(t->snapshot);
  t->snapshot = nullptr;
}

void StressTest::OneOp(ThreadState* t) {
  Random& rnd = t->rnd;
  const int cf = static_cast<int>(rnd.Uniform(num_cf_));
  const int64_t key = rnd.Uniform(static_cast<int>(flags_.max_key));

  if (flags_.flush_one_in > 0 &&
      rnd.OneIn(static_cast<int>(flags_.flush_one_in))) {
    Status s = db_->Flush(FlushOptions(), handles_[cf]);
    if (!s.ok()) return Fail("Flush failed: " + s.ToString());
  }
  if (flags_.compact_range_one_in > 0 &&
      rnd.OneIn(static_cast<int>(flags_.compact_range_one_in))) {
    const std::string b = KeyString(key);
    const std::string e = KeyString(key + 1 + rnd.Uniform(1000));
    const Slice bs(b), es(e);
    Status s = db_->CompactRange(CompactRangeOptions(), handles_[cf], &bs, &es);
    if (!s.ok()) return Fail("CompactRange failed: " + s.ToString());
  }
  if (t->id == 0 && !writes_durable_ && flags_.sync_wal_one_in > 0 &&
      rnd.OneIn(static_cast<int>(flags_.sync_wal_one_in))) {
    Status s = SyncPoint();
    if (!s.ok()) return Fail("sync point failed: " + s.ToString());
  }
  if (!flags_.unordered_write) {
    if (t->snapshot != nullptr &&
        t->ops - t->snapshot_taken_at >= flags_.snapshot_hold_ops) {
      CheckSnapshot(t);
    } else if (t->snapshot == nullptr && flags_.acquire_snapshot_one_in > 0 &&
               rnd.OneIn(static_cast<int>(flags_.acquire_snapshot_one_in))) {
      TakeSnapshot(t);
    }
  }

  int64_t r = rnd.Uniform(100);
  if ((r -= flags_.readpercent) < 0) {
    if (flags_.test_batches_snapshots && rnd.OneIn(2)) {
      DoBatchRead(t, key);
    } else {
      DoRead(t, cf, key);
    }
  } else if ((r -= flags_.prefixpercent) < 0) {
    const int64_t lo = key & ~int64_t{7};
    DoIterate(t, cf, lo, std::min(flags_.max_key, lo + 8), false);
  } else if ((r -= flags_.writepercent) < 0) {
    DoWrite(t, cf, key, false);
  } else if ((r -= flags_.delpercent) < 0) {
    DoWrite(t, cf, key, true);
  } else if ((r -= flags_.delrangepercent) < 0) {
    DoDeleteRange(t, cf, key);
  } else {
    const int64_t hi =
        std::min(flags_.max_key, key + 1 + rnd.Uniform(kMaxIterateWidth));
    DoIterate(t, cf, key, hi, true);
  }
}

void StressTest::RunThread(ThreadState* t) {
  const int64_t n = t->ops;
  for (t->ops = 0; t->ops < n && !failed_.load(); t->ops++) {
    OneOp(t);
  }
  if (t->snapshot != nullptr) {
    if (!failed_.load()) CheckSnapshot(t);
    if (t->snapshot != nullptr) db_->ReleaseSnapshot(t->snapshot);
    t->snapshot = nullptr;
  }
  ops_done_ += static_cast<uint64_t>(t->ops);
}

Status StressTest::Run() {
  Status s = BuildOptions();
  if (!s.ok()) return s;
  if (flags_.destroy_db_initially) {
    s = DestroyDB(flags_.db, options_);
    if (!s.ok()) return s;
  }
  const std::string expected_dir = flags_.expected_values_dir.empty()
                                       ? flags_.db + "_expected"
                                       : flags_.expected_values_dir;
  s = ExpectedState::Open(Env::Default(), expected_dir, num_cf_, flags_.max_key,
                          flags_.destroy_db_initially, &expected_);
  if (!s.ok()) return s;
  locks_ = std::make_unique<KeyLocks>(
      num_cf_, flags_.max_key, static_cast<int>(flags_.log2_keys_per_lock));

  s = OpenDb();
  if (!s.ok()) return s;
  s = VerifyAll("after open");
  if (!s.ok() || flags_.verify_only) {
    const Status c = CloseDb();
    return s.ok() ? c : s;
  }
  if (flags_.crash_after_ms > 0) StartCrashTimer(flags_.crash_after_ms);

  const int64_t phases = flags_.reopen + 1;
  const uint64_t start = env_->NowMicros();
  for (int64_t phase = 0; phase < phases && !failed_.load(); phase++) {
    std::vector<ThreadState> states(static_cast<size_t>(flags_.threads));
    std::vector<std::thread> threads;
    for (int i = 0; i < flags_.threads; i++) {
      ThreadState& t = states[static_cast<size_t>(i)];
      t.id = i;
      t.rnd = Random(static_cast<uint32_t>(flags_.seed) * 131 +
                     static_cast<uint32_t>(phase * 1000 + i) + 1);
      t.ops = flags_.ops_per_thread / phases +
              (phase == phases - 1 ? flags_.ops_per_thread % phases : 0);
      threads.emplace_back([this, &t] { RunThread(&t); });
    }
    for (std::thread& th : threads) th.join();
    if (failed_.load()) break;
    if (!writes_durable_) {
      s = SyncPoint();
      if (!s.ok()) return s;
    }
    if (phase < phases - 1) {
      s = CloseDb();
      if (s.ok()) s = OpenDb();
      if (s.ok()) s = VerifyAll("after reopen");
      if (!s.ok()) return s;
    }
  }
  if (failed_.load()) {
    CloseDb();
    return Status::Corruption("verification failed (see above)");
  }
  s = VerifyAll("at the end");
  const Status c = CloseDb();
  if (s.ok()) s = c;
  const double secs = static_cast<double>(env_->NowMicros() - start) / 1e6;
  std::fprintf(stdout,
               "db_stress: %" PRIu64 " operations in %.1f s, %" PRIu64
               " key verifications\n",
               ops_done_.load(), secs, verified_keys_.load());
  return s;
}

}  // namespace stress
}  // namespace strata
