// Internal keys, their order, LookupKey, the comparators and file names.

#include "db/dbformat.h"

#include <string>

#include "db/filename.h"
#include "gtest/gtest.h"

namespace strata {
namespace {

std::string IKey(const std::string& user_key, SequenceNumber seq, ValueType t) {
  return InternalKey(user_key, seq, t).Encode().ToString();
}

TEST(DBFormatTest, EncodeDecodeRoundTrip) {
  for (const char* key : {"", "k", "hello"}) {
    for (SequenceNumber seq : {SequenceNumber{0}, SequenceNumber{1},
                               kMaxSequenceNumber - 1, kMaxSequenceNumber}) {
      for (ValueType t : {kTypeValue, kTypeDeletion, kTypeSingleDeletion,
                          kTypeMerge, kTypeRangeDeletion}) {
        std::string ikey = IKey(key, seq, t);
        ParsedInternalKey parsed;
        ASSERT_TRUE(ParseInternalKey(ikey, &parsed).ok());
        EXPECT_EQ(key, parsed.user_key.ToString());
        EXPECT_EQ(seq, parsed.sequence);
        EXPECT_EQ(t, parsed.type);
      }
    }
  }
}

TEST(DBFormatTest, ParseRejectsDamage) {
  ParsedInternalKey parsed;
  EXPECT_TRUE(ParseInternalKey("short", &parsed).IsCorruption());
  std::string bad = IKey("k", 5, kTypeValue);
  bad[bad.size() - 8] = 0x55;  // unknown type byte
  Status s = ParseInternalKey(bad, &parsed);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("type"));
}

TEST(DBFormatTest, OrderUserKeyThenNewestFirst) {
  InternalKeyComparator icmp(BytewiseComparator());
  EXPECT_LT(icmp.Compare(IKey("a", 1, kTypeValue), IKey("b", 9, kTypeValue)),
            0);
  EXPECT_LT(icmp.Compare(IKey("a", 9, kTypeValue), IKey("a", 1, kTypeValue)),
            0);
  EXPECT_LT(icmp.Compare(IKey("a", 5, kTypeValue), IKey("a", 5, kTypeDeletion)),
            0);
  EXPECT_EQ(0,
            icmp.Compare(IKey("a", 5, kTypeValue), IKey("a", 5, kTypeValue)));
  // A seek key sorts before every version it can see.
  EXPECT_LT(
      icmp.Compare(IKey("a", 5, kValueTypeForSeek), IKey("a", 5, kTypeValue)),
      0);
  InternalKeyComparator reverse(ReverseBytewiseComparator());
  EXPECT_GT(reverse.Compare(IKey("a", 1, kTypeValue), IKey("b", 1, kTypeValue)),
            0);
  EXPECT_STREQ(BytewiseComparator()->Name(), icmp.Name());
}

TEST(DBFormatTest, LookupKeyForms) {
  for (size_t len : {size_t{0}, size_t{10}, size_t{300}}) {
    std::string user(len, 'x');
    LookupKey lkey(user, 77);
    EXPECT_EQ(user, lkey.user_key().ToString());
    EXPECT_EQ(IKey(user, 77, kValueTypeForSeek),
              lkey.internal_key().ToString());
    Slice mk = lkey.memtable_key();
    uint32_t klen;
    ASSERT_TRUE(GetVarint32(&mk, &klen));
    EXPECT_EQ(len + 8, klen);
    EXPECT_EQ(lkey.internal_key().ToString(), mk.ToString());
  }
}

TEST(DBFormatTest, ShortSeparatorsStayBetween) {
  InternalKeyComparator icmp(BytewiseComparator());
  struct Case {
    std::string start, limit;
  } cases[] = {{"foo", "foo"},    {"foo", "bar"},
               {"foo", "hello"},  {"abc1234", "abc5"},
               {"foo", "foobar"}, {"\xff\xff", "\xff\xff\x01"}};
  for (const Case& c : cases) {
    std::string start = IKey(c.start, 100, kTypeValue);
    const std::string limit = IKey(c.limit, 200, kTypeValue);
    const std::string original = start;
    icmp.FindShortestSeparator(&start, limit);
    EXPECT_LE(icmp.Compare(original, start), 0) << c.start;
    if (icmp.Compare(original, limit) < 0) {
      EXPECT_LT(icmp.Compare(start, limit), 0) << c.start;
    }
    std::string succ = original;
    icmp.FindShortSuccessor(&succ);
    EXPECT_LE(icmp.Compare(original, succ), 0) << c.start;
  }
  std::string s = IKey("foo", 100, kTypeValue);
  icmp.FindShortestSeparator(&s, IKey("hello", 200, kTypeValue));
  EXPECT_EQ(IKey("g", kMaxSequenceNumber, kValueTypeForSeek), s);
}

TEST(DBFormatTest, SeparatorOfNeighbouringKeysIsShort) {
  // Neighbouring keys of a dense key space differ by one in their last
  // differing byte; the separator keeps that byte and bumps a later one.
  const Comparator* cmp = BytewiseComparator();
  std::string start(
      "\x00\x00\x01\x37"
      "0000",
      8);
  cmp->FindShortestSeparator(&start, std::string("\x00\x00\x01\x38"
                                                 "0000",
                                                 8));
  EXPECT_EQ(std::string("\x00\x00\x01\x37"
                        "1",
                        5),
            start);
  // Bytes that cannot grow are skipped.
  start = "ab\xff\xffz";
  cmp->FindShortestSeparator(&start, "ac");
  EXPECT_EQ("ab\xff\xff{", start);
  // Only 0xff after the byte: nothing shorter exists.
  start = "ab\xff\xff";
  cmp->FindShortestSeparator(&start, "ac");
  EXPECT_EQ("ab\xff\xff", start);
  // Through the internal comparator the shorter user key gets the
  // largest trailer and stays between the two.
  InternalKeyComparator icmp(cmp);
  std::string ikey = IKey("abc5xyz", 100, kTypeValue);
  icmp.FindShortestSeparator(&ikey, IKey("abc6", 200, kTypeValue));
  EXPECT_EQ(IKey("abc5y", kMaxSequenceNumber, kValueTypeForSeek), ikey);
}

TEST(DBFormatTest, RandomSeparatorsStayBetween) {
  // Random neighbours over a small alphabet with 0xff in it: the separator
  // is >= start, < limit, and never longer than start.
  const Comparator* cmp = BytewiseComparator();
  const char alphabet[] = {'\x00', '\x01', 'a', 'b', '\xfe', '\xff'};
  uint32_t seed = 301;
  auto next = [&seed]() {
    seed = seed * 1103515245u + 12345u;
    return seed >> 16;
  };
  for (int round = 0; round < 20000; round++) {
    std::string a, b;
    const size_t na = next() % 6, nb = next() % 6;
    for (size_t i = 0; i < na; i++) a.push_back(alphabet[next() % 6]);
    for (size_t i = 0; i < nb; i++) b.push_back(alphabet[next() % 6]);
    if (cmp->Compare(a, b) >= 0) std::swap(a, b);
    if (a == b) continue;
    std::string sep = a;
    cmp->FindShortestSeparator(&sep, b);
    ASSERT_LE(cmp->Compare(a, sep), 0);
    ASSERT_LT(cmp->Compare(sep, b), 0);
    ASSERT_LE(sep.size(), a.size());
  }
}

TEST(DBFormatTest, BytewiseComparatorBasics) {
  const Comparator* cmp = BytewiseComparator();
  EXPECT_LT(cmp->Compare("a", "b"), 0);
  EXPECT_LT(cmp->Compare("a", "ab"), 0);
  EXPECT_LT(cmp->Compare("\x7f", "\x80"), 0);  // unsigned bytes
  EXPECT_TRUE(cmp->Equal("x", "x"));
  std::string succ = "ab\xff";
  cmp->FindShortSuccessor(&succ);
  EXPECT_EQ("b", succ);
  std::string all = "\xff\xff";
  cmp->FindShortSuccessor(&all);
  EXPECT_EQ("\xff\xff", all);
  EXPECT_STREQ("leveldb.BytewiseComparator", cmp->Name());
  EXPECT_GT(ReverseBytewiseComparator()->Compare("a", "b"), 0);
  EXPECT_STREQ("rocksdb.ReverseBytewiseComparator",
               ReverseBytewiseComparator()->Name());
}

TEST(FileNameTest, RoundTripAndRejects) {
  struct Case {
    std::string name;
    uint64_t number;
    FileType type;
  } cases[] = {
      {"000100.log", 100, FileType::kWalFile},
      {"0.log", 0, FileType::kWalFile},
      {"123456789.sst", 123456789, FileType::kTableFile},
      {"MANIFEST-000002", 2, FileType::kDescriptorFile},
      {"OPTIONS-000007", 7, FileType::kOptionsFile},
      {"CURRENT", 0, FileType::kCurrentFile},
      {"LOCK", 0, FileType::kDBLockFile},
      {"IDENTITY", 0, FileType::kIdentityFile},
      {"LOG", 0, FileType::kInfoLogFile},
      {"LOG.old.1700000000", 1700000000, FileType::kInfoLogFile},
      {"000009.dbtmp", 9, FileType::kTempFile},
  };
  for (const Case& c : cases) {
    uint64_t number;
    FileType type;
    ASSERT_TRUE(ParseFileName(c.name, &number, &type)) << c.name;
    EXPECT_EQ(c.number, number) << c.name;
    EXPECT_EQ(c.type, type) << c.name;
  }
  for (const char* bad :
       {"", "foo", "foo-dx-100.log", ".log", "100", "100.", "100.lop",
        "MANIFEST", "MANIFEST-", "MANIFEST-3x", "CURRENT.x", "LOG.old.",
        "99999999999999999999999.log"}) {
    uint64_t number;
    FileType type;
    EXPECT_FALSE(ParseFileName(bad, &number, &type)) << bad;
  }
  EXPECT_EQ("db/000007.log", LogFileName("db", 7));
  EXPECT_EQ("db/000007.sst", TableFileName("db", 7));
  EXPECT_EQ("db/MANIFEST-000003", DescriptorFileName("db", 3));
  EXPECT_EQ("db/OPTIONS-000004", OptionsFileName("db", 4));
}

}  // namespace
}  // namespace strata
