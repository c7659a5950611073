#include "port/port.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "port/port_dirent.h"
#include "port/sys_time.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"
#include "util/mutexlock.h"

namespace strata {
namespace port {
namespace {

TEST(PortTest, MutexExcludes) {
  Mutex mu;
  int counter = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; i++) {
        MutexLock l(&mu);
        counter++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(80000, counter);
}

TEST(PortTest, TryLock) {
  Mutex mu;
  ASSERT_TRUE(mu.TryLock());
  mu.AssertHeld();
  std::thread t([&] { EXPECT_FALSE(mu.TryLock()); });
  t.join();
  mu.Unlock();
  ASSERT_TRUE(mu.TryLock());
  mu.AssertHeld();  // the analysis cannot see TryLock's result in ASSERT
  mu.Unlock();
}

TEST(PortTest, CondVarSignalWakesWaiter) {
  Mutex mu;
  CondVar cv(&mu);
  bool ready = false;
  std::thread t([&] {
    MutexLock l(&mu);
    ready = true;
    cv.Signal();
  });
  {
    MutexLock l(&mu);
    while (!ready) cv.Wait();
    mu.AssertHeld();
  }
  t.join();
}

TEST(PortTest, CondVarTimedWaitTimesOut) {
  Mutex mu;
  CondVar cv(&mu);
  MutexLock l(&mu);
  const auto start = std::chrono::steady_clock::now();
  bool timed_out = false;
  // Spurious wake-ups are allowed; a timeout must come within reason.
  for (int i = 0; i < 100 && !timed_out; i++) timed_out = cv.TimedWait(20000);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(timed_out);
  EXPECT_GE(waited, std::chrono::milliseconds(15));
}

TEST(PortTest, CondVarTimedWaitReturnsEarlyWhenSignalled) {
  Mutex mu;
  CondVar cv(&mu);
  bool waiting = false;  // the waiter is inside TimedWait
  bool ready = false;
  std::thread t([&] {
    // waiting is set under mu just before TimedWait, which releases mu
    // atomically: once this thread holds mu and sees it, the waiter waits.
    for (;;) {
      {
        MutexLock l(&mu);
        if (waiting) {
          ready = true;
          cv.SignalAll();
          return;
        }
      }
      std::this_thread::yield();
    }
  });
  int waits = 0;
  {
    MutexLock l(&mu);
    // Ten minutes: only the signal can end this wait in time.
    while (!ready) {
      waiting = true;
      EXPECT_FALSE(cv.TimedWait(600ull * 1000 * 1000));
      waits++;
    }
  }
  t.join();
  // It waited, and was woken by the signal (a spurious wake-up or two is
  // allowed); a TimedWait that returned at once would spin many times.
  EXPECT_GE(waits, 1);
  EXPECT_LE(waits, 5);
}

TEST(PortTest, RWMutexAllowsConcurrentReaders) {
  RWMutex mu;
  std::mutex inside_mu;
  std::condition_variable inside_cv;
  int inside = 0;
  int saw_all = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; t++) {
    threads.emplace_back([&] {
      ReadLock l(&mu);
      // Holding the read lock, wait until every reader holds it too: a
      // lock that admitted one reader at a time would never get there.
      std::unique_lock<std::mutex> lock(inside_mu);
      inside++;
      inside_cv.notify_all();
      if (inside_cv.wait_for(lock, std::chrono::seconds(60),
                             [&] { return inside == 3; })) {
        saw_all++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(3, saw_all);
}

TEST(PortTest, RWMutexWriterExcludesReaders) {
  RWMutex mu;
  std::atomic<bool> writer_in{false};
  mu.ReadLock();
  std::thread writer([&] {
    WriteLock w(&mu);
    writer_in = true;
  });
  // While the read lock is held the writer must stay out.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(writer_in.load());
  mu.ReadUnlock();
  writer.join();
  EXPECT_TRUE(writer_in.load());

  // And a held write lock keeps a reader out.
  std::atomic<bool> reader_in{false};
  mu.WriteLock();
  std::thread reader([&] {
    ReadLock r(&mu);
    reader_in = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(reader_in.load());
  mu.WriteUnlock();
  reader.join();
  EXPECT_TRUE(reader_in.load());
}

std::atomic<int> g_once_calls{0};
void CountOnce() { g_once_calls++; }

TEST(PortTest, InitOnceRunsOnce) {
  OnceType once;
  g_once_calls = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; i++) {
    threads.emplace_back([&once] { InitOnce(&once, &CountOnce); });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(1, g_once_calls);
}

std::atomic<int> g_key_destructions{0};
void KeyDestructor(void* value) {
  g_key_destructions += *static_cast<int*>(value);
  delete static_cast<int*>(value);
}

TEST(PortTest, ThreadKeyDestructorRunsOnThreadExit) {
  g_key_destructions = 0;
  ThreadKey key;
  ASSERT_TRUE(ThreadKeyCreate(&key, &KeyDestructor));
  EXPECT_EQ(nullptr, ThreadKeyGet(key));
  std::vector<std::thread> threads;
  for (int i = 1; i <= 5; i++) {
    threads.emplace_back([key, i] {
      ThreadKeySet(key, new int(i));
      EXPECT_EQ(i, *static_cast<int*>(ThreadKeyGet(key)));
    });
  }
  threads.emplace_back([key] { EXPECT_EQ(nullptr, ThreadKeyGet(key)); });
  for (auto& t : threads) t.join();
  EXPECT_EQ(1 + 2 + 3 + 4 + 5, g_key_destructions.load());
  ThreadKeyDelete(key);
}

TEST(PortTest, ThreadKeysCanBeCreatedAndDeletedRepeatedly) {
  // Deleted keys give their room back: far more create/delete cycles than
  // keys can exist at once.
  for (int i = 0; i < 2000; i++) {
    ThreadKey key;
    ASSERT_TRUE(ThreadKeyCreate(&key, &KeyDestructor)) << "cycle " << i;
    ThreadKeySet(key, nullptr);
    ThreadKeyDelete(key);
  }
  // And a key created after all that still runs its destructor.
  g_key_destructions = 0;
  ThreadKey key;
  ASSERT_TRUE(ThreadKeyCreate(&key, &KeyDestructor));
  std::thread t([key] { ThreadKeySet(key, new int(9)); });
  t.join();
  EXPECT_EQ(9, g_key_destructions.load());
  ThreadKeyDelete(key);
}

TEST(PortTest, ThreadIdsDiffer) {
  const uint64_t mine = CurrentThreadId();
  uint64_t other = mine;
  std::thread t([&] {
    SetCurrentThreadName("strata:test");
    other = CurrentThreadId();
  });
  t.join();
  EXPECT_NE(mine, other);
}

TEST(PortTest, PageSizeIsAPowerOfTwo) {
  const size_t page = GetPageSize();
  EXPECT_GE(page, 4096u);
  EXPECT_EQ(0u, page & (page - 1));
}

// A region is writable end to end, two regions are distinct, and they are
// aligned as the platform promises (POSIX: on a huge-page boundary, which
// is what lets the kernel map them with huge pages).
TEST(PortTest, HugePageRegionsAreWritableAndDistinct) {
  const size_t n = 2 * port::kHugePageSize;
  char* a = port::AllocateHugePageRegion(n);
  char* b = port::AllocateHugePageRegion(n);
  ASSERT_NE(nullptr, a);
  ASSERT_NE(nullptr, b);
  EXPECT_TRUE(a + n <= b || b + n <= a);
  std::memset(a, 0x5a, n);
  std::memset(b, 0xa5, n);
  EXPECT_EQ(0x5a, static_cast<unsigned char>(a[0]));
  EXPECT_EQ(0x5a, static_cast<unsigned char>(a[n - 1]));
  EXPECT_EQ(0xa5, static_cast<unsigned char>(b[n / 2]));
  const uintptr_t align = port::kHugePageRegionAlignment;
  EXPECT_GE(align, port::GetPageSize());
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(a) % align);
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(b) % align);
  port::FreeHugePageRegion(a, n);
  port::FreeHugePageRegion(b, n);
  port::FreeHugePageRegion(nullptr, n);  // a no-op, as free(nullptr)
}

TEST(PortTest, GetTimeOfDayMatchesTheEnvClock) {
  TimeVal tv;
  GetTimeOfDay(&tv);
  const int64_t env_seconds =
      static_cast<int64_t>(Env::Default()->NowMicros() / 1000000);
  EXPECT_LE(std::abs(env_seconds - tv.tv_sec), 2);
  EXPECT_GE(tv.tv_usec, 0);
  EXPECT_LT(tv.tv_usec, 1000000);
  // After 2020-01-01.
  EXPECT_GT(tv.tv_sec, 1577836800);

  struct tm local;
  const time_t now = static_cast<time_t>(tv.tv_sec);
  LocalTimeR(&now, &local);
  EXPECT_GE(local.tm_year + 1900, 2020);
  EXPECT_GE(local.tm_mon, 0);
  EXPECT_LE(local.tm_mon, 11);
}

TEST(PortTest, PrintfSizeT) {
  char buf[32];
  const size_t n = 1234567890123ull;
  std::snprintf(buf, sizeof(buf), "%" STRATA_PRIszt, n);
  EXPECT_STREQ("1234567890123", buf);
}

TEST(PortTest, DirentListsEntries) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  ASSERT_TRUE(WriteStringToFile(env, "x", dir.File("a")).ok());
  ASSERT_TRUE(WriteStringToFile(env, "y", dir.File("b")).ok());
  ASSERT_TRUE(env->CreateDir(dir.File("sub")).ok());
  // Qualified: on POSIX, argument-dependent lookup would also find ::readdir.
  port::DIR* d = port::opendir(dir.path().c_str());
  ASSERT_NE(nullptr, d);
  std::set<std::string> names;
  while (port::dirent* e = port::readdir(d)) names.insert(e->d_name);
  EXPECT_EQ(0, port::closedir(d));
  EXPECT_EQ((std::set<std::string>{".", "..", "a", "b", "sub"}), names);
  EXPECT_EQ(nullptr, port::opendir(dir.File("missing").c_str()));
}

}  // namespace
}  // namespace port
}  // namespace strata
