// Writes the seed corpora of the fuzz targets from the files of a real DB.
//
//   make_seeds <dir>
//
// builds a DB in <dir>/db — a table without compression, a compressed one
// holding a range tombstone, a column family added and dropped (so the
// MANIFEST holds several kinds of edits), and writes left in the WAL — and
// then fills <dir>/<target>/ for each target with inputs in that target's
// format: the WAL, MANIFEST and table files behind the target's settings
// byte, every WAL record as a WriteBatch, every MANIFEST record as a
// VersionEdit, blocks built by BlockBuilder, and CURRENT with the names
// of a DB directory. The directories are emptied first; a run writes the
// same seeds again.

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/log_reader.h"
#include "env/file_reader.h"
#include "fuzz/fuzz_util.h"
#include "port/compression.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/merge_operator.h"
#include "strata/write_batch.h"
#include "table/block_builder.h"

namespace strata {
namespace {

Env* const env = Env::Default();

void Check(const Status& s, const std::string& what) {
  if (!s.ok()) {
    std::fprintf(stderr, "make_seeds: %s: %s\n", what.c_str(),
                 s.ToString().c_str());
    std::exit(1);
  }
}

// Removes dir's files and dir (one level: all a seed directory holds).
void RemoveDir(const std::string& dir) {
  std::vector<std::string> children;
  if (!env->GetChildren(dir, &children).ok()) return;
  for (const std::string& child : children) {
    if (child != "." && child != "..") env->RemoveFile(dir + "/" + child);
  }
  env->RemoveDir(dir);
}

class Seeds {
 public:
  Seeds(const std::string& root, const std::string& target)
      : dir_(root + "/" + target) {
    RemoveDir(dir_);
    Check(env->CreateDirIfMissing(dir_), dir_);
  }
  void Add(const std::string& bytes) {
    char name[32];
    std::snprintf(name, sizeof(name), "/seed-%03d", count_++);
    Check(WriteStringToFile(env, bytes, dir_ + name), dir_ + name);
  }

 private:
  const std::string dir_;
  int count_ = 0;
};

std::string ReadFile(const std::string& fname) {
  std::string contents;
  Check(ReadFileToString(env, fname, &contents), fname);
  return contents;
}

// The records of a log file.
std::vector<std::string> Records(const std::string& fname) {
  std::unique_ptr<SequentialFile> file;
  Check(env->NewSequentialFile(fname, &file, EnvOptions()), fname);
  log::Reader reader(
      std::make_unique<SequentialFileReader>(std::move(file), fname), nullptr,
      /*checksum=*/true, 0);
  std::vector<std::string> records;
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch,
                           WALRecoveryMode::kTolerateCorruptedTailRecords)) {
    records.push_back(record.ToString());
  }
  return records;
}

std::string Key(int i) {
  char key[16];
  std::snprintf(key, sizeof(key), "key%06d", i);
  return key;
}

// Builds the DB and closes it; *wals and *manifest name its WAL files and
// its MANIFEST.
void BuildDb(const std::string& dbname, std::vector<std::string>* wals,
             std::string* manifest) {
  DestroyDB(dbname, Options());
  Options options;
  options.create_if_missing = true;
  options.compression = kNoCompression;
  options.merge_operator = MergeOperators::CreateStringAppendOperator(',');
  WriteOptions sync;
  sync.sync = true;
  {
    std::unique_ptr<DB> db;
    Check(DB::Open(options, dbname, &db), "open " + dbname);
    for (int i = 0; i < 100; i += 2) {
      Check(db->Put(sync, Key(i), std::string(20, 'a' + i % 26)), "put");
    }
    Check(db->Flush(FlushOptions()), "flush");
    ColumnFamilyHandle* cf = nullptr;
    Check(db->CreateColumnFamily(ColumnFamilyOptions(), "cf1", &cf),
          "create cf1");
    Check(db->Put(sync, cf, "in-cf1", "x"), "put cf1");
    Check(db->DropColumnFamily(cf), "drop cf1");
    Check(db->DestroyColumnFamilyHandle(cf), "destroy cf1");
    Check(db->Close(), "close");
  }
  options.compression =
      port::SnappySupported()
          ? kSnappyCompression
          : (port::ZlibSupported() ? kZlibCompression : kNoCompression);
  std::unique_ptr<DB> db;
  Check(DB::Open(options, dbname, &db), "reopen " + dbname);
  for (int i = 1; i < 100; i += 2) {
    Check(db->Put(sync, Key(i), std::string(40, 'b')), "put");
  }
  Check(db->DeleteRange(sync, Key(10), Key(20)), "delete range");
  Check(db->Delete(sync, Key(30)), "delete");
  Check(db->Flush(FlushOptions()), "flush");
  // Left in the WAL: every record kind.
  WriteBatch batch;
  Check(batch.Put(Key(50), "new"), "batch");
  Check(batch.Delete(Key(52)), "batch");
  Check(batch.SingleDelete(Key(54)), "batch");
  Check(batch.DeleteRange(Key(60), Key(62)), "batch");
  Check(batch.Merge(Key(70), "m"), "batch");
  Check(batch.PutLogData("blob"), "batch");
  Check(db->Write(sync, &batch), "write");
  Check(db->Put(sync, Key(200), std::string(300, 'c')), "put");

  std::vector<std::string> children;
  Check(env->GetChildren(dbname, &children), "list " + dbname);
  for (const std::string& child : children) {
    const std::string name = dbname + "/" + child;
    if (child.size() > 4 && child.substr(child.size() - 4) == ".log") {
      wals->push_back(name);
    } else if (child.rfind("MANIFEST-", 0) == 0) {
      *manifest = name;
    }
  }
  Check(db->Close(), "close");
}

