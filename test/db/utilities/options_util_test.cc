// The OPTIONS file: every option strata records survives a write and a
// read; a DB writes a new file at open, SetOptions and family changes,
// keeping the newest two; an open with another comparator than the
// recorded one is refused; unknown names and damaged files are errors
// naming the file and line; RocksDB 7.8.3's own OPTIONS file (a checked-in
// fixture, test/data/options/) reads with the values it was made with.
// (test/api_compat/rocksdb_options_file.cc has RocksDB read strata's.)

#include "strata/utilities/options_util.h"

#include <memory>
#include <string>
#include <vector>

#include "db/filename.h"
#include "db/option_values.h"
#include "db/options_fields.h"
#include "db/options_file.h"
#include "gtest/gtest.h"
#include "options_util_fixture.h"
#include "strata/cache.h"
#include "strata/compaction_filter.h"
#include "strata/comparator.h"
#include "strata/convenience.h"
#include "strata/db.h"
#include "strata/filter_policy.h"
#include "strata/merge_operator.h"
#include "strata/slice_transform.h"
#include "strata/table.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// Fails the creation of temp files (the OPTIONS file's first step) while
// fail_temp is set.
class TempFailingEnv : public EnvWrapper {
 public:
  explicit TempFailingEnv(Env* target) : EnvWrapper(target) {}
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    if (fail_temp && f.size() > 6 && f.substr(f.size() - 6) == ".dbtmp") {
      return Status::IOError("injected", f);
    }
    return EnvWrapper::NewWritableFile(f, r, options);
  }
  bool fail_temp = false;
};

std::vector<uint64_t> OptionsFiles(Env* env, const std::string& dbname) {
  std::vector<std::string> children;
  EXPECT_TRUE(env->GetChildren(dbname, &children).ok());
  std::vector<uint64_t> numbers;
  for (const std::string& child : children) {
    uint64_t n;
    FileType type;
    if (ParseFileName(child, &n, &type) && type == kOptionsFile) {
      numbers.push_back(n);
    }
  }
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

// Every option of the tables set away from its default.
class NamedFilter : public CompactionFilter {
 public:
  const char* Name() const override { return "NamedFilter"; }
};

class NamedFilterFactory : public CompactionFilterFactory {
 public:
  std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context&) override {
    return std::make_unique<NamedFilter>();
  }
  const char* Name() const override { return "NamedFilterFactory"; }
};

