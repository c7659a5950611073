// Per-core sharding: state that many threads update (arena shards,
// statistics counters) is split into one slot per hardware thread so that
// threads on different cores touch different cache lines.
//
// CoreShardCount() is the number of hardware threads rounded up to a
// power of two; CurrentCoreHint() the calling thread's CPU (or, where the
// platform cannot tell, a per-thread value) — a hint only, since a thread
// may migrate at any moment: use it to spread load, never for correctness.
//
// Thread safety: the functions are thread-safe; CoreLocalArray's slots are
// shared, so T itself must be safe to update from several threads (e.g.
// atomics), as two threads may use one slot.

#ifndef STRATA_UTIL_CORE_LOCAL_H_
#define STRATA_UTIL_CORE_LOCAL_H_

#include <cstddef>
#include <memory>

#include "port/port.h"

namespace strata {

size_t CoreShardCount();
size_t CurrentCoreHint();

template <typename T>
class CoreLocalArray {
 public:
  CoreLocalArray() : mask_(CoreShardCount() - 1), slots_(new Slot[mask_ + 1]) {}

  size_t size() const { return mask_ + 1; }
  // The slot of the calling thread's core.
  T* Access() { return &slots_[CurrentCoreHint() & mask_].value; }
  T* AccessAt(size_t i) { return &slots_[i].value; }
  const T* AccessAt(size_t i) const { return &slots_[i].value; }

 private:
  struct alignas(port::kCacheLineSize) Slot {
    T value;
  };
  const size_t mask_;
  std::unique_ptr<Slot[]> slots_;
};

}  // namespace strata

#endif  // STRATA_UTIL_CORE_LOCAL_H_
