#include "util/thread_local.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

// Records every value handed to the handler.
std::mutex g_mu;
std::vector<int> g_cleaned;

void RecordCleanup(void* ptr) {
  int* value = static_cast<int*>(ptr);
  std::lock_guard<std::mutex> l(g_mu);
  g_cleaned.push_back(*value);
  delete value;
}

std::vector<int> TakeCleaned() {
  std::lock_guard<std::mutex> l(g_mu);
  std::vector<int> r;
  r.swap(g_cleaned);
  std::sort(r.begin(), r.end());
  return r;
}

TEST(ThreadLocalTest, EachThreadSeesItsOwnValue) {
  ThreadLocalPtr tls;
  int main_value = 1;
  tls.Reset(&main_value);
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; i++) {
    threads.emplace_back([&tls, &ok, i] {
      int mine = 100 + i;
      if (tls.Get() != nullptr) return;  // starts out null
      tls.Reset(&mine);
      std::this_thread::yield();
      if (tls.Get() == &mine) ok++;
      tls.Reset(nullptr);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(8, ok.load());
  EXPECT_EQ(&main_value, tls.Get());
}

// The requirement behind the Windows .CRT$XLB callback: when a thread that
// stored a value exits, the handler runs for it.
TEST(ThreadLocalTest, CleanupRunsForEveryExitingThread) {
  TakeCleaned();
  ThreadLocalPtr tls(&RecordCleanup);
  const int kThreads = 16;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; i++) {
    threads.emplace_back([&tls, i] {
      if (i % 4 == 3) return;  // never set: nothing to clean
      tls.Reset(new int(i));
    });
  }
  for (auto& t : threads) t.join();
  std::vector<int> expected;
  for (int i = 0; i < kThreads; i++) {
    if (i % 4 != 3) expected.push_back(i);
  }
  // join() returns after the thread's exit hooks ran.
  EXPECT_EQ(expected, TakeCleaned());
}

TEST(ThreadLocalTest, ThreadsTouchingSeveralInstancesCleanEach) {
  TakeCleaned();
  ThreadLocalPtr a(&RecordCleanup), b(&RecordCleanup), c(nullptr);
  std::thread t([&] {
    a.Reset(new int(1));
    b.Reset(new int(2));
    c.Reset(&a);  // no handler: must be left alone
  });
  t.join();
  EXPECT_EQ((std::vector<int>{1, 2}), TakeCleaned());
}

TEST(ThreadLocalTest, ExitedThreadsLeaveTheRegistry) {
  ThreadLocalPtr tls;
  const size_t before = ThreadLocalPtr::TEST_ThreadCount();
  std::thread t([&] {
    tls.Reset(&tls);
    EXPECT_EQ(before + 1, ThreadLocalPtr::TEST_ThreadCount());
  });
  t.join();
  EXPECT_EQ(before, ThreadLocalPtr::TEST_ThreadCount());
}

TEST(ThreadLocalTest, DestroyingTheInstanceCleansLiveThreads) {
  TakeCleaned();
  std::mutex mu;
  std::condition_variable cv;
  int stored = 0;
  bool release = false;
  auto* tls = new ThreadLocalPtr(&RecordCleanup);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; i++) {
    threads.emplace_back([&, i] {
      tls->Reset(new int(10 + i));
      std::unique_lock<std::mutex> l(mu);
      stored++;
      cv.notify_all();
      cv.wait(l, [&] { return release; });
    });
  }
  {
    std::unique_lock<std::mutex> l(mu);
    cv.wait(l, [&] { return stored == 3; });
  }
  delete tls;  // the threads are alive: their values go to the handler now
  EXPECT_EQ((std::vector<int>{10, 11, 12}), TakeCleaned());
  {
    std::lock_guard<std::mutex> l(mu);
    release = true;
  }
  cv.notify_all();
  for (auto& t : threads) t.join();
  EXPECT_TRUE(TakeCleaned().empty());  // nothing cleaned twice
}

std::atomic<bool> g_handler_entered{false};
std::atomic<bool> g_handler_release{false};
std::atomic<bool> g_handler_done{false};

void SlowHandler(void*) {
  g_handler_entered = true;
  while (!g_handler_release) std::this_thread::yield();
  g_handler_done = true;
}

TEST(ThreadLocalTest, DestructorWaitsForHandlersOfExitingThreads) {
  g_handler_entered = false;
  g_handler_release = false;
  g_handler_done = false;
  auto* tls = new ThreadLocalPtr(&SlowHandler);
  int value = 0;
  std::thread exiting([&] { tls->Reset(&value); });
  while (!g_handler_entered) std::this_thread::yield();
  // The exiting thread is inside the handler; the destructor must wait.
  std::atomic<bool> deleted{false};
  std::thread deleter([&] {
    delete tls;
    deleted = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(deleted.load());
  g_handler_release = true;
  deleter.join();
  exiting.join();
  EXPECT_TRUE(g_handler_done.load());
  EXPECT_TRUE(deleted.load());
}

TEST(ThreadLocalTest, SwapAndCompareAndSwap) {
  ThreadLocalPtr tls;
  int a = 1, b = 2;
  EXPECT_EQ(nullptr, tls.Swap(&a));
  EXPECT_EQ(&a, tls.Swap(&b));
  void* expected = &a;
  EXPECT_FALSE(tls.CompareAndSwap(&a, expected));
  EXPECT_EQ(&b, expected);
  EXPECT_TRUE(tls.CompareAndSwap(&a, expected));
  EXPECT_EQ(&a, tls.Get());
}

void Sum(void* value, void* accumulator) {
  *static_cast<int*>(accumulator) += *static_cast<int*>(value);
}

TEST(ThreadLocalTest, ScrapeAndFoldVisitEveryThread) {
  ThreadLocalPtr tls;
  std::mutex mu;
  std::condition_variable cv;
  int stored = 0;
  bool release = false;
  int values[4] = {1, 2, 3, 4};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; i++) {
    threads.emplace_back([&, i] {
      tls.Reset(&values[i]);
      std::unique_lock<std::mutex> l(mu);
      stored++;
      cv.notify_all();
      cv.wait(l, [&] { return release; });
    });
  }
  {
    std::unique_lock<std::mutex> l(mu);
    cv.wait(l, [&] { return stored == 4; });
  }
  int sum = 0;
  tls.Fold(&Sum, &sum);
  EXPECT_EQ(10, sum);
  std::vector<void*> scraped;
  tls.Scrape(&scraped, nullptr);
  std::set<void*> got(scraped.begin(), scraped.end());
  EXPECT_EQ((std::set<void*>{&values[0], &values[1], &values[2], &values[3]}),
            got);
  sum = 0;
  tls.Fold(&Sum, &sum);
  EXPECT_EQ(0, sum);  // all replaced by null
  {
    std::lock_guard<std::mutex> l(mu);
    release = true;
  }
  cv.notify_all();
  for (auto& t : threads) t.join();
}

}  // namespace
}  // namespace strata
