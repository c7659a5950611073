// sst_dump's library: its command line, and TableFile over tables built
// in memory — every data block found, entries counted and bounded as
// scan and check do, and damage named by block kind, number, offset and
// size. (test/tools/sst_dump_test.py checks the tool's output.)

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "env/file_writer.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "strata/table.h"
#include "table/block_based_table_builder.h"
#include "tools/sst_dump/commands.h"
#include "tools/sst_dump/sst_flags.h"
#include "tools/sst_dump/table_file.h"

namespace strata {
namespace sst_dump {
namespace {

Status Parse(const std::vector<std::string>& args, Flags* flags) {
  std::vector<const char*> argv = {"sst_dump"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return ParseFlags(static_cast<int>(argv.size()), argv.data(), flags);
}

TEST(SstDumpFlagsTest, DefaultsAndValues) {
  Flags f;
  ASSERT_TRUE(Parse({"--file=x.sst"}, &f).ok());
  EXPECT_EQ("check", f.command);
  EXPECT_EQ(16384u, f.block_size);
  EXPECT_FALSE(f.has_from);

  Flags g;
  ASSERT_TRUE(Parse({"--file=d", "--command=scan", "--from=6162", "--to=0x7A",
                     "--input_key_hex", "--read_num=7",
                     "--compression_types=kZlibCompression,kNoCompression"},
                    &g)
                  .ok());
  EXPECT_EQ("scan", g.command);
  EXPECT_EQ("ab", g.from);  // decoded although --input_key_hex came later
  EXPECT_EQ("z", g.to);
  EXPECT_EQ(7u, g.read_num);
  ASSERT_EQ(2u, g.compression_types.size());
  EXPECT_EQ(kZlibCompression, g.compression_types[0]);
}

TEST(SstDumpFlagsTest, BadCommandLinesNameTheProblem) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--file=x", "--command=dump"}, "unknown command 'dump'"},
      {{"--file=x", "--bogus"}, "Unrecognized argument '--bogus'"},
      {{"--file=x", "--output_hex=1"}, "Unrecognized argument"},
      {{"--command=scan"}, "--file is required"},
      {{"--file=x", "--from=0x6", "--input_key_hex"}, "--from: malformed"},
      {{"--file=x", "--to=zz", "--input_key_hex"}, "--to: malformed"},
      {{"--file=x", "--read_num=-1"}, "--read_num"},
      {{"--file=x", "--set_block_size=0"}, "--set_block_size"},
      {{"--file=x", "--compression_types=kLZ4Compression"}, "kLZ4"}};
  for (const auto& c : cases) {
    Flags f;
    Status s = Parse(c.first, &f);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.second;
    EXPECT_NE(std::string::npos, s.ToString().find(c.second)) << s.ToString();
  }
}

TEST(SstDumpFlagsTest, HexKeys) {
  std::string out;
  EXPECT_TRUE(DecodeHexKey("0x00fF41", &out));
  EXPECT_EQ(std::string("\0\xff"
                        "A",
                        3),
            out);
  EXPECT_TRUE(DecodeHexKey("", &out));
  EXPECT_EQ("", out);
  EXPECT_FALSE(DecodeHexKey("0x1", &out));
  EXPECT_FALSE(DecodeHexKey("0xg0", &out));
  EXPECT_EQ("00FF41", ToHex(Slice("\0\xff"
                                  "A",
                                  3)));
}

class SstDumpTableTest : public testing::Test {
 protected:
  SstDumpTableTest()
      : env_(NewMemEnv(Env::Default())), icmp_(BytewiseComparator()) {}