void SetEveryOption(DBOptions* db, ColumnFamilyOptions* cf,
                    BlockBasedTableOptions* table) {
  db->create_if_missing = true;
  db->error_if_exists = true;
  db->create_missing_column_families = true;
  db->atomic_flush = true;
  db->db_write_buffer_size = 12345678;
  db->allow_2pc = true;
  db->paranoid_checks = false;
  db->fail_if_options_file_error = true;
  db->use_fsync = true;
  db->allow_mmap_reads = true;
  db->allow_mmap_writes = true;
  db->use_direct_reads = true;
  db->use_direct_io_for_flush_and_compaction = true;
  db->allow_fallocate = false;
  db->writable_file_max_buffer_size = 3 << 20;
  db->compaction_readahead_size = 4 << 20;
  db->wal_recovery_mode = WALRecoveryMode::kSkipAnyCorruptedRecords;
  db->max_open_files = 777;
  db->max_file_opening_threads = 5;
  db->max_background_jobs = 9;
  db->max_bgerror_resume_count = 3;
  db->max_background_compactions = 4;
  db->max_background_flushes = 2;
  db->allow_concurrent_memtable_write = false;
  db->enable_pipelined_write = true;
  db->unordered_write = true;
  db->enable_write_thread_adaptive_yield = false;
  db->write_thread_max_yield_usec = 250;
  db->write_thread_slow_yield_usec = 7;
  db->write_thread_sync_gather_usec = 250;

  cf->comparator = ReverseBytewiseComparator();
  cf->merge_operator = MergeOperators::CreateStringAppendOperator();
  static const NamedFilter filter;
  cf->compaction_filter = &filter;
  cf->compaction_filter_factory = std::make_shared<NamedFilterFactory>();
  cf->write_buffer_size = 5 << 20;
  cf->memtable_huge_page_size = 4 << 20;
  cf->paranoid_file_checks = true;
  cf->max_write_buffer_number = 6;
  cf->min_write_buffer_number_to_merge = 2;
  cf->memtable_factory = std::make_shared<VectorRepFactory>();
  cf->inplace_update_support = true;
  cf->inplace_update_num_locks = 321;
  cf->compression = kZlibCompression;
  cf->compression_per_level = {kNoCompression, kSnappyCompression,
                               kZlibCompression};
  cf->num_levels = 5;
  cf->compaction_style = kCompactionStyleNone;
  cf->level0_file_num_compaction_trigger = 3;
  cf->level0_slowdown_writes_trigger = 11;
  cf->level0_stop_writes_trigger = 17;
  cf->max_bytes_for_level_base = 123456789;
  cf->max_bytes_for_level_multiplier = 7.5;
  cf->target_file_size_base = 987654;
  cf->target_file_size_multiplier = 3;
  cf->level_compaction_dynamic_level_bytes = true;
  cf->max_compaction_bytes = 55555555;
  cf->soft_pending_compaction_bytes_limit = 1ull << 33;
  cf->hard_pending_compaction_bytes_limit = 1ull << 35;
  cf->disable_auto_compactions = true;
  cf->prefix_extractor.reset(NewFixedPrefixTransform(6));
  cf->memtable_prefix_bloom_size_ratio = 0.25;
  cf->memtable_whole_key_filtering = true;

  table->cache_index_and_filter_blocks = true;
  table->cache_index_and_filter_blocks_with_high_priority = false;
  table->no_block_cache = true;
  table->block_size = 16384;
  table->block_restart_interval = 4;
  table->index_block_restart_interval = 2;
  table->filter_policy.reset(NewBloomFilterPolicy(12.5));
  table->whole_key_filtering = false;
  cf->table_factory.reset(NewBlockBasedTableFactory(*table));
}

// The lines the tables print for each option, by name.
template <typename S>
std::map<std::string, std::string> Printed(const OptionTable<S>& table,
                                           const S& s) {
  std::map<std::string, std::string> result;
  for (const OptionField<S>& field : table) {
    if (field.print) result[field.name] = field.print(s);
  }
  return result;
}

// Each printed option of a differs from b's (every option was changed).
template <typename S>
void ExpectEveryOptionDiffers(const OptionTable<S>& table, const S& a,
                              const S& b) {
  const auto pa = Printed(table, a);
  const auto pb = Printed(table, b);
  for (const auto& entry : pa) {
    if (entry.first == "table_factory") continue;  // strata has one kind
    EXPECT_NE(entry.second, pb.at(entry.first)) << entry.first;
  }
}

