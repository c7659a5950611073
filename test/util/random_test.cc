#include "util/random.h"

#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(RandomTest, SameSeedSameSequence) {
  Random a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 1000; i++) {
    const uint32_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs |= (x != c.Next());
  }
  EXPECT_TRUE(differs);
}

TEST(RandomTest, DegenerateSeedsStillMove) {
  for (uint32_t seed : {0u, 2147483647u, 0xffffffffu}) {
    Random r(seed);
    std::set<uint32_t> values;
    for (int i = 0; i < 100; i++) values.insert(r.Next());
    EXPECT_GT(values.size(), 90u) << seed;
  }
}

TEST(RandomTest, NextStaysInRange) {
  Random r(301);
  for (int i = 0; i < 100000; i++) {
    const uint32_t v = r.Next();
    ASSERT_GE(v, 1u);
    ASSERT_LE(v, 2147483646u);
  }
}

TEST(RandomTest, UniformCoversTheRangeEvenly) {
  Random r(7);
  std::vector<int> counts(10, 0);
  for (int i = 0; i < 100000; i++) counts[r.Uniform(10)]++;
  for (int c : counts) {
    EXPECT_GT(c, 9000);
    EXPECT_LT(c, 11000);
  }
}

TEST(RandomTest, OneInAndSkewed) {
  Random r(11);
  int hits = 0;
  for (int i = 0; i < 100000; i++) hits += r.OneIn(100);
  EXPECT_GT(hits, 800);
  EXPECT_LT(hits, 1200);
  int small = 0;
  for (int i = 0; i < 10000; i++) {
    const uint32_t v = r.Skewed(10);
    ASSERT_LT(v, 1024u);
    small += v < 32;
  }
  // Half of the draws pick a base of at most 5 bits.
  EXPECT_GT(small, 4000);
}

TEST(Random64Test, RangeAndDeterminism) {
  Random64 a(5), b(5);
  for (int i = 0; i < 1000; i++) EXPECT_EQ(a.Next(), b.Next());
  for (int i = 0; i < 10000; i++) {
    ASSERT_LT(a.Uniform(1000), 1000u);
    ASSERT_LT(a.Skewed(40), uint64_t{1} << 40);
  }
  EXPECT_EQ(0u, a.Uniform(1));
}

}  // namespace
}  // namespace strata
