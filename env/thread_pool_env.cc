#include "env/thread_pool_env.h"

#include <chrono>

#include "util/mutexlock.h"

namespace strata {

ThreadPoolEnv::ThreadPoolEnv() {
  pools_[BOTTOM].reset(new ThreadPool("bottom"));
  pools_[LOW].reset(new ThreadPool("low"));
  pools_[HIGH].reset(new ThreadPool("high"));
}

ThreadPoolEnv::~ThreadPoolEnv() { JoinStartedThreads(); }

ThreadPool* ThreadPoolEnv::Pool(Priority pri) const {
  // A value outside the enum (a cast int) is clamped, so the job still runs.
  if (pri < BOTTOM) pri = BOTTOM;
  if (pri >= TOTAL) pri = HIGH;
  return pools_[pri].get();
}

void ThreadPoolEnv::Schedule(void (*function)(void* arg), void* arg,
                             Priority pri, void* tag,
                             void (*unschedFunction)(void* arg)) {
  Pool(pri)->Schedule(function, arg, tag, unschedFunction);
}

int ThreadPoolEnv::UnSchedule(void* tag, Priority pri) {
  return Pool(pri)->UnSchedule(tag);
}

void ThreadPoolEnv::StartThread(void (*function)(void* arg), void* arg) {
  MutexLock l(&threads_mu_);
  started_threads_.emplace_back(function, arg);
}

void ThreadPoolEnv::WaitForJoin() {
  JoinStartedThreads();
  JoinPoolsWhenIdle();
}

void ThreadPoolEnv::JoinPoolsWhenIdle() {
  // HIGH first: a flush there may schedule the compaction LOW then runs.
  for (Priority pri : {HIGH, LOW, BOTTOM}) pools_[pri]->JoinWhenIdle();
}

void ThreadPoolEnv::JoinStartedThreads() {
  std::vector<std::thread> threads;
  {
    MutexLock l(&threads_mu_);
    threads.swap(started_threads_);
  }
  for (std::thread& t : threads) t.join();
}

unsigned int ThreadPoolEnv::GetThreadPoolQueueLen(Priority pri) const {
  return Pool(pri)->GetQueueLen();
}

void ThreadPoolEnv::SetBackgroundThreads(int number, Priority pri) {
  Pool(pri)->SetBackgroundThreads(number);
}

int ThreadPoolEnv::GetBackgroundThreads(Priority pri) {
  return Pool(pri)->GetBackgroundThreads();
}

void ThreadPoolEnv::IncBackgroundThreadsIfNeeded(int number, Priority pri) {
  Pool(pri)->IncBackgroundThreadsIfNeeded(number);
}

void ThreadPoolEnv::SleepForMicroseconds(int micros) {
  if (micros > 0)
    std::this_thread::sleep_for(std::chrono::microseconds(micros));
}

}  // namespace strata