TEST(OptionsFileTest, EveryOptionRoundTrips) {
  DBOptions db;
  ColumnFamilyOptions cf;
  BlockBasedTableOptions table;
  SetEveryOption(&db, &cf, &table);
  ExpectEveryOptionDiffers(DBOptionFields(), db, DBOptions());
  ExpectEveryOptionDiffers(ColumnFamilyOptionFields(), cf,
                           ColumnFamilyOptions());
  ExpectEveryOptionDiffers(BlockBasedTableOptionFields(), table,
                           BlockBasedTableOptions());

  const std::string text = SerializeOptionsFile(
      db, {{"default", ColumnFamilyOptions()}, {"every", cf}});
  OptionsFileContents parsed;
  Status s = ParseOptionsFile(ConfigOptions(), "mem", text, nullptr, &parsed);
  ASSERT_TRUE(s.ok()) << s.ToString() << "\n" << text;
  ASSERT_EQ(2u, parsed.families.size());
  EXPECT_EQ("every", parsed.families[1].name);
  EXPECT_EQ(Printed(DBOptionFields(), db),
            Printed(DBOptionFields(), parsed.db_options));
  ColumnFamilyOptions back = parsed.families[1].options;
  // Code, not data: given back by name only (the comparator as a builtin).
  EXPECT_EQ(ReverseBytewiseComparator(), back.comparator);
  EXPECT_EQ(nullptr, back.merge_operator);
  EXPECT_EQ("stringappend", parsed.merge_operator_names[1]);
  EXPECT_EQ("rocksdb.ReverseBytewiseComparator", parsed.comparator_names[1]);
  EXPECT_EQ(nullptr, back.compaction_filter);
  EXPECT_EQ(nullptr, back.compaction_filter_factory);
  EXPECT_NE(std::string::npos, text.find("compaction_filter=NamedFilter\n"));
  back.merge_operator = cf.merge_operator;
  back.compaction_filter = cf.compaction_filter;
  back.compaction_filter_factory = cf.compaction_filter_factory;
  EXPECT_EQ(Printed(ColumnFamilyOptionFields(), cf),
            Printed(ColumnFamilyOptionFields(), back));
  const BlockBasedTableOptions* table_back =
      back.table_factory->GetOptions<BlockBasedTableOptions>();
  ASSERT_NE(nullptr, table_back);
  EXPECT_EQ(Printed(BlockBasedTableOptionFields(), table),
            Printed(BlockBasedTableOptionFields(), *table_back));
  // Spot checks of values, beyond their printed forms.
  EXPECT_EQ(WALRecoveryMode::kSkipAnyCorruptedRecords,
            parsed.db_options.wal_recovery_mode);
  EXPECT_EQ(7.5, back.max_bytes_for_level_multiplier);
  EXPECT_EQ(kCompactionStyleNone, back.compaction_style);
  EXPECT_EQ(3u, back.compression_per_level.size());
  EXPECT_STREQ("VectorRepFactory", back.memtable_factory->Name());
  EXPECT_EQ(16384u, table_back->block_size);
  EXPECT_NE(std::string::npos, text.find("filter_policy=bloomfilter:12.5:"));
  EXPECT_NE(std::string::npos,
            text.find("prefix_extractor=rocksdb.FixedPrefix.6"));
  // strata-only options stay out of the file RocksDB reads, but strings
  // may set them.
  EXPECT_EQ(std::string::npos, text.find("wal_write_through"));
  EXPECT_EQ(std::string::npos, text.find("write_thread_sync_gather_usec"));
  DBOptions from_string;
  ASSERT_TRUE(GetDBOptionsFromString(ConfigOptions(), DBOptions(),
                                     "write_thread_sync_gather_usec=77",
                                     &from_string)
                  .ok());
  EXPECT_EQ(77u, from_string.write_thread_sync_gather_usec);
}

// Every finite double prints to text that reads back as the same value:
// six decimals where they suffice (RocksDB's spelling), more digits where
// not. A 1e300 multiplier once printed cut off at 63 characters.
TEST(OptionValueTest, DoublesReadBackAsWritten) {
  EXPECT_EQ("10.000000", PrintOptionValue(10.0));
  EXPECT_EQ("0.250000", PrintOptionValue(0.25));
  for (double d : {1.23456789e300, -1.7976931348623157e308, 1e-9, 0.1, 1.0 / 3,
                   5e-324, 123456789.123456789, -0.0}) {
    const std::string text = PrintOptionValue(d);
    double back = 0;
    ASSERT_TRUE(ParseOptionValue(text, &back)) << text;
    EXPECT_EQ(d, back) << text;
    EXPECT_EQ(text, PrintOptionValue(back));
  }
}

class OptionsDBTest : public ::testing::Test {
 protected:
  OptionsDBTest() : env_(Env::Default()), dir_(Env::Default(), "optf") {
    options_.create_if_missing = true;
    options_.env = &env_;
    dbname_ = dir_.File("db");
  }

  Status Open(const std::vector<ColumnFamilyDescriptor>& families) {
    Close();
    DBOptions db_options(options_);
    db_options.create_missing_column_families = true;
    return DB::Open(db_options, dbname_, families, &handles_, &db_);
  }
  void Close() {
    for (ColumnFamilyHandle* h : handles_) db_->DestroyColumnFamilyHandle(h);
    handles_.clear();
    delete db_;
    db_ = nullptr;
  }
  ~OptionsDBTest() override { Close(); }

