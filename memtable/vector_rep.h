// VectorRep: the memtable's unordered index (VectorRepFactory). Entries --
// opaque pointers the caller encoded, as InlineSkipList's keys -- are
// appended in arrival order with no search at all; order is built on demand
// as sorted runs.
//
// Comparator is a callable int operator()(const char* a, const char* b)
// returning <0, 0, >0 (the memtable's KeyComparator).
//
// Storage: append-only chunks that never move. Chunk k holds
// base << k pointers (base a power of two), so entry i is found with a
// shift and a count of leading zeros, and kMaxChunks chunks hold more
// entries than any memory could. A chunk is allocated when its first entry
// arrives.
//
// Sorted runs: an immutable array of the first `covered` entries in
// comparator order. Entries that compare equal (the same internal key: a
// WAL record applied twice) keep only the first appended. A run is built
// by merging the previous run with the entries appended since, sorted (a
// bulk load therefore sorts once; an input already in order costs one
// comparison per entry). The newest run is cached; a reader holds its run
// through a shared_ptr, so a newer run never frees an array an iterator
// walks. After MarkImmutable, the first run covering every entry is
// published as final: readers then use it with no lock and no reference
// count.
//
// Thread safety:
//   - Append: one writer at a time (the caller serializes; DB::Open refuses
//     concurrent memtable writes with this representation). No lock: the
//     pointer is stored, then published by a release store of the count.
//   - size(), At(i) for i < size(), final_run(): any thread, no lock.
//   - Sorted(): any thread; takes mu_ (not the writer's concern).
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
#include <memory>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "util/mutexlock.h"

namespace strata {

template <class Comparator>
class VectorRep {
 public:
  struct Run {
    size_t covered = 0;  // entries [0, covered) of the append order
    std::vector<const char*> entries;
  };

  // reserve: room for this many entries in the first chunk (rounded up to
  // a power of two, at least kMinChunk).
  VectorRep(Comparator cmp, size_t reserve);
  VectorRep(const VectorRep&) = delete;
  VectorRep& operator=(const VectorRep&) = delete;
  ~VectorRep();

  // REQUIRES: one writer at a time; entry's bytes stay unchanged for the
  // life of this object.
  void Append(const char* entry);

  size_t size() const { return count_.load(std::memory_order_acquire); }

  // REQUIRES: i < size().
  const char* At(size_t i) const {
    size_t offset;
    const int k = Locate(i, &offset);
    return chunks_[k][offset];
  }

  // fn(entry) for the entries [begin, end), in append order.
  // REQUIRES: end <= size().
  template <class Fn>
  void ForEach(size_t begin, size_t end, const Fn& fn) const {
    if (begin >= end) return;
    size_t offset;
    int k = Locate(begin, &offset);
    for (size_t i = begin; i < end; k++, offset = 0) {
      const size_t take =
          std::min((size_t{1} << (base_shift_ + k)) - offset, end - i);
      const char* const* chunk = chunks_[k] + offset;
      for (size_t j = 0; j < take; j++) fn(chunk[j]);
      i += take;
    }
  }

  // Bytes of the pointer array that size() entries fill.
  size_t MemoryUsage() const { return size() * sizeof(const char*); }

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
  static constexpr size_t kMinChunk = 256;
  static constexpr int kMaxChunks = 48;

  // The chunk of entry i, and its offset there in *offset.
  int Locate(size_t i, size_t* offset) const {
    const size_t q = (i >> base_shift_) + 1;  // chunk k holds q in [2^k, 2^(k+1))
    int k = 0;
    while ((q >> (k + 1)) != 0) k++;
    *offset = i - (((size_t{1} << k) - 1) << base_shift_);
    return k;
  }

  bool Less(const char* a, const char* b) const { return cmp_(a, b) < 0; }

  // A run of old's entries and those of [old.covered, n), merged.
  std::shared_ptr<const Run> Extend(const Run& old, size_t n) const;
  // Sorts v, keeping the first of entries that compare equal, in place.
  void SortUnique(std::vector<const char*>* v) const;

