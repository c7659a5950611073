// How db_stress ends itself as a crash would: at a kill point
// (--kill_random_test, util/kill_point.h), or after a time
// (--crash_after_ms, counted from the end of the first verification).
// Either way the process ends with std::_Exit and kCrashExitCode: no
// destructor runs and nothing buffered is written, as with a kill. Under
// --power_loss, the fault-injection Env first stops every further write, then
// drops what was not synced (file tails, files whose directory was not synced,
// renames not made durable), so the next run finds what a machine that lost
// power would.
//
// Thread safety: CrashNow may be called from any thread, at once from
// several; the first one ends the process, the others wait for that.

#ifndef STRATA_TOOLS_DB_STRESS_CRASH_H_
#define STRATA_TOOLS_DB_STRESS_CRASH_H_

#include <cstdint>
#include <string>

#include "strata/env.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace stress {

// The exit code of a crash on purpose; tools/db_crashtest.py tells it
// from a failure.
constexpr int kCrashExitCode = 75;

// fault_env (may be null): the Env to drop unsynced data from first.
// kill_odds > 0 installs the kill-point hook, ending the process at each
// point with odds 1/kill_odds; a kill point whose name starts with one of
// the comma-separated exclude_prefixes never does. seed makes the kill
// points' draws reproducible per thread.
void InstallCrashes(test::FaultInjectionEnv* fault_env, int64_t kill_odds,
                    const std::string& exclude_prefixes, uint32_t seed);

// Starts a thread that ends the process as a crash after ms milliseconds
// (db_stress starts it once the first verification is done, so that the
// time goes to operations).
void StartCrashTimer(int64_t ms);

// Ends the process as a crash; why is printed first.
[[noreturn]] void CrashNow(const char* why);

// Whether CrashNow has started: errors seen from then on (writes failing
// on the stopped file system) belong to the crash, not to the DB.
bool Crashing();
// Waits for the crash under way to end the process.
[[noreturn]] void WaitForCrash();

}  // namespace stress
}  // namespace strata

#endif  // STRATA_TOOLS_DB_STRESS_CRASH_H_