  TempFailingEnv env_;
  test::TempDir dir_;
  Options options_;
  std::string dbname_;
  DB* db_ = nullptr;
  std::vector<ColumnFamilyHandle*> handles_;
};

TEST_F(OptionsDBTest, OpenWritesWhatLoadLatestOptionsReads) {
  ColumnFamilyOptions hot;
  hot.write_buffer_size = 1 << 20;
  hot.num_levels = 4;
  BlockBasedTableOptions table;
  table.block_size = 8192;
  table.filter_policy.reset(NewBloomFilterPolicy(10));
  hot.table_factory.reset(NewBlockBasedTableFactory(table));
  ASSERT_TRUE(Open({{"default", options_}, {"hot", hot}}).ok());

  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> families;
  std::shared_ptr<Cache> cache = NewLRUCache(1 << 20);
  Status s =
      LoadLatestOptions(dbname_, &env_, &db_options, &families, false, &cache);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(db_options.create_if_missing);
  EXPECT_EQ(&env_, db_options.env);
  ASSERT_EQ(2u, families.size());
  EXPECT_EQ("default", families[0].name);
  EXPECT_EQ("hot", families[1].name);
  EXPECT_EQ(1u << 20, families[1].options.write_buffer_size);
  EXPECT_EQ(4, families[1].options.num_levels);
  const auto* back =
      families[1].options.table_factory->GetOptions<BlockBasedTableOptions>();
  ASSERT_NE(nullptr, back);
  EXPECT_EQ(8192u, back->block_size);
  EXPECT_NE(nullptr, back->filter_policy);
  EXPECT_EQ(cache, back->block_cache);

  std::string name;
  ASSERT_TRUE(GetLatestOptionsFileName(dbname_, &env_, &name).ok());
  EXPECT_EQ(0u, name.find("OPTIONS-"));
  // The loaded options open the DB again, and check as compatible.
  EXPECT_TRUE(
      CheckOptionsCompatibility(dbname_, &env_, db_options, families).ok());
  Close();
  ASSERT_TRUE(DB::Open(db_options, dbname_, families, &handles_, &db_).ok());
}

TEST_F(OptionsDBTest, ChangesWriteNewFilesKeepingTwo) {
  ASSERT_TRUE(Open({{"default", options_}}).ok());
  const std::vector<uint64_t> first = OptionsFiles(&env_, dbname_);
  ASSERT_EQ(1u, first.size());
  ASSERT_TRUE(
      db_->SetOptions(handles_[0], {{"write_buffer_size", "2097152"}}).ok());
  std::vector<uint64_t> now = OptionsFiles(&env_, dbname_);
  ASSERT_EQ(2u, now.size());
  EXPECT_GT(now[1], first[0]);
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> families;
  ASSERT_TRUE(LoadLatestOptions(dbname_, &env_, &db_options, &families).ok());
  EXPECT_EQ(2097152u, families[0].options.write_buffer_size);

  ColumnFamilyHandle* extra = nullptr;
  ASSERT_TRUE(
      db_->CreateColumnFamily(ColumnFamilyOptions(), "extra", &extra).ok());
  ASSERT_TRUE(LoadLatestOptions(dbname_, &env_, &db_options, &families).ok());
  ASSERT_EQ(2u, families.size());
  EXPECT_EQ("extra", families[1].name);
  ASSERT_TRUE(db_->DropColumnFamily(extra).ok());
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(extra).ok());
  ASSERT_TRUE(LoadLatestOptions(dbname_, &env_, &db_options, &families).ok());
  EXPECT_EQ(1u, families.size());
  now = OptionsFiles(&env_, dbname_);
  EXPECT_EQ(2u, now.size());  // the older ones removed

  // A failed write is logged, and the change stays in force (RocksDB's
  // default); with fail_if_options_file_error it is also reported.
  env_.fail_temp = true;
  Status s = db_->SetOptions(handles_[0], {{"write_buffer_size", "3145728"}});
  env_.fail_temp = false;
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(3145728u, db_->GetOptions(handles_[0]).write_buffer_size);
  EXPECT_EQ(now, OptionsFiles(&env_, dbname_));

  options_.fail_if_options_file_error = true;
  ASSERT_TRUE(Open({{"default", options_}}).ok());
  now = OptionsFiles(&env_, dbname_);
  env_.fail_temp = true;
  s = db_->SetOptions(handles_[0], {{"write_buffer_size", "4194304"}});
  env_.fail_temp = false;
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(4194304u, db_->GetOptions(handles_[0]).write_buffer_size);
  EXPECT_EQ(now, OptionsFiles(&env_, dbname_));
  env_.fail_temp = true;
  s = Open({{"default", options_}});
  env_.fail_temp = false;
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

