// WriteBatch updates of column families: the handle overloads, their
// records (RocksDB's encoding, checked byte for byte against
// docs/formats/write_batch.md), how Iterate hands them to a Handler, and the
// SliceParts form of Put.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/write_batch.h"
#include "test/db/write_batch_test_util.h"

namespace strata {
namespace {

using test::Contents;
using test::FakeHandle;

// The 12-byte header of an unsequenced batch of count updates.
std::string Header(uint32_t count) {
  std::string header(8, '\0');
  header += static_cast<char>(count);
  header += std::string(3, '\0');
  return header;
}

// Only the plain (void) forms, as a handler written before column families.
class PreFamilyHandler : public WriteBatch::Handler {
 public:
  void Put(const Slice& key, const Slice&) override {
    seen.push_back("Put(" + key.ToString() + ")");
  }
  std::vector<std::string> seen;
};

TEST(WriteBatchColumnFamilyTest, EncodingOfEveryRecordType) {
  FakeHandle cf(3);
  WriteBatch b;
  ASSERT_TRUE(b.Put(&cf, "k", "vv").ok());
  ASSERT_TRUE(b.Delete(&cf, "d").ok());
  ASSERT_TRUE(b.SingleDelete(&cf, "s").ok());
  ASSERT_TRUE(b.DeleteRange(&cf, "b", "e").ok());
  ASSERT_TRUE(b.Merge(&cf, "m", "x").ok());
  const std::string expected =
      Header(5) + std::string("\x05\x03\x01k\x02vv", 7) +  // Put
      std::string("\x04\x03\x01\x64", 4) +                 // Delete
      std::string("\x08\x03\x01s", 4) +                    // SingleDelete
      std::string("\x0e\x03\x01\x62\x01\x65", 6) +
      std::string("\x06\x03\x01m\x01x", 6);  // Merge
  EXPECT_EQ(expected, b.Data());
  EXPECT_EQ(5u, b.Count());
}

TEST(WriteBatchColumnFamilyTest, FamilyIdIsAVarint32) {
  FakeHandle one_byte(127), two_bytes(300), largest(0xffffffffu);
  WriteBatch b;
  ASSERT_TRUE(b.Put(&one_byte, "k", "v").ok());
  ASSERT_TRUE(b.Delete(&two_bytes, "k").ok());
  ASSERT_TRUE(b.Merge(&largest, "k", "v").ok());
  const std::string expected =
      Header(3) + std::string("\x05\x7f\x01k\x01v", 6) +
      std::string("\x04\xac\x02\x01k", 5) +  // 300 = 0x2c | 0x80, 0x02
      std::string("\x06\xff\xff\xff\xff\x0f\x01k\x01v", 10);
  EXPECT_EQ(expected, b.Data());
  EXPECT_EQ((std::vector<std::string>{"Put(k,v)@127", "Delete(k)@300",
                                      "Merge(k,v)@4294967295"}),
            Contents(b));
}

// The example of docs/formats/write_batch.md.
TEST(WriteBatchColumnFamilyTest, DocumentedExample) {
  FakeHandle cf3(3), cf300(300);
  WriteBatch b;
  ASSERT_TRUE(b.Put(&cf3, "k", "vv").ok());
  ASSERT_TRUE(b.Delete(&cf3, "d").ok());
  ASSERT_TRUE(b.Merge(&cf300, "m", "x").ok());
  const unsigned char kExpected[] = {
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00,
      0x00, 0x00, 0x05, 0x03, 0x01, 0x6b, 0x02, 0x76, 0x76, 0x04,
      0x03, 0x01, 0x64, 0x06, 0xac, 0x02, 0x01, 0x6d, 0x01, 0x78};
  EXPECT_EQ(
      std::string(reinterpret_cast<const char*>(kExpected), sizeof(kExpected)),
      b.Data());
}

// A null handle and the default family's handle write exactly the records
// of the forms without a handle: the encoding from before column families.
TEST(WriteBatchColumnFamilyTest, DefaultFamilyUsesThePlainRecords) {
  FakeHandle default_family(0);
  for (ColumnFamilyHandle* cf :
       {static_cast<ColumnFamilyHandle*>(nullptr),
        static_cast<ColumnFamilyHandle*>(&default_family)}) {
    WriteBatch with_handle;
    ASSERT_TRUE(with_handle.Put(cf, "k", "v").ok());
    ASSERT_TRUE(with_handle.Delete(cf, "d").ok());
    ASSERT_TRUE(with_handle.SingleDelete(cf, "s").ok());
    ASSERT_TRUE(with_handle.DeleteRange(cf, "a", "z").ok());
    ASSERT_TRUE(with_handle.Merge(cf, "m", "x").ok());
    WriteBatch plain;
    ASSERT_TRUE(plain.Put("k", "v").ok());
    ASSERT_TRUE(plain.Delete("d").ok());
    ASSERT_TRUE(plain.SingleDelete("s").ok());
    ASSERT_TRUE(plain.DeleteRange("a", "z").ok());
    ASSERT_TRUE(plain.Merge("m", "x").ok());
    EXPECT_EQ(plain.Data(), with_handle.Data());
    EXPECT_EQ(Header(5) + "\x01\x01k\x01v", with_handle.Data().substr(0, 17));
    EXPECT_FALSE(WriteBatchInternal::HasNonDefaultColumnFamily(&with_handle));
  }
}

TEST(WriteBatchColumnFamilyTest, IterateHandsOverEachRecordsFamily) {
  FakeHandle cf1(1), cf9(9);
  WriteBatch b;
  ASSERT_TRUE(b.Put("k", "v").ok());
  ASSERT_TRUE(b.Put(&cf1, "k", "v1").ok());
  ASSERT_TRUE(b.PutLogData("blob").ok());
  ASSERT_TRUE(b.Delete(&cf9, "d").ok());
  ASSERT_TRUE(b.SingleDelete(&cf1, "s").ok());
  ASSERT_TRUE(b.DeleteRange(&cf9, "a", "c").ok());
  ASSERT_TRUE(b.Merge(&cf1, "m", "x").ok());
  ASSERT_TRUE(b.Merge(nullptr, "m", "y").ok());
  EXPECT_EQ(7u, b.Count());
  EXPECT_EQ((std::vector<std::string>{"Put(k,v)", "Put(k,v1)@1",
                                      "LogData(blob)", "Delete(d)@9",
                                      "SingleDelete(s)@1", "DeleteRange(a,c)@9",
                                      "Merge(m,x)@1", "Merge(m,y)"}),
            Contents(b));
  EXPECT_TRUE(WriteBatchInternal::Validate(&b).ok());

  // The records survive a trip through the WAL's bytes and a group Append.
  WriteBatch decoded;
  ASSERT_TRUE(WriteBatchInternal::SetContents(&decoded, b.Data()).ok());
  EXPECT_EQ(Contents(b), Contents(decoded));
  WriteBatch group;
  ASSERT_TRUE(group.Put(&cf9, "first", "x").ok());
  WriteBatchInternal::Append(&group, &decoded);
  EXPECT_EQ(8u, group.Count());
  std::vector<std::string> expected = {"Put(first,x)@9"};
  for (const std::string& call : Contents(b)) expected.push_back(call);
  EXPECT_EQ(expected, Contents(group));
}

// A handler that overrides only the plain forms takes the default family
// and refuses any other, naming the operation, at the first such record.
TEST(WriteBatchColumnFamilyTest, DefaultHandlerRefusesOtherFamilies) {
  FakeHandle cf2(2);
  struct Case {
    Status (*add)(WriteBatch*, ColumnFamilyHandle*);
    const char* message;
  };
  const Case cases[] = {
      {[](WriteBatch* b, ColumnFamilyHandle* cf) {
         return b->Put(cf, "k", "v");
       },
       "PutCF for column family 2 not implemented by this "
       "WriteBatch::Handler"},
      {[](WriteBatch* b, ColumnFamilyHandle* cf) { return b->Delete(cf, "k"); },
       "DeleteCF for column family 2 not implemented by this "
       "WriteBatch::Handler"},
      {[](WriteBatch* b, ColumnFamilyHandle* cf) {
         return b->SingleDelete(cf, "k");
       },
       "SingleDeleteCF for column family 2 not implemented by this "
       "WriteBatch::Handler"},
      {[](WriteBatch* b, ColumnFamilyHandle* cf) {
         return b->Merge(cf, "k", "v");
       },
       "MergeCF for column family 2 not implemented by this "
       "WriteBatch::Handler"},
      {[](WriteBatch* b, ColumnFamilyHandle* cf) {
         return b->DeleteRange(cf, "a", "b");
       },
       "DeleteRange not implemented by this handler"},
  };
  for (const Case& c : cases) {
    WriteBatch b;
    ASSERT_TRUE(b.Put("before", "v").ok());
    ASSERT_TRUE(c.add(&b, &cf2).ok());
    ASSERT_TRUE(b.Put("after", "v").ok());
    PreFamilyHandler h;
    Status s = b.Iterate(&h);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_EQ(c.message, std::string(s.getState()));
    EXPECT_EQ(std::vector<std::string>{"Put(before)"}, h.seen);
    // The batch itself is sound.
    EXPECT_TRUE(WriteBatchInternal::Validate(&b).ok());
  }
}

TEST(WriteBatchColumnFamilyTest, ContentFlags) {
  FakeHandle cf5(5);
  WriteBatch b;
  EXPECT_FALSE(WriteBatchInternal::HasNonDefaultColumnFamily(&b));
  ASSERT_TRUE(b.Put("k", "v").ok());
  ASSERT_TRUE(b.Put(nullptr, "k", "v").ok());
  EXPECT_FALSE(WriteBatchInternal::HasNonDefaultColumnFamily(&b));
  ASSERT_TRUE(b.Delete(&cf5, "k").ok());
  EXPECT_TRUE(WriteBatchInternal::HasNonDefaultColumnFamily(&b));
  EXPECT_FALSE(b.HasMerge());
  EXPECT_FALSE(b.HasDeleteRange());
  ASSERT_TRUE(b.Merge(&cf5, "k", "m").ok());
  EXPECT_TRUE(b.HasMerge());
  EXPECT_FALSE(b.HasDeleteRange());
  ASSERT_TRUE(b.DeleteRange(&cf5, "a", "b").ok());
  EXPECT_TRUE(b.HasDeleteRange());

  // Decoded, copied, moved, appended: the flags follow the records.
  WriteBatch decoded;
  ASSERT_TRUE(WriteBatchInternal::SetContents(&decoded, b.Data()).ok());
  EXPECT_TRUE(WriteBatchInternal::HasNonDefaultColumnFamily(&decoded));
  EXPECT_TRUE(decoded.HasMerge());
  EXPECT_TRUE(decoded.HasDeleteRange());
  WriteBatch copy(decoded);
  EXPECT_TRUE(WriteBatchInternal::HasNonDefaultColumnFamily(&copy));
  WriteBatch moved(std::move(copy));
  EXPECT_TRUE(WriteBatchInternal::HasNonDefaultColumnFamily(&moved));
  EXPECT_FALSE(WriteBatchInternal::HasNonDefaultColumnFamily(&copy));  // NOLINT
  WriteBatch group;
  ASSERT_TRUE(group.Put("k", "v").ok());
  WriteBatchInternal::Append(&group, &moved);
  EXPECT_TRUE(WriteBatchInternal::HasNonDefaultColumnFamily(&group));
  group.Clear();
  EXPECT_FALSE(WriteBatchInternal::HasNonDefaultColumnFamily(&group));

  // Only decoded records count: SetContents of a batch whose family record
  // is damaged does not set the flag (Iterate refuses the batch anyway).
  // The two Puts, then the Delete's tag and id without its key.
  const std::string damaged = b.Data().substr(0, 12 + 5 + 5 + 2);
  ASSERT_TRUE(WriteBatchInternal::SetContents(&decoded, damaged).ok());
  EXPECT_FALSE(WriteBatchInternal::HasNonDefaultColumnFamily(&decoded));
  EXPECT_TRUE(WriteBatchInternal::Validate(&decoded).IsCorruption());

  // RocksDB never writes a family tag with id 0, but such a record is the
  // default family's.
  WriteBatch foreign;
  ASSERT_TRUE(WriteBatchInternal::SetContents(
                  &foreign, Header(1) + std::string("\x05\x00\x01k\x01v", 6))
                  .ok());
  EXPECT_FALSE(WriteBatchInternal::HasNonDefaultColumnFamily(&foreign));
  EXPECT_EQ(std::vector<std::string>{"Put(k,v)"}, Contents(foreign));
  PreFamilyHandler plain;
  ASSERT_TRUE(foreign.Iterate(&plain).ok());
  EXPECT_EQ(std::vector<std::string>{"Put(k)"}, plain.seen);
}

// The family id counts toward max_bytes; a refused update of a family
// leaves the batch (bytes, count, flags) as it was.
TEST(WriteBatchColumnFamilyTest, MaxBytesCountsTheFamilyId) {
  FakeHandle cf3(3), cf300(300);
  // Header 12 + Put(cf3, "k1", "v1") 8 = 20; the limit leaves 7 more.
  WriteBatch b(0, 27);
  ASSERT_TRUE(b.Put(&cf3, "k1", "v1").ok());
  const std::string before = b.Data();
  const Slice key_parts[] = {"k", "2"};
  const Slice value_parts[] = {"v2"};
  const Status refused[] = {
      b.Put(&cf3, "k2", "v2"),  // 8: 28 > 27
      b.Put(&cf3, SliceParts(key_parts, 2), SliceParts(value_parts, 1)),
      b.Delete(&cf300, "k234"),
      b.SingleDelete(&cf300, "k234"),
      b.DeleteRange(&cf3, "a", "bcd"),
      b.Merge(&cf3, "", "1234"),
      b.Merge(&cf300, "m", "xy"),  // 7 bytes with a one-byte id; 8 with 300
  };
  for (const Status& s : refused) {
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("max_bytes"));
  }
  EXPECT_EQ(before, b.Data());
  EXPECT_EQ(1u, b.Count());
  EXPECT_FALSE(b.HasMerge());
  EXPECT_FALSE(b.HasDeleteRange());

