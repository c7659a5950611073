// Cleanable's list of cleanups; the contract is in include/strata/cleanable.h.

#include "strata/cleanable.h"

namespace strata {

struct Cleanable::Node {
  Entry entry;
  Node* next;
};

Cleanable::~Cleanable() { Reset(); }

Cleanable::Cleanable(Cleanable&& other) noexcept {
  other.Detach(&first_, &rest_);
}

Cleanable& Cleanable::operator=(Cleanable&& other) noexcept {
  if (this != &other) {
    Reset();
    other.Detach(&first_, &rest_);
  }
  return *this;
}

void Cleanable::RegisterCleanup(CleanupFunction function, void* arg1,
                                void* arg2) {
  if (function == nullptr) return;
  if (first_.function == nullptr) {
    first_ = Entry{function, arg1, arg2};
  } else {
    rest_ = new Node{Entry{function, arg1, arg2}, rest_};
  }
}

void Cleanable::DelegateCleanupsTo(Cleanable* other) {
  if (other == nullptr || other == this || !HasCleanups()) return;
  if (!other->HasCleanups()) {
    Detach(&other->first_, &other->rest_);
    return;
  }
  // Ours become other's newest: our overflow list (newest first), then our
  // oldest (first_, which needs a node there), then other's own list. The
  // one allocation comes before any change, so a failure leaves both as
  // they were.
  Node* oldest = new Node{first_, other->rest_};
  Node* head = oldest;
  if (rest_ != nullptr) {
    Node* tail = rest_;
    while (tail->next != nullptr) tail = tail->next;
    tail->next = oldest;
    head = rest_;
  }
  other->rest_ = head;
  first_ = Entry{nullptr, nullptr, nullptr};
  rest_ = nullptr;
}

void Cleanable::Reset() {
  if (!HasCleanups()) return;  // every PinnableSlice that copied its value
  Entry first;
  Node* rest;
  Detach(&first, &rest);
  Run(first, rest);
}

void Cleanable::Detach(Entry* first, Node** rest) {
  *first = first_;
  *rest = rest_;
  first_ = Entry{nullptr, nullptr, nullptr};
  rest_ = nullptr;
}

void Cleanable::Run(const Entry& first, Node* rest) {
  while (rest != nullptr) {
    const Entry e = rest->entry;
    Node* next = rest->next;
    delete rest;
    rest = next;
    (*e.function)(e.arg1, e.arg2);
  }
  if (first.function != nullptr) (*first.function)(first.arg1, first.arg2);
}

}  // namespace strata
