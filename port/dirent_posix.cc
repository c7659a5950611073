// port::opendir / readdir / closedir over the POSIX calls, with readdir's
// end and error told apart by errno (port/port_dirent.h).

#include <atomic>
#include <cerrno>

#include "port/port_dirent.h"

namespace strata {
namespace port {

namespace {

std::atomic<int> g_readdir_fault{0};

}  // namespace

DIR* opendir(const char* name) { return ::opendir(name); }

dirent* readdir(DIR* dirp) {
  const int fault = g_readdir_fault.exchange(0, std::memory_order_relaxed);
  if (fault != 0) {
    errno = fault;
    return nullptr;
  }
  // ::readdir leaves errno alone at the end; a stale value would read as
  // an error.
  errno = 0;
  return ::readdir(dirp);
}

int closedir(DIR* dirp) { return ::closedir(dirp); }

void TEST_FailNextReaddir(int error) {
  g_readdir_fault.store(error, std::memory_order_relaxed);
}

}  // namespace port
}  // namespace strata
