#include "table/merging_iterator.h"

#include <string>
#include <utility>

#include "strata/comparator.h"

namespace strata {

namespace {

// The entries of all children in one order: by key, and among equal keys
// by child index (earlier first). Forward iteration walks that order up, a
// min-heap on (key, index); reverse walks it down, a max-heap.
class MergingIterator final : public InternalIterator {
 public:
  MergingIterator(const Comparator* comparator,
                  std::vector<InternalIterator*> children)
      : comparator_(comparator), children_(std::move(children)) {
    heap_.reserve(children_.size());
  }

  ~MergingIterator() override {
    for (InternalIterator* child : children_) delete child;
  }

  // Once a child stops with an error, the merge stops too: going on with
  // the other children would skip that child's entries without a word
  // (a damaged table would look like one without those keys).
  bool Valid() const override { return !heap_.empty() && error_.ok(); }

  void SeekToFirst() override {
    for (InternalIterator* child : children_) child->SeekToFirst();
    Rebuild(kForward);
  }

  void SeekToLast() override {
    for (InternalIterator* child : children_) child->SeekToLast();
    Rebuild(kReverse);
  }

  void Seek(const Slice& target) override {
    for (InternalIterator* child : children_) child->Seek(target);
    Rebuild(kForward);
  }

  void SeekForPrev(const Slice& target) override {
    for (InternalIterator* child : children_) child->SeekForPrev(target);
    Rebuild(kReverse);
  }

  void Next() override {
    if (direction_ != kForward) SwitchDirection(kForward);
    Advance([](InternalIterator* it) { it->Next(); });
  }

  void Prev() override {
    if (direction_ != kReverse) SwitchDirection(kReverse);
    Advance([](InternalIterator* it) { it->Prev(); });
  }

  void SetSeekConfinedToPrefix(bool confined) override {
    for (InternalIterator* child : children_) {
      child->SetSeekConfinedToPrefix(confined);
    }
  }

  Slice key() const override { return children_[heap_[0]]->key(); }
  Slice value() const override { return children_[heap_[0]]->value(); }

  Status status() const override {
    if (!error_.ok()) return error_;
    for (const InternalIterator* child : children_) {
      Status s = child->status();
      if (!s.ok()) return s;
    }
    return Status::OK();
  }

 private:
  enum Direction { kForward, kReverse };

  // Whether child a's entry comes before child b's in the direction.
  bool Before(size_t a, size_t b) const {
    int r = comparator_->Compare(children_[a]->key(), children_[b]->key());
    if (r == 0) r = a < b ? -1 : 1;
    return direction_ == kForward ? r < 0 : r > 0;
  }

  void Rebuild(Direction direction) {
    direction_ = direction;
    heap_.clear();
    error_ = Status::OK();
    for (size_t i = 0; i < children_.size(); i++) {
      if (children_[i]->Valid()) {
        heap_.push_back(i);
        SiftUp(heap_.size() - 1);
      } else if (error_.ok()) {
        error_ = children_[i]->status();
      }
    }
  }

  // Moves the top child one step and restores the heap.
  template <class Step>
  void Advance(Step step) {
    InternalIterator* top = children_[heap_[0]];
    step(top);
    if (!top->Valid()) {
      if (error_.ok()) error_ = top->status();
      heap_[0] = heap_.back();
      heap_.pop_back();
    }
    if (!heap_.empty()) SiftDown(0);
  }

  // Positions every child just past the current entry in the new
  // direction: the ones ahead of it in that direction stay, the rest
  // move to the next entry after the current key. The current child is
  // already there; the caller then steps it.
  void SwitchDirection(Direction direction) {
    const size_t current = heap_[0];
    const std::string target = key().ToString();
    for (size_t i = 0; i < children_.size(); i++) {
      if (i == current) continue;
      InternalIterator* child = children_[i];
      if (direction == kForward) {
        child->Seek(target);
        if (child->Valid() && i < current &&
            comparator_->Compare(child->key(), target) == 0) {
          child->Next();
        }
      } else {
        child->SeekForPrev(target);
        if (child->Valid() && i > current &&
            comparator_->Compare(child->key(), target) == 0) {
          child->Prev();
        }
      }
    }
    Rebuild(direction);
    // Rebuild leaves the current child on top: its key is the target and
    // every other child is now strictly beyond it.
  }

  void SiftUp(size_t pos) {
    while (pos > 0) {
      const size_t parent = (pos - 1) / 2;
      if (!Before(heap_[pos], heap_[parent])) break;
      std::swap(heap_[pos], heap_[parent]);
      pos = parent;
    }
  }

  void SiftDown(size_t pos) {
    const size_t n = heap_.size();
    for (;;) {
      size_t best = pos;
      const size_t left = 2 * pos + 1;
      const size_t right = left + 1;
      if (left < n && Before(heap_[left], heap_[best])) best = left;
      if (right < n && Before(heap_[right], heap_[best])) best = right;
      if (best == pos) break;
      std::swap(heap_[pos], heap_[best]);
      pos = best;
    }
  }

  const Comparator* const comparator_;
  const std::vector<InternalIterator*> children_;
  std::vector<size_t> heap_;
  // The first error a child stopped with since the last seek.
  Status error_;  // indices of the valid children
  Direction direction_ = kForward;
};

}  // namespace

InternalIterator* NewMergingIterator(const Comparator* comparator,
                                     std::vector<InternalIterator*> children) {
  if (children.empty()) return NewEmptyInternalIterator();
  if (children.size() == 1) return children[0];
  return new MergingIterator(comparator, std::move(children));
}

}  // namespace strata
