// The platform layer's single entry point. CMake defines exactly one of
// STRATA_PLATFORM_POSIX or STRATA_PLATFORM_WINDOWS; engine code includes
// this header and never tests a platform macro itself.
//
// This header declares, once for every platform, the synchronization
// primitives (Mutex, CondVar, RWMutex), InitOnce, thread-local slots and
// the thread and memory helpers; CMake compiles the platform's definitions
// (port/port_posix.cc or port/port_win.cc). The platform header included
// below supplies, in namespace strata::port, what differs between
// platforms:
//   NativeMutex, NativeCondVar, NativeRWMutex: the storage behind the
//     primitives;
//   kLittleEndian, kCacheLineSize, kMaxPathLength, kHugePageSize,
//     kHugePageRegionAlignment;
//   ThreadKey with ThreadKeyGet and ThreadKeySet;
//   AsmVolatilePause(), a CPU hint for spin-wait loops, and Prefetch(p),
//     which asks the CPU to start loading the cache line holding p (read,
//     keep in all cache levels) -- a hint only, p need not be valid;
//   the STRATA_PRIszt printf length macro for size_t.
//
// Thread safety: Mutex, CondVar and RWMutex are the synchronization
// primitives themselves; every function here is safe from any thread.

#ifndef STRATA_PORT_PORT_H_
#define STRATA_PORT_PORT_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "port/thread_annotations.h"

#if defined(STRATA_PLATFORM_POSIX)
#include "port/port_posix.h"
#elif defined(STRATA_PLATFORM_WINDOWS)
#include "port/port_win.h"
#else
#error "CMake must define STRATA_PLATFORM_POSIX or STRATA_PLATFORM_WINDOWS"
#endif

namespace strata {
namespace port {

class CondVar;

// A mutual-exclusion lock, not recursive. A call that the platform refuses
// (misuse or corrupted memory) aborts the process: there is no Status to
// return.
class LOCKABLE Mutex {
 public:
  // adaptive: spin briefly before sleeping, for short, hot critical
  // sections, where the platform lets the caller choose (glibc's adaptive
  // mutex). Elsewhere it is ignored.
  explicit Mutex(bool adaptive = false);
  ~Mutex();

  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() EXCLUSIVE_LOCK_FUNCTION();
  void Unlock() UNLOCK_FUNCTION();
  // True if the lock was free and this thread now holds it.
  bool TryLock() EXCLUSIVE_TRYLOCK_FUNCTION(true);
  // Documents (and, for the analysis, asserts) that this thread holds the
  // lock; debug builds abort if no thread holds it.
  void AssertHeld() ASSERT_EXCLUSIVE_LOCK() {
#ifndef NDEBUG
    assert(locked_);
#endif
  }

 private:
  friend class CondVar;

  // Debug builds record whether the lock is held, for AssertHeld.
  void MarkHeld(bool held) {
#ifndef NDEBUG
    locked_ = held;
#else
    (void)held;
#endif
  }

  NativeMutex native_;
#ifndef NDEBUG
  bool locked_ = false;
#endif
};

// A condition variable tied to one Mutex for its whole life.
class CondVar {
 public:
  explicit CondVar(Mutex* mu);
  ~CondVar();

  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  // REQUIRES: mu is held. Releases it while waiting and holds it again on
  // return. Wake-ups may be spurious: callers wait in a loop on their
  // condition.
  void Wait();
  // Wait, for at most timeout_micros on a clock the wall clock's jumps do
  // not move (rounded up to the platform timer's resolution). True if the
  // time ran out, false if woken (possibly spuriously).
  bool TimedWait(uint64_t timeout_micros);
  void Signal();
  void SignalAll();

 private:
  NativeCondVar native_;
  Mutex* const mu_;
};

// Many readers or one writer. Not recursive, in either mode.
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
  // Checks nothing (neither platform can tell who holds a shared lock);
  // present so that code can treat RWMutex and Mutex alike.
  void AssertHeld() {}

 private:
  NativeRWMutex native_;
};

using OnceType = std::once_flag;
inline void InitOnce(OnceType* once, void (*initializer)()) {
  std::call_once(*once, initializer);
}

// A thread-local slot (see ThreadKeyGet/ThreadKeySet in the platform
// header). When a thread whose value is non-null exits, the slot is
// cleared and destructor is called with the value, on that thread. False
// if the system has no slot left.
bool ThreadKeyCreate(ThreadKey* key, void (*destructor)(void*));
void ThreadKeyDelete(ThreadKey key);

// A number identifying the calling thread (for logs).
uint64_t CurrentThreadId();

// Names the calling thread for debuggers and process monitors, truncated
// to what the platform allows. Best effort: a no-op where the system
// cannot name threads.
void SetCurrentThreadName(const std::string& name);

size_t GetPageSize();

// The CPU the calling thread is running on, or -1 where the platform cannot
// tell. A hint only: the thread may migrate at any moment, so callers use
// it to spread load (per-core shards), never for correctness.
int PhysicalCoreID();

// Huge-page regions: big blocks the memtable's arena carves its chunks
// from. REQUIRES: n is a multiple of kHugePageSize. A region is aligned to
// kHugePageRegionAlignment; nullptr when the system has no memory to give.
// Release with FreeHugePageRegion(p, n). How a platform backs a region is
// said where it is defined.
char* AllocateHugePageRegion(size_t n);
void FreeHugePageRegion(char* p, size_t n);
// Whether regions get huge pages here (and so are worth their tail).
bool HugePagesAvailable();

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_PORT_H_
