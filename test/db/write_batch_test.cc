#include "strata/write_batch.h"

#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "test/db/write_batch_test_util.h"

namespace strata {
namespace {

using test::Contents;
using test::EveryType;
using test::kEveryType;
using test::Recorder;

// Only the plain (void) forms, as a LevelDB-style handler would write.
class PlainHandler : public WriteBatch::Handler {
 public:
  void Put(const Slice& key, const Slice& value) override {
    seen.push_back("Put(" + key.ToString() + "," + value.ToString() + ")");
  }
  void Delete(const Slice& key) override {
    seen.push_back("Delete(" + key.ToString() + ")");
  }
  std::vector<std::string> seen;
};

TEST(WriteBatchTest, Empty) {
  WriteBatch b;
  EXPECT_EQ(0u, b.Count());
  EXPECT_EQ(WriteBatchInternal::kHeader, b.GetDataSize());
  EXPECT_EQ(std::string(12, '\0'), b.Data());
  EXPECT_TRUE(Contents(b).empty());
  EXPECT_TRUE(WriteBatchInternal::Validate(&b).ok());
}

TEST(WriteBatchTest, CloseMarkerOfEitherFormIsAMarker) {
  // Whether batch is a marker numbered seq recording number and size.
  auto expect_marker = [](const WriteBatch& batch, SequenceNumber seq,
                          uint64_t number, uint64_t size) {
    SequenceNumber s = 0;
    uint64_t n = 1;
    uint64_t z = 1;
    ASSERT_TRUE(WriteBatchInternal::IsCloseMarker(
        WriteBatchInternal::Contents(&batch), &s, &n, &z));
    EXPECT_EQ(seq, s);
    EXPECT_EQ(number, n);
    EXPECT_EQ(size, z);
  };
  WriteBatch batch;
  WriteBatchInternal::SetCloseMarker(&batch, 77, 12, 3456);
  expect_marker(batch, 77, 12, 3456);
  // The older form: the text alone, no MANIFEST number or size.
  WriteBatch old;
  old.PutLogData("strata: clean close");
  WriteBatchInternal::SetSequence(&old, 5);
  expect_marker(old, 5, 0, 0);
  // Other LogData blobs are not.
  SequenceNumber seq = 0;
  for (const std::string& blob :
       {std::string("strata: clean close, or not"),
        std::string("strata: clean clos") + std::string(17, 'x')}) {
    WriteBatch other;
    other.PutLogData(blob);
    EXPECT_FALSE(WriteBatchInternal::IsCloseMarker(
        WriteBatchInternal::Contents(&other), &seq))
        << blob;
  }
}

TEST(WriteBatchTest, EveryRecordTypeRoundTrips) {
  WriteBatch b = EveryType();
  EXPECT_EQ(5u, b.Count());  // LogData is not counted
  EXPECT_EQ(b.Data().size(), b.GetDataSize());
  EXPECT_EQ(kEveryType, Contents(b));
}

TEST(WriteBatchTest, BinaryAndLongKeysRoundTrip) {
  const std::string key("a\0b\xff", 4);
  const std::string value(300, '\x80');  // a two-byte length varint
  WriteBatch b;
  ASSERT_TRUE(b.Put(key, value).ok());
  ASSERT_TRUE(b.Put("", "").ok());
  std::vector<std::string> seen = Contents(b);
  ASSERT_EQ(2u, seen.size());
  EXPECT_EQ("Put(" + key + "," + value + ")", seen[0]);
  EXPECT_EQ("Put(,)", seen[1]);
  EXPECT_EQ(12u + 1 + 1 + 4 + 2 + 300 + 1 + 1 + 1, b.GetDataSize());
}

TEST(WriteBatchTest, EncodingIsRocksDBs) {
  WriteBatch b;
  WriteBatchInternal::SetSequence(&b, 0x0102030405060708ull);
  ASSERT_TRUE(b.Put("k", "vv").ok());
  ASSERT_TRUE(b.Delete("d").ok());
  ASSERT_TRUE(b.DeleteRange("b", "e").ok());
  const std::string expected(
      "\x08\x07\x06\x05\x04\x03\x02\x01"  // sequence
      "\x03\x00\x00\x00"                  // count
      "\x01\x01k\x02vv"                   // Put
      "\x00\x01\x64"                      // Delete "d"
      "\x0f\x01\x62\x01\x65",             // DeleteRange "b" "e"
      12 + 6 + 3 + 5);
  EXPECT_EQ(expected, b.Data());
}

TEST(WriteBatchTest, ContentFlagsFollowEveryChange) {
  WriteBatch b;
  b.Put("k", "v");
  b.Delete("k");
  EXPECT_FALSE(b.HasMerge());
  EXPECT_FALSE(b.HasDeleteRange());
  b.Merge("k", "m");
  EXPECT_TRUE(b.HasMerge());
  EXPECT_FALSE(b.HasDeleteRange());

  WriteBatch range;
  range.DeleteRange("a", "b");
  EXPECT_TRUE(range.HasDeleteRange());
  WriteBatch merged;
  merged.Put("x", "y");
  WriteBatchInternal::Append(&merged, &range);
  EXPECT_TRUE(merged.HasDeleteRange());
  EXPECT_FALSE(merged.HasMerge());

  WriteBatch decoded;
  ASSERT_TRUE(WriteBatchInternal::SetContents(&decoded,
                                              WriteBatchInternal::Contents(&b))
                  .ok());
  EXPECT_TRUE(decoded.HasMerge());
  WriteBatch copy(decoded);
  EXPECT_TRUE(copy.HasMerge());
  WriteBatch moved(std::move(copy));
  EXPECT_TRUE(moved.HasMerge());
  EXPECT_FALSE(copy.HasMerge());  // NOLINT: moved-from is empty
  moved.Clear();
  EXPECT_FALSE(moved.HasMerge());

  // A record refused by max_bytes sets nothing.
  WriteBatch capped(0, WriteBatchInternal::kHeader + 8);
  EXPECT_FALSE(capped.Merge("a key too long", "v").ok());
  EXPECT_FALSE(capped.HasMerge());
}

TEST(WriteBatchTest, SequenceAndCount) {
  WriteBatch b;
  ASSERT_TRUE(b.Put("a", "1").ok());
  EXPECT_EQ(0u, WriteBatchInternal::Sequence(&b));
  WriteBatchInternal::SetSequence(&b, kMaxSequenceNumber);
  EXPECT_EQ(kMaxSequenceNumber, WriteBatchInternal::Sequence(&b));
  EXPECT_EQ(1u, WriteBatchInternal::Count(&b));
  WriteBatchInternal::SetCount(&b, 7);
  EXPECT_EQ(7u, b.Count());
  EXPECT_EQ(b.Data(), WriteBatchInternal::Contents(&b).ToString());
  EXPECT_EQ(b.GetDataSize(), WriteBatchInternal::ByteSize(&b));
}

TEST(WriteBatchTest, ClearDropsUpdatesAndSequence) {
  WriteBatch b = EveryType();
  WriteBatchInternal::SetSequence(&b, 99);
  b.Clear();
  EXPECT_EQ(0u, b.Count());
  EXPECT_EQ(0u, WriteBatchInternal::Sequence(&b));
  EXPECT_EQ(WriteBatchInternal::kHeader, b.GetDataSize());
  EXPECT_TRUE(Contents(b).empty());
  ASSERT_TRUE(b.Put("x", "y").ok());
  EXPECT_EQ(std::vector<std::string>{"Put(x,y)"}, Contents(b));
}

TEST(WriteBatchTest, AppendConcatenatesAndAddsCounts) {
  WriteBatch dst;
  WriteBatchInternal::SetSequence(&dst, 200);
  ASSERT_TRUE(dst.Put("a", "1").ok());
  WriteBatch src = EveryType();
  WriteBatchInternal::SetSequence(&src, 7);
  const std::string src_before = src.Data();

  WriteBatchInternal::Append(&dst, &src);
  EXPECT_EQ(6u, dst.Count());
  EXPECT_EQ(200u, WriteBatchInternal::Sequence(&dst));
  std::vector<std::string> expected = {"Put(a,1)"};
  expected.insert(expected.end(), kEveryType.begin(), kEveryType.end());
  EXPECT_EQ(expected, Contents(dst));
  EXPECT_EQ(src_before, src.Data());

  WriteBatch empty;
  WriteBatchInternal::Append(&dst, &empty);
  EXPECT_EQ(6u, dst.Count());
  EXPECT_EQ(expected, Contents(dst));
  WriteBatchInternal::Append(&empty, &dst);
  EXPECT_EQ(expected, Contents(empty));
}

TEST(WriteBatchTest, SetContents) {
  WriteBatch b = EveryType();
  WriteBatch c;
  ASSERT_TRUE(c.Put("old", "x").ok());
  ASSERT_TRUE(WriteBatchInternal::SetContents(&c, b.Data()).ok());
  EXPECT_EQ(b.Data(), c.Data());
  EXPECT_EQ(kEveryType, Contents(c));

  Status s = WriteBatchInternal::SetContents(&c, Slice("short", 5));
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("12-byte header"));
  EXPECT_EQ(b.Data(), c.Data());  // unchanged
}

TEST(WriteBatchTest, CopyAndMove) {
  WriteBatch a = EveryType();
  WriteBatch copy(a);
  EXPECT_EQ(a.Data(), copy.Data());
  ASSERT_TRUE(copy.Put("only", "copy").ok());
  EXPECT_EQ(5u, a.Count());
  EXPECT_EQ(6u, copy.Count());

  WriteBatch assigned;
  assigned = a;
  EXPECT_EQ(a.Data(), assigned.Data());

  WriteBatch moved(std::move(copy));
  EXPECT_EQ(6u, moved.Count());
  // The moved-from batch is empty and usable.
  EXPECT_EQ(0u, copy.Count());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(WriteBatchInternal::kHeader, copy.GetDataSize());
  ASSERT_TRUE(copy.Put("again", "1").ok());
  EXPECT_EQ(std::vector<std::string>{"Put(again,1)"}, Contents(copy));

  WriteBatch move_assigned;
  move_assigned = std::move(moved);
  EXPECT_EQ(6u, move_assigned.Count());
  EXPECT_EQ(0u, moved.Count());  // NOLINT(bugprone-use-after-move)
  WriteBatch& self = move_assigned;
  move_assigned = std::move(self);
  EXPECT_EQ(6u, move_assigned.Count());
}

TEST(WriteBatchTest, MaxBytesRejectsAndLeavesBatchUnchanged) {
  // Header 12 + Put("k1","v1") 7 = 19.
  WriteBatch b(0, 25);
  ASSERT_TRUE(b.Put("k1", "v1").ok());
  const std::string before = b.Data();
  Status s = b.Put("k2", "v2");  // would be 26
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("max_bytes"));
  EXPECT_EQ(before, b.Data());
  EXPECT_EQ(1u, b.Count());
  EXPECT_TRUE(b.PutLogData("0123456").IsInvalidArgument());
  EXPECT_TRUE(b.DeleteRange("a", "bcd").IsInvalidArgument());
  EXPECT_EQ(before, b.Data());
  ASSERT_TRUE(b.Delete("k2").ok());      // exactly 19 + 4 = 23
  ASSERT_TRUE(b.SingleDelete("").ok());  // exactly 25 fits
  EXPECT_EQ(3u, b.Count());
  EXPECT_TRUE(b.Merge("", "").IsInvalidArgument());

