#include "util/hash.h"

#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(HashTest, DeterministicAndSeeded) {
  const std::string s = "the quick brown fox";
  EXPECT_EQ(Hash64(s.data(), s.size(), 1), Hash64(s.data(), s.size(), 1));
  EXPECT_NE(Hash64(s.data(), s.size(), 1), Hash64(s.data(), s.size(), 2));
  EXPECT_EQ(static_cast<uint32_t>(Hash64(s.data(), s.size(), 7)),
            Hash(s.data(), s.size(), 7));
}

TEST(HashTest, EveryLengthAndByteMatters) {
  // Prefixes of one buffer (lengths 0..100) all hash differently, and so
  // does each single-byte change: the tail loops cover every length class.
  std::string buf(100, 'a');
  std::set<uint64_t> seen;
  for (size_t n = 0; n <= buf.size(); n++) {
    EXPECT_TRUE(seen.insert(Hash64(buf.data(), n, 0)).second) << n;
  }
  for (size_t i = 0; i < 20; i++) {
    std::string changed = buf.substr(0, 20);
    changed[i] = 'b';
    EXPECT_TRUE(seen.insert(Hash64(changed.data(), changed.size(), 0)).second)
        << i;
  }
}

TEST(HashTest, SequentialKeysSpreadOverBuckets) {
  // 64 buckets from the low bits of 64K sequential keys: each bucket
  // should get close to 1024.
  std::vector<int> buckets(64, 0);
  for (uint32_t i = 0; i < 65536; i++) {
    const std::string key = "key" + std::to_string(i);
    buckets[Hash(key.data(), key.size(), 0) & 63]++;
  }
  for (int count : buckets) {
    EXPECT_GT(count, 850);
    EXPECT_LT(count, 1200);
  }
}

int PopCount(uint64_t v) {
  int n = 0;
  for (; v != 0; v &= v - 1) n++;
  return n;
}

TEST(HashTest, SingleBitFlipsChangeAboutHalfTheOutput) {
  // Avalanche: flipping one input bit flips ~32 of 64 output bits.
  const std::string base = "0123456789abcdef0123";
  double total_bits = 0;
  int trials = 0;
  for (size_t byte = 0; byte < base.size(); byte++) {
    for (int bit = 0; bit < 8; bit++) {
      std::string flipped = base;
      flipped[byte] = static_cast<char>(flipped[byte] ^ (1 << bit));
      const uint64_t diff = Hash64(base.data(), base.size(), 0) ^
                            Hash64(flipped.data(), flipped.size(), 0);
      total_bits += static_cast<double>(PopCount(diff));
      trials++;
    }
  }
  const double average = total_bits / trials;
  EXPECT_GT(average, 28.0);
  EXPECT_LT(average, 36.0);
}

}  // namespace
}  // namespace strata
