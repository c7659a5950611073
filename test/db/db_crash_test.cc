// Crash tests: a child process writes and acknowledges each write in a
// side file as soon as DB::Put returns; the parent kills it (SIGKILL /
// TerminateProcess) mid-stream, reopens the DB, and checks that every
// acknowledged write survived and that what survived is a prefix of each
// writer's history. The group-writer and overwrite tests run in each
// write mode (test/db/write_modes.h).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/crash_test_util.h"
#include "test/db/write_modes.h"
#include "test/util/subprocess.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

std::string Key(int thread, int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "t%d-%08d", thread, i);
  return buf;
}

std::string AckName(const std::string& dir, int thread) {
  return dir + "/ack" + std::to_string(thread);
}

// Options for a tree that flushes and compacts all the time.
void UseBusyTreeOptions(Options* options) {
  options->write_buffer_size = 16 << 10;
  options->level0_file_num_compaction_trigger = 2;
  options->target_file_size_base = 64 << 10;
  options->max_bytes_for_level_base = 128 << 10;
  options->max_bytes_for_level_multiplier = 2;
  options->compression = kNoCompression;
}

using test::DyingFile;
using test::kDiedOnPurpose;

// Ends the process inside the writing of the n-th table file written on
// one pool, flush outputs (HIGH) or compaction outputs (LOW), counted once
// every writer is Ready (so that each has acknowledged writes by then).
class DieAtTableEnv : public test::JobPoolEnv {
 public:
  DieAtTableEnv(Env* target, Priority pool, int n, bool at_append, int writers)
      : JobPoolEnv(target),
        pool_(pool),
        n_(n),
        at_append_(at_append),
        unready_(writers) {}
  void Ready() { unready_--; }
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    Status s = target()->NewWritableFile(f, r, options);
    if (s.ok() && f.size() > 4 && f.compare(f.size() - 4, 4, ".sst") == 0 &&
        test::g_job_pool == pool_ && unready_.load() <= 0 && ++tables_ == n_) {
      *r = std::make_unique<DyingFile>(std::move(*r), at_append_);
    }
    return s;
  }

 private:
  const Priority pool_;
  const int n_;
  const bool at_append_;
  std::atomic<int> unready_;
  std::atomic<int> tables_{0};
};

// Options in the write mode named name (a child's argument).
Options ModeOptions(const std::string& name) {
  Options options;
  test::WriteMode mode = test::WriteMode::kParallel;
  if (!test::ParseWriteMode(name, &mode)) std::_Exit(6);
  test::SetWriteMode(mode, &options);
  return options;
}

// Runs threads writers until the process is killed: writer t makes write
// i = 0, 1, ... with write(t, i) and appends i to its ack file once it is
// acknowledged. Any error ends the process.
void WriteAndAcknowledgeForever(
    int threads, const std::string& ack_dir,
    const std::function<Status(int t, int i)>& write) {
  std::vector<std::thread> writers;
  for (int t = 0; t < threads; t++) {
    writers.emplace_back([&, t]() {
      std::unique_ptr<WritableFile> ack;
      if (!Env::Default()
               ->NewWritableFile(AckName(ack_dir, t), &ack, EnvOptions())
               .ok()) {
        std::_Exit(3);
      }
      for (int i = 0;; i++) {
        if (!write(t, i).ok()) std::_Exit(4);
        const std::string line = std::to_string(i) + "\n";
        if (!ack->Append(line).ok() || !ack->Flush().ok()) std::_Exit(5);
      }
    });
  }
  for (auto& w : writers) w.join();
}

// args: db, ack directory, threads, sync (0/1), write_buffer_size, write
// mode, and optionally "tree" (UseBusyTreeOptions) and the table to die in
// ("f<n>": the n-th flush output, "c<n>": the n-th compaction output, at
// its first Sync, or at its first Append with a trailing "a"; "0": never).
// Writes forever; each thread appends its index to its ack file after
// each acknowledged Put.
STRATA_TEST_CHILD(CrashWriter) {
  Env* env = Env::Default();
  Options options = ModeOptions(args.at(5));
  options.create_if_missing = true;
  options.write_buffer_size = std::stoul(args.at(4));
  std::unique_ptr<DieAtTableEnv> dying_env;
  if (args.size() > 6 && args.at(6) == "tree") {
    UseBusyTreeOptions(&options);
    const std::string& die = args.at(7);
    if (die != "0") {
      dying_env = std::make_unique<DieAtTableEnv>(
          env, die[0] == 'c' ? Env::LOW : Env::HIGH, std::stoi(die.substr(1)),
          die.back() == 'a', std::stoi(args.at(2)));
      options.env = dying_env.get();
    }
  }
  DB* db = nullptr;
  if (!DB::Open(options, args.at(0), &db).ok()) return 2;
  WriteOptions wo;
  wo.sync = args.at(3) == "1";
  WriteAndAcknowledgeForever(
      std::stoi(args.at(2)), args.at(1), [&](int t, int i) {
        // Writes 0..99 of this writer are acknowledged.
        if (i == 100 && dying_env != nullptr) dying_env->Ready();
        return db->Put(wo, Key(t, i), std::string(50 + i % 200, 'v'));
      });
  return 0;
}