  WriteBatch copy(b);  // the limit travels with the batch
  copy.Clear();
  ASSERT_TRUE(copy.Put("k1", "v1").ok());
  EXPECT_TRUE(copy.Put("k2", "v2").IsInvalidArgument());

  WriteBatch unlimited(1 << 10);
  ASSERT_TRUE(unlimited.Put(std::string(4000, 'k'), "v").ok());
}

TEST(WriteBatchTest, DefaultHandlerForwardsToPlainForms) {
  WriteBatch b;
  ASSERT_TRUE(b.Put("k", "v").ok());
  ASSERT_TRUE(b.Delete("d").ok());
  ASSERT_TRUE(b.SingleDelete("s").ok());  // default: ignored
  ASSERT_TRUE(b.Merge("m", "x").ok());    // default: ignored
  ASSERT_TRUE(b.PutLogData("blob").ok());
  ASSERT_TRUE(b.Put("k2", "v2").ok());
  PlainHandler h;
  ASSERT_TRUE(b.Iterate(&h).ok());
  EXPECT_EQ((std::vector<std::string>{"Put(k,v)", "Delete(d)", "Put(k2,v2)"}),
            h.seen);

  // DeleteRange has no plain form: the default refuses it.
  ASSERT_TRUE(b.DeleteRange("a", "b").ok());
  ASSERT_TRUE(b.Put("after", "range").ok());
  PlainHandler h2;
  Status s = b.Iterate(&h2);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ("DeleteRange not implemented by this handler",
            std::string(s.getState()));
  EXPECT_EQ(3u, h2.seen.size());
}

