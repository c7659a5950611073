// A program written against RocksDB's C++ API that writes a DB's options
// and reads them back from its OPTIONS file: two column families with
// settings other than the defaults, one changed by SetOptions, then
// LoadLatestOptions, CheckOptionsCompatibility and the option-string
// helpers.
//
//   rocksdb_options_file DB           writes DB, then reads it back
//   rocksdb_options_file --write DB   writes DB only, prints nothing
//   rocksdb_options_file --read DB    reads the OPTIONS file of DB
//
// The last two let one engine read the other's file: the strata build
// writes and the RocksDB build reads (and the other way round), and what
// is read is the same text (rocksdb_options_file.expected), because every
// line printed is a fact both engines must agree on.

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_util.h"

namespace {

const char* Code(const rocksdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsNotSupported()) return "NotSupported";
  return "other error";
}

int Write(const std::string& name) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.max_open_files = 300;
  options.max_background_jobs = 3;
  options.wal_recovery_mode = rocksdb::WALRecoveryMode::kAbsoluteConsistency;
  options.write_buffer_size = 4 << 20;
  options.compression = rocksdb::kNoCompression;
  rocksdb::ColumnFamilyOptions hot;
  hot.comparator = rocksdb::ReverseBytewiseComparator();
  hot.write_buffer_size = 2 << 20;
  hot.max_write_buffer_number = 4;
  hot.num_levels = 5;
  hot.level0_file_num_compaction_trigger = 6;
  hot.max_bytes_for_level_multiplier = 8;
  hot.disable_auto_compactions = true;
  hot.compression = rocksdb::kNoCompression;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = 16 << 10;
  table.block_restart_interval = 8;
  table.whole_key_filtering = false;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  hot.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::vector<rocksdb::ColumnFamilyDescriptor> families = {
      {"default", rocksdb::ColumnFamilyOptions(options)}, {"hot", hot}};
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(rocksdb::DBOptions(options), name,
                                        families, &handles, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "open: %s\n", s.ToString().c_str());
    return 1;
  }
  // The file written after this holds the changed value.
  s = db->SetOptions(handles[1], {{"level0_file_num_compaction_trigger", "7"}});
  if (!s.ok()) std::fprintf(stderr, "SetOptions: %s\n", s.ToString().c_str());
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    db->DestroyColumnFamilyHandle(h);
  }
  delete db;
  return s.ok() ? 0 : 1;
}

int Read(const std::string& name) {
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  rocksdb::Status s = rocksdb::LoadLatestOptions(name, rocksdb::Env::Default(),
                                                 &db_options, &families);
  std::printf("LoadLatestOptions: %s\n", Code(s));
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("max_open_files=%d max_background_jobs=%d recovery=%d\n",
              db_options.max_open_files, db_options.max_background_jobs,
              static_cast<int>(db_options.wal_recovery_mode));
  for (const rocksdb::ColumnFamilyDescriptor& f : families) {
    const rocksdb::ColumnFamilyOptions& o = f.options;
    std::printf(
        "[%s] reverse=%d write_buffer_size=%zu max_write_buffer_number=%d "
        "num_levels=%d l0_trigger=%d multiplier=%.1f compression=%d "
        "auto_compactions=%d\n",
        f.name.c_str(), o.comparator == rocksdb::ReverseBytewiseComparator(),
        o.write_buffer_size, o.max_write_buffer_number, o.num_levels,
        o.level0_file_num_compaction_trigger, o.max_bytes_for_level_multiplier,
        static_cast<int>(o.compression), !o.disable_auto_compactions);
    const auto* table =
        o.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    if (table == nullptr) {
      std::printf("  no block-based table options\n");
      continue;
    }
    std::printf(
        "  block_size=%d block_restart_interval=%d whole_key_filtering=%d "
        "filter=%d\n",
        static_cast<int>(table->block_size), table->block_restart_interval,
        table->whole_key_filtering, table->filter_policy != nullptr);
  }
  s = rocksdb::CheckOptionsCompatibility(name, rocksdb::Env::Default(),
                                         db_options, families);
  std::printf("compatible as loaded: %s\n", Code(s));
  std::vector<rocksdb::ColumnFamilyDescriptor> other = families;
  for (auto& f : other) f.options.comparator = rocksdb::BytewiseComparator();
  s = rocksdb::CheckOptionsCompatibility(name, rocksdb::Env::Default(),
                                         db_options, other);
  std::printf("compatible with another comparator: %s\n", Code(s));

  // The same spellings from strings.
  rocksdb::Options base;
  rocksdb::Options changed;
  s = rocksdb::GetOptionsFromString(
      base, "max_open_files=77;num_levels=4;compression=kZlibCompression",
      &changed);
  std::printf("GetOptionsFromString: %s %d %d %d\n", Code(s),
              changed.max_open_files, changed.num_levels,
              static_cast<int>(changed.compression));
  rocksdb::ColumnFamilyOptions cf;
  s = rocksdb::GetColumnFamilyOptionsFromString(
      rocksdb::ColumnFamilyOptions(), "write_buffer_size=1048576;no_such=1",
      &cf);
  std::printf("unknown option: %s\n", Code(s));
  rocksdb::ConfigOptions lenient;
  lenient.ignore_unknown_options = true;
  s = rocksdb::GetColumnFamilyOptionsFromString(
      lenient, rocksdb::ColumnFamilyOptions(),
      "write_buffer_size=1048576;no_such=1", &cf);
  std::printf("ignored unknown option: %s %zu\n", Code(s),
              cf.write_buffer_size);
  rocksdb::BlockBasedTableOptions table;
  s = rocksdb::GetBlockBasedTableOptionsFromString(
      rocksdb::BlockBasedTableOptions(),
      "block_size=8192;filter_policy=bloomfilter:10:false", &table);
  std::printf("GetBlockBasedTableOptionsFromString: %s %d %d\n", Code(s),
              static_cast<int>(table.block_size),
              table.filter_policy != nullptr);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--write") == 0) return Write(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "--read") == 0) return Read(argv[2]);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s [--write|--read] DB\n", argv[0]);
    return 2;
  }
  const int rc = Write(argv[1]);
  return rc != 0 ? rc : Read(argv[1]);
}
