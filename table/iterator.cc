// The iterator base classes and the empty/error iterators.

#include "strata/iterator.h"

#include "table/internal_iterator.h"

namespace strata {

Iterator::~Iterator() = default;
InternalIterator::~InternalIterator() = default;

namespace {

// Empty, with a fixed status; Base is Iterator or InternalIterator.
template <class Base>
class EmptyIterator final : public Base {
 public:
  explicit EmptyIterator(const Status& s) : status_(s) {}
  bool Valid() const override { return false; }
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Seek(const Slice&) override {}
  void SeekForPrev(const Slice&) override {}
  void Next() override {}
  void Prev() override {}
  Slice key() const override { return Slice(); }
  Slice value() const override { return Slice(); }
  Status status() const override { return status_; }

 private:
  const Status status_;
};

}  // namespace

Iterator* NewEmptyIterator() { return new EmptyIterator<Iterator>(Status()); }

Iterator* NewErrorIterator(const Status& status) {
  return new EmptyIterator<Iterator>(status);
}

InternalIterator* NewEmptyInternalIterator() {
  return new EmptyIterator<InternalIterator>(Status());
}

InternalIterator* NewErrorInternalIterator(const Status& status) {
  return new EmptyIterator<InternalIterator>(status);
}

}  // namespace strata
