// The public iterators over nothing (include/strata/iterator.h): what a
// RocksDB program gets from NewEmptyIterator and NewErrorIterator, and
// what the DB returns when an iterator cannot be built.

#include <memory>

#include "gtest/gtest.h"
#include "strata/iterator.h"
#include "strata/status.h"

namespace strata {
namespace {

// Every positioning call leaves it invalid with the same status.
void ExpectEmpty(Iterator* it, const Status& expected) {
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(expected.ToString(), it->status().ToString());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek("k");
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev("k");
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(expected.ToString(), it->status().ToString());
}

TEST(EmptyIteratorTest, EmptyIteratorIsOkAndInvalid) {
  std::unique_ptr<Iterator> it(NewEmptyIterator());
  ExpectEmpty(it.get(), Status::OK());
}

TEST(EmptyIteratorTest, ErrorIteratorKeepsItsStatus) {
  const Status error = Status::IOError("disk gone", "/db/000012.sst");
  std::unique_ptr<Iterator> it(NewErrorIterator(error));
  EXPECT_TRUE(it->status().IsIOError());
  ExpectEmpty(it.get(), error);
}

}  // namespace
}  // namespace strata
