#include "test/db/db_test_util.h"

#include <memory>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/write_batch_internal.h"
#include "env/file_reader.h"
#include "gtest/gtest.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace test {

DBHolder::DBHolder(Env* env)
    : env_(env), dir_(env, "db"), name_(dir_.File("db")) {
  options_.env = env_;
  options_.create_if_missing = true;
}

DBHolder::~DBHolder() { Close(); }

Status DBHolder::Open() {
  std::unique_ptr<DB> db;
  Status s = DB::Open(options_, name_, &db);
  db_ = std::move(db);
  return s;
}

Status FailNextFlush(DB* db, TableGateEnv* gate, FaultInjectionEnv* fault,
                     const Status& failure) {
  gate->Open(false);
  FlushOptions no_wait;
  no_wait.wait = false;
  EXPECT_TRUE(db->Flush(no_wait).ok());
  gate->AwaitWaiter();
  fault->FailAll(IOKind::kWrite, failure);
  gate->Open(true);
  // A request without a batch writes no WAL record: it only waits.
  return db->Flush(FlushOptions());
}

Status TableGateEnv::NewWritableFile(const std::string& f,
                                     std::unique_ptr<WritableFile>* r,
                                     const EnvOptions& options) {
  if (f.size() > 4 && f.compare(f.size() - 4, 4, ".sst") == 0) {
    std::unique_lock<std::mutex> l(mu_);
    waiting_++;
    cv_.notify_all();
    cv_.wait(l, [this] { return open_; });
    waiting_--;
  }
  return target()->NewWritableFile(f, r, options);
}

void TableGateEnv::Open(bool open) {
  std::lock_guard<std::mutex> l(mu_);
  open_ = open;
  cv_.notify_all();
}

void TableGateEnv::AwaitWaiter() {
  std::unique_lock<std::mutex> l(mu_);
  cv_.wait(l, [this] { return waiting_ > 0; });
}

Status DBHolder::Destroy() {
  Close();
  return DestroyDB(name_, options_);
}

std::string DBHolder::Get(const std::string& k, const Snapshot* snapshot) {
  ReadOptions ro;
  ro.snapshot = snapshot;
  std::string value;
  Status s = db_->Get(ro, k, &value);
  if (s.IsNotFound()) return "NOT_FOUND";
  if (!s.ok()) return s.ToString();
  return value;
}

std::map<std::string, std::string> DBHolder::Contents(
    const Snapshot* snapshot) {
  ReadOptions ro;
  ro.snapshot = snapshot;
  std::unique_ptr<Iterator> it(db_->NewIterator(ro));
  std::map<std::string, std::string> result;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    result[it->key().ToString()] = it->value().ToString();
  }
  if (!it->status().ok()) result["<error>"] = it->status().ToString();
  return result;
}

Status DropCloseMarker(Env* env, const std::string& fname) {
  std::unique_ptr<SequentialFile> file;
  Status s = env->NewSequentialFile(fname, &file, EnvOptions());
  if (!s.ok()) return s;
  uint64_t last = 0;
  bool marker = false;
  {
    log::Reader reader(
        std::make_unique<SequentialFileReader>(std::move(file), fname), nullptr,
        /*checksum=*/true, 0);
    std::string scratch;
    Slice record;
    while (reader.ReadRecord(&record, &scratch,
                             WALRecoveryMode::kPointInTimeRecovery)) {
      SequenceNumber seq = 0;
      last = reader.LastRecordOffset();
      marker = WriteBatchInternal::IsCloseMarker(record, &seq);
    }
  }
  if (!marker) return Status::Corruption(fname, "ends with no close marker");
  std::string contents;
  s = ReadFileToString(env, fname, &contents);
  if (!s.ok()) return s;
  contents.resize(last);
  return WriteStringToFile(env, contents, fname, /*should_sync=*/true);
}

DBFiles ListDBFiles(Env* env, const std::string& dbname) {
  DBFiles result;
  std::vector<std::string> children;
  EXPECT_TRUE(env->GetChildren(dbname, &children).ok());
  for (const std::string& c : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(c, &number, &type)) continue;
    if (type == FileType::kWalFile) result.logs.push_back(number);
    if (type == FileType::kDescriptorFile) result.manifests.push_back(number);
    if (type == FileType::kTableFile) result.tables.push_back(number);
    if (type == FileType::kCurrentFile) result.current = true;
  }
  return result;
}

uint64_t TableCount(DB* db, ColumnFamilyHandle* cf) {
  uint64_t total = 0;
  for (int level = 0; level < db->GetOptions(cf).num_levels; level++) {
    uint64_t files = 0;
    EXPECT_TRUE(db->GetIntProperty(
        cf, "strata.num-files-at-level" + std::to_string(level), &files));
    total += files;
  }
  return total;
}

}  // namespace test
}  // namespace strata
