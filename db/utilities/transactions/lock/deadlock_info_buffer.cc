#include "db/utilities/transactions/lock/deadlock_info_buffer.h"

#include <algorithm>
#include <utility>

#include "util/mutexlock.h"

namespace strata {

DeadlockInfoBuffer::DeadlockInfoBuffer(uint32_t capacity) : slots_(capacity) {}

void DeadlockInfoBuffer::Add(DeadlockPath path) {
  MutexLock l(&mutex_);
  if (slots_.empty()) return;
  slots_[next_] = std::move(path);
  next_ = (next_ + 1) % slots_.size();
  used_ = std::min(used_ + 1, slots_.size());
}

std::vector<DeadlockPath> DeadlockInfoBuffer::OldestFirst() const {
  std::vector<DeadlockPath> paths;
  paths.reserve(used_);
  // Before the ring first fills, next_ == used_ and the oldest is slot 0;
  // afterwards the oldest is the slot to be overwritten next.
  const size_t start = used_ < slots_.size() ? 0 : next_;
  for (size_t i = 0; i < used_; i++) {
    paths.push_back(slots_[(start + i) % slots_.size()]);
  }
  return paths;
}

std::vector<DeadlockPath> DeadlockInfoBuffer::Get() const {
  MutexLock l(&mutex_);
  std::vector<DeadlockPath> paths = OldestFirst();
  std::reverse(paths.begin(), paths.end());
  return paths;
}

void DeadlockInfoBuffer::Resize(uint32_t capacity) {
  MutexLock l(&mutex_);
  std::vector<DeadlockPath> paths = OldestFirst();
  if (paths.size() > capacity) {
    paths.erase(paths.begin(), paths.begin() + (paths.size() - capacity));
  }
  used_ = paths.size();
  paths.resize(capacity);
  slots_ = std::move(paths);
  next_ = capacity == 0 ? 0 : used_ % capacity;
}

}  // namespace strata
