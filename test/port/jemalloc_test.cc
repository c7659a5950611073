// jemalloc on Windows (STRATA_WITH_JEMALLOC): started by the .CRT$XCT
// routine before any C++ static constructor, with the options of
// STRATA_JEMALLOC_CONF; in a static build, operator new is jemalloc's.

#include "port/jemalloc.h"

#include <cstdint>
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "port/port.h"
#include "port/win32.h"
#include "test/util/subprocess.h"

#if defined(STRATA_JEMALLOC_NEW_DELETE)
#include <jemalloc/jemalloc.h>
#endif

namespace strata {
namespace {

// Read by a static constructor of this test program.
const bool g_started_at_test_constructor = port::JemallocStarted();

TEST(JemallocTest, InitializedBeforeStaticConstructors) {
  // strata's own static constructor already saw jemalloc running...
  EXPECT_TRUE(port::JemallocStartedBeforeStaticConstructors());
  // ...and so did this program's.
  EXPECT_TRUE(g_started_at_test_constructor);
}

#if defined(STRATA_JEMALLOC_NEW_DELETE)

uint64_t ThreadAllocated() {
  uint64_t allocated = 0;
  size_t size = sizeof(allocated);
  EXPECT_EQ(0, je_mallctl("thread.allocated", &allocated, &size, nullptr, 0));
  return allocated;
}

TEST(JemallocTest, NewMemoryIsOwnedByJemalloc) {
  const uint64_t before = ThreadAllocated();
  char* block = new char[1 << 20];
  block[0] = 1;  // used, so not optimized away
  // jemalloc counted it, and knows its size: the pointer is one of its own.
  EXPECT_GE(ThreadAllocated() - before, uint64_t{1} << 20);
  EXPECT_GE(je_malloc_usable_size(block), size_t{1} << 20);
  delete[] block;

  struct alignas(256) Aligned {
    char bytes[256];
  };
  Aligned* aligned = new Aligned;
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(aligned) % 256);
  EXPECT_GE(je_malloc_usable_size(aligned), sizeof(Aligned));
  delete aligned;

  int* nothrow = new (std::nothrow) int(7);
  ASSERT_NE(nullptr, nothrow);
  EXPECT_GE(je_malloc_usable_size(nothrow), sizeof(int));
  delete nothrow;
}

// In a child started with STRATA_JEMALLOC_CONF=narenas:3: reports whether
// jemalloc took the option.
STRATA_TEST_CHILD(JemallocNarenas) {
  unsigned narenas = 0;
  size_t size = sizeof(narenas);
  if (je_mallctl("opt.narenas", &narenas, &size, nullptr, 0) != 0) return 2;
  return narenas == 3 ? 0 : 1;
}

TEST(JemallocTest, StartupAppliesConfiguredOptions) {
  ASSERT_TRUE(SetEnvironmentVariableW(L"STRATA_JEMALLOC_CONF", L"narenas:3"));
  const int configured = test::RunChild("JemallocNarenas", {});
  SetEnvironmentVariableW(L"STRATA_JEMALLOC_CONF", nullptr);
  EXPECT_EQ(0, configured);
  // Without the variable the default stands.
  EXPECT_EQ(1, test::RunChild("JemallocNarenas", {}));
}

#endif  // STRATA_JEMALLOC_NEW_DELETE

}  // namespace
}  // namespace strata