TEST(WriteBatchTest, DefaultHandlerRejectsOtherColumnFamilies) {
  PlainHandler h;
  Status s = h.PutCF(3, "k", "v");
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("column family 3"));
  EXPECT_TRUE(h.DeleteCF(4, "k").IsInvalidArgument());
  EXPECT_TRUE(h.SingleDeleteCF(5, "k").IsInvalidArgument());
  EXPECT_TRUE(h.MergeCF(6, "k", "v").IsInvalidArgument());
  EXPECT_TRUE(h.seen.empty());
  EXPECT_TRUE(h.PutCF(0, "k", "v").ok());
  EXPECT_TRUE(h.SingleDeleteCF(0, "k").ok());
  EXPECT_TRUE(h.MergeCF(0, "k", "v").ok());
  EXPECT_EQ(std::vector<std::string>{"Put(k,v)"}, h.seen);
  EXPECT_TRUE(h.Continue());
}

TEST(WriteBatchTest, ContinueFalseStops) {
  WriteBatch b = EveryType();
  Recorder r;
  r.stop_after = 2;
  ASSERT_TRUE(b.Iterate(&r).ok());
  EXPECT_EQ((std::vector<std::string>{"Put(k1,v1)", "Delete(k2)"}), r.seen);
  Recorder none;
  none.stop_after = 0;
  ASSERT_TRUE(b.Iterate(&none).ok());
  EXPECT_TRUE(none.seen.empty());
}

TEST(WriteBatchTest, HandlerErrorStopsIteration) {
  WriteBatch b = EveryType();
  Recorder r;
  r.fail_at = 1;  // the Delete
  Status s = b.Iterate(&r);
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  EXPECT_EQ(std::vector<std::string>{"Put(k1,v1)"}, r.seen);
}
}  // namespace
}  // namespace strata
