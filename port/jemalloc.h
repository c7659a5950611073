// jemalloc start-up on Windows (STRATA_WITH_JEMALLOC). A routine placed in
// the .CRT$XCT section — which the C runtime runs before the C++ static
// constructors of .CRT$XCU and .ctors — applies the options in the
// STRATA_JEMALLOC_CONF environment variable (jemalloc's option syntax, as
// "narenas:4,dirty_decay_ms:5000"), initializes jemalloc, and queues the
// shutdown work with atexit (flushing this thread's cache; printing
// jemalloc's statistics if STRATA_JEMALLOC_STATS is set).
//
// In a static build, global operator new and delete (every form) go to
// je_malloc / je_free (port/jemalloc_new_delete.cc). strata.dll does not
// replace them: memory allocated in the DLL and freed by the program (a
// std::string returned by value) would reach the wrong allocator.

#ifndef STRATA_PORT_JEMALLOC_H_
#define STRATA_PORT_JEMALLOC_H_

namespace strata {
namespace port {

// True once the start-up routine has initialized jemalloc.
bool JemallocStarted();

// True if jemalloc was already initialized when strata's own static
// constructors ran — the proof that the .CRT$XCT routine ran first.
bool JemallocStartedBeforeStaticConstructors();

}  // namespace port
}  // namespace strata

#endif  // STRATA_PORT_JEMALLOC_H_
