#include "util/lru_cache.h"

#include <cassert>
#include <cstring>
#include <new>
#include <utility>

#include "util/hash.h"
#include "util/mutexlock.h"

namespace strata {

Cache::~Cache() = default;

// ---- LRUHandleTable ---------------------------------------------------------

namespace {

constexpr uint32_t kInitialBuckets = 16;

// One shard per this much capacity when the caller lets NewLRUCache pick.
constexpr size_t kMinShardCapacity = 512 * 1024;
constexpr int kMaxDefaultShardBits = 6;

// Shard counts above this are refused: 2^20 mutexes and tables is a
// mistake, not a configuration.
constexpr int kMaxShardBits = 20;

LRUHandle* NewHandle(const Slice& key, uint32_t hash, void* value,
                     size_t charge, Cache::DeleterFn deleter,
                     Cache::Priority priority) {
  void* mem = ::operator new(sizeof(LRUHandle) - 1 + key.size());
  LRUHandle* e = static_cast<LRUHandle*>(mem);
  e->value = value;
  e->deleter = deleter;
  e->next_hash = nullptr;
  e->next = nullptr;
  e->prev = nullptr;
  e->charge = charge;
  e->key_length = key.size();
  e->refs = 0;
  e->hash = hash;
  e->in_cache = false;
  e->high_pri = priority == Cache::Priority::HIGH;
  e->in_high_pri_pool = false;
  if (!key.empty()) std::memcpy(e->key_data, key.data(), key.size());
  return e;
}

// Calls the deleter and frees the entry.
void FreeHandle(LRUHandle* e) {
  assert(e->refs == 0 && !e->in_cache);
  if (e->deleter != nullptr) (*e->deleter)(e->key(), e->value);
  ::operator delete(e);
}

// Frees what a shard took out, outside its mutex, oldest first.
void FreeAll(const LRUFreeList& list) {
  for (LRUHandle* e = list.head; e != nullptr;) {
    LRUHandle* next = e->next;
    FreeHandle(e);
    e = next;
  }
}

// ceil(total / parts) without overflowing for totals near SIZE_MAX.
size_t CeilDiv(size_t total, size_t parts) {
  return total / parts + (total % parts != 0 ? 1 : 0);
}

}  // namespace

LRUHandleTable::LRUHandleTable()
    : buckets_(new LRUHandle*[kInitialBuckets]()), length_(kInitialBuckets) {}

LRUHandle** LRUHandleTable::FindPointer(const Slice& key, uint32_t hash) {
  LRUHandle** ptr = &buckets_[hash & (length_ - 1)];
  while (*ptr != nullptr && ((*ptr)->hash != hash || key != (*ptr)->key())) {
    ptr = &(*ptr)->next_hash;
  }
  return ptr;
}

LRUHandle* LRUHandleTable::Lookup(const Slice& key, uint32_t hash) {
  return *FindPointer(key, hash);
}

LRUHandle* LRUHandleTable::Insert(LRUHandle* h) {
  LRUHandle** ptr = FindPointer(h->key(), h->hash);
  LRUHandle* old = *ptr;
  h->next_hash = old == nullptr ? nullptr : old->next_hash;
  *ptr = h;
  if (old == nullptr && ++elems_ > length_) Resize();
  return old;
}

LRUHandle* LRUHandleTable::Remove(const Slice& key, uint32_t hash) {
  LRUHandle** ptr = FindPointer(key, hash);
  LRUHandle* found = *ptr;
  if (found != nullptr) {
    *ptr = found->next_hash;
    elems_--;
  }
  return found;
}

void LRUHandleTable::Resize() {
  uint32_t new_length = length_;
  while (new_length < elems_) new_length *= 2;
  if (new_length == length_) return;
  std::unique_ptr<LRUHandle*[]> fresh(new LRUHandle*[new_length]());
  for (uint32_t i = 0; i < length_; i++) {
    LRUHandle* h = buckets_[i];
    while (h != nullptr) {
      LRUHandle* next = h->next_hash;
      LRUHandle** head = &fresh[h->hash & (new_length - 1)];
      h->next_hash = *head;
      *head = h;
      h = next;
    }
  }
  buckets_ = std::move(fresh);
  length_ = new_length;
}

// ---- LRUCacheShard ----------------------------------------------------------

LRUCacheShard::LRUCacheShard() : mutex_(/*adaptive=*/true) {
  MutexLock l(&mutex_);
  lru_.next = &lru_;
  lru_.prev = &lru_;
  lru_low_pri_ = &lru_;
}

LRUCacheShard::~LRUCacheShard() {
  MutexLock l(&mutex_);
  // Every entry left is in cache and, by the REQUIRES, unpinned.
  table_.ForEach([](LRUHandle* e) {
    assert(e->refs == 0);
    e->in_cache = false;
    FreeHandle(e);
  });
}

void LRUCacheShard::LRURemove(LRUHandle* e) {
  assert(e->next != nullptr && e->prev != nullptr);
  if (lru_low_pri_ == e) lru_low_pri_ = e->prev;
  e->next->prev = e->prev;
  e->prev->next = e->next;
  e->next = e->prev = nullptr;
  lru_usage_ -= e->charge;
  if (e->in_high_pri_pool) {
    high_pri_pool_usage_ -= e->charge;
    e->in_high_pri_pool = false;
  }
}

void LRUCacheShard::LRUInsert(LRUHandle* e) {
  assert(e->next == nullptr && e->prev == nullptr);
  if (e->high_pri && high_pri_pool_ratio_ > 0) {
    // The newest end, inside the pool.
    e->next = &lru_;
    e->prev = lru_.prev;
    e->in_high_pri_pool = true;
    high_pri_pool_usage_ += e->charge;
  } else {
    // Just below the pool: older than every HIGH entry that fits in it.
    e->next = lru_low_pri_->next;
    e->prev = lru_low_pri_;
    lru_low_pri_ = e;
  }
  e->prev->next = e;
  e->next->prev = e;
  lru_usage_ += e->charge;
  ShrinkHighPriPool();
}

void LRUCacheShard::ShrinkHighPriPool() {
  while (high_pri_pool_usage_ > high_pri_pool_capacity_) {
    // The pool's oldest entry joins the low-priority part as its newest.
    lru_low_pri_ = lru_low_pri_->next;
    assert(lru_low_pri_ != &lru_);
    lru_low_pri_->in_high_pri_pool = false;
    high_pri_pool_usage_ -= lru_low_pri_->charge;
  }
}

void LRUCacheShard::DropUnpinned(LRUHandle* e, LRUFreeList* to_free) {
  assert(e->in_cache && e->refs == 0);
  LRURemove(e);
  LRUHandle* removed = table_.Remove(e->key(), e->hash);
  assert(removed == e);
  (void)removed;
  e->in_cache = false;
  usage_ -= e->charge;
  to_free->Push(e);
}

void LRUCacheShard::EvictFromLRU(size_t charge, LRUFreeList* to_free) {
  while (lru_.next != &lru_ &&
         (usage_ > capacity_ || charge > capacity_ - usage_)) {
    DropUnpinned(lru_.next, to_free);
  }
}

void LRUCacheShard::SetCapacity(size_t capacity) {
  LRUFreeList to_free;
  {
    MutexLock l(&mutex_);
    capacity_ = capacity;
    high_pri_pool_capacity_ =
        high_pri_pool_ratio_ >= 1.0
            ? capacity
            : static_cast<size_t>(static_cast<double>(capacity) *
                                  high_pri_pool_ratio_);
    ShrinkHighPriPool();
    EvictFromLRU(0, &to_free);
  }
  FreeAll(to_free);
}

void LRUCacheShard::SetStrictCapacityLimit(bool strict) {
  MutexLock l(&mutex_);
  strict_capacity_limit_ = strict;
}

void LRUCacheShard::SetHighPriPoolRatio(double ratio) {
  size_t capacity;
  {
    MutexLock l(&mutex_);
    high_pri_pool_ratio_ = ratio;
    capacity = capacity_;
  }
  SetCapacity(capacity);  // recomputes the pool's capacity
}

Status LRUCacheShard::Insert(const Slice& key, uint32_t hash, void* value,
                             size_t charge, Cache::DeleterFn deleter,
                             Cache::Handle** handle, Cache::Priority priority) {
  LRUHandle* e = NewHandle(key, hash, value, charge, deleter, priority);
  LRUFreeList to_free;
  Status s;
  {
    MutexLock l(&mutex_);
    // Whether evicting every unpinned entry would make room; if not, and
    // the insert is refused, nothing is evicted for it.
    const size_t pinned = usage_ - lru_usage_;
    const bool fits = pinned <= capacity_ && charge <= capacity_ - pinned;
    if (fits || (handle != nullptr && !strict_capacity_limit_)) {
      EvictFromLRU(charge, &to_free);
    }
    if (!fits && handle == nullptr) {
      // Strict or not, an unpinned entry that does not fit would be the
      // next one evicted: it is evicted at once. It still replaced the
      // key's old entry, which leaves too.
      LRUHandle* old = table_.Remove(key, hash);
      if (old != nullptr) Detach(old, &to_free);
      to_free.Push(e);
    } else if (!fits && strict_capacity_limit_) {
      // The value stays the caller's.
      ::operator delete(e);
      *handle = nullptr;
      s = Status::Incomplete("cache is full of pinned entries",
                             "strict_capacity_limit");
    } else {
      LRUHandle* old = table_.Insert(e);
      e->in_cache = true;
      usage_ += charge;
      if (old != nullptr) Detach(old, &to_free);
      if (handle == nullptr) {
        LRUInsert(e);
      } else {
        e->refs = 1;
        *handle = reinterpret_cast<Cache::Handle*>(e);
      }
    }
  }
  FreeAll(to_free);
  return s;
}

Cache::Handle* LRUCacheShard::Lookup(const Slice& key, uint32_t hash) {
  MutexLock l(&mutex_);
  LRUHandle* e = table_.Lookup(key, hash);
  if (e == nullptr) return nullptr;
  if (e->refs == 0) LRURemove(e);
  e->refs++;
  return reinterpret_cast<Cache::Handle*>(e);
}

void LRUCacheShard::Ref(LRUHandle* e) {
  MutexLock l(&mutex_);
  assert(e->refs > 0);
  e->refs++;
}

bool LRUCacheShard::Release(LRUHandle* e, bool erase_if_last_ref) {
  {
    MutexLock l(&mutex_);
    assert(e->refs > 0);
    if (--e->refs > 0) return false;
    if (e->in_cache) {
      // Over capacity only while pinned entries crowd it: the entry that
      // just became evictable goes first.
      if (!erase_if_last_ref && usage_ <= capacity_) {
        LRUInsert(e);
        return false;
      }
      LRUHandle* removed = table_.Remove(e->key(), e->hash);
      assert(removed == e);
      (void)removed;
      e->in_cache = false;
    }
    usage_ -= e->charge;
  }
  FreeHandle(e);
  return true;
}

void LRUCacheShard::Erase(const Slice& key, uint32_t hash) {
  LRUFreeList to_free;
  {
    MutexLock l(&mutex_);
    LRUHandle* e = table_.Remove(key, hash);
    if (e == nullptr) return;
    Detach(e, &to_free);
  }
  FreeAll(to_free);
}

void LRUCacheShard::Detach(LRUHandle* e, LRUFreeList* to_free) {
  e->in_cache = false;
  if (e->refs == 0) {
    LRURemove(e);
    usage_ -= e->charge;
    to_free->Push(e);
  }
}

size_t LRUCacheShard::GetUsage() const {
  MutexLock l(&mutex_);
  return usage_;
}

size_t LRUCacheShard::GetPinnedUsage() const {
  MutexLock l(&mutex_);
  return usage_ - lru_usage_;
}

void LRUCacheShard::EraseUnRefEntries() {
  LRUFreeList to_free;
  {
    MutexLock l(&mutex_);
    while (lru_.next != &lru_) DropUnpinned(lru_.next, &to_free);
  }
  FreeAll(to_free);
}

// ---- LRUCache ---------------------------------------------------------------

LRUCache::LRUCache(const LRUCacheOptions& options)
    : num_shard_bits_(options.num_shard_bits < 0
                          ? DefaultCacheShardBits(options.capacity)
                          : options.num_shard_bits),
      shards_(new LRUCacheShard[size_t{1} << num_shard_bits_]),
      capacity_(0),
      strict_capacity_limit_(false) {
  assert(num_shard_bits_ >= 0 && num_shard_bits_ < kMaxShardBits);
  for (size_t i = 0; i < num_shards(); i++) {
    shards_[i].SetHighPriPoolRatio(options.high_pri_pool_ratio);
  }
  SetCapacity(options.capacity);
  SetStrictCapacityLimit(options.strict_capacity_limit);
}

LRUCache::~LRUCache() = default;

Status LRUCache::Insert(const Slice& key, void* value, size_t charge,
                        DeleterFn deleter, Handle** handle, Priority priority) {
  const uint32_t hash = GetSliceHash(key);
  return ShardFor(hash).Insert(key, hash, value, charge, deleter, handle,
                               priority);
}

Cache::Handle* LRUCache::Lookup(const Slice& key, Statistics* /*stats*/) {
  const uint32_t hash = GetSliceHash(key);
  return ShardFor(hash).Lookup(key, hash);
}

bool LRUCache::Ref(Handle* handle) {
  LRUHandle* e = reinterpret_cast<LRUHandle*>(handle);
  ShardFor(e->hash).Ref(e);
  return true;
}

bool LRUCache::Release(Handle* handle, bool erase_if_last_ref) {
  if (handle == nullptr) return false;
  LRUHandle* e = reinterpret_cast<LRUHandle*>(handle);
  return ShardFor(e->hash).Release(e, erase_if_last_ref);
}

// Value and charge never change after Insert, so they are read unlocked;
// the caller's handle keeps the entry alive.
void* LRUCache::Value(Handle* handle) {
  return reinterpret_cast<LRUHandle*>(handle)->value;
}

size_t LRUCache::GetCharge(Handle* handle) const {
  return reinterpret_cast<const LRUHandle*>(handle)->charge;
}

size_t LRUCache::GetUsage(Handle* handle) const { return GetCharge(handle); }

void LRUCache::Erase(const Slice& key) {
  const uint32_t hash = GetSliceHash(key);
  ShardFor(hash).Erase(key, hash);
}

uint64_t LRUCache::NewId() {
  return last_id_.fetch_add(1, std::memory_order_relaxed) + 1;
}

void LRUCache::SetCapacity(size_t capacity) {
  MutexLock l(&config_mutex_);
  capacity_ = capacity;
  const size_t per_shard = CeilDiv(capacity, num_shards());
  for (size_t i = 0; i < num_shards(); i++) shards_[i].SetCapacity(per_shard);
}

void LRUCache::SetStrictCapacityLimit(bool strict_capacity_limit) {
  MutexLock l(&config_mutex_);
  strict_capacity_limit_ = strict_capacity_limit;
  for (size_t i = 0; i < num_shards(); i++) {
    shards_[i].SetStrictCapacityLimit(strict_capacity_limit);
  }
}

bool LRUCache::HasStrictCapacityLimit() const {
  MutexLock l(&config_mutex_);
  return strict_capacity_limit_;
}

size_t LRUCache::GetCapacity() const {
  MutexLock l(&config_mutex_);
  return capacity_;
}

size_t LRUCache::GetUsage() const {
  size_t total = 0;
  for (size_t i = 0; i < num_shards(); i++) total += shards_[i].GetUsage();
  return total;
}

size_t LRUCache::GetPinnedUsage() const {
  size_t total = 0;
  for (size_t i = 0; i < num_shards(); i++) {
    total += shards_[i].GetPinnedUsage();
  }
  return total;
}

void LRUCache::EraseUnRefEntries() {
  for (size_t i = 0; i < num_shards(); i++) shards_[i].EraseUnRefEntries();
}

// ---- Factories
// ----------------------------------------------------------------

int DefaultCacheShardBits(size_t capacity) {
  int bits = 0;
  size_t shards = capacity / kMinShardCapacity;
  while (bits < kMaxDefaultShardBits && (shards >>= 1) != 0) bits++;
  return bits;
}

std::shared_ptr<Cache> NewLRUCache(const LRUCacheOptions& options) {
  if (options.num_shard_bits >= kMaxShardBits ||
      !(options.high_pri_pool_ratio >= 0.0 &&
        options.high_pri_pool_ratio <= 1.0)) {
    return nullptr;
  }
  return std::make_shared<LRUCache>(options);
}

std::shared_ptr<Cache> NewLRUCache(size_t capacity, int num_shard_bits,
                                   bool strict_capacity_limit,
                                   double high_pri_pool_ratio) {
  return NewLRUCache(LRUCacheOptions(
      capacity, num_shard_bits, strict_capacity_limit, high_pri_pool_ratio));
}

}  // namespace strata
