#include "util/cache_reservation.h"

#include <cassert>

#include "util/coding.h"
#include "util/mutexlock.h"

namespace strata {

namespace {

// The entries hold no value: there is nothing to free.
void DeleteNothing(const Slice& /*key*/, void* /*value*/) {}

}  // namespace

CacheReservation::CacheReservation(std::shared_ptr<Cache> cache)
    : cache_(std::move(cache)), id_(cache_->NewId()) {}

CacheReservation::~CacheReservation() {
  MutexLock l(&mu_);
  bytes_ = 0;
  Match();
}

void CacheReservation::Grow(size_t n) {
  MutexLock l(&mu_);
  bytes_ += n;
  Match();
}

void CacheReservation::Shrink(size_t n) {
  MutexLock l(&mu_);
  assert(n <= bytes_);
  bytes_ -= n < bytes_ ? n : bytes_;
  Match();
}

void CacheReservation::Match() {
  const size_t wanted = (bytes_ + kEntrySize - 1) / kEntrySize;
  while (entries_.size() < wanted) {
    char key[16];
    EncodeFixed64(key, id_);
    EncodeFixed64(key + 8, next_key_++);
    Cache::Handle* handle = nullptr;
    Status s = cache_->Insert(Slice(key, sizeof(key)), nullptr, kEntrySize,
                              &DeleteNothing, &handle);
    if (!s.ok() || handle == nullptr) break;  // full: tried again later
    entries_.push_back(handle);
  }
  while (entries_.size() > wanted) {
    cache_->Release(entries_.back(), /*erase_if_last_ref=*/true);
    entries_.pop_back();
  }
  charged_.store(entries_.size() * kEntrySize, std::memory_order_relaxed);
}

}  // namespace strata
