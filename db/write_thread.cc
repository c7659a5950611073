#include "db/write_thread.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <thread>
#include <utility>

#include "util/mutexlock.h"

namespace strata {

namespace {

// Checks of the state before a waiter starts yielding. At roughly 100 ns a
// pause this covers the common case -- a leader finishing a small group --
// without a system call.
constexpr int kSpinChecks = 200;

// Yields slower than Options::slow_yield_usec tolerated before the waiter
// concludes the CPU is oversubscribed and blocks instead.
constexpr int kMaxSlowYields = 3;

// A synced group of up to this many writers is completed by its leader
// alone; a larger one fans out through about sqrt(size) members.
constexpr size_t kMaxDirectCompletions = 4;

}  // namespace

WriteThread::Writer::Writer(const WriteOptions& options, WriteBatch* b,
                            WriteCallback* cb)
    : batch(b),
      callback(cb),
      sync(options.sync),
      no_slowdown(options.no_slowdown),
      disable_wal(options.disableWAL),
      state_(kStateInit),
      cv_(&mu_) {}

WriteThread::Writer::~Writer() = default;

uint64_t WriteThread::Writer::ByteSize() const {
  return batch == nullptr ? 0 : batch->GetDataSize();
}

uint64_t WriteThread::Writer::Count() const {
  return batch == nullptr ? 0 : batch->Count();
}

WriteThread::CommitEnv::~CommitEnv() = default;

WriteThread::WriteThread(const Options& options, CommitEnv* env)
    : options_(options),
      env_(env),
      newest_writer_(nullptr),
      spin_waits_(0),
      yield_waits_(0),
      block_waits_(0),
      turn_cv_(&turn_mu_),
      gather_cv_(&gather_mu_) {
  assert(!(options.unordered && options.pipelined));
  assert(options.unordered || !options.unordered_snapshot_safe);
}

WriteThread::~WriteThread() {
  assert(newest_writer_.load(std::memory_order_relaxed) == nullptr);
}

WriteThread::WaitCounts WriteThread::GetWaitCounts() const {
  WaitCounts counts;
  counts.spin = spin_waits_.load(std::memory_order_relaxed);
  counts.yield = yield_waits_.load(std::memory_order_relaxed);
  counts.block = block_waits_.load(std::memory_order_relaxed);
  return counts;
}

Status WriteThread::Write(Writer* w) {
  JoinBatchGroup(w);
  const uint8_t state = w->state_.load(std::memory_order_acquire);
  if (state == kStateCompleted) {
    CompleteShare(w);  // a large group's leader may have left some to w
    return w->status;
  }
  if (state == kStateParallelMemtableWriter) {
    if (options_.unordered_snapshot_safe) {
      InsertUnorderedSnapshotSafe(w);
    } else if (options_.unordered) {
      InsertUnordered(w);
    } else {
      InsertAsParallelMember(w);
    }
    return w->status;
  }
  if (w->sync && w->callback == nullptr && options_.max_sync_gather_usec > 0) {
    GatherSyncWriters(w);
  }
  WriteGroup group;
  EnterAsBatchGroupLeader(w, &group);
  if (options_.unordered_snapshot_safe) {
    CommitUnorderedSnapshotSafe(&group);
  } else if (options_.unordered) {
    CommitUnordered(&group);
  } else if (options_.pipelined) {
    CommitPipelined(&group);
  } else {
    CommitGroup(&group);
  }
  return w->status;
}

void WriteThread::JoinBatchGroup(Writer* w) {
  assert(w->state_.load(std::memory_order_relaxed) == kStateInit);
  Writer* head = newest_writer_.load(std::memory_order_relaxed);
  do {
    w->link_older_ = head;
  } while (!newest_writer_.compare_exchange_weak(
      head, w, std::memory_order_seq_cst, std::memory_order_relaxed));
  if (join_callback_) join_callback_(w);
  if (gathering_.load(std::memory_order_seq_cst)) {
    // A synced leader waits for writers (GatherSyncWriters); it is woken
    // once enough have come, not by each.
    MutexLock l(&gather_mu_);
    if (++gather_arrived_ >= gather_wanted_) gather_cv_.Signal();
  }
  if (head == nullptr) {
    // An empty queue means no leader is running: this writer leads.
    w->state_.store(kStateGroupLeader, std::memory_order_relaxed);
    return;
  }
  AwaitState(
      w, kStateGroupLeader | kStateParallelMemtableWriter | kStateCompleted);
}

void WriteThread::EnterAsBatchGroupLeader(Writer* leader, WriteGroup* group) {
  assert(leader->link_older_ == nullptr);
  const uint64_t leader_bytes = leader->ByteSize();
  uint64_t cap = options_.max_group_bytes;
  if (leader_bytes <= options_.small_batch_bytes) {
    cap = leader_bytes + options_.small_batch_bytes;
  }

  group->leader_ = leader;
  group->last_writer_ = leader;
  group->size_ = 1;
  group->total_bytes_ = leader_bytes;
  group->total_count_ = leader->Count();
  group->need_sync_ = leader->sync;

  // Writers linked after this load wait for the next group.
  Writer* newest = newest_writer_.load(std::memory_order_acquire);
  CreateMissingNewerLinks(newest);

  // A writer with a callback commits alone (db/write_callback.h).
  if (leader->callback != nullptr) return;
  Writer* w = leader;
  while (w != newest) {
    w = w->link_newer_;
    if (w->callback != nullptr) break;
    if (w->sync && !leader->sync) break;
    if (w->disable_wal != leader->disable_wal) break;
    if (w->no_slowdown != leader->no_slowdown) break;
    const uint64_t bytes = w->ByteSize();
    if (group->total_bytes_ + bytes > cap) break;
    group->last_writer_ = w;
    group->size_++;
    group->total_bytes_ += bytes;
    group->total_count_ += w->Count();
    group->need_sync_ = group->need_sync_ || w->sync;
  }
}

void WriteThread::HandOffLeadership(WriteGroup* group) {
  Writer* last = group->last_writer_;
  // While last (and so its links) is certainly alive: once completed, a
  // member may return and free its Writer.
  Writer* head = last;
  if (!newest_writer_.compare_exchange_strong(head, nullptr,
                                              std::memory_order_acq_rel,
                                              std::memory_order_acquire)) {
    // Writers queued behind the group: the oldest of them leads next.
    CreateMissingNewerLinks(head);
    Writer* next_leader = last->link_newer_;
    assert(next_leader != nullptr && next_leader->link_older_ == last);
    next_leader->link_older_ = nullptr;
    SetState(next_leader, kStateGroupLeader);
  }
}

void WriteThread::CompleteMembers(WriteGroup* group, Writer* self) {
  // Copied out: group lives on the leader's stack, and the leader may
  // return as soon as it is completed.
  Writer* const leader = group->leader_;
  const Status status = group->status_;
  // Newest to oldest, reading each link before the writer can go away.
  Writer* w = group->last_writer_;
  while (true) {
    Writer* older = w == leader ? nullptr : w->link_older_;
    w->status = status;
    if (w == self) {
      w->state_.store(kStateCompleted, std::memory_order_relaxed);
    } else {
      SetState(w, kStateCompleted);
    }
    if (older == nullptr) break;
    w = older;
  }
}

void WriteThread::ReleaseQueuedMembers(WriteGroup* group) {
  const size_t size = group->size_;
  // A synced group's synced members sleep (AwaitState) and each wakeup is
  // a system call; unsynced members spin or yield, and a store wakes
  // them.
  if (size <= kMaxDirectCompletions || !group->need_sync_) {
    CompleteMembers(group, group->leader_);
    return;
  }
  // Members at positions stride, 2*stride, ... (heads) each complete the
  // stride - 1 after them when they wake (Write); the leader completes
  // the heads and its own share. Newest to oldest, each link read before
  // its writer can go away: a head's share is newer than it, and no
  // writer older than a woken head belongs to its share.
  const size_t stride =
      static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(size))));
  Writer* const leader = group->leader_;
  const Status status = group->status_;
  Writer* w = group->last_writer_;
  for (size_t position = size - 1; position > 0; position--) {
    Writer* older = w->link_older_;
    w->status = status;
    if (position % stride == 0) {
      w->complete_next_ = std::min(stride - 1, size - 1 - position);
      SetState(w, kStateCompleted);
    } else if (position < stride) {
      SetState(w, kStateCompleted);
    }
    w = older;
  }
  assert(w == leader);
  leader->status = status;
  leader->state_.store(kStateCompleted, std::memory_order_relaxed);
}

