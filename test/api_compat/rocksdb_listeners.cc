// A program written against RocksDB's C++ API that compacts on its own:
// kCompactionStyleNone, an EventListener counting flushes and
// compactions, and CompactFiles with good and bad arguments.
//
// Built and compared as rocksdb_column_families.cc is (README.md): every
// line printed is a fact both engines must agree on — counts, levels,
// status codes — never a file name, a size or a message.

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"

namespace {

const char* Code(const rocksdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotFound()) return "NotFound";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsNotSupported()) return "NotSupported";
  if (s.IsAborted()) return "Aborted";
  if (s.IsIOError()) return "IOError";
  return "other error";
}

void Show(const char* what, const rocksdb::Status& s) {
  std::printf("%s: %s\n", what, Code(s));
}

class Counter : public rocksdb::EventListener {
 public:
  void OnFlushCompleted(rocksdb::DB*,
                        const rocksdb::FlushJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu);
    flushes++;
    flushed_family = info.cf_name;
  }
  void OnCompactionCompleted(rocksdb::DB*,
                             const rocksdb::CompactionJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu);
    compactions++;
    inputs = info.input_files.size();
    outputs = info.output_files.size();
    output_level = info.output_level;
    ok = info.status.ok();
  }

  std::mutex mu;
  int flushes = 0;
  std::string flushed_family;
  int compactions = 0;
  size_t inputs = 0, outputs = 0;
  int output_level = -1;
  bool ok = false;
};

// Each level's file count, and the names of the files of level.
void Levels(rocksdb::DB* db, int level, std::vector<std::string>* names) {
  rocksdb::ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  std::printf("files per level:");
  for (const auto& l : meta.levels) std::printf(" %zu", l.files.size());
  std::printf("\n");
  names->clear();
  for (const auto& f : meta.levels[level].files) names->push_back(f.name);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <db directory>\n", argv[0]);
    return 2;
  }
  const std::string dbname = argv[1];
  auto counter = std::make_shared<Counter>();
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compaction_style = rocksdb::kCompactionStyleNone;
  options.num_levels = 3;
  options.level0_file_num_compaction_trigger = 2;
  options.level0_slowdown_writes_trigger = 100;
  options.level0_stop_writes_trigger = 100;
  options.listeners.push_back(counter);
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dbname, &raw);
  Show("open", s);
  if (!s.ok()) return 1;
  std::unique_ptr<rocksdb::DB> db(raw);

  for (int t = 0; t < 3; t++) {
    for (int i = t; i < 30; i += 3) {
      db->Put(rocksdb::WriteOptions(), "key" + std::to_string(i),
              "v" + std::to_string(t));
    }
    Show("flush", db->Flush(rocksdb::FlushOptions()));
  }
  {
    std::lock_guard<std::mutex> l(counter->mu);
    std::printf("flushes: %d of %s\n", counter->flushes,
                counter->flushed_family.c_str());
  }
  std::vector<std::string> l0;
  Levels(db.get(), 0, &l0);

  const rocksdb::CompactionOptions copts;
  Show("no files", db->CompactFiles(copts, {}, 1));
  Show("unknown file", db->CompactFiles(copts, {"/999999.sst"}, 1));
  Show("output level 3", db->CompactFiles(copts, l0, 3));
  Show("output level -1", db->CompactFiles(copts, l0, -1));
  std::vector<std::string> outputs;
  Show("L0 to L2", db->CompactFiles(copts, l0, 2, -1, &outputs));
  std::printf("outputs: %zu\n", outputs.size());
  {
    std::lock_guard<std::mutex> l(counter->mu);
    std::printf("compactions: %d, %zu in, %zu out, to L%d, %s\n",
                counter->compactions, counter->inputs, counter->outputs,
                counter->output_level, counter->ok ? "OK" : "failed");
  }
  std::vector<std::string> l2;
  Levels(db.get(), 2, &l2);
  Show("compacted-away input", db->CompactFiles(copts, l0, 2));
  Show("L2 up to L1", db->CompactFiles(copts, l2, 1));

  // A new L0 file compacted into L1 without the '/'.
  db->Put(rocksdb::WriteOptions(), "key5", "new");
  Show("flush", db->Flush(rocksdb::FlushOptions()));
  Levels(db.get(), 0, &l0);
  Show("L0 to L1", db->CompactFiles(copts, {l0[0].substr(1)}, 1));
  std::vector<std::string> l1;
  Levels(db.get(), 1, &l1);

  std::string value;
  for (const char* key : {"key0", "key5", "key29"}) {
    s = db->Get(rocksdb::ReadOptions(), key, &value);
    std::printf("get %s: %s %s\n", key, Code(s), value.c_str());
  }
  Show("CompactRange",
       db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr));
  Levels(db.get(), 0, &l0);
  Show("close", db->Close());
  return 0;
}
