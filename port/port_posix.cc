#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "port/port.h"
#include "port/sys_time.h"

namespace strata {
namespace port {

namespace {

// A pthread call that fails here means memory corruption or misuse of the
// primitive; there is no Status to return, so stop loudly.
void PthreadCall(const char* label, int result) {
  if (result != 0) {
    std::fprintf(stderr, "strata: pthread %s: %s\n", label,
                 std::strerror(result));
    std::abort();
  }
}

}  // namespace

Mutex::Mutex(bool adaptive) {
#if defined(PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP)
  if (adaptive) {
    pthread_mutexattr_t attr;
    PthreadCall("mutexattr_init", pthread_mutexattr_init(&attr));
    PthreadCall("mutexattr_settype",
                pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP));
    PthreadCall("mutex_init", pthread_mutex_init(&native_, &attr));
    PthreadCall("mutexattr_destroy", pthread_mutexattr_destroy(&attr));
    return;
  }
#else
  (void)adaptive;
#endif
  PthreadCall("mutex_init", pthread_mutex_init(&native_, nullptr));
}

Mutex::~Mutex() {
  PthreadCall("mutex_destroy", pthread_mutex_destroy(&native_));
}

void Mutex::Lock() {
  PthreadCall("mutex_lock", pthread_mutex_lock(&native_));
  MarkHeld(true);
}

void Mutex::Unlock() {
  MarkHeld(false);
  PthreadCall("mutex_unlock", pthread_mutex_unlock(&native_));
}

bool Mutex::TryLock() {
  const int r = pthread_mutex_trylock(&native_);
  if (r == EBUSY) return false;
  PthreadCall("mutex_trylock", r);
  MarkHeld(true);
  return true;
}

CondVar::CondVar(Mutex* mu) : mu_(mu) {
  pthread_condattr_t attr;
  PthreadCall("condattr_init", pthread_condattr_init(&attr));
  PthreadCall("condattr_setclock",
              pthread_condattr_setclock(&attr, CLOCK_MONOTONIC));
  PthreadCall("cond_init", pthread_cond_init(&native_, &attr));
  PthreadCall("condattr_destroy", pthread_condattr_destroy(&attr));
}

CondVar::~CondVar() {
  PthreadCall("cond_destroy", pthread_cond_destroy(&native_));
}

void CondVar::Wait() {
  mu_->MarkHeld(false);
  PthreadCall("cond_wait", pthread_cond_wait(&native_, &mu_->native_));
  mu_->MarkHeld(true);
}

bool CondVar::TimedWait(uint64_t timeout_micros) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  const uint64_t nanos =
      static_cast<uint64_t>(ts.tv_nsec) + (timeout_micros % 1000000) * 1000;
  ts.tv_sec +=
      static_cast<time_t>(timeout_micros / 1000000 + nanos / 1000000000);
  ts.tv_nsec = static_cast<long>(nanos % 1000000000);
  mu_->MarkHeld(false);
  const int r = pthread_cond_timedwait(&native_, &mu_->native_, &ts);
  mu_->MarkHeld(true);
  if (r == ETIMEDOUT) return true;
  PthreadCall("cond_timedwait", r);
  return false;
}

void CondVar::Signal() {
  PthreadCall("cond_signal", pthread_cond_signal(&native_));
}

void CondVar::SignalAll() {
  PthreadCall("cond_broadcast", pthread_cond_broadcast(&native_));
}

RWMutex::RWMutex() {
  PthreadCall("rwlock_init", pthread_rwlock_init(&native_, nullptr));
}

RWMutex::~RWMutex() {
  PthreadCall("rwlock_destroy", pthread_rwlock_destroy(&native_));
}

void RWMutex::ReadLock() {
  PthreadCall("rwlock_rdlock", pthread_rwlock_rdlock(&native_));
}

void RWMutex::WriteLock() {
  PthreadCall("rwlock_wrlock", pthread_rwlock_wrlock(&native_));
}

void RWMutex::ReadUnlock() {
  PthreadCall("rwlock_unlock", pthread_rwlock_unlock(&native_));
}

void RWMutex::WriteUnlock() {
  PthreadCall("rwlock_unlock", pthread_rwlock_unlock(&native_));
}

bool ThreadKeyCreate(ThreadKey* key, void (*destructor)(void*)) {
  return pthread_key_create(key, destructor) == 0;
}

