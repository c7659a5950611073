#include "util/thread_local.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "port/port.h"
#include "util/mutexlock.h"
#include "util/no_destructor.h"

namespace strata {

namespace {

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
};

// The process-wide bookkeeping: ids, handlers and the list of threads.
//
// Invariants: every ThreadData in the list belongs to a live thread (or the
// main thread); slots of a ThreadData are resized only by its owner, under
// mutex_; other threads read or write slots only under mutex_.
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
    uint32_t id;
    if (!free_ids_.empty()) {
      id = free_ids_.back();
      free_ids_.pop_back();
    } else {
      id = next_id_++;
      handlers_.resize(next_id_, nullptr);
      in_flight_.resize(next_id_, 0);
    }
    handlers_[id] = handler;
    return id;
  }

  // Drops every thread's value of id (handing it to the handler) and
  // recycles the id.
  void ReleaseId(uint32_t id) {
    std::vector<void*> dropped;
    ThreadLocalPtr::UnrefHandler handler;
    {
      MutexLock l(&mutex_);
      handler = handlers_[id];
      for (ThreadData* t = head_.next; t != &head_; t = t->next) {
        if (id < t->slots.size()) {
          void* p = t->slots[id].ptr.exchange(nullptr);
          if (p != nullptr) dropped.push_back(p);
        }
      }
      // Exiting threads may still be running this id's handler on values
      // they took before we looked: the owner may free what the handler
      // uses as soon as we return, so wait for them.
      while (in_flight_[id] > 0) handlers_done_.Wait();
      handlers_[id] = nullptr;
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
    for (ThreadData* t = head_.next; t != &head_; t = t->next) {
      if (id < t->slots.size()) {
        void* p = t->slots[id].ptr.exchange(replacement);
        if (p != nullptr) ptrs->push_back(p);
      }
    }
  }

  void Fold(uint32_t id, ThreadLocalPtr::FoldFunc func, void* accumulator) {
    MutexLock l(&mutex_);
    for (ThreadData* t = head_.next; t != &head_; t = t->next) {
      if (id < t->slots.size()) {
        void* p = t->slots[id].ptr.load(std::memory_order_acquire);
        if (p != nullptr) func(p, accumulator);
      }
    }
  }

  size_t ThreadCount() {
    MutexLock l(&mutex_);
    size_t n = 0;
    for (ThreadData* t = head_.next; t != &head_; t = t->next) n++;
    return n;
  }

 private:
  // The ThreadKey destructor: runs on the exiting thread with its table.
  static void OnThreadExit(void* arg) {
    ThreadData* t = static_cast<ThreadData*>(arg);
    Registry* r = Instance();
    struct Dropped {
      size_t id;
      ThreadLocalPtr::UnrefHandler handler;
      void* value;
    };
    std::vector<Dropped> dropped;
    {
      MutexLock l(&r->mutex_);
      t->prev->next = t->next;
      t->next->prev = t->prev;
      for (size_t id = 0; id < t->slots.size(); id++) {
        void* p = t->slots[id].ptr.load(std::memory_order_relaxed);
        if (p != nullptr && r->handlers_[id] != nullptr) {
          dropped.push_back(Dropped{id, r->handlers_[id], p});
          r->in_flight_[id]++;
        }
      }
    }
    // Handlers run without the mutex: they may use other ThreadLocalPtrs.
    for (const Dropped& d : dropped) d.handler(d.value);
    if (!dropped.empty()) {
      MutexLock l(&r->mutex_);
      for (const Dropped& d : dropped) r->in_flight_[d.id]--;
      r->handlers_done_.SignalAll();
    }
    delete t;
  }

  port::Mutex mutex_;
  // Signalled when an exiting thread's handlers have finished.
  port::CondVar handlers_done_{&mutex_};
  port::ThreadKey key_;
  ThreadData head_ GUARDED_BY(mutex_);
  uint32_t next_id_ GUARDED_BY(mutex_) = 0;
  std::vector<uint32_t> free_ids_ GUARDED_BY(mutex_);
  std::vector<ThreadLocalPtr::UnrefHandler> handlers_ GUARDED_BY(mutex_);
  // Per id: handlers that exiting threads are running right now.
  std::vector<int> in_flight_ GUARDED_BY(mutex_);
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