// The highest acknowledged index in an ack file (-1 if none).
int LastAck(Env* env, const std::string& fname) {
  std::string contents;
  if (!ReadFileToString(env, fname, &contents).ok()) return -1;
  // Only whole lines count: the kill may cut the last one.
  const size_t end = contents.rfind('\n');
  if (end == std::string::npos) return -1;
  const size_t start = contents.rfind('\n', end - 1);
  return std::stoi(
      contents.substr(start == std::string::npos ? 0 : start + 1, end));
}

// Whether the DB's info LOG shows a compaction started and not finished
// (the process died inside it).
bool CompactionInFlight(Env* env, const std::string& dbname) {
  std::string log;
  if (!ReadFileToString(env, dbname + "/LOG", &log).ok()) return false;
  auto count = [&log](const char* what) {
    int n = 0;
    for (size_t pos = log.find(what); pos != std::string::npos;
         pos = log.find(what, pos + 1)) {
      n++;
    }
    return n;
  };
  return count("compacting ") > count("compacted to ") + count("moved table ") +
                                    count("compaction to ");
}

enum class Mode {
  kPlain,      // default options, killed from outside
  kBusyTree,   // flushing and compacting all the time, killed from outside
  kDieInTable  // busy tree; the child dies inside a table file's writing
};

// Lets a child writing with threads threads run until each has
// acknowledged target writes (or a generous time limit), then kills it.
void KillOnceAcknowledged(test::Subprocess* child, Env* env,
                          const std::string& ack_dir, int threads, int target) {
  for (int wait = 0; wait < 6000; wait++) {
    int min_ack = target;
    for (int t = 0; t < threads; t++) {
      min_ack = std::min(min_ack, LastAck(env, AckName(ack_dir, t)));
    }
    if (min_ack >= target) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  child->Kill();
  EXPECT_EQ(-1, child->Wait());
}

// Opens the DB a killed child had open.
Status OpenAfterCrash(const Options& options, const std::string& dbname,
                      std::unique_ptr<DB>* db) {
  Status s = DB::Open(options, dbname, db);
  for (int i = 0; i < 500 && s.IsBusy(); i++) {  // Windows: lock release
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    s = DB::Open(options, dbname, db);
  }
  return s;
}

void CrashAndCheck(int threads, bool sync, size_t write_buffer_size, int rounds,
                   Mode mode = Mode::kPlain,
                   test::WriteMode write_mode = test::WriteMode::kParallel) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  const std::string dbname = dir.File("db");
  for (int round = 0; round < rounds; round++) {
    // Each round starts a fresh ack set; keys of earlier rounds are
    // rewritten with the same values, so the checks still hold.
    for (int t = 0; t < threads; t++) env->RemoveFile(AckName(dir.path(), t));
    std::vector<std::string> args = {dbname,
                                     dir.path(),
                                     std::to_string(threads),
                                     sync ? "1" : "0",
                                     std::to_string(write_buffer_size),
                                     test::WriteModeName(write_mode)};
    // Dying rounds: two in flush outputs, then four in compaction outputs,
    // each in a later one; odd rounds die mid-write, even ones just before
    // the table is synced and installed.
    const bool dies_in_compaction = mode == Mode::kDieInTable && round >= 2;
    if (mode != Mode::kPlain) {
      args.push_back("tree");
      std::string die = "0";
      if (mode == Mode::kDieInTable) {
        die = dies_in_compaction ? "c" + std::to_string(round - 1)
                                 : "f" + std::to_string(2 + 2 * round);
        if (round % 2 == 1) die += "a";
      }
      args.push_back(die);
    }
    std::unique_ptr<test::Subprocess> child;
    ASSERT_TRUE(test::Subprocess::Start("CrashWriter", args, &child).ok());
    if (mode == Mode::kDieInTable) {
      EXPECT_EQ(kDiedOnPurpose, child->Wait());
      if (dies_in_compaction) {
        EXPECT_TRUE(CompactionInFlight(env, dbname)) << "round " << round;
      }
    } else {
      // Until every thread has acknowledged a few hundred writes.
      KillOnceAcknowledged(child.get(), env, dir.path(), threads,
                           300 + round * 100);
    }

    std::vector<int> acked(threads);
    for (int t = 0; t < threads; t++) {
      acked[t] = LastAck(env, AckName(dir.path(), t));
      ASSERT_GT(acked[t], 0)
          << "round " << round << ": writer " << t << " never got going";
    }
    Options options = ModeOptions(test::WriteModeName(write_mode));
    if (mode != Mode::kPlain) UseBusyTreeOptions(&options);
    std::unique_ptr<DB> db;
    Status s = OpenAfterCrash(options, dbname, &db);
    ASSERT_TRUE(s.ok()) << s.ToString();
    for (int t = 0; t < threads; t++) {
      std::string value;
      for (int i = 0; i <= acked[t]; i++) {
        s = db->Get(ReadOptions(), Key(t, i), &value);
        ASSERT_TRUE(s.ok()) << "round " << round << ": acknowledged write "
                            << Key(t, i) << " lost: " << s.ToString();
        ASSERT_EQ(std::string(50 + i % 200, 'v'), value);
      }
      // Survivors beyond the acks (written, not yet acknowledged) form a
      // prefix: no hole in a thread's history.
      int i = acked[t] + 1;
      while (db->Get(ReadOptions(), Key(t, i), &value).ok()) i++;
      for (int j = i + 1; j < i + 50; j++) {
        ASSERT_TRUE(db->Get(ReadOptions(), Key(t, j), &value).IsNotFound())
            << "hole before " << Key(t, j);
      }
    }
  }
}

