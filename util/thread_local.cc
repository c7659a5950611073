#include "util/thread_local.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>

#include "port/port.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

// Ids live at once. Fixed, so that an exiting thread can read an id's
// handler and in-flight count without the registry's mutex.
constexpr uint32_t kMaxIds = 4096;

// One slot per ThreadLocalPtr id. Copyable so that the vector can grow; a
// copy is only made by the owning thread under the registry mutex.
struct Slot {
  std::atomic<void*> ptr{nullptr};
  Slot() = default;
  Slot(const Slot& other) : ptr(other.ptr.load(std::memory_order_relaxed)) {}
};

// A thread's slots, linked into the registry's list of all threads.
struct ThreadData {
  std::vector<Slot> slots;
  ThreadData* prev = nullptr;
  ThreadData* next = nullptr;
  // Set by the thread when it has exited; the entry is then freed by the
  // next registry operation that holds the mutex.
  std::atomic<bool> exited{false};
};

// The process-wide bookkeeping: ids, handlers and the list of threads.
//
// Thread exit takes no lock: on Windows it runs from a TLS callback under
// the loader lock. An exiting thread takes its own values out of its slots
// (atomically), runs the handlers — read from an array of atomics, with the
// id's in-flight count raised around it so that ~ThreadLocalPtr can wait
// for it — and marks its ThreadData exited. Exited entries stay in the list
// until an operation holding the mutex unlinks and frees them.
//
// Invariants: slots of a ThreadData are resized only by its owner, under
// mutex_; other threads touch them only under mutex_, and only while the
// entry is linked.
class Registry {
 public:
  Registry() {
    head_.prev = head_.next = &head_;
    if (!port::ThreadKeyCreate(&key_, &Registry::OnThreadExit)) {
      std::fprintf(stderr, "strata: cannot create a thread-local key\n");
      std::abort();
    }
  }

  static Registry* Instance() {
    static NoDestructor<Registry> registry;
    return registry.get();
  }

  uint32_t AcquireId(ThreadLocalPtr::UnrefHandler handler) {
    MutexLock l(&mutex_);
    FreeExitedLocked();
    uint32_t id;
    if (!free_ids_.empty()) {
      id = free_ids_.back();
      free_ids_.pop_back();
    } else if (next_id_ < kMaxIds) {
      id = next_id_++;
    } else {
      std::fprintf(stderr, "strata: more than %u ThreadLocalPtr at once\n",
                   kMaxIds);
      std::abort();
    }
    handlers_[id].store(handler, std::memory_order_release);
    return id;
  }

  // Drops every thread's value of id (handing it to the handler) and
  // recycles the id.
  void ReleaseId(uint32_t id) {
    std::vector<void*> dropped;
    ThreadLocalPtr::UnrefHandler handler;
    {
      MutexLock l(&mutex_);
      FreeExitedLocked();
      handler = handlers_[id].load(std::memory_order_acquire);
      for (ThreadData* t = head_.next; t != &head_; t = t->next) {
        if (id < t->slots.size()) {
          void* p = t->slots[id].ptr.exchange(nullptr);
          if (p != nullptr) dropped.push_back(p);
        }
      }
      // An exiting thread may have taken a value before the exchange above
      // and be running the handler now; the owner may free what the handler
      // uses as soon as we return, so wait for it. (Exiting threads raise
      // the count before they take a value.)
      while (in_flight_[id].load(std::memory_order_acquire) > 0) {
        std::this_thread::yield();
      }
      handlers_[id].store(nullptr, std::memory_order_release);
      free_ids_.push_back(id);
    }
    if (handler != nullptr) {
      for (void* p : dropped) handler(p);
    }
  }

  // The calling thread's slot for id, creating the thread's table or
  // growing it as needed.
  std::atomic<void*>* SlotFor(uint32_t id) {
    ThreadData* t = static_cast<ThreadData*>(port::ThreadKeyGet(key_));
    if (t == nullptr) {
      t = new ThreadData;
      {
        MutexLock l(&mutex_);
        FreeExitedLocked();
        t->next = head_.next;
        t->prev = &head_;
        head_.next->prev = t;
        head_.next = t;
      }
      port::ThreadKeySet(key_, t);
    }
    if (id >= t->slots.size()) {
      MutexLock l(&mutex_);
      t->slots.resize(next_id_);
    }
    return &t->slots[id].ptr;
  }

