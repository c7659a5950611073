#include "env/thread_pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "gtest/gtest.h"
#include "strata/env.h"
#include "util/thread_local.h"

namespace strata {
namespace {

// A mutex and a condition variable whose waits are bounded: a test
// waiting for a state that never comes fails instead of hanging.
class Monitor {
 protected:
  template <typename Condition>
  bool WaitUntil(Condition condition) {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, std::chrono::seconds(60), condition);
  }

  std::mutex mu_;
  std::condition_variable cv_;
};

// A count that jobs raise and the test waits on.
class Counter : private Monitor {
 public:
  static void Bump(void* arg) { static_cast<Counter*>(arg)->Add(); }

  void Add() {
    std::lock_guard<std::mutex> l(mu_);
    n_++;
    cv_.notify_all();
  }
  // Until the count reaches n (false after a generous timeout).
  bool WaitFor(int n) {
    return WaitUntil([&] { return n_ >= n; });
  }
  int value() {
    std::lock_guard<std::mutex> l(mu_);
    return n_;
  }

 private:
  int n_ = 0;
};

// Blocks jobs until released, and counts how many run at once.
class Gate : private Monitor {
 public:
  static void Enter(void* arg) { static_cast<Gate*>(arg)->Run(); }

  void Run() {
    std::unique_lock<std::mutex> l(mu_);
    running_++;
    if (running_ > max_running_) max_running_ = running_;
    cv_.notify_all();
    cv_.wait(l, [this] { return open_; });
    running_--;
    done_++;
    cv_.notify_all();
  }

  // Until n jobs are inside at once (false after a generous timeout).
  bool WaitRunning(int n) {
    return WaitUntil([&] { return running_ >= n; });
  }
  bool WaitDone(int n) {
    return WaitUntil([&] { return done_ >= n; });
  }
  void Open() {
    std::lock_guard<std::mutex> l(mu_);
    open_ = true;
    cv_.notify_all();
  }
  int max_running() {
    std::lock_guard<std::mutex> l(mu_);
    return max_running_;
  }
  int running() {
    std::lock_guard<std::mutex> l(mu_);
    return running_;
  }

