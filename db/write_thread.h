// WriteThread: turns concurrent DB::Write calls into write groups.
//
// Every writer links itself onto a lock-free queue. The writer at the head
// becomes the group's leader: it takes the compatible writers queued behind
// it (in queue order, never reordered) into a WriteGroup and commits the
// whole group through a CommitEnv -- one WAL record and at most one sync for
// many writes. The other members (followers) just wait to be told the
// outcome. When the group is done the leader wakes the followers and hands
// leadership to the oldest writer still queued.
//
// Commit protocol of a group, run by its leader, one group at a time:
//   PrepareGroup -> AllocateSequence -> WriteWAL (unless disable_wal)
//     -> memtable inserts -> Publish(last_sequence)
// The first step that fails ends the protocol: later steps are skipped,
// Publish is never called, and every member gets the failing status.
// How the memtable inserts run depends on the mode (docs/write_path.md):
//   - serial: the leader inserts every batch (ApplyMemTable);
//   - parallel (Options::parallel_memtable, for a group of several
//     writers that CanInsertInParallel): every member inserts its own
//     batch (InsertMember, concurrently) on its own thread; the last to
//     finish publishes the group and completes it, so a partial group is
//     never visible;
//   - pipelined (Options::pipelined): the leader hands the WAL queue to the
//     next group as soon as its WAL record is written, then waits for its
//     turn in the memtable queue (WAL order) and inserts serially; group
//     N+1 writes its WAL while group N inserts;
//   - unordered (Options::unordered): the leader publishes right after the
//     WAL, announces the group's inserts (MemTableWritesPending), hands
//     the queue on and releases the members; each inserts its own batch
//     and reports MemTableWriteDone. Readers may see a batch partly.
//   - unordered, snapshot-safe (Options::unordered_snapshot_safe): as
//     unordered, but instead of publishing, the leader queues the group
//     in the in-flight list (in sequence order) before it hands the queue
//     on. Whoever finishes a group's last insert advances visibility over
//     every leading group whose inserts are all done (AdvanceVisible) and
//     completes them; a writer returns only once its group is visible.
// In the pipelined and unordered modes the env must drain the announced
// inserts (MemTableWritesPending / MemTableWriteDone) before it switches
// memtables.
//
// Grouping rules: a writer with a WriteCallback commits alone (its check
// runs after PrepareGroup, before AllocateSequence; a failed check fails
// that group only). Otherwise the group ends at the first writer that is
// incompatible with the leader -- a sync writer behind a non-sync leader (its
// sync would be lost), a different disable_wal or no_slowdown, or a batch that
// would push the group past its byte cap (Options::max_group_bytes, or, for a
// leader batch of at most small_batch_bytes, leader + small_batch_bytes so
// that small writes are not held up behind big ones).
//
// Group commit of synced writes: a synced leader may first wait, bounded
// by Options::max_sync_gather_usec and by half the last sync's duration,
// for the writers the last synced group released (write_thread_gather.cc).
//
// Sequence numbers: a group reserves total_count numbers; members are
// numbered in queue order and each member's updates get consecutive
// numbers starting at writer->sequence.
//
// Thread safety: Write() may be called by any number of threads at once.
// PrepareGroup, AllocateSequence and WriteWAL are called by one leader at a
// time. The memtable steps are not: InsertMember runs on many members'
// threads at once (parallel and unordered modes), and in the pipelined
// mode ApplyMemTable and Publish of one group run beside the next group's
// PrepareGroup and WriteWAL. A Writer belongs to the thread that calls
// Write() with it and must outlive that call.

#ifndef STRATA_DB_WRITE_THREAD_H_
#define STRATA_DB_WRITE_THREAD_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/types.h"
#include "strata/write_batch.h"

