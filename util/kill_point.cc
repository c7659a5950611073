#include "util/kill_point.h"

namespace strata {

namespace internal {
std::atomic<KillPointHook> g_kill_point_hook{nullptr};
}  // namespace internal

void SetKillPointHook(KillPointHook hook) {
  internal::g_kill_point_hook.store(hook, std::memory_order_relaxed);
}

}  // namespace strata
