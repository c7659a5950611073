// VersionSet: LogAndApply then Recover gives the same state (on MemEnv
// and on the default Env), MANIFEST rollover, damaged CURRENT and
// MANIFEST files, crash safety under a fault-injection Env (every I/O of
// a LogAndApply failing in turn, then a power loss), failed writes,
// concurrent LogAndApply calls, and live files of referenced versions.

#include "db/version_set.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/fault_injection_env.h"
#include "test/util/temp_dir.h"
#include "util/logging.h"
#include "util/mutexlock.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr int kLevels = 5;

// The files of a state, level by level, with everything an edit records.
using Model = std::map<uint64_t, std::pair<int, std::string>>;

std::string Describe(const FileMetaData& f) {
  return NumberToString(f.file_size) + " " + EscapeString(f.smallest.Encode()) +
         " " + EscapeString(f.largest.Encode()) + " " +
         NumberToString(f.smallest_seqno) + " " +
         NumberToString(f.largest_seqno);
}

Model StateOf(VersionSet* vs) {
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
      temp_dir_.reset(new test::TempDir(base_env_, "version_set"));
      dir_ = temp_dir_->path() + "/db";
    }
    env_.reset(new test::FaultInjectionEnv(base_env_));
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
    opts.num_levels = levels;
    opts.max_manifest_file_size = max_manifest;
    return std::make_unique<VersionSet>(
        dir_, env_.get(), icmp != nullptr ? icmp : &icmp_, nullptr, opts);
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
  std::unique_ptr<test::TempDir> temp_dir_;
  std::string dir_;
  std::unique_ptr<test::FaultInjectionEnv> env_;
  InternalKeyComparator icmp_;
  port::Mutex mu_;
};

TEST_P(VersionSetTest, ApplyThenRecover) {
  Model model;
  EditGenerator gen(1);
  uint64_t log_number = 0, next_file = 0;
  SequenceNumber last_seq = 0;
  {
    auto vs = NewSet();
    EXPECT_EQ(0u, vs->ManifestFileNumber());
    for (int i = 0; i < 50; i++) {
      VersionEdit edit = gen.Next(vs.get(), &model);
      ASSERT_TRUE(Apply(vs.get(), &edit).ok());
      ASSERT_EQ(model, StateOf(vs.get()));
    }
    EXPECT_NE(0u, vs->ManifestFileNumber());
    EXPECT_TRUE(
        env_->FileExists(DescriptorFileName(dir_, vs->ManifestFileNumber()))
            .ok());
    log_number = vs->LogNumber();
    next_file = vs->NextFileNumberPeek();
    last_seq = vs->LastSequence();
  }
  auto vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(model, StateOf(vs.get()));
  EXPECT_EQ(log_number, vs->LogNumber());
  EXPECT_EQ(last_seq, vs->LastSequence());
  EXPECT_GE(vs->NextFileNumberPeek(), next_file);
  // Every number used stays used.
  for (const auto& f : model) EXPECT_GT(vs->NewFileNumber(), f.first);

  // Recovered, then more edits: a new MANIFEST, and CURRENT follows it.
  const uint64_t old_manifest = vs->ManifestFileNumber();
  VersionEdit edit = gen.Next(vs.get(), &model);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  EXPECT_GT(vs->ManifestFileNumber(), old_manifest);
  vs.reset();
  vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(model, StateOf(vs.get()));
}

TEST_P(VersionSetTest, ManifestRollsOverAtMaxSize) {
  Model model;
  EditGenerator gen(2);
  std::vector<uint64_t> manifests;
  {
    auto vs = NewSet(/*max_manifest=*/300);
    for (int i = 0; i < 100; i++) {
      VersionEdit edit = gen.Next(vs.get(), &model);
      ASSERT_TRUE(Apply(vs.get(), &edit).ok());
      if (manifests.empty() || manifests.back() != vs->ManifestFileNumber()) {
        manifests.push_back(vs->ManifestFileNumber());
      }
    }
  }
  EXPECT_GT(manifests.size(), 5u);
  auto vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(model, StateOf(vs.get()));
  EXPECT_EQ(manifests.back(), vs->ManifestFileNumber());
}

