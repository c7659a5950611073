// db_bench's keys and values must be RocksDB db_bench's, byte for byte.
// The expected bytes below were read back (ldb scan --hex) from DBs that
// RocksDB 7.8.3's db_bench wrote with the flags quoted.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tools/db_bench/keys.h"
#include "util/random.h"

namespace strata {
namespace bench {
namespace {

std::string Hex(const std::string& s) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

TEST(DbBenchKeysTest, NumberBigEndianThenZeroPadding) {
  const KeyFormat f(16, 0, 0);
  EXPECT_EQ(std::string(8, '\0') + "00000000", f.Key(0, 1000));
  EXPECT_EQ("0000000000000001" + Hex("00000000"), Hex(f.Key(1, 1000)));
  EXPECT_EQ("0102030405060708" + Hex("00000000"),
            Hex(f.Key(0x0102030405060708ull, 1000)));
  // --key_size=8: the number only (db_bench --key_size=8 ... fillseq wrote
  // 0x0000000000000064 for key 100).
  EXPECT_EQ("0000000000000064", Hex(KeyFormat(8, 0, 0).Key(100, 1000)));
}

TEST(DbBenchKeysTest, ShortKeysKeepTheLowBytes) {
  // --key_size=4: filluniquerandom wrote 0x00000000 .. 0x00000004.
  EXPECT_EQ("00000004", Hex(KeyFormat(4, 0, 0).Key(4, 5)));
  EXPECT_EQ("05060708", Hex(KeyFormat(4, 0, 0).Key(0x0102030405060708ull, 5)));
  EXPECT_EQ("0A0B", Hex(KeyFormat(2, 0, 0).Key(0x0A0B, 5)));
}

TEST(DbBenchKeysTest, PrefixedKeys) {
  // --num=3 --key_size=10 --prefix_size=4 --keys_per_prefix=1 fillseq:
  // 0x00000000000000000000, 0x00000001000000000001, 0x00000002000000000002.
  const KeyFormat f(10, 4, 1);
  EXPECT_EQ("00000000000000000000", Hex(f.Key(0, 3)));
  EXPECT_EQ("00000001000000000001", Hex(f.Key(1, 3)));
  EXPECT_EQ("00000002000000000002", Hex(f.Key(2, 3)));
  // 100 keys, 10 per prefix: 10 prefixes, prefix = v % 10.
  EXPECT_EQ(
      "00000003"
      "00000000007B",
      Hex(KeyFormat(10, 4, 10).Key(123, 100)));
  // A prefix wider than 8 bytes: 8 bytes of number, then '0's.
  EXPECT_EQ("0000000000000003" + Hex("0000") + "000000000000007B" + Hex("0000"),
            Hex(KeyFormat(24, 12, 10).Key(123, 100)));
}

TEST(DbBenchKeysTest, EncodeWritesExactlyKeySize) {
  std::string buf(20, 'x');
  KeyFormat(16, 0, 0).Encode(7, 100, &buf[0]);
  EXPECT_EQ("xxxx", buf.substr(16));
}

TEST(DbBenchKeysTest, ValuesAreRocksDbs) {
  // --value_size=4 fillseq (compression_ratio 0.5): key 0 got 0x5E7B5668,
  // key 1 0x7A22212F, key 2 0x25774D5A.
  ValueGenerator half(0.5, 4);
  EXPECT_EQ("5E7B5668", Hex(half.Generate(4).ToString()));
  EXPECT_EQ("7A22212F", Hex(half.Generate(4).ToString()));
  EXPECT_EQ("25774D5A", Hex(half.Generate(4).ToString()));

  // --value_size=20 --compression_ratio=0.25: 25 random bytes repeated.
  ValueGenerator quarter(0.25, 20);
  EXPECT_EQ("5E7B56687A22212F25774D5A3B276120462F5245",
            Hex(quarter.Generate(20).ToString()));
  EXPECT_EQ("5A4A3454775E7B56687A22212F25774D5A3B2761",
            Hex(quarter.Generate(20).ToString()));
}

TEST(DbBenchKeysTest, CompressibleStringRepeatsItsRandomPart) {
  Random rnd(301);
  const std::string s = CompressibleString(&rnd, 0.1, 100);
  ASSERT_EQ(100u, s.size());
  EXPECT_EQ(s.substr(0, 10), s.substr(10, 10));
  EXPECT_EQ(s.substr(0, 10), s.substr(90, 10));
  for (char c : s) {
    EXPECT_GE(c, ' ');
    EXPECT_LE(c, '~');
  }
  // A ratio of 0 still keeps one random byte: one repeated character.
  Random rnd2(1);
  const std::string same = CompressibleString(&rnd2, 0, 5);
  EXPECT_EQ(std::string(5, same[0]), same);
}

TEST(DbBenchKeysTest, ValueBufferWraps) {
  ValueGenerator g(1.0, 100);
  const std::string first = g.Generate(100).ToString();
  // The buffer is 10486 pieces of 100 bytes (the first multiple of 100
  // past 1 MiB): 10486 values fit, the next one starts over.
  for (int i = 1; i < 10486; i++) g.Generate(100);
  EXPECT_EQ(first, g.Generate(100).ToString());
}

TEST(DbBenchKeysTest, KeyOrders) {
  Random64 rand(8);
  KeySequence seq(&rand, KeyOrder::kSequential, 1000, 0);
  EXPECT_EQ(0u, seq.Next());
  EXPECT_EQ(1u, seq.Next());

  // RocksDB's fillrandom with --seed=7 (its first thread is seeded 8):
  // keys 386, 870, 786, each after a draw that picks the DB.
  Random64 r8(8);
  KeySequence random(&r8, KeyOrder::kRandom, 1000, 0);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 3; i++) {
    r8.Next();
    keys.push_back(random.Next());
  }
  EXPECT_EQ((std::vector<uint64_t>{386, 870, 786}), keys);

  // filluniquerandom --num=5 --seed=42 wrote keys 4, 0, 2, 3, 1 in that
  // order (told by which slice of the value buffer each one holds).
  KeySequence unique(&rand, KeyOrder::kUniqueRandom, 5, 42);
  keys.clear();
  for (int i = 0; i < 5; i++) keys.push_back(unique.Next());
  EXPECT_EQ((std::vector<uint64_t>{4, 0, 2, 3, 1}), keys);
}

}  // namespace
}  // namespace bench
}  // namespace strata
