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
#include "test/util/testutil.h"
#include "util/coding.h"
#include "util/logging.h"
#include "util/random.h"

namespace strata {
namespace {

const CompressionType kCodecs[] = {kSnappyCompression, kZlibCompression};

using test::RandomBytes;

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

// The snappy format (snappy's format_description.txt) decoded without the
// codec: a varint32 length, then elements, each producing at least one
// byte: a literal (tag 00, its length - 1 in the tag's upper six bits or,
// for 60..63, in the 1..4 bytes after it) or a copy of earlier output at
// an offset 1..produced so far: 4..11 bytes at an 11-bit offset (tag 01),
// 1..64 bytes at a 16-bit (10) or 32-bit (11) one. Valid when the elements
// produce exactly the announced length.
bool SnappyModel(const std::string& in, std::string* out) {
  Slice s(in);
  uint32_t length = 0;
  if (!GetVarint32(&s, &length)) return false;
  out->clear();
  auto take = [&s](size_t n, uint64_t* v) {
    if (s.size() < n) return false;
    *v = 0;
    for (size_t i = 0; i < n; i++) {
      *v |= uint64_t{static_cast<uint8_t>(s[i])} << (8 * i);
    }
    s.remove_prefix(n);
    return true;
  };
  while (!s.empty()) {
    const uint8_t tag = static_cast<uint8_t>(s[0]);
    s.remove_prefix(1);
    uint64_t len = tag >> 2, offset = 0;
    switch (tag & 3) {
      case 0:
        if (len >= 60 && !take(len - 59, &len)) return false;
        len++;
        if (len > s.size() || out->size() + len > length) return false;
        out->append(s.data(), len);
        s.remove_prefix(len);
        continue;
      case 1:
        len = 4 + (len & 7);
        if (!take(1, &offset)) return false;
        offset |= static_cast<uint64_t>(tag >> 5) << 8;
        break;
      case 2:
        len++;
        if (!take(2, &offset)) return false;
        break;
      default:
        len++;
        if (!take(4, &offset)) return false;
        break;
    }
    if (offset == 0 || offset > out->size() || out->size() + len > length) {
      return false;
    }
    for (uint64_t i = 0; i < len; i++) {
      out->push_back((*out)[out->size() - offset]);
    }
  }
  return out->size() == length;
}

// Decompresses data, which may be damaged, and holds the result to the
// format: never anything but OK or Corruption. Snappy: exactly what
// SnappyModel decodes. Zlib (deflate has no model here): OK only with the
// size the prefix announces, where the same stream under any other prefix,
// or with one byte more, is Corruption. Returns the status.
Status CheckUncompress(CompressionType type, const std::string& data) {
  std::unique_ptr<char[]> out;
  size_t out_size = 0;
  const Status s = UncompressBlock(type, data, &out, &out_size);
  EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
  if (type == kSnappyCompression) {
    std::string expected;
    const bool valid = SnappyModel(data, &expected);
    EXPECT_EQ(valid, s.ok()) << s.ToString();
    if (valid && s.ok()) {
      EXPECT_TRUE(expected == std::string(out.get(), out_size));
    }
    return s;
  }
  if (!s.ok()) return s;
  Slice stream = data;
  uint32_t announced = 0;
  EXPECT_TRUE(GetVarint32(&stream, &announced));
  EXPECT_EQ(announced, out_size);
  for (uint32_t other : {announced - 1, announced + 1}) {
    std::string lie;
    PutVarint32(&lie, other);
    EXPECT_TRUE(Uncompress(type, lie + stream.ToString()).IsCorruption())
        << other;
  }
  EXPECT_TRUE(Uncompress(type, data + '\0').IsCorruption());
  return s;
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
      const std::string garbage = RandomBytes(&rnd, rnd.Uniform(200));
      if (CheckUncompress(type, garbage).IsCorruption()) corrupt++;
      ASSERT_FALSE(HasFailure()) << EscapeString(garbage);
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
    int accepted = 0;
    for (size_t i = 0; i < compressed.size(); i++) {
      for (int mask : {0x01, 0x24, 0x80}) {
        std::string bad = compressed;
        bad[i] = static_cast<char>(bad[i] ^ mask);
        if (CheckUncompress(type, bad).ok()) accepted++;
        ASSERT_FALSE(HasFailure()) << "byte " << i << " ^ " << mask;
      }
    }
    // Damage the codec cannot see (a literal byte, a copy still in range)
    // decodes to other bytes; the block checksum is there for that.
    EXPECT_GT(accepted, 0);
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
