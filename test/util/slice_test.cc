#include "strata/slice.h"

#include <string>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(SliceTest, Basics) {
  std::string str("hello");
  Slice s(str);
  EXPECT_EQ(5u, s.size());
  EXPECT_FALSE(s.empty());
  EXPECT_EQ('e', s[1]);
  EXPECT_EQ("hello", s.ToString());
  s.remove_prefix(1);
  s.remove_suffix(1);
  EXPECT_EQ("ell", s.ToString());
  s.clear();
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(Slice(""), s);
}

TEST(SliceTest, EmbeddedZerosAreData) {
  const char data[] = {'a', '\0', 'b'};
  Slice s(data, 3);
  EXPECT_EQ(3u, s.size());
  EXPECT_NE(Slice("a"), s);
  EXPECT_EQ(std::string(data, 3), s.ToString());
}

TEST(SliceTest, CompareOrdersBytesUnsignedThenLength) {
  EXPECT_EQ(0, Slice("abc").compare(Slice("abc")));
  EXPECT_LT(Slice("ab").compare(Slice("abc")), 0);
  EXPECT_GT(Slice("abd").compare(Slice("abc")), 0);
  EXPECT_LT(Slice("").compare(Slice("a")), 0);
  // 0xff sorts after 'a' (unsigned bytes).
  EXPECT_GT(Slice("\xff").compare(Slice("a")), 0);
}

TEST(SliceTest, PrefixSuffixAndDifference) {
  Slice s("strata-key");
  EXPECT_TRUE(s.starts_with("strata"));
  EXPECT_FALSE(s.starts_with("key"));
  EXPECT_TRUE(s.ends_with("key"));
  EXPECT_TRUE(s.starts_with(""));
  EXPECT_FALSE(Slice("ab").starts_with("abc"));
  EXPECT_EQ(9u, s.difference_offset("strata-kez"));
  EXPECT_EQ(0u, s.difference_offset("x"));
  EXPECT_EQ(3u, Slice("abc").difference_offset("abc"));
}

TEST(SliceTest, HexString) {
  EXPECT_EQ("00FF7A", Slice("\x00\xff\x7a", 3).ToString(true));
  EXPECT_EQ("", Slice().ToString(true));
}

}  // namespace
}  // namespace strata
