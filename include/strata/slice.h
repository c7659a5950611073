// Slice: a borrowed, immutable view of a byte range; SliceParts, a byte
// string given as a list of Slices; and PinnableSlice, a Slice that can keep
// the memory it views alive (see its class comment).
//
// A Slice does not own its bytes. The caller keeps the underlying storage
// alive and unchanged for as long as the Slice is used.
//
// Thread safety: const methods may be called from many threads at once;
// mutating a Slice shared between threads needs external synchronization.

#ifndef STRATA_INCLUDE_SLICE_H_
#define STRATA_INCLUDE_SLICE_H_

#include <cassert>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "strata/cleanable.h"
#include "strata/export.h"

namespace strata {

class STRATA_EXPORT Slice {
 public:
  Slice() : data_(""), size_(0) {}
  Slice(const char* d, size_t n) : data_(d), size_(n) {}
  Slice(const std::string& s) : data_(s.data()), size_(s.size()) {}
  Slice(std::string_view sv) : data_(sv.data()), size_(sv.size()) {}
  // REQUIRES: s is a NUL-terminated string.
  Slice(const char* s) : data_(s), size_(strlen(s)) {}

  Slice(const Slice&) = default;
  Slice& operator=(const Slice&) = default;

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // REQUIRES: n < size()
  char operator[](size_t n) const {
    assert(n < size_);
    return data_[n];
  }

  void clear() {
    data_ = "";
    size_ = 0;
  }

  // Drops the first n bytes. REQUIRES: n <= size()
  void remove_prefix(size_t n) {
    assert(n <= size_);
    data_ += n;
    size_ -= n;
  }

  // Drops the last n bytes. REQUIRES: n <= size()
  void remove_suffix(size_t n) {
    assert(n <= size_);
    size_ -= n;
  }

  // A copy of the bytes; with hex=true, two upper-case hex digits a byte.
  std::string ToString(bool hex = false) const;

  std::string_view ToStringView() const {
    return std::string_view(data_, size_);
  }

  // Three-way comparison as memcmp over the common prefix, shorter first.
  // Declared inline, as defined below: a program's DLL import of the class
  // would otherwise import this function, and the later inline definition
  // contradicts that (clang's -Wignored-attributes).
  inline int compare(const Slice& b) const;

  bool starts_with(const Slice& x) const {
    return size_ >= x.size_ && memcmp(data_, x.data_, x.size_) == 0;
  }

  bool ends_with(const Slice& x) const {
    return size_ >= x.size_ &&
           memcmp(data_ + size_ - x.size_, x.data_, x.size_) == 0;
  }

  // Length of the common prefix of *this and b.
  inline size_t difference_offset(const Slice& b) const;

  // Public as in RocksDB, whose programs (and PinnableSlice) may set them
  // directly. [data_, data_ + size_) must stay readable while the Slice is
  // used.
  const char* data_;
  size_t size_;
};

inline bool operator==(const Slice& x, const Slice& y) {
  return x.size() == y.size() &&
         (x.size() == 0 || memcmp(x.data(), y.data(), x.size()) == 0);
}

inline bool operator!=(const Slice& x, const Slice& y) { return !(x == y); }

// SliceParts: one byte string given as the concatenation of num_parts
// Slices, parts[0] first, so that a caller can pass a key or value built of
// pieces without joining them first (WriteBatch::Put). It borrows the array
// and the bytes, as a Slice does.
struct STRATA_EXPORT SliceParts {
  SliceParts(const Slice* _parts, int _num_parts)
      : parts(_parts), num_parts(_num_parts) {}
  SliceParts() : parts(nullptr), num_parts(0) {}

