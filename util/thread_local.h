// ThreadLocalPtr: a pointer with one value per thread, per instance — for
// per-thread caches and counters that other threads can still visit.
//
// Each thread sees its own value (initially null). When a thread exits, the
// instance's handler (if any) is called with that thread's value, if it is
// non-null; when an instance is destroyed, the handler is called with every
// thread's non-null value, and the destructor does not return while an
// exiting thread is still running the handler. Thread exit is detected through
// a port::ThreadKey destructor: pthread keys on POSIX, and on Windows the
// loader's TLS callback (see port/port_win.cc).
//
// Thread exit takes no lock (on Windows it runs under the loader lock): the
// handlers run on the exiting thread, and its bookkeeping is freed later by
// the next operation that holds the registry's mutex. At most 4096
// instances may exist at once.
//
// Thread safety: Get/Reset/Swap/CompareAndSwap touch only the calling
// thread's value and take no lock (but for a thread's first Reset). Scrape
// and Fold visit every thread's value under the registry's mutex; they may
// run concurrently with the owners' operations because each value is an
// atomic.

#ifndef STRATA_UTIL_THREAD_LOCAL_H_
#define STRATA_UTIL_THREAD_LOCAL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata {

class ThreadLocalPtr {
 public:
  // Called with a non-null value that is being dropped.
  using UnrefHandler = void (*)(void* ptr);
  // Called by Fold with each non-null value and the caller's accumulator.
  using FoldFunc = void (*)(void* value, void* accumulator);

  // REQUIRES: handler does not destroy this ThreadLocalPtr.
  explicit ThreadLocalPtr(UnrefHandler handler = nullptr);
  ThreadLocalPtr(const ThreadLocalPtr&) = delete;
  ThreadLocalPtr& operator=(const ThreadLocalPtr&) = delete;
  ~ThreadLocalPtr();

  // The calling thread's value.
  void* Get() const;

  // Sets the calling thread's value. The old value is not handed to the
  // handler: the caller owns it.
  void Reset(void* ptr);

  // Sets the calling thread's value and returns the old one.
  void* Swap(void* ptr);

  // If the calling thread's value is expected, sets it to ptr and returns
  // true; otherwise stores the current value in expected and returns false.
  bool CompareAndSwap(void* ptr, void*& expected);

  // Replaces every thread's value with replacement, appending the non-null
  // old values to *ptrs.
  void Scrape(std::vector<void*>* ptrs, void* replacement);

  // Calls func(value, accumulator) for every thread's non-null value.
  void Fold(FoldFunc func, void* accumulator);

  // Number of threads that currently have a slot table (for tests).
  static size_t TEST_ThreadCount();

 private:
  const uint32_t id_;
};

}  // namespace strata

#endif  // STRATA_UTIL_THREAD_LOCAL_H_
