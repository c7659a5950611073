// Kill points: named places on the engine's file paths (a WAL append, a
// MANIFEST sync, the rename that installs CURRENT, ...) where a crash test
// may end the process, so that recovery is tried from states a signal
// sent at a random time would rarely hit.
//
// TEST_KILL_POINT("name") calls the installed hook with the name; with no
// hook installed (every program but tools/db_stress --kill_random_test) it
// costs one relaxed atomic load. The sites are per file operation (per
// write group at most), never per key.
//
// The hook decides whether to end the process; if it does, it must do so
// as a kill would (std::_Exit: no destructors, no buffered data flushed).
//
// Thread safety: the hook is called from any thread, concurrently; it is
// installed before the DB is opened and stays installed.

#ifndef STRATA_UTIL_KILL_POINT_H_
#define STRATA_UTIL_KILL_POINT_H_

#include <atomic>

namespace strata {

using KillPointHook = void (*)(const char* name);

namespace internal {
extern std::atomic<KillPointHook> g_kill_point_hook;
}  // namespace internal

// Installs hook (null: none).
void SetKillPointHook(KillPointHook hook);

}  // namespace strata

#define TEST_KILL_POINT(name)                                                  \
  do {                                                                         \
    const ::strata::KillPointHook strata_kill_hook_ =                          \
        ::strata::internal::g_kill_point_hook.load(std::memory_order_relaxed); \
    if (strata_kill_hook_ != nullptr) strata_kill_hook_(name);                 \
  } while (false)

#endif  // STRATA_UTIL_KILL_POINT_H_
