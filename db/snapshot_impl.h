// The DB's live snapshots: a doubly linked list in creation order, so the
// oldest snapshot (the one compaction must keep versions for) is at the
// head.
//
// Thread safety: SnapshotList is guarded by the DB mutex; a SnapshotImpl
// is immutable once created.

#ifndef STRATA_DB_SNAPSHOT_IMPL_H_
#define STRATA_DB_SNAPSHOT_IMPL_H_

#include <cassert>
#include <vector>

#include "strata/snapshot.h"

namespace strata {

class SnapshotList;

class SnapshotImpl : public Snapshot {
 public:
  explicit SnapshotImpl(SequenceNumber sequence) : sequence_(sequence) {}

  SequenceNumber GetSequenceNumber() const override { return sequence_; }

 private:
  friend class SnapshotList;

  const SequenceNumber sequence_;
  SnapshotImpl* prev_ = nullptr;
  SnapshotImpl* next_ = nullptr;
};

class SnapshotList {
 public:
  SnapshotList() : head_(0) {
    head_.prev_ = &head_;
    head_.next_ = &head_;
  }
  // Frees snapshots never released (a DB deleted with live snapshots).
  ~SnapshotList() {
    while (!empty()) Delete(head_.next_);
  }
  SnapshotList(const SnapshotList&) = delete;
  SnapshotList& operator=(const SnapshotList&) = delete;

  bool empty() const { return head_.next_ == &head_; }
  size_t count() const { return count_; }

  // REQUIRES: sequence >= newest().
  SnapshotImpl* New(SequenceNumber sequence) {
    assert(empty() || head_.prev_->sequence_ <= sequence);
    SnapshotImpl* s = new SnapshotImpl(sequence);
    s->next_ = &head_;
    s->prev_ = head_.prev_;
    s->prev_->next_ = s;
    s->next_->prev_ = s;
    count_++;
    return s;
  }

  // The snapshots' sequence numbers, ascending (what a compaction keeps
  // versions for).
  std::vector<SequenceNumber> Sequences() const {
    std::vector<SequenceNumber> result;
    result.reserve(count_);
    for (const SnapshotImpl* s = head_.next_; s != &head_; s = s->next_) {
      result.push_back(s->sequence_);
    }
    return result;
  }

  void Delete(const SnapshotImpl* s) {
    s->prev_->next_ = s->next_;
    s->next_->prev_ = s->prev_;
    count_--;
    delete s;
  }

 private:
  SnapshotImpl head_;  // dummy head of the circular list
  size_t count_ = 0;
};

}  // namespace strata

#endif  // STRATA_DB_SNAPSHOT_IMPL_H_
