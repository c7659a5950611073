// ThreadPool: a queue of jobs served by a resizable set of std::threads —
// the background pool behind one Env priority (LOW, HIGH, BOTTOM). POSIX and
// Windows share it, so a change to the pool's logic is made once.
//
// Threads start lazily, when a job is scheduled and fewer than the target
// number run. Lowering the target makes the highest-numbered threads exit
// once idle; they are joined later (by the next resize or by the
// destructor), never left detached. JoinWhenIdle lets every thread leave
// once the queue is empty and joins them; the pool stays usable (the next
// job starts threads again). Destroying the pool drops the jobs still
// queued (calling their unschedule functions) and joins every thread after
// its running job ends.
//
// While it has threads, the pool holds a reference on the DLL its code is
// in (port/module_ref.h), given back once JoinWhenIdle or the destructor
// has joined them all: a FreeLibrary of strata.dll cannot unmap code a
// pool thread runs.
//
// Thread safety: every method is safe from any thread, including from a
// job running on the pool.

#ifndef STRATA_ENV_THREAD_POOL_H_
#define STRATA_ENV_THREAD_POOL_H_

#include <deque>
#include <string>
#include <thread>
#include <vector>

#include "port/port.h"
#include "port/thread_annotations.h"

namespace strata {

class ThreadPool {
 public:
  // name appears in thread names ("strata:<name><index>").
  explicit ThreadPool(std::string name, int num_threads = 1);
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool();

  void Schedule(void (*function)(void*), void* arg, void* tag,
                void (*unschedule)(void*));
  // Removes the queued jobs with this tag (calling their unschedule
  // functions) and returns how many.
  int UnSchedule(void* tag);

  void SetBackgroundThreads(int num);
  void IncBackgroundThreadsIfNeeded(int num);
  int GetBackgroundThreads();
  unsigned int GetQueueLen();

  // Lets the queued jobs, and any scheduled meanwhile, run; every thread
  // leaves once the queue is empty, and each is joined before this returns.
  // A job that keeps scheduling more keeps this waiting. Called from a job
  // of this pool it returns at once: its thread cannot join itself.
  void JoinWhenIdle();

  // Threads currently alive (for tests).
  int TEST_LiveThreads();

 private:
  struct Job {
    void (*function)(void*);
    void* arg;
    void* tag;
    void (*unschedule)(void*);
  };

  void WorkerLoop(size_t index);
  void StartThreadsLocked() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // True if the calling thread is one of threads_.
  bool OnPoolThreadLocked() const EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // True if the thread with this index should exit now.
  bool IsExcessiveLocked(size_t index) const EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string name_;
  port::Mutex mu_;
  port::CondVar cv_;
  // Signalled when a thread leaves the pool or has been joined.
  port::CondVar left_cv_;
  int target_threads_ GUARDED_BY(mu_);
  bool exit_all_ GUARDED_BY(mu_) = false;
  std::deque<Job> queue_ GUARDED_BY(mu_);
  std::vector<std::thread> threads_ GUARDED_BY(mu_);
  // Threads that left because the pool shrank, not yet joined.
  std::vector<std::thread> exited_ GUARDED_BY(mu_);
  // Threads taken out of threads_/exited_ by a joiner, not yet joined.
  int joining_ GUARDED_BY(mu_) = 0;
  // Callers inside JoinWhenIdle: while positive, idle threads leave.
  int join_requests_ GUARDED_BY(mu_) = 0;
  // Whether the pool holds a reference on strata's DLL.
  bool holds_module_ GUARDED_BY(mu_) = false;
};

}  // namespace strata

#endif  // STRATA_ENV_THREAD_POOL_H_
