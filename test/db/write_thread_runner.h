// WriterRun: drives a WriteThread over a FakeCommitEnv from one thread per
// writer, for the tests of the write modes. Group membership is made
// deterministic without sleeping: StartQueued holds writer 0 inside
// PrepareGroup while writers 1..n-1 join the queue one by one (the join
// callback says when), so that they form the next group once Release()d.
//
// Every wait is bounded (a minute); a writer that does not return by then
// is a hung write thread, and the run aborts the process rather than hang
// the test.
//
// Thread safety: the control methods are called by the test's thread;
// writers run on threads of their own.

#ifndef STRATA_TEST_DB_WRITE_THREAD_RUNNER_H_
#define STRATA_TEST_DB_WRITE_THREAD_RUNNER_H_

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "db/write_thread.h"
#include "strata/write_batch.h"
#include "test/db/fake_commit_env.h"

namespace strata {

// A batch of `puts` Puts (distinct keys); puts may be 0 (an empty batch).
std::unique_ptr<WriteBatch> BatchWithPuts(int puts);

WriteThread::Options ParallelOptions();
WriteThread::Options PipelinedOptions();
WriteThread::Options UnorderedOptions();
// Unordered with unordered_snapshot_safe; the env's Publish then covers
// groups (FakeCommitEnv::set_publish_covers_groups), which WriterRun sets.
WriteThread::Options SnapshotSafeOptions();

class WriterRun;

// Parks one writer in the before-insert hook of the unordered modes (set
// on run's thread by the constructor, so before any Write starts) until
// Resume().
class InsertPark {
 public:
  InsertPark(WriterRun& run, const WriteThread::Writer* w);
  // True once the writer is parked (false after a minute).
  bool WaitArrived() { return arrived_.WaitFor(1); }
  void Resume() { let_go_.Increment(); }

 private:
  Counter arrived_;
  Counter let_go_;
};

// Writers first..last of run (all of group `group`) each inserted their
// own batch exactly once, through InsertMember, on their own threads,
// numbered from their own sequence; writers without updates did not call
// InsertMember at all.
void ExpectMemberInserts(WriterRun& run, size_t group, size_t first,
                         size_t last);

class WriterRun {
 public:
  explicit WriterRun(const WriteThread::Options& options);
  // Joins every writer still running (aborts if one hangs).
  ~WriterRun();

  WriterRun(const WriterRun&) = delete;
  WriterRun& operator=(const WriterRun&) = delete;

  // Adds writer number size() for batch (owned; null: no batch). Returns
  // the writer, so that hooks can recognise it before it runs.
  WriteThread::Writer* Add(std::unique_ptr<WriteBatch> batch,
                           const WriteOptions& options = WriteOptions());
  // Adds one writer per entry of puts, each with a batch of that many
  // Puts; a negative entry gives a writer without a batch.
  void AddWriters(const std::vector<int>& puts);
  size_t size() const { return writers_.size(); }

  // Writer 0 starts and is held in PrepareGroup; then writers 1..n-1 (all
  // by default) start one at a time, each once the previous one is
  // queued. Release() lets writer 0's group go on. Add every writer
  // before starting any.
  void StartQueued(size_t n = static_cast<size_t>(-1));
  void Release() { env_.Release(); }
  // StartQueued(), Release(), JoinAll(): writer 0 commits alone, the
  // others in the groups that form behind it.
  void RunQueued() {
    StartQueued();
    Release();
    JoinAll();
  }
  // Writer i starts on its own thread.
  void Start(size_t i);
  // Writer i's Write returned (false after a minute).
  bool WaitReturned(size_t i);
  // Waits for every started writer and joins its thread.
  void JoinAll();

  FakeCommitEnv& env() { return env_; }
  WriteThread& thread() { return thread_; }
  WriteThread::Writer& writer(size_t i) { return *writers_[i]; }
  uint64_t count(size_t i) const;
  std::thread::id thread_id(size_t i) const { return ids_[i]; }
  bool returned(size_t i);
  // When writer i's Write returned, the env had recorded an insert of its
  // batch (as of that moment).
  bool inserted_at_return(size_t i);
  // The newest sequence the env had published when writer i returned.
  SequenceNumber published_at_return(size_t i);
  // Position of w among the writers, or -1.
  int IndexOf(const WriteThread::Writer* w) const;

 private:
  FakeCommitEnv env_;
  WriteThread thread_;
  Counter joined_;
  std::vector<std::unique_ptr<WriteBatch>> batches_;
  std::vector<std::unique_ptr<WriteThread::Writer>> writers_;
  std::vector<std::thread> threads_;
  std::vector<std::thread::id> ids_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<bool> returned_;                       // guarded by mu_
  std::vector<bool> inserted_at_return_;             // guarded by mu_
  std::vector<SequenceNumber> published_at_return_;  // guarded by mu_
};

}  // namespace strata

#endif  // STRATA_TEST_DB_WRITE_THREAD_RUNNER_H_
