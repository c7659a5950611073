// Cache: a bounded map from keys to opaque values, charged by size. The
// block cache of tables (BlockBasedTableOptions::block_cache) is one; a
// cache may be shared by many DBs.
//
// An entry is reached through a Handle: Lookup and Insert return one that
// pins the entry (it is never freed while a handle to it is held); Release
// gives it back. When an entry is erased or evicted and no handle pins it,
// the cache calls its deleter. Usage is the sum of the charges of the
// entries the cache holds (pinned or not); when an insert takes usage over
// capacity, unpinned entries are evicted least recently used first.
//
// Thread safety: every method is safe to call from many threads at once.

#ifndef STRATA_INCLUDE_CACHE_H_
#define STRATA_INCLUDE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class Statistics;

class STRATA_EXPORT Cache {
 public:
  // HIGH entries (index and filter blocks) are evicted after LOW ones while
  // they fit in the high-priority pool (LRUCacheOptions).
  enum class Priority { HIGH, LOW };

  // Opaque; points at an entry of the cache.
  struct Handle {};

  // Frees a value the cache no longer holds.
  using DeleterFn = void (*)(const Slice& key, void* value);

  Cache() = default;
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;
  virtual ~Cache();

  virtual const char* Name() const = 0;

  // Maps key to value, charging `charge` bytes, replacing (and, once
  // unpinned, deleting) an entry of the same key. With handle non-null,
  // *handle pins the new entry. If evicting every unpinned entry would
  // not make room: with handle null, the new entry is dropped at once (its
  // value deleted, the key's old entry gone too) and OK returned, as if it
  // had been inserted and evicted; with handle non-null and a strict
  // capacity limit, *handle = nullptr, the value is left to the caller
  // (not deleted) and Incomplete returned; with handle non-null and no
  // strict limit, the entry goes in over capacity.
  virtual Status Insert(const Slice& key, void* value, size_t charge,
                        DeleterFn deleter, Handle** handle = nullptr,
                        Priority priority = Priority::LOW) = 0;

  // A handle pinning the entry of key, or nullptr.
  virtual Handle* Lookup(const Slice& key, Statistics* stats = nullptr) = 0;

  // One more pin on an entry the caller already holds a handle to; true.
  virtual bool Ref(Handle* handle) = 0;

  // Unpins. Returns true if this freed the entry (it had been erased or
  // evicted, or erase_if_last_ref and this was the last pin).
  virtual bool Release(Handle* handle, bool erase_if_last_ref = false) = 0;

  virtual void* Value(Handle* handle) = 0;

  // Drops the entry of key; it is freed when its last handle is released.
  virtual void Erase(const Slice& key) = 0;

  // A number unique within this cache, for building key prefixes.
  virtual uint64_t NewId() = 0;

  // Changing the capacity evicts unpinned entries until usage fits.
  virtual void SetCapacity(size_t capacity) = 0;
  virtual void SetStrictCapacityLimit(bool strict_capacity_limit) = 0;
  virtual bool HasStrictCapacityLimit() const = 0;
  virtual size_t GetCapacity() const = 0;
  virtual size_t GetUsage() const = 0;
  virtual size_t GetUsage(Handle* handle) const = 0;
  // Usage of the entries some handle pins.
  virtual size_t GetPinnedUsage() const = 0;
  virtual size_t GetCharge(Handle* handle) const = 0;

  // Frees every entry no handle pins.
  virtual void EraseUnRefEntries() = 0;
};

struct STRATA_EXPORT LRUCacheOptions {
  size_t capacity = 0;
  // The cache is split into 2^num_shard_bits shards by key hash, each with
  // its own lock and capacity / 2^num_shard_bits. -1: chosen from the
  // capacity (one shard per 512 KiB, at most 64 shards).
  int num_shard_bits = -1;
  // Fail inserts rather than exceed the capacity.
  bool strict_capacity_limit = false;
  // Share of the capacity where HIGH entries outlive LOW ones, in [0, 1].
  double high_pri_pool_ratio = 0.5;

  LRUCacheOptions() = default;
  LRUCacheOptions(size_t cap, int shard_bits, bool strict, double high_ratio)
      : capacity(cap),
        num_shard_bits(shard_bits),
        strict_capacity_limit(strict),
        high_pri_pool_ratio(high_ratio) {}
};

// A sharded LRU cache. Invalid arguments (num_shard_bits >= 20, a ratio
// outside [0, 1]) return nullptr, as RocksDB's does.
STRATA_EXPORT std::shared_ptr<Cache> NewLRUCache(
    size_t capacity, int num_shard_bits = -1,
    bool strict_capacity_limit = false, double high_pri_pool_ratio = 0.5);
STRATA_EXPORT std::shared_ptr<Cache> NewLRUCache(
    const LRUCacheOptions& options);

}  // namespace strata

#endif  // STRATA_INCLUDE_CACHE_H_
