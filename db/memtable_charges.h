// MemTableCharges: what one column family's memtables have reported to
// the DB's WriteBufferManager (strata/write_buffer_manager.h), so that the
// DB can report changes as deltas and give back exactly what it took.
// The memtables themselves know nothing of the manager.
//
//   event (DBImpl)                          manager calls
//   a new active memtable: Grow             ReserveMem(what it holds empty)
//   a write group's PrepareGroup: Grow      ReserveMem(growth since the last
//                                           report of the active memtable)
//   the memtable is retired: Retire         ReserveMem(the rest), then
//                                           ScheduleFreeMem(all of it)
//   a flush dropped the n oldest: Drop      FreeMem(their charges)
//   Close, or the family dropped: ReleaseAll  ScheduleFreeMem(active),
//                                           FreeMem(everything); nothing
//                                           after it
//   a background error: KeepImmutable       FreeMem + ReserveMem of the
//                                           immutable charges
//   DB::Resume cleared it: ScheduleImmutable  ScheduleFreeMem of the
//                                           immutable charges
//
// KeepImmutable: after a background error no flush will free the
// immutable memtables, so their memory must not count as being flushed
// (that is what a stall waits for; the manager would wait forever). It
// counts as mutable from then on, which other DBs sharing the manager can
// answer by flushing their own.
//
// Invariant: the manager holds active() + the immutable charges of this
// family, active() of it mutable unless after KeepImmutable.
//
// Thread safety: none; the DB calls it with its mutex held. Every method
// does nothing when wbm is null.

#ifndef STRATA_DB_MEMTABLE_CHARGES_H_
#define STRATA_DB_MEMTABLE_CHARGES_H_

#include <cstddef>
#include <deque>

#include "strata/write_buffer_manager.h"

namespace strata {

class MemTableCharges {
 public:
  // usage: the active memtable's ApproximateMemoryUsage() now. The first
  // report of a memtable is its size when new (see growth()).
  void Grow(WriteBufferManager* wbm, size_t usage) {
    if (wbm != nullptr && !released_ && usage > active_) {
      if (active_ == 0) first_ = usage;
      wbm->ReserveMem(usage - active_);
      active_ = usage;
    }
  }
  // The active memtable, of usage bytes (final: no insert is running),
  // becomes the newest immutable one; the next active one starts at 0.
  void Retire(WriteBufferManager* wbm, size_t usage);
  // The n oldest immutable memtables were flushed and dropped.
  void Drop(WriteBufferManager* wbm, size_t n);
  // Final: every later call does nothing (a dropped family's memtables
  // may still be switched by a write group that was waiting when it was
  // dropped; they must not be charged again).
  void ReleaseAll(WriteBufferManager* wbm);
  void KeepImmutable(WriteBufferManager* wbm);
  // Undoes KeepImmutable: flushes run again (the background error was
  // cleared), so the immutable charges count as being freed again.
  void ScheduleImmutable(WriteBufferManager* wbm);

  size_t active() const { return active_; }
  // How much the active memtable grew past its first report. A memtable
  // takes memory when it is created (an arena chunk, or a huge-page
  // region): retiring one that has not grown would free nothing its
  // successor does not take again.
  size_t growth() const { return active_ - first_; }
  // The immutable memtables' charges, oldest first.
  const std::deque<size_t>& immutable() const { return immutable_; }

 private:
  // Gives back an immutable memtable's charge.
  void FreeImmutable(WriteBufferManager* wbm, size_t charge);

  size_t active_ = 0;
  size_t first_ = 0;
  std::deque<size_t> immutable_;
  // After KeepImmutable: the immutable charges count as mutable.
  bool immutable_mutable_ = false;
  // After ReleaseAll: nothing is charged any more.
  bool released_ = false;
};

}  // namespace strata

#endif  // STRATA_DB_MEMTABLE_CHARGES_H_
