#include "db/utilities/transactions/occ_lock_buckets.h"

#include <algorithm>

#include "util/hash.h"

namespace strata {

OccLockBuckets::OccLockBuckets(uint32_t requested)
    : size_(std::max<uint32_t>(1, std::min(requested, kMaxBuckets))),
      mutexes_(new std::mutex[size_]) {}

size_t OccLockBuckets::BucketOf(uint32_t cf_id, const Slice& key) const {
  // The family's id goes into the seed, so the same key in two families
  // usually falls in different buckets.
  return Hash(key.data(), key.size(), 0x6f63636bu ^ cf_id) % size_;
}

void OccLockBuckets::Lock(std::vector<size_t>* buckets) {
  std::sort(buckets->begin(), buckets->end());
  buckets->erase(std::unique(buckets->begin(), buckets->end()), buckets->end());
  for (size_t b : *buckets) mutexes_[b].lock();
}

void OccLockBuckets::Unlock(const std::vector<size_t>& buckets) {
  for (auto it = buckets.rbegin(); it != buckets.rend(); ++it) {
    mutexes_[*it].unlock();
  }
}

}  // namespace strata
