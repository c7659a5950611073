// WriteBufferManager (strata/write_buffer_manager.h): the counters, the
// cache charge (util/cache_reservation.h) and the stall queue.
//
// Lock order: a DB's mutex, then the stall queue's, then a queued DB's
// StallInterface (Signal). Nothing is locked while a stall queue's lock
// is held but the StallInterfaces', so the manager can be called with a
// DB's mutex held.

#include "strata/write_buffer_manager.h"

#include <algorithm>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/cache_reservation.h"
#include "util/mutexlock.h"

namespace strata {

StallInterface::~StallInterface() = default;

namespace {

// floor(7n / 8), without overflowing for any n.
size_t SevenEighths(size_t n) { return n / 8 * 7 + n % 8 * 7 / 8; }

}  // namespace

struct WriteBufferManager::StallQueue {
  port::Mutex mu;
  std::vector<StallInterface*> waiting GUARDED_BY(mu);
};

WriteBufferManager::WriteBufferManager(size_t _buffer_size,
                                       std::shared_ptr<Cache> cache,
                                       bool allow_stall)
    : buffer_size_(_buffer_size),
      mutable_limit_(SevenEighths(_buffer_size)),
      allow_stall_(allow_stall),
      cache_charge_(cache == nullptr ? nullptr
                                     : new CacheReservation(std::move(cache))),
      stalls_(new StallQueue) {}

WriteBufferManager::~WriteBufferManager() = default;

size_t WriteBufferManager::dummy_entries_in_cache_usage() const {
  return cache_charge_ == nullptr ? 0 : cache_charge_->charged();
}

void WriteBufferManager::SetBufferSize(size_t new_size) {
  buffer_size_.store(new_size, std::memory_order_relaxed);
  mutable_limit_.store(SevenEighths(new_size), std::memory_order_relaxed);
  MaybeEndWriteStall();
}

void WriteBufferManager::SetAllowStall(bool new_allow_stall) {
  allow_stall_.store(new_allow_stall, std::memory_order_relaxed);
  MaybeEndWriteStall();
}

void WriteBufferManager::ReserveMem(size_t mem) {
  memory_used_.fetch_add(mem, std::memory_order_relaxed);
  memory_active_.fetch_add(mem, std::memory_order_relaxed);
  if (cache_charge_ != nullptr) cache_charge_->Grow(mem);
}

void WriteBufferManager::ScheduleFreeMem(size_t mem) {
  memory_active_.fetch_sub(mem, std::memory_order_relaxed);
  memory_freeing_.fetch_add(mem, std::memory_order_relaxed);
}

void WriteBufferManager::FreeMem(size_t mem) {
  // Saturating: an application's own FreeMem, without a ScheduleFreeMem
  // before it (RocksDB accepts that order), must not leave a huge count
  // of memory "being freed", which would hold every stall.
  size_t freeing = memory_freeing_.load(std::memory_order_relaxed);
  while (!memory_freeing_.compare_exchange_weak(
      freeing, freeing > mem ? freeing - mem : 0, std::memory_order_relaxed)) {
  }
  memory_used_.fetch_sub(mem, std::memory_order_relaxed);
  if (cache_charge_ != nullptr) cache_charge_->Shrink(mem);
  MaybeEndWriteStall();
}

bool WriteBufferManager::StallHolds() const {
  // Without memory being flushed nothing would end the stall: the writers
  // go on and retire memtables of their own.
  return allow_stall_.load(std::memory_order_relaxed) && enabled() &&
         IsStallThresholdExceeded() &&
         memory_freeing_.load(std::memory_order_relaxed) > 0;
}

void WriteBufferManager::BeginWriteStall(StallInterface* wbm_stall) {
  {
    MutexLock l(&stalls_->mu);
    // Decided under the lock that MaybeEndWriteStall takes after the
    // counters moved: either this sees the memory freed, or the end of
    // the stall sees this DB queued.
    if (StallHolds()) {
      stall_active_.store(true, std::memory_order_relaxed);
      stalls_->waiting.push_back(wbm_stall);
      return;
    }
  }
  wbm_stall->Signal();
}

void WriteBufferManager::MaybeEndWriteStall() {
  MutexLock l(&stalls_->mu);
  if (!stall_active_.load(std::memory_order_relaxed) || StallHolds()) return;
  stall_active_.store(false, std::memory_order_relaxed);
  // Signalled under the lock: RemoveDBFromQueue then guarantees that no
  // Signal reaches a DB after it returned.
  for (StallInterface* waiting : stalls_->waiting) waiting->Signal();
  stalls_->waiting.clear();
}

void WriteBufferManager::RemoveDBFromQueue(StallInterface* wbm_stall) {
  {
    MutexLock l(&stalls_->mu);
    std::vector<StallInterface*>& waiting = stalls_->waiting;
    waiting.erase(std::remove(waiting.begin(), waiting.end(), wbm_stall),
                  waiting.end());
  }
  wbm_stall->Signal();
}

}  // namespace strata
