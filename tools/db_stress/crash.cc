#include "tools/db_stress/crash.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "util/kill_point.h"
#include "util/random.h"

namespace strata {
namespace stress {

namespace {

std::atomic<test::FaultInjectionEnv*> g_fault_env{nullptr};
std::atomic<int64_t> g_kill_odds{0};
std::atomic<uint32_t> g_seed{0};
std::atomic<uint32_t> g_next_thread{0};
std::atomic<bool> g_crashing{false};
// Set before the hook is installed, read-only after; never deleted, as
// the hook may run until the process ends.
std::vector<std::string>* g_excluded = nullptr;

bool Excluded(const char* name) {
  for (const std::string& prefix : *g_excluded) {
    if (std::strncmp(name, prefix.data(), prefix.size()) == 0) return true;
  }
  return false;
}

void OnKillPoint(const char* name) {
  // Each thread draws from its own generator: seeded from the run's seed
  // and the order in which threads first reach a kill point.
  thread_local Random rnd(g_seed.load(std::memory_order_relaxed) * 7919 +
                          g_next_thread.fetch_add(1) + 1);
  const int64_t odds = g_kill_odds.load(std::memory_order_relaxed);
  if (odds > 0 && rnd.Uniform(static_cast<int>(odds)) == 0 && !Excluded(name)) {
    CrashNow(name);
  }
}

}  // namespace

void InstallCrashes(test::FaultInjectionEnv* fault_env, int64_t kill_odds,
                    const std::string& exclude_prefixes, uint32_t seed) {
  g_excluded = new std::vector<std::string>();
  size_t start = 0;
  while (start < exclude_prefixes.size()) {
    size_t end = exclude_prefixes.find(',', start);
    if (end == std::string::npos) end = exclude_prefixes.size();
    if (end > start) {
      g_excluded->push_back(exclude_prefixes.substr(start, end - start));
    }
    start = end + 1;
  }
  g_fault_env.store(fault_env);
  g_seed.store(seed);
  g_kill_odds.store(kill_odds);
  if (kill_odds > 0) SetKillPointHook(&OnKillPoint);
}

void StartCrashTimer(int64_t ms) {
  std::thread([ms] {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    CrashNow("crash_after_ms");
  }).detach();
}

bool Crashing() { return g_crashing.load(); }

void WaitForCrash() {
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

void CrashNow(const char* why) {
  // Another thread may be ending the process; this one must not write on.
  if (g_crashing.exchange(true)) WaitForCrash();
  std::fprintf(stdout, "db_stress: crashing on purpose at %s\n", why);
  std::fflush(stdout);
  test::FaultInjectionEnv* env = g_fault_env.load();
  if (env != nullptr) {
    env->SetFilesystemActive(false);
    Status s = env->DropUnsyncedFileData();
    if (s.ok()) s = env->DeleteFilesCreatedAfterLastDirSync();
    if (!s.ok()) {
      std::fprintf(stdout, "db_stress: simulating the power loss failed: %s\n",
                   s.ToString().c_str());
      std::fflush(stdout);
      std::_Exit(2);
    }
  }
  std::_Exit(kCrashExitCode);
}

}  // namespace stress
}  // namespace strata
