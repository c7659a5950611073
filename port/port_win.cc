#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "port/module_ref.h"
#include "port/port.h"
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

Mutex::Mutex(bool /*adaptive*/) { InitializeSRWLock(Srw(&native_)); }

Mutex::~Mutex() = default;

void Mutex::Lock() {
  AcquireSRWLockExclusive(Srw(&native_));
  MarkHeld(true);
}

void Mutex::Unlock() {
  MarkHeld(false);
  ReleaseSRWLockExclusive(Srw(&native_));
}

bool Mutex::TryLock() {
  if (!TryAcquireSRWLockExclusive(Srw(&native_))) return false;
  MarkHeld(true);
  return true;
}

CondVar::CondVar(Mutex* mu) : mu_(mu) {
  InitializeConditionVariable(Cv(&native_));
}

CondVar::~CondVar() = default;

void CondVar::Wait() {
  mu_->MarkHeld(false);
  SleepConditionVariableSRW(Cv(&native_), Srw(&mu_->native_), INFINITE, 0);
  mu_->MarkHeld(true);
}

bool CondVar::TimedWait(uint64_t timeout_micros) {
  // Round up: a wait of 1 us must not become a busy poll of 0 ms. INFINITE
  // is 0xFFFFFFFF ms, so cap just below it.
  uint64_t ms = (timeout_micros + 999) / 1000;
  if (ms >= INFINITE) ms = INFINITE - 1;
  mu_->MarkHeld(false);
  const BOOL woken = SleepConditionVariableSRW(Cv(&native_), Srw(&mu_->native_),
                                               static_cast<DWORD>(ms), 0);
  const DWORD error = woken ? ERROR_SUCCESS : GetLastError();
  mu_->MarkHeld(true);
  return !woken && error == ERROR_TIMEOUT;
}

void CondVar::Signal() { WakeConditionVariable(Cv(&native_)); }

void CondVar::SignalAll() { WakeAllConditionVariable(Cv(&native_)); }

RWMutex::RWMutex() { InitializeSRWLock(Srw(&native_)); }

RWMutex::~RWMutex() = default;

void RWMutex::ReadLock() { AcquireSRWLockShared(Srw(&native_)); }

void RWMutex::WriteLock() { AcquireSRWLockExclusive(Srw(&native_)); }

void RWMutex::ReadUnlock() { ReleaseSRWLockShared(Srw(&native_)); }

void RWMutex::WriteUnlock() { ReleaseSRWLockExclusive(Srw(&native_)); }

// ---- Thread-local slots with destructors ----------------------------------

