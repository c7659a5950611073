// LRUCache: the Cache of NewLRUCache (include/strata/cache.h), described
// in docs/cache.md.
//
// The key space is split into 2^num_shard_bits shards by the top bits of
// the key's hash; each shard is an independent LRU cache of
// capacity / 2^num_shard_bits under its own mutex, so threads working on
// different keys rarely meet on a lock.
//
// A shard keeps its entries in two structures:
//   - a hash table (chained, keyed by key + hash) of every entry the cache
//     holds ("in cache"), pinned or not;
//   - a circular LRU list of the in-cache entries no handle pins, oldest
//     first. Eviction takes from its old end.
// Invariants (under the shard mutex):
//   - an entry is in the LRU list  <=>  in_cache && refs == 0;
//   - an entry is freed (deleter called)  <=>  !in_cache && refs == 0;
//   - usage_ sums the charges of entries not yet freed (in cache, or
//     erased/evicted but still pinned); lru_usage_ those in the list;
//   - the list's newest part, after lru_low_pri_, is the high-priority
//     pool: HIGH entries go in at the newest end, LOW ones at the pool's
//     boundary, and the oldest pool entries slide out of it while the pool
//     holds more than capacity * high_pri_pool_ratio. So LOW entries are
//     evicted before any HIGH entry that fits in the pool.
// Deleters run after the shard mutex is released: they may be slow (a
// table reader closing its file) or call into the cache.
//
// Thread safety: LRUCache is safe from many threads at once.

#ifndef STRATA_UTIL_LRU_CACHE_H_
#define STRATA_UTIL_LRU_CACHE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/cache.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// One cache entry; the Cache::Handle given out is this object. Allocated
// with room for the key after it.
struct LRUHandle {
  void* value;
  Cache::DeleterFn deleter;
  LRUHandle* next_hash;  // the hash table's chain
  LRUHandle* next;       // the LRU list (newer), or the chain of entries
  LRUHandle* prev;       // to free once the shard mutex is released
  size_t charge;
  size_t key_length;
  uint32_t refs;  // handles held by users
  uint32_t hash;
  bool in_cache;          // reachable through the hash table
  bool high_pri;          // inserted with Priority::HIGH
  bool in_high_pri_pool;  // in the LRU list's high-priority part
  char key_data[1];       // key_length bytes

  Slice key() const { return Slice(key_data, key_length); }
};

// Entries taken out of a shard, to be freed in order once its mutex is
// released; chained through `next`.
struct LRUFreeList {
  LRUHandle* head = nullptr;
  LRUHandle** tail = &head;

  void Push(LRUHandle* e) {
    e->next = nullptr;
    *tail = e;
    tail = &e->next;
  }
};

// A hash table of LRUHandles by (key, hash), chained through next_hash.
// The bucket array doubles whenever the entries outnumber the buckets, so
// chains stay about one entry long. Not thread-safe: the shard locks it.
class LRUHandleTable {
 public:
  LRUHandleTable();
  LRUHandleTable(const LRUHandleTable&) = delete;
  LRUHandleTable& operator=(const LRUHandleTable&) = delete;
  ~LRUHandleTable() = default;

  LRUHandle* Lookup(const Slice& key, uint32_t hash);
  // Adds h, returning the entry of the same key it replaces (or nullptr).
  LRUHandle* Insert(LRUHandle* h);
  // Unlinks and returns the entry of key, or nullptr.
  LRUHandle* Remove(const Slice& key, uint32_t hash);

  // Calls fn on every entry; fn must not change the table.
  template <typename Fn>
  void ForEach(Fn fn) const {
    for (uint32_t i = 0; i < length_; i++) {
      for (LRUHandle* h = buckets_[i]; h != nullptr;) {
        LRUHandle* next = h->next_hash;  // fn may free h
        fn(h);
        h = next;
      }
    }
  }

 private:
  // The link pointing at the entry of key, or at the null ending its chain.
  LRUHandle** FindPointer(const Slice& key, uint32_t hash);
  void Resize();

  std::unique_ptr<LRUHandle*[]> buckets_;
  uint32_t length_ = 0;  // a power of two
  uint32_t elems_ = 0;
};

// One shard: a mutex, a hash table and an LRU list. The methods are those
// of Cache for keys of this shard, with the key's hash precomputed.
class alignas(port::kCacheLineSize) LRUCacheShard {
 public:
  LRUCacheShard();
  LRUCacheShard(const LRUCacheShard&) = delete;
  LRUCacheShard& operator=(const LRUCacheShard&) = delete;
  // REQUIRES: no handle is held.
  ~LRUCacheShard();

