// The table format's pieces alone: block handles, the footer, ReadBlock
// (trailer, checksum, compression, bounds, mmap) and the properties block.

#include "table/format.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "env/file_reader.h"
#include "gtest/gtest.h"
#include "strata/options.h"
#include "table/block_builder.h"
#include "table/compression.h"
#include "table/table_properties.h"
#include "test/table/table_test_util.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

TEST(BlockHandleTest, RoundTripsAndRefusesTruncatedInput) {
  for (uint64_t offset : {uint64_t{0}, uint64_t{1}, uint64_t{300},
                          uint64_t{1} << 40, ~uint64_t{0}}) {
    for (uint64_t size :
         {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{1} << 33}) {
      std::string enc;
      BlockHandle(offset, size).EncodeTo(&enc);
      ASSERT_LE(enc.size(), size_t{BlockHandle::kMaxEncodedLength});
      enc += "rest";
      Slice in(enc);
      BlockHandle h;
      ASSERT_TRUE(h.DecodeFrom(&in));
      EXPECT_EQ(h.offset(), offset);
      EXPECT_EQ(h.size(), size);
      EXPECT_EQ(in.ToString(), "rest");
      // Every truncation fails and leaves the input alone.
      const size_t full = enc.size() - 4;
      for (size_t n = 0; n < full; n++) {
        Slice cut(enc.data(), n);
        EXPECT_FALSE(h.DecodeFrom(&cut));
        EXPECT_EQ(cut.size(), n);
      }
    }
  }
}

class FooterTest : public testing::Test {
 protected:
  // A footer of a file of file_size bytes with the given handles.
  std::string Encode(const BlockHandle& meta, const BlockHandle& index) {
    Footer f;
    f.metaindex_handle = meta;
    f.index_handle = index;
    std::string enc;
    f.EncodeTo(&enc);
    return enc;
  }
  Status Decode(const std::string& enc, uint64_t file_size) {
    Footer f;
    return f.DecodeFrom(enc, "t.sst", file_size);
  }
};

TEST_F(FooterTest, LayoutAndRoundTrip) {
  const std::string enc = Encode(BlockHandle(100, 20), BlockHandle(125, 30));
  ASSERT_EQ(enc.size(), size_t{Footer::kEncodedLength});
  ASSERT_EQ(enc.size(), 52u);
  EXPECT_EQ(enc.substr(44), "strataTB");
  EXPECT_EQ(DecodeFixed32(enc.data() + 40), kBlockBasedTableFormatVersion);
  Footer f;
  // Blocks end at 160 = 125 + 30 + 5: the footer starts there.
  ASSERT_TRUE(f.DecodeFrom(enc, "t.sst", 160 + 52).ok());
  EXPECT_EQ(f.metaindex_handle.offset(), 100u);
  EXPECT_EQ(f.metaindex_handle.size(), 20u);
  EXPECT_EQ(f.index_handle.offset(), 125u);
  EXPECT_EQ(f.index_handle.size(), 30u);
}

TEST_F(FooterTest, RefusesDamage) {
  const std::string good = Encode(BlockHandle(0, 10), BlockHandle(15, 10));
  const uint64_t size = 30 + 52;
  ASSERT_TRUE(Decode(good, size).ok());

  std::string bad = good;
  bad[51] ^= 1;  // magic
  Status s = Decode(bad, size);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.ToString().find("magic"), std::string::npos) << s.ToString();
  EXPECT_TRUE(test::IsLocatedCorruption(s, "t.sst")) << s.ToString();

  bad = good;
  bad[40] = 2;  // the user-key index's version: read
  {
    Footer f;
    ASSERT_TRUE(f.DecodeFrom(bad, "t.sst", size).ok());
    EXPECT_EQ(2u, f.format_version);
    EXPECT_TRUE(f.index_has_user_keys());
    EXPECT_TRUE(f.CheckVersion(2).ok());
    // The properties must say the same (the footer has no checksum).
    s = f.CheckVersion(1);
    EXPECT_TRUE(s.IsCorruption());
    EXPECT_NE(s.ToString().find("format version 1 in the properties, 2 in "
                                "the footer"),
              std::string::npos)
        << s.ToString();
  }

  bad = good;
  bad[40] = 3;  // version
  s = Decode(bad, size);
  EXPECT_NE(s.ToString().find("version 3"), std::string::npos) << s.ToString();
  EXPECT_TRUE(test::IsLocatedCorruption(s, "t.sst"));

  bad = good;
  bad[39] = 1;  // padding
  EXPECT_TRUE(test::IsLocatedCorruption(Decode(bad, size), "t.sst"));

  // The index block would reach into the footer.
  EXPECT_TRUE(test::IsLocatedCorruption(Decode(good, size - 1), "t.sst"));
  // Huge handles: no overflow in the bounds check.
  const std::string huge =
      Encode(BlockHandle(~uint64_t{0} - 2, 10), BlockHandle(0, 10));
  EXPECT_TRUE(test::IsLocatedCorruption(Decode(huge, size), "t.sst"));
  const std::string huge_size =
      Encode(BlockHandle(0, 10), BlockHandle(10, ~uint64_t{0} - 8));
  EXPECT_TRUE(test::IsLocatedCorruption(Decode(huge_size, size), "t.sst"));
  // Too short a file.
  EXPECT_TRUE(test::IsLocatedCorruption(Decode("", 10), "t.sst"));
}

