// A program written against RocksDB's C++ API — the part of it that strata
// covers so far (the DB, its options and table options, the option helpers and
// memtable_factory, WriteBufferManager, PinnableSlice and Cleanable). The build
// compiles it twice: as is, against RocksDB's headers when they are installed
// (proof that it is a RocksDB program), and with "rocksdb" replaced by "strata"
// everywhere, against strata, where it also runs (test api_compat). Nothing
// else may change.

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/cleanable.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/iterator.h"
#include "rocksdb/memtablerep.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/status.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "rocksdb/write_buffer_manager.h"

namespace {

int failures = 0;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    failures++;
  }
}

void Release(void* counter, void* /*unused*/) { ++*static_cast<int*>(counter); }

class CountingHandler : public rocksdb::WriteBatch::Handler {
 public:
  void Put(const rocksdb::Slice& key, const rocksdb::Slice& value) override {
    puts++;
  }
  void Delete(const rocksdb::Slice& key) override { deletes++; }
  int puts = 0;
  int deletes = 0;
};

// The option helpers, as a RocksDB program calls them: prints the fields
// they set that both engines have, checks them against RocksDB 7.8's
// values, and runs a DB under them.
void CheckHelpers(const std::string& path) {
  rocksdb::Options options;
  Check(options.memtable_factory != nullptr &&
            std::string(options.memtable_factory->Name()) == "SkipListFactory",
        "default memtable_factory");
  options.memtable_factory.reset(new rocksdb::SkipListFactory);
  options.IncreaseParallelism(2);
  options.OptimizeLevelStyleCompaction(32 << 20);
  std::printf(
      "level style: jobs %d, write buffer %zu x %d (merge %d), L0 trigger %d, "
      "file %" PRIu64 ", L1 %" PRIu64 ", %zu levels of compression, L0 %d\n",
      options.max_background_jobs, options.write_buffer_size,
      options.max_write_buffer_number, options.min_write_buffer_number_to_merge,
      options.level0_file_num_compaction_trigger, options.target_file_size_base,
      options.max_bytes_for_level_base, options.compression_per_level.size(),
      static_cast<int>(options.compression_per_level[0]));
  Check(options.max_background_jobs == 2 &&
            options.write_buffer_size == (8 << 20) &&
            options.max_write_buffer_number == 6 &&
            options.min_write_buffer_number_to_merge == 2 &&
            options.level0_file_num_compaction_trigger == 2 &&
            options.target_file_size_base == (4 << 20) &&
            options.max_bytes_for_level_base == (32 << 20) &&
            options.compression_per_level.size() == 7 &&
            options.compression_per_level[1] == rocksdb::kNoCompression,
        "OptimizeLevelStyleCompaction");

  rocksdb::Options point;
  point.OptimizeForPointLookup(16);
  std::printf("point lookup: memtable bloom %.2f, whole keys %d\n",
              point.memtable_prefix_bloom_size_ratio,
              point.memtable_whole_key_filtering ? 1 : 0);
  Check(point.memtable_prefix_bloom_size_ratio == 0.02 &&
            point.memtable_whole_key_filtering,
        "OptimizeForPointLookup");

  rocksdb::Options small;
  small.OptimizeForSmallDb();
  std::printf("small db: write buffer %zu, file %" PRIu64 ", L1 %" PRIu64
              ", open files %d, opening threads %d\n",
              small.write_buffer_size, small.target_file_size_base,
              small.max_bytes_for_level_base, small.max_open_files,
              small.max_file_opening_threads);
  Check(small.write_buffer_size == (2 << 20) &&
            small.target_file_size_base == (2 << 20) &&
            small.max_bytes_for_level_base == (10 << 20) &&
            small.max_open_files == 5000 && small.max_file_opening_threads == 1,
        "OptimizeForSmallDb");

  rocksdb::Options bulk;
  bulk.PrepareForBulkLoad();
  std::printf(
      "bulk load: levels %d, auto compactions %s, L0 stop %d, "
      "write buffers %d, file %" PRIu64 "\n",
      bulk.num_levels, bulk.disable_auto_compactions ? "off" : "on",
      bulk.level0_stop_writes_trigger, bulk.max_write_buffer_number,
      bulk.target_file_size_base);
  Check(bulk.num_levels == 2 && bulk.disable_auto_compactions &&
            bulk.level0_file_num_compaction_trigger == (1 << 30) &&
            bulk.level0_stop_writes_trigger == (1 << 30) &&
            bulk.max_compaction_bytes == (uint64_t{1} << 60) &&
            bulk.max_write_buffer_number == 6 &&
            bulk.target_file_size_base == (256 << 20),
        "PrepareForBulkLoad");

  for (rocksdb::Options* o : {&options, &point, &small, &bulk}) {
    o->create_if_missing = true;
    o->compression = rocksdb::kNoCompression;
    rocksdb::DestroyDB(path, *o);
    rocksdb::DB* raw_helper_db = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(*o, path, &raw_helper_db);
    Check(s.ok(), "open under a helper");
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      continue;
    }
    std::unique_ptr<rocksdb::DB> db(raw_helper_db);
    std::string value;
    Check(db->Put(rocksdb::WriteOptions(), "k", "v").ok() &&
              db->Flush(rocksdb::FlushOptions()).ok() &&
              db->Get(rocksdb::ReadOptions(), "k", &value).ok() && value == "v",
          "put, flush, get under a helper");
    db.reset();
    Check(rocksdb::DestroyDB(path, *o).ok(), "destroy under a helper");
  }
}