TEST_P(VersionSetTest, DamagedCurrentOrManifest) {
  Model model;
  EditGenerator gen(3);
  uint64_t manifest = 0;
  {
    auto vs = NewSet();
    for (int i = 0; i < 10; i++) {
      VersionEdit edit = gen.Next(vs.get(), &model);
      ASSERT_TRUE(Apply(vs.get(), &edit).ok());
    }
    manifest = vs->ManifestFileNumber();
  }
  const std::string mname = DescriptorFileName(dir_, manifest);
  const std::string base_name = mname.substr(dir_.size() + 1);
  std::string current;
  ASSERT_TRUE(
      ReadFileToString(env_.get(), CurrentFileName(dir_), &current).ok());
  EXPECT_EQ(base_name + "\n", current);

  auto expect = [&](bool corruption, const std::string& needle) {
    auto vs = NewSet();
    Status s = Recover(vs.get());
    EXPECT_FALSE(s.ok());
    EXPECT_TRUE(!corruption || s.IsCorruption()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(needle)) << s.ToString();
    EXPECT_EQ(0, vs->current()->NumFiles(0) + vs->current()->NumFiles(1));
  };
  WriteCurrent("MANIFEST-999999\n");
  expect(true, "MANIFEST-999999");
  WriteCurrent(base_name);  // no newline
  expect(true, "CURRENT");
  WriteCurrent("\n");
  expect(true, "CURRENT");
  WriteCurrent("000005.log\n");
  expect(true, "does not name a MANIFEST");
  WriteCurrent(std::string(10000, 'M'));
  expect(true, "CURRENT");
  ASSERT_TRUE(env_->RemoveFile(CurrentFileName(dir_)).ok());
  {
    auto vs = NewSet();
    EXPECT_FALSE(Recover(vs.get()).ok());
  }
  WriteCurrent(current);

  std::string contents;
  ASSERT_TRUE(ReadFileToString(env_.get(), mname, &contents).ok());
  // Every truncation of the MANIFEST that cuts a record, and a flipped
  // byte in each record's area: Corruption naming the file.
  for (size_t len = 0; len < contents.size(); len += 7) {
    ASSERT_TRUE(
        WriteStringToFile(env_.get(), Slice(contents.data(), len), mname, true)
            .ok());
    auto vs = NewSet();
    Status s = Recover(vs.get());
    if (s.ok()) continue;  // cut at a record boundary: an older state
    EXPECT_TRUE(s.IsCorruption()) << len << " " << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(base_name)) << s.ToString();
  }
  for (size_t pos = 0; pos < contents.size(); pos += 5) {
    std::string flipped = contents;
    flipped[pos] ^= 0x10;
    ASSERT_TRUE(WriteStringToFile(env_.get(), flipped, mname, true).ok());
    auto vs = NewSet();
    Status s = Recover(vs.get());
    EXPECT_TRUE(s.IsCorruption()) << pos << " " << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(base_name)) << s.ToString();
  }
  ASSERT_TRUE(WriteStringToFile(env_.get(), contents, mname, true).ok());
  auto vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(model, StateOf(vs.get()));
}

// Opened with another comparator, or fewer levels than the DB uses.
TEST_P(VersionSetTest, ComparatorAndLevelsChecked) {
  {
    auto vs = NewSet();
    VersionEdit edit;
    edit.AddFile(4, vs->NewFileNumber(), 10, InternalKey("a", 1, kTypeValue),
                 InternalKey("b", 1, kTypeValue), 1, 1);
    ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  }
  class OtherComparator : public Comparator {
   public:
    int Compare(const Slice& a, const Slice& b) const override {
      return BytewiseComparator()->Compare(a, b);
    }
    const char* Name() const override { return "test.OtherComparator"; }
    void FindShortestSeparator(std::string*, const Slice&) const override {}
    void FindShortSuccessor(std::string*) const override {}
  } other;
  InternalKeyComparator other_icmp(&other);
  {
    auto vs = NewSet(1 << 30, &other_icmp);
    Status s = Recover(vs.get());
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("test.OtherComparator"));
    EXPECT_NE(std::string::npos,
              s.ToString().find(BytewiseComparator()->Name()));
  }
  {
    auto vs = NewSet(1 << 30, nullptr, /*levels=*/3);
    Status s = Recover(vs.get());
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("num_levels"));
  }
}

