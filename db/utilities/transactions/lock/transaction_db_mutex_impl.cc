#include "db/utilities/transactions/lock/transaction_db_mutex_impl.h"

#include <cassert>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace strata {

namespace {

class MutexImpl : public TransactionDBMutex {
 public:
  Status Lock() override {
    mutex_.lock();
    return Status::OK();
  }

  // std::mutex has no timed lock; a stripe's mutex is only held for a
  // lookup in its key table, so waiting for it is bounded anyway, and a
  // timeout only decides whether to wait at all.
  Status TryLockFor(int64_t timeout_time) override {
    if (timeout_time == 0) {
      return mutex_.try_lock() ? Status::OK() : Status::TimedOut();
    }
    mutex_.lock();
    return Status::OK();
  }

  void UnLock() override { mutex_.unlock(); }

  std::mutex* native() { return &mutex_; }

 private:
  std::mutex mutex_;
};

class CondVarImpl : public TransactionDBCondVar {
 public:
  Status Wait(std::shared_ptr<TransactionDBMutex> mutex) override {
    std::unique_lock<std::mutex> lock(*Native(mutex), std::adopt_lock);
    cv_.wait(lock);
    lock.release();  // the caller still holds the mutex
    return Status::OK();
  }

  Status WaitFor(std::shared_ptr<TransactionDBMutex> mutex,
                 int64_t timeout_time) override {
    if (timeout_time < 0) return Wait(std::move(mutex));
    std::unique_lock<std::mutex> lock(*Native(mutex), std::adopt_lock);
    const std::cv_status woke =
        cv_.wait_for(lock, std::chrono::microseconds(timeout_time));
    lock.release();
    return woke == std::cv_status::timeout ? Status::TimedOut() : Status::OK();
  }

  void Notify() override { cv_.notify_one(); }
  void NotifyAll() override { cv_.notify_all(); }

 private:
  static std::mutex* Native(const std::shared_ptr<TransactionDBMutex>& m) {
    MutexImpl* impl = static_cast<MutexImpl*>(m.get());
    assert(dynamic_cast<MutexImpl*>(m.get()) != nullptr);
    return impl->native();
  }

  std::condition_variable cv_;
};

}  // namespace

std::shared_ptr<TransactionDBMutex>
TransactionDBMutexFactoryImpl::AllocateMutex() {
  return std::make_shared<MutexImpl>();
}

std::shared_ptr<TransactionDBCondVar>
TransactionDBMutexFactoryImpl::AllocateCondVar() {
  return std::make_shared<CondVarImpl>();
}

}  // namespace strata
