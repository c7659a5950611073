// ThreadPoolEnv: the thread half of a platform Env — one ThreadPool per
// priority, StartThread/WaitForJoin, sleeping — written once on std::thread
// for both PosixEnv and WinEnv. OsEnv (env/os_env.h) adds the platform-free
// file half; the platform Envs supply the system calls, clocks and the rest.
//
// A Priority outside [BOTTOM, HIGH] is clamped to the nearest pool.
//
// WaitForJoin joins the threads of StartThread, then lets the pools run
// what is queued and joins their threads (ThreadPool::JoinWhenIdle); the
// pools start threads again for the next job. It is what a program calls
// before it unloads strata.dll (docs/windows.md). Destroying the Env joins
// the StartThread threads and drops the pools' queued jobs.
//
// Thread safety: every method is safe from any thread.

#ifndef STRATA_ENV_THREAD_POOL_ENV_H_
#define STRATA_ENV_THREAD_POOL_ENV_H_

#include <memory>
#include <thread>
#include <vector>

#include "env/thread_pool.h"
#include "port/port.h"
#include "strata/env.h"

namespace strata {

class ThreadPoolEnv : public Env {
 public:
  ThreadPoolEnv();
  ~ThreadPoolEnv() override;

  void Schedule(void (*function)(void* arg), void* arg, Priority pri = LOW,
                void* tag = nullptr,
                void (*unschedFunction)(void* arg) = nullptr) override;
  int UnSchedule(void* tag, Priority pri) override;
  void StartThread(void (*function)(void* arg), void* arg) override;
  void WaitForJoin() override;
  unsigned int GetThreadPoolQueueLen(Priority pri = LOW) const override;
  void SetBackgroundThreads(int number, Priority pri = LOW) override;
  int GetBackgroundThreads(Priority pri = LOW) override;
  void IncBackgroundThreadsIfNeeded(int number, Priority pri) override;
  void SleepForMicroseconds(int micros) override;

  // The pool half of WaitForJoin, run at process exit for Env::Default()
  // (env_win.cc).
  void JoinPoolsWhenIdle();

 private:
  void JoinStartedThreads();
  ThreadPool* Pool(Priority pri) const;

  std::unique_ptr<ThreadPool> pools_[TOTAL];
  port::Mutex threads_mu_;
  std::vector<std::thread> started_threads_ GUARDED_BY(threads_mu_);
};

}  // namespace strata

#endif  // STRATA_ENV_THREAD_POOL_ENV_H_
