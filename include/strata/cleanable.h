// Cleanable: an object that owns a list of deferred cleanup calls.
//
// A cleanup is a plain function pointer with two opaque arguments. Whoever
// hands out memory it must later release (a pinned cache block, a buffer
// kept alive for an iterator) registers a cleanup on the object that
// borrows the memory; the cleanup runs when that object is Reset() or
// destroyed.
//
// Contract:
// - Each registered cleanup runs exactly once: on Reset(), on destruction,
//   or — after DelegateCleanupsTo() or a move — on whichever object then
//   owns it. Nothing is run twice and nothing is dropped.
// - Order: cleanups run in reverse order of registration, newest first, as
//   destructors do. Cleanups delegated to another object count as
//   registered there at the moment of delegation, keeping their relative
//   order.
// - The list is detached before any cleanup runs, so a cleanup may register
//   new cleanups on the same object; those run on the next Reset() or at
//   destruction, not in the current pass.
// - Copying is disallowed (a copy would run the cleanups twice); moving
//   transfers them and leaves the source with none.
//
// The first cleanup is stored inline; further ones are allocated. Both the
// allocation and the release happen inside the library (none of it is
// inline here), so a Cleanable filled by strata.dll may be destroyed by a
// program that uses another C runtime.
//
// Thread safety: none. A Cleanable shared between threads needs external
// synchronization.

#ifndef STRATA_INCLUDE_CLEANABLE_H_
#define STRATA_INCLUDE_CLEANABLE_H_

#include "strata/export.h"

namespace strata {

class STRATA_EXPORT Cleanable {
 public:
  // Receives the two arguments given to RegisterCleanup().
  using CleanupFunction = void (*)(void* arg1, void* arg2);

  Cleanable() = default;
  Cleanable(const Cleanable&) = delete;
  Cleanable& operator=(const Cleanable&) = delete;

  // Runs every cleanup still registered.
  ~Cleanable();

  // Takes over other's cleanups; other is left with none.
  Cleanable(Cleanable&& other) noexcept;
  // Runs this object's own cleanups first, then takes over other's. Moving
  // an object onto itself does nothing.
  Cleanable& operator=(Cleanable&& other) noexcept;

  // Adds function(arg1, arg2) to the cleanups. A null function is ignored.
  void RegisterCleanup(CleanupFunction function, void* arg1, void* arg2);

  // Moves every cleanup of this object to *other, after those other already
  // has (so they run before other's older ones). This object is left with
  // none. Does nothing if other is null or this object.
  void DelegateCleanupsTo(Cleanable* other);

  // Runs the cleanups now and leaves the object empty and reusable.
  void Reset();

  bool HasCleanups() const { return first_.function != nullptr; }

 private:
  struct Entry {
    CleanupFunction function;
    void* arg1;
    void* arg2;
  };
  struct Node;  // An allocated Entry in the overflow list.

  // Moves the cleanups out of *this into the caller's variables, leaving
  // *this empty.
  void Detach(Entry* first, Node** rest);
  // Runs and frees a detached list: rest newest first, then first.
  static void Run(const Entry& first, Node* rest);

  // Invariants: first_.function is null exactly when there are no cleanups;
  // rest_ is then null too. first_ is the oldest cleanup; rest_ holds the
  // newer ones, newest at the head.
  Entry first_ = {nullptr, nullptr, nullptr};
  Node* rest_ = nullptr;
};

}  // namespace strata

#endif  // STRATA_INCLUDE_CLEANABLE_H_
