#include "util/coding.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(CodingTest, Fixed32IsLittleEndian) {
  std::string s;
  PutFixed32(&s, 0x04030201u);
  ASSERT_EQ(4u, s.size());
  EXPECT_EQ(std::string("\x01\x02\x03\x04", 4), s);
  EXPECT_EQ(0x04030201u, DecodeFixed32(s.data()));
}

TEST(CodingTest, Fixed64IsLittleEndian) {
  std::string s;
  PutFixed64(&s, 0x0807060504030201ull);
  EXPECT_EQ(std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8), s);
  EXPECT_EQ(0x0807060504030201ull, DecodeFixed64(s.data()));
}

TEST(CodingTest, FixedRoundTrip) {
  std::string s;
  for (uint32_t v = 0; v < 100000; v++) PutFixed32(&s, v * 40503u);
  for (int power = 0; power <= 63; power++) {
    const uint64_t v = uint64_t{1} << power;
    PutFixed64(&s, v - 1);
    PutFixed64(&s, v);
    PutFixed64(&s, v + 1);
  }
  Slice in(s);
  for (uint32_t v = 0; v < 100000; v++) {
    uint32_t got;
    ASSERT_TRUE(GetFixed32(&in, &got));
    ASSERT_EQ(v * 40503u, got);
  }
  for (int power = 0; power <= 63; power++) {
    const uint64_t v = uint64_t{1} << power;
    uint64_t a, b, c;
    ASSERT_TRUE(GetFixed64(&in, &a));
    ASSERT_TRUE(GetFixed64(&in, &b));
    ASSERT_TRUE(GetFixed64(&in, &c));
    EXPECT_EQ(v - 1, a);
    EXPECT_EQ(v, b);
    EXPECT_EQ(v + 1, c);
  }
  EXPECT_TRUE(in.empty());
  uint32_t x;
  EXPECT_FALSE(GetFixed32(&in, &x));
}

TEST(CodingTest, ShortFixedIsRejectedAndLeavesInput) {
  std::string s("\x01\x02\x03", 3);
  Slice in(s);
  uint32_t v32;
  uint64_t v64;
  EXPECT_FALSE(GetFixed32(&in, &v32));
  EXPECT_FALSE(GetFixed64(&in, &v64));
  EXPECT_EQ(3u, in.size());
}

TEST(CodingTest, Varint32RoundTripAndLength) {
  std::string s;
  std::vector<uint32_t> values;
  for (uint32_t i = 0; i < (32 * 32); i++) {
    values.push_back((i / 32) << (i % 32));
  }
  values.push_back(0xffffffffu);
  for (uint32_t v : values) PutVarint32(&s, v);
  Slice in(s);
  for (uint32_t v : values) {
    const size_t before = in.size();
    uint32_t got;
    ASSERT_TRUE(GetVarint32(&in, &got));
    EXPECT_EQ(v, got);
    EXPECT_EQ(static_cast<size_t>(VarintLength(v)), before - in.size());
  }
  EXPECT_TRUE(in.empty());
}

TEST(CodingTest, Varint64RoundTrip) {
  std::vector<uint64_t> values = {0, 100, ~uint64_t{0}, ~uint64_t{0} - 1};
  for (int k = 0; k < 64; k++) {
    const uint64_t power = uint64_t{1} << k;
    values.push_back(power);
    values.push_back(power - 1);
    values.push_back(power + 1);
  }
  std::string s;
  for (uint64_t v : values) PutVarint64(&s, v);
  Slice in(s);
  for (uint64_t v : values) {
    uint64_t got;
    ASSERT_TRUE(GetVarint64(&in, &got));
    EXPECT_EQ(v, got);
  }
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(10, VarintLength(~uint64_t{0}));
  EXPECT_EQ(1, VarintLength(127));
  EXPECT_EQ(2, VarintLength(128));
}

TEST(CodingTest, EveryTruncationIsDetected) {
  std::string s32, s64;
  PutVarint32(&s32, 0xffffffffu);
  PutVarint64(&s64, ~uint64_t{0});
  for (size_t len = 0; len < s32.size(); len++) {
    uint32_t v;
    EXPECT_EQ(nullptr, GetVarint32Ptr(s32.data(), s32.data() + len, &v));
    Slice in(s32.data(), len);
    EXPECT_FALSE(GetVarint32(&in, &v));
    EXPECT_EQ(len, in.size());  // input untouched
  }
  for (size_t len = 0; len < s64.size(); len++) {
    uint64_t v;
    EXPECT_EQ(nullptr, GetVarint64Ptr(s64.data(), s64.data() + len, &v));
  }
}

TEST(CodingTest, OverlongVarintsAreRejected) {
  // Five bytes whose last carries bits above bit 31.
  const std::string too_big32("\xff\xff\xff\xff\x1f", 5);
  uint32_t v32;
  EXPECT_EQ(nullptr,
            GetVarint32Ptr(too_big32.data(), too_big32.data() + 5, &v32));
  // Six bytes of continuation: longer than any varint32.
  const std::string six("\x80\x80\x80\x80\x80\x00", 6);
  EXPECT_EQ(nullptr, GetVarint32Ptr(six.data(), six.data() + 6, &v32));
  // The largest valid one still decodes.
  const std::string max32("\xff\xff\xff\xff\x0f", 5);
  ASSERT_NE(nullptr, GetVarint32Ptr(max32.data(), max32.data() + 5, &v32));
  EXPECT_EQ(0xffffffffu, v32);

  uint64_t v64;
  const std::string too_big64("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10);
  EXPECT_EQ(nullptr,
            GetVarint64Ptr(too_big64.data(), too_big64.data() + 10, &v64));
  const std::string eleven(10, '\x80');
  EXPECT_EQ(nullptr,
            GetVarint64Ptr(eleven.data(), eleven.data() + eleven.size(), &v64));
}

TEST(CodingTest, LengthPrefixedSlices) {
  std::string s;
  PutLengthPrefixedSlice(&s, Slice(""));
  PutLengthPrefixedSlice(&s, Slice("foo"));
  PutLengthPrefixedSlice(&s, Slice(std::string(200, 'x')));
  Slice in(s);
  Slice v;
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ("", v.ToString());
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ("foo", v.ToString());
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ(std::string(200, 'x'), v.ToString());
  EXPECT_TRUE(in.empty());
}

TEST(CodingTest, LengthPrefixBeyondTheInputIsRejected) {
  std::string s;
  PutVarint32(&s, 10);
  s.append("short");
  Slice in(s);
  Slice v;
  EXPECT_FALSE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ(s.size(), in.size());
  // A huge length must not be trusted either.
  std::string huge;
  PutVarint32(&huge, 0xffffffffu);
  Slice in2(huge);
  EXPECT_FALSE(GetLengthPrefixedSlice(&in2, &v));
}

}  // namespace
}  // namespace strata