// While file deletions are disabled (a checkpoint or a backup copying
// the OPTIONS file it listed), no OPTIONS file is removed.
TEST_F(OptionsDBTest, DisabledDeletionsKeepEveryOptionsFile) {
  ASSERT_TRUE(Open({{"default", options_}}).ok());
  const std::vector<uint64_t> listed = OptionsFiles(&env_, dbname_);
  ASSERT_EQ(1u, listed.size());
  ASSERT_TRUE(db_->DisableFileDeletions().ok());
  for (const char* size : {"2097152", "3145728", "4194304"}) {
    ASSERT_TRUE(
        db_->SetOptions(handles_[0], {{"write_buffer_size", size}}).ok());
  }
  std::vector<uint64_t> now = OptionsFiles(&env_, dbname_);
  ASSERT_EQ(4u, now.size());
  EXPECT_EQ(listed[0], now[0]);
  ASSERT_TRUE(db_->EnableFileDeletions(/*force=*/false).ok());
  ASSERT_TRUE(
      db_->SetOptions(handles_[0], {{"write_buffer_size", "1048576"}}).ok());
  now = OptionsFiles(&env_, dbname_);
  ASSERT_EQ(2u, now.size());
  EXPECT_GT(now[0], listed[0]);
}

TEST_F(OptionsDBTest, OpenWithAnotherComparatorIsRefused) {
  ColumnFamilyOptions reverse;
  reverse.comparator = ReverseBytewiseComparator();
  ASSERT_TRUE(Open({{"default", options_}, {"rev", reverse}}).ok());
  Close();
  Status s = Open({{"default", options_}, {"rev", ColumnFamilyOptions()}});
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("rev"));
  EXPECT_NE(std::string::npos,
            s.ToString().find("rocksdb.ReverseBytewiseComparator"));
  EXPECT_NE(std::string::npos, s.ToString().find("leveldb.BytewiseComparator"));
  EXPECT_NE(std::string::npos, s.ToString().find("/OPTIONS-"));
  // A merge operator of another name is refused too; none given opens.
  ColumnFamilyOptions merging = reverse;
  merging.merge_operator = MergeOperators::CreateStringAppendOperator();
  ASSERT_TRUE(Open({{"default", options_}, {"rev", merging}}).ok());
  Close();
  ColumnFamilyOptions other = reverse;
  other.merge_operator = MergeOperators::CreateUInt64AddOperator();
  s = Open({{"default", options_}, {"rev", other}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(Open({{"default", options_}, {"rev", reverse}}).ok());
  // CheckOptionsCompatibility names the mismatch likewise, and is off at
  // kSanityLevelNone.
  std::vector<ColumnFamilyDescriptor> wrong = {{"default", options_},
                                               {"rev", ColumnFamilyOptions()}};
  s = CheckOptionsCompatibility(dbname_, &env_, options_, wrong);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ConfigOptions none;
  none.env = &env_;
  none.sanity_level = ConfigOptions::kSanityLevelNone;
  EXPECT_TRUE(CheckOptionsCompatibility(none, dbname_, options_, wrong).ok());
}

// The file text, written to path.
void WriteText(Env* env, const std::string& path, const std::string& text) {
  ASSERT_TRUE(WriteStringToFile(env, text, path).ok());
}

const char kMinimal[] =
    "[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n"
    "[DBOptions]\n  max_open_files=12\n"
    "[CFOptions \"default\"]\n  num_levels=3\n";

TEST_F(OptionsDBTest, UnknownOptionsAndDamagedFiles) {
  ASSERT_TRUE(env_.CreateDirIfMissing(dbname_).ok());
  const std::string path = dir_.File("OPTIONS-test");
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> families;
  WriteText(&env_, path, kMinimal);
  ASSERT_TRUE(LoadOptionsFromFile(path, &env_, &db_options, &families).ok());
  EXPECT_EQ(12, db_options.max_open_files);
  EXPECT_EQ(3, families[0].options.num_levels);

  // An option RocksDB has and strata does not: read and ignored.
  WriteText(
      &env_, path,
      std::string(kMinimal) + "  ttl=5\n  compaction_pri=kByCompensatedSize\n");
  EXPECT_TRUE(LoadOptionsFromFile(path, &env_, &db_options, &families).ok());
  // A name neither knows: refused with file and line, unless told.
  WriteText(&env_, path, std::string(kMinimal) + "  no_such_option=1\n");
  Status s = LoadOptionsFromFile(path, &env_, &db_options, &families);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("OPTIONS-test:8:"));
  EXPECT_NE(std::string::npos, s.ToString().find("no_such_option"));
  EXPECT_TRUE(
      LoadOptionsFromFile(path, &env_, &db_options, &families, true).ok());

  struct Damage {
    std::string text;
    std::string message;
  };
  const std::vector<Damage> damaged = {
      {"[DBOptions]\n[CFOptions \"default\"]\n", "[Version] must come first"},
      {"", "no [Version]"},
      {"[Version]\n  options_file_version=1.1\n", "no [DBOptions]"},
      {"[Version]\n[DBOptions]\n", "no [CFOptions"},
      {"[Version]\n[DBOptions\n", "bad section header"},
      {"[Version]\n[Strange]\n", "unknown section"},
      {"max_open_files=1\n", "outside a section"},
      {"[Version]\n  options_file_version=2.0\n", "newer than this reader"},
      {"[Version]\n[DBOptions]\n  max_open_files=many\n",
       "bad value for max_open_files: many"},
      {"[Version]\n[DBOptions]\n  max_open_files\n", "expected name=value"},
      {"[Version]\n[DBOptions]\n[CFOptions \"x\"]\n", "must be \"default\""},
      {"[Version]\n[DBOptions]\n[CFOptions \"default\"]\n"
       "[TableOptions/BlockBasedTable \"other\"]\n",
       "does not follow"},
      {"[Version]\n[DBOptions]\n[CFOptions \"default\"]\n"
       "[TableOptions/PlainTable \"default\"]\n",
       "no table format PlainTable"},
      {"[Version]\n[DBOptions]\n[CFOptions \"default\"]\n"
       "  compression=kFancyCompression\n",
       "bad value for compression"},
  };
  for (const Damage& d : damaged) {
    WriteText(&env_, path, d.text);
    s = LoadOptionsFromFile(path, &env_, &db_options, &families);
    EXPECT_TRUE(s.IsInvalidArgument()) << d.text << ": " << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(d.message))
        << d.text << ": " << s.ToString();
  }
  s = LoadOptionsFromFile(dir_.File("missing"), &env_, &db_options, &families);
  EXPECT_FALSE(s.ok());
  s = LoadLatestOptions(dbname_, &env_, &db_options, &families);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
}

