// Slice: a borrowed, immutable view of a byte range.
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
  int compare(const Slice& b) const;

  bool starts_with(const Slice& x) const {
    return size_ >= x.size_ && memcmp(data_, x.data_, x.size_) == 0;
  }

  bool ends_with(const Slice& x) const {
    return size_ >= x.size_ &&
           memcmp(data_ + size_ - x.size_, x.data_, x.size_) == 0;
  }

  // Length of the common prefix of *this and b.
  size_t difference_offset(const Slice& b) const;

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

}  // namespace strata

#endif  // STRATA_INCLUDE_SLICE_H_
