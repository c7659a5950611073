// Block compression: round trips of every codec built in, NotSupported for
// the ones that are not (the suite branches on CompressionSupported, so it
// means something in builds with and without snappy/zlib), the 1/8 rule,
// and hostile compressed input — garbage, truncation, lying size
// prefixes — which must be Corruption.

#include "table/compression.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

const CompressionType kCodecs[] = {kSnappyCompression, kZlibCompression};

std::string RandomBytes(Random* rnd, size_t len) {
  std::string s(len, '\0');
  for (char& c : s) c = static_cast<char>(rnd->Uniform(256));
  return s;
}

// Text-like data with much repetition, like a block of similar keys.
std::string Compressible(Random* rnd, size_t len) {
  std::string s;
  while (s.size() < len) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "user_key_%05u:value_%03u;",
                  rnd->Uniform(100), rnd->Uniform(10));
    s += buf;
  }
  s.resize(len);
  return s;
}

Status RoundTrip(CompressionType type, const std::string& raw,
                 std::string* compressed) {
  Status s = CompressBlock(type, raw, compressed);
  if (!s.ok()) return s;
  std::unique_ptr<char[]> out;
  size_t out_size = 0;
  s = UncompressBlock(type, *compressed, &out, &out_size);
  if (!s.ok()) return s;
  EXPECT_EQ(raw.size(), out_size);
  EXPECT_TRUE(std::string(out.get(), out_size) == raw);
  return s;
}

Status Uncompress(CompressionType type, const std::string& data) {
  std::unique_ptr<char[]> out;
  size_t out_size = 0;
  return UncompressBlock(type, data, &out, &out_size);
}

TEST(CompressionTest, NamesAndNoCompression) {
  EXPECT_STREQ("NoCompression", CompressionTypeName(kNoCompression));
  EXPECT_STREQ("Snappy", CompressionTypeName(kSnappyCompression));
  EXPECT_STREQ("Zlib", CompressionTypeName(kZlibCompression));
  EXPECT_STREQ("Unknown",
               CompressionTypeName(static_cast<CompressionType>(0x7f)));
  EXPECT_TRUE(CompressionSupported(kNoCompression));
  EXPECT_FALSE(CompressionSupported(static_cast<CompressionType>(0x7f)));

  std::string compressed;
  ASSERT_TRUE(RoundTrip(kNoCompression, "plain bytes", &compressed).ok());
  EXPECT_EQ("plain bytes", compressed);
}

TEST(CompressionTest, UnknownType) {
  const auto bogus = static_cast<CompressionType>(9);
  std::string out;
  EXPECT_TRUE(CompressBlock(bogus, "x", &out).IsInvalidArgument());
  const Status s = Uncompress(bogus, "x");
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("compression type 9"));
}

TEST(CompressionTest, GoodCompressionRatio) {
  EXPECT_TRUE(GoodCompressionRatio(700, 800));   // saves exactly 1/8
  EXPECT_FALSE(GoodCompressionRatio(701, 800));  // saves less
  EXPECT_TRUE(GoodCompressionRatio(0, 0));
  EXPECT_TRUE(GoodCompressionRatio(7, 8));
  EXPECT_FALSE(GoodCompressionRatio(8, 8));
  EXPECT_TRUE(GoodCompressionRatio(7, 7));  // 7 / 8 == 0: nothing to save
  EXPECT_FALSE(GoodCompressionRatio(5000, 4096));
}

TEST(CompressionTest, RoundTripsOrNotSupported) {
  Random rnd(42);
  for (CompressionType type : kCodecs) {
    SCOPED_TRACE(CompressionTypeName(type));
    std::string compressed;
    if (!CompressionSupported(type)) {
      EXPECT_TRUE(CompressBlock(type, "abc", &compressed).IsNotSupported());
      EXPECT_TRUE(Uncompress(type, "abc").IsNotSupported());
      continue;
    }
    for (size_t size : {0, 1, 7, 100, 4096, 65536, 1 << 20}) {
      SCOPED_TRACE("size " + std::to_string(size));
      ASSERT_TRUE(RoundTrip(type, RandomBytes(&rnd, size), &compressed).ok());
      const std::string text = Compressible(&rnd, size);
      ASSERT_TRUE(RoundTrip(type, text, &compressed).ok());
      if (size >= 4096) {
        EXPECT_TRUE(GoodCompressionRatio(compressed.size(), size))
            << compressed.size();
      }
    }
    // The most compressible input there is: near the codec's best ratio.
    ASSERT_TRUE(RoundTrip(type, std::string(4 << 20, '\0'), &compressed).ok());
  }
}

TEST(CompressionTest, GarbageIsCorruption) {
  Random rnd(7);
  for (CompressionType type : kCodecs) {
    if (!CompressionSupported(type)) continue;
    SCOPED_TRACE(CompressionTypeName(type));
    EXPECT_TRUE(Uncompress(type, "").IsCorruption());
    int corrupt = 0;
    for (int i = 0; i < 2000; i++) {
      const Status s = Uncompress(type, RandomBytes(&rnd, rnd.Uniform(200)));
      EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
      if (s.IsCorruption()) corrupt++;
    }
    EXPECT_GT(corrupt, 1900);
  }
}

