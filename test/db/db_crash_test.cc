// Crash tests: a child process writes and acknowledges each write in a
// side file as soon as DB::Put returns; the parent kills it (SIGKILL /
// TerminateProcess) mid-stream, reopens the DB, and checks that every
// acknowledged write survived and that what survived is a prefix of each
// writer's history.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
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

// args: db, ack directory, threads, sync (0/1), write_buffer_size.
// Writes forever; each thread appends its index to its ack file after
// each acknowledged Put.
STRATA_TEST_CHILD(CrashWriter) {
  Env* env = Env::Default();
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = std::stoul(args.at(4));
  DB* db = nullptr;
  if (!DB::Open(options, args.at(0), &db).ok()) return 2;
  const int threads = std::stoi(args.at(2));
  WriteOptions wo;
  wo.sync = args.at(3) == "1";
  std::vector<std::thread> writers;
  for (int t = 0; t < threads; t++) {
    writers.emplace_back([&, t]() {
      std::unique_ptr<WritableFile> ack;
      if (!env->NewWritableFile(AckName(args.at(1), t), &ack, EnvOptions())
               .ok()) {
        std::_Exit(3);
      }
      for (int i = 0;; i++) {
        if (!db->Put(wo, Key(t, i), std::string(50 + i % 200, 'v')).ok()) {
          std::_Exit(4);
        }
        const std::string line = std::to_string(i) + "\n";
        if (!ack->Append(line).ok() || !ack->Flush().ok()) std::_Exit(5);
      }
    });
  }
  for (auto& w : writers) w.join();
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

void CrashAndCheck(int threads, bool sync, size_t write_buffer_size,
                   int rounds) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  const std::string dbname = dir.File("db");
  for (int round = 0; round < rounds; round++) {
    // Each round starts a fresh ack set; keys of earlier rounds are
    // rewritten with the same values, so the checks still hold.
    for (int t = 0; t < threads; t++) env->RemoveFile(AckName(dir.path(), t));
    std::unique_ptr<test::Subprocess> child;
    ASSERT_TRUE(test::Subprocess::Start(
                    "CrashWriter",
                    {dbname, dir.path(), std::to_string(threads),
                     sync ? "1" : "0", std::to_string(write_buffer_size)},
                    &child)
                    .ok());
    // Let it write a while: until every thread has acknowledged a few
    // hundred writes (or a generous time limit).
    const int target = 300 + round * 100;
    for (int wait = 0; wait < 6000; wait++) {
      int min_ack = target;
      for (int t = 0; t < threads; t++) {
        min_ack = std::min(min_ack, LastAck(env, AckName(dir.path(), t)));
      }
      if (min_ack >= target) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    child->Kill();
    EXPECT_EQ(-1, child->Wait());

    std::vector<int> acked(threads);
    for (int t = 0; t < threads; t++) {
      acked[t] = LastAck(env, AckName(dir.path(), t));
      ASSERT_GT(acked[t], 0) << "the writer never got going";
    }
    Options options;
    std::unique_ptr<DB> db;
    Status s = DB::Open(options, dbname, &db);
    for (int i = 0; i < 500 && s.IsBusy(); i++) {  // Windows: lock release
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      s = DB::Open(options, dbname, &db);
    }
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

TEST(DBCrashTest, KilledSingleWriterLosesNoAcknowledgedWrite) {
  CrashAndCheck(1, /*sync=*/false, 4 << 20, 2);
}

TEST(DBCrashTest, KilledGroupWritersLoseNoAcknowledgedWrite) {
  // Several writers form groups; small memtables switch WALs under load.
  CrashAndCheck(4, /*sync=*/false, 64 << 10, 2);
}

TEST(DBCrashTest, KilledSyncWritersLoseNoAcknowledgedWrite) {
  CrashAndCheck(3, /*sync=*/true, 1 << 20, 1);
}

}  // namespace
}  // namespace strata
