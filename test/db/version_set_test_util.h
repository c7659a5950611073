// Shared by the VersionSet tests: a model of a version's files, random
// edits that keep the level invariants, and a fixture running on MemEnv
// (param true) or the default Env, wrapped in a fault-injection Env.

#ifndef STRATA_TEST_DB_VERSION_SET_TEST_UTIL_H_
#define STRATA_TEST_DB_VERSION_SET_TEST_UTIL_H_

#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/filename.h"
#include "db/version_set.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/fault_injection_env.h"
#include "test/util/temp_dir.h"
#include "util/logging.h"
#include "util/mutexlock.h"
#include "util/random.h"

namespace strata {
namespace test {

constexpr int kLevels = 5;

// The files of a state, level by level, with everything an edit records.
using Model = std::map<uint64_t, std::pair<int, std::string>>;

inline std::string Describe(const FileMetaData& f) {
  return NumberToString(f.file_size) + " " + EscapeString(f.smallest.Encode()) +
         " " + EscapeString(f.largest.Encode()) + " " +
         NumberToString(f.smallest_seqno) + " " +
         NumberToString(f.largest_seqno);
}

inline Model StateOf(VersionSet* vs) {
  Model m;
  for (int level = 0; level < vs->NumberLevels(); level++) {
    for (const FileMetaData* f : vs->current()->files(level)) {
      m[f->number] = {level, Describe(*f)};
    }
  }
  return m;
}

// Random edits that keep level invariants: every file gets its own key
// range, so files never overlap; some files are removed or moved.
class EditGenerator {
 public:
  explicit EditGenerator(uint32_t seed) : rnd_(seed) {}

  // An edit for vs; applies it to *model too (as it will be if it lands).
  VersionEdit Next(VersionSet* vs, Model* model) {
    VersionEdit edit;
    const int adds = rnd_.Uniform(3);
    for (int i = 0; i < adds; i++) {
      const uint64_t number = vs->NewFileNumber();
      const std::string base = "f" + NumberToString(number);
      FileMetaData f;
      f.number = number;
      f.file_size = rnd_.Uniform(1 << 20);
      f.smallest = InternalKey(base + "a", 5, kTypeValue);
      f.largest = InternalKey(base + "z", 3, kTypeDeletion);
      f.smallest_seqno = 3;
      f.largest_seqno = 5;
      const int level = rnd_.Uniform(kLevels);
      edit.AddFile(level, f);
      (*model)[number] = {level, Describe(f)};
    }
    if (!model->empty() && rnd_.OneIn(2)) {
      auto it = model->begin();
      std::advance(it, rnd_.Uniform(static_cast<int>(model->size())));
      if (it->first < vs->NextFileNumberPeek() && !Added(edit, it->first)) {
        edit.RemoveFile(it->second.first, it->first);
        if (rnd_.OneIn(2)) {  // a move to another level
          const int level = rnd_.Uniform(kLevels);
          FileMetaData f = *FindFile(vs, it->first);
          edit.AddFile(level, f);
          it->second.first = level;
        } else {
          model->erase(it);
        }
      }
    }
    if (rnd_.OneIn(3)) edit.SetLogNumber(vs->NewFileNumber());
    vs->SetLastSequence(vs->LastSequence() + rnd_.Uniform(100));
    return edit;
  }

 private:
  static bool Added(const VersionEdit& edit, uint64_t number) {
    for (const auto& nf : edit.new_files()) {
      if (nf.second.number == number) return true;
    }
    return false;
  }
  static const FileMetaData* FindFile(VersionSet* vs, uint64_t number) {
    for (int level = 0; level < vs->NumberLevels(); level++) {
      for (const FileMetaData* f : vs->current()->files(level)) {
        if (f->number == number) return f;
      }
    }
    return nullptr;
  }

  Random rnd_;
};

class VersionSetTest : public testing::TestWithParam<bool> {
 protected:
  VersionSetTest() : icmp_(BytewiseComparator()) {
    if (GetParam()) {
      mem_env_.reset(NewMemEnv(Env::Default()));
      base_env_ = mem_env_.get();
      dir_ = "/vsdb";
    } else {
      base_env_ = Env::Default();
      temp_dir_.reset(new TempDir(base_env_, "version_set"));
      dir_ = temp_dir_->path() + "/db";
    }
    env_.reset(new FaultInjectionEnv(base_env_));
    EXPECT_TRUE(env_->CreateDirIfMissing(dir_).ok());
    SyncDir();
  }

  void SyncDir() {
    std::unique_ptr<Directory> d;
    ASSERT_TRUE(env_->NewDirectory(dir_, &d).ok());
    ASSERT_TRUE(d->Fsync().ok());
  }

  std::unique_ptr<VersionSet> NewSet(
      uint64_t max_manifest = 1 << 30,
      const InternalKeyComparator* icmp = nullptr, int levels = kLevels) {
    VersionSetOptions opts;
    opts.max_manifest_file_size = max_manifest;
    Options family;
    family.comparator = (icmp != nullptr ? icmp : &icmp_)->user_comparator();
    family.num_levels = levels;
    return std::make_unique<VersionSet>(dir_, env_.get(), opts, family);
  }

  Status Apply(VersionSet* vs, VersionEdit* edit) {
    MutexLock l(&mu_);
    return vs->LogAndApply(edit, &mu_);
  }

  Status Recover(VersionSet* vs) {
    bool save = false;
    Status s = vs->Recover(&save);
    EXPECT_TRUE(!s.ok() || save);
    return s;
  }

  // Writes CURRENT directly.
  void WriteCurrent(const std::string& contents) {
    ASSERT_TRUE(
        WriteStringToFile(env_.get(), contents, CurrentFileName(dir_), true)
            .ok());
  }

  std::unique_ptr<Env> mem_env_;
  Env* base_env_;
  std::unique_ptr<TempDir> temp_dir_;
  std::string dir_;
  std::unique_ptr<FaultInjectionEnv> env_;
  InternalKeyComparator icmp_;
  port::Mutex mu_;
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_VERSION_SET_TEST_UTIL_H_
