#include "util/arena.h"

#include <cassert>
#include <cstddef>

namespace strata {

namespace {

// Pointer alignment: what skiplist nodes and fixed-width fields need.
constexpr size_t kAlign = sizeof(void*) > 8 ? sizeof(void*) : 8;
static_assert((kAlign & (kAlign - 1)) == 0, "alignment must be a power of 2");

}  // namespace

Arena::Arena()
    : alloc_ptr_(nullptr), alloc_bytes_remaining_(0), memory_usage_(0) {}

Arena::~Arena() = default;

char* Arena::AllocateFallback(size_t bytes) {
  if (bytes > kBlockSize / 4) {
    // Large: its own block; the current block keeps serving small requests.
    return AllocateNewBlock(bytes);
  }
  alloc_ptr_ = AllocateNewBlock(kBlockSize);
  alloc_bytes_remaining_ = kBlockSize;
  char* result = alloc_ptr_;
  alloc_ptr_ += bytes;
  alloc_bytes_remaining_ -= bytes;
  return result;
}

char* Arena::AllocateAligned(size_t bytes) {
  const size_t current_mod =
      reinterpret_cast<uintptr_t>(alloc_ptr_) & (kAlign - 1);
  const size_t slop = current_mod == 0 ? 0 : kAlign - current_mod;
  const size_t needed = bytes + slop;
  char* result;
  if (needed <= alloc_bytes_remaining_) {
    result = alloc_ptr_ + slop;
    alloc_ptr_ += needed;
    alloc_bytes_remaining_ -= needed;
  } else {
    // New blocks come from operator new[], aligned for any fundamental type.
    result = AllocateFallback(bytes);
  }
  assert((reinterpret_cast<uintptr_t>(result) & (kAlign - 1)) == 0);
  return result;
}

char* Arena::AllocateNewBlock(size_t block_bytes) {
  blocks_.emplace_back(new char[block_bytes]);
  memory_usage_.fetch_add(block_bytes + sizeof(char*),
                          std::memory_order_relaxed);
  return blocks_.back().get();
}

}  // namespace strata