std::string Block(int restart_interval, bool internal_keys, int n) {
  BlockBuilder builder(restart_interval);
  for (int i = 0; i < n; i++) {
    std::string key = Key(i * 3);
    if (internal_keys) {
      key = InternalKey(key, 100 - i, kTypeValue).Encode().ToString();
    }
    builder.Add(key, std::string(i % 7, 'v'));
  }
  return builder.Finish().ToString();
}

int Main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seeds <dir>\n");
    return 2;
  }
  const std::string root = argv[1];
  Check(env->CreateDirIfMissing(root), root);
  const std::string dbname = root + "/db";
  std::vector<std::string> wals;
  std::string manifest;
  BuildDb(dbname, &wals, &manifest);
  std::vector<std::string> wal_contents;
  for (const std::string& wal : wals) wal_contents.push_back(ReadFile(wal));
  const std::string manifest_contents = ReadFile(manifest);

  {
    Seeds seeds(root, "log_reader_fuzzer");
    for (const std::string& wal : wal_contents) {
      seeds.Add(std::string(1, '\x02') + wal);
    }
    seeds.Add(std::string(1, '\x08') + manifest_contents);
  }
  {
    Seeds seeds(root, "wal_recovery_fuzzer");
    for (const std::string& wal : wal_contents) {
      seeds.Add(std::string(1, '\x02') + wal);
    }
  }
  {
    Seeds seeds(root, "write_batch_fuzzer");
    for (const std::string& wal : wals) {
      for (const std::string& record : Records(wal)) seeds.Add(record);
    }
  }
  {
    Seeds seeds(root, "manifest_fuzzer");
    seeds.Add(std::string(1, '\x02') + manifest_contents);
  }
  {
    Seeds seeds(root, "version_edit_fuzzer");
    for (const std::string& record : Records(manifest)) seeds.Add(record);
  }
  {
    Seeds seeds(root, "table_fuzzer");
    std::vector<std::string> children;
    Check(env->GetChildren(dbname, &children), "list " + dbname);
    for (const std::string& child : children) {
      if (child.size() > 4 && child.substr(child.size() - 4) == ".sst") {
        const std::string table = ReadFile(dbname + "/" + child);
        seeds.Add(std::string(1, '\x00') + table);
        seeds.Add(std::string(1, '\x1f') + table);
      }
    }
  }
  {
    Seeds seeds(root, "block_fuzzer");
    const std::string target = "\x09key000030";
    seeds.Add(std::string(1, '\x00') + target + Block(16, true, 40));
    seeds.Add(std::string(1, '\x02') + target + Block(1, true, 10));
    seeds.Add(std::string(1, '\x01') + target + Block(4, false, 20));
  }
  {
    Seeds seeds(root, "db_files_fuzzer");
    const std::string current =
        fuzz::FreshDbFiles().at(std::string(fuzz::kDbName) + "/CURRENT");
    seeds.Add(current);
    std::string names = current;
    for (const char* name : {"000099.log", "000100.sst", "OPTIONS-000098",
                             "MANIFEST-000097", "000101.dbtmp", "LOG.old"}) {
      names.push_back('\0');
      names += name;
    }
    seeds.Add(names);
  }
  {
    Seeds seeds(root, "options_file_fuzzer");
    std::vector<std::string> children;
    Check(env->GetChildren(dbname, &children), "list " + dbname);
    for (const std::string& child : children) {
      if (child.rfind("OPTIONS-", 0) == 0) {
        const std::string text = ReadFile(dbname + "/" + child);
        seeds.Add(std::string(1, '\x00') + text);
        seeds.Add(std::string(1, '\x03') + text);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace strata

int main(int argc, char** argv) { return strata::Main(argc, argv); }
