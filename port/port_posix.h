// POSIX implementation of the port layer (Linux and other Unix systems).
// See port/port.h for the list of what every platform provides.
//
// Thread safety: Mutex, CondVar and RWMutex are the synchronization
// primitives themselves; ThreadKey functions are safe from any thread.

#ifndef STRATA_PORT_PORT_POSIX_H_
#define STRATA_PORT_PORT_POSIX_H_

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "port/thread_annotations.h"

// printf length modifier for size_t: printf("%" STRATA_PRIszt, n).
#define STRATA_PRIszt "zu"

namespace strata {
namespace port {

constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

#if defined(__powerpc64__) || (defined(__APPLE__) && defined(__aarch64__))
constexpr size_t kCacheLineSize = 128;
#else
constexpr size_t kCacheLineSize = 64;
#endif

constexpr size_t kMaxPathLength = 4096;

class CondVar;

class LOCKABLE Mutex {
 public:
  // adaptive: spin briefly before sleeping where the platform offers it
  // (glibc's PTHREAD_MUTEX_ADAPTIVE_NP); for short, hot critical sections.
  explicit Mutex(bool adaptive = false);
  ~Mutex();

  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() EXCLUSIVE_LOCK_FUNCTION();
  void Unlock() UNLOCK_FUNCTION();
  bool TryLock() EXCLUSIVE_TRYLOCK_FUNCTION(true);
  // Documents (and, for the analysis, asserts) that this thread holds the
  // lock; debug builds check it.
  void AssertHeld() ASSERT_EXCLUSIVE_LOCK();

 private:
  friend class CondVar;
  pthread_mutex_t mu_;
#ifndef NDEBUG
  bool locked_ = false;
#endif
};

class CondVar {
 public:
  explicit CondVar(Mutex* mu);
  ~CondVar();

  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  // REQUIRES: mu is held. Releases it while waiting.
  void Wait();
  // Waits at most timeout_micros (monotonic clock). Returns true if the
  // time ran out, false if woken (possibly spuriously).
  bool TimedWait(uint64_t timeout_micros);
  void Signal();
  void SignalAll();

 private:
  pthread_cond_t cv_;
  Mutex* mu_;
};

// Many readers or one writer.
class LOCKABLE RWMutex {
 public:
  RWMutex();
  ~RWMutex();

  RWMutex(const RWMutex&) = delete;
  RWMutex& operator=(const RWMutex&) = delete;

  void ReadLock() SHARED_LOCK_FUNCTION();
  void WriteLock() EXCLUSIVE_LOCK_FUNCTION();
  void ReadUnlock() UNLOCK_FUNCTION();
  void WriteUnlock() UNLOCK_FUNCTION();
  void AssertHeld() {}

 private:
  pthread_rwlock_t mu_;
};

using OnceType = std::once_flag;
inline void InitOnce(OnceType* once, void (*initializer)()) {
  std::call_once(*once, initializer);
}

// A thread-local slot. The destructor given at creation is called, on the
// exiting thread, with the slot's value when a thread whose value is
// non-null exits.
using ThreadKey = pthread_key_t;
bool ThreadKeyCreate(ThreadKey* key, void (*destructor)(void*));
void ThreadKeyDelete(ThreadKey key);
inline void* ThreadKeyGet(ThreadKey key) { return pthread_getspecific(key); }
inline void ThreadKeySet(ThreadKey key, void* value) {
  pthread_setspecific(key, value);
}

// A CPU hint for spin-wait loops.
inline void AsmVolatilePause() {
#if defined(__i386__) || defined(__x86_64__)
  asm volatile("pause");
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Asks the CPU to start loading the cache line holding p (read, keep in
// all cache levels); a hint only, p need not be valid.
inline void Prefetch(const void* p) { __builtin_prefetch(p, 0, 3); }

// A number identifying the calling thread (for logs).
uint64_t CurrentThreadId();

// Names the calling thread for debuggers and `top` (truncated to what the
// platform allows). Best effort.
void SetCurrentThreadName(const std::string& name);

size_t GetPageSize();

// The CPU the calling thread is running on (sched_getcpu), or -1 where the
// platform cannot tell. A hint only: the thread may migrate at any moment,
// so callers use it to spread load (per-core shards), never for correctness.
int PhysicalCoreID();

// Huge-page regions: big blocks the memtable's arena carves its chunks
// from (n is a multiple of kHugePageSize). A region is anonymous memory
// aligned to kHugePageSize which the kernel is asked to back with
// transparent huge pages (madvise MADV_HUGEPAGE, Linux): one TLB entry then
// maps 2 MiB of skiplist instead of 4 KiB. Best effort: without THP it is
// ordinary memory. ASan and MSan builds take regions from the heap, where
// the sanitizer watches them. nullptr when the system has no memory to give.
// Release with FreeHugePageRegion(p, n).
constexpr size_t kHugePageSize = 2 << 20;
constexpr size_t kHugePageRegionAlignment = kHugePageSize;
char* AllocateHugePageRegion(size_t n);
void FreeHugePageRegion(char* p, size_t n);
// Whether regions get huge pages here (and so are worth their tail). Linux:
// THP is not set to "never".
bool HugePagesAvailable();

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_PORT_POSIX_H_