  WriteBatch fresh(0, 12 + 4);  // a Delete of "k" to a one-byte-id family
  EXPECT_TRUE(fresh.Delete(&cf300, "k").IsInvalidArgument());
  EXPECT_FALSE(WriteBatchInternal::HasNonDefaultColumnFamily(&fresh));
  EXPECT_EQ(Header(0), fresh.Data());
  ASSERT_TRUE(fresh.Delete(&cf3, "k").ok());  // exactly 16 fits
  EXPECT_TRUE(WriteBatchInternal::HasNonDefaultColumnFamily(&fresh));

  ASSERT_TRUE(b.Delete(&cf3, "k2").ok());                     // 5: 25
  EXPECT_TRUE(b.SingleDelete(&cf3, "").IsInvalidArgument());  // 3: 28
  ASSERT_TRUE(b.SingleDelete("").ok());  // the default family's 2: 27
  EXPECT_EQ(3u, b.Count());
}

TEST(WriteBatchColumnFamilyTest, SlicePartsPutIsPutOfTheJoinedStrings) {
  FakeHandle cf4(4);
  const Slice key_parts[] = {"ab", "", "c"};
  const Slice value_parts[] = {"x", "yz"};
  WriteBatch parts;
  ASSERT_TRUE(
      parts.Put(SliceParts(key_parts, 3), SliceParts(value_parts, 2)).ok());
  ASSERT_TRUE(
      parts.Put(&cf4, SliceParts(key_parts, 1), SliceParts(value_parts, 2))
          .ok());
  ASSERT_TRUE(
      parts.Put(nullptr, SliceParts(), SliceParts(value_parts, 0)).ok());
  WriteBatch joined;
  ASSERT_TRUE(joined.Put("abc", "xyz").ok());
  ASSERT_TRUE(joined.Put(&cf4, "ab", "xyz").ok());
  ASSERT_TRUE(joined.Put("", "").ok());
  EXPECT_EQ(joined.Data(), parts.Data());
  EXPECT_EQ(
      (std::vector<std::string>{"Put(abc,xyz)", "Put(ab,xyz)@4", "Put(,)"}),
      Contents(parts));

  // A length of 128 or more takes a two-byte varint, over the parts' total.
  const std::string half(100, 'v');
  const Slice long_parts[] = {half, half};
  WriteBatch long_value;
  ASSERT_TRUE(
      long_value.Put(SliceParts(key_parts, 1), SliceParts(long_parts, 2)).ok());
  // Put, key "ab", value length 200 = 0x48 | 0x80, 0x01.
  EXPECT_EQ(Header(1) + "\x01\x02" + "ab" + "\xc8\x01" + half + half,
            long_value.Data());
}

}  // namespace
}  // namespace strata
