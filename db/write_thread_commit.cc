// WriteThread: the commit protocol of a group in each mode (serial,
// parallel, pipelined, unordered); the queue and the waiting are in
// write_thread.cc. The modes are described in write_thread.h and
// docs/write_path.md.

#include <cassert>
#include <cmath>

#include "db/write_callback.h"
#include "db/write_thread.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// Groups up to this size are woken by their leader alone; larger ones fan
// out through about sqrt(size) members, each waking its share.
constexpr size_t kMaxDirectWakeups = 16;

// A synced group inserts in parallel only when its batches hold at least
// this many bytes.
constexpr uint64_t kParallelSyncedBytes = 256 << 10;

}  // namespace

Status WriteThread::PrepareAndLog(WriteGroup* group) {
  Status s = env_->PrepareGroup(group);
  if (!s.ok()) return s;
  if (group->leader_->callback != nullptr) {
    // Alone in its group (EnterAsBatchGroupLeader).
    s = group->leader_->callback->Check();
    if (!s.ok()) return s;
  }
  const SequenceNumber first = env_->AllocateSequence(group->total_count_);
  group->first_sequence_ = first;
  group->last_sequence_ = first + group->total_count_ - 1;
  SequenceNumber next = first;
  for (Writer* w : *group) {
    w->sequence = next;
    next += w->Count();
  }
  if (group->disable_wal()) return s;
  const bool timed = group->need_sync_ && options_.max_sync_gather_usec > 0;
  const uint64_t start = timed ? env_->NowMicros() : 0;
  s = env_->WriteWAL(group);
  if (timed && s.ok()) NoteSync(group, start);
  return s;
}

void WriteThread::CommitGroup(WriteGroup* group) {
  Status s = PrepareAndLog(group);
  // The members of a synced group sleep through its sync: waking each to
  // insert its own batch, and again when the group is done, costs more
  // than the leader inserting small batches for them.
  const bool parallel =
      options_.parallel_memtable && group->size_ > 1 &&
      (!group->need_sync_ || group->total_bytes_ >= kParallelSyncedBytes);
  if (s.ok() && parallel && env_->CanInsertInParallel(*group)) {
    // The last member to finish publishes and completes the group (this
    // leader included, which returns then).
    LaunchParallelInserts(group);
    return;
  }
  if (s.ok()) s = env_->ApplyMemTable(group);
  if (s.ok()) env_->Publish(group->last_sequence_);
  group->status_ = s;
  ExitAsBatchGroupLeader(group);
}

void WriteThread::LaunchParallelInserts(WriteGroup* group) {
  group->running_.store(group->size_, std::memory_order_relaxed);
  // Every member learns its group before any is woken.
  for (Writer* w : *group) {
    w->group_ = group;
    w->wake_next_ = 0;
  }
  size_t stride = group->size_;  // the leader wakes everyone
  if (group->size_ > kMaxDirectWakeups) {
    stride = static_cast<size_t>(
        std::ceil(std::sqrt(static_cast<double>(group->size_))));
  }
  // Members at 0, stride, 2*stride, ... each wake the next stride - 1;
  // the leader (at 0) also wakes the other stride heads.
  size_t index = 0;
  for (Writer* w : *group) {
    if (index % stride == 0) {
      w->wake_next_ = stride - 1;
      if (index > 0) SetState(w, kStateParallelMemtableWriter);
    }
    index++;
  }
  InsertAsParallelMember(group->leader_);
}

void WriteThread::InsertAsParallelMember(Writer* w) {
  WriteGroup* const group = w->group_;
  Writer* const last = group->last_writer_;
  Writer* next = w;
  for (size_t i = 0; i < w->wake_next_ && next != last; i++) {
    next = next->link_newer_;
    SetState(next, kStateParallelMemtableWriter);
  }
  // A member's status holds its own insert's outcome until the group ends.
  w->status = w->Count() > 0 ? env_->InsertMember(w) : Status::OK();
  if (group->running_.fetch_sub(1, std::memory_order_acq_rel) != 1) {
    // Another member finishes last and completes this one.
    AwaitState(w, kStateCompleted);
    return;
  }
  // Last: every insert is done (the counter ordered them before this).
  Status s;
  for (Writer* m : *group) {
    if (!m->status.ok()) {
      s = m->status;
      break;
    }
  }
  if (s.ok()) env_->Publish(group->last_sequence_);
  group->status_ = s;
  HandOffLeadership(group);
  CompleteMembers(group, w);
}

void WriteThread::CommitPipelined(WriteGroup* group) {
  Status s = PrepareAndLog(group);
  // The memtable queue keeps WAL order: tickets are taken while this
  // leader still holds the WAL queue.
  const uint64_t ticket = next_ticket_++;
  if (s.ok()) env_->MemTableWritesPending(1);
  // The next group may write its WAL while this one inserts.
  HandOffLeadership(group);
  const Status earlier = AwaitMemTableTurn(ticket);
  if (s.ok()) {
    s = earlier;
    if (s.ok()) s = env_->ApplyMemTable(group);
    if (s.ok()) env_->Publish(group->last_sequence_);
    env_->MemTableWriteDone();
    EndMemTableTurn(s);
  } else {
    EndMemTableTurn(Status::OK());  // nothing of it reached the memtable
  }
  group->status_ = s;
  ReleaseQueuedMembers(group);
}

Status WriteThread::AwaitMemTableTurn(uint64_t ticket) {
  MutexLock l(&turn_mu_);
  while (turn_ != ticket) turn_cv_.Wait();
  return memtable_error_;
}

void WriteThread::EndMemTableTurn(const Status& s) {
  MutexLock l(&turn_mu_);
  if (!s.ok() && memtable_error_.ok()) memtable_error_ = s;
  turn_++;
  turn_cv_.SignalAll();
}

void WriteThread::CommitUnordered(WriteGroup* group) {
  Status s = PrepareAndLog(group);
  size_t inserting = 0;
  if (s.ok()) {
    for (Writer* w : *group) {
      if (w->Count() > 0) inserting++;
    }
    // Visible before it is inserted: the order readers may see is given
    // up for throughput (docs/unordered_write.md).
    env_->Publish(group->last_sequence_);
    env_->MemTableWritesPending(inserting);
  }
  group->status_ = s;
  Writer* const leader = group->leader_;
  const bool leader_inserts = s.ok() && leader->Count() > 0;
  HandOffLeadership(group);
  // Newest to oldest, as CompleteMembers: a released member may return
  // and free its Writer at once. The leader goes last.
  Writer* w = group->last_writer_;
  while (w != leader) {
    Writer* older = w->link_older_;
    w->status = s;
    SetState(w, s.ok() && w->Count() > 0 ? kStateParallelMemtableWriter
                                         : kStateCompleted);
    w = older;
  }
  leader->status = s;
  if (leader_inserts) {
    InsertUnordered(leader);
  }
  leader->state_.store(kStateCompleted, std::memory_order_relaxed);
}

void WriteThread::InsertUnordered(Writer* w) {
  if (before_insert_callback_) before_insert_callback_(w);
  w->status = env_->InsertMember(w);
  env_->MemTableWriteDone();
  w->state_.store(kStateCompleted, std::memory_order_relaxed);
}

}  // namespace strata