  // The calling thread's value for id, without creating anything.
  void* Peek(uint32_t id) {
    ThreadData* t = static_cast<ThreadData*>(port::ThreadKeyGet(key_));
    if (t == nullptr || id >= t->slots.size()) return nullptr;
    return t->slots[id].ptr.load(std::memory_order_acquire);
  }

  void Scrape(uint32_t id, std::vector<void*>* ptrs, void* replacement) {
    MutexLock l(&mutex_);
    FreeExitedLocked();
    for (ThreadData* t = head_.next; t != &head_; t = t->next) {
      if (id < t->slots.size()) {
        void* p = t->slots[id].ptr.exchange(replacement);
        if (p != nullptr) ptrs->push_back(p);
      }
    }
  }

  void Fold(uint32_t id, ThreadLocalPtr::FoldFunc func, void* accumulator) {
    MutexLock l(&mutex_);
    FreeExitedLocked();
    for (ThreadData* t = head_.next; t != &head_; t = t->next) {
      if (id < t->slots.size()) {
        void* p = t->slots[id].ptr.load(std::memory_order_acquire);
        if (p != nullptr) func(p, accumulator);
      }
    }
  }

  size_t ThreadCount() {
    MutexLock l(&mutex_);
    FreeExitedLocked();
    size_t n = 0;
    for (ThreadData* t = head_.next; t != &head_; t = t->next) n++;
    return n;
  }

 private:
  // The ThreadKey destructor: runs on the exiting thread with its table.
  // Takes no lock (see the class comment).
  static void OnThreadExit(void* arg) {
    ThreadData* t = static_cast<ThreadData*>(arg);
    Registry* r = Instance();
    for (size_t id = 0; id < t->slots.size(); id++) {
      r->in_flight_[id].fetch_add(1, std::memory_order_acq_rel);
      void* p = t->slots[id].ptr.exchange(nullptr, std::memory_order_acq_rel);
      if (p != nullptr) {
        ThreadLocalPtr::UnrefHandler handler =
            r->handlers_[id].load(std::memory_order_acquire);
        if (handler != nullptr) handler(p);
      }
      r->in_flight_[id].fetch_sub(1, std::memory_order_acq_rel);
    }
    t->exited.store(true, std::memory_order_release);
  }

  // Unlinks and frees the entries of threads that have exited.
  void FreeExitedLocked() EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    for (ThreadData* t = head_.next; t != &head_;) {
      ThreadData* next = t->next;
      if (t->exited.load(std::memory_order_acquire)) {
        t->prev->next = t->next;
        t->next->prev = t->prev;
        delete t;
      }
      t = next;
    }
  }

  port::Mutex mutex_;
  port::ThreadKey key_;
  ThreadData head_ GUARDED_BY(mutex_);
  uint32_t next_id_ GUARDED_BY(mutex_) = 0;
  std::vector<uint32_t> free_ids_ GUARDED_BY(mutex_);
  // Per id, read by exiting threads without the mutex.
  std::atomic<ThreadLocalPtr::UnrefHandler> handlers_[kMaxIds] = {};
  // Per id: exiting threads between taking a value and finishing its
  // handler.
  std::atomic<int> in_flight_[kMaxIds] = {};
};

}  // namespace

ThreadLocalPtr::ThreadLocalPtr(UnrefHandler handler)
    : id_(Registry::Instance()->AcquireId(handler)) {}

ThreadLocalPtr::~ThreadLocalPtr() { Registry::Instance()->ReleaseId(id_); }

void* ThreadLocalPtr::Get() const { return Registry::Instance()->Peek(id_); }

void ThreadLocalPtr::Reset(void* ptr) {
  Registry::Instance()->SlotFor(id_)->store(ptr, std::memory_order_release);
}

void* ThreadLocalPtr::Swap(void* ptr) {
  return Registry::Instance()->SlotFor(id_)->exchange(
      ptr, std::memory_order_acq_rel);
}

bool ThreadLocalPtr::CompareAndSwap(void* ptr, void*& expected) {
  return Registry::Instance()->SlotFor(id_)->compare_exchange_strong(
      expected, ptr, std::memory_order_acq_rel);
}

void ThreadLocalPtr::Scrape(std::vector<void*>* ptrs, void* replacement) {
  Registry::Instance()->Scrape(id_, ptrs, replacement);
}

void ThreadLocalPtr::Fold(FoldFunc func, void* accumulator) {
  Registry::Instance()->Fold(id_, func, accumulator);
}

size_t ThreadLocalPtr::TEST_ThreadCount() {
  return Registry::Instance()->ThreadCount();
}

}  // namespace strata
