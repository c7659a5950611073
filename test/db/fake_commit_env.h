// FakeCommitEnv: the WriteThread seam without a DB. It records what every
// group looked like at each step of the commit protocol, logs the steps of
// all groups in the order they happened (the modes overlap groups), can
// fail a chosen group at a chosen step or a chosen member's insert, can
// hold the next group inside PrepareGroup so that a test can queue writers
// behind it in a known order, and runs test hooks inside ApplyMemTable and
// InsertMember (where a test may block a step).
//
// Groups are told apart by their leader while they run: a record belongs
// to the newest group whose leader (or member) is the writer at hand, as
// a Writer cannot be reused before its group completes.
//
// Thread safety: the CommitEnv methods are called by WriteThread leaders
// and members; the inspection and control methods may be called from any
// thread. Hooks and FailInsert must be set before writes start.

#ifndef STRATA_TEST_DB_FAKE_COMMIT_ENV_H_
#define STRATA_TEST_DB_FAKE_COMMIT_ENV_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <ostream>
#include <thread>
#include <utility>
#include <vector>

#include "db/write_thread.h"

namespace strata {

enum class CommitStep { kNone, kPrepare, kWAL, kMemTable };
// For gtest's messages about parameterised tests.
void PrintTo(CommitStep step, std::ostream* os);

// What the fake saw of one group. Per-member vectors are in queue order.
struct GroupRecord {
  std::vector<WriteThread::Writer*> members;  // identity only; may dangle
  std::vector<SequenceNumber> sequences;      // as stamped for ApplyMemTable
  std::vector<uint64_t> counts;
  std::vector<uint64_t> bytes;
  std::vector<bool> sync, disable_wal, no_slowdown;
  // As allocated (0 for a group that failed in PrepareGroup).
  SequenceNumber first = 0;
  SequenceNumber last = 0;
  uint64_t total_count = 0;
  uint64_t total_bytes = 0;
  bool need_sync = false;
  bool wal_written = false;
  bool memtable_applied = false;
  bool published = false;
  // A step or a member's insert failed before the group was published.
  bool failed = false;
};

// Counts events (callbacks, hook calls) and lets a thread wait for a
// number of them -- for a minute at most, so that a bug fails the test
// instead of hanging it.
class Counter {
 public:
  void Increment();
  // True once at least n events happened; false after the timeout.
  bool WaitFor(int n);
  int value();
  std::function<void(WriteThread::Writer*)> Callback() {
    return [this](WriteThread::Writer*) { Increment(); };
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_ = 0;
};

class FakeCommitEnv : public WriteThread::CommitEnv {
 public:
  Status PrepareGroup(WriteThread::WriteGroup* group) override;
  SequenceNumber AllocateSequence(uint64_t count) override;
  Status WriteWAL(WriteThread::WriteGroup* group) override;
  Status ApplyMemTable(WriteThread::WriteGroup* group) override;
  // False when parallel inserts are not allowed or, as the DB, when a
  // member's batch holds a Merge.
  bool CanInsertInParallel(const WriteThread::WriteGroup& group) override;
  Status InsertMember(WriteThread::Writer* w) override;
  void MemTableWritesPending(uint64_t n) override { pending_ += n; }
  void MemTableWriteDone() override { pending_--; }
  void Publish(SequenceNumber last_sequence) override;
  // The steady clock (or, once StopClock() was called, the moment it was
  // stopped), plus the sync time set with set_sync_micros for every synced
  // group's WriteWAL so far (a sync that takes that long), plus what
  // AdvanceMicros added. Counted in clock_reads() before the clock is read.
  uint64_t NowMicros() override;

  // One batch that reached the memtable (through ApplyMemTable, or through
  // InsertMember if by_member), in call order.
  struct Insert {
    WriteThread::Writer* writer;  // identity only; may dangle
    SequenceNumber sequence;
    uint64_t count;
    std::thread::id thread;
    // The newest published sequence when the insert ran.
    SequenceNumber published;
    size_t group;  // index into groups()
    bool by_member;
  };
  std::vector<Insert> inserts();

