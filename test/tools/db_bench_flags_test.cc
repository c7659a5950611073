// db_bench's command line: every flag's default parses, values land in the
// right field, and unknown flags and bad values are errors that say which
// flag is wrong.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/options.h"
#include "tools/db_bench/bench_options.h"
#include "tools/db_bench/flags.h"
#include "tools/db_bench/workloads.h"

namespace strata {
namespace bench {
namespace {

Status Parse(const std::vector<std::string>& args, Flags* flags,
             bool* help = nullptr) {
  std::vector<const char*> argv = {"db_bench"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  bool ignored;
  return ParseFlags(static_cast<int>(argv.size()), argv.data(), flags,
                    help != nullptr ? help : &ignored);
}

TEST(DbBenchFlagsTest, DefaultsAreRocksDbs) {
  Flags f;
  ASSERT_TRUE(Parse({}, &f).ok());
  EXPECT_EQ(kDefaultBenchmarks, f.benchmarks);
  EXPECT_EQ(1000000, f.num);
  EXPECT_EQ(-1, f.reads);
  EXPECT_EQ(16, f.key_size);
  EXPECT_EQ(100, f.value_size);
  EXPECT_EQ(0.5, f.compression_ratio);
  EXPECT_EQ("snappy", f.compression_type);
  EXPECT_EQ(8388608, f.cache_size);
  EXPECT_EQ(-1, f.bloom_bits);
  EXPECT_EQ(67108864, f.write_buffer_size);
  EXPECT_EQ(268435456u, f.max_bytes_for_level_base);
  EXPECT_TRUE(f.enable_pipelined_write);
  EXPECT_FALSE(f.use_direct_reads);
  EXPECT_EQ(90, f.readwritepercent);
  EXPECT_EQ("report.csv", f.report_file);
  EXPECT_EQ("skip_list", f.memtablerep);
  EXPECT_FALSE(f.inplace_update_support);
  EXPECT_EQ(10000, f.inplace_update_num_locks);
  EXPECT_TRUE(f.given.empty());
}

TEST(DbBenchFlagsTest, EveryDefaultParsesAsItsType) {
  Flags f;
  SetDefaultFlags(&f);
  for (const FlagSpec& spec : FlagTable()) {
    const std::string arg =
        std::string("--") + spec.name + "=" + spec.default_value;
    EXPECT_TRUE(Parse({arg}, &f).ok()) << arg;
  }
}

TEST(DbBenchFlagsTest, TableIsSortedAndUnique) {
  const std::vector<FlagSpec>& table = FlagTable();
  for (size_t i = 1; i < table.size(); i++) {
    EXPECT_LT(std::string(table[i - 1].name), std::string(table[i].name));
  }
}

TEST(DbBenchFlagsTest, ValuesOfEachType) {
  Flags f;
  ASSERT_TRUE(Parse({"--num=12345", "--threads=3", "-key_size=20",
                     "--compression_ratio=0.25", "--db=/x/y",
                     "--benchmark_write_rate_limit=18446744073709551615",
                     "--sync", "--use_direct_reads=true",
                     "--noenable_pipelined_write", "--histogram=0"},
                    &f)
                  .ok());
  EXPECT_EQ(12345, f.num);
  EXPECT_EQ(3, f.threads);
  EXPECT_EQ(20, f.key_size);
  EXPECT_EQ(0.25, f.compression_ratio);
  EXPECT_EQ("/x/y", f.db);
  EXPECT_EQ(18446744073709551615u, f.benchmark_write_rate_limit);
  EXPECT_TRUE(f.sync);
  EXPECT_TRUE(f.use_direct_reads);
  EXPECT_FALSE(f.enable_pipelined_write);
  EXPECT_FALSE(f.histogram);
  EXPECT_EQ(1u, f.given.count("num"));
  EXPECT_EQ(1u, f.given.count("enable_pipelined_write"));
  EXPECT_EQ(0u, f.given.count("value_size"));
}

TEST(DbBenchFlagsTest, UnknownFlagNamesItAndListsTheSupported) {
  Flags f;
  const Status s = Parse({"--num=10", "--no_such_flag=1"}, &f);
  ASSERT_TRUE(s.IsInvalidArgument());
  const std::string msg = s.ToString();
  EXPECT_NE(std::string::npos, msg.find("unknown flag --no_such_flag"));
  EXPECT_NE(std::string::npos, msg.find("supported flags: "));
  EXPECT_NE(std::string::npos, msg.find("readwritepercent"));
  EXPECT_TRUE(Parse({"--nonum"}, &f).IsInvalidArgument());
}

TEST(DbBenchFlagsTest, BadValuesNameTheFlag) {
  const std::vector<std::string> bad = {
      "--num=12x",
      "--num=",
      "--threads=3000000000",
      "--key_size=1.5",
      "--sync=maybe",
      "--compression_ratio=half",
      "--cache_size= 8",
      "--benchmark_write_rate_limit=-1",
      "--num",  // a value is needed
  };
  for (const std::string& arg : bad) {
    Flags f;
    const Status s = Parse({arg}, &f);
    ASSERT_TRUE(s.IsInvalidArgument()) << arg;
    const std::string name = arg.substr(2, arg.find('=') - 2);
    EXPECT_NE(std::string::npos, s.ToString().find("--" + name))
        << s.ToString();
  }
  Flags f;
  EXPECT_TRUE(Parse({"positional"}, &f).IsInvalidArgument());
}

TEST(DbBenchFlagsTest, Help) {
  Flags f;
  bool help = false;
  ASSERT_TRUE(Parse({"--num=5", "--help"}, &f, &help).ok());
  EXPECT_TRUE(help);
  const std::string text = FlagsHelp();
  for (const FlagSpec& spec : FlagTable()) {
    EXPECT_NE(std::string::npos, text.find(std::string("--") + spec.name))
        << spec.name;
  }
  EXPECT_NE(std::string::npos, text.find("type: int64 default: 1000000"));
}

TEST(DbBenchFlagsTest, ValidationRejectsWhatStrataCannotDo) {
  Flags f;
  ASSERT_TRUE(Parse({}, &f).ok());
  EXPECT_TRUE(ValidateFlags(f).ok());

  ASSERT_TRUE(Parse({"--compression_type=lz4"}, &f).ok());
  Status s = ValidateFlags(f);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("--compression_type"));

  ASSERT_TRUE(Parse({"--benchmarks=fillseq,readrandomm"}, &f).ok());
  s = ValidateFlags(f);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("'readrandomm'"));

