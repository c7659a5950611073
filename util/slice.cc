// Slice's out-of-line members and PinnableSlice's moves; the contracts are
// in include/strata/slice.h.

#include "strata/slice.h"

#include <utility>

namespace strata {

std::string Slice::ToString(bool hex) const {
  if (!hex) return std::string(data_, size_);
  static const char kDigits[] = "0123456789ABCDEF";
  std::string result;
  result.reserve(2 * size_);
  for (size_t i = 0; i < size_; i++) {
    const unsigned char c = static_cast<unsigned char>(data_[i]);
    result.push_back(kDigits[c >> 4]);
    result.push_back(kDigits[c & 0xf]);
  }
  return result;
}

PinnableSlice::PinnableSlice(PinnableSlice&& other) : PinnableSlice() {
  *this = std::move(other);
}

PinnableSlice& PinnableSlice::operator=(PinnableSlice&& other) {
  if (this == &other) return *this;
  // Releases our pin, then takes other's cleanups (if any).
  Cleanable::operator=(std::move(other));
  pinned_ = other.pinned_;
  size_ = other.size_;
  if (other.pinned_) {
    data_ = other.data_;
  } else if (other.buf_ == &other.self_space_) {
    // The bytes change address with the string (short strings live inside
    // it), so the view is re-pointed at our copy.
    self_space_ = std::move(other.self_space_);
    buf_ = &self_space_;
    data_ = size_ == 0 ? "" : self_space_.data();
  } else {
    buf_ = other.buf_;
    data_ = other.data_;
  }
  other.self_space_.clear();
  other.buf_ = &other.self_space_;
  other.pinned_ = false;
  other.data_ = "";
  other.size_ = 0;
  return *this;
}

}  // namespace strata
