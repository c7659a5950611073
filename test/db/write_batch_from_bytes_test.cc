// WriteBatch built from bytes (the constructors from a rep, SetContents):
// the accessors of a well-formed rep match the batch it came from, and a
// malformed one is marked for DB::Write to validate, reads nothing out of
// bounds and refuses updates it could not count.

#include <string>
#include <utility>
#include <vector>

#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "strata/write_batch.h"
#include "test/db/write_batch_test_util.h"
#include "util/coding.h"

namespace strata {
namespace {

using test::Contents;
using test::FakeHandle;

// Every record kind, in the default family and two others; the last record
// is counted, so every proper prefix of the rep lacks an update.
WriteBatch EveryKindInThreeFamilies() {
  FakeHandle one(1), two(300);  // 300: a two-byte family id
  WriteBatch b;
  EXPECT_TRUE(b.Put("k1", "v1").ok());
  EXPECT_TRUE(b.Put(&one, "k2", "v2").ok());
  EXPECT_TRUE(b.Delete(&two, "k3").ok());
  EXPECT_TRUE(b.PutLogData("blob").ok());
  EXPECT_TRUE(b.SingleDelete(&one, "k4").ok());
  EXPECT_TRUE(b.DeleteRange(&two, "a", "c").ok());
  EXPECT_TRUE(b.Merge("k5", "m").ok());
  EXPECT_TRUE(b.Merge(&one, "k6", "n").ok());
  EXPECT_TRUE(b.Delete("k7").ok());
  return b;
}

void ExpectSameBatch(const WriteBatch& want, const WriteBatch& got) {
  EXPECT_EQ(want.Data(), got.Data());
  EXPECT_EQ(want.Count(), got.Count());
  EXPECT_EQ(want.GetDataSize(), got.GetDataSize());
  EXPECT_EQ(want.HasMerge(), got.HasMerge());
  EXPECT_EQ(want.HasDeleteRange(), got.HasDeleteRange());
  EXPECT_EQ(WriteBatchInternal::HasNonDefaultColumnFamily(&want),
            WriteBatchInternal::HasNonDefaultColumnFamily(&got));
  EXPECT_EQ(Contents(want), Contents(got));
  EXPECT_FALSE(WriteBatchInternal::NeedsValidation(&got));
}

TEST(WriteBatchFromBytesTest, RoundTripOfEveryKind) {
  const WriteBatch b = EveryKindInThreeFamilies();
  ExpectSameBatch(b, WriteBatch(b.Data()));
  std::string moved = b.Data();
  ExpectSameBatch(b, WriteBatch(std::move(moved)));
  ExpectSameBatch(WriteBatch(), WriteBatch(std::string(12, '\0')));
}

TEST(WriteBatchFromBytesTest, FlagsAreThoseOfTheRecords) {
  FakeHandle one(1);
  WriteBatch puts, merge, range, family;
  ASSERT_TRUE(puts.Put("k", "v").ok());
  ASSERT_TRUE(merge.Merge("k", "v").ok());
  ASSERT_TRUE(range.DeleteRange("a", "b").ok());
  ASSERT_TRUE(family.Delete(&one, "k").ok());
  for (const WriteBatch* b : {&puts, &merge, &range, &family}) {
    ExpectSameBatch(*b, WriteBatch(b->Data()));
  }
}

TEST(WriteBatchFromBytesTest, UpdatesToAWellFormedRepStayWellFormed) {
  const WriteBatch b = EveryKindInThreeFamilies();
  WriteBatch copy(b.Data());
  WriteBatch built = b;
  for (WriteBatch* w : {&copy, &built}) {
    ASSERT_TRUE(w->DeleteRange("x", "y").ok());
    ASSERT_TRUE(w->Put("k8", "v8").ok());
  }
  ExpectSameBatch(built, copy);
}

TEST(WriteBatchFromBytesTest, RepShorterThanTheHeader) {
  for (size_t n = 0; n < WriteBatchInternal::kHeader; n++) {
    const std::string rep(n, '\xff');
    WriteBatch b(rep);
    EXPECT_EQ(rep, b.Data());
    EXPECT_EQ(0u, b.Count());
    EXPECT_EQ(0u, WriteBatchInternal::Sequence(&b));
    EXPECT_FALSE(b.HasMerge());
    EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&b));
    Status s;
    Contents(b, &s);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    s = WriteBatchInternal::ValidateUnchecked(&b);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&b));
    // No count to add to: refused, the bytes unchanged.
    s = b.Put("k", "v");
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_EQ(rep, b.Data());
    b.Clear();
    EXPECT_FALSE(WriteBatchInternal::NeedsValidation(&b));
    ASSERT_TRUE(b.Put("k", "v").ok());
    EXPECT_EQ(1u, b.Count());
  }
}

