// OccLockBuckets: the striped key locks behind an OptimisticTransactionDB's
// parallel validation (OccValidationPolicy::kValidateParallel). A commit
// locks the buckets of every key it tracks, in ascending bucket order (so
// two commits never wait for each other in a cycle), checks its keys,
// writes through the ordinary write path -- in a group with other writes
// -- and unlocks. Two transactions tracking a common key therefore check
// and write one after the other, while unrelated ones check at once.
//
// Thread safety: every method may be called from any thread.

#ifndef STRATA_DB_UTILITIES_TRANSACTIONS_OCC_LOCK_BUCKETS_H_
#define STRATA_DB_UTILITIES_TRANSACTIONS_OCC_LOCK_BUCKETS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "strata/slice.h"

namespace strata {

class OccLockBuckets {
 public:
  // At most kMaxBuckets of them, however many are asked for (a bucket is
  // a mutex of some 40 bytes; RocksDB's default of 2^20 would cost 40 MB
  // a DB for a lock held only around a commit's check and write). At
  // least one.
  static constexpr uint32_t kMaxBuckets = 1u << 16;
  explicit OccLockBuckets(uint32_t requested);

  OccLockBuckets(const OccLockBuckets&) = delete;
  OccLockBuckets& operator=(const OccLockBuckets&) = delete;

  size_t size() const { return size_; }

  // The bucket of key in the column family cf_id.
  size_t BucketOf(uint32_t cf_id, const Slice& key) const;

  // Sorts and deduplicates buckets, then locks each, in that order.
  void Lock(std::vector<size_t>* buckets);
  // Unlocks what Lock locked.
  void Unlock(const std::vector<size_t>& buckets);

 private:
  const size_t size_;
  std::unique_ptr<std::mutex[]> mutexes_;
};

}  // namespace strata

#endif  // STRATA_DB_UTILITIES_TRANSACTIONS_OCC_LOCK_BUCKETS_H_