// A file of blocks written by hand: [block | trailer]... then a footer's
// worth of bytes (ReadBlock only needs the blocks to end before it).
class ReadBlockTest : public testing::TestWithParam<bool /*in_memory*/> {
 protected:
  BlockHandle Append(const std::string& stored, char type) {
    BlockHandle h(file_.size(), stored.size());
    file_ += stored;
    file_ += type;
    PutFixed32(&file_,
               ComputeBlockChecksum(stored.data(), stored.size(), type));
    return h;
  }
  void Finish() {
    file_.append(Footer::kEncodedLength, '\0');
    reader_.reset(
        new RandomAccessFileReader(std::unique_ptr<RandomAccessFile>(
                                       new test::StringFile(file_, GetParam())),
                                   "blocks.sst"));
  }
  Status Read(const BlockHandle& h, bool verify, BlockContents* out,
              bool likely_compressed = false) {
    return ReadBlock(reader_.get(), file_.size(), h, verify, out,
                     /*file_in_memory=*/GetParam(), likely_compressed);
  }

  std::string file_;
  std::unique_ptr<RandomAccessFileReader> reader_;
};

TEST_P(ReadBlockTest, ReadsVerifiesAndLocatesErrors) {
  const BlockHandle a = Append("hello block", kNoCompression);
  const BlockHandle empty = Append("", kNoCompression);
  const BlockHandle b = Append("second", kNoCompression);
  file_[b.offset() + 1] ^= 0x20;  // damage b after its checksum
  const BlockHandle unknown = Append("xyz", 9);
  Finish();

  BlockContents c;
  ASSERT_TRUE(Read(a, true, &c).ok());
  EXPECT_EQ(c.data.ToString(), "hello block");
  if (GetParam()) {
    // mmap-like: a slice of the file itself, no copy.
    EXPECT_EQ(c.allocation, nullptr);
    const auto* f = static_cast<const test::StringFile*>(reader_->file());
    EXPECT_EQ(c.data.data(), f->contents().data() + a.offset());
  } else {
    EXPECT_NE(c.allocation, nullptr);
  }
  ASSERT_TRUE(Read(empty, true, &c).ok());
  EXPECT_EQ(c.data.size(), 0u);

  Status s = Read(b, true, &c);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(
      s.ToString().find("blocks.sst: block at " + std::to_string(b.offset()) +
                        ": checksum mismatch"),
      std::string::npos)
      << s.ToString();
  // Not verifying: the damaged bytes come back.
  ASSERT_TRUE(Read(b, false, &c).ok());
  EXPECT_EQ(c.data.ToString(), "sEcond");

  s = Read(unknown, true, &c);
  EXPECT_TRUE(test::IsLocatedCorruption(s, "blocks.sst")) << s.ToString();
  EXPECT_NE(s.ToString().find("compression type 9"), std::string::npos);

  // Handles past the blocks: refused before reading or allocating.
  for (const BlockHandle& h :
       {BlockHandle(a.offset(), file_.size()), BlockHandle(file_.size(), 0),
        BlockHandle(0, ~uint64_t{0} - 3), BlockHandle(~uint64_t{0}, 1),
        BlockHandle(unknown.offset(), 4)}) {
    s = Read(h, true, &c);
    EXPECT_TRUE(test::IsLocatedCorruption(s, "blocks.sst")) << s.ToString();
  }
}

TEST_P(ReadBlockTest, DecompressesEachSupportedCodec) {
  std::string raw;
  for (int i = 0; i < 500; i++) raw += "compressible text ";
  std::vector<std::pair<CompressionType, BlockHandle>> blocks;
  for (CompressionType t : {kSnappyCompression, kZlibCompression}) {
    if (!CompressionSupported(t)) continue;
    std::string stored;
    ASSERT_TRUE(CompressBlock(t, raw, &stored).ok());
    blocks.emplace_back(t, Append(stored, static_cast<char>(t)));
    // The same codec over garbage (checksum right): Corruption.
    blocks.emplace_back(
        t, Append("\x05garbage-not-compressed", static_cast<char>(t)));
  }
  Finish();
  for (size_t i = 0; i < blocks.size(); i += 2) {
    BlockContents c;
    Status s = Read(blocks[i].second, true, &c);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(c.data.ToString(), raw);
    EXPECT_NE(c.allocation, nullptr);
    s = Read(blocks[i + 1].second, true, &c);
    EXPECT_TRUE(test::IsLocatedCorruption(s, "blocks.sst")) << s.ToString();
  }
}