  // A table of keys k000..k(n-1) (values v000...) and one range
  // tombstone [k010, k020), in blocks of about 128 bytes; k050 has
  // versions_of_k050 versions (more than a few span two blocks, and the
  // index then holds internal keys: format version 1).
  void Build(int n, int versions_of_k050 = 1) {
    std::unique_ptr<WritableFile> file;
    ASSERT_TRUE(env_->NewWritableFile(kName, &file, EnvOptions()).ok());
    WritableFileWriter writer(std::move(file), kName, EnvOptions());
    BlockBasedTableOptions table_options;
    table_options.block_size = 128;
    TableBuilderOptions options;
    options.icmp = &icmp_;
    BlockBasedTableBuilder builder(table_options, options, &writer);
    for (int i = 0; i < n; i++) {
      char key[16], value[16];
      std::snprintf(key, sizeof(key), "k%03d", i);
      std::snprintf(value, sizeof(value), "v%03d", i);
      const int versions = i == 50 ? versions_of_k050 : 1;
      for (int v = 0; v < versions; v++) {
        builder.Add(InternalKey(key, 100 + i - v, kTypeValue).Encode(), value);
      }
    }
    builder.Add(InternalKey("k010", 500, kTypeRangeDeletion).Encode(), "k020");
    ASSERT_TRUE(builder.Finish().ok());
    ASSERT_TRUE(writer.Close().ok());
  }

  void Flip(uint64_t offset) {
    std::string data;
    ASSERT_TRUE(ReadFileToString(env_.get(), kName, &data).ok());
    data[offset] ^= 0x10;
    ASSERT_TRUE(WriteStringToFile(env_.get(), data, kName).ok());
  }

  const std::string kName = "/t.sst";
  std::unique_ptr<Env> env_;
  InternalKeyComparator icmp_;
};

TEST_F(SstDumpTableTest, FindsEveryBlockAndEntry) {
  Build(100);
  std::unique_ptr<TableFile> t;
  ASSERT_TRUE(TableFile::Open(env_.get(), kName, &t).ok());
  EXPECT_GT(t->data_blocks().size(), 3u);
  EXPECT_EQ(t->properties().num_data_blocks, t->data_blocks().size());
  ASSERT_NE(nullptr, t->range_del_handle());
  EXPECT_EQ(nullptr, t->filter_handle());
  // Blocks are contiguous from offset 0.
  uint64_t next = 0;
  for (const NamedHandle& b : t->data_blocks()) {
    EXPECT_EQ(next, b.handle.offset());
    next = b.handle.offset() + b.handle.size() + kBlockTrailerSize;
  }

  Flags flags;
  ScanCounts counts;
  ASSERT_TRUE(ScanTable(*t, flags, false, true, &counts).ok());
  EXPECT_EQ(100u, counts.entries);
  EXPECT_EQ(1u, counts.range_deletions);
  EXPECT_TRUE(VerifyTable(*t).ok());

  flags.has_from = flags.has_to = true;
  flags.from = "k050";
  flags.to = "k060";
  ASSERT_TRUE(ScanTable(*t, flags, false, true, &counts).ok());
  EXPECT_EQ(10u, counts.entries);
  EXPECT_EQ(0u, counts.range_deletions);  // begins before k050
  flags.from = "k005";
  flags.read_num = 4;
  ASSERT_TRUE(ScanTable(*t, flags, false, true, &counts).ok());
  EXPECT_EQ(4u, counts.entries);
}

TEST_F(SstDumpTableTest, IndexKeysOfBothVersionsSeparateTheBlocks) {
  // Each block's name (its index key, as an internal key) is >= the
  // block's last key and < the next block's first, with user keys in the
  // index (version 2) or internal keys (1).
  for (int versions : {1, 30}) {
    Build(100, versions);
    std::unique_ptr<TableFile> t;
    ASSERT_TRUE(TableFile::Open(env_.get(), kName, &t).ok());
    EXPECT_EQ(versions == 1 ? 2u : 1u, t->footer().format_version);
    const std::vector<NamedHandle>& blocks = t->data_blocks();
    std::string previous_name;
    for (size_t i = 0; i < blocks.size(); i++) {
      std::string first, last;
      ASSERT_TRUE(t->ForEachEntry(BlockKind::kData, blocks[i].handle, i + 1,
                                  true,
                                  [&](const Slice& key, const Slice&) {
                                    if (first.empty()) first = key.ToString();
                                    last = key.ToString();
                                    return true;
                                  })
                      .ok());
      if (i > 0) {
        EXPECT_LT(icmp_.Compare(previous_name, first), 0) << i;
      }
      EXPECT_LE(icmp_.Compare(last, blocks[i].name), 0) << i;
      previous_name = blocks[i].name;
    }
    // --from skips blocks by their names: every version of k050 is found.
    Flags flags;
    flags.has_from = true;
    flags.from = "k050";
    ScanCounts counts;
    ASSERT_TRUE(ScanTable(*t, flags, false, true, &counts).ok());
    EXPECT_EQ(50u + versions - 1, counts.entries);
  }
}

TEST_F(SstDumpTableTest, DamageNamesTheBlock) {
  Build(100);
  std::unique_ptr<TableFile> t;
  ASSERT_TRUE(TableFile::Open(env_.get(), kName, &t).ok());
  const BlockHandle h = t->data_blocks()[2].handle;
  t.reset();
  Flip(h.offset() + 3);
  ASSERT_TRUE(TableFile::Open(env_.get(), kName, &t).ok());
  const std::string where = "data block #3 at offset " +
                            std::to_string(h.offset()) + " size " +
                            std::to_string(h.size());
  Status s = VerifyTable(*t);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find(where)) << s.ToString();
  ScanCounts counts;
  s = ScanTable(*t, Flags(), false, true, &counts);
  EXPECT_NE(std::string::npos, s.ToString().find(where)) << s.ToString();
  // A range that ends before the damaged block never reads it.
  Flags early;
  early.has_to = true;
  early.to = "k001";
  EXPECT_TRUE(ScanTable(*t, early, false, true, &counts).ok());
  EXPECT_EQ(1u, counts.entries);
}

TEST_F(SstDumpTableTest, DamagedIndexFailsOpen) {
  Build(50);
  std::unique_ptr<TableFile> t;
  ASSERT_TRUE(TableFile::Open(env_.get(), kName, &t).ok());
  const BlockHandle index = t->footer().index_handle;
  t.reset();
  Flip(index.offset() + 1);
  Status s = TableFile::Open(env_.get(), kName, &t);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos,
            s.ToString().find("index block at offset " +
                              std::to_string(index.offset())))
      << s.ToString();
}

