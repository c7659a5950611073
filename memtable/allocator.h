// Allocator: where the memtable's skiplist gets the memory for its nodes.
//
// Memory handed out lives until the allocator is destroyed; there is no
// Free. The skiplist depends on that: a node, once linked, is never
// unlinked or reclaimed, so lock-free readers can hold raw pointers to it.
//
// Thread safety: defined by the implementation. ConcurrentArena
// (memtable/concurrent_arena.h) may be called from many threads at once.

#ifndef STRATA_MEMTABLE_ALLOCATOR_H_
#define STRATA_MEMTABLE_ALLOCATOR_H_

#include <cstddef>

namespace strata {

class Allocator {
 public:
  Allocator() = default;
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;
  virtual ~Allocator();

  // bytes bytes, no alignment promised. REQUIRES: bytes > 0
  virtual char* Allocate(size_t bytes) = 0;

  // bytes bytes aligned for a pointer (and for 8-byte integers).
  // REQUIRES: bytes > 0
  virtual char* AllocateAligned(size_t bytes) = 0;
};

}  // namespace strata

#endif  // STRATA_MEMTABLE_ALLOCATOR_H_
