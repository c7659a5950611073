// WriteThread: the snapshot-safe unordered mode (write_thread.h,
// docs/unordered_write.md). Inserts run unordered and concurrently as in
// the unordered mode, but the published sequence advances only over
// groups whose inserts are all done, in sequence order: a batch becomes
// visible whole, a snapshot never changes, and a writer's Write returns
// once its group is visible.

#include "db/write_thread.h"
#include "util/mutexlock.h"

namespace strata {

void WriteThread::CommitUnorderedSnapshotSafe(WriteGroup* group) {
  Status s = PrepareAndLog(group);
  Writer* const leader = group->leader_;
  if (!s.ok()) {
    // Nothing of the group reaches the memtable: it completes at once,
    // and its numbers (if any were taken) hold no entry to hide.
    group->status_ = s;
    ExitAsBatchGroupLeader(group);
    return;
  }
  // One count per inserting member, and a hold of the leader's if it does
  // not insert: the group cannot complete (and members return) before the
  // leader is done with their links below. Each count ends with a
  // MemTableWriteDone after its AdvanceVisible, so once none is pending,
  // every group is visible (a writer with a callback reads them).
  const bool leader_inserts = leader->Count() > 0;
  size_t counts = leader_inserts ? 0 : 1;
  for (Writer* w : *group) {
    w->status = Status::OK();
    w->group_ = group;
    if (w->Count() > 0) counts++;
  }
  group->running_.store(counts, std::memory_order_relaxed);
  env_->MemTableWritesPending(counts);
  {
    // In flight before the queue moves on: the list keeps sequence order.
    MutexLock l(&visible_mu_);
    group->next_in_flight_ = nullptr;
    if (newest_in_flight_ == nullptr) {
      oldest_in_flight_ = group;
    } else {
      newest_in_flight_->next_in_flight_ = group;
    }
    newest_in_flight_ = group;
  }
  HandOffLeadership(group);
  // Members without updates stay queued until their group completes.
  Writer* w = group->last_writer_;
  while (w != leader) {
    Writer* older = w->link_older_;  // before w may run, finish and return
    if (w->Count() > 0) SetState(w, kStateParallelMemtableWriter);
    w = older;
  }
  if (leader_inserts) {
    InsertUnorderedSnapshotSafe(leader);
    return;
  }
  FinishCount(leader);
}

void WriteThread::InsertUnorderedSnapshotSafe(Writer* w) {
  if (before_insert_callback_) before_insert_callback_(w);
  // The member's own outcome until the group completes.
  w->status = env_->InsertMember(w);
  FinishCount(w);
}

void WriteThread::FinishCount(Writer* w) {
  if (w->group_->running_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    AdvanceVisible(w);
  }
  env_->MemTableWriteDone();
  // The group turns visible when the other writers' inserts end: they
  // need the CPU more than this thread needs to notice at once.
  AwaitState(w, kStateCompleted, /*spin=*/false);
}

void WriteThread::AdvanceVisible(Writer* self) {
  WriteGroup* first = nullptr;
  WriteGroup* last = nullptr;
  {
    MutexLock l(&visible_mu_);
    bool advanced = false;
    SequenceNumber visible = 0;
    while (oldest_in_flight_ != nullptr &&
           oldest_in_flight_->running_.load(std::memory_order_acquire) == 0) {
      WriteGroup* g = oldest_in_flight_;
      // The members' statuses were written before their decrements, which
      // the load above saw the end of.
      if (visible_error_.ok()) {
        for (Writer* m : *g) {
          if (!m->status.ok()) {
            visible_error_ = m->status;
            break;
          }
        }
      }
      g->status_ = visible_error_;
      if (visible_error_.ok()) {
        visible = g->last_sequence_;
        advanced = true;
      }
      if (first == nullptr) first = g;
      last = g;
      oldest_in_flight_ = g->next_in_flight_;
      if (oldest_in_flight_ == nullptr) newest_in_flight_ = nullptr;
    }
    // Under the mutex: publishes never go back. A run ending in groups
    // without updates may add nothing new.
    if (advanced && visible > visible_published_) {
      env_->Publish(visible);
      visible_published_ = visible;
    }
  }
  if (first == nullptr) return;
  // Oldest first; each group's next is read before it is completed, as
  // its leader may return and take the group with it.
  WriteGroup* g = first;
  while (true) {
    WriteGroup* next = g == last ? nullptr : g->next_in_flight_;
    CompleteMembers(g, self);
    if (next == nullptr) break;
    g = next;
  }
}

}  // namespace strata
