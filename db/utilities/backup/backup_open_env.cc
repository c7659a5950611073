#include "db/utilities/backup/backup_open_env.h"

#include <vector>

#include "strata/env.h"

namespace strata {
namespace backup {

namespace {

class BackupOpenEnv : public EnvWrapper {
 public:
  BackupOpenEnv(Env* target, const std::string& dir,
                const std::map<std::string, std::string>& tables)
      : EnvWrapper(target), dir_(dir) {
    for (const auto& table : tables) {
      paths_[dir + "/" + table.first] = table.second;
    }
  }

  Status NewSequentialFile(const std::string& f,
                           std::unique_ptr<SequentialFile>* r,
                           const EnvOptions& options) override {
    return target()->NewSequentialFile(Real(f), r, options);
  }
  Status NewRandomAccessFile(const std::string& f,
                             std::unique_ptr<RandomAccessFile>* r,
                             const EnvOptions& options) override {
    return target()->NewRandomAccessFile(Real(f), r, options);
  }
  Status FileExists(const std::string& f) override {
    return target()->FileExists(Real(f));
  }
  Status GetFileSize(const std::string& f, uint64_t* size) override {
    return target()->GetFileSize(Real(f), size);
  }
  Status GetFileModificationTime(const std::string& f,
                                 uint64_t* mtime) override {
    return target()->GetFileModificationTime(Real(f), mtime);
  }
  Status GetChildren(const std::string& dir,
                     std::vector<std::string>* result) override {
    Status s = target()->GetChildren(dir, result);
    if (s.ok() && dir == dir_) {
      for (const auto& mapped : paths_) {
        result->push_back(mapped.first.substr(dir_.size() + 1));
      }
    }
    return s;
  }

 private:
  // Where f really is.
  const std::string& Real(const std::string& f) const {
    auto it = paths_.find(f);
    return it == paths_.end() ? f : it->second;
  }

  const std::string dir_;
  std::map<std::string, std::string> paths_;  // dir/<name> -> real path
};

}  // namespace

std::shared_ptr<Env> NewBackupOpenEnv(
    Env* backup_env, const std::string& dir,
    const std::map<std::string, std::string>& tables) {
  return std::make_shared<BackupOpenEnv>(backup_env, dir, tables);
}

}  // namespace backup
}  // namespace strata