// verify's promise: with every block's checksum and the footer checked,
// no single-byte change of a table goes unnoticed, and no truncation.
// Reading the damage without checksums stays inside the file.
TEST_F(SstDumpTableTest, VerifyCatchesEveryByteFlipAndTruncation) {
  Build(60);
  std::string good;
  ASSERT_TRUE(ReadFileToString(env_.get(), kName, &good).ok());
  for (size_t i = 0; i < good.size(); i++) {
    std::string bad = good;
    bad[i] ^= 0x01;
    ASSERT_TRUE(WriteStringToFile(env_.get(), bad, kName).ok());
    std::unique_ptr<TableFile> t;
    Status s = TableFile::Open(env_.get(), kName, &t);
    if (t != nullptr) {
      // Unverified reads of the damage end in an error or in entries,
      // never outside the file's bytes (the sanitizers watch).
      ScanCounts counts;
      ScanTable(*t, Flags(), false, /*verify_checksum=*/false, &counts);
      std::string dump;
      RawDump(env_.get(), *t, &dump);
      s = VerifyTable(*t);
    }
    EXPECT_TRUE(s.IsCorruption()) << "byte " << i << ": " << s.ToString();
  }
  for (size_t n = 0; n < good.size(); n++) {
    ASSERT_TRUE(WriteStringToFile(env_.get(), good.substr(0, n), kName).ok());
    std::unique_ptr<TableFile> t;
    Status s = TableFile::Open(env_.get(), kName, &t);
    EXPECT_TRUE(s.IsCorruption()) << "size " << n << ": " << s.ToString();
  }
}

TEST_F(SstDumpTableTest, RecompressReadsEveryBlock) {
  Build(200);
  std::unique_ptr<TableFile> t;
  ASSERT_TRUE(TableFile::Open(env_.get(), kName, &t).ok());
  Flags flags;
  flags.compression_types = {kNoCompression};
  EXPECT_TRUE(Recompress(env_.get(), *t, flags).ok());
  const BlockHandle last = t->data_blocks().back().handle;
  const size_t n = t->data_blocks().size();
  t.reset();
  Flip(last.offset() + last.size() - 1);
  ASSERT_TRUE(TableFile::Open(env_.get(), kName, &t).ok());
  Status s = Recompress(env_.get(), *t, flags);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos,
            s.ToString().find("data block #" + std::to_string(n) +
                              " at offset " + std::to_string(last.offset())))
      << s.ToString();
}

}  // namespace
}  // namespace sst_dump
}  // namespace strata
