// CacheReservation: charges a Cache for memory that lives outside it (the
// memtables, for WriteBufferManager), so that the cache's capacity bounds
// both. The charge is made of dummy entries of kEntrySize bytes each,
// pinned by a handle so the cache never evicts them: a charge of n bytes
// holds ceil(n / kEntrySize) entries.
//
// The charge moves by deltas (Grow, Shrink). Deltas commute, so callers
// on many threads need not order their calls: once every call has
// returned, the entries match the sum of the deltas.
//
// With a strict capacity limit the cache may refuse an entry; the charge
// is then short (charged() < the bytes asked) and the next Grow tries
// again. The memory itself is not refused: it is already in use.
//
// Thread safety: every method may be called from any thread.

#ifndef STRATA_UTIL_CACHE_RESERVATION_H_
#define STRATA_UTIL_CACHE_RESERVATION_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/cache.h"

namespace strata {

class CacheReservation {
 public:
  static constexpr size_t kEntrySize = 256 << 10;

  explicit CacheReservation(std::shared_ptr<Cache> cache);
  CacheReservation(const CacheReservation&) = delete;
  CacheReservation& operator=(const CacheReservation&) = delete;
  // Releases (and erases) every entry.
  ~CacheReservation();

  // The bytes to charge grow / shrink by n.
  void Grow(size_t n) LOCKS_EXCLUDED(mu_);
  // REQUIRES: n at most what the Grows added beyond earlier Shrinks.
  void Shrink(size_t n) LOCKS_EXCLUDED(mu_);

  // What the entries charge the cache now.
  size_t charged() const { return charged_.load(std::memory_order_relaxed); }
  Cache* cache() const { return cache_.get(); }

 private:
  // Inserts or releases entries until they cover bytes_.
  void Match() EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::shared_ptr<Cache> cache_;
  // Keys are this id and a counter: unique in the cache.
  const uint64_t id_;
  port::Mutex mu_;
  size_t bytes_ GUARDED_BY(mu_) = 0;
  uint64_t next_key_ GUARDED_BY(mu_) = 0;
  std::vector<Cache::Handle*> entries_ GUARDED_BY(mu_);
  std::atomic<size_t> charged_{0};
};

}  // namespace strata

#endif  // STRATA_UTIL_CACHE_RESERVATION_H_
