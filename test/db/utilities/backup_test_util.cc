#include "test/db/utilities/backup_test_util.h"

#include <algorithm>

namespace strata {
namespace test {

const std::vector<std::string>& BackupFamilies() {
  static const std::vector<std::string> kFamilies = {"default", "lock",
                                                     "write"};
  return kFamilies;
}

Status WriteRecordingEnv::NewWritableFile(const std::string& f,
                                          std::unique_ptr<WritableFile>* r,
                                          const EnvOptions& options) {
  {
    std::lock_guard<std::mutex> l(mu_);
    written_.push_back(f);
  }
  return EnvWrapper::NewWritableFile(f, r, options);
}

int WriteRecordingEnv::Count(const std::string& part,
                             const std::string& part2) {
  std::lock_guard<std::mutex> l(mu_);
  return static_cast<int>(
      std::count_if(written_.begin(), written_.end(), [&](const auto& f) {
        return f.find(part) != std::string::npos &&
               f.find(part2) != std::string::npos;
      }));
}

void WriteRecordingEnv::Reset() {
  std::lock_guard<std::mutex> l(mu_);
  written_.clear();
}

BackupTestBase::BackupTestBase()
    : env_(Env::Default()), dir_(Env::Default(), "backup") {}

void BackupTestBase::SetUp() {
  options_.create_if_missing = true;
  options_.create_missing_column_families = true;
  options_.env = &env_;
  Status s = OpenDB(DBName(), &db_, &handles_);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

void BackupTestBase::TearDown() { CloseDB(&db_, &handles_); }

Status BackupTestBase::OpenDB(const std::string& name, std::unique_ptr<DB>* db,
                              std::vector<ColumnFamilyHandle*>* handles) {
  std::vector<ColumnFamilyDescriptor> families;
  for (const std::string& f : BackupFamilies()) {
    families.emplace_back(f, ColumnFamilyOptions(options_));
  }
  DB* raw = nullptr;
  Status s = DB::Open(options_, name, families, handles, &raw);
  db->reset(raw);
  return s;
}

void BackupTestBase::CloseDB(std::unique_ptr<DB>* db,
                             std::vector<ColumnFamilyHandle*>* handles) {
  if (*db == nullptr) return;
  for (ColumnFamilyHandle* h : *handles) (*db)->DestroyColumnFamilyHandle(h);
  handles->clear();
  db->reset();
}

void BackupTestBase::ReopenDB() {
  CloseDB(&db_, &handles_);
  Status s = OpenDB(DBName(), &db_, &handles_);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

Status BackupTestBase::PutAll(const std::string& key,
                              const std::string& value) {
  WriteBatch batch;
  for (ColumnFamilyHandle* h : handles_) batch.Put(h, key, value);
  return db_->Write(WriteOptions(), &batch);
}

Status BackupTestBase::FlushAll() {
  return db_->Flush(FlushOptions(), handles_);
}

BackupEngineOptions BackupTestBase::EngineOptions() const {
  return BackupEngineOptions(BackupDir());
}

Status BackupTestBase::OpenEngine(const BackupEngineOptions& options,
                                  std::unique_ptr<BackupEngine>* engine) {
  BackupEngine* raw = nullptr;
  Status s = BackupEngine::Open(options, &env_, &raw);
  engine->reset(raw);
  return s;
}

std::map<std::string, std::string> BackupTestBase::Contents(
    DB* db, const std::vector<ColumnFamilyHandle*>& handles) {
  std::map<std::string, std::string> contents;
  for (ColumnFamilyHandle* h : handles) {
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions(), h));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      contents[h->GetName() + "/" + it->key().ToString()] =
          it->value().ToString();
    }
    if (!it->status().ok()) contents["<error>"] = it->status().ToString();
  }
  return contents;
}

std::map<std::string, std::string> BackupTestBase::ContentsOf(
    const std::string& dir) {
  std::unique_ptr<DB> db;
  std::vector<ColumnFamilyHandle*> handles;
  Options saved = options_;
  options_.create_if_missing = false;
  Status s = OpenDB(dir, &db, &handles);
  options_ = saved;
  if (!s.ok()) return {{"<open>", s.ToString()}};
  std::map<std::string, std::string> contents = Contents(db.get(), handles);
  CloseDB(&db, &handles);
  return contents;
}

backup::BackupMeta BackupTestBase::ReadBackupMeta(BackupID id) {
  const std::string path = BackupDir() + "/meta/" + std::to_string(id);
  std::string text;
  backup::BackupMeta meta;
  Status s = ReadFileToString(&env_, path, &text);
  if (s.ok()) s = backup::DecodeBackupMeta(path, id, text, &meta);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return meta;
}

std::vector<std::string> BackupTestBase::BackupChildren(
    const std::string& sub) {
  std::vector<std::string> names;
  Status s = env_.GetChildren(BackupDir() + "/" + sub, &names);
  if (!s.ok()) names.clear();
  std::sort(names.begin(), names.end());
  return names;
}

std::map<std::string, uint64_t> BackupTestBase::BackupTree() {
  std::map<std::string, uint64_t> tree;
  std::vector<std::string> pending = {""};
  while (!pending.empty()) {
    const std::string rel = pending.back();
    pending.pop_back();
    std::vector<std::string> names;
    if (!env_.GetChildren(BackupDir() + rel, &names).ok()) continue;
    for (const std::string& name : names) {
      const std::string child = rel + "/" + name;
      bool is_dir = false;
      if (env_.IsDirectory(BackupDir() + child, &is_dir).ok() && is_dir) {
        tree[child + "/"] = 0;
        pending.push_back(child);
      } else {
        uint64_t size = 0;
        Status s = env_.GetFileSize(BackupDir() + child, &size);
        tree[child] = s.ok() ? size : UINT64_MAX;
      }
    }
  }
  return tree;
}

Status FlipByte(Env* env, const std::string& fname, uint64_t offset) {
  std::string contents;
  Status s = ReadFileToString(env, fname, &contents);
  if (!s.ok()) return s;
  if (offset >= contents.size()) {
    return Status::InvalidArgument(fname, "is shorter than the offset");
  }
  contents[offset] ^= 0x55;
  return WriteStringToFile(env, contents, fname, /*should_sync=*/false);
}

}  // namespace test
}  // namespace strata
