#include "fuzz/fuzz_util.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "db/write_batch_internal.h"
#include "strata/db.h"
#include "strata/iterator.h"

namespace strata {
namespace fuzz {

const char kDbName[] = "/fuzzdb";

namespace {

// A failure of the harness itself (not of the code under test): stop loudly.
void Check(const Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "fuzz harness: %s: %s\n", what, s.ToString().c_str());
    std::abort();
  }
}

Files MakeFreshDbFiles() {
  std::unique_ptr<Env> env(NewMemEnv(Env::Default()));
  Options options;
  options.env = env.get();
  options.create_if_missing = true;
  {
    std::unique_ptr<DB> db;
    Check(DB::Open(options, kDbName, &db), "create the template DB");
    Check(db->Close(), "close the template DB");
  }
  std::vector<std::string> children;
  Check(env->GetChildren(kDbName, &children), "list the template DB");
  Files files;
  for (const std::string& child : children) {
    if (child == "." || child == ".." || child == "LOG" || child == "LOCK") {
      continue;
    }
    const std::string name = std::string(kDbName) + "/" + child;
    Check(ReadFileToString(env.get(), name, &files[name]), "read a file");
  }
  return files;
}

// Accepts every record of every family and reads every byte of it, so
// that the sanitizers see any slice pointing outside the batch.
class ReadingHandler : public WriteBatch::Handler {
 public:
  Status PutCF(uint32_t, const Slice& key, const Slice& value) override {
    return Touch(key, value);
  }
  Status DeleteCF(uint32_t, const Slice& key) override {
    return Touch(key, Slice());
  }
  Status SingleDeleteCF(uint32_t, const Slice& key) override {
    return Touch(key, Slice());
  }
  Status DeleteRangeCF(uint32_t, const Slice& begin,
                       const Slice& end) override {
    return Touch(begin, end);
  }
  Status MergeCF(uint32_t, const Slice& key, const Slice& value) override {
    return Touch(key, value);
  }
  void LogData(const Slice& blob) override { Touch(blob, Slice()); }
  Status MarkBeginPrepare(bool) override { return Status::OK(); }
  Status MarkEndPrepare(const Slice& xid) override {
    return Touch(xid, Slice());
  }
  Status MarkNoop(bool) override { return Status::OK(); }
  Status MarkRollback(const Slice& xid) override { return Touch(xid, Slice()); }
  Status MarkCommit(const Slice& xid) override { return Touch(xid, Slice()); }

  uint32_t sum() const { return sum_; }

 private:
  Status Touch(const Slice& a, const Slice& b) {
    for (size_t i = 0; i < a.size(); i++) sum_ += static_cast<uint8_t>(a[i]);
    for (size_t i = 0; i < b.size(); i++) sum_ += static_cast<uint8_t>(b[i]);
    return Status::OK();
  }

  uint32_t sum_ = 0;
};

}  // namespace

Status ParseWriteBatch(const Slice& contents) {
  WriteBatch batch;
  Status s = WriteBatchInternal::SetContents(&batch, contents);
  if (!s.ok()) return s;
  batch.Count();
  WriteBatchInternal::Sequence(&batch);
  ReadingHandler handler;
  s = batch.Iterate(&handler);
  const Status valid = WriteBatchInternal::Validate(&batch);
  // Validate promises the status Iterate returns, given a handler that
  // accepts every record.
  if (valid.ok() != s.ok()) {
    std::fprintf(stderr, "Validate says %s, Iterate %s\n",
                 valid.ToString().c_str(), s.ToString().c_str());
    std::abort();
  }
  return s;
}

WALRecoveryMode ModeOf(uint8_t byte) {
  switch (byte % 4) {
    case 0:
      return WALRecoveryMode::kTolerateCorruptedTailRecords;
    case 1:
      return WALRecoveryMode::kAbsoluteConsistency;
    case 2:
      return WALRecoveryMode::kPointInTimeRecovery;
    default:
      return WALRecoveryMode::kSkipAnyCorruptedRecords;
  }
}

std::unique_ptr<Env> NewEnvWithFiles(const Files& files) {
  std::unique_ptr<Env> env(NewMemEnv(Env::Default()));
  Check(env->CreateDirIfMissing(kDbName), "create the DB directory");
  for (const auto& file : files) {
    Check(WriteStringToFile(env.get(), file.second, file.first),
          "write a file");
  }
  return env;
}

const Files& FreshDbFiles() {
  // Built on first use and never changed: every input starts from the
  // same files.
  static const Files* const files = new Files(MakeFreshDbFiles());
  return *files;
}

std::string FreshDbFile(const std::string& part) {
  for (const auto& file : FreshDbFiles()) {
    if (file.first.find(part) != std::string::npos) return file.first;
  }
  std::fprintf(stderr, "fuzz harness: the fresh DB has no %s file\n",
               part.c_str());
  std::abort();
}

Status OpenAndReadDb(Env* env, WALRecoveryMode mode) {
  Options options;
  options.env = env;
  options.wal_recovery_mode = mode;
  // Recovery runs in the opening thread; background compactions would
  // only make the run less deterministic.
  options.disable_auto_compactions = true;
  // The smallest memtable: its arena is allocated (and under ASan filled)
  // for every input, and recovery flushes sooner.
  options.write_buffer_size = 64 << 10;
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, kDbName, &db);
  if (!s.ok()) return s;
  {
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
    }
  }
  db->Close();
  return s;
}

void RecoverWithFile(const uint8_t* data, size_t size,
                     const std::string& part) {
  FuzzInput input(data, size);
  const WALRecoveryMode mode = ModeOf(input.TakeByte());
  Files files = FreshDbFiles();
  files[FreshDbFile(part)] = input.Rest().ToString();
  std::unique_ptr<Env> env = NewEnvWithFiles(files);
  OpenAndReadDb(env.get(), mode);
}

}  // namespace fuzz
}  // namespace strata