namespace strata {

class WriteCallback;

class WriteThread {
 public:
  struct Options {
    // Members of a group insert their own batches at once
    // (allow_concurrent_memtable_write).
    bool parallel_memtable = false;
    // The WAL and memtable stages of consecutive groups overlap
    // (enable_pipelined_write).
    bool pipelined = false;
    // Publish after the WAL; members insert on their own (unordered_write).
    // Not together with pipelined.
    bool unordered = false;
    // With unordered: publish a group only once its inserts and every
    // earlier group's are done (unordered_write_snapshot_safe).
    bool unordered_snapshot_safe = false;
    // Yield the CPU for a while before blocking (RocksDB's
    // enable_write_thread_adaptive_yield).
    bool adaptive_yield = true;
    // Longest time a waiting writer keeps yielding before it blocks.
    uint64_t max_yield_usec = 100;
    // A yield slower than this means other threads want the CPU: after a
    // few of them the waiter stops yielding and blocks.
    uint64_t slow_yield_usec = 3;
    // A group never grows past this many batch bytes (the leader's batch
    // alone may).
    size_t max_group_bytes = 1 << 20;
    // A leader batch of at most this size caps its group at leader size +
    // this, so a small write is not delayed behind big ones.
    size_t small_batch_bytes = 128 << 10;
    // Group commit of synced writes: the leader of a synced group waits up
    // to this long (and never longer than half the last sync took) for the
    // writers the last synced group released, so that writers returning
    // in a closed loop share the next sync instead of splitting into two
    // alternating groups. 0: never wait.
    uint64_t max_sync_gather_usec = 0;
  };

  // Where a writer stands. Bit flags so that a waiter can wait for any of
  // several states with one mask.
  enum State : uint8_t {
    // Queued, waiting for a leader.
    kStateInit = 1,
    // Leads a group: run the commit protocol.
    kStateGroupLeader = 2,
    // Insert your own batch (parallel and unordered modes).
    kStateParallelMemtableWriter = 4,
    // Done; Writer::status holds the outcome.
    kStateCompleted = 8,
    // The owner sleeps on the writer's condition variable; whoever changes
    // the state must take the writer's mutex and signal.
    kStateLockedWaiting = 16,
  };

  class WriteGroup;

  // One pending write. Lives on the writing thread's stack.
  class Writer {
   public:
    // batch may be null or empty: the write then completes with the
    // group's status without adding any update. callback (may be null):
    // see db/write_callback.h.
    Writer(const WriteOptions& options, WriteBatch* batch,
           WriteCallback* callback = nullptr);
    ~Writer();

    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;

    WriteBatch* const batch;
    WriteCallback* const callback;
    const bool sync;
    const bool no_slowdown;
    const bool disable_wal;

    // Out: the status of the group this writer was part of.
    Status status;
    // Out: the first sequence number of batch's updates (for a batch
    // without updates, the number the next update would get). Left 0 when
    // the group failed before numbers were allocated.
    SequenceNumber sequence = 0;

   private:
    friend class WriteThread;

    uint64_t ByteSize() const;
    uint64_t Count() const;

    std::atomic<uint8_t> state_;
    // Parallel inserts: the group (on its leader's stack), and how many
    // members after this one this writer wakes before inserting (fan-out).
    WriteGroup* group_ = nullptr;
    size_t wake_next_ = 0;
    // Completed by a large group's leader: how many members after this
    // one this writer completes before it returns (CompleteShare).
    size_t complete_next_ = 0;
    // Written by the owner before it publishes itself in newest_writer_.
    Writer* link_older_ = nullptr;
    // Filled in lazily by whichever leader walks past this writer.
    Writer* link_newer_ = nullptr;
    // Used only when the owner blocks (kStateLockedWaiting).
    port::Mutex mu_;
    port::CondVar cv_;
  };

  // The writers committed together, in queue order, from leader() to
  // last_writer(). Owned by the leader; valid for the commit protocol.
  class WriteGroup {
   public:
    class Iterator {
     public:
      using iterator_category = std::forward_iterator_tag;
      using value_type = Writer*;
      using difference_type = std::ptrdiff_t;
      using pointer = Writer**;
      using reference = Writer*;

      Iterator(Writer* w, Writer* last) : w_(w), last_(last) {}
      Writer* operator*() const { return w_; }
      Iterator& operator++() {
        w_ = (w_ == last_) ? nullptr : w_->link_newer_;
        return *this;
      }
      bool operator==(const Iterator& o) const { return w_ == o.w_; }
      bool operator!=(const Iterator& o) const { return w_ != o.w_; }

     private:
      Writer* w_;
      Writer* last_;
    };

    Writer* leader() const { return leader_; }
    Writer* last_writer() const { return last_writer_; }
    Iterator begin() const { return Iterator(leader_, last_writer_); }
    Iterator end() const { return Iterator(nullptr, last_writer_); }

