// The .CRT$XCT start-up routine for jemalloc on Windows; see jemalloc.h.

// MSVC: jemalloc.h declares its functions dllimport unless told the
// library is linked statically, as strata links it.
#if defined(_MSC_VER) && !defined(JEMALLOC_EXPORT)
#define JEMALLOC_EXPORT
#endif
#include <jemalloc/jemalloc.h>

#include <cstdlib>

#include "port/jemalloc.h"
#include "port/win32.h"

namespace strata {
namespace port {

namespace {

bool g_started = false;
bool g_started_before_constructors = false;
// The options string must outlive jemalloc's reading of it.
char g_conf[1024];

void __cdecl JemallocShutdown() {
  je_mallctl("thread.tcache.flush", nullptr, nullptr, nullptr, 0);
  char stats[8];
  if (GetEnvironmentVariableA("STRATA_JEMALLOC_STATS", stats, sizeof(stats))) {
    je_malloc_stats_print(nullptr, nullptr, nullptr);
  }
}

// Runs from the C runtime's initializer table, before any C++ static
// constructor: nothing here may depend on one.
void __cdecl JemallocStartup() {
  const DWORD n =
      GetEnvironmentVariableA("STRATA_JEMALLOC_CONF", g_conf, sizeof(g_conf));
  if (n > 0 && n < sizeof(g_conf)) je_malloc_conf = g_conf;
  // jemalloc 5 has no init call: the first allocation initializes it.
  void* p = je_malloc(1);
  je_free(p);
  g_started = p != nullptr;
  std::atexit(JemallocShutdown);
}

// A static constructor of strata's own: it sees whether the start-up
// routine has already run.
struct ObserveStartup {
  ObserveStartup() { g_started_before_constructors = g_started; }
};
ObserveStartup g_observe_startup;

}  // namespace

bool JemallocStarted() { return g_started; }

bool JemallocStartedBeforeStaticConstructors() {
  return g_started_before_constructors;
}

}  // namespace port
}  // namespace strata

// The C runtime calls every function pointer between .CRT$XCA and
// .CRT$XCZ, in section-name order, before main (or DllMain); C++ static
// constructors are at .CRT$XCU, so .CRT$XCT comes first.
extern "C" {
extern void(__cdecl* const strata_jemalloc_startup)(void);
#if defined(_MSC_VER)
#pragma section(".CRT$XCT", read)
__declspec(allocate(".CRT$XCT")) void(__cdecl* const strata_jemalloc_startup)(
    void) = strata::port::JemallocStartup;
#else
__attribute__((section(".CRT$XCT"),
               used)) void (*const strata_jemalloc_startup)(void) =
    strata::port::JemallocStartup;
#endif
}  // extern "C"
