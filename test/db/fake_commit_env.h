// FakeCommitEnv: the WriteThread seam without a DB. It records what every
// group looked like at each step of the commit protocol, can fail a chosen
// group at a chosen step, and can hold the next group inside PrepareGroup
// so that a test can queue writers behind it in a known order.
//
// Thread safety: the CommitEnv methods are called by WriteThread leaders;
// the inspection and control methods may be called from any thread.

#ifndef STRATA_TEST_DB_FAKE_COMMIT_ENV_H_
#define STRATA_TEST_DB_FAKE_COMMIT_ENV_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "db/write_thread.h"

namespace strata {

enum class CommitStep { kNone, kPrepare, kWAL, kMemTable };

// What the fake saw of one group. Per-member vectors are in queue order.
struct GroupRecord {
  std::vector<WriteThread::Writer*> members;  // identity only; may dangle
  std::vector<SequenceNumber> sequences;      // as stamped for ApplyMemTable
  std::vector<uint64_t> counts;
  std::vector<uint64_t> bytes;
  std::vector<bool> sync, disable_wal, no_slowdown;
  SequenceNumber first = 0;
  SequenceNumber last = 0;
  uint64_t total_count = 0;
  uint64_t total_bytes = 0;
  bool need_sync = false;
  bool wal_written = false;
  bool memtable_applied = false;
  bool published = false;
};

class FakeCommitEnv : public WriteThread::CommitEnv {
 public:
  Status PrepareGroup(WriteThread::WriteGroup* group) override;
  SequenceNumber AllocateSequence(uint64_t count) override;
  Status WriteWAL(WriteThread::WriteGroup* group) override;
  Status ApplyMemTable(WriteThread::WriteGroup* group) override;
  // The parallel and unordered modes' steps: recorded, never failed.
  bool CanInsertInParallel(const WriteThread::WriteGroup& group) override {
    return parallel_allowed_.load();
  }
  Status InsertMember(WriteThread::Writer* w) override;
  void MemTableWritesPending(uint64_t n) override { pending_ += n; }
  void MemTableWriteDone() override { pending_--; }
  void Publish(SequenceNumber last_sequence) override;

  // What InsertMember saw, in call order.
  struct Insert {
    WriteThread::Writer* writer;  // identity only; may dangle
    SequenceNumber sequence;
    std::thread::id thread;
    // The newest published sequence when the insert ran.
    SequenceNumber published;
  };
  std::vector<Insert> inserts();
  void set_parallel_allowed(bool allowed) { parallel_allowed_ = allowed; }
  uint64_t pending() const { return pending_.load(); }

  // The next PrepareGroup call blocks (after recording the group) until
  // Release(). WaitHeld: true once a leader is held (false after a minute).
  void ArmHold();
  bool WaitHeld();
  void Release();

  // Group number `index` (0-based, in commit order) fails at `step` with
  // IOError("injected", index).
  void FailGroup(size_t index, CommitStep step);

  std::vector<GroupRecord> groups();
  std::vector<SequenceNumber> published();
  // Two groups were inside the env at once (the one-leader rule broke).
  bool overlapped() const { return overlapped_.load(); }

 private:
  void Enter();
  void Leave();
  Status Fault(size_t index, CommitStep step);
  void HoldIfArmed();

  std::mutex mu_;
  std::vector<GroupRecord> groups_;
  std::vector<SequenceNumber> published_;
  size_t fail_index_ = static_cast<size_t>(-1);
  CommitStep fail_step_ = CommitStep::kNone;

  // Touched only by the current leader.
  SequenceNumber last_allocated_ = 0;

  std::vector<Insert> inserts_;
  std::atomic<bool> parallel_allowed_{true};
  std::atomic<uint64_t> pending_{0};

  std::atomic<int> in_env_{0};
  std::atomic<bool> overlapped_{false};

  std::mutex hold_mu_;
  std::condition_variable hold_cv_;
  bool hold_armed_ = false;
  bool holding_ = false;
  bool released_ = false;
};

}  // namespace strata

#endif  // STRATA_TEST_DB_FAKE_COMMIT_ENV_H_