void WriteThread::CompleteShare(Writer* head) {
  Writer* next = head->link_newer_;
  for (size_t i = 0; i < head->complete_next_; i++) {
    Writer* w = next;
    next = w->link_newer_;  // before w can go away
    SetState(w, kStateCompleted);
  }
}

void WriteThread::ExitAsBatchGroupLeader(WriteGroup* group) {
  HandOffLeadership(group);
  ReleaseQueuedMembers(group);
}

void WriteThread::CreateMissingNewerLinks(Writer* head) {
  while (true) {
    Writer* older = head->link_older_;
    if (older == nullptr || older->link_newer_ != nullptr) {
      assert(older == nullptr || older->link_newer_ == head);
      return;
    }
    older->link_newer_ = head;
    head = older;
  }
}

void WriteThread::SetState(Writer* w, uint8_t new_state) {
  uint8_t state = w->state_.load(std::memory_order_acquire);
  if (state != kStateLockedWaiting &&
      w->state_.compare_exchange_strong(state, new_state,
                                        std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
    return;  // The owner was not asleep; it will see the new state.
  }
  // The owner announced it sleeps; only the mutex orders our store before
  // its check of the state, so the wakeup cannot be lost.
  assert(state == kStateLockedWaiting);
  MutexLock l(&w->mu_);
  w->state_.store(new_state, std::memory_order_release);
  w->cv_.Signal();
}

uint8_t WriteThread::AwaitState(Writer* w, uint8_t goal_mask, bool spin) {
  uint8_t state;
  // A synced writer waits for a device flush, far longer than the spin
  // and yield phases: they would only take the CPU from the writers that
  // run.
  const int spin_checks = spin && !w->sync ? kSpinChecks : 0;
  for (int i = 0; i < spin_checks; i++) {
    state = w->state_.load(std::memory_order_acquire);
    if (state & goal_mask) {
      spin_waits_.fetch_add(1, std::memory_order_relaxed);
      return state;
    }
    port::AsmVolatilePause();
  }

  if (options_.adaptive_yield && !w->sync) {
    // Yielding keeps the waiter responsive without a futex round trip, but
    // only while the CPU has room: slow yields mean we steal time from the
    // leader, so stop and block.
    if (yield_callback_) yield_callback_(w);
    using Clock = std::chrono::steady_clock;
    const auto max_yield = std::chrono::microseconds(options_.max_yield_usec);
    const auto slow_yield = std::chrono::microseconds(options_.slow_yield_usec);
    const auto start = Clock::now();
    auto before = start;
    int slow_yields = 0;
    while (true) {
      std::this_thread::yield();
      state = w->state_.load(std::memory_order_acquire);
      if (state & goal_mask) {
        yield_waits_.fetch_add(1, std::memory_order_relaxed);
        return state;
      }
      const auto now = Clock::now();
      if (now - start >= max_yield) break;
      if (now - before > slow_yield && ++slow_yields >= kMaxSlowYields) break;
      before = now;
    }
  }

  state = BlockingAwaitState(w, goal_mask);
  block_waits_.fetch_add(1, std::memory_order_relaxed);
  return state;
}

uint8_t WriteThread::BlockingAwaitState(Writer* w, uint8_t goal_mask) {
  uint8_t state = w->state_.load(std::memory_order_acquire);
  while ((state & goal_mask) == 0) {
    // Announcing kStateLockedWaiting obliges SetState to use the mutex;
    // if the CAS fails the state just changed and is rechecked.
    if (!w->state_.compare_exchange_strong(state, kStateLockedWaiting,
                                           std::memory_order_acq_rel,
                                           std::memory_order_acquire)) {
      continue;
    }
    if (block_callback_) block_callback_(w);
    MutexLock l(&w->mu_);
    while ((state = w->state_.load(std::memory_order_acquire)) ==
           kStateLockedWaiting) {
      w->cv_.Wait();
    }
  }
  return state;
}

}  // namespace strata