// Power loss after every LogAndApply that returned OK, and an I/O failure
// at each point of the next one followed by a power loss: recovery gives
// every acknowledged edit, and the failed one either wholly or not at all.
TEST_P(VersionSetTest, CrashSafety) {
  int failed_runs = 0;
  // Real fsyncs are slow: every third I/O point on the default Env.
  const uint64_t step = GetParam() ? 1 : 3;
  for (uint64_t fail_at = 1; fail_at < 60; fail_at += step) {
    SCOPED_TRACE("fail_at " + NumberToString(fail_at));
    ASSERT_TRUE(test::RemoveRecursively(env_.get(), dir_).ok());
    ASSERT_TRUE(env_->CreateDirIfMissing(dir_).ok());
    SyncDir();
    env_->ResetState();
    EditGenerator gen(static_cast<uint32_t>(fail_at));
    Model acked, attempted;
    {
      auto vs = NewSet(/*max_manifest=*/400);
      for (int i = 0; i < 12; i++) {
        attempted = acked;
        VersionEdit edit = gen.Next(vs.get(), &attempted);
        if (i == 8) env_->FailNthIO(fail_at, Status::IOError("injected"));
        Status s = Apply(vs.get(), &edit);
        if (!s.ok()) {
          failed_runs++;
          break;
        }
        acked = attempted;
        ASSERT_EQ(acked, StateOf(vs.get()));
      }
      env_->ClearFailures();
      env_->SetFilesystemActive(false);  // the process dies
    }
    ASSERT_TRUE(env_->DropUnsyncedFileData().ok());
    ASSERT_TRUE(env_->DeleteFilesCreatedAfterLastDirSync().ok());
    env_->ResetState();
    env_->SetFilesystemActive(true);
    auto vs = NewSet();
    Status s = Recover(vs.get());
    ASSERT_TRUE(s.ok()) << s.ToString();
    const Model recovered = StateOf(vs.get());
    EXPECT_TRUE(recovered == acked || recovered == attempted);
  }
  EXPECT_GT(failed_runs, 5);  // the failures did hit LogAndApply
}

// A failed write leaves the old version current; the next LogAndApply
// starts a new MANIFEST that does not hold the failed edit.
TEST_P(VersionSetTest, FailedWriteKeepsOldVersion) {
  Model model;
  EditGenerator gen(5);
  auto vs = NewSet();
  VersionEdit edit = gen.Next(vs.get(), &model);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  const Model before = model;
  const uint64_t manifest = vs->ManifestFileNumber();
  Version* v = vs->current();

  Model lost = model;
  VersionEdit failing;
  failing.AddFile(1, vs->NewFileNumber(), 5, InternalKey("x", 1, kTypeValue),
                  InternalKey("y", 1, kTypeValue), 1, 1);
  env_->FailAll(test::IOKind::kSync, Status::IOError("sync failed"));
  Status s = Apply(vs.get(), &failing);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(v, vs->current());
  EXPECT_EQ(before, StateOf(vs.get()));
  env_->ClearFailures();

  edit = gen.Next(vs.get(), &model);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  EXPECT_GT(vs->ManifestFileNumber(), manifest);
  vs.reset();
  vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(model, StateOf(vs.get()));
}

