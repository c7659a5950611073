#include "db/memtable_charges.h"

#include <cassert>

namespace strata {

void MemTableCharges::Retire(WriteBufferManager* wbm, size_t usage) {
  if (wbm == nullptr || released_) return;
  Grow(wbm, usage);  // what the last group inserted
  if (!immutable_mutable_) wbm->ScheduleFreeMem(active_);
  immutable_.push_back(active_);
  active_ = first_ = 0;
}

void MemTableCharges::FreeImmutable(WriteBufferManager* wbm, size_t charge) {
  if (immutable_mutable_) wbm->ScheduleFreeMem(charge);
  wbm->FreeMem(charge);
}

void MemTableCharges::Drop(WriteBufferManager* wbm, size_t n) {
  if (wbm == nullptr || released_) return;
  assert(n <= immutable_.size());
  for (; n > 0 && !immutable_.empty(); n--) {
    FreeImmutable(wbm, immutable_.front());
    immutable_.pop_front();
  }
}

void MemTableCharges::ReleaseAll(WriteBufferManager* wbm) {
  if (wbm == nullptr || released_) return;
  Drop(wbm, immutable_.size());
  released_ = true;
  if (active_ > 0) {
    wbm->ScheduleFreeMem(active_);
    wbm->FreeMem(active_);
    active_ = first_ = 0;
  }
}

void MemTableCharges::KeepImmutable(WriteBufferManager* wbm) {
  if (wbm == nullptr || released_ || immutable_mutable_) return;
  immutable_mutable_ = true;
  // Reserved again before being freed: the usage never dips, so no
  // stall ends on a figure that is not true.
  for (size_t charge : immutable_) {
    wbm->ReserveMem(charge);
    wbm->FreeMem(charge);
  }
}

void MemTableCharges::ScheduleImmutable(WriteBufferManager* wbm) {
  if (wbm == nullptr || released_ || !immutable_mutable_) return;
  immutable_mutable_ = false;
  for (size_t charge : immutable_) wbm->ScheduleFreeMem(charge);
}

}  // namespace strata
