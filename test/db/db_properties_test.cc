// The properties that say whether background work is pending or running
// (strata.mem-table-flush-pending, strata.num-running-flushes,
// strata.compaction-pending, strata.num-running-compactions), read while
// a flush is held at the table gate and while a compaction job is held
// before it runs, and once the DB has settled.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "test/db/compaction_test_util.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using test::IntProperty;

// Keeps the compaction pool's jobs from running while holding_ is set.
class HoldCompactionsEnv : public EnvWrapper {
 public:
  explicit HoldCompactionsEnv(Env* target) : EnvWrapper(target) {}

  void Schedule(void (*function)(void*), void* arg, Priority pri, void* tag,
                void (*unschedule)(void*)) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (holding_ && pri == LOW) {
        held_.emplace_back(function, arg);
        cv_.notify_all();
        return;
      }
    }
    EnvWrapper::Schedule(function, arg, pri, tag, unschedule);
  }

  void Hold() {
    std::lock_guard<std::mutex> l(mu_);
    holding_ = true;
  }

  // Until a job is held.
  void AwaitHeld() {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [this] { return !held_.empty(); });
  }

  // Runs the held jobs and stops holding.
  void Release() {
    std::vector<std::pair<void (*)(void*), void*>> jobs;
    {
      std::lock_guard<std::mutex> l(mu_);
      holding_ = false;
      jobs.swap(held_);
    }
    for (const auto& job : jobs) {
      EnvWrapper::Schedule(job.first, job.second, LOW, nullptr, nullptr);
    }
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool holding_ = false;
  std::vector<std::pair<void (*)(void*), void*>> held_;
};

void ExpectIdle(DB* db) {
  EXPECT_EQ(0u, IntProperty(db, "strata.mem-table-flush-pending"));
  EXPECT_EQ(0u, IntProperty(db, "strata.num-running-flushes"));
  EXPECT_EQ(0u, IntProperty(db, "strata.compaction-pending"));
  EXPECT_EQ(0u, IntProperty(db, "strata.num-running-compactions"));
}

TEST(DBPropertiesTest, AFlushHeldAtTheTableGateIsPendingAndRunning) {
  std::unique_ptr<Env> mem(NewMemEnv(Env::Default()));
  test::TableGateEnv gate(mem.get());
  test::DBHolder h(&gate);
  ASSERT_TRUE(h.Open().ok());
  ExpectIdle(h.db());
  ASSERT_TRUE(h.Put("a", "1").ok());
  gate.Open(false);
  FlushOptions no_wait;
  no_wait.wait = false;
  ASSERT_TRUE(h.db()->Flush(no_wait).ok());
  gate.AwaitWaiter();  // the flush is writing its table
  EXPECT_EQ(1u, IntProperty(h.db(), "strata.mem-table-flush-pending"));
  EXPECT_EQ(1u, IntProperty(h.db(), "strata.num-running-flushes"));
  gate.Open(true);
  ASSERT_TRUE(test::Settle(h.db()).ok());
  ExpectIdle(h.db());
  EXPECT_EQ(1u, test::FilesAtLevel(h.db(), 0));
}

TEST(DBPropertiesTest, ACompactionHeldBeforeItRunsIsPendingAndRunning) {
  std::unique_ptr<Env> mem(NewMemEnv(Env::Default()));
  HoldCompactionsEnv env(mem.get());
  test::DBHolder h(&env);
  h.options().level0_file_num_compaction_trigger = 2;
  ASSERT_TRUE(h.Open().ok());
  env.Hold();
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h.Put("b", "2").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  // Two level-0 tables reach the trigger: the compaction is scheduled,
  // and held before it picks its files.
  env.AwaitHeld();
  EXPECT_EQ(1u, IntProperty(h.db(), "strata.compaction-pending"));
  EXPECT_EQ(1u, IntProperty(h.db(), "strata.num-running-compactions"));
  env.Release();
  ASSERT_TRUE(test::Settle(h.db()).ok());
  ExpectIdle(h.db());
  EXPECT_GT(2u, test::FilesAtLevel(h.db(), 0));  // under the trigger again
}

TEST(DBPropertiesTest, NoCompactionIsPendingWhenAutomaticOnesAreOff) {
  test::DBHolder h;
  h.options().level0_file_num_compaction_trigger = 2;
  h.options().disable_auto_compactions = true;
  ASSERT_TRUE(h.Open().ok());
  for (const char* key : {"a", "b", "c"}) {
    ASSERT_TRUE(h.Put(key, "v").ok());
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  ASSERT_TRUE(test::Settle(h.db()).ok());
  EXPECT_EQ(3u, test::FilesAtLevel(h.db(), 0));
  ExpectIdle(h.db());
}

}  // namespace
}  // namespace strata
