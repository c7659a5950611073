// AlignedBuffer: a growable byte buffer whose start is aligned to a power of
// two — what direct (unbuffered) I/O needs for the buffer address, and what
// whole-page writes need for their length (see PadToAlignment).
//
// Thread safety: an instance is used by one thread at a time.

#ifndef STRATA_UTIL_ALIGNED_BUFFER_H_
#define STRATA_UTIL_ALIGNED_BUFFER_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>

namespace strata {

// Frees what ::operator new(size, align_val_t) returned.
struct AlignedDeleter {
  size_t alignment = 1;
  void operator()(char* p) const {
    ::operator delete(p, std::align_val_t(alignment));
  }
};

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  // REQUIRES: alignment is a power of two; called before the first
  // AllocateNewBuffer.
  void Alignment(size_t alignment) {
    assert(alignment > 0 && (alignment & (alignment - 1)) == 0);
    alignment_ = alignment;
  }
  size_t Alignment() const { return alignment_; }

  size_t Capacity() const { return capacity_; }
  size_t CurrentSize() const { return cursize_; }
  const char* BufferStart() const { return buf_.get(); }
  char* BufferStart() { return buf_.get(); }
  size_t Available() const { return capacity_ - cursize_; }

  // Makes the capacity at least requested_capacity, rounded up to the
  // alignment. With copy_data the current contents are kept; otherwise the
  // buffer becomes empty.
  void AllocateNewBuffer(size_t requested_capacity, bool copy_data = false) {
    const size_t capacity = RoundUp(requested_capacity);
    if (capacity <= capacity_ && buf_) {
      if (!copy_data) cursize_ = 0;
      return;
    }
    std::unique_ptr<char, AlignedDeleter> fresh(static_cast<char*>(
        ::operator new(capacity, std::align_val_t(alignment_))));
    fresh.get_deleter().alignment = alignment_;
    if (copy_data && cursize_ > 0) {
      std::memcpy(fresh.get(), buf_.get(), cursize_);
    } else {
      cursize_ = 0;
    }
    buf_ = std::move(fresh);
    capacity_ = capacity;
  }

  // Appends as much of src as fits; returns how many bytes were taken.
  size_t Append(const char* src, size_t n) {
    const size_t take = std::min(n, Available());
    std::memcpy(buf_.get() + cursize_, src, take);
    cursize_ += take;
    return take;
  }

  // Pads with zeros up to the next multiple of the alignment.
  // REQUIRES: the capacity allows it (it always does: it is aligned).
  void PadToAlignment() {
    const size_t padded = RoundUp(cursize_);
    std::memset(buf_.get() + cursize_, 0, padded - cursize_);
    cursize_ = padded;
  }

  // Moves the tail_size bytes at tail_offset to the start of the buffer,
  // which then holds only them.
  void RefitTail(size_t tail_offset, size_t tail_size) {
    if (tail_size > 0) {
      std::memmove(buf_.get(), buf_.get() + tail_offset, tail_size);
    }
    cursize_ = tail_size;
  }

  void Size(size_t cursize) {
    assert(cursize <= capacity_);
    cursize_ = cursize;
  }

  size_t RoundUp(size_t n) const {
    return (n + alignment_ - 1) & ~(alignment_ - 1);
  }
  size_t TruncateToAlignment(size_t n) const { return n & ~(alignment_ - 1); }

 private:
  size_t alignment_ = 1;
  std::unique_ptr<char, AlignedDeleter> buf_;
  size_t capacity_ = 0;
  size_t cursize_ = 0;
};

}  // namespace strata

#endif  // STRATA_UTIL_ALIGNED_BUFFER_H_