    // Number of writers in the group.
    size_t size() const { return size_; }
    // Sum of the members' batch sizes in bytes.
    uint64_t total_bytes() const { return total_bytes_; }
    // Sum of the members' update counts: the sequence numbers it uses.
    uint64_t total_count() const { return total_count_; }
    // Some member asked for sync: the WAL must be synced once.
    bool need_sync() const { return need_sync_; }
    // Shared by every member (they are grouping rules).
    bool disable_wal() const { return leader_->disable_wal; }
    bool no_slowdown() const { return leader_->no_slowdown; }

    // The group's sequence numbers, [first_sequence, last_sequence]; set
    // after AllocateSequence. For a group without updates last_sequence is
    // first_sequence - 1 (the number last used before it).
    SequenceNumber first_sequence() const { return first_sequence_; }
    SequenceNumber last_sequence() const { return last_sequence_; }

    // OK while the protocol runs; the failing status once a step failed.
    const Status& status() const { return status_; }

   private:
    friend class WriteThread;

    Writer* leader_ = nullptr;
    Writer* last_writer_ = nullptr;
    // Parallel and snapshot-safe unordered inserts: members still
    // inserting.
    std::atomic<size_t> running_{0};
    // Snapshot-safe unordered: the next newer group in flight (guarded by
    // the write thread's visible_mu_).
    WriteGroup* next_in_flight_ = nullptr;
    size_t size_ = 0;
    uint64_t total_bytes_ = 0;
    uint64_t total_count_ = 0;
    bool need_sync_ = false;
    SequenceNumber first_sequence_ = 0;
    SequenceNumber last_sequence_ = 0;
    Status status_;
  };

  // What a group's leader asks of the DB (the seam that lets tests run the
  // write thread without a DB). Which calls may run at once in each mode:
  // see the thread-safety note at the top of this file.
  class CommitEnv {
   public:
    virtual ~CommitEnv();

    // Makes room and checks errors before the group writes: memtable
    // switch, write stalls, background errors. Non-OK fails the group.
    // For a group led by a writer with a callback, also finishes every
    // earlier group's memtable inserts first (the callback reads them).
    virtual Status PrepareGroup(WriteGroup* group) = 0;

    // Reserves count sequence numbers and returns the first. count may be
    // 0 (a group of empty batches): then returns the next unused number
    // without reserving it.
    virtual SequenceNumber AllocateSequence(uint64_t count) = 0;

    // Writes the group as one WAL record and syncs once if
    // group->need_sync(). Not called for a disable_wal group; called for a
    // group without updates (a sync-only write still needs its sync).
    virtual Status WriteWAL(WriteGroup* group) = 0;

    // Inserts every member's batch; a member's updates are numbered from
    // its writer->sequence.
    virtual Status ApplyMemTable(WriteGroup* group) = 0;

    // Whether the members of group may insert their own batches at once
    // (parallel mode; e.g. not with merge operands in the group). Called
    // by the leader after the WAL write.
    virtual bool CanInsertInParallel(const WriteGroup& group) = 0;

    // Inserts w's batch (numbered from w->sequence) with the concurrent
    // insert: other members insert at the same time. Called on w's own
    // thread, in the parallel and unordered modes; not for an empty batch.
    virtual Status InsertMember(Writer* w) = 0;

    // Unordered and pipelined modes: n memtable inserts (or, pipelined, a
    // group's memtable stage) are announced; each ends with one
    // MemTableWriteDone. A memtable switch waits for all to end.
    virtual void MemTableWritesPending(uint64_t n) = 0;
    virtual void MemTableWriteDone() = 0;

    // Makes everything up to last_sequence visible to readers. Only after
    // a successful group; last_sequence never decreases.
    virtual void Publish(SequenceNumber last_sequence) = 0;

    // A monotonic clock, in microseconds: times the syncs and bounds the
    // gathering of synced writers (Options::max_sync_gather_usec).
    virtual uint64_t NowMicros() = 0;
  };

  // How many waits ended in each phase, since construction.
  struct WaitCounts {
    uint64_t spin = 0;
    uint64_t yield = 0;
    uint64_t block = 0;
  };

  // env must outlive the WriteThread.
  WriteThread(const Options& options, CommitEnv* env);
  ~WriteThread();

  WriteThread(const WriteThread&) = delete;
  WriteThread& operator=(const WriteThread&) = delete;

