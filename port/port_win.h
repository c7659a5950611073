// The Windows half of the port layer: what port/port.h leaves to the
// platform, plus the UTF-8/UTF-16 path conversions the Windows Env uses.
// Include port/port.h, not this file.
//
// This header does not include <windows.h>: the slim reader/writer lock and
// condition variable behind the primitives are pointer-sized, so they are
// held here in pointer-sized storage and handed to the Win32 API in
// port_win.cc. That keeps Win32's macros (DeleteFile, min, max, ...) out of
// every file that includes port.h.

#ifndef STRATA_PORT_PORT_WIN_H_
#define STRATA_PORT_PORT_WIN_H_

#include <cstddef>
#include <string>

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

// Storage for a Win32 SRWLOCK or CONDITION_VARIABLE: one pointer, zero when
// unlocked / idle (SRWLOCK_INIT and CONDITION_VARIABLE_INIT are all-zero).
struct SlimStorage {
  void* ptr = nullptr;
};

// Mutex is an SRWLOCK held exclusively (SRW locks spin briefly before they
// sleep, so Mutex's adaptive flag changes nothing), CondVar a
// CONDITION_VARIABLE, RWMutex an SRWLOCK in shared or exclusive mode.
using NativeMutex = SlimStorage;
using NativeCondVar = SlimStorage;
using NativeRWMutex = SlimStorage;

// Every architecture Windows runs on (x64, x86, ARM64) is little-endian.
constexpr bool kLittleEndian = true;
constexpr size_t kCacheLineSize = 64;
// Long paths are passed with the \\?\ prefix, which lifts MAX_PATH.
constexpr size_t kMaxPathLength = 32767;

// Regions come from VirtualAlloc, which aligns to its 64 KiB allocation
// granularity.
constexpr size_t kHugePageSize = 2 << 20;
constexpr size_t kHugePageRegionAlignment = 64 << 10;

// A slot of TlsAlloc. Windows has no per-slot destructor, so port_win.cc
// keeps a table of them and runs them from a TLS callback in the .CRT$XLB
// section (DLL_THREAD_DETACH), which the loader calls on every exiting
// thread — in an EXE, a static link or a DLL.
using ThreadKey = unsigned long;  // DWORD
void* ThreadKeyGet(ThreadKey key);
void ThreadKeySet(ThreadKey key, void* value);

// The CPU's spin-wait hint and a read prefetch, written per architecture
// with each compiler's own intrinsics (what winnt.h's YieldProcessor and
// PreFetchCacheLine expand to, without including <windows.h> here). Only
// the x64 MinGW build is compiled and tested; the MSVC and ARM64 branches
// are written to the compilers' documentation and not built here.
inline void AsmVolatilePause() {
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
  _mm_pause();
#elif defined(_MSC_VER) && (defined(_M_ARM64) || defined(_M_ARM))
  __yield();
#elif defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}

inline void Prefetch(const void* p) {
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
  _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T0);
#elif defined(_MSC_VER) && (defined(_M_ARM64) || defined(_M_ARM))
  __prefetch(p);
#elif defined(_MSC_VER)
  (void)p;  // no prefetch on other architectures
#else
  __builtin_prefetch(p, 0, 3);
#endif
}

// The name SetCurrentThreadName gave the calling thread, read back with
// GetThreadDescription (found where SetThreadDescription is); false where
// the system has none. For tests.
bool GetCurrentThreadName(std::string* name);

// UTF-8 <-> UTF-16 for text that names nothing (a thread name, a message):
// an invalid sequence becomes U+FFFD. Never for a path: see ToWinPath.
std::wstring Utf8ToWide(const std::string& utf8);
std::string WideToUtf8(const std::wstring& wide);

// A UTF-8 path as the W APIs want it: UTF-16, '/' turned into '\', and the
// \\?\ prefix on an absolute path too long for MAX_PATH. False if path is
// not valid UTF-8, with GetLastError() = ERROR_NO_UNICODE_TRANSLATION: a
// replaced character would name another file, so such a path is refused.
bool ToWinPath(const std::string& path, std::wstring* wide);

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_PORT_WIN_H_
