// The POSIX half of the port layer (Linux and other Unix systems): what
// port/port.h leaves to the platform. Include port/port.h, not this file.

#ifndef STRATA_PORT_PORT_POSIX_H_
#define STRATA_PORT_PORT_POSIX_H_

#include <pthread.h>

#include <cstddef>

// printf length modifier for size_t: printf("%" STRATA_PRIszt, n).
#define STRATA_PRIszt "zu"

namespace strata {
namespace port {

// The pthread objects behind Mutex, CondVar (on CLOCK_MONOTONIC) and
// RWMutex.
using NativeMutex = pthread_mutex_t;
using NativeCondVar = pthread_cond_t;
using NativeRWMutex = pthread_rwlock_t;

constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

#if defined(__powerpc64__) || (defined(__APPLE__) && defined(__aarch64__))
constexpr size_t kCacheLineSize = 128;
#else
constexpr size_t kCacheLineSize = 64;
#endif

constexpr size_t kMaxPathLength = 4096;

// Regions are aligned to the transparent huge page size, the only
// alignment at which the kernel can map them with huge pages.
constexpr size_t kHugePageSize = 2 << 20;
constexpr size_t kHugePageRegionAlignment = kHugePageSize;

using ThreadKey = pthread_key_t;
inline void* ThreadKeyGet(ThreadKey key) { return pthread_getspecific(key); }
inline void ThreadKeySet(ThreadKey key, void* value) {
  pthread_setspecific(key, value);
}

inline void AsmVolatilePause() {
#if defined(__i386__) || defined(__x86_64__)
  asm volatile("pause");
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

inline void Prefetch(const void* p) { __builtin_prefetch(p, 0, 3); }

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_PORT_POSIX_H_