TEST(WriteBatchFromBytesTest, EveryTruncationNeedsValidation) {
  const std::string full = EveryKindInThreeFamilies().Data();
  const size_t merge_end = full.find("k5") + 2 + 2;  // key, then "\x01m"
  for (size_t cut = WriteBatchInternal::kHeader; cut < full.size(); cut++) {
    SCOPED_TRACE(cut);
    WriteBatch b(full.substr(0, cut));
    EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&b));
    EXPECT_EQ(8u, b.Count());  // the header's
    // The flags cover the records that decode.
    EXPECT_EQ(cut >= merge_end, b.HasMerge());
    Status s = WriteBatchInternal::ValidateUnchecked(&b);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&b));
  }
}

TEST(WriteBatchFromBytesTest, WrongCountNeedsValidation) {
  const std::string full = EveryKindInThreeFamilies().Data();
  for (uint32_t count : {0u, 7u, 9u, 0xffffffffu}) {
    std::string rep = full;
    EncodeFixed32(&rep[8], count);
    WriteBatch b(rep);
    EXPECT_EQ(count, b.Count());
    EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&b));
    Status s = WriteBatchInternal::ValidateUnchecked(&b);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("count")) << s.ToString();
  }
}

TEST(WriteBatchFromBytesTest, ValidationRebuildsTheFlags) {
  // A Merge cut short after its empty key; the Put appended after it
  // completes it: the bytes decode as Merge("", "\x03"), Put("", "\x01x")
  // with the count 2 they now hold. Before validation the flags knew of no
  // Merge; after it they must, or a DB without a merge operator would
  // take it.
  std::string rep(12, '\0');
  EncodeFixed32(&rep[8], 1);
  rep += std::string("\x02\x00", 2);
  WriteBatch b(rep);
  EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&b));
  EXPECT_FALSE(b.HasMerge());
  ASSERT_TRUE(b.Put(std::string("\x01\x00\x02", 3), "x").ok());
  ASSERT_TRUE(WriteBatchInternal::ValidateUnchecked(&b).ok());
  EXPECT_FALSE(WriteBatchInternal::NeedsValidation(&b));
  EXPECT_TRUE(b.HasMerge());
  EXPECT_EQ(2u, b.Count());
}

TEST(WriteBatchFromBytesTest, UnknownTagNamesItsOffset) {
  std::string rep = EveryKindInThreeFamilies().Data();
  rep[12] = '\x7f';
  WriteBatch b(rep);
  EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&b));
  EXPECT_FALSE(b.HasMerge());  // nothing decodes past the first record
  Status s = WriteBatchInternal::ValidateUnchecked(&b);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("offset 12")) << s.ToString();
}

TEST(WriteBatchFromBytesTest, MarkFollowsCopiesAndMovesAndClear) {
  std::string rep = EveryKindInThreeFamilies().Data();
  rep.pop_back();
  WriteBatch b(rep);
  WriteBatch copy = b;
  EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&copy));
  WriteBatch moved = std::move(copy);
  EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&moved));
  EXPECT_FALSE(WriteBatchInternal::NeedsValidation(&copy));  // left empty
  moved.Clear();
  EXPECT_FALSE(WriteBatchInternal::NeedsValidation(&moved));
}

TEST(WriteBatchFromBytesTest, SetContentsMarksAMalformedRep) {
  const std::string full = EveryKindInThreeFamilies().Data();
  WriteBatch b;
  ASSERT_TRUE(WriteBatchInternal::SetContents(&b, full).ok());
  EXPECT_FALSE(WriteBatchInternal::NeedsValidation(&b));
  ASSERT_TRUE(
      WriteBatchInternal::SetContents(&b, full.substr(0, full.size() - 1))
          .ok());
  EXPECT_TRUE(WriteBatchInternal::NeedsValidation(&b));
  ASSERT_TRUE(WriteBatchInternal::SetContents(&b, full).ok());
  EXPECT_FALSE(WriteBatchInternal::NeedsValidation(&b));
}

}  // namespace
}  // namespace strata
