// ldb's text formats and command line, without a DB: hex both ways and
// its errors, C-string printing, the value-size histogram against text
// RocksDB's ldb printed for the same values, and the splitting and
// checking of a command line.

#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"
#include "tools/ldb/command_line.h"
#include "tools/ldb/format.h"
#include "tools/ldb/value_size_histogram.h"

namespace strata {
namespace ldb {
namespace {

TEST(LdbFormatTest, HexRoundTrip) {
  const std::string bytes("\x00\xff k=>\x7f", 7);
  EXPECT_EQ("0x00FF206B3D3E7F", ToHex(bytes));
  EXPECT_EQ("0x", ToHex(""));
  std::string decoded, error;
  ASSERT_TRUE(FromHex("0x00ff206B3d3E7F", &decoded, &error)) << error;
  EXPECT_EQ(bytes, decoded);
  ASSERT_TRUE(FromHex("0x", &decoded, &error)) << error;
  EXPECT_EQ("", decoded);
}

TEST(LdbFormatTest, MalformedHexNamesTheInput) {
  std::string decoded = "kept", error;
  EXPECT_FALSE(FromHex("612E", &decoded, &error));
  EXPECT_EQ("Invalid hex input 612E.  Must start with 0x", error);
  EXPECT_FALSE(FromHex("0X61", &decoded, &error));
  EXPECT_FALSE(FromHex("0x612", &decoded, &error));
  EXPECT_EQ("Invalid hex input 0x612.  Must have an even number of hex digits",
            error);
  EXPECT_FALSE(FromHex("0x6G", &decoded, &error));
  EXPECT_EQ("Invalid hex input 0x6G.  'G' is not a hex digit", error);
  EXPECT_FALSE(FromHex("0xZ1", &decoded, &error));
  EXPECT_EQ("Invalid hex input 0xZ1.  'Z' is not a hex digit", error);
  EXPECT_FALSE(FromHex("", &decoded, &error));
}

// What PrintCString writes, read back through a file.
std::string Printed(const Slice& text) {
  test::TempDir dir(Env::Default(), "ldb_format");
  const std::string path = dir.path() + "/printed";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  EXPECT_NE(nullptr, f);
  if (f == nullptr) return "";
  PrintCString(f, text);
  std::fclose(f);
  f = std::fopen(path.c_str(), "rb");
  std::string read;
  int c;
  while ((c = std::fgetc(f)) != EOF) read.push_back(static_cast<char>(c));
  std::fclose(f);
  return read;
}

TEST(LdbFormatTest, PrintsUpToTheFirstNul) {
  EXPECT_EQ("key \xff", Printed(Slice("key \xff", 5)));
  EXPECT_EQ("k", Printed(Slice("k\0mid\0", 6)));
  EXPECT_EQ("", Printed(Slice("\0abc", 4)));
}

TEST(LdbFormatTest, HistogramOfTwoValuesAsRocksDbPrintsIt) {
  ValueSizeHistogram h;
  h.Add(1);
  h.Add(2);
  EXPECT_EQ(
      "Count: 2 Average: 1.5000  StdDev: 0.50\n"
      "Min: 1  Median: 1.0000  Max: 2\n"
      "Percentiles: P50: 1.00 P75: 1.50 P99: 1.98 P99.9: 2.00 P99.99: 2.00\n"
      "------------------------------------------------------\n"
      "[       0,       1 ]        1  50.000%  50.000% ##########\n"
      "(       1,       2 ]        1  50.000% 100.000% ##########\n",
      h.ToString());
}

TEST(LdbFormatTest, HistogramBucketsAsRocksDbPrintsThem) {
  ValueSizeHistogram h;
  for (uint64_t v :
       {5,  7,  8,  9,  10, 11, 12,  14,  15,  16,  20,  22,   23,   30,    34,
        35, 50, 51, 52, 76, 77, 100, 110, 111, 170, 171, 1000, 5000, 100000}) {
    h.Add(v);
  }
  EXPECT_EQ(
      "Count: 29 Average: 3697.8966  StdDev: 18222.34\n"
      "Min: 5  Median: 32.0000  Max: 100000\n"
      "Percentiles: P50: 32.00 P75: 95.83 P99: 99850.00 P99.9: 100000.00 "
      "P99.99: 100000.00\n"
      "------------------------------------------------------\n"
      "(       4,       6 ]        1   3.448%   3.448% #\n"
      "(       6,      10 ]        4  13.793%  17.241% ###\n"
      "(      10,      15 ]        4  13.793%  31.034% ###\n"
      "(      15,      22 ]        3  10.345%  41.379% ##\n"
      "(      22,      34 ]        3  10.345%  51.724% ##\n"
      "(      34,      51 ]        3  10.345%  62.069% ##\n"
      "(      51,      76 ]        2   6.897%  68.966% #\n"
      "(      76,     110 ]        3  10.345%  79.310% ##\n"
      "(     110,     170 ]        2   6.897%  86.207% #\n"
      "(     170,     250 ]        1   3.448%  89.655% #\n"
      "(     870,    1300 ]        1   3.448%  93.103% #\n"
      "(    4400,    6600 ]        1   3.448%  96.552% #\n"
      "(   75000,  110000 ]        1   3.448% 100.000% #\n",
      h.ToString());
}

TEST(LdbFormatTest, EmptyHistogram) {
  EXPECT_EQ(
      "Count: 0 Average: 0.0000  StdDev: 0.00\n"
      "Min: 0  Median: 0.0000  Max: 0\n"
      "Percentiles: P50: 0.00 P75: 0.00 P99: 0.00 P99.9: 0.00 P99.99: 0.00\n"
      "------------------------------------------------------\n",
      ValueSizeHistogram().ToString());
}

CommandLine Parse(const std::vector<const char*>& args) {
  std::vector<const char*> argv = {"ldb"};
  argv.insert(argv.end(), args.begin(), args.end());
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

TEST(LdbCommandLineTest, FlagsStandAnywhere) {
  const CommandLine line =
      Parse({"scan", "--from=a=b", "--db=x", "extra", "--hex"});
  EXPECT_EQ("scan", line.command);
  EXPECT_EQ(std::vector<std::string>({"extra"}), line.params);
  EXPECT_EQ("a=b", line.Value("from"));
  EXPECT_EQ("x", line.Value("db"));
  EXPECT_TRUE(line.Has("hex"));
  EXPECT_FALSE(line.Has("key_hex"));
  EXPECT_EQ("", CheckNames(line, {"from="}));
}

TEST(LdbCommandLineTest, NamesOutsideTheSpecsAreRefused) {
  EXPECT_EQ("Invalid command-line flag bogus",
            CheckNames(Parse({"get", "a", "--bogus"}), {}));
  EXPECT_EQ("Invalid command-line option bogus",
            CheckNames(Parse({"get", "--bogus=1"}), {}));
  // A value where a flag is expected, and the reverse.
  EXPECT_EQ("Invalid command-line option hex",
            CheckNames(Parse({"get", "--hex=1"}), {}));
  EXPECT_EQ("Invalid command-line flag from",
            CheckNames(Parse({"scan", "--from"}), {"from="}));
  // "name[=]" takes either form.
  EXPECT_EQ("",
            CheckNames(Parse({"dump", "--count_delim"}), {"count_delim[=]"}));
  EXPECT_EQ("",
            CheckNames(Parse({"dump", "--count_delim=|"}), {"count_delim[=]"}));
  EXPECT_EQ("", CheckNames(Parse({"get", "--try_load_options=false"}), {}));
}

TEST(LdbCommandLineTest, Help) {
  EXPECT_TRUE(Parse({"--help"}).help);
  EXPECT_TRUE(Parse({"-h"}).help);
  EXPECT_TRUE(Parse({}).command.empty());
}

}  // namespace
}  // namespace ldb
}  // namespace strata
