// The tests of batched reads (RandomAccessFile::MultiRead, MultiGet with
// async_io) ask whether the calling thread's reads go in flight together.
// Needs STRATA_TEST_WITH_LIBURING defined (0 or 1) by the test's target.

#ifndef STRATA_TEST_UTIL_READ_RING_H_
#define STRATA_TEST_UTIL_READ_RING_H_

#include <cstdlib>
#include <string>

#include "env/os_file.h"
#include "gtest/gtest.h"

namespace strata {
namespace test {

// Whether this thread's batches are in flight together: on Windows
// always; on Linux when strata was built with liburing and the kernel
// gives this process a ring. Where it is refused (a seccomp filter, an
// old kernel) the expectations become those of the fallback, unless
// STRATA_TEST_REQUIRE_RING=1 says the ring must be there (./build.sh
// sets it where /proc/sys/kernel/io_uring_disabled is 0).
inline bool RingOrOverlapped() {
  const bool together = OsRandomAccessFile::TEST_ReadsTogether();
#if STRATA_TEST_WITH_LIBURING
  const char* require = std::getenv("STRATA_TEST_REQUIRE_RING");
  if (!together && require != nullptr && std::string(require) == "1") {
    ADD_FAILURE() << "built with liburing and STRATA_TEST_REQUIRE_RING=1, "
                     "but the kernel refused this thread an io_uring";
  }
#endif
  return together;
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_UTIL_READ_RING_H_