  // The steps of every group, in the order they happened.
  struct Event {
    enum Kind {
      kPrepare,
      kWAL,
      kApplyBegin,
      kApplyEnd,
      kInsertBegin,  // InsertMember
      kInsertEnd,
      kPublish,
    };
    Kind kind;
    size_t group;                 // index into groups()
    WriteThread::Writer* writer;  // inserts: the member; may dangle
    // Inserts: the member's first sequence; publish: the published one.
    SequenceNumber sequence;
    // Sequence numbers whose inserts had ended by then (successful ones).
    uint64_t inserted;
    // Announced memtable writes not yet done, then.
    uint64_t pending;
  };
  std::vector<Event> events();
  // Waits until done(events()) holds; false after a minute.
  bool WaitForEvents(std::function<bool(const std::vector<Event>&)> done);
  // Waits until an event of this kind and group was logged.
  bool WaitForEvent(Event::Kind kind, size_t group);
  // An event of this kind and group was logged.
  static bool Has(const std::vector<Event>& events, Event::Kind kind,
                  size_t group);
  // Its position in events, or events.size() if none.
  static size_t Find(const std::vector<Event>& events, Event::Kind kind,
                     size_t group);
  // How many events of this kind and group were logged.
  static size_t Count(const std::vector<Event>& events, Event::Kind kind,
                      size_t group);

  void set_parallel_allowed(bool allowed) { parallel_allowed_ = allowed; }
  // A Publish marks the oldest group not yet published; with covers, also
  // every later one whose numbers it reaches (the snapshot-safe unordered
  // mode publishes a run of groups at once). Set before writes start.
  void set_publish_covers_groups(bool covers) { publish_covers_ = covers; }
  // Announced memtable writes not yet done.
  uint64_t pending() const { return pending_.load(); }
  // What a sync takes on the fake clock (the write thread bounds its wait
  // for synced writers by half of it).
  void set_sync_micros(uint64_t micros) { sync_micros_ = micros; }
  // From now on the fake clock moves only through syncs and AdvanceMicros,
  // so that a test places the end of a timed wait exactly, whatever the
  // machine's load.
  void StopClock();
  void AdvanceMicros(uint64_t micros) { advanced_micros_ += micros; }
  // Every NowMicros call so far: a read counted after an AdvanceMicros
  // returned saw the advanced clock.
  Counter& clock_reads() { return clock_reads_; }

  // Run on the calling thread, outside the fake's locks, so they may
  // block: in ApplyMemTable and InsertMember, between their begin and end
  // events.
  void SetApplyHook(std::function<void(size_t group)> hook) {
    apply_hook_ = std::move(hook);
  }
  void SetInsertHook(std::function<void(WriteThread::Writer*)> hook) {
    insert_hook_ = std::move(hook);
  }

  // The next PrepareGroup call blocks (after recording the group) until
  // Release(). WaitHeld: true once a leader is held (false after a minute).
  void ArmHold();
  bool WaitHeld();
  void Release();

  // Group number `index` (0-based, in commit order) fails at `step` with
  // IOError("injected", index).
  void FailGroup(size_t index, CommitStep step);
  // InsertMember(w) fails with IOError("injected insert").
  void FailInsert(WriteThread::Writer* w) { fail_insert_ = w; }

  std::vector<GroupRecord> groups();
  std::vector<SequenceNumber> published();
  // Two groups were inside the env at once (the one-leader rule broke; the
  // pipelined mode does so on purpose).
  bool overlapped() const { return overlapped_.load(); }

 private:
  void Enter();
  void Leave();
  // The record of the running group led by / holding w.
  size_t GroupOfLeader(WriteThread::Writer* leader);
  size_t GroupOfMember(WriteThread::Writer* w);
  void Log(Event::Kind kind, size_t group, WriteThread::Writer* w,
           SequenceNumber sequence);
  Status Fault(size_t index, CommitStep step);
  void HoldIfArmed();

  std::mutex mu_;
  std::vector<GroupRecord> groups_;
  std::vector<SequenceNumber> published_;
  std::vector<Insert> inserts_;
  std::vector<Event> events_;
  std::condition_variable events_cv_;  // signalled on every event
  uint64_t inserted_ = 0;
  // Groups before this one are published or failed.
  size_t first_unpublished_ = 0;
  size_t fail_index_ = static_cast<size_t>(-1);
  bool publish_covers_ = false;
  CommitStep fail_step_ = CommitStep::kNone;

  // Touched only by the leader of the WAL queue.
  SequenceNumber last_allocated_ = 0;

  std::atomic<bool> parallel_allowed_{true};
  std::atomic<uint64_t> pending_{0};
  WriteThread::Writer* fail_insert_ = nullptr;
  std::function<void(size_t)> apply_hook_;
  std::function<void(WriteThread::Writer*)> insert_hook_;

  std::atomic<uint64_t> synced_micros_{0};
  std::atomic<uint64_t> stopped_at_micros_{0};  // 0: the clock runs
  std::atomic<uint64_t> advanced_micros_{0};
  Counter clock_reads_;
  std::atomic<uint64_t> sync_micros_{0};
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
