#include "tools/db_stress/stress_test.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <thread>

#include "strata/iterator.h"
#include "strata/memtablerep.h"
#include "tools/db_stress/crash.h"
#include "tools/db_stress/values.h"
#include "util/mutexlock.h"

namespace strata {
namespace stress {

namespace {

constexpr int kMaxIterateWidth = 32;

}  // namespace

std::string FamilyName(int cf) {
  return cf == 0 ? kDefaultColumnFamilyName : "cf" + std::to_string(cf);
}

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
  options_.unordered_write_snapshot_safe = flags_.unordered_write_snapshot_safe;
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
  generation_.assign(static_cast<size_t>(num_cf_), 0);
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
  for (ColumnFamilyHandle* h : handles_) {
    if (h != nullptr) db_->DestroyColumnFamilyHandle(h);
  }
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
        expected_->Set(cf, key, adopt);
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

void StressTest::OneOp(ThreadState* t) {
  Random& rnd = t->rnd;
  if (t->id == 0 && flags_.clear_column_family_one_in > 0 &&
      rnd.OneIn(static_cast<int>(flags_.clear_column_family_one_in))) {
    ClearFamily(t);
  }
  while (clear_waiting_.load(std::memory_order_acquire)) {
    std::this_thread::yield();
  }
  ReadLock families(&families_mu_);
  if (failed_.load()) return;  // a failed clear may have left no handle
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
    ReadLock families(&families_mu_);
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
               " key verifications, %" PRIu64 " families cleared\n",
               ops_done_.load(), secs, verified_keys_.load(),
               families_cleared_.load());
  return s;
}

}  // namespace stress
}  // namespace strata
