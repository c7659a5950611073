// PinnedValue<T>: a value a table reader uses for a while — a block or a
// filter — wherever it lives: pinned in the block cache (released on
// Reset), owned (deleted on Reset) or borrowed from the reader (left
// alone). LoadThroughCache finds or makes one, and says which it did (for
// the block cache tickers).
//
// CachePin: the cache pin of a PinnedValue, which it can lend to
// PinnableSlices: a point lookup keeps a value found in a cached block by
// pinning the block's cache entry into the slice, without a copy
// (docs/read_path.md).
//
// Thread safety: one thread at a time; the cache it pins into is
// thread-safe.

#ifndef STRATA_TABLE_PINNED_VALUE_H_
#define STRATA_TABLE_PINNED_VALUE_H_

#include <cstddef>
#include <memory>

#include "strata/cache.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class CachePin {
 public:
  CachePin() = default;
  CachePin(const CachePin&) = delete;
  CachePin& operator=(const CachePin&) = delete;

  // Makes *out view bytes, which lie inside the pinned entry's value, and
  // hold a pin on the entry until out is Reset, re-pinned or destroyed.
  // The first call hands over the pin this object holds (so it costs no
  // cache call): from then on the entry stays only as long as that slice
  // holds it, and the owner of this object reads the value no longer than
  // the slice lives (a lookup's caller keeps its slices until the lookup
  // returns). Each later call takes a pin of its own (Cache::Ref).
  void PinInto(const Slice& bytes, PinnableSlice* out) {
    if (lent_) {
      cache_->Ref(handle_);
    } else {
      lent_ = true;
    }
    out->PinSlice(bytes, &ReleaseHandle, cache_, handle_);
  }

 private:
  template <class T>
  friend class PinnedValue;

  static void ReleaseHandle(void* cache, void* handle) {
    static_cast<Cache*>(cache)->Release(static_cast<Cache::Handle*>(handle));
  }

  // Takes over the pin of handle.
  void Set(Cache* cache, Cache::Handle* handle) {
    cache_ = cache;
    handle_ = handle;
    lent_ = false;
  }
  // Gives back the pin unless it was lent; empty afterwards.
  void Release() {
    if (handle_ != nullptr && !lent_) cache_->Release(handle_);
    handle_ = nullptr;
    lent_ = false;
  }
  void MoveFrom(CachePin* other) {
    cache_ = other->cache_;
    handle_ = other->handle_;
    lent_ = other->lent_;
    other->handle_ = nullptr;
    other->lent_ = false;
  }

  Cache* cache_ = nullptr;
  Cache::Handle* handle_ = nullptr;  // null: nothing pinned
  bool lent_ = false;                // the pin was handed to a PinnableSlice
};

template <class T>
class PinnedValue {
 public:
  PinnedValue() = default;
  PinnedValue(const PinnedValue&) = delete;
  PinnedValue& operator=(const PinnedValue&) = delete;
  PinnedValue(PinnedValue&& other) noexcept { *this = std::move(other); }
  PinnedValue& operator=(PinnedValue&& other) noexcept {
    if (this != &other) {
      Reset();
      value_ = other.value_;
      pin_.MoveFrom(&other.pin_);
      owned_ = other.owned_;
      other.value_ = nullptr;
      other.owned_ = false;
    }
    return *this;
  }
  ~PinnedValue() { Reset(); }

  void Borrow(T* value) {
    Reset();
    value_ = value;
  }
  void Own(std::unique_ptr<T> value) {
    Reset();
    value_ = value.release();
    owned_ = true;
  }
  // Takes over the pin of handle.
  void Pin(Cache* cache, Cache::Handle* handle) {
    Reset();
    pin_.Set(cache, handle);
    value_ = static_cast<T*>(cache->Value(handle));
  }

  void Reset() {
    if (pin_.handle_ != nullptr) {
      pin_.Release();
    } else if (owned_) {
      delete value_;
    }
    value_ = nullptr;
    owned_ = false;
  }

  T* get() const { return value_; }
  T* operator->() const { return value_; }
  bool is_cached() const { return pin_.handle_ != nullptr; }
  // The pin that keeps the value in the cache, to lend; null if the value
  // is not in the cache.
  CachePin* cache_pin() { return is_cached() ? &pin_ : nullptr; }

 private:
  T* value_ = nullptr;
  CachePin pin_;
  bool owned_ = false;
};

template <class T>
void DeleteCachedValue(const Slice& /*key*/, void* value) {
  delete static_cast<T*>(value);
}

// How LoadThroughCache got its value.
enum class CacheLoad {
  kHit,      // found in the cache
  kAdded,    // made, and inserted into the cache
  kNotAdded  // made, and not cached (no cache, no fill, charge 0, full)
};

// Sets *out to the value cached under key in cache (may be null), or to a
// new one from make — inserted into the cache at priority when fill is
// set, else (or if a strict cache is full) owned by *out. *load says which
// (set only on success).
// make: Status(std::unique_ptr<T>* value, size_t* charge) makes a value
// and says how many bytes of memory it holds; charge 0 means it holds
// none of its own (it points into an mmap'ed file) and must not be
// cached. A template parameter, not a std::function: this runs on every
// block read, and a capturing lambda would cost an allocation.
template <class T, class MakeValue>
Status LoadThroughCache(Cache* cache, const Slice& key, bool fill,
                        Cache::Priority priority, const MakeValue& make,
                        PinnedValue<T>* out, CacheLoad* load) {
  if (cache != nullptr) {
    Cache::Handle* handle = cache->Lookup(key);
    if (handle != nullptr) {
      out->Pin(cache, handle);
      *load = CacheLoad::kHit;
      return Status::OK();
    }
  }
  std::unique_ptr<T> value;
  size_t charge = 0;
  Status s = make(&value, &charge);
  if (!s.ok()) return s;
  if (cache != nullptr && fill && charge > 0) {
    Cache::Handle* handle = nullptr;
    if (cache
            ->Insert(key, value.get(), charge, &DeleteCachedValue<T>, &handle,
                     priority)
            .ok()) {
      value.release();  // the cache's now
      out->Pin(cache, handle);
      *load = CacheLoad::kAdded;
      return Status::OK();
    }
    // Incomplete: a strict cache is full; the value is left to us.
  }
  out->Own(std::move(value));
  *load = CacheLoad::kNotAdded;
  return Status::OK();
}

}  // namespace strata

#endif  // STRATA_TABLE_PINNED_VALUE_H_
