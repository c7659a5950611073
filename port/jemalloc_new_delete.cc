// Global operator new and delete, every form, on jemalloc (static Windows
// builds with STRATA_WITH_JEMALLOC; see jemalloc.h). The linker takes these
// instead of the C++ runtime's because the program's first reference to
// operator new finds strata's library before the runtime's.

// MSVC: jemalloc.h declares its functions dllimport unless told the
// library is linked statically, as strata links it.
#if defined(_MSC_VER) && !defined(JEMALLOC_EXPORT)
#define JEMALLOC_EXPORT
#endif
#include <jemalloc/jemalloc.h>

#include <cstddef>
#include <new>

namespace {

// jemalloc's flag for an alignment (a power of two), by its log2 — not
// MALLOCX_ALIGN, which needs ffs() from <strings.h>.
int AlignFlag(std::align_val_t alignment) {
  std::size_t a = static_cast<std::size_t>(alignment);
  int lg = 0;
  while (a > 1) {
    a >>= 1;
    lg++;
  }
  return MALLOCX_LG_ALIGN(lg);
}

// As the standard's operator new: on failure, call the new-handler and
// retry, until there is none; then throw.
void* Allocate(std::size_t size) {
  for (;;) {
    void* p = je_malloc(size == 0 ? 1 : size);
    if (p != nullptr) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* AllocateAligned(std::size_t size, std::align_val_t alignment) {
  for (;;) {
    void* p = je_mallocx(size == 0 ? 1 : size, AlignFlag(alignment));
    if (p != nullptr) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

// The nothrow forms: the same, but failure is nullptr.
void* AllocateNoThrow(std::size_t size) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}

void* AllocateAlignedNoThrow(std::size_t size,
                             std::align_val_t alignment) noexcept {
  try {
    return AllocateAligned(size, alignment);
  } catch (...) {
    return nullptr;
  }
}

void Free(void* p) {
  if (p != nullptr) je_free(p);
}

void FreeSized(void* p, std::size_t size) {
  if (p != nullptr) je_sdallocx(p, size == 0 ? 1 : size, 0);
}

void FreeAligned(void* p, std::align_val_t alignment) {
  if (p != nullptr) {
    je_dallocx(p, AlignFlag(alignment));
  }
}

void FreeSizedAligned(void* p, std::size_t size, std::align_val_t alignment) {
  if (p != nullptr) {
    je_sdallocx(p, size == 0 ? 1 : size, AlignFlag(alignment));
  }
}

}  // namespace

void* operator new(std::size_t size) { return Allocate(size); }
void* operator new[](std::size_t size) { return Allocate(size); }

void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return AllocateNoThrow(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return AllocateNoThrow(size);
}

void* operator new(std::size_t size, std::align_val_t alignment) {
  return AllocateAligned(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return AllocateAligned(size, alignment);
}

void* operator new(std::size_t size, std::align_val_t alignment,
                   const std::nothrow_t&) noexcept {
  return AllocateAlignedNoThrow(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment,
                     const std::nothrow_t&) noexcept {
  return AllocateAlignedNoThrow(size, alignment);
}

void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete(void* p, std::size_t size) noexcept { FreeSized(p, size); }
void operator delete[](void* p, std::size_t size) noexcept {
  FreeSized(p, size);
}
void operator delete(void* p, std::align_val_t alignment) noexcept {
  FreeAligned(p, alignment);
}
void operator delete[](void* p, std::align_val_t alignment) noexcept {
  FreeAligned(p, alignment);
}
void operator delete(void* p, std::size_t size,
                     std::align_val_t alignment) noexcept {
  FreeSizedAligned(p, size, alignment);
}
void operator delete[](void* p, std::size_t size,
                       std::align_val_t alignment) noexcept {
  FreeSizedAligned(p, size, alignment);
}
void operator delete(void* p, std::align_val_t alignment,
                     const std::nothrow_t&) noexcept {
  FreeAligned(p, alignment);
}
void operator delete[](void* p, std::align_val_t alignment,
                       const std::nothrow_t&) noexcept {
  FreeAligned(p, alignment);
}