  void SetCapacity(size_t capacity);
  void SetStrictCapacityLimit(bool strict);
  void SetHighPriPoolRatio(double ratio);

  Status Insert(const Slice& key, uint32_t hash, void* value, size_t charge,
                Cache::DeleterFn deleter, Cache::Handle** handle,
                Cache::Priority priority);
  Cache::Handle* Lookup(const Slice& key, uint32_t hash);
  void Ref(LRUHandle* e);
  bool Release(LRUHandle* e, bool erase_if_last_ref);
  void Erase(const Slice& key, uint32_t hash);
  size_t GetUsage() const;
  size_t GetPinnedUsage() const;
  void EraseUnRefEntries();

 private:
  void LRURemove(LRUHandle* e) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void LRUInsert(LRUHandle* e) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Moves the oldest pool entries out of the pool until it fits.
  void ShrinkHighPriPool() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Evicts unpinned entries, oldest first, until usage_ + charge fits in
  // the capacity or none is left; they go on *to_free.
  void EvictFromLRU(size_t charge, LRUFreeList* to_free)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Takes e (in the LRU list) out of the cache entirely onto *to_free.
  void DropUnpinned(LRUHandle* e, LRUFreeList* to_free)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // e has just left the hash table: it is freed now if unpinned (onto
  // *to_free), else by its last Release.
  void Detach(LRUHandle* e, LRUFreeList* to_free)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  mutable port::Mutex mutex_;
  size_t capacity_ GUARDED_BY(mutex_) = 0;
  size_t high_pri_pool_capacity_ GUARDED_BY(mutex_) = 0;
  double high_pri_pool_ratio_ GUARDED_BY(mutex_) = 0;
  bool strict_capacity_limit_ GUARDED_BY(mutex_) = false;
  size_t usage_ GUARDED_BY(mutex_) = 0;
  size_t lru_usage_ GUARDED_BY(mutex_) = 0;
  size_t high_pri_pool_usage_ GUARDED_BY(mutex_) = 0;
  // The list head: lru_.next is the oldest entry, lru_.prev the newest.
  LRUHandle lru_ GUARDED_BY(mutex_);
  // The newest entry outside the high-priority pool (&lru_ if none).
  LRUHandle* lru_low_pri_ GUARDED_BY(mutex_);
  LRUHandleTable table_ GUARDED_BY(mutex_);
};

class LRUCache final : public Cache {
 public:
  // REQUIRES: options are valid (NewLRUCache checks them). A negative
  // num_shard_bits picks DefaultCacheShardBits(capacity).
  explicit LRUCache(const LRUCacheOptions& options);
  // REQUIRES: no handle is held.
  ~LRUCache() override;

  const char* Name() const override { return "LRUCache"; }
  Status Insert(const Slice& key, void* value, size_t charge, DeleterFn deleter,
                Handle** handle = nullptr,
                Priority priority = Priority::LOW) override;
  Handle* Lookup(const Slice& key, Statistics* stats = nullptr) override;
  bool Ref(Handle* handle) override;
  bool Release(Handle* handle, bool erase_if_last_ref = false) override;
  void* Value(Handle* handle) override;
  void Erase(const Slice& key) override;
  uint64_t NewId() override;
  void SetCapacity(size_t capacity) override;
  void SetStrictCapacityLimit(bool strict_capacity_limit) override;
  bool HasStrictCapacityLimit() const override;
  size_t GetCapacity() const override;
  size_t GetUsage() const override;
  size_t GetUsage(Handle* handle) const override;
  size_t GetPinnedUsage() const override;
  size_t GetCharge(Handle* handle) const override;
  void EraseUnRefEntries() override;

  int num_shard_bits() const { return num_shard_bits_; }

 private:
  LRUCacheShard& ShardFor(uint32_t hash) {
    // The top bits pick the shard; the shard's table uses the low ones.
    return num_shard_bits_ == 0 ? shards_[0]
                                : shards_[hash >> (32 - num_shard_bits_)];
  }
  size_t num_shards() const { return size_t{1} << num_shard_bits_; }

  const int num_shard_bits_;
  std::unique_ptr<LRUCacheShard[]> shards_;
  // Serializes capacity changes, so that the shards' split of the
  // capacity always matches capacity_.
  mutable port::Mutex config_mutex_;
  size_t capacity_ GUARDED_BY(config_mutex_);
  bool strict_capacity_limit_ GUARDED_BY(config_mutex_);
  std::atomic<uint64_t> last_id_{0};
};

// The shard count NewLRUCache picks for num_shard_bits -1: one shard per
// 512 KiB of capacity, at most 64.
int DefaultCacheShardBits(size_t capacity);

}  // namespace strata

#endif  // STRATA_UTIL_LRU_CACHE_H_