 private:
  bool open_ = false;
  int running_ = 0;
  int max_running_ = 0;
  int done_ = 0;
};

TEST(ThreadPoolTest, RunsEveryJob) {
  Counter count;
  {
    ThreadPool pool("t", 2);
    for (int i = 0; i < 100; i++) {
      pool.Schedule(&Counter::Bump, &count, nullptr, nullptr);
    }
    // Destruction drops queued jobs: wait for all of them first.
    EXPECT_TRUE(count.WaitFor(100));
  }
  EXPECT_EQ(100, count.value());
}

TEST(ThreadPoolTest, ThreadCountBoundsParallelism) {
  ThreadPool pool("t", 1);
  Gate gate;
  for (int i = 0; i < 3; i++)
    pool.Schedule(&Gate::Enter, &gate, nullptr, nullptr);
  ASSERT_TRUE(gate.WaitRunning(1));
  // Threads start in Schedule, so a second one would exist by now; and
  // with one job inside the gate and two queued, all three are accounted
  // for.
  EXPECT_EQ(1, pool.TEST_LiveThreads());
  EXPECT_EQ(2u, pool.GetQueueLen());
  EXPECT_EQ(1, gate.running());

  pool.SetBackgroundThreads(3);
  EXPECT_EQ(3, pool.GetBackgroundThreads());
  ASSERT_TRUE(gate.WaitRunning(3));  // the new threads pick up the rest
  EXPECT_EQ(0u, pool.GetQueueLen());
  gate.Open();
  ASSERT_TRUE(gate.WaitDone(3));
  EXPECT_EQ(3, gate.max_running());
}

TEST(ThreadPoolTest, ShrinkingLetsExtraThreadsExit) {
  // Each job marks its thread so that the thread's exit is counted: a
  // ThreadLocalPtr hands a thread's value to its handler as the thread
  // exits, after it has left the pool. (Declared before the pool, so that
  // the last thread's exit finds it alive.)
  struct Shrink {
    Gate gate;
    Counter exits;
    ThreadLocalPtr marks{[](void* s) { static_cast<Shrink*>(s)->exits.Add(); }};
  } shrink;
  auto mark_and_enter = [](void* arg) {
    Shrink* s = static_cast<Shrink*>(arg);
    s->marks.Reset(s);
    s->gate.Run();
  };
  ThreadPool pool("t", 4);
  for (int i = 0; i < 4; i++) {
    pool.Schedule(mark_and_enter, &shrink, nullptr, nullptr);
  }
  ASSERT_TRUE(shrink.gate.WaitRunning(4));  // on four threads at once
  EXPECT_EQ(4, pool.TEST_LiveThreads());
  pool.SetBackgroundThreads(1);
  shrink.gate.Open();
  ASSERT_TRUE(shrink.exits.WaitFor(3))
      << "threads left: " << pool.TEST_LiveThreads();
  EXPECT_EQ(1, pool.TEST_LiveThreads());
  EXPECT_EQ(3, shrink.exits.value());
  pool.IncBackgroundThreadsIfNeeded(2);
  EXPECT_EQ(2, pool.GetBackgroundThreads());
  pool.IncBackgroundThreadsIfNeeded(1);  // never lowers
  EXPECT_EQ(2, pool.GetBackgroundThreads());
}

int g_unscheduled = 0;

TEST(ThreadPoolTest, UnScheduleRemovesWaitingJobsOnly) {
  g_unscheduled = 0;
  ThreadPool pool("t", 1);
  Gate gate;
  int tag_a = 0, tag_b = 0;
  Counter ran, last;
  auto unsched = [](void*) { g_unscheduled++; };
  pool.Schedule(&Gate::Enter, &gate, &tag_a, nullptr);  // running: stays
  ASSERT_TRUE(gate.WaitRunning(1));
  pool.Schedule(&Counter::Bump, &ran, &tag_a, unsched);
  pool.Schedule(&Counter::Bump, &ran, &tag_a, unsched);
  pool.Schedule(&Counter::Bump, &ran, &tag_b, unsched);
  pool.Schedule(&Counter::Bump, &last, nullptr, nullptr);
  EXPECT_EQ(2, pool.UnSchedule(&tag_a));
  EXPECT_EQ(2, g_unscheduled);
  EXPECT_EQ(0, pool.UnSchedule(&tag_a));
  gate.Open();
  // One thread runs the queue in order: once the last job ran, every job
  // left before it did.
  ASSERT_TRUE(last.WaitFor(1));
  EXPECT_EQ(1, ran.value());  // only tag_b's job ran
}

TEST(ThreadPoolTest, DestructionDropsQueuedJobs) {
  // The queued job's unschedule function opens the gate: the running job
  // can only finish once the destructor has dropped the queue.
  struct Queued {
    Counter ran;
    Counter dropped;
  } queued;
  Gate gate;
  auto* pool = new ThreadPool("t", 1);
  pool->Schedule(&Gate::Enter, &gate, nullptr, nullptr);
  ASSERT_TRUE(gate.WaitRunning(1));
  pool->Schedule([](void* a) { static_cast<Queued*>(a)->ran.Add(); }, &queued,
                 nullptr,
                 [](void* a) { static_cast<Queued*>(a)->dropped.Add(); });
  std::thread opener([&] {
    // A destructor that ran the job instead would otherwise hang.
    EXPECT_TRUE(queued.dropped.WaitFor(1));
    gate.Open();
  });
  // Drops the queued job and waits for the running one.
  delete pool;
  opener.join();
  EXPECT_EQ(0, queued.ran.value());
  EXPECT_EQ(1, queued.dropped.value());
  EXPECT_TRUE(gate.WaitDone(1));
}

TEST(ThreadPoolTest, JoinWhenIdleRunsQueuedJobsThenJoinsEveryThread) {
  ThreadPool pool("t", 2);
  Gate gate;
  Counter ran;
  pool.Schedule(&Gate::Enter, &gate, nullptr, nullptr);
  pool.Schedule(&Gate::Enter, &gate, nullptr, nullptr);
  ASSERT_TRUE(gate.WaitRunning(2));
  for (int i = 0; i < 3; i++) {
    pool.Schedule(&Counter::Bump, &ran, nullptr, nullptr);
  }
  // Whether the gate opens before or after the join starts, the join must
  // wait for both running jobs and the three queued behind them.
  std::thread opener([&] { gate.Open(); });
  pool.JoinWhenIdle();
  opener.join();
  EXPECT_TRUE(gate.WaitDone(2));
  EXPECT_EQ(3, ran.value());
  EXPECT_EQ(0u, pool.GetQueueLen());
  EXPECT_EQ(0, pool.TEST_LiveThreads());
  // The pool is still usable: the next job starts threads again.
  pool.Schedule(&Counter::Bump, &ran, nullptr, nullptr);
  EXPECT_TRUE(ran.WaitFor(4));
  EXPECT_LT(0, pool.TEST_LiveThreads());
  pool.JoinWhenIdle();
  EXPECT_EQ(0, pool.TEST_LiveThreads());
}

TEST(ThreadPoolTest, JoinWhenIdleFromOwnJobReturns) {
  struct Self {
    ThreadPool* pool;
    Counter returned;
  };
  ThreadPool pool("t", 1);
  Self self{&pool, {}};
  pool.Schedule(
      [](void* arg) {
        Self* s = static_cast<Self*>(arg);
        s->pool->JoinWhenIdle();  // its own thread: must not wait on itself
        s->returned.Add();
      },
      &self, nullptr, nullptr);
  EXPECT_TRUE(self.returned.WaitFor(1));
  pool.JoinWhenIdle();
  EXPECT_EQ(0, pool.TEST_LiveThreads());
}

TEST(ThreadPoolTest, WaitForJoinWaitsForPoolJobs) {
  Env* env = Env::Default();
  env->SetBackgroundThreads(1, Env::LOW);
  Gate gate;
  Counter ran;
  env->Schedule(&Gate::Enter, &gate, Env::LOW);
  ASSERT_TRUE(gate.WaitRunning(1));
  // Many jobs queued behind the gate, so that a WaitForJoin returning
  // without waiting for them would all but surely see some not yet run.
  const int kQueued = 1000;
  for (int i = 0; i < kQueued; i++) {
    env->Schedule(&Counter::Bump, &ran, Env::LOW);
  }
  env->Schedule(&Counter::Bump, &ran, Env::HIGH);
  std::thread opener([&] { gate.Open(); });
  env->WaitForJoin();
  EXPECT_EQ(kQueued + 1, ran.value());
  opener.join();
  EXPECT_EQ(0u, env->GetThreadPoolQueueLen(Env::LOW));
}

TEST(ThreadPoolTest, EnvPoolsAreSeparatePerPriority) {
  Env* env = Env::Default();
  Gate low_gate;
  env->SetBackgroundThreads(1, Env::LOW);
  env->Schedule(&Gate::Enter, &low_gate, Env::LOW);
  ASSERT_TRUE(low_gate.WaitRunning(1));
  // LOW's only thread is busy; HIGH and BOTTOM still run their jobs.
  Counter ran;
  env->Schedule(&Counter::Bump, &ran, Env::HIGH);
  env->Schedule(&Counter::Bump, &ran, Env::BOTTOM);
  EXPECT_TRUE(ran.WaitFor(2));
  env->Schedule(&Counter::Bump, &ran, Env::LOW);
  EXPECT_EQ(1u, env->GetThreadPoolQueueLen(Env::LOW));
  EXPECT_EQ(2, ran.value());
  low_gate.Open();
  EXPECT_TRUE(ran.WaitFor(3));
  EXPECT_EQ(3, ran.value());
}

TEST(ThreadPoolTest, StartThreadAndWaitForJoin) {
  Env* env = Env::Default();
  std::atomic<int> ran{0};
  for (int i = 0; i < 4; i++) {
    env->StartThread(
        [](void* arg) {
          // Keeps the threads running while WaitForJoin starts, so that
          // returning early would show; the outcome does not depend on it.
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          (*static_cast<std::atomic<int>*>(arg))++;
        },
        &ran);
  }
  env->WaitForJoin();
  EXPECT_EQ(4, ran.load());
}

}  // namespace
}  // namespace strata
