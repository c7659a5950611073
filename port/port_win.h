// Windows implementation of the port layer. See port/port.h for the list of
// what every platform provides.
//
// This header does not include <windows.h>: the slim reader/writer lock and
// condition variable it wraps are pointer-sized, so they are held here in
// pointer-sized storage and handed to the Win32 API in port_win.cc. That
// keeps Win32's macros (DeleteFile, min, max, ...) out of every file that
// includes port.h.
//
// Thread safety: Mutex, CondVar and RWMutex are the synchronization
// primitives themselves; ThreadKey functions are safe from any thread.

#ifndef STRATA_PORT_PORT_WIN_H_
#define STRATA_PORT_PORT_WIN_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "port/thread_annotations.h"

#if defined(_MSC_VER)
#include <intrin.h>
#endif

// printf length modifier for size_t. MSVC's runtime spells it "Iu"; MinGW's
// g++ builds with the ISO printf (__USE_MINGW_ANSI_STDIO), which takes "zu".
#if defined(_MSC_VER)
#define STRATA_PRIszt "Iu"
#else
#define STRATA_PRIszt "zu"
#endif

namespace strata {
namespace port {

// Every Windows target strata supports (x64, ARM64) is little-endian.
constexpr bool kLittleEndian = true;
constexpr size_t kCacheLineSize = 64;
// Long paths are passed with the \\?\ prefix, which lifts MAX_PATH.
constexpr size_t kMaxPathLength = 32767;

// Storage for a Win32 SRWLOCK or CONDITION_VARIABLE: one pointer, zero when
// unlocked / idle (SRWLOCK_INIT and CONDITION_VARIABLE_INIT are all-zero).
struct SlimStorage {
  void* ptr = nullptr;
};

class CondVar;

// An exclusive lock over an SRWLOCK (not recursive).
class LOCKABLE Mutex {
 public:
  // adaptive is accepted for parity with the POSIX port; SRW locks already
  // spin briefly before they sleep.
  explicit Mutex(bool adaptive = false);
  ~Mutex();

  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() EXCLUSIVE_LOCK_FUNCTION();
  void Unlock() UNLOCK_FUNCTION();
  bool TryLock() EXCLUSIVE_TRYLOCK_FUNCTION(true);
  void AssertHeld() ASSERT_EXCLUSIVE_LOCK();

 private:
  friend class CondVar;
  SlimStorage lock_;
#ifndef NDEBUG
  bool locked_ = false;
#endif
};

// A CONDITION_VARIABLE used with its Mutex's SRWLOCK.
class CondVar {
 public:
  explicit CondVar(Mutex* mu);
  ~CondVar();

  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  // REQUIRES: mu is held. Releases it while waiting.
  void Wait();
  // Waits at most timeout_micros. Returns true if the time ran out, false
  // if woken (possibly spuriously).
  bool TimedWait(uint64_t timeout_micros);
  void Signal();
  void SignalAll();

 private:
  SlimStorage cv_;
  Mutex* mu_;
};

// Many readers or one writer, over an SRWLOCK in shared/exclusive mode.
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
  SlimStorage lock_;
};

using OnceType = std::once_flag;
inline void InitOnce(OnceType* once, void (*initializer)()) {
  std::call_once(*once, initializer);
}

// A thread-local slot over TlsAlloc/TlsGetValue/TlsSetValue. Windows has no
// per-slot destructor, so port_win.cc keeps a table of them and runs them
// from a TLS callback in the .CRT$XLB section (DLL_THREAD_DETACH), which the
// loader calls on every exiting thread — in an EXE, a static link or a DLL.
using ThreadKey = unsigned long;  // DWORD
bool ThreadKeyCreate(ThreadKey* key, void (*destructor)(void*));
void ThreadKeyDelete(ThreadKey key);
void* ThreadKeyGet(ThreadKey key);
void ThreadKeySet(ThreadKey key, void* value);

// A CPU hint for spin-wait loops.
inline void AsmVolatilePause() {
#if defined(_MSC_VER)
  _mm_pause();
#elif defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Asks the CPU to start loading the cache line holding p (read, keep in
// all cache levels); a hint only, p need not be valid.
inline void Prefetch(const void* p) {
#if defined(_MSC_VER)
  _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T0);
#else
  __builtin_prefetch(p, 0, 3);
#endif
}

// A number identifying the calling thread (GetCurrentThreadId).
uint64_t CurrentThreadId();

// Names the calling thread through SetThreadDescription where the system
// has it (Windows 10 1607 and later); a no-op elsewhere.
void SetCurrentThreadName(const std::string& name);

size_t GetPageSize();

// The processor the calling thread is running on (GetCurrentProcessorNumber,
// numbered within its processor group), or -1 where that is unknown. A hint
// only: the thread may migrate at any moment.
int PhysicalCoreID();

// Huge-page regions: big blocks the memtable's arena carves its chunks
// from (n is a multiple of kHugePageSize). Here a region is committed
// memory from VirtualAlloc, aligned to 64 KiB, without large pages: those
// need the "Lock pages in memory" privilege, which services and users
// rarely hold. nullptr when the system has no memory to give. Release with
// FreeHugePageRegion(p, n).
constexpr size_t kHugePageSize = 2 << 20;
constexpr size_t kHugePageRegionAlignment = 64 << 10;
char* AllocateHugePageRegion(size_t n);
void FreeHugePageRegion(char* p, size_t n);
// Whether regions get huge pages here (and so are worth their tail). No.
bool HugePagesAvailable();

// UTF-8 <-> UTF-16 for the W APIs. Invalid sequences become U+FFFD.
std::wstring Utf8ToWide(const std::string& utf8);
std::string WideToUtf8(const std::wstring& wide);

// A UTF-8 path as the W APIs want it: UTF-16, '/' turned into '\', and the
// \\?\ prefix on an absolute path too long for MAX_PATH.
std::wstring ToWinPath(const std::string& path);

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_PORT_WIN_H_
