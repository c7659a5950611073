// VectorRep: the memtable's unordered index (VectorRepFactory). Entries --
// opaque pointers the caller encoded, as InlineSkipList's keys -- are
// appended in arrival order with no search at all; order is built on demand
// as sorted runs.
//
// Comparator is a callable int operator()(const char* a, const char* b)
// returning <0, 0, >0 (the memtable's KeyComparator).
//
// Storage: append-only chunks of kChunk pointers that never move, taken
// from the memtable's Allocator (so they count in its memory and share its
// huge pages), found through directory pages of kChunk chunk pointers each
// (also from the Allocator) and a fixed top array: entry i is
// top_[i >> 20][(i >> 10) & 1023][i & 1023]. Nothing is ever reallocated,
// so readers need no lock below the published count.
//
// Sorted runs: the first `covered` entries in comparator order. Entries
// that compare equal (the same internal key: a WAL record applied twice)
// keep only the first appended. When the entries arrived in order (a
// sequential load) the run is the append order itself: no copy, no
// allocation ("in place"). Otherwise the run is an array built by merging
// the previous run with the entries appended since, sorted. Checking the
// order costs one comparison per new entry. The newest run is cached; a
// reader holds its run through a shared_ptr, so a newer run never frees an
// array an iterator walks. After MarkImmutable, the first run covering
// every entry is published as final: readers then use it with no lock and
// no reference count.
//
// Thread safety:
//   - Append: one writer at a time (the caller serializes; DB::Open refuses
//     concurrent memtable writes with this representation). No lock: the
//     pointer is stored, then published by a release store of the count.
//   - size(), At(i) for i < size(), final_run(), and a run's entries: any
//     thread, no lock.
//   - Sorted(): any thread; takes mu_ (never the writer's concern).
//   - MarkImmutable(): after the last Append, ordered after it by the
//     caller (the DB mutex).
//
// Invariants:
//   - Entries [0, size()) are written and never change.
//   - cached_ holds the first cached_->covered entries, in order, without
//     duplicates; cached_->covered <= size().
//   - final_, once set, is cached_ and neither changes again.

#ifndef STRATA_MEMTABLE_VECTOR_REP_H_
#define STRATA_MEMTABLE_VECTOR_REP_H_

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "memtable/allocator.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/mutexlock.h"

namespace strata {

template <class Comparator>
class VectorRep {
 public:
  struct Run {
    size_t covered = 0;  // entries [0, covered) of the append order
    // False: the run is the append order itself (entries is empty).
    bool sorted_copy = false;
    std::vector<const char*> entries;
  };

  // allocator holds the chunks and must outlive this object. reserve:
  // chunks for this many entries are allocated up front.
  VectorRep(Comparator cmp, Allocator* allocator, size_t reserve);
  VectorRep(const VectorRep&) = delete;
  VectorRep& operator=(const VectorRep&) = delete;

  // REQUIRES: one writer at a time; entry's bytes stay unchanged for the
  // life of this object.
  void Append(const char* entry);

  size_t size() const { return count_.load(std::memory_order_acquire); }

  // REQUIRES: i < size().
  const char* const& At(size_t i) const {
    return top_[i >> (2 * kChunkBits)][(i >> kChunkBits) & (kChunk - 1)]
               [i & (kChunk - 1)];
  }

  // fn(entry) for the entries [begin, end), in append order.
  // REQUIRES: end <= size().
  template <class Fn>
  void ForEach(size_t begin, size_t end, const Fn& fn) const {
    while (begin < end) {
      const char* const* chunk = &At(begin);
      const size_t take =
          std::min(kChunk - (begin & (kChunk - 1)), end - begin);
      for (size_t j = 0; j < take; j++) fn(chunk[j]);
      begin += take;
    }
  }

  // A run's size, and its i-th entry in comparator order.
  static size_t RunSize(const Run& run) {
    return run.sorted_copy ? run.entries.size() : run.covered;
  }
  const char* RunAt(const Run& run, size_t i) const {
    return run.sorted_copy ? run.entries[i] : At(i);
  }

  // A run leaving at most max_unsorted entries uncovered of those appended
  // before the call (0: all covered). Reuses the cached run when it
  // qualifies, else extends it.
  std::shared_ptr<const Run> Sorted(size_t max_unsorted);

  // The final run (covers every entry; see MarkImmutable), or null.
  const Run* final_run() const {
    return final_.load(std::memory_order_acquire);
  }

  // No Append follows. The next Sorted() call that covers everything
  // publishes its run as final.
  void MarkImmutable() { immutable_.store(true, std::memory_order_release); }

 private:
  static constexpr int kChunkBits = 10;
  static constexpr size_t kChunk = size_t{1} << kChunkBits;
  static constexpr size_t kTopSlots = 1024;  // 2^30 entries

  bool Less(const char* a, const char* b) const { return cmp_(a, b) < 0; }

  // Makes sure entry i has a slot (a new chunk, and directory page, if it
  // starts one). Writer only.
  void EnsureSlot(size_t i);
  // A run of old's entries and those of [old.covered, n).
  std::shared_ptr<const Run> Extend(const Run& old, size_t n) const;
  // Sorts v, keeping the first of entries that compare equal, in place.
  void SortUnique(std::vector<const char*>* v) const;

