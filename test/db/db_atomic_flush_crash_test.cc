// atomic_flush under crashes: a child writes batches spanning three
// column families with the WAL disabled (the flushes are then all that
// survives), flushes every family together now and then, and dies at one
// step of a flush — inside each family's table (mid-write, or just before
// its sync) or at the MANIFEST sync that installs them. After reopening,
// every family must hold the same keys: a flush either shows in every
// family or in none.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/crash_test_util.h"
#include "test/util/subprocess.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

constexpr int kFamilies = 3;
constexpr int kBatchesPerFlush = 50;

std::vector<ColumnFamilyDescriptor> Families(const Options& options) {
  std::vector<ColumnFamilyDescriptor> result = {
      ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)};
  for (int i = 1; i < kFamilies; i++) {
    result.emplace_back("cf" + std::to_string(i), options);
  }
  return result;
}

std::string AtomicFlushKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%08d", i);
  return buf;
}

// Dies at one step of the flushes that run on the HIGH pool once the
// child has armed it: at the n-th table file's first append or sync, or
// at the n-th MANIFEST sync.
class DieInFlushEnv : public test::JobPoolEnv {
 public:
  DieInFlushEnv(Env* target, const std::string& step)
      : JobPoolEnv(target),
        manifest_(step[0] == 'm'),
        at_append_(step.back() == 'a'),
        n_(std::stoi(step.substr(1))) {}
  void Arm() { armed_ = true; }
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    Status s = target()->NewWritableFile(f, r, options);
    if (!s.ok()) return s;
    const bool table = f.size() > 4 && f.compare(f.size() - 4, 4, ".sst") == 0;
    if (!manifest_ && table && armed_ && test::g_job_pool == HIGH &&
        ++count_ == n_) {
      *r = std::make_unique<test::DyingFile>(std::move(*r), at_append_);
    } else if (manifest_ && f.find("MANIFEST-") != std::string::npos) {
      // Every MANIFEST: the flush's edit may go to a new one.
      *r = std::make_unique<test::DyingFile>(
          std::move(*r), /*at_append=*/false, [this]() {
            return armed_ && test::g_job_pool == HIGH && ++count_ == n_;
          });
    }
    return s;
  }

 private:
  const bool manifest_;
  const bool at_append_;
  const int n_;
  std::atomic<bool> armed_{false};
  std::atomic<int> count_{0};
};

// args: db, step ("t<n>" / "t<n>a": the n-th flushed table at its sync /
// first append; "m<n>": the n-th MANIFEST sync of a flush). Writes batch
// i (key i in every family) with the WAL off, flushes every family each
// kBatchesPerFlush batches, forever.
STRATA_TEST_CHILD(AtomicFlushWriter) {
  DieInFlushEnv env(Env::Default(), args.at(1));
  Options options;
  options.env = &env;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.atomic_flush = true;
  DB* db = nullptr;
  std::vector<ColumnFamilyHandle*> handles;
  if (!DB::Open(options, args.at(0), Families(options), &handles, &db).ok()) {
    return 2;
  }
  WriteOptions wo;
  wo.disableWAL = true;
  for (int i = 0;; i++) {
    WriteBatch batch;
    for (ColumnFamilyHandle* h : handles) {
      if (!batch.Put(h, AtomicFlushKey(i), std::to_string(i)).ok()) return 3;
    }
    if (!db->Write(wo, &batch).ok()) return 4;
    if ((i + 1) % kBatchesPerFlush == 0) {
      // The first flushes complete; the dying step is in a later one.
      if (i + 1 == 2 * kBatchesPerFlush) env.Arm();
      if (!db->Flush(FlushOptions(), handles).ok()) return 5;
    }
  }
}

// The keys of a family, in order.
std::vector<std::string> KeysOf(DB* db, ColumnFamilyHandle* h) {
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions(), h));
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    keys.push_back(it->key().ToString());
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return keys;
}

class AtomicFlushCrashTest : public testing::TestWithParam<const char*> {};

TEST_P(AtomicFlushCrashTest, EveryFamilyShowsTheSameFlushes) {
  test::TempDir dir(Env::Default());
  const std::string dbname = dir.File("db");
  // Two rounds: the second dies in a DB that already survived one death.
  for (int round = 0; round < 2; round++) {
    std::unique_ptr<test::Subprocess> child;
    ASSERT_TRUE(test::Subprocess::Start("AtomicFlushWriter",
                                        {dbname, GetParam()}, &child)
                    .ok());
    ASSERT_EQ(test::kDiedOnPurpose, child->Wait()) << "round " << round;

    Options options;
    DB* raw = nullptr;
    std::vector<ColumnFamilyHandle*> handles;
    Status s = DB::Open(options, dbname, Families(options), &handles, &raw);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::unique_ptr<DB> db(raw);
    const std::vector<std::string> first = KeysOf(db.get(), handles[0]);
    // At least the flush before the armed one is there, and whole
    // flushes only.
    EXPECT_GE(first.size(), static_cast<size_t>(kBatchesPerFlush));
    EXPECT_EQ(0u, first.size() % kBatchesPerFlush) << first.size();
    for (int f = 1; f < kFamilies; f++) {
      EXPECT_EQ(first, KeysOf(db.get(), handles[f]))
          << "round " << round << ": family " << f
          << " shows other flushes than the default family";
    }
    for (ColumnFamilyHandle* h : handles) {
      ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
    }
  }
}

// The steps of the armed flush: each family's table mid-write and just
// before its sync, then the MANIFEST sync installing all three.
INSTANTIATE_TEST_SUITE_P(Steps, AtomicFlushCrashTest,
                         testing::Values("t1a", "t1", "t2a", "t2", "t3a", "t3",
                                         "m1"));

}  // namespace
}  // namespace strata
