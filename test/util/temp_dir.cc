#include "test/util/temp_dir.h"

#include <atomic>
#include <cstdio>
#include <vector>

#include "env/io_util.h"

namespace strata {
namespace test {

TempDir::TempDir(Env* env, const std::string& prefix) : env_(env) {
  static std::atomic<uint64_t> counter{0};
  std::string base;
  Status s = env_->GetTestDirectory(&base);
  if (!s.ok()) {
    std::fprintf(stderr, "TempDir: %s\n", s.ToString().c_str());
    std::abort();
  }
  // Unique across processes (time) and within one (counter).
  for (int attempt = 0;; attempt++) {
    path_ = JoinPath(base, prefix + "-" + std::to_string(env_->NowMicros()) +
                               "-" + std::to_string(counter++));
    s = env_->CreateDir(path_);
    if (s.ok()) break;
    if (attempt > 100) {
      std::fprintf(stderr, "TempDir: %s\n", s.ToString().c_str());
      std::abort();
    }
  }
}

TempDir::~TempDir() {
  Status s = RemoveRecursively(env_, path_);
  if (!s.ok()) {
    std::fprintf(stderr, "TempDir: cannot remove %s: %s\n", path_.c_str(),
                 s.ToString().c_str());
  }
}

std::string TempDir::File(const std::string& name) const {
  return JoinPath(path_, name);
}

Status RemoveRecursively(Env* env, const std::string& path) {
  bool is_dir = false;
  Status s = env->IsDirectory(path, &is_dir);
  if (s.IsNotFound()) return Status::OK();
  if (!s.ok()) return s;
  if (!is_dir) return env->RemoveFile(path);
  std::vector<std::string> children;
  s = env->GetChildren(path, &children);
  if (!s.ok()) return s;
  for (const std::string& child : children) {
    s = RemoveRecursively(env, JoinPath(path, child));
    if (!s.ok()) return s;
  }
  return env->RemoveDir(path);
}

}  // namespace test
}  // namespace strata