  const Comparator cmp_;
  int base_shift_;
  std::atomic<size_t> count_{0};
  // Written by the writer before count_ publishes them; read only below
  // count_.
  const char** chunks_[kMaxChunks] = {};
  // The writer's place, so that an append needs no Locate: the chunk being
  // filled, its size and the slots used in it. Writer only.
  int tail_chunk_ = -1;
  size_t tail_capacity_ = 0;
  size_t tail_used_ = 0;

  port::Mutex mu_;
  std::shared_ptr<const Run> cached_ GUARDED_BY(mu_);
  std::atomic<bool> immutable_{false};
  std::atomic<const Run*> final_{nullptr};
};

template <class Comparator>
VectorRep<Comparator>::VectorRep(Comparator cmp, size_t reserve)
    : cmp_(cmp), base_shift_(0), cached_(std::make_shared<Run>()) {
  while ((size_t{1} << base_shift_) < std::max(reserve, kMinChunk)) {
    base_shift_++;
  }
}

template <class Comparator>
VectorRep<Comparator>::~VectorRep() {
  for (const char** chunk : chunks_) delete[] chunk;
}

template <class Comparator>
void VectorRep<Comparator>::Append(const char* entry) {
  if (tail_used_ == tail_capacity_) {
    tail_chunk_++;
    assert(tail_chunk_ < kMaxChunks);
    tail_capacity_ = size_t{1} << (base_shift_ + tail_chunk_);
    chunks_[tail_chunk_] = new const char*[tail_capacity_];
    tail_used_ = 0;
  }
  chunks_[tail_chunk_][tail_used_++] = entry;
  count_.store(count_.load(std::memory_order_relaxed) + 1,
               std::memory_order_release);
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
  // In order already (a sequential load): one comparison per entry.
  size_t i = 1;
  while (i < v->size() && Less((*v)[i - 1], (*v)[i])) i++;
  if (i >= v->size()) return;
  // Stable: of equal entries the first appended stays first, and is kept.
  std::stable_sort(v->begin(), v->end(),
                   [this](const char* a, const char* b) { return Less(a, b); });
  auto last = std::unique(v->begin(), v->end(),
                          [this](const char* a, const char* b) {
                            return cmp_(a, b) == 0;
                          });
  v->erase(last, v->end());
}

template <class Comparator>
std::shared_ptr<const typename VectorRep<Comparator>::Run>
VectorRep<Comparator>::Extend(const Run& old, size_t n) const {
  auto run = std::make_shared<Run>();
  run->covered = n;
  std::vector<const char*> fresh;
  fresh.reserve(n - old.covered);
  ForEach(old.covered, n, [&fresh](const char* e) { fresh.push_back(e); });
  SortUnique(&fresh);
  if (old.entries.empty()) {
    run->entries = std::move(fresh);
    return run;
  }
  // Merge: usually a few new entries into many old ones, so each new entry
  // gallops from the previous one's place instead of stepping through
  // every old entry. An old entry equal to a new one wins (appended first).
  const std::vector<const char*>& base = old.entries;
  std::vector<const char*>& out = run->entries;
  out.reserve(base.size() + fresh.size());
  size_t from = 0;
  for (const char* f : fresh) {
    // The first old entry > f, searched in [from, base.size()).
    size_t lo = from, hi = from, step = 1;
    while (hi < base.size() && !Less(f, base[hi])) {
      lo = hi + 1;
      hi = from + step;
      step *= 2;
    }
    hi = std::min(hi, base.size());
    const size_t pos =
        std::upper_bound(base.begin() + lo, base.begin() + hi, f,
                         [this](const char* a, const char* b) {
                           return Less(a, b);
                         }) -
        base.begin();
    out.insert(out.end(), base.begin() + from, base.begin() + pos);
    from = pos;
    if (pos > 0 && cmp_(base[pos - 1], f) == 0) continue;  // a duplicate
    out.push_back(f);
  }
  out.insert(out.end(), base.begin() + from, base.end());
  return run;
}

}  // namespace strata

#endif  // STRATA_MEMTABLE_VECTOR_REP_H_
