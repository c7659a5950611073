// Options of Engine II seen through the DB: the table factory and
// compression are validated at open, and prefix_same_as_start confines
// iterators to the seek key's prefix.

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/slice_transform.h"
#include "strata/table.h"
#include "table/compression.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;

TEST(DBOptionsTest, DefaultsNameASupportedCodecAndATableFactory) {
  Options options;
  EXPECT_TRUE(CompressionSupported(options.compression));
  ASSERT_NE(nullptr, options.table_factory);
  EXPECT_STREQ("BlockBasedTable", options.table_factory->Name());
}

TEST(DBOptionsTest, TableFactoryAndCompressionAreValidated) {
  DBHolder h;
  h.options().table_factory = nullptr;
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("table_factory"));

  h.options().table_factory.reset(NewBlockBasedTableFactory());
  h.options().compression = static_cast<CompressionType>(7);
  s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("compression"));
  EXPECT_TRUE(h.env()->FileExists(h.name()).IsNotFound());

  for (CompressionType type :
       {kNoCompression, kSnappyCompression, kZlibCompression}) {
    SCOPED_TRACE(CompressionTypeName(type));
    h.options().compression = type;
    s = h.Open();
    if (CompressionSupported(type)) {
      EXPECT_TRUE(s.ok()) << s.ToString();
      h.Close();
    } else {
      EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
      EXPECT_NE(std::string::npos,
                s.ToString().find(CompressionTypeName(type)));
    }
  }
}

TEST(DBOptionsTest, PrefixSameAsStartStaysInThePrefix) {
  DBHolder h;
  h.options().prefix_extractor.reset(NewFixedPrefixTransform(3));
  ASSERT_TRUE(h.Open().ok());
  for (const char* k : {"aa", "aaa1", "aaa2", "aab1", "abc", "b"}) {
    ASSERT_TRUE(h.Put(k, "v").ok());
  }
  auto scan = [&h](const ReadOptions& ro, const Slice& start, bool forward) {
    std::unique_ptr<Iterator> it(h.db()->NewIterator(ro));
    std::string keys;
    if (forward) {
      for (it->Seek(start); it->Valid(); it->Next()) {
        keys += it->key().ToString() + " ";
      }
    } else {
      for (it->SeekForPrev(start); it->Valid(); it->Prev()) {
        keys += it->key().ToString() + " ";
      }
    }
    EXPECT_TRUE(it->status().ok());
    return keys;
  };
  ReadOptions prefix;
  prefix.prefix_same_as_start = true;
  EXPECT_EQ("aaa1 aaa2 ", scan(prefix, "aaa", true));
  EXPECT_EQ("aaa2 aaa1 ", scan(prefix, "aaa9", false));
  EXPECT_EQ("", scan(prefix, "aac", true));
  // A target outside the extractor's domain is not confined.
  EXPECT_EQ("aa aaa1 aaa2 aab1 abc b ", scan(prefix, "a", true));

  ReadOptions total = prefix;
  total.total_order_seek = true;
  EXPECT_EQ("aaa1 aaa2 aab1 abc b ", scan(total, "aaa", true));
  EXPECT_EQ("aaa1 aaa2 aab1 abc b ", scan(ReadOptions(), "aaa", true));
}

}  // namespace
}  // namespace strata
