// Writes a small DB whose one table file sst_dump_test.py inspects: known
// keys and values in several data blocks, a deletion, a single deletion,
// merge operands and two range deletions, flushed once (the flush drops
// key030 to key032, which the first range deletion covers in the same
// memtable, as RocksDB's does). Everything is deterministic but the
// table's creation time (which the test masks).
//
// Usage: sst_dump_fixture <db dir> <none|snappy|zlib>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "strata/db.h"
#include "strata/filter_policy.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/table.h"

namespace {

int Fail(const char* what, const strata::Status& s) {
  std::fprintf(stderr, "sst_dump_fixture: %s: %s\n", what,
               s.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: sst_dump_fixture <db dir> <none|snappy|zlib>\n");
    return 2;
  }
  strata::Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.disable_auto_compactions = true;
  options.merge_operator =
      strata::MergeOperators::CreateStringAppendOperator(',');
  if (std::strcmp(argv[2], "snappy") == 0) {
    options.compression = strata::kSnappyCompression;
  } else if (std::strcmp(argv[2], "zlib") == 0) {
    options.compression = strata::kZlibCompression;
  } else {
    options.compression = strata::kNoCompression;
  }
  strata::BlockBasedTableOptions table_options;
  table_options.block_size = 256;  // several data blocks
  table_options.filter_policy.reset(strata::NewBloomFilterPolicy(10));
  options.table_factory.reset(strata::NewBlockBasedTableFactory(table_options));

  std::unique_ptr<strata::DB> db;
  strata::Status s = strata::DB::Open(options, argv[1], &db);
  if (!s.ok()) return Fail("open", s);
  const strata::WriteOptions w;
  for (int i = 0; i < 40; i++) {
    char key[16], value[48];
    std::snprintf(key, sizeof(key), "key%03d", i);
    std::snprintf(value, sizeof(value), "value-%03d-%s", i,
                  std::string(static_cast<size_t>(i % 7), 'x').c_str());
    s = db->Put(w, key, value);
    if (!s.ok()) return Fail("put", s);
  }
  if (s.ok()) s = db->Delete(w, "key005a");
  if (s.ok()) s = db->SingleDelete(w, "key006a");
  if (s.ok()) s = db->Merge(w, "key007a", "m1");
  if (s.ok()) s = db->Merge(w, "key007b", "m2");
  if (s.ok()) s = db->DeleteRange(w, "key030", "key033");
  if (s.ok()) s = db->DeleteRange(w, "key100", "key200");
  if (s.ok()) s = db->Put(w, "a key", "with spaces");
  if (!s.ok()) return Fail("write", s);
  s = db->Flush(strata::FlushOptions());
  if (!s.ok()) return Fail("flush", s);
  s = db->Close();
  if (!s.ok()) return Fail("close", s);
  return 0;
}
