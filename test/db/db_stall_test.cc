// Write stalls in the DB: level-0 files at the slowdown and stop triggers
// slow or stop writers until compactions drain L0; the triggers kept in
// order; Close ending a stopped write.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/statistics.h"
#include "test/db/compaction_test_util.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::DBHolder;
using test::FilesAtLevel;
using test::Key;

// Occupies every thread of env's LOW pool until released (or destroyed),
// so no compaction can start.
class LowPoolBlocker {
 public:
  explicit LowPoolBlocker(Env* env) {
    const int threads = env->GetBackgroundThreads(Env::LOW);
    for (int i = 0; i < threads; i++) env->Schedule(&Block, this, Env::LOW);
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return blocked_ == threads; });
  }
  ~LowPoolBlocker() { Release(); }

  void Release() {
    std::lock_guard<std::mutex> l(mu_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  static void Block(void* arg) {
    auto* self = static_cast<LowPoolBlocker*>(arg);
    std::unique_lock<std::mutex> l(self->mu_);
    self->blocked_++;
    self->cv_.notify_all();
    self->cv_.wait(l, [self] { return self->released_; });
  }

  std::mutex mu_;
  std::condition_variable cv_;
  int blocked_ = 0;
  bool released_ = false;
};

// Counts the write groups of db that begin to wait out stopped writes.
// REQUIRES: created before any write; outlives every write to db.
class StopWaits {
 public:
  explicit StopWaits(DB* db) {
    static_cast<DBImpl*>(db)->TEST_SetWriteStopWaitCallback([this] {
      std::lock_guard<std::mutex> l(mu_);
      waits_++;
      cv_.notify_all();
    });
  }

  // Until a group waits (false after a generous timeout).
  bool Await() {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, std::chrono::seconds(60),
                        [this] { return waits_ > 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int waits_ = 0;
};

TEST(DBStallTest, Level0StallsWritesUntilCompactionsCatchUp) {
  DBHolder h;
  h.options().level0_file_num_compaction_trigger = 2;
  h.options().level0_slowdown_writes_trigger = 3;
  h.options().level0_stop_writes_trigger = 4;
  h.options().statistics = CreateDBStatistics();
  ASSERT_TRUE(h.Open().ok());
  StopWaits stops(h.db());
  LowPoolBlocker blocker(h.env());
  for (int i = 0; i < 4; i++) {
    ASSERT_TRUE(h.Put(Key(i), "v").ok());
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  ASSERT_EQ(4u, FilesAtLevel(h.db(), 0));  // the stop trigger

  WriteOptions no_slowdown;
  no_slowdown.no_slowdown = true;
  EXPECT_TRUE(h.db()->Put(no_slowdown, "x", "v").IsIncomplete());
  std::atomic<bool> done{false};
  std::thread writer([&] {
    EXPECT_TRUE(h.Put("y", "v").ok());
    done = true;
  });
  EXPECT_TRUE(stops.Await()) << "a write went through a stopped L0";
  EXPECT_FALSE(done.load());
  blocker.Release();  // the compaction runs, L0 drains, the writer goes on
  writer.join();
  EXPECT_TRUE(done.load());
  EXPECT_EQ("v", h.Get("y"));
  EXPECT_EQ("NOT_FOUND", h.Get("x"));
  EXPECT_LT(FilesAtLevel(h.db(), 0), 4u);
  EXPECT_GT(h.options().statistics->getTickerCount(STALL_MICROS), 0u);
}

TEST(DBStallTest, CloseEndsAWriteStoppedOnL0) {
  DBHolder h;
  h.options().level0_file_num_compaction_trigger = 2;
  h.options().level0_slowdown_writes_trigger = 3;
  h.options().level0_stop_writes_trigger = 4;
  ASSERT_TRUE(h.Open().ok());
  StopWaits stops(h.db());
  LowPoolBlocker blocker(h.env());
  for (int i = 0; i < 4; i++) {
    ASSERT_TRUE(h.Put(Key(i), "v").ok());
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  Status put;
  std::atomic<bool> put_done{false};
  std::thread writer([&] {
    put = h.Put("y", "v");
    put_done = true;
  });
  // The write must be stopped on L0 before Close begins (else Close
  // would turn it away at the door, and this would test nothing).
  if (!stops.Await()) {
    blocker.Release();
    writer.join();
    FAIL() << "the write was not stopped: " << put.ToString();
  }
  EXPECT_FALSE(put_done.load());
  Status closed;
  std::thread closer([&] { closed = h.db()->Close(); });
  // Close gives up the stopped write (no compaction may start any more);
  // then it waits for the compaction queued behind the blocker.
  writer.join();
  EXPECT_TRUE(put.IsShutdownInProgress()) << put.ToString();
  blocker.Release();
  closer.join();
  EXPECT_TRUE(closed.ok()) << closed.ToString();
  h.Close();
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("v", h.Get(Key(3)));
}

TEST(DBStallTest, StallTriggersBelowTheCompactionTriggerAreRaised) {
  DBHolder h;
  h.options().level0_file_num_compaction_trigger = 8;
  h.options().level0_slowdown_writes_trigger = 2;
  h.options().level0_stop_writes_trigger = 3;
  ASSERT_TRUE(h.Open().ok());
  for (int i = 0; i < 3; i++) {
    ASSERT_TRUE(h.Put(Key(i), "v").ok());
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  ASSERT_EQ(3u, FilesAtLevel(h.db(), 0));  // below 8: no compaction
  // Stopping here would wait for a compaction that never comes.
  WriteOptions no_slowdown;
  no_slowdown.no_slowdown = true;
  EXPECT_TRUE(h.db()->Put(no_slowdown, "x", "v").ok());
}

}  // namespace
}  // namespace strata