// One memtable budget for two DBs, charged to a cache, as a RocksDB
// program sets it up.
void CheckWriteBufferManager(const std::string& path) {
  std::shared_ptr<rocksdb::Cache> cache = rocksdb::NewLRUCache(64 << 20);
  auto wbm = std::make_shared<rocksdb::WriteBufferManager>(
      8 << 20, cache, /*allow_stall=*/true);
  Check(wbm->enabled() && wbm->cost_to_cache() &&
            wbm->buffer_size() == (8 << 20) && !wbm->ShouldFlush() &&
            !wbm->ShouldStall(),
        "a new write buffer manager");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 4 << 20;
  options.write_buffer_manager = wbm;
  options.db_write_buffer_size = 0;  // the manager's budget decides
  options.max_total_wal_size = 64 << 20;
  std::vector<std::unique_ptr<rocksdb::DB>> dbs;
  for (const char* suffix : {"_a", "_b"}) {
    rocksdb::DestroyDB(path + suffix, options);
    rocksdb::DB* raw = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(options, path + suffix, &raw);
    Check(s.ok(), "open a DB sharing the manager");
    if (!s.ok()) return;
    dbs.emplace_back(raw);
  }
  for (int i = 0; i < 100; i++) {
    for (const auto& db : dbs) {
      Check(db->Put(rocksdb::WriteOptions(), "key" + std::to_string(i),
                    std::string(100, 'v'))
                .ok(),
            "put under the manager");
    }
  }
  // The byte counts are checked, not printed: they depend on each engine's
  // memtable layout, and the output is compared with RocksDB's.
  Check(wbm->memory_usage() > 0 && wbm->dummy_entries_in_cache_usage() > 0 &&
            cache->GetUsage() >= wbm->dummy_entries_in_cache_usage(),
        "memtables counted and charged");
  wbm->SetBufferSize(16 << 20);
  Check(wbm->buffer_size() == (16 << 20), "SetBufferSize");
  dbs.clear();
  Check(wbm->memory_usage() == 0, "closed DBs hold no memory of the budget");
  for (const char* suffix : {"_a", "_b"}) {
    rocksdb::DestroyDB(path + suffix, options);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "api_compat_db";
  rocksdb::Options options;
  options.create_if_missing = true;
  options.error_if_exists = false;
  options.write_buffer_size = 4 << 20;
  options.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  options.compression = rocksdb::kNoCompression;
  options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(1));
  rocksdb::BlockBasedTableOptions table_options;
  table_options.block_size = 16 * 1024;
  table_options.block_cache = rocksdb::NewLRUCache(64 << 20, 4);
  table_options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10, false));
  table_options.cache_index_and_filter_blocks = true;
  table_options.whole_key_filtering = true;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  Check(table_options.block_cache->GetCapacity() == (64 << 20),
        "cache capacity");
  rocksdb::DestroyDB(path, options);

  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &db);
  Check(s.ok(), "open");
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }

  rocksdb::WriteOptions write_options;
  write_options.sync = false;
  Check(db->Put(write_options, "apple", "red").ok(), "put apple");
  Check(db->Put(write_options, "banana", "yellow").ok(), "put banana");
  Check(db->Put(rocksdb::WriteOptions(), "cherry", "dark red").ok(),
        "put cherry");

  std::string value;
  s = db->Get(rocksdb::ReadOptions(), "apple", &value);
  Check(s.ok() && value == "red", "get apple");
  s = db->Get(rocksdb::ReadOptions(), "durian", &value);
  Check(s.IsNotFound(), "get missing");

  const rocksdb::Snapshot* snapshot = db->GetSnapshot();

  rocksdb::WriteBatch batch;
  batch.Put("date", "brown");
  batch.Delete("banana");
  batch.Put(rocksdb::Slice("elder"), rocksdb::Slice("black"));
  Check(batch.Count() == 3, "batch count");
  Check(batch.GetDataSize() == batch.Data().size(), "batch size");
  CountingHandler handler;
  Check(
      batch.Iterate(&handler).ok() && handler.puts == 2 && handler.deletes == 1,
      "batch iterate");
  Check(db->Write(write_options, &batch).ok(), "write batch");
  Check(db->Delete(write_options, "cherry").ok(), "delete");

  std::vector<rocksdb::Slice> keys = {"apple", "banana", "date"};
  std::vector<std::string> values;
  std::vector<rocksdb::Status> statuses =
      db->MultiGet(rocksdb::ReadOptions(), keys, &values);
  Check(statuses.size() == 3 && statuses[0].ok() && statuses[1].IsNotFound() &&
            statuses[2].ok() && values[2] == "brown",
        "multiget");

  rocksdb::ReadOptions at_snapshot;
  at_snapshot.snapshot = snapshot;
  s = db->Get(at_snapshot, "banana", &value);
  Check(s.ok() && value == "yellow", "get at snapshot");

  std::unique_ptr<rocksdb::Iterator> it(
      db->NewIterator(rocksdb::ReadOptions()));
  std::string order;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    order += it->key().ToString() + "=" + it->value().ToString() + ";";
  }
  Check(it->status().ok(), "iterator status");
  Check(order == "apple=red;date=brown;elder=black;", "iterate forward");
  it->SeekForPrev("d");
  Check(it->Valid() && it->key() == "apple", "seek for prev");
  it->Seek("b");
  Check(it->Valid() && it->key().ToString() == "date", "seek");
  it->Prev();
  Check(it->Valid() && it->key().ToString() == "apple", "prev");
  it.reset();

  rocksdb::Slice upper("e");
  rocksdb::ReadOptions bounded;
  bounded.iterate_upper_bound = &upper;
  bounded.snapshot = snapshot;
  rocksdb::Iterator* raw = db->NewIterator(bounded);
  int count = 0;
  for (raw->SeekToLast(); raw->Valid(); raw->Prev()) count++;
  Check(count == 3, "bounded reverse iteration at snapshot");
  delete raw;

  rocksdb::ReadOptions in_prefix;
  in_prefix.prefix_same_as_start = true;
  std::unique_ptr<rocksdb::Iterator> prefix_it(db->NewIterator(in_prefix));
  count = 0;
  for (prefix_it->Seek("d"); prefix_it->Valid(); prefix_it->Next()) count++;
  Check(count == 1, "prefix_same_as_start stays in the prefix");
  prefix_it.reset();

  db->ReleaseSnapshot(snapshot);
  Check(db->SyncWAL().ok(), "sync wal");
  Check(db->Close().ok(), "close");
  delete db;

  rocksdb::DB* raw_db = nullptr;
  options.create_if_missing = false;
  s = rocksdb::DB::Open(options, path, &raw_db);
  Check(s.ok(), "reopen");
  std::unique_ptr<rocksdb::DB> reopened(raw_db);
  if (s.ok()) {
    s = reopened->Get(rocksdb::ReadOptions(), "elder", &value);
    Check(s.ok() && value == "black", "get after reopen");
    reopened.reset();
  }
  Check(rocksdb::DestroyDB(path, options).ok(), "destroy");

  CheckHelpers(path + "_helpers");
  CheckWriteBufferManager(path + "_wbm");

  // PinnableSlice and Cleanable as RocksDB's own code uses them: a pin that
  // takes over a Cleanable's cleanups, moved and released once; a value
  // copied into the caller's string.
  {
    int released = 0;
    const std::string block = "pinned-value";
    rocksdb::Cleanable holder;
    holder.RegisterCleanup(&Release, &released, nullptr);
    rocksdb::PinnableSlice pinned;
    pinned.PinSlice(rocksdb::Slice(block.data(), 6), &holder);
    Check(pinned.IsPinned() && !holder.HasCleanups() && pinned == "pinned",
          "pin with a cleanable");
    rocksdb::PinnableSlice moved(std::move(pinned));
    Check(moved.IsPinned() && moved.data() == block.data() && released == 0,
          "move a pinned slice");
    moved.Reset();
    Check(released == 1 && moved.size() == 0, "reset releases the pin");
    std::string out;
    rocksdb::PinnableSlice self(&out);
    self.PinSelf("copied");
    self.remove_prefix(2);
    Check(!self.IsPinned() && out == "pied" && self.ToString() == "pied",
          "self-buffered value in the caller's string");
  }

  if (failures == 0) std::printf("api_compat: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