// An edit the builder refuses changes nothing, on disk or in memory.
TEST_P(VersionSetTest, InvalidEditRejected) {
  auto vs = NewSet();
  VersionEdit edit;
  edit.AddFile(1, vs->NewFileNumber(), 5, InternalKey("a", 1, kTypeValue),
               InternalKey("b", 1, kTypeValue), 1, 1);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  const Model before = StateOf(vs.get());
  VersionEdit bad;
  bad.RemoveFile(2, 12345);
  EXPECT_TRUE(Apply(vs.get(), &bad).IsCorruption());
  VersionEdit old_log;
  old_log.SetLogNumber(vs->NextFileNumberPeek() + 10);
  EXPECT_TRUE(Apply(vs.get(), &old_log).IsInvalidArgument());
  EXPECT_EQ(before, StateOf(vs.get()));
  VersionEdit good;
  good.SetLogNumber(vs->NewFileNumber());
  ASSERT_TRUE(Apply(vs.get(), &good).ok());
  const uint64_t log_number = vs->LogNumber();
  VersionEdit back;
  back.SetLogNumber(log_number - 1);
  EXPECT_TRUE(Apply(vs.get(), &back).IsInvalidArgument());
  vs.reset();
  vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(before, StateOf(vs.get()));
  EXPECT_EQ(log_number, vs->LogNumber());
  EXPECT_EQ("files[ 0 1 0 0 0 ]", vs->LevelSummary());
  EXPECT_EQ(1, vs->NumLevelFiles(1));
  EXPECT_EQ(5u, vs->NumLevelBytes(1));
}

// A version a reader holds keeps its files live after newer versions
// dropped them.
TEST_P(VersionSetTest, ReferencedVersionsKeepFilesLive) {
  auto vs = NewSet();
  const uint64_t a = vs->NewFileNumber(), b = vs->NewFileNumber();
  VersionEdit edit;
  edit.AddFile(0, a, 5, InternalKey("a", 1, kTypeValue),
               InternalKey("b", 1, kTypeValue), 1, 1);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  Version* held;
  {
    MutexLock l(&mu_);
    held = vs->current();
    held->Ref();  // as an iterator would
  }
  edit.Clear();
  edit.RemoveFile(0, a);
  edit.AddFile(1, b, 5, InternalKey("a", 1, kTypeValue),
               InternalKey("b", 1, kTypeValue), 1, 1);
  ASSERT_TRUE(Apply(vs.get(), &edit).ok());
  std::vector<uint64_t> live;
  vs->AddLiveFiles(&live);
  std::sort(live.begin(), live.end());
  EXPECT_EQ((std::vector<uint64_t>{a, b}), live);
  {
    MutexLock l(&mu_);
    held->Unref();
  }
  live.clear();
  vs->AddLiveFiles(&live);
  EXPECT_EQ((std::vector<uint64_t>{b}), live);
}

// LogAndApply from several threads: the calls queue up, all land.
TEST_P(VersionSetTest, ConcurrentLogAndApply) {
  Model model;
  port::Mutex model_mu;
  {
    auto vs = NewSet(/*max_manifest=*/2000);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; t++) {
      threads.emplace_back([&, t]() {
        for (int i = 0; i < 25; i++) {
          const uint64_t number = vs->NewFileNumber();
          const std::string key = "t" + NumberToString(number);
          VersionEdit edit;
          FileMetaData f;
          f.number = number;
          f.file_size = t;
          f.smallest = InternalKey(key + "a", 1, kTypeValue);
          f.largest = InternalKey(key + "b", 1, kTypeValue);
          f.smallest_seqno = f.largest_seqno = 1;
          edit.AddFile(t + 1, f);
          ASSERT_TRUE(Apply(vs.get(), &edit).ok());
          MutexLock l(&model_mu);
          model[number] = {t + 1, Describe(f)};
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(model, StateOf(vs.get()));
  }
  auto vs = NewSet();
  ASSERT_TRUE(Recover(vs.get()).ok());
  EXPECT_EQ(model, StateOf(vs.get()));
}

INSTANTIATE_TEST_SUITE_P(Envs, VersionSetTest, testing::Values(true, false),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "MemEnv" : "DefaultEnv";
                         });

}  // namespace
}  // namespace strata