void ThreadKeyDelete(ThreadKey key) { pthread_key_delete(key); }

// Linux: the kernel's thread id, as `top -H` and /proc show it.
uint64_t CurrentThreadId() {
#if defined(__linux__)
  return static_cast<uint64_t>(::syscall(SYS_gettid));
#else
  pthread_t tid = pthread_self();
  uint64_t id = 0;
  std::memcpy(&id, &tid, sizeof(tid) < sizeof(id) ? sizeof(tid) : sizeof(id));
  return id;
#endif
}

void SetCurrentThreadName(const std::string& name) {
#if defined(__linux__)
  // Linux limits names to 15 bytes plus the terminator; other systems
  // spell pthread_setname_np differently and are left unnamed.
  std::string truncated = name.substr(0, 15);
  pthread_setname_np(pthread_self(), truncated.c_str());
#else
  (void)name;
#endif
}

size_t GetPageSize() {
  const long size = ::sysconf(_SC_PAGESIZE);
  return size > 0 ? static_cast<size_t>(size) : 4096;
}

int PhysicalCoreID() {
#if defined(__linux__) || defined(__FreeBSD__)
  return ::sched_getcpu();  // -1 with errno set if the kernel cannot say
#else
  return -1;
#endif
}

void GetTimeOfDay(TimeVal* tv) {
  struct timeval now;
  ::gettimeofday(&now, nullptr);
  tv->tv_sec = now.tv_sec;
  tv->tv_usec = now.tv_usec;
}

void LocalTimeR(const time_t* timep, struct tm* result) {
  ::localtime_r(timep, result);
}

// AddressSanitizer and MemorySanitizer builds take regions from the heap
// (below); the others, TSan's included, map them.
#if defined(__SANITIZE_ADDRESS__)
#define STRATA_REGIONS_FROM_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define STRATA_REGIONS_FROM_HEAP 1
#endif
#endif

// Linux: transparent huge pages are not set to "never".
bool HugePagesAvailable() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  static const bool available = [] {
    std::FILE* f =
        std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f == nullptr) return false;
    char mode[128];
    const size_t n = std::fread(mode, 1, sizeof(mode) - 1, f);
    std::fclose(f);
    mode[n] = '\0';
    // The selected mode is bracketed: "always [madvise] never".
    return n > 0 && std::strstr(mode, "[never]") == nullptr;
  }();
  return available;
#else
  return false;
#endif
}

#if defined(STRATA_REGIONS_FROM_HEAP)

// The sanitizer then still sees a use of a freed memtable or an overflow
// past a region.
char* AllocateHugePageRegion(size_t n) {
  assert(n > 0 && n % kHugePageSize == 0);
  void* p = nullptr;
  if (::posix_memalign(&p, kHugePageSize, n) != 0) return nullptr;
  return static_cast<char*>(p);
}

void FreeHugePageRegion(char* p, size_t /*n*/) { std::free(p); }

#else

// Anonymous memory which the kernel is asked to back with transparent huge
// pages (madvise MADV_HUGEPAGE, Linux): one TLB entry then maps 2 MiB of
// skiplist instead of 4 KiB. Best effort: without THP it is ordinary
// memory.
char* AllocateHugePageRegion(size_t n) {
  assert(n > 0 && n % kHugePageSize == 0);
  // Over-allocate by one huge page and trim, so that the region starts on
  // a huge-page boundary (the kernel can only map whole aligned 2 MiB).
  const size_t span = n + kHugePageSize;
  void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  char* const base = static_cast<char*>(raw);
  const uintptr_t at = reinterpret_cast<uintptr_t>(base);
  char* const region =
      base + (kHugePageSize - at % kHugePageSize) % kHugePageSize;
  const size_t head = static_cast<size_t>(region - base);
  const size_t tail = span - head - n;
  if (head > 0) ::munmap(base, head);
  if (tail > 0) ::munmap(region + n, tail);
#if defined(MADV_HUGEPAGE)
  ::madvise(region, n, MADV_HUGEPAGE);  // a hint; failure changes nothing
#endif
  return region;
}

void FreeHugePageRegion(char* p, size_t n) {
  if (p != nullptr) ::munmap(p, n);
}

#endif  // STRATA_REGIONS_FROM_HEAP

}  // namespace port
}  // namespace strata
