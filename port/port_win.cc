#include "port/port_win.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "port/sys_time.h"
#include "port/win32.h"

namespace strata {
namespace port {

static_assert(sizeof(SRWLOCK) == sizeof(SlimStorage),
              "SlimStorage must hold an SRWLOCK");
static_assert(sizeof(CONDITION_VARIABLE) == sizeof(SlimStorage),
              "SlimStorage must hold a CONDITION_VARIABLE");

namespace {

PSRWLOCK Srw(SlimStorage* s) { return reinterpret_cast<PSRWLOCK>(s); }
PCONDITION_VARIABLE Cv(SlimStorage* s) {
  return reinterpret_cast<PCONDITION_VARIABLE>(s);
}

}  // namespace

Mutex::Mutex(bool /*adaptive*/) { InitializeSRWLock(Srw(&lock_)); }

Mutex::~Mutex() = default;

void Mutex::Lock() {
  AcquireSRWLockExclusive(Srw(&lock_));
#ifndef NDEBUG
  locked_ = true;
#endif
}

void Mutex::Unlock() {
#ifndef NDEBUG
  locked_ = false;
#endif
  ReleaseSRWLockExclusive(Srw(&lock_));
}

bool Mutex::TryLock() {
  if (!TryAcquireSRWLockExclusive(Srw(&lock_))) return false;
#ifndef NDEBUG
  locked_ = true;
#endif
  return true;
}

void Mutex::AssertHeld() {
#ifndef NDEBUG
  if (!locked_) {
    std::fprintf(stderr, "strata: Mutex::AssertHeld failed\n");
    std::abort();
  }
#endif
}

CondVar::CondVar(Mutex* mu) : mu_(mu) { InitializeConditionVariable(Cv(&cv_)); }

CondVar::~CondVar() = default;

void CondVar::Wait() {
#ifndef NDEBUG
  mu_->locked_ = false;
#endif
  SleepConditionVariableSRW(Cv(&cv_), Srw(&mu_->lock_), INFINITE, 0);
#ifndef NDEBUG
  mu_->locked_ = true;
#endif
}

bool CondVar::TimedWait(uint64_t timeout_micros) {
  // Round up: a wait of 1 us must not become a busy poll of 0 ms. INFINITE
  // is 0xFFFFFFFF ms, so cap just below it.
  uint64_t ms = (timeout_micros + 999) / 1000;
  if (ms >= INFINITE) ms = INFINITE - 1;
#ifndef NDEBUG
  mu_->locked_ = false;
#endif
  const BOOL woken = SleepConditionVariableSRW(Cv(&cv_), Srw(&mu_->lock_),
                                               static_cast<DWORD>(ms), 0);
  const DWORD error = woken ? ERROR_SUCCESS : GetLastError();
#ifndef NDEBUG
  mu_->locked_ = true;
#endif
  return !woken && error == ERROR_TIMEOUT;
}

void CondVar::Signal() { WakeConditionVariable(Cv(&cv_)); }

void CondVar::SignalAll() { WakeAllConditionVariable(Cv(&cv_)); }

RWMutex::RWMutex() { InitializeSRWLock(Srw(&lock_)); }

RWMutex::~RWMutex() = default;

void RWMutex::ReadLock() { AcquireSRWLockShared(Srw(&lock_)); }

void RWMutex::WriteLock() { AcquireSRWLockExclusive(Srw(&lock_)); }

void RWMutex::ReadUnlock() { ReleaseSRWLockShared(Srw(&lock_)); }

void RWMutex::WriteUnlock() { ReleaseSRWLockExclusive(Srw(&lock_)); }

// ---- Thread-local slots with destructors ----------------------------------

namespace {

// TlsAlloc has no destructor; this table supplies them. Keys are few (one
// per ThreadLocalPtr registry, not per object), so a small array suffices.
//
// The table is read by the TLS callback, which runs under the loader lock:
// it takes no lock there. Entries are only ever appended (count published
// with release) and a deleted key's destructor is cleared, never reused, so
// a reader always sees a key together with its own destructor.
constexpr int kMaxThreadKeys = 64;

struct KeyDestructor {
  std::atomic<DWORD> key{0};
  std::atomic<void (*)(void*)> destructor{nullptr};
};

KeyDestructor g_keys[kMaxThreadKeys];
std::atomic<int> g_num_keys{0};
// Serializes ThreadKeyCreate/ThreadKeyDelete with each other only.
SRWLOCK g_keys_writer = SRWLOCK_INIT;

// Runs on the exiting thread. As with pthread keys, a slot is cleared before
// its destructor runs, and the table is walked again (a few times at most)
// if a destructor stored a new value in some slot.
void RunThreadKeyDestructors() {
  for (int pass = 0; pass < 4; pass++) {
    bool ran = false;
    const int n = g_num_keys.load(std::memory_order_acquire);
    for (int i = 0; i < n; i++) {
      void (*destructor)(void*) =
          g_keys[i].destructor.load(std::memory_order_acquire);
      if (destructor == nullptr) continue;
      const DWORD key = g_keys[i].key.load(std::memory_order_relaxed);
      void* value = TlsGetValue(key);
      if (value != nullptr) {
        TlsSetValue(key, nullptr);
        destructor(value);
        ran = true;
      }
    }
    if (!ran) break;
  }
}

void NTAPI OnTlsCallback(PVOID /*module*/, DWORD reason, PVOID /*reserved*/) {
  if (reason == DLL_THREAD_DETACH) RunThreadKeyDestructors();
}

}  // namespace

bool ThreadKeyCreate(ThreadKey* key, void (*destructor)(void*)) {
  const DWORD index = TlsAlloc();
  if (index == TLS_OUT_OF_INDEXES) return false;
  AcquireSRWLockExclusive(&g_keys_writer);
  const int n = g_num_keys.load(std::memory_order_relaxed);
  const bool room = n < kMaxThreadKeys;
  if (room) {
    g_keys[n].key.store(index, std::memory_order_relaxed);
    g_keys[n].destructor.store(destructor, std::memory_order_relaxed);
    g_num_keys.store(n + 1, std::memory_order_release);
  }
  ReleaseSRWLockExclusive(&g_keys_writer);
  if (!room) {
    TlsFree(index);
    return false;
  }
  *key = index;
  return true;
}

void ThreadKeyDelete(ThreadKey key) {
  AcquireSRWLockExclusive(&g_keys_writer);
  const int n = g_num_keys.load(std::memory_order_relaxed);
  for (int i = 0; i < n; i++) {
    if (g_keys[i].key.load(std::memory_order_relaxed) == key &&
        g_keys[i].destructor.load(std::memory_order_relaxed) != nullptr) {
      g_keys[i].destructor.store(nullptr, std::memory_order_release);
      break;
    }
  }
  ReleaseSRWLockExclusive(&g_keys_writer);
  TlsFree(key);
}

void* ThreadKeyGet(ThreadKey key) { return TlsGetValue(key); }

void ThreadKeySet(ThreadKey key, void* value) { TlsSetValue(key, value); }

// ---- Misc -------------------------------------------------------------------

uint64_t CurrentThreadId() { return GetCurrentThreadId(); }

void SetCurrentThreadName(const std::string& name) {
  using SetThreadDescriptionFn = HRESULT(WINAPI*)(HANDLE, PCWSTR);
  static const SetThreadDescriptionFn set_description = [] {
    HMODULE kernel32 = GetModuleHandleW(L"kernel32.dll");
    FARPROC proc = kernel32 != nullptr
                       ? GetProcAddress(kernel32, "SetThreadDescription")
                       : nullptr;
    return reinterpret_cast<SetThreadDescriptionFn>(
        reinterpret_cast<void*>(proc));
  }();
  if (set_description != nullptr) {
    set_description(GetCurrentThread(), Utf8ToWide(name).c_str());
  }
}

size_t GetPageSize() {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwPageSize;
}

void GetTimeOfDay(TimeVal* tv) {
  FILETIME ft;
  GetSystemTimePreciseAsFileTime(&ft);
  const uint64_t since_1601 =
      (static_cast<uint64_t>(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
  // 100-ns intervals between 1601-01-01 and the Unix epoch.
  const uint64_t micros = (since_1601 - 116444736000000000ull) / 10;
  tv->tv_sec = static_cast<int64_t>(micros / 1000000);
  tv->tv_usec = static_cast<int64_t>(micros % 1000000);
}

void LocalTimeR(const time_t* timep, struct tm* result) {
  localtime_s(result, timep);
}

std::wstring Utf8ToWide(const std::string& utf8) {
  if (utf8.empty()) return std::wstring();
  const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.data(),
                                    static_cast<int>(utf8.size()), nullptr, 0);
  std::wstring wide(static_cast<size_t>(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()),
                      &wide[0], n);
  return wide;
}

std::wstring ToWinPath(const std::string& path) {
  std::wstring wide = Utf8ToWide(path);
  std::replace(wide.begin(), wide.end(), L'/', L'\\');
  // A path near MAX_PATH (less room for an 8.3 name) needs the "\\?\"
  // prefix. The prefix turns off Windows' path parsing, so the path is
  // made absolute and normalized first ("." and ".." resolved, relative
  // paths against the current directory).
  if (wide.size() < MAX_PATH - 12 || wide.compare(0, 4, L"\\\\?\\") == 0) {
    return wide;
  }
  const DWORD n = GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
  if (n == 0) return wide;  // let the call that uses it report the error
  std::wstring full(n, L'\0');
  const DWORD written = GetFullPathNameW(wide.c_str(), n, &full[0], nullptr);
  if (written == 0 || written >= n) return wide;
  full.resize(written);
  if (full.compare(0, 2, L"\\\\") == 0) {
    return L"\\\\?\\UNC\\" + full.substr(2);  // \\server\share\...
  }
  return L"\\\\?\\" + full;
}

std::string WideToUtf8(const std::wstring& wide) {
  if (wide.empty()) return std::string();
  const int n = WideCharToMultiByte(CP_UTF8, 0, wide.data(),
                                    static_cast<int>(wide.size()), nullptr, 0,
                                    nullptr, nullptr);
  std::string utf8(static_cast<size_t>(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()),
                      &utf8[0], n, nullptr, nullptr);
  return utf8;
}

}  // namespace port
}  // namespace strata

#if defined(STRATA_HAVE_JEMALLOC)
// The jemalloc start-up routine (port/jemalloc_win.cc) is reached only
// through its .CRT$XCT entry; referencing it here makes the linker take that
// object from a static library into every program that uses strata.
extern "C" {
extern void(__cdecl* const strata_jemalloc_startup)(void);
#if defined(_MSC_VER)
#if defined(_M_IX86)
#pragma comment(linker, "/INCLUDE:_strata_jemalloc_startup")
#else
#pragma comment(linker, "/INCLUDE:strata_jemalloc_startup")
#endif
#else
__attribute__((used)) const void* const strata_jemalloc_startup_ref =
    &strata_jemalloc_startup;
#endif
}  // extern "C"
#endif  // STRATA_HAVE_JEMALLOC

// The TLS callback array lives between .CRT$XLA and .CRT$XLZ; the loader
// calls every entry on thread attach/detach. Referencing _tls_used makes the
// linker emit the TLS directory even if nothing else in the image uses TLS.
extern "C" {
#if defined(_MSC_VER)
// x86 decorates C names with a leading underscore; x64 does not.
#if defined(_M_IX86)
#pragma comment(linker, "/INCLUDE:__tls_used")
#pragma comment(linker, "/INCLUDE:_strata_tls_callback")
#else
#pragma comment(linker, "/INCLUDE:_tls_used")
#pragma comment(linker, "/INCLUDE:strata_tls_callback")
#endif
#pragma const_seg(".CRT$XLB")
extern const PIMAGE_TLS_CALLBACK strata_tls_callback;
const PIMAGE_TLS_CALLBACK strata_tls_callback = strata::port::OnTlsCallback;
#pragma const_seg()
#else
extern const IMAGE_TLS_DIRECTORY _tls_used;
extern const PIMAGE_TLS_CALLBACK strata_tls_callback;
__attribute__((section(".CRT$XLB"), used))
const PIMAGE_TLS_CALLBACK strata_tls_callback = strata::port::OnTlsCallback;
// Keeps _tls_used referenced from this object.
__attribute__((used)) const void* const strata_tls_directory_ref = &_tls_used;
#endif
}  // extern "C"
