#include "env/thread_pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "gtest/gtest.h"
#include "strata/env.h"

namespace strata {
namespace {

// Polls cond every 10 ms for up to a minute; true once it holds.
template <typename Cond>
bool WaitFor(Cond cond) {
  for (int i = 0; i < 6000 && !cond(); i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return cond();
}

// Blocks jobs until released, and counts how many run at once.
class Gate {
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

  // Waits until n jobs are inside at once (false after a generous timeout).
  bool WaitRunning(int n) {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, std::chrono::seconds(60),
                        [&] { return running_ >= n; });
  }
  bool WaitDone(int n) {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, std::chrono::seconds(60),
                        [&] { return done_ >= n; });
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
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  int running_ = 0;
  int max_running_ = 0;
  int done_ = 0;
};

TEST(ThreadPoolTest, RunsEveryJob) {
  std::atomic<int> count{0};
  {
    ThreadPool pool("t", 2);
    for (int i = 0; i < 100; i++) {
      pool.Schedule([](void* arg) { (*static_cast<std::atomic<int>*>(arg))++; },
                    &count, nullptr, nullptr);
    }
    WaitFor([&] { return count.load() >= 100; });
  }
  EXPECT_EQ(100, count.load());
}

TEST(ThreadPoolTest, ThreadCountBoundsParallelism) {
  ThreadPool pool("t", 1);
  Gate gate;
  for (int i = 0; i < 3; i++)
    pool.Schedule(&Gate::Enter, &gate, nullptr, nullptr);
  ASSERT_TRUE(gate.WaitRunning(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(1, gate.running());  // one thread: one job at a time
  EXPECT_EQ(2u, pool.GetQueueLen());

  pool.SetBackgroundThreads(3);
  EXPECT_EQ(3, pool.GetBackgroundThreads());
  ASSERT_TRUE(gate.WaitRunning(3));  // the new threads pick up the rest
  EXPECT_EQ(0u, pool.GetQueueLen());
  gate.Open();
  ASSERT_TRUE(gate.WaitDone(3));
  EXPECT_EQ(3, gate.max_running());
}

TEST(ThreadPoolTest, ShrinkingLetsExtraThreadsExit) {
  ThreadPool pool("t", 4);
  Gate gate;
  for (int i = 0; i < 4; i++)
    pool.Schedule(&Gate::Enter, &gate, nullptr, nullptr);
  ASSERT_TRUE(gate.WaitRunning(4));
  EXPECT_EQ(4, pool.TEST_LiveThreads());
  pool.SetBackgroundThreads(1);
  gate.Open();
  ASSERT_TRUE(gate.WaitDone(4));
  WaitFor([&] { return pool.TEST_LiveThreads() <= 1; });
  EXPECT_EQ(1, pool.TEST_LiveThreads());
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
  std::atomic<int> ran{0};
  auto count = [](void* arg) { (*static_cast<std::atomic<int>*>(arg))++; };
  auto unsched = [](void*) { g_unscheduled++; };
  pool.Schedule(&Gate::Enter, &gate, &tag_a, nullptr);  // running: stays
  ASSERT_TRUE(gate.WaitRunning(1));
  pool.Schedule(count, &ran, &tag_a, unsched);
  pool.Schedule(count, &ran, &tag_a, unsched);
  pool.Schedule(count, &ran, &tag_b, unsched);
  EXPECT_EQ(2, pool.UnSchedule(&tag_a));
  EXPECT_EQ(2, g_unscheduled);
  EXPECT_EQ(0, pool.UnSchedule(&tag_a));
  gate.Open();
  WaitFor([&] { return ran.load() >= 1; });
  EXPECT_EQ(1, ran.load());  // only tag_b's job ran
}

TEST(ThreadPoolTest, DestructionDropsQueuedJobs) {
  Gate gate;
  g_unscheduled = 0;
  std::atomic<int> ran{0};
  auto* pool = new ThreadPool("t", 1);
  pool->Schedule(&Gate::Enter, &gate, nullptr, nullptr);
  ASSERT_TRUE(gate.WaitRunning(1));
  pool->Schedule([](void* a) { (*static_cast<std::atomic<int>*>(a))++; }, &ran,
                 nullptr, [](void*) { g_unscheduled++; });
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    gate.Open();
  });
  // Drops the queued job and waits for the running one.
  delete pool;
  opener.join();
  EXPECT_EQ(0, ran.load());
  EXPECT_EQ(1, g_unscheduled);
  EXPECT_TRUE(gate.WaitDone(1));
}

TEST(ThreadPoolTest, EnvPoolsAreSeparatePerPriority) {
  Env* env = Env::Default();
  Gate low_gate;
  env->SetBackgroundThreads(1, Env::LOW);
  env->Schedule(&Gate::Enter, &low_gate, Env::LOW);
  ASSERT_TRUE(low_gate.WaitRunning(1));
  // LOW's only thread is busy; HIGH and BOTTOM still run their jobs.
  std::atomic<int> ran{0};
  auto count = [](void* arg) { (*static_cast<std::atomic<int>*>(arg))++; };
  env->Schedule(count, &ran, Env::HIGH);
  env->Schedule(count, &ran, Env::BOTTOM);
  WaitFor([&] { return ran.load() >= 2; });
  EXPECT_EQ(2, ran.load());
  env->Schedule(count, &ran, Env::LOW);
  EXPECT_EQ(1u, env->GetThreadPoolQueueLen(Env::LOW));
  low_gate.Open();
  WaitFor([&] { return ran.load() >= 3; });
  EXPECT_EQ(3, ran.load());
}

TEST(ThreadPoolTest, StartThreadAndWaitForJoin) {
  Env* env = Env::Default();
  std::atomic<int> ran{0};
  for (int i = 0; i < 4; i++) {
    env->StartThread(
        [](void* arg) {
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
