// A secondary instance following a primary in another process that keeps
// writing, flushing and compacting: after every TryCatchUpWithPrimary it
// sees a prefix of the primary's writes that holds every write the primary
// had acknowledged before the catch-up began.
//
// The primary writes key i -> Value(i) for i = 0, 1, ... one at a time
// (so a prefix of its writes is the keys below some n) and, every
// kAckEvery keys, records in a side file how many it has written. It runs
// for STRATA_SECONDARY_FOLLOW_SECONDS seconds (default 3; 30 is the long
// form).

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "test/util/subprocess.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

constexpr int kAckEvery = 50;

std::string Key(long i) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "key%010ld", i);
  return buf;
}

std::string Value(long i) { return Key(i) + std::string(80, 'v'); }

// Small memtables and levels, so the primary flushes and compacts often.
Options PrimaryOptions() {
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;
  options.level0_file_num_compaction_trigger = 2;
  options.max_bytes_for_level_base = 256 << 10;
  options.target_file_size_base = 64 << 10;
  return options;
}

// The count the primary acknowledged last (-1 if none yet).
long ReadAck(const std::string& fname) {
  std::string data;
  if (!ReadFileToString(Env::Default(), fname, &data).ok() || data.empty()) {
    return -1;
  }
  return std::strtol(data.c_str(), nullptr, 10);
}

// Records count through a temporary file and a rename, so a reader never
// sees half of it. (The rename replaces a file the reader may have open:
// on Windows without the POSIX rename, Wine's included, the Env tries
// such a rename again for a while.)
bool WriteAck(const std::string& fname, long count) {
  const std::string tmp = fname + ".tmp";
  return WriteStringToFile(Env::Default(), std::to_string(count), tmp).ok() &&
         Env::Default()->RenameFile(tmp, fname).ok();
}

// args: DB, ack file, seconds.
STRATA_TEST_CHILD(WritingPrimary) {
  DB* db = nullptr;
  if (!DB::Open(PrimaryOptions(), args.at(0), &db).ok()) return 2;
  const auto end = std::chrono::steady_clock::now() +
                   std::chrono::seconds(std::stoi(args.at(2)));
  long i = 0;
  while (std::chrono::steady_clock::now() < end) {
    if (!db->Put(WriteOptions(), Key(i), Value(i)).ok()) return 3;
    i++;
    if (i % kAckEvery == 0) {
      if (!WriteAck(args.at(1), i)) return 4;
      // Bounds the keys each check scans.
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  const bool closed = db->Close().ok();
  delete db;
  if (!closed) return 5;
  return WriteAck(args.at(1), i) ? 0 : 4;
}

int FollowSeconds() {
  const char* e = std::getenv("STRATA_SECONDARY_FOLLOW_SECONDS");
  const int seconds = e != nullptr ? std::atoi(e) : 0;
  return seconds > 0 ? seconds : 3;
}

// The number of keys db holds, checking they are 0, 1, ... n-1 with their
// values: a prefix.
long CheckPrefix(DB* db) {
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  long n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    EXPECT_EQ(Key(n), it->key().ToString());
    EXPECT_EQ(Value(n), it->value().ToString());
    if (Key(n) != it->key().ToString()) return -1;
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return n;
}

TEST(SecondaryFollowTest, SeesAPrefixOfTheAcknowledgedWrites) {
  test::TempDir dir(Env::Default(), "secondary_follow");
  const std::string name = dir.File("db");
  const std::string ack = dir.File("ack");
  const int seconds = FollowSeconds();
  std::unique_ptr<test::Subprocess> child;
  ASSERT_TRUE(test::Subprocess::Start("WritingPrimary",
                                      {name, ack, std::to_string(seconds)},
                                      &child)
                  .ok());
  // The primary has created its DB once it acknowledges writes.
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (ReadAck(ack) < 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GE(ReadAck(ack), 0) << "the primary never wrote";
  Options options;
  DB* db = nullptr;
  Status s = DB::OpenAsSecondary(options, name, dir.File("secondary"), &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<DB> owner(db);

  // The child is waited for beside the checks.
  std::atomic<int> exit_code{-2};
  std::thread waiter([&]() { exit_code = child->Wait(); });
  long last = CheckPrefix(db);
  int catch_ups = 0;
  std::string failure;
  while (failure.empty() && exit_code.load() == -2) {
    const long acked = ReadAck(ack);
    s = db->TryCatchUpWithPrimary();
    catch_ups++;
    const std::string when = " at catch-up " + std::to_string(catch_ups);
    if (!s.ok()) {
      failure = s.ToString() + when;
      break;
    }
    const long n = CheckPrefix(db);
    std::string value;
    if (n < acked) {
      failure = "sees " + std::to_string(n) + " writes of the " +
                std::to_string(acked) + " acknowledged" + when;
    } else if (n < last) {
      failure = "went back from " + std::to_string(last) + " writes to " +
                std::to_string(n) + when;
    } else if (n > 0 && !db->Get(ReadOptions(), Key(n - 1), &value).ok()) {
      failure = "no " + Key(n - 1) + when;
    } else if (!db->Get(ReadOptions(), Key(n), &value).IsNotFound()) {
      failure = Key(n) + " read but not iterated" + when;
    }
    last = n;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  waiter.join();
  ASSERT_TRUE(failure.empty()) << failure;
  ASSERT_EQ(0, exit_code.load());
  // The primary closed, its last count recorded: all of it is seen.
  ASSERT_TRUE(db->TryCatchUpWithPrimary().ok());
  const long total = ReadAck(ack);
  EXPECT_EQ(total, CheckPrefix(db));
  // Each check scans every key written so far: the long form makes fewer
  // catch-ups per second as the DB grows.
  EXPECT_GE(catch_ups, 5) << "too few catch-ups to test anything";
  std::printf("followed %ld writes over %d catch-ups\n", total, catch_ups);
  std::string level1;
  ASSERT_TRUE(db->GetProperty("strata.num-files-at-level1", &level1));
  EXPECT_NE("0", level1) << "the primary never compacted";
}

}  // namespace
}  // namespace strata
