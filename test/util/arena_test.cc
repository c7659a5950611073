#include "util/arena.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "util/random.h"

namespace strata {
namespace {

TEST(ArenaTest, Empty) {
  Arena arena;
  EXPECT_EQ(0u, arena.MemoryUsage());
}

TEST(ArenaTest, ManyAllocationsKeepTheirContents) {
  std::vector<std::pair<size_t, char*>> allocated;
  Arena arena;
  const int kN = 100000;
  size_t bytes = 0;
  Random rnd(301);
  for (int i = 0; i < kN; i++) {
    size_t s;
    if (i % (kN / 10) == 0) {
      s = i;
    } else {
      s = rnd.OneIn(4000)
              ? rnd.Uniform(6000)
              : (rnd.OneIn(10) ? rnd.Uniform(100) : rnd.Uniform(20));
    }
    if (s == 0) s = 1;  // zero-byte allocations are not allowed
    char* r = rnd.OneIn(10) ? arena.AllocateAligned(s) : arena.Allocate(s);
    for (size_t b = 0; b < s; b++) r[b] = static_cast<char>(i % 256);
    bytes += s;
    allocated.emplace_back(s, r);
    ASSERT_GE(arena.MemoryUsage(), bytes);
    if (i > kN / 10) {
      // Waste stays bounded.
      ASSERT_LE(arena.MemoryUsage(), bytes * 1.10);
    }
  }
  for (size_t i = 0; i < allocated.size(); i++) {
    const size_t n = allocated[i].first;
    const char* p = allocated[i].second;
    for (size_t b = 0; b < n; b++) {
      ASSERT_EQ(static_cast<int>(i % 256), p[b] & 0xff) << i;
    }
  }
}

TEST(ArenaTest, AlignedAllocationsArePointerAligned) {
  Arena arena;
  for (int i = 1; i < 2000; i++) {
    arena.Allocate(static_cast<size_t>(i % 7) + 1);  // misalign the cursor
    char* p = arena.AllocateAligned(static_cast<size_t>(i % 50) + 1);
    ASSERT_EQ(0u, reinterpret_cast<uintptr_t>(p) % 8) << i;
  }
}

TEST(ArenaTest, LargeAllocationsDoNotWasteTheCurrentBlock) {
  Arena arena;
  char* small1 = arena.Allocate(16);
  arena.Allocate(Arena::kBlockSize * 3);  // its own block
  char* small2 = arena.Allocate(16);
  // The second small allocation still comes from the first block.
  EXPECT_EQ(small1 + 16, small2);
}

}  // namespace
}  // namespace strata
