#include "env/thread_pool.h"

#include <algorithm>
#include <utility>

#include "util/mutexlock.h"

namespace strata {

ThreadPool::ThreadPool(std::string name, int num_threads)
    : name_(std::move(name)), cv_(&mu_), target_threads_(num_threads) {}

ThreadPool::~ThreadPool() {
  std::deque<Job> dropped;
  std::vector<std::thread> threads;
  {
    MutexLock l(&mu_);
    exit_all_ = true;
    dropped.swap(queue_);
    threads.swap(threads_);
    for (std::thread& t : exited_) threads.push_back(std::move(t));
    exited_.clear();
    cv_.SignalAll();
  }
  for (Job& job : dropped) {
    if (job.unschedule != nullptr) job.unschedule(job.arg);
  }
  for (std::thread& t : threads) t.join();
}

void ThreadPool::Schedule(void (*function)(void*), void* arg, void* tag,
                          void (*unschedule)(void*)) {
  MutexLock l(&mu_);
  if (exit_all_) {
    if (unschedule != nullptr) unschedule(arg);
    return;
  }
  queue_.push_back(Job{function, arg, tag, unschedule});
  StartThreadsLocked();
  cv_.Signal();
}

int ThreadPool::UnSchedule(void* tag) {
  std::vector<Job> removed;
  {
    MutexLock l(&mu_);
    for (auto it = queue_.begin(); it != queue_.end();) {
      if (it->tag == tag) {
        removed.push_back(*it);
        it = queue_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (Job& job : removed) {
    if (job.unschedule != nullptr) job.unschedule(job.arg);
  }
  return static_cast<int>(removed.size());
}

void ThreadPool::SetBackgroundThreads(int num) {
  std::vector<std::thread> exited;
  {
    MutexLock l(&mu_);
    target_threads_ = std::max(num, 0);
    if (!queue_.empty()) StartThreadsLocked();
    // Wake idle threads so the excess ones notice and exit.
    cv_.SignalAll();
    exited.swap(exited_);
  }
  // Threads that left after an earlier shrink; they hold no lock.
  for (std::thread& t : exited) t.join();
}

void ThreadPool::IncBackgroundThreadsIfNeeded(int num) {
  MutexLock l(&mu_);
  if (num > target_threads_) {
    target_threads_ = num;
    if (!queue_.empty()) StartThreadsLocked();
  }
}

int ThreadPool::GetBackgroundThreads() {
  MutexLock l(&mu_);
  return target_threads_;
}

unsigned int ThreadPool::GetQueueLen() {
  MutexLock l(&mu_);
  return static_cast<unsigned int>(queue_.size());
}

int ThreadPool::TEST_LiveThreads() {
  MutexLock l(&mu_);
  return static_cast<int>(threads_.size());
}

void ThreadPool::StartThreadsLocked() {
  while (threads_.size() < static_cast<size_t>(target_threads_)) {
    const size_t index = threads_.size();
    threads_.emplace_back([this, index] { WorkerLoop(index); });
  }
}

bool ThreadPool::IsExcessiveLocked(size_t index) const {
  // Only the last thread leaves, so indexes stay 0..n-1.
  return index >= static_cast<size_t>(target_threads_) &&
         index + 1 == threads_.size();
}

void ThreadPool::WorkerLoop(size_t index) {
  port::SetCurrentThreadName("strata:" + name_ + std::to_string(index));
  MutexLock l(&mu_);
  while (true) {
    while (!exit_all_ && queue_.empty() && !IsExcessiveLocked(index)) {
      cv_.Wait();
    }
    if (exit_all_) break;
    if (IsExcessiveLocked(index)) {
      // Leave the pool; a later resize or the destructor joins us.
      exited_.push_back(std::move(threads_.back()));
      threads_.pop_back();
      cv_.SignalAll();  // the next-to-last thread may now be excessive
      break;
    }
    Job job = queue_.front();
    queue_.pop_front();
    mu_.Unlock();
    job.function(job.arg);
    mu_.Lock();
  }
}

}  // namespace strata
