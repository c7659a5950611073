// WriteBufferManager: one memory budget for the memtables of several
// column families, and of several DBs when they share the object
// (DBOptions::write_buffer_manager). Each DB reports what its memtables
// hold; once they hold too much, the DB writing next retires one of its
// memtables so that a flush frees it (docs/column_families.md, "The
// memtable budget"). RocksDB 7.8's API.
//
// The accounting. Memory is reserved (ReserveMem) as a memtable grows and
// counts as mutable; when the memtable is retired for a flush its bytes
// are scheduled to be freed (ScheduleFreeMem): still used, no longer
// mutable; FreeMem gives them back once the flush has dropped it.
// REQUIRES of the callers: never more bytes freed than were reserved.
// Bytes are normally scheduled before they are freed; a FreeMem without
// a ScheduleFreeMem (RocksDB allows it) counts nothing below zero as
// being flushed.
//
//   memory_usage()                   reserved, not yet freed
//   mutable_memtable_memory_usage()  reserved, not yet scheduled
//
// The flush rule (ShouldFlush), with a budget of buffer_size() > 0: the
// mutable memory is past 7/8 of the budget, or all the memory is at or
// past the budget while at least half of it is still mutable (with more
// than half already being flushed, retiring more would not help).
//
// Stalls (allow_stall): while memory_usage() >= buffer_size(), writes of
// every DB using the manager wait for flushes to free memory
// (BeginWriteStall). A stall begins only while some flush is under way —
// bytes scheduled and not yet freed — and ends when the memory falls
// below the budget or when nothing is left being flushed: a writer never
// waits for memory that no flush will free. The next write then retires
// a memtable of its DB, and may stall again for that flush.
//
// Cache charging: given a cache, the manager charges it with the memory
// the memtables hold, by inserting (and pinning) dummy entries of 256 KiB
// each, and releasing them as the memory falls; the block cache and the
// memtables then share the cache's capacity. It works with a budget of 0
// too (charging without a limit).
//
// Thread safety: every method may be called from any thread. The counters
// are atomics (the figures read at one moment may be a step apart); the
// stall queue and the cache charge each have their own lock.

#ifndef STRATA_INCLUDE_WRITE_BUFFER_MANAGER_H_
#define STRATA_INCLUDE_WRITE_BUFFER_MANAGER_H_

#include <atomic>
#include <cstddef>
#include <memory>

#include "strata/cache.h"
#include "strata/export.h"

namespace strata {

class CacheReservation;

// A DB's writers, blocked by a stall of the manager and woken when it
// ends. Implemented by the DB; not for applications.
class STRATA_EXPORT StallInterface {
 public:
  virtual ~StallInterface();
  // Waits until Signal. The DB arms the object before it asks the manager
  // to stall it, so a Signal that comes before Block is not lost.
  virtual void Block() = 0;
  virtual void Signal() = 0;
};

class STRATA_EXPORT WriteBufferManager final {
 public:
  // _buffer_size: the budget in bytes; 0 sets none (no flush or stall is
  // asked for; the memory is still counted, and charged to cache).
  // cache: if set, charged with the memtables' memory. allow_stall: writes
  // wait while the memory is at or past the budget.
  explicit WriteBufferManager(size_t _buffer_size,
                              std::shared_ptr<Cache> cache = {},
                              bool allow_stall = false);
  WriteBufferManager(const WriteBufferManager&) = delete;
  WriteBufferManager& operator=(const WriteBufferManager&) = delete;
  // Gives the cache charge back. REQUIRES: no DB uses the manager.
  ~WriteBufferManager();

  // A budget is set.
  bool enabled() const { return buffer_size() > 0; }
  // The memory is charged to a cache.
  bool cost_to_cache() const { return cache_charge_ != nullptr; }

  // Memtable memory of every DB using the manager.
  size_t memory_usage() const {
    return memory_used_.load(std::memory_order_relaxed);
  }
  // The part of it in memtables not (yet) retired for a flush.
  size_t mutable_memtable_memory_usage() const {
    return memory_active_.load(std::memory_order_relaxed);
  }
  // What the dummy entries charge the cache (0 without one).
  size_t dummy_entries_in_cache_usage() const;

  size_t buffer_size() const {
    return buffer_size_.load(std::memory_order_relaxed);
  }
  // A new budget, in effect for the next write; a raised one may end a
  // stall.
  void SetBufferSize(size_t new_size);
  // Turning stalls off ends a stall under way.
  void SetAllowStall(bool new_allow_stall);

  // The flush rule above: a DB should retire a memtable.
  bool ShouldFlush() const {
    if (!enabled()) return false;
    const size_t active = mutable_memtable_memory_usage();
    if (active > mutable_limit_.load(std::memory_order_relaxed)) return true;
    const size_t budget = buffer_size();
    return memory_usage() >= budget && active >= budget / 2;
  }
  // Writes should wait (allow_stall, a budget, and a stall under way or
  // the memory at or past the budget).
  bool ShouldStall() const {
    if (!allow_stall_.load(std::memory_order_relaxed) || !enabled()) {
      return false;
    }
    return IsStallActive() || IsStallThresholdExceeded();
  }
  // Some DB's writers are waiting for the memory to fall.
  bool IsStallActive() const {
    return stall_active_.load(std::memory_order_relaxed);
  }
  bool IsStallThresholdExceeded() const {
    return memory_usage() >= buffer_size();
  }

  // The accounting above.
  void ReserveMem(size_t mem);
  void ScheduleFreeMem(size_t mem);
  void FreeMem(size_t mem);

  // Queues wbm_stall to be signalled when the stall ends; if it should not
  // stall (the memory fell meanwhile, or no flush is under way), signals
  // it at once. The caller then calls wbm_stall->Block().
  void BeginWriteStall(StallInterface* wbm_stall);
  // Ends the stall, signalling every queued DB, once its condition is
  // gone. FreeMem and the setters call it.
  void MaybeEndWriteStall();
  // Takes wbm_stall out of the queue and signals it (a DB closing). No
  // Signal reaches it after this returns.
  void RemoveDBFromQueue(StallInterface* wbm_stall);

 private:
  struct StallQueue;

  // A stall may begin or go on: the memory is at or past the budget and
  // some of it is being flushed.
  bool StallHolds() const;

  std::atomic<size_t> buffer_size_;
  std::atomic<size_t> mutable_limit_;  // 7/8 of buffer_size_
  std::atomic<size_t> memory_used_{0};
  std::atomic<size_t> memory_active_{0};
  // Scheduled and not yet freed: memory_used_ - memory_active_, kept apart
  // so that it is never read half updated.
  std::atomic<size_t> memory_freeing_{0};
  std::atomic<bool> allow_stall_;
  std::atomic<bool> stall_active_{false};
  const std::unique_ptr<CacheReservation> cache_charge_;
  const std::unique_ptr<StallQueue> stalls_;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_WRITE_BUFFER_MANAGER_H_