// Reads of likely compressed blocks go through a buffer on the stack;
// whatever comes back must still own (or, mmap'ed, point to the file's)
// bytes once the read returned and the next one reused the stack.
TEST_P(ReadBlockTest, LikelyCompressedReadsKeepTheirBytes) {
  std::string small_raw, big_raw;
  for (int i = 0; i < 40; i++) small_raw += "small block " + std::to_string(i);
  Random rnd(301);
  for (size_t i = 0; i < 2 * kBlockReadStackBuffer; i++) {
    big_raw += static_cast<char>('a' + rnd.Uniform(26));  // hardly compresses
  }
  std::vector<std::pair<std::string, BlockHandle>> blocks;
  blocks.emplace_back(small_raw, Append(small_raw, kNoCompression));
  blocks.emplace_back(big_raw, Append(big_raw, kNoCompression));
  if (CompressionSupported(kSnappyCompression)) {
    for (const std::string* raw : {&small_raw, &big_raw}) {
      std::string stored;
      ASSERT_TRUE(CompressBlock(kSnappyCompression, *raw, &stored).ok());
      blocks.emplace_back(*raw, Append(stored, kSnappyCompression));
    }
  }
  Finish();
  std::vector<BlockContents> got(blocks.size());
  for (size_t i = 0; i < blocks.size(); i++) {
    Status s =
        Read(blocks[i].second, true, &got[i], /*likely_compressed=*/true);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  for (size_t i = 0; i < blocks.size(); i++) {
    EXPECT_EQ(blocks[i].first, got[i].data.ToString()) << "block " << i;
    // Owned, unless an uncompressed block of an mmap'ed file.
    EXPECT_EQ(GetParam() && i < 2, got[i].allocation == nullptr) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, ReadBlockTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "mmap" : "copied";
                         });

TEST(ReadFooterTest, ShortFileAndShortRead) {
  std::unique_ptr<RandomAccessFileReader> reader(new RandomAccessFileReader(
      std::unique_ptr<RandomAccessFile>(new test::StringFile("tiny", false)),
      "short.sst"));
  Footer f;
  Status s = ReadFooter(reader.get(), 4, &f);
  EXPECT_TRUE(test::IsLocatedCorruption(s, "short.sst")) << s.ToString();
  // The caller claims more bytes than the file has.
  s = ReadFooter(reader.get(), 100, &f);
  EXPECT_TRUE(test::IsLocatedCorruption(s, "short.sst")) << s.ToString();
}

TableProperties SampleProperties() {
  TableProperties p;
  p.num_entries = 1;
  p.num_deletions = 2;
  p.num_range_deletions = 3;
  p.num_merge_operands = 4;
  p.num_data_blocks = 5;
  p.raw_key_size = 6;
  p.raw_value_size = 7;
  p.data_size = 8;
  p.index_size = 9;
  p.filter_size = 10;
  p.creation_time = 1700000000;
  p.smallest_seqno = 12;
  p.largest_seqno = (uint64_t{1} << 56) - 1;
  p.format_version = 1;
  p.whole_key_filtering = 1;
  p.comparator_name = "leveldb.BytewiseComparator";
  p.compression_name = "Snappy";
  p.filter_policy_name = "strata.BloomFilter";
  p.prefix_extractor_name = "strata.FixedPrefix.3";
  return p;
}

TEST(TablePropertiesTest, RoundTripsEveryField) {
  const TableProperties p = SampleProperties();
  std::string enc;
  EncodeTableProperties(p, &enc);
  TableProperties q;
  ASSERT_TRUE(DecodeTableProperties(enc, &q).ok());
  EXPECT_EQ(q.ToString(), p.ToString());
  EXPECT_EQ(q.largest_seqno, p.largest_seqno);
  EXPECT_EQ(q.prefix_extractor_name, "strata.FixedPrefix.3");
  const std::string text = p.ToString();
  EXPECT_NE(text.find("strata.num.entries=1;"), std::string::npos) << text;
  EXPECT_NE(text.find("strata.compression=Snappy"), std::string::npos);
}

TEST(TablePropertiesTest, IgnoresUnknownNamesRefusesMalformedNumbers) {
  BlockBuilder b(1);
  std::string num;
  PutVarint64(&num, 42);
  b.Add("strata.a.future.property", "whatever");
  b.Add("strata.num.entries", num);
  TableProperties q;
  ASSERT_TRUE(DecodeTableProperties(b.Finish(), &q).ok());
  EXPECT_EQ(q.num_entries, 42u);

  BlockBuilder bad(1);
  bad.Add("strata.num.entries", num + "x");  // trailing byte
  Status s = DecodeTableProperties(bad.Finish(), &q);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.ToString().find("strata.num.entries"), std::string::npos);

  BlockBuilder overlong(1);
  overlong.Add("strata.num.entries", std::string(11, '\x80'));
  EXPECT_TRUE(DecodeTableProperties(overlong.Finish(), &q).IsCorruption());

  // Not a block at all.
  EXPECT_TRUE(DecodeTableProperties(Slice("\x01", 1), &q).IsCorruption());
  EXPECT_TRUE(DecodeTableProperties(Slice(), &q).IsCorruption());
}

}  // namespace
}  // namespace strata
