// StressTest: one db_stress run. Opens the DB (destroying it and the
// expected state first if asked), verifies every key of every family
// against the expected state (expected_state.h), then runs --threads
// threads of random operations, closing, reopening and verifying the DB
// --reopen times along the way, and verifies once more at the end.
//
// Every operation on a key holds that key's lock (KeyLocks) from before
// its expected-state slot is marked pending until the slot is committed,
// so reads under the same lock know exactly what they must see. Writes
// also hold sync_mu_ shared; a sync point (SyncWAL, or Flush when the WAL
// is off) holds it exclusively, so every write it covers has been
// acknowledged and can be marked durable. Every operation holds
// families_mu_ shared; clearing a family (dropping it and creating it
// again, which replaces its handle) holds it exclusively. The lock order
// is families_mu_, sync_mu_, key locks.
//
// The code is in three files: stress_test.cc (open, verify, the operation
// mix, Run), stress_reads.cc and stress_writes.cc.
//
// A failure (a read that does not match, an iterator that skips or
// invents a key, an operation that fails) is printed with the family,
// key, expected and found state; the run stops and Run returns
// Corruption.
//
// Thread safety: Run is called once, from one thread.

#ifndef STRATA_TOOLS_DB_STRESS_STRESS_TEST_H_
#define STRATA_TOOLS_DB_STRESS_STRESS_TEST_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "port/port.h"
#include "strata/db.h"
#include "strata/options.h"
#include "test/util/fault_injection_env.h"
#include "tools/db_stress/expected_state.h"
#include "tools/db_stress/stress_flags.h"
#include "util/random.h"

namespace strata {
namespace stress {

class StressTest {
 public:
  explicit StressTest(const StressFlags& flags);
  ~StressTest();

  Status Run();

  // The Env a power loss is simulated on (null without --power_loss).
  test::FaultInjectionEnv* fault_env();

 private:
  struct ThreadState;
  struct Mutation {
    enum Kind { kPut, kMerge, kDelete, kSingleDelete };
    int cf;
    int64_t key;
    Kind kind;
    uint32_t arg;  // the base of a put, the delta of a merge
  };

  Status BuildOptions();
  Status OpenDb();
  Status CloseDb();
  // Reads every key of every family, checks it against the expected
  // state, then adopts what it found; then scans every family.
  Status VerifyAll(const char* when);
  void RunThread(ThreadState* t);
  // A sync point: every acknowledged write is durable after it.
  Status SyncPoint();

  void OneOp(ThreadState* t);
  void DoRead(ThreadState* t, int cf, int64_t key);
  void DoBatchRead(ThreadState* t, int64_t key);
  void DoWrite(ThreadState* t, int cf, int64_t key, bool remove);
  void DoDeleteRange(ThreadState* t, int cf, int64_t key);
  void DoIterate(ThreadState* t, int cf, int64_t lo, int64_t hi,
                 bool both_ways);
  void TakeSnapshot(ThreadState* t);
  void CheckSnapshot(ThreadState* t);
  // Drops a family other than the default and creates it again (empty);
  // its handle and generation change.
  void ClearFamily(ThreadState* t);

  // Applies muts (distinct keys, their locks held) as one batch or one
  // call each, around the expected state's begin and commit.
  void Apply(const std::vector<Mutation>& muts, bool as_batch);
  // Checks a read of (cf, key) against its latest expected state.
  void CheckRead(int cf, int64_t key, const Status& s, const Slice& value,
                 const char* op);
  // found from a read result; false if it is neither a value of key nor
  // NotFound (*error set when the read itself failed).
  bool ReadState(int64_t key, const Status& s, const Slice& value,
                 KeyState* found, bool* wellformed, std::string* error);
  // Never returns once a crash has begun (see the definition).
  void AwaitCrashBeforeCommit();
  void Fail(const std::string& message);
  bool NoOverwrite(int64_t key) const { return key >= no_overwrite_start_; }

  const StressFlags flags_;
  const int num_cf_;
  const int64_t no_overwrite_start_;
  // Whether an acknowledged write survives a crash at once (the WAL is on,
  // and either writes are synced or only the process, not the machine,
  // crashes).
  const bool writes_durable_;

  std::unique_ptr<test::FaultInjectionEnv> fault_env_;
  Env* env_;
  Options options_;
  WriteOptions write_options_;
  DB* db_ = nullptr;
  std::vector<ColumnFamilyHandle*> handles_;
  std::unique_ptr<ExpectedState> expected_;
  std::unique_ptr<KeyLocks> locks_;
  port::RWMutex sync_mu_;
  port::RWMutex families_mu_;
  // A clear waits for families_mu_: other threads hold off taking it.
  std::atomic<bool> clear_waiting_{false};
  // Per family, how many times it was cleared: a snapshot taken before a
  // clear cannot be re-read through the new handle.
  std::vector<uint64_t> generation_;

  std::atomic<bool> failed_{false};
  port::Mutex print_mu_;
  std::atomic<uint64_t> ops_done_{0};
  std::atomic<uint64_t> verified_keys_{0};
  std::atomic<uint64_t> families_cleared_{0};
};

// A thread's random source and operation count, and the snapshot it
// holds with what it read through it.
struct StressTest::ThreadState {
  int id = 0;
  Random rnd{1};
  int64_t ops = 0;
  const Snapshot* snapshot = nullptr;
  int64_t snapshot_taken_at = 0;
  struct SnapRead {
    int cf;
    uint64_t generation;  // of the family when read
    int64_t key;
    bool found;
    std::string value;
  };
  std::vector<SnapRead> snap_reads;
};

// "default", "cf1", "cf2", ...
std::string FamilyName(int cf);

}  // namespace stress
}  // namespace strata

#endif  // STRATA_TOOLS_DB_STRESS_STRESS_TEST_H_