namespace {

// TlsAlloc has no destructor; this table supplies them, indexed by the TLS
// index itself (TlsAlloc hands out at most TLS_MINIMUM_AVAILABLE +
// TLS_EXPANSION_SLOTS = 1088 of them).
//
// The table is read by the TLS callback, which runs under the loader lock,
// so it takes no lock there: each entry is an atomic, and the highest index
// ever used bounds the walk. A freed index that TlsAlloc hands out again
// gets its new destructor in the same entry; TlsFree clears the index's
// value in every thread first, so an exiting thread never pairs a new
// destructor with an old value.
constexpr DWORD kMaxTlsIndexes = 1088;

std::atomic<void (*)(void*)> g_destructors[kMaxTlsIndexes];
std::atomic<DWORD> g_index_limit{0};  // 1 + the highest index registered

// Runs on the exiting thread. As with pthread keys, a slot is cleared before
// its destructor runs, and the table is walked again (a few times at most)
// if a destructor stored a new value in some slot.
void RunThreadKeyDestructors() {
  for (int pass = 0; pass < 4; pass++) {
    bool ran = false;
    const DWORD limit = g_index_limit.load(std::memory_order_acquire);
    for (DWORD key = 0; key < limit; key++) {
      void (*destructor)(void*) =
          g_destructors[key].load(std::memory_order_acquire);
      if (destructor == nullptr) continue;
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
  if (index >= kMaxTlsIndexes) {
    TlsFree(index);
    return false;
  }
  g_destructors[index].store(destructor, std::memory_order_release);
  DWORD limit = g_index_limit.load(std::memory_order_relaxed);
  while (limit <= index && !g_index_limit.compare_exchange_weak(
                               limit, index + 1, std::memory_order_release)) {
  }
  *key = index;
  return true;
}

void ThreadKeyDelete(ThreadKey key) {
  if (key < kMaxTlsIndexes) {
    g_destructors[key].store(nullptr, std::memory_order_release);
  }
  TlsFree(key);
}

void* ThreadKeyGet(ThreadKey key) { return TlsGetValue(key); }

void ThreadKeySet(ThreadKey key, void* value) { TlsSetValue(key, value); }

// ---- Misc -------------------------------------------------------------------

uint64_t CurrentThreadId() { return GetCurrentThreadId(); }

namespace {

// SetThreadDescription (Windows 10 1607 and later) is looked up at run time:
// first in KernelBase.dll, the only DLL that exports it on Windows 10 1607
// and Windows Server 2016, then in kernel32.dll, which exports it on later
// versions. Null on older systems.
template <typename Fn>
Fn FindThreadDescriptionFunction(const char* name) {
  for (const wchar_t* dll : {L"kernelbase.dll", L"kernel32.dll"}) {
    HMODULE module = GetModuleHandleW(dll);
    FARPROC proc = module != nullptr ? GetProcAddress(module, name) : nullptr;
    if (proc != nullptr) {
      return reinterpret_cast<Fn>(reinterpret_cast<void*>(proc));
    }
  }
  return nullptr;
}

}  // namespace

// A no-op where the system has no SetThreadDescription.
void SetCurrentThreadName(const std::string& name) {
  using SetThreadDescriptionFn = HRESULT(WINAPI*)(HANDLE, PCWSTR);
  static const SetThreadDescriptionFn set_description =
      FindThreadDescriptionFunction<SetThreadDescriptionFn>(
          "SetThreadDescription");
  if (set_description != nullptr) {
    set_description(GetCurrentThread(), Utf8ToWide(name).c_str());
  }
}

bool GetCurrentThreadName(std::string* name) {
  using GetThreadDescriptionFn = HRESULT(WINAPI*)(HANDLE, PWSTR*);
  static const GetThreadDescriptionFn get_description =
      FindThreadDescriptionFunction<GetThreadDescriptionFn>(
          "GetThreadDescription");
  PWSTR description = nullptr;
  if (get_description == nullptr ||
      FAILED(get_description(GetCurrentThread(), &description))) {
    return false;
  }
  *name = WideToUtf8(description);
  LocalFree(description);
  return true;
}

// ---- The module holding strata's code ---------------------------------------

namespace {

// The EXE or DLL that this function's code belongs to.
HMODULE StrataModule() {
  HMODULE module = nullptr;
  GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                         GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                     reinterpret_cast<LPCWSTR>(&StrataModule), &module);
  return module;
}

}  // namespace

bool CodeInMainExecutable() {
  return StrataModule() == GetModuleHandleW(nullptr);
}

bool AcquireModuleReference() {
  if (CodeInMainExecutable()) return false;
  HMODULE module = nullptr;
  // Without UNCHANGED_REFCOUNT: the DLL's load count goes up by one.
  return GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS,
                            reinterpret_cast<LPCWSTR>(&StrataModule),
                            &module) != 0;
}

void ReleaseModuleReference() { FreeLibrary(StrataModule()); }

size_t GetPageSize() {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwPageSize;
}

// Numbered within the thread's processor group.
int PhysicalCoreID() { return static_cast<int>(GetCurrentProcessorNumber()); }

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

namespace {

// utf8 in UTF-16; false, with GetLastError() set, at an invalid sequence.
bool CheckedUtf8ToWide(const std::string& utf8, std::wstring* wide) {
  wide->clear();
  if (utf8.empty()) return true;
  const int size = static_cast<int>(utf8.size());
  const int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(),
                                    size, nullptr, 0);
  if (n <= 0) return false;
  wide->resize(static_cast<size_t>(n));
  return MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(), size,
                             &(*wide)[0], n) == n;
}

// The long form of wide (not yet prefixed) if it needs one, else wide.
std::wstring LongPathForm(std::wstring wide) {
  if (wide.compare(0, 4, L"\\\\?\\") == 0) return wide;
  // What counts against MAX_PATH (less room for an 8.3 name) is the full
  // path: a short relative name under a long current directory is long.
  wchar_t small[MAX_PATH];
  DWORD n = GetFullPathNameW(wide.c_str(), MAX_PATH, small, nullptr);
  if (n == 0 || n < MAX_PATH - 12) return wide;  // fits (or let the call fail)
  // Long: the "\\?\" prefix lifts the limit but also turns off Windows'
  // path parsing, so it goes on the full, normalized path ("." and ".."
  // resolved, relative paths against the current directory).
  std::wstring full(n, L'\0');
  n = GetFullPathNameW(wide.c_str(), n, &full[0], nullptr);
  if (n == 0 || n >= full.size()) return wide;
  full.resize(n);
  if (full.compare(0, 2, L"\\\\") == 0) {
    return L"\\\\?\\UNC\\" + full.substr(2);  // \\server\share\...
  }
  return L"\\\\?\\" + full;
}

}  // namespace

bool ToWinPath(const std::string& path, std::wstring* wide) {
  std::wstring converted;
  if (!CheckedUtf8ToWide(path, &converted)) {
    SetLastError(ERROR_NO_UNICODE_TRANSLATION);
    wide->clear();
    return false;
  }
  std::replace(converted.begin(), converted.end(), L'/', L'\\');
  *wide = LongPathForm(std::move(converted));
  return true;
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

bool HugePagesAvailable() { return false; }

// Committed memory from VirtualAlloc, without large pages: those need the
// "Lock pages in memory" privilege, which services and users rarely hold.
char* AllocateHugePageRegion(size_t n) {
  return static_cast<char*>(
      VirtualAlloc(nullptr, n, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE));
}

void FreeHugePageRegion(char* p, size_t /*n*/) {
  if (p != nullptr) VirtualFree(p, 0, MEM_RELEASE);
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
