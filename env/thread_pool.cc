#include "env/thread_pool.h"

#include <algorithm>
#include <utility>

#include "port/module_ref.h"
#include "util/mutexlock.h"

namespace strata {

ThreadPool::ThreadPool(std::string name, int num_threads)
    : name_(std::move(name)),
      cv_(&mu_),
      left_cv_(&mu_),
      target_threads_(num_threads) {}

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
  bool release = false;
  {
    MutexLock l(&mu_);
    std::swap(release, holds_module_);
  }
  if (release) port::ReleaseModuleReference();
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
    joining_ += static_cast<int>(exited.size());
  }
  // Threads that left after an earlier shrink; they hold no lock.
  for (std::thread& t : exited) t.join();
  if (!exited.empty()) {
    MutexLock l(&mu_);
    joining_ -= static_cast<int>(exited.size());
    left_cv_.SignalAll();
  }
}

void ThreadPool::JoinWhenIdle() {
  bool release = false;
  {
    MutexLock l(&mu_);
    if (OnPoolThreadLocked()) return;
    join_requests_++;
    cv_.SignalAll();  // idle threads: leave now
    while (true) {
      std::vector<std::thread> exited;
      exited.swap(exited_);
      if (!exited.empty()) {
        const int n = static_cast<int>(exited.size());
        joining_ += n;
        mu_.Unlock();
        for (std::thread& t : exited) t.join();
        mu_.Lock();
        joining_ -= n;
        left_cv_.SignalAll();
      } else if (!threads_.empty() || joining_ > 0) {
        left_cv_.Wait();
      } else {
        break;
      }
    }
    join_requests_--;
    // No thread of the pool runs strata's code any more.
    std::swap(release, holds_module_);
  }
  if (release) port::ReleaseModuleReference();
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
  if (!holds_module_ &&
      threads_.size() < static_cast<size_t>(target_threads_)) {
    holds_module_ = port::AcquireModuleReference();
  }
  while (threads_.size() < static_cast<size_t>(target_threads_)) {
    const size_t index = threads_.size();
    threads_.emplace_back([this, index] { WorkerLoop(index); });
  }
}

bool ThreadPool::OnPoolThreadLocked() const {
  const std::thread::id self = std::this_thread::get_id();
  for (const std::thread& t : threads_) {
    if (t.get_id() == self) return true;
  }
  return false;
}

bool ThreadPool::IsExcessiveLocked(size_t index) const {
  // Only the last thread leaves, so indexes stay 0..n-1.
  if (index + 1 != threads_.size()) return false;
  return index >= static_cast<size_t>(target_threads_) ||
         (join_requests_ > 0 && queue_.empty());
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
      // Leave the pool; a later resize, JoinWhenIdle or the destructor
      // joins us.
      exited_.push_back(std::move(threads_.back()));
      threads_.pop_back();
      cv_.SignalAll();  // the next-to-last thread may now be excessive
      left_cv_.SignalAll();
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
