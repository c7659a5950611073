#include "strata/slice_transform.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(FixedPrefixTransformTest, NameNamesTheLength) {
  std::unique_ptr<const SliceTransform> three(NewFixedPrefixTransform(3));
  std::unique_ptr<const SliceTransform> twelve(NewFixedPrefixTransform(12));
  EXPECT_STREQ("strata.FixedPrefix.3", three->Name());
  EXPECT_STREQ("strata.FixedPrefix.12", twelve->Name());
}

TEST(FixedPrefixTransformTest, DomainIsKeysOfAtLeastTheLength) {
  std::unique_ptr<const SliceTransform> t(NewFixedPrefixTransform(3));
  EXPECT_FALSE(t->InDomain(""));
  EXPECT_FALSE(t->InDomain("ab"));
  EXPECT_TRUE(t->InDomain("abc"));
  EXPECT_TRUE(t->InDomain("abcdef"));
}

TEST(FixedPrefixTransformTest, TransformIsTheFirstBytes) {
  std::unique_ptr<const SliceTransform> t(NewFixedPrefixTransform(3));
  const std::string key("ab\0def", 6);
  const Slice prefix = t->Transform(key);
  EXPECT_EQ(std::string("ab\0", 3), prefix.ToString());
  EXPECT_EQ(key.data(), prefix.data()) << "a view of the key, not a copy";
  EXPECT_EQ("abc", t->Transform("abc").ToString());
  // Out of the domain (not allowed) stays inside the key.
  EXPECT_EQ("ab", t->Transform("ab").ToString());
}

TEST(FixedPrefixTransformTest, ZeroLengthPrefixTakesEveryKey) {
  std::unique_ptr<const SliceTransform> t(NewFixedPrefixTransform(0));
  EXPECT_STREQ("strata.FixedPrefix.0", t->Name());
  EXPECT_TRUE(t->InDomain(""));
  EXPECT_TRUE(t->Transform("abc").empty());
}

TEST(FixedPrefixTransformTest, SharedOwnershipAsInOptions) {
  // Options::prefix_extractor holds it in a shared_ptr, as in RocksDB.
  std::shared_ptr<const SliceTransform> t(NewFixedPrefixTransform(2));
  std::shared_ptr<const SliceTransform> copy = t;
  t.reset();
  EXPECT_EQ("xy", copy->Transform("xyz").ToString());
}

}  // namespace
}  // namespace strata
