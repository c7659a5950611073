#include "util/core_local.h"

#include <functional>
#include <thread>

namespace strata {

size_t CoreShardCount() {
  // A power of two, so that any CPU id (ids can exceed the count when CPUs
  // are offline or hot-plugged) maps to a shard with a mask.
  size_t cpus = std::thread::hardware_concurrency();
  if (cpus == 0) cpus = 1;
  size_t n = 1;
  while (n < cpus) n <<= 1;
  return n;
}

size_t CurrentCoreHint() {
  const int cpu = port::PhysicalCoreID();
  if (cpu >= 0) return static_cast<size_t>(cpu);
  // Each thread keeps to one shard; different threads spread over them.
  static thread_local const size_t hint =
      std::hash<std::thread::id>()(std::this_thread::get_id());
  return hint;
}

}  // namespace strata
