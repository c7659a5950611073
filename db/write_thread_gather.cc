// WriteThread: group commit of synced writes. A leader that syncs releases
// its members only when the sync ends; in a closed loop they are back a few
// microseconds later, just after the writers that queued during the sync
// formed the next group and started its sync without them. The writers
// then split into two groups that take turns, and each sync carries half
// of them. So the leader of a synced group first waits, briefly, for the
// writers the last sync released (docs/write_path.md, "Group commit").

#include <algorithm>

#include "db/write_thread.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// A gathering leader waits for at most this many writers.
constexpr size_t kMaxGather = 1024;

}  // namespace

size_t WriteThread::CountQueued(Writer* oldest, size_t limit) const {
  size_t n = 1;
  // Every writer behind oldest waits for it and so stays alive.
  for (Writer* w = newest_writer_.load(std::memory_order_seq_cst);
       w != oldest && n < limit; w = w->link_older_) {
    n++;
  }
  return n;
}

void WriteThread::NoteSync(WriteGroup* group, uint64_t start) {
  const uint64_t now = env_->NowMicros();
  const uint64_t took = now > start ? now - start : 0;
  const uint64_t window = std::min(options_.max_sync_gather_usec, took / 2);
  // The group's writers come back, and those queued behind it lead next.
  const size_t expected =
      std::min(group->size_ + CountQueued(group->last_writer_, kMaxGather) - 1,
               kMaxGather);
  sync_expected_.store(expected, std::memory_order_relaxed);
  sync_gather_until_.store(now + window, std::memory_order_relaxed);
}

void WriteThread::GatherSyncWriters(Writer* leader) {
  const size_t expected = sync_expected_.load(std::memory_order_relaxed);
  const uint64_t until = sync_gather_until_.load(std::memory_order_relaxed);
  // Nothing to wait for: the writers are here, this sync's gathering was
  // done, or its time is up.
  if (expected <= 1 || until == 0 ||
      CountQueued(leader, expected) >= expected || env_->NowMicros() >= until) {
    return;
  }
  // One gathering per sync: a later leader does not wait for the same
  // writers again.
  sync_gather_until_.store(0, std::memory_order_relaxed);
  // A joining writer stores itself in newest_writer_ and then reads
  // gathering_; this leader stores gathering_ and then counts the queue
  // under gather_mu_. Sequentially consistent, one sees the other, so a
  // writer's signal is never lost.
  gathering_.store(true, std::memory_order_seq_cst);
  if (gather_callback_) gather_callback_(leader);
  {
    MutexLock l(&gather_mu_);
    // Every writer that joins after this count is counted in
    // gather_arrived_, so the signal never comes later than the count
    // reaching expected.
    gather_arrived_ = 0;
    gather_wanted_ = expected - CountQueued(leader, expected);
    while (CountQueued(leader, expected) < expected) {
      const uint64_t now = env_->NowMicros();
      if (now >= until) break;
      gather_cv_.TimedWait(until - now);
    }
  }
  gathering_.store(false, std::memory_order_relaxed);
  if (gather_end_callback_) gather_end_callback_(leader);
}

}  // namespace strata