// The value CrashOverwriter writes as its i-th version of a key: i first.
std::string HotValue(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%010d", i);
  return buf + std::string(100, 'o');
}

// args: db, ack directory, threads, write_buffer_size, write mode.
// Thread t overwrites key "hot<t>" forever with HotValue(0), HotValue(1),
// ..., appending i to its ack file once HotValue(i) is acknowledged.
STRATA_TEST_CHILD(CrashOverwriter) {
  Options options = ModeOptions(args.at(4));
  options.create_if_missing = true;
  options.write_buffer_size = std::stoul(args.at(3));
  DB* db = nullptr;
  if (!DB::Open(options, args.at(0), &db).ok()) return 2;
  WriteAndAcknowledgeForever(
      std::stoi(args.at(2)), args.at(1), [&](int t, int i) {
        return db->Put(WriteOptions(), "hot" + std::to_string(t), HotValue(i));
      });
  return 0;
}

// Overwriters killed mid-stream: after recovery each key holds the last
// acknowledged version or the one after it (written, not yet
// acknowledged) -- never an older one, which a replay out of WAL order
// would give.
void CrashAndCheckOverwrites(test::WriteMode write_mode, int rounds) {
  constexpr int kThreads = 4;
  Env* env = Env::Default();
  test::TempDir dir(env);
  const std::string dbname = dir.File("db");
  for (int round = 0; round < rounds; round++) {
    for (int t = 0; t < kThreads; t++) env->RemoveFile(AckName(dir.path(), t));
    // Small memtables: the versions are spread over WALs and tables.
    const std::vector<std::string> args = {
        dbname, dir.path(), std::to_string(kThreads), std::to_string(32 << 10),
        test::WriteModeName(write_mode)};
    std::unique_ptr<test::Subprocess> child;
    ASSERT_TRUE(test::Subprocess::Start("CrashOverwriter", args, &child).ok());
    KillOnceAcknowledged(child.get(), env, dir.path(), kThreads, 500);

    std::unique_ptr<DB> db;
    Status s = OpenAfterCrash(ModeOptions(test::WriteModeName(write_mode)),
                              dbname, &db);
    ASSERT_TRUE(s.ok()) << s.ToString();
    for (int t = 0; t < kThreads; t++) {
      const int acked = LastAck(env, AckName(dir.path(), t));
      ASSERT_GT(acked, 0) << "the writer never got going";
      std::string value;
      s = db->Get(ReadOptions(), "hot" + std::to_string(t), &value);
      ASSERT_TRUE(s.ok()) << s.ToString();
      const int found = std::stoi(value.substr(0, 10));
      EXPECT_EQ(HotValue(found), value);
      EXPECT_GE(found, acked) << "round " << round << ", hot" << t
                              << ": an older version came back";
      EXPECT_LE(found, acked + 1) << "hot" << t << ": a version never written";
    }
  }
}

TEST(DBCrashTest, KilledSingleWriterLosesNoAcknowledgedWrite) {
  CrashAndCheck(1, /*sync=*/false, 4 << 20, 2);
}

class DBCrashWriteModesTest : public testing::TestWithParam<test::WriteMode> {};

TEST_P(DBCrashWriteModesTest, KilledGroupWritersLoseNoAcknowledgedWrite) {
  // Several writers form groups; small memtables switch WALs under load.
  CrashAndCheck(4, /*sync=*/false, 64 << 10, 2, Mode::kPlain, GetParam());
}

TEST_P(DBCrashWriteModesTest, KilledOverwritersRecoverNoOlderVersion) {
  CrashAndCheckOverwrites(GetParam(), 2);
}

INSTANTIATE_TEST_SUITE_P(Modes, DBCrashWriteModesTest,
                         testing::ValuesIn(test::kAllWriteModes),
                         test::WriteModeParamName());

TEST(DBCrashTest, KilledSyncWritersLoseNoAcknowledgedWrite) {
  CrashAndCheck(3, /*sync=*/true, 1 << 20, 1);
}

TEST(DBCrashTest, KilledDuringFlushesAndCompactionsLosesNothing) {
  CrashAndCheck(2, /*sync=*/false, 16 << 10, 3, Mode::kBusyTree);
}

TEST(DBCrashTest, DyingInsideTableWritesLosesNothing) {
  // Each round dies in a later table: flush outputs first, then
  // compaction outputs, mid-write or just before the sync.
  CrashAndCheck(2, /*sync=*/false, 16 << 10, 6, Mode::kDieInTable);
}

}  // namespace
}  // namespace strata