TEST(CompressionTest, TruncatedAndFlippedStreams) {
  Random rnd(11);
  for (CompressionType type : kCodecs) {
    if (!CompressionSupported(type)) continue;
    SCOPED_TRACE(CompressionTypeName(type));
    const std::string raw = Compressible(&rnd, 3000);
    std::string compressed;
    ASSERT_TRUE(CompressBlock(type, raw, &compressed).ok());
    // No proper prefix is a whole stream of the announced size.
    for (size_t len = 0; len < compressed.size(); len++) {
      EXPECT_TRUE(Uncompress(type, compressed.substr(0, len)).IsCorruption())
          << "truncated to " << len;
    }
    EXPECT_TRUE(Uncompress(type, compressed + "x").IsCorruption());
    for (size_t i = 0; i < compressed.size(); i++) {
      std::string bad = compressed;
      bad[i] = static_cast<char>(bad[i] ^ 0x24);
      const Status s = Uncompress(type, bad);
      EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
    }
  }
}

TEST(CompressionTest, ZlibSizePrefixIsEnforced) {
  if (!CompressionSupported(kZlibCompression)) return;
  const std::string raw(1000, 'z');
  std::string compressed;
  ASSERT_TRUE(CompressBlock(kZlibCompression, raw, &compressed).ok());
  Slice rest = compressed;
  uint32_t size = 0;
  ASSERT_TRUE(GetVarint32(&rest, &size));
  ASSERT_EQ(1000u, size);
  const std::string stream = rest.ToString();

  auto with_prefix = [&stream](uint32_t claimed) {
    std::string s;
    PutVarint32(&s, claimed);
    return s + stream;
  };
  ASSERT_TRUE(Uncompress(kZlibCompression, with_prefix(1000)).ok());
  // Claims the stream does not meet, in either direction.
  EXPECT_TRUE(Uncompress(kZlibCompression, with_prefix(999)).IsCorruption());
  EXPECT_TRUE(Uncompress(kZlibCompression, with_prefix(1001)).IsCorruption());
  EXPECT_TRUE(Uncompress(kZlibCompression, with_prefix(0)).IsCorruption());
  // Over the block limit, and over what any deflate stream of this
  // length could produce: refused before allocating.
  Status s = Uncompress(
      kZlibCompression,
      with_prefix(static_cast<uint32_t>(kMaxUncompressedBlockSize) + 1));
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("exceeds the limit"))
      << s.ToString();
  s = Uncompress(kZlibCompression,
                 with_prefix(static_cast<uint32_t>(stream.size()) * 2000));
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("exceeds the limit"));
  // A broken prefix.
  EXPECT_TRUE(
      Uncompress(kZlibCompression, "\xff\xff\xff\xff\xff\x01").IsCorruption());
}

TEST(CompressionTest, SnappyLengthHeaderIsChecked) {
  if (!CompressionSupported(kSnappyCompression)) return;
  const std::string raw(1000, 's');
  std::string compressed;
  ASSERT_TRUE(CompressBlock(kSnappyCompression, raw, &compressed).ok());
  // Snappy's stream starts with a varint32 of the uncompressed length.
  Slice rest = compressed;
  uint32_t size = 0;
  ASSERT_TRUE(GetVarint32(&rest, &size));
  ASSERT_EQ(1000u, size);
  for (uint32_t claimed :
       {999u, 1001u, static_cast<uint32_t>(kMaxUncompressedBlockSize) + 1,
        0xffffffffu}) {
    std::string lie;
    PutVarint32(&lie, claimed);
    EXPECT_TRUE(
        Uncompress(kSnappyCompression, lie + rest.ToString()).IsCorruption())
        << claimed;
  }
  // The largest expansion real data reaches is accepted: 1 MiB of zeros.
  const std::string zeros(1 << 20, '\0');
  std::string packed;
  ASSERT_TRUE(CompressBlock(kSnappyCompression, zeros, &packed).ok());
  EXPECT_GT(zeros.size(), packed.size() * 20);
  std::unique_ptr<char[]> unpacked;
  size_t unpacked_size = 0;
  ASSERT_TRUE(
      UncompressBlock(kSnappyCompression, packed, &unpacked, &unpacked_size)
          .ok());
  EXPECT_EQ(zeros, std::string(unpacked.get(), unpacked_size));
  // More than snappy can expand to from this input: refused before any
  // buffer of that size is allocated.
  std::string lie;
  PutVarint32(&lie, 1000000);
  const Status s = Uncompress(kSnappyCompression, lie + rest.ToString());
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("claims 1000000 bytes"))
      << s.ToString();
}

}  // namespace
}  // namespace strata