// RocksDB 7.8.3's file for a DB of two families (made as
// test/data/options/README.md says).
TEST_F(OptionsDBTest, ReadsRocksDBsOptionsFile) {
  const std::string path = dir_.File("OPTIONS-rocksdb");
  WriteText(&env_, path, kRocksDBOptionsFixture);
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> families;
  Status s = LoadOptionsFromFile(path, &env_, &db_options, &families);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(300, db_options.max_open_files);
  EXPECT_EQ(3, db_options.max_background_jobs);
  EXPECT_EQ(WALRecoveryMode::kAbsoluteConsistency,
            db_options.wal_recovery_mode);
  ASSERT_EQ(2u, families.size());
  const ColumnFamilyOptions& def = families[0].options;
  EXPECT_EQ(4u << 20, def.write_buffer_size);
  EXPECT_EQ(kNoCompression, def.compression);
  EXPECT_EQ(BytewiseComparator(), def.comparator);
  EXPECT_EQ("hot", families[1].name);
  const ColumnFamilyOptions& hot = families[1].options;
  EXPECT_EQ(ReverseBytewiseComparator(), hot.comparator);
  EXPECT_EQ(2u << 20, hot.write_buffer_size);
  EXPECT_EQ(4, hot.max_write_buffer_number);
  EXPECT_EQ(5, hot.num_levels);
  EXPECT_EQ(7, hot.level0_file_num_compaction_trigger);  // by SetOptions
  EXPECT_EQ(8.0, hot.max_bytes_for_level_multiplier);
  EXPECT_EQ(kNoCompression, hot.compression);
  EXPECT_TRUE(hot.disable_auto_compactions);
  const auto* table = hot.table_factory->GetOptions<BlockBasedTableOptions>();
  ASSERT_NE(nullptr, table);
  EXPECT_EQ(16384u, table->block_size);
  EXPECT_EQ(8, table->block_restart_interval);
  EXPECT_FALSE(table->whole_key_filtering);
  EXPECT_NE(nullptr, table->filter_policy);
  EXPECT_EQ(
      nullptr,
      def.table_factory->GetOptions<BlockBasedTableOptions>()->filter_policy);
}

