#include "util/crc32c.h"

#include <cstring>
#include <ostream>
#include <string>

#include "gtest/gtest.h"
#include "util/random.h"

namespace strata {
namespace crc32c {
namespace {

using ExtendFn = uint32_t (*)(uint32_t, const char*, size_t);

struct Impl {
  const char* name;
  ExtendFn extend;
};

void PrintTo(const Impl& impl, std::ostream* os) { *os << impl.name; }

class Crc32cImplTest : public testing::TestWithParam<Impl> {
 protected:
  void SetUp() override {
    if (GetParam().extend == ExtendHardware && !IsHardwareAccelerated()) {
      GTEST_SKIP() << "this CPU has no CRC32C instruction";
    }
  }
  uint32_t Crc(const char* data, size_t n) {
    return GetParam().extend(0, data, n);
  }
};

// The test vectors of RFC 3720 (iSCSI), appendix B.4.
TEST_P(Crc32cImplTest, Rfc3720Vectors) {
  char buf[48];

  std::memset(buf, 0, 32);
  EXPECT_EQ(0x8a9136aau, Crc(buf, 32));

  std::memset(buf, 0xff, 32);
  EXPECT_EQ(0x62a8ab43u, Crc(buf, 32));

  for (int i = 0; i < 32; i++) buf[i] = static_cast<char>(i);
  EXPECT_EQ(0x46dd794eu, Crc(buf, 32));

  for (int i = 0; i < 32; i++) buf[i] = static_cast<char>(31 - i);
  EXPECT_EQ(0x113fdb5cu, Crc(buf, 32));

  const unsigned char iscsi_read[48] = {
      0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
      0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  };
  std::memcpy(buf, iscsi_read, 48);
  EXPECT_EQ(0xd9963a56u, Crc(buf, 48));
}

TEST_P(Crc32cImplTest, CheckValue) {
  // The standard "check" value of CRC-32C.
  EXPECT_EQ(0xe3069283u, Crc("123456789", 9));
  EXPECT_EQ(0u, Crc("", 0));
}

TEST_P(Crc32cImplTest, ExtendEqualsWhole) {
  Random rnd(301);
  std::string data;
  for (int i = 0; i < 5000; i++) data.push_back(static_cast<char>(rnd.Next()));
  const uint32_t whole = Crc(data.data(), data.size());
  for (size_t split : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{33},
                       size_t{4096}, data.size()}) {
    const uint32_t head = GetParam().extend(0, data.data(), split);
    EXPECT_EQ(whole,
              GetParam().extend(head, data.data() + split, data.size() - split))
        << "split at " << split;
  }
}

INSTANTIATE_TEST_SUITE_P(Implementations, Crc32cImplTest,
                         testing::Values(Impl{"portable", ExtendPortable},
                                         Impl{"hardware", ExtendHardware},
                                         Impl{"dispatch", Extend}),
                         [](const testing::TestParamInfo<Impl>& info) {
                           return std::string(info.param.name);
                         });

TEST(Crc32cTest, HardwareAgreesWithPortableAtEveryAlignment) {
  if (!IsHardwareAccelerated()) GTEST_SKIP() << "no CRC32C instruction";
  Random rnd(17);
  std::string data(70000, '\0');
  for (char& c : data) c = static_cast<char>(rnd.Next());
  for (int i = 0; i < 2000; i++) {
    const size_t start = rnd.Uniform(64);
    const size_t len = rnd.OneIn(10) ? rnd.Uniform(65000) : rnd.Uniform(200);
    const uint32_t init = rnd.Next();
    ASSERT_EQ(ExtendPortable(init, data.data() + start, len),
              ExtendHardware(init, data.data() + start, len))
        << "start " << start << " len " << len;
  }
}

TEST(Crc32cTest, DifferentDataDifferentCrc) {
  EXPECT_NE(Value("a", 1), Value("foo", 3));
  EXPECT_NE(Value("hello world", 11), Value("hello worle", 11));
}

TEST(Crc32cTest, MaskRoundTripsAndChangesTheValue) {
  const uint32_t crc = Value("foo", 3);
  EXPECT_NE(crc, Mask(crc));
  EXPECT_NE(crc, Mask(Mask(crc)));
  EXPECT_EQ(crc, Unmask(Mask(crc)));
  EXPECT_EQ(crc, Unmask(Unmask(Mask(Mask(crc)))));
  for (uint32_t v : {0u, 1u, 0xffffffffu, 0x80000000u}) {
    EXPECT_EQ(v, Unmask(Mask(v)));
  }
}

}  // namespace
}  // namespace crc32c
}  // namespace strata