  const Comparator cmp_;
  Allocator* const allocator_;
  std::atomic<size_t> count_{0};
  // Written by the writer before count_ publishes what they hold.
  const char*** top_[kTopSlots] = {};
  size_t slots_ = 0;  // entries with a slot allocated; writer only

  port::Mutex mu_;
  std::shared_ptr<const Run> cached_ GUARDED_BY(mu_);
  std::atomic<bool> immutable_{false};
  std::atomic<const Run*> final_{nullptr};
};

template <class Comparator>
VectorRep<Comparator>::VectorRep(Comparator cmp, Allocator* allocator,
                                 size_t reserve)
    : cmp_(cmp), allocator_(allocator), cached_(std::make_shared<Run>()) {
  for (size_t i = 0; i < reserve && i < kTopSlots * kChunk * kChunk;
       i += kChunk) {
    EnsureSlot(i);
  }
}

template <class Comparator>
void VectorRep<Comparator>::EnsureSlot(size_t i) {
  if (i < slots_) return;
  assert(i == slots_ && (i & (kChunk - 1)) == 0);
  const size_t page = i >> (2 * kChunkBits);
  if (page >= kTopSlots) std::abort();  // 2^30 entries: no memory holds them
  if (top_[page] == nullptr) {
    char* mem = allocator_->AllocateAligned(kChunk * sizeof(const char**));
    top_[page] = reinterpret_cast<const char***>(mem);
  }
  char* mem = allocator_->AllocateAligned(kChunk * sizeof(const char*));
  top_[page][(i >> kChunkBits) & (kChunk - 1)] =
      reinterpret_cast<const char**>(mem);
  slots_ += kChunk;
}

template <class Comparator>
void VectorRep<Comparator>::Append(const char* entry) {
  const size_t i = count_.load(std::memory_order_relaxed);
  if (i == slots_) EnsureSlot(i);
  top_[i >> (2 * kChunkBits)][(i >> kChunkBits) & (kChunk - 1)]
      [i & (kChunk - 1)] = entry;
  count_.store(i + 1, std::memory_order_release);
}

template <class Comparator>
std::shared_ptr<const typename VectorRep<Comparator>::Run>
VectorRep<Comparator>::Sorted(size_t max_unsorted) {
  MutexLock l(&mu_);
  // The flag before the count: once immutable is seen, the count is final.
  const bool immutable = immutable_.load(std::memory_order_acquire);
  const size_t n = size();
  if (n - cached_->covered > max_unsorted) cached_ = Extend(*cached_, n);
  if (immutable && cached_->covered == n &&
      final_.load(std::memory_order_relaxed) == nullptr) {
    final_.store(cached_.get(), std::memory_order_release);
  }
  return cached_;
}

template <class Comparator>
void VectorRep<Comparator>::SortUnique(std::vector<const char*>* v) const {
  // Stable: of equal entries the first appended stays first, and is kept.
  std::stable_sort(v->begin(), v->end(),
                   [this](const char* a, const char* b) { return Less(a, b); });
  auto last = std::unique(
      v->begin(), v->end(),
      [this](const char* a, const char* b) { return cmp_(a, b) == 0; });
  v->erase(last, v->end());
}

template <class Comparator>
std::shared_ptr<const typename VectorRep<Comparator>::Run>
VectorRep<Comparator>::Extend(const Run& old, size_t n) const {
  auto run = std::make_shared<Run>();
  run->covered = n;
  // Still the append order? Each new entry must follow the one before it
  // (the run's last, when the run is the append order too).
  size_t i = old.covered;
  if (!old.sorted_copy) {
    if (i == 0 && i < n) i++;
    while (i < n && Less(At(i - 1), At(i))) i++;
    if (i == n) return run;  // in place: nothing to copy
  }
  std::vector<const char*> fresh;
  fresh.reserve(n - old.covered);
  ForEach(old.covered, n, [&fresh](const char* e) { fresh.push_back(e); });
  // The new part alone may still be in order (only its start is not).
  size_t j = 1;
  while (j < fresh.size() && Less(fresh[j - 1], fresh[j])) j++;
  if (j < fresh.size()) SortUnique(&fresh);
  run->sorted_copy = true;
  const size_t base_size = RunSize(old);
  if (base_size == 0) {
    run->entries = std::move(fresh);
    return run;
  }
  // Merge: usually a few new entries into many old ones, so each new entry
  // gallops from the previous one's place instead of stepping through
  // every old entry. An old entry equal to a new one wins (appended first).
  std::vector<const char*>& out = run->entries;
  out.reserve(base_size + fresh.size());
  const auto base = [&](size_t k) { return RunAt(old, k); };
  size_t from = 0;
  for (const char* f : fresh) {
    // The first old entry > f, searched in [from, base_size).
    size_t lo = from, hi = from, step = 1;
    while (hi < base_size && !Less(f, base(hi))) {
      lo = hi + 1;
      hi = from + step;
      step *= 2;
    }
    hi = std::min(hi, base_size);
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (Less(f, base(mid))) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    for (; from < lo; from++) out.push_back(base(from));
    if (lo > 0 && cmp_(base(lo - 1), f) == 0) continue;  // a duplicate
    out.push_back(f);
  }
  for (; from < base_size; from++) out.push_back(base(from));
  return run;
}

}  // namespace strata

#endif  // STRATA_MEMTABLE_VECTOR_REP_H_