TEST(ConvenienceTest, OptionsFromStrings) {
  Options base;
  Options changed;
  Status s = GetOptionsFromString(
      base,
      "max_open_files=42; write_buffer_size=1048576;"
      "compression=kNoCompression;compaction_options_fifo={a=b;c=d}",
      &changed);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(42, changed.max_open_files);
  EXPECT_EQ(1048576u, changed.write_buffer_size);
  EXPECT_EQ(kNoCompression, changed.compression);
  s = GetOptionsFromString(base, "max_open_files=x", &changed);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos,
            s.ToString().find("bad value for max_open_files: x"));
  EXPECT_EQ(42, changed.max_open_files);  // unchanged on error

  ColumnFamilyOptions cf;
  s = GetColumnFamilyOptionsFromString(ColumnFamilyOptions(),
                                       "num_levels=4;bogus=1", &cf);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ConfigOptions lenient;
  lenient.ignore_unknown_options = true;
  s = GetColumnFamilyOptionsFromString(lenient, ColumnFamilyOptions(),
                                       "num_levels=4;bogus=1", &cf);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(4, cf.num_levels);

  DBOptions db;
  s = GetDBOptionsFromString(DBOptions(), "max_background_jobs=5", &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(5, db.max_background_jobs);
  s = GetDBOptionsFromString(DBOptions(), "num_levels=4", &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  BlockBasedTableOptions table;
  s = GetBlockBasedTableOptionsFromString(
      BlockBasedTableOptions(),
      "block_size=8192;filter_policy=bloomfilter:10:false;block_cache=1048576",
      &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(8192u, table.block_size);
  ASSERT_NE(nullptr, table.filter_policy);
  ASSERT_NE(nullptr, table.block_cache);
  EXPECT_EQ(1048576u, table.block_cache->GetCapacity());
  s = GetBlockBasedTableOptionsFromString(BlockBasedTableOptions(),
                                          "filter_policy=cuckoo", &table);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  std::unordered_map<std::string, std::string> map;
  EXPECT_TRUE(StringToMap("a=1;b={x=1;y=2};c=3", &map).ok());
  EXPECT_EQ("{x=1;y=2}", map["b"]);
  EXPECT_EQ("3", map["c"]);
  EXPECT_TRUE(StringToMap("a=1;b={x=1", &map).IsInvalidArgument());
  EXPECT_TRUE(StringToMap("a", &map).IsInvalidArgument());

  // The factory gives back its options; another kind's name gives null.
  std::shared_ptr<TableFactory> factory(NewBlockBasedTableFactory(table));
  ASSERT_NE(nullptr, factory->GetOptions<BlockBasedTableOptions>());
  EXPECT_EQ(8192u, factory->GetOptions<BlockBasedTableOptions>()->block_size);
  EXPECT_EQ(nullptr,
            factory->GetOptions<BlockBasedTableOptions>("PlainTableOptions"));
}

}  // namespace
}  // namespace strata