  ASSERT_TRUE(Parse({"--readwritepercent=101"}, &f).ok());
  EXPECT_TRUE(ValidateFlags(f).IsInvalidArgument());
  ASSERT_TRUE(Parse({"--num=0"}, &f).ok());
  EXPECT_TRUE(ValidateFlags(f).IsInvalidArgument());
  ASSERT_TRUE(Parse({"--benchmarks=filluniquerandom", "--threads=2"}, &f).ok());
  EXPECT_TRUE(ValidateFlags(f).IsInvalidArgument());

  ASSERT_TRUE(Parse({"--memtablerep=vector"}, &f).ok());
  EXPECT_TRUE(ValidateFlags(f).ok());
  ASSERT_TRUE(Parse({"--memtablerep=prefix_hash"}, &f).ok());
  s = ValidateFlags(f);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("--memtablerep"));
}

TEST(DbBenchFlagsTest, OptionsFollowTheFlags) {
  Flags f;
  ASSERT_TRUE(Parse({"--write_buffer_size=1048576", "--num_levels=4",
                     "--compression_type=none", "--open_files=100",
                     "--use_direct_io_for_flush_and_compaction=true",
                     "--mmap_read=true", "--disable_auto_compactions",
                     "--noallow_concurrent_memtable_write",
                     "--max_bytes_for_level_multiplier=8", "--prefix_size=4"},
                    &f)
                  .ok());
  Options o;
  ASSERT_TRUE(BuildOptions(f, &o).ok());
  EXPECT_TRUE(o.create_if_missing);
  EXPECT_EQ(1048576u, o.write_buffer_size);
  EXPECT_EQ(4, o.num_levels);
  EXPECT_EQ(kNoCompression, o.compression);
  EXPECT_EQ(100, o.max_open_files);
  EXPECT_TRUE(o.use_direct_io_for_flush_and_compaction);
  EXPECT_TRUE(o.allow_mmap_reads);
  EXPECT_TRUE(o.disable_auto_compactions);
  EXPECT_FALSE(o.allow_concurrent_memtable_write);
  EXPECT_TRUE(o.enable_pipelined_write);
  EXPECT_EQ(8.0, o.max_bytes_for_level_multiplier);
  EXPECT_NE(nullptr, o.prefix_extractor);
  EXPECT_NE(nullptr, o.table_factory);

  // Huge-page memtables are strata's default (RocksDB's db_bench: off).
  EXPECT_EQ(size_t{2} << 20, o.memtable_huge_page_size);
  ASSERT_TRUE(Parse({"--memtable_use_huge_page=false"}, &f).ok());
  ASSERT_TRUE(BuildOptions(f, &o).ok());
  EXPECT_EQ(0u, o.memtable_huge_page_size);

  ASSERT_TRUE(Parse({"--cache_numshardbits=30"}, &f).ok());
  EXPECT_TRUE(BuildOptions(f, &o).IsInvalidArgument());
}

TEST(DbBenchFlagsTest, MemtableFlags) {
  Flags f;
  Options o;
  ASSERT_TRUE(Parse({}, &f).ok());
  ASSERT_TRUE(BuildOptions(f, &o).ok());
  EXPECT_STREQ("SkipListFactory", o.memtable_factory->Name());
  EXPECT_FALSE(o.inplace_update_support);

  ASSERT_TRUE(Parse({"--memtablerep=vector", "--inplace_update_support",
                     "--inplace_update_num_locks=7"},
                    &f)
                  .ok());
  Options v;
  ASSERT_TRUE(BuildOptions(f, &v).ok());
  EXPECT_STREQ("VectorRepFactory", v.memtable_factory->Name());
  EXPECT_TRUE(v.inplace_update_support);
  EXPECT_EQ(7u, v.inplace_update_num_locks);
}

}  // namespace
}  // namespace bench
}  // namespace strata