  const Slice* parts;
  int num_parts;
};

inline int Slice::compare(const Slice& b) const {
  const size_t min_len = (size_ < b.size_) ? size_ : b.size_;
  int r = (min_len == 0) ? 0 : memcmp(data_, b.data_, min_len);
  if (r == 0) {
    if (size_ < b.size_) {
      r = -1;
    } else if (size_ > b.size_) {
      r = +1;
    }
  }
  return r;
}

inline size_t Slice::difference_offset(const Slice& b) const {
  const size_t n = (size_ < b.size_) ? size_ : b.size_;
  size_t off = 0;
  while (off < n && data_[off] == b.data_[off]) {
    off++;
  }
  return off;
}

// PinnableSlice: the value of a lookup, either pinned or self-buffered.
//
// - Pinned (IsPinned()): the bytes stay where the engine found them (a block
//   in the block cache, say); the cleanups registered with the pin keep that
//   memory alive and release it on Reset() or destruction. No copy is made.
// - Self-buffered: the bytes were copied into a std::string — an internal
//   one, or the caller's when built with PinnableSlice(std::string*) — and
//   the slice views that string. GetSelf() returns it, so a caller may fill
//   it directly and then call PinSelf().
//
// Misuse that RocksDB only asserts on is defined here, in every build type:
// pinning (PinSlice, PinSelf) a PinnableSlice that is already pinned first
// makes the new view, then releases the previous pin, so the new bytes may
// come from the memory the previous pin held.
//
// Moving transfers the pin's cleanups, or the buffered bytes: a value in
// the source's internal buffer moves into the destination's internal buffer
// (the view is re-pointed there); a value in a caller's buffer stays there
// and the destination adopts that buffer. The source is left empty, not
// pinned, on its own internal buffer. The destination's own pin is released
// first.
//
// Thread safety: as Slice; mutating needs external synchronization.
class STRATA_EXPORT PinnableSlice : public Slice, public Cleanable {
 public:
  // Self-buffered values go to an internal string.
  PinnableSlice() : buf_(&self_space_) {}
  // Self-buffered values go to *buf, which must outlive this object (or be
  // replaced by a move assignment).
  explicit PinnableSlice(std::string* buf) : buf_(buf) {}

  PinnableSlice(PinnableSlice&& other);
  PinnableSlice& operator=(PinnableSlice&& other);

  PinnableSlice(const PinnableSlice&) = delete;
  PinnableSlice& operator=(const PinnableSlice&) = delete;

  // Views s without copying; f(arg1, arg2) runs on Reset() or destruction
  // and must keep s readable until then.
  void PinSlice(const Slice& s, CleanupFunction f, void* arg1, void* arg2) {
    if (!pinned_) {  // the common case: no previous pin to release after
      SetPinned(s);
      RegisterCleanup(f, arg1, arg2);
      return;
    }
    Cleanable previous = TakePin();
    SetPinned(s);
    RegisterCleanup(f, arg1, arg2);
  }

  // Views s without copying; the cleanups of *cleanable (which may be null)
  // move here and must keep s readable until they run.
  void PinSlice(const Slice& s, Cleanable* cleanable) {
    if (cleanable == this) {  // Already holds the cleanups it names.
      SetPinned(s);
      return;
    }
    Cleanable previous = TakePin();
    SetPinned(s);
    if (cleanable != nullptr) cleanable->DelegateCleanupsTo(this);
  }

  // Copies slice into the buffer and views the copy.
  void PinSelf(const Slice& slice) {
    buf_->assign(slice.data(), slice.size());
    PinSelf();
  }

  // Views the buffer's current contents: for a caller that filled
  // *GetSelf() itself.
  void PinSelf() {
    const bool was_pinned = pinned_;
    pinned_ = false;
    data_ = buf_->data();
    size_ = buf_->size();
    if (was_pinned) Cleanable::Reset();
  }

  // As Slice's; a self-buffered value also drops the bytes from the buffer,
  // so *GetSelf() keeps matching the view. REQUIRES: n <= size() (a larger
  // n empties the view in a release build); and a self-buffered value's
  // buffer not changed since PinSelf().
  void remove_prefix(size_t n) {
    assert(n <= size_);
    if (n > size_) n = size_;
    if (pinned_) {
      data_ += n;
      size_ -= n;
    } else if (n > 0) {
      buf_->erase(0, n);
      PinSelf();
    }
  }
  void remove_suffix(size_t n) {
    assert(n <= size_);
    if (n > size_) n = size_;
    if (pinned_) {
      size_ -= n;
    } else if (n > 0) {
      buf_->resize(size_ - n);
      PinSelf();
    }
  }

  // Runs the cleanups and empties the view; the buffer keeps its contents.
  void Reset() {
    Cleanable::Reset();
    pinned_ = false;
    data_ = "";
    size_ = 0;
  }

  // The buffer for self-buffered values.
  std::string* GetSelf() { return buf_; }

  bool IsPinned() const { return pinned_; }

 private:
  // The current pin's cleanups, moved out (none if not pinned): they run
  // when the caller's copy goes out of scope, after the new pin is set.
  Cleanable TakePin() {
    if (!pinned_) return Cleanable();
    return Cleanable(std::move(*static_cast<Cleanable*>(this)));
  }

  void SetPinned(const Slice& s) {
    pinned_ = true;
    data_ = s.data();
    size_ = s.size();
  }

  // Invariant: when not pinned and size_ > 0, the view is all of *buf_.
  std::string self_space_;
  std::string* buf_;
  bool pinned_ = false;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_SLICE_H_