  // Commits w->batch as a member of some group; blocks until that group is
  // done and returns its status (also left in w->status).
  // REQUIRES: w is fresh (not used for an earlier Write).
  Status Write(Writer* w);

  WaitCounts GetWaitCounts() const;

  // Test hooks. The callbacks run on the writing thread; set them before
  // any Write starts.
  // Called once a writer is linked into the queue (and so ordered).
  void TEST_SetJoinCallback(std::function<void(Writer*)> cb) {
    join_callback_ = std::move(cb);
  }
  // Unordered mode: called on a writer's thread after its group was
  // published and before it inserts its batch (a test may park it there).
  void TEST_SetBeforeInsertCallback(std::function<void(Writer*)> cb) {
    before_insert_callback_ = std::move(cb);
  }
  // Called when a waiting writer enters the yield phase / is about to
  // block on its condition variable.
  void TEST_SetYieldCallback(std::function<void(Writer*)> cb) {
    yield_callback_ = std::move(cb);
  }
  void TEST_SetBlockCallback(std::function<void(Writer*)> cb) {
    block_callback_ = std::move(cb);
  }
  // Called on a synced leader's thread when it starts to wait for the
  // writers the last sync released (GatherSyncWriters).
  void TEST_SetGatherCallback(std::function<void(Writer*)> cb) {
    gather_callback_ = std::move(cb);
  }
  // Called on that leader's thread when the wait ends.
  void TEST_SetGatherEndCallback(std::function<void(Writer*)> cb) {
    gather_end_callback_ = std::move(cb);
  }

 private:
  // Links w into the queue; returns once w leads a group or is completed.
  void JoinBatchGroup(Writer* w);
  // Gathers the group led by leader.
  void EnterAsBatchGroupLeader(Writer* leader, WriteGroup* group);
  // ---- group commit of synced writes ----
  // A synced leader waits (bounded) for the writers the last synced group
  // released and any that waited behind it, so all share its sync.
  void GatherSyncWriters(Writer* leader);
  // After a successful synced WAL write that began at start: how many
  // writers the next synced group should wait for, and until when.
  void NoteSync(WriteGroup* group, uint64_t start);
  // Writers in the queue from its newest back to (and including) oldest,
  // counted up to limit.
  size_t CountQueued(Writer* oldest, size_t limit) const;
  // ---- write_thread_commit.cc: the commit protocol per mode ----
  // PrepareGroup, AllocateSequence (stamping the members) and WriteWAL.
  Status PrepareAndLog(WriteGroup* group);
  // Default and serial modes; leaves the outcome in group->status_.
  void CommitGroup(WriteGroup* group);
  void CommitPipelined(WriteGroup* group);
  void CommitUnordered(WriteGroup* group);
  // Parallel mode: wakes the members (directly, or through a few of them
  // for a large group), then inserts the leader's own batch.
  void LaunchParallelInserts(WriteGroup* group);
  // A member's part of a parallel insert (the leader's too): wake its
  // share, insert, and, if last to finish, publish and complete the group.
  void InsertAsParallelMember(Writer* w);
  // Unordered mode: insert w's batch and report it done.
  void InsertUnordered(Writer* w);
  // ---- write_thread_visible.cc: the snapshot-safe unordered mode ----
  void CommitUnorderedSnapshotSafe(WriteGroup* group);
  // Inserts w's batch, then FinishCount(w).
  void InsertUnorderedSnapshotSafe(Writer* w);
  // Drops one of w's group's counts (w's insert, or its leader's hold),
  // advances visibility if it was the last, reports MemTableWriteDone and
  // waits for the group to complete. w->group_ may be gone on return.
  void FinishCount(Writer* w);
  // Publishes the last sequence of the longest run of oldest in-flight
  // groups with no insert running, and completes them (self, a member of
  // one of them or null, without a wakeup).
  void AdvanceVisible(Writer* self);
  // Pipelined mode: the memtable queue, in WAL order by ticket.
  // Waits for ticket's turn; returns the error of an earlier failed
  // memtable stage (OK if none).
  Status AwaitMemTableTurn(uint64_t ticket);
  // s: how this turn's memtable stage ended.
  void EndMemTableTurn(const Status& s);

  // Passes leadership of the queue on to the oldest writer behind group.
  void HandOffLeadership(WriteGroup* group);
  // Gives every member group->status_ and completes it, newest first, the
  // leader last (its stack holds group); self (a member, the caller) is
  // completed without a wakeup. group may be gone on return.
  static void CompleteMembers(WriteGroup* group, Writer* self);
  // Completes the members of a group that wait in the queue (serial and
  // pipelined groups, failed groups), the leader last; a large group fans
  // out through a few of its members, so that the wakeups run on several
  // threads. group may be gone on return.
  void ReleaseQueuedMembers(WriteGroup* group);
  // A completed writer's share of that fan-out.
  static void CompleteShare(Writer* head);
  // HandOffLeadership, then ReleaseQueuedMembers by the leader.
  void ExitAsBatchGroupLeader(WriteGroup* group);

  // Waits until w's state has a bit of goal_mask; returns that state.
  // spin false: skip the spin phase (a wait for other threads' work,
  // which the spinning would take CPU from).
  uint8_t AwaitState(Writer* w, uint8_t goal_mask, bool spin = true);
  uint8_t BlockingAwaitState(Writer* w, uint8_t goal_mask);
  // Moves w to new_state, waking its owner if it sleeps. w may be gone
  // as soon as this returns.
  static void SetState(Writer* w, uint8_t new_state);
  // Fills in link_newer_ from head back to the first writer that has it.
  static void CreateMissingNewerLinks(Writer* head);

  const Options options_;
  CommitEnv* const env_;

  // The most recently linked writer; null when no write is in progress.
  alignas(port::kCacheLineSize) std::atomic<Writer*> newest_writer_;

  alignas(port::kCacheLineSize) std::atomic<uint64_t> spin_waits_;
  std::atomic<uint64_t> yield_waits_;
  std::atomic<uint64_t> block_waits_;

  // Pipelined mode: the next ticket a leader takes (touched by the leader
  // of the WAL queue only) and the ticket whose turn it is.
  uint64_t next_ticket_ = 0;
  port::Mutex turn_mu_;
  port::CondVar turn_cv_;
  uint64_t turn_ GUARDED_BY(turn_mu_) = 0;
  // The first memtable stage that failed: later groups, already past
  // PrepareGroup's error check, fail with it rather than publish a number
  // above the failed group's partial inserts.
  Status memtable_error_ GUARDED_BY(turn_mu_);

  // Snapshot-safe unordered mode: the groups past the WAL whose members
  // may still be inserting, oldest (lowest sequences) first, and the
  // first inserting failure: visibility never passes a failed group, and
  // it and every later group complete with the failure.
  port::Mutex visible_mu_;
  WriteGroup* oldest_in_flight_ GUARDED_BY(visible_mu_) = nullptr;
  WriteGroup* newest_in_flight_ GUARDED_BY(visible_mu_) = nullptr;
  Status visible_error_ GUARDED_BY(visible_mu_);
  // The newest sequence AdvanceVisible published (0: none yet).
  SequenceNumber visible_published_ GUARDED_BY(visible_mu_) = 0;

  // Group commit of synced writes (GatherSyncWriters): the writers the last
  // synced group released plus those then queued, and the clock reading
  // until which its successor may wait for them. Written by a leader after
  // its sync, read by a later leader.
  std::atomic<size_t> sync_expected_{0};
  std::atomic<uint64_t> sync_gather_until_{0};
  // Set while a leader gathers: joining writers then signal gather_cv_.
  std::atomic<bool> gathering_{false};
  port::Mutex gather_mu_;
  port::CondVar gather_cv_;
  // Writers that joined while the leader gathered, and how many it still
  // lacked when it started: a joiner signals once the first reaches the
  // second. A writer may be counted both in the leader's count and here,
  // which only signals early (the leader counts again and waits on).
  size_t gather_arrived_ GUARDED_BY(gather_mu_) = 0;
  size_t gather_wanted_ GUARDED_BY(gather_mu_) = 0;

  std::function<void(Writer*)> before_insert_callback_;
  std::function<void(Writer*)> join_callback_;
  std::function<void(Writer*)> yield_callback_;
  std::function<void(Writer*)> block_callback_;
  std::function<void(Writer*)> gather_callback_;
  std::function<void(Writer*)> gather_end_callback_;
};

}  // namespace strata

#endif  // STRATA_DB_WRITE_THREAD_H_
