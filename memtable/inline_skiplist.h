// InlineSkipList: the memtable's ordered index. A skiplist whose keys live
// in the same allocation as the node, right after its links: one
// allocation per entry, and the key is on the cache line the search just
// loaded.
//
// Keys are opaque byte strings the caller encodes (the memtable's entry
// encoding); Comparator is a callable
//   int operator()(const char* a, const char* b) const
// returning <0, 0, >0, and it must be able to find each key's length on
// its own. Keys are never modified after Insert and never removed.
//
// Thread safety:
//   - Writes: Insert() needs external synchronization (one writer at a
//     time); InsertConcurrently() may be called from many threads at once.
//     The two must not run at the same time (Insert keeps a cached search
//     path that concurrent inserts would go around); running them one after
//     the other is fine.
//   - Reads (Contains, Iterator) need no lock and may run alongside either
//     kind of write. A reader sees every key whose insert completed before
//     the read started, may or may not see keys being inserted meanwhile,
//     and always sees a correctly ordered list.
//   - AllocateKey() is as thread-safe as the Allocator (ConcurrentArena: any
//     number of threads).
//
// Invariants:
//   - A node is never unlinked or freed while the list exists; its memory
//     belongs to the Allocator and goes away with it. Readers can therefore
//     hold node pointers without any reclamation scheme.
//   - Level i's list is a sublist of level i-1's: a node is linked bottom-up
//     (level 0 first), so anything reachable at level i is already
//     reachable below it.
//   - Memory order: a node's key and its outgoing links are written with
//     plain/relaxed stores before the node is published with a release
//     store (serial) or a release CAS (concurrent) into its predecessor's
//     link. Every reader loads links with acquire, so whoever reaches a
//     node through a link sees its key and its links fully written. The
//     list height is a relaxed hint: a reader that sees a height whose
//     levels are not yet linked finds null links at the head and descends.
//
// Node layout (height h), one AllocateAligned block:
//
//   +-----------+-----+-----------+-----------+----------------+
//   | link[h-1] | ... |  link[1]  |  link[0]  | key bytes ...  |
//   +-----------+-----+-----------+-----------+----------------+
//                                 ^ Node*     ^ Node::Key()
//
// Putting the upper links before the node keeps the key at a fixed offset
// from the Node pointer whatever the height, so no height is stored. Until
// Insert links it, link[0] holds the node's height (see AllocateKey).

#ifndef STRATA_MEMTABLE_INLINE_SKIPLIST_H_
#define STRATA_MEMTABLE_INLINE_SKIPLIST_H_

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <new>

#include "memtable/allocator.h"
#include "port/port.h"

namespace strata {

template <class Comparator>
class InlineSkipList {
 private:
  struct Node;
  struct Splice;

 public:
  static constexpr int32_t kMaxPossibleHeight = 32;

  // REQUIRES: 1 <= max_height <= kMaxPossibleHeight, branching_factor >= 2.
  // allocator must outlive the list.
  InlineSkipList(Comparator cmp, Allocator* allocator, int32_t max_height = 12,
                 int32_t branching_factor = 4);
  InlineSkipList(const InlineSkipList&) = delete;
  InlineSkipList& operator=(const InlineSkipList&) = delete;

  // Space for a key of key_size bytes inside a new node. The caller fills
  // it in and passes it to Insert or InsertConcurrently (exactly once).
  char* AllocateKey(size_t key_size);

  // Links the node of key (from AllocateKey) into the list. False, and the
  // list is unchanged, if an equal key is present. REQUIRES: external
  // synchronization against other writers.
  bool Insert(const char* key);

  // As Insert, but any number of threads may call it at once.
  bool InsertConcurrently(const char* key);

  // Inserts n keys (from AllocateKey) given in ascending order, as n
  // Inserts would: on_refused(key) is called for each key equal to one
  // present (the list is unchanged by it). Faster than n Inserts when the
  // keys lie far apart in a large list (memtable/inline_skiplist_sorted.h).
  // REQUIRES: as Insert.
  template <class OnRefused>
  void InsertSorted(const char* const* keys, size_t n, OnRefused on_refused);

  bool Contains(const char* key) const;

  // Iteration over a list. Keeps no lock; the list must outlive it.
  class Iterator {
   public:
    explicit Iterator(const InlineSkipList* list) : list_(list) {}

    bool Valid() const { return node_ != nullptr; }
    // REQUIRES: Valid()
    const char* key() const {
      assert(Valid());
      return node_->Key();
    }
    // REQUIRES: Valid()
    void Next() {
      assert(Valid());
      node_ = node_->Next(0);
      // Level 0 in key order visits nodes scattered over the arena (they
      // are allocated in insertion order): the node after the new current
      // one starts loading while the caller works on this one.
      if (node_ != nullptr) PrefetchNode(node_->Next(0));
    }
    // No back links: a search for the last key before this one.
    // REQUIRES: Valid()
    void Prev() {
      assert(Valid());
      node_ = list_->NullIfHead(list_->FindLessThan(node_->Key()));
    }
    // The first key >= target.
    void Seek(const char* target) { node_ = list_->FindGreaterOrEqual(target); }
    // The last key <= target.
    void SeekForPrev(const char* target);
    void SeekToFirst() { node_ = list_->head_->Next(0); }
    void SeekToLast() { node_ = list_->NullIfHead(list_->FindLast()); }

   private:
    const InlineSkipList* const list_;
    Node* node_ = nullptr;
  };

 private:
  // A search path: for each level below height, the last node before the
  // key (prev) and the first node at or after it (next, null at the end).
  // Searching from the top uses prev[height] = head, next[height] = null.
  struct Splice {
    int height = 0;
    Node* prev[kMaxPossibleHeight + 1];
    Node* next[kMaxPossibleHeight + 1];
  };

  int RandomHeight();
  Node* NewNode(size_t key_size, int height);
  // Starts loading x's link and the first kPrefetchBytes of its key (a
  // memtable entry of a short key and a value of about 100 bytes).
  static void PrefetchNode(const Node* x) {
    if (x == nullptr) return;
    const char* p = reinterpret_cast<const char*>(x);
    for (size_t i = 0; i < kPrefetchBytes; i += port::kCacheLineSize) {
      port::Prefetch(p + i);
    }
  }
  static constexpr size_t kPrefetchBytes = 192;
  // Starts loading what a search step at level reads of x: its key and its
  // link at that level (before the node for level > 0).
  static void PrefetchStep(Node* x, int level) {
    if (x == nullptr) return;
    port::Prefetch(reinterpret_cast<const char*>(x));
    if (level > 0)
      port::Prefetch(reinterpret_cast<const char*>(x->Link(level)));
  }
  static Node* NodeOfKey(const char* key) {
    return reinterpret_cast<Node*>(const_cast<char*>(key)) - 1;
  }
  Node* NullIfHead(Node* x) const { return x == head_ ? nullptr : x; }
  bool Less(const char* a, const char* b) const { return compare_(a, b) < 0; }

  // The first node with key >= key, or null.
  Node* FindGreaterOrEqual(const char* key) const;
  // The last node with key < key, or head_ if there is none.
  Node* FindLessThan(const char* key) const;
  // The last node, or head_ if the list is empty.
  Node* FindLast() const;

  // Walks level from before (whose key is < key, or the head) to the first
  // node with key >= key; *prev/*next bracket key at that level. after is
  // a node known to be >= key (or null): reaching it ends the walk without
  // a comparison.
  void FindSpliceForLevel(const char* key, Node* before, Node* after, int level,
                          Node** prev, Node** next) const;

  // Makes splice bracket key at every level below the list height.
  // Levels of a cached splice that still bracket key are reused.
  void PrepareSplice(const char* key, Splice* splice, int list_height) const;

  template <bool kConcurrent>
  bool InsertWithSplice(const char* key, Splice* splice);

  // InsertSorted's searches, interleaved: for each key j, its prev at each
  // level below its node's height, into prevs[offsets[j]...], against the
  // list as it is (search_height levels).
  void SearchInterleaved(const char* const* keys, size_t n, int search_height,
                         const size_t* offsets, Node** prevs) const;

  Allocator* const allocator_;
  const Comparator compare_;
  const int32_t max_height_;
  const uint32_t branching_;
  Node* const head_;
  // Height of the tallest node so far (at least 1). Only grows.
  std::atomic<int> height_{1};
  // State of the height generator, advanced atomically so AllocateKey may
  // run on many threads.
  std::atomic<uint64_t> random_state_{0x2545F4914F6CDD1Dull};
  // Insert()'s search path from the previous Insert: for ascending keys
  // the next search starts where the last one ended.
  Splice seq_splice_;
};

template <class Comparator>
struct InlineSkipList<Comparator>::Node {
  // Links 1..h-1 are the atomics just before link0_ (see the layout in the
  // file comment); the arithmetic stays inside the node's allocation.
  std::atomic<Node*>* Link(int level) { return &link0_ - level; }

  const char* Key() const { return reinterpret_cast<const char*>(this + 1); }

  Node* Next(int level) { return Link(level)->load(std::memory_order_acquire); }
  // Publishes this node's successor: everything written before is visible
  // to whoever loads the link with acquire.
  void SetNext(int level, Node* x) {
    Link(level)->store(x, std::memory_order_release);
  }
  bool CasNext(int level, Node* expected, Node* x) {
    return Link(level)->compare_exchange_strong(
        expected, x, std::memory_order_release, std::memory_order_relaxed);
  }
  // For a node not yet published: nobody else can read it.
  void NoBarrierSetNext(int level, Node* x) {
    Link(level)->store(x, std::memory_order_relaxed);
  }

  // Before the node is linked, link0_ carries its height from AllocateKey
  // to Insert.
  void StashHeight(int height) {
    link0_.store(reinterpret_cast<Node*>(static_cast<intptr_t>(height)),
                 std::memory_order_relaxed);
  }
  int UnstashHeight() {
    return static_cast<int>(
        reinterpret_cast<intptr_t>(link0_.load(std::memory_order_relaxed)));
  }

  std::atomic<Node*> link0_;
};

template <class Comparator>
InlineSkipList<Comparator>::InlineSkipList(Comparator cmp, Allocator* allocator,
                                           int32_t max_height,
                                           int32_t branching_factor)
    : allocator_(allocator),
      compare_(cmp),
      max_height_(max_height),
      branching_(static_cast<uint32_t>(branching_factor)),
      head_(NewNode(0, max_height)) {
  assert(max_height >= 1 && max_height <= kMaxPossibleHeight);
  assert(branching_factor >= 2);
  for (int i = 0; i < max_height_; i++) head_->NoBarrierSetNext(i, nullptr);
}

template <class Comparator>
int InlineSkipList<Comparator>::RandomHeight() {
  // splitmix64 over a shared Weyl sequence: one relaxed fetch_add per key,
  // uniform 64-bit output, no per-thread state.
  uint64_t z =
      random_state_.fetch_add(0x9E3779B97F4A7C15ull, std::memory_order_relaxed);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  // Each extra level with probability 1/branching_.
  int height = 1;
  while (height < max_height_ && z % branching_ == 0) {
    height++;
    z /= branching_;
  }
  return height;
}

template <class Comparator>
typename InlineSkipList<Comparator>::Node* InlineSkipList<Comparator>::NewNode(
    size_t key_size, int height) {
  const size_t upper_links = sizeof(std::atomic<Node*>) * (height - 1);
  char* raw =
      allocator_->AllocateAligned(upper_links + sizeof(Node) + key_size);
  Node* x = new (raw + upper_links) Node;
  for (int i = 1; i < height; i++) new (x->Link(i)) std::atomic<Node*>;
  return x;
}

template <class Comparator>
char* InlineSkipList<Comparator>::AllocateKey(size_t key_size) {
  const int height = RandomHeight();
  Node* x = NewNode(key_size, height);
  x->StashHeight(height);
  return const_cast<char*>(x->Key());
}

template <class Comparator>
typename InlineSkipList<Comparator>::Node*
InlineSkipList<Comparator>::FindGreaterOrEqual(const char* key) const {
  Node* x = head_;
  int level = height_.load(std::memory_order_relaxed) - 1;
  // The node that stopped the walk one level up: known to be >= key, so
  // meeting it again needs no comparison.
  Node* bound = nullptr;
  for (;;) {
    Node* next = x->Next(level);
    const int cmp =
        (next == nullptr || next == bound) ? 1 : compare_(next->Key(), key);
    if (cmp == 0 || (cmp > 0 && level == 0)) return next;
    if (cmp < 0) {
      x = next;
    } else {
      bound = next;
      level--;
    }
  }
}

template <class Comparator>
typename InlineSkipList<Comparator>::Node*
InlineSkipList<Comparator>::FindLessThan(const char* key) const {
  Node* x = head_;
  int level = height_.load(std::memory_order_relaxed) - 1;
  Node* bound = nullptr;
  for (;;) {
    Node* next = x->Next(level);
    if (next != nullptr && next != bound && Less(next->Key(), key)) {
      x = next;
    } else if (level == 0) {
      return x;
    } else {
      bound = next;
      level--;
    }
  }
}

template <class Comparator>
typename InlineSkipList<Comparator>::Node*
InlineSkipList<Comparator>::FindLast() const {
  Node* x = head_;
  int level = height_.load(std::memory_order_relaxed) - 1;
  for (;;) {
    Node* next = x->Next(level);
    if (next != nullptr) {
      x = next;
    } else if (level == 0) {
      return x;
    } else {
      level--;
    }
  }
}

template <class Comparator>
bool InlineSkipList<Comparator>::Contains(const char* key) const {
  Node* x = FindGreaterOrEqual(key);
  return x != nullptr && compare_(key, x->Key()) == 0;
}

template <class Comparator>
void InlineSkipList<Comparator>::Iterator::SeekForPrev(const char* target) {
  Node* before = list_->FindLessThan(target);
  Node* at = before->Next(0);
  if (at != nullptr && list_->compare_(at->Key(), target) == 0) {
    node_ = at;
  } else {
    node_ = list_->NullIfHead(before);
  }
}

template <class Comparator>
void InlineSkipList<Comparator>::FindSpliceForLevel(const char* key,
                                                    Node* before, Node* after,
                                                    int level, Node** prev,
                                                    Node** next) const {
  for (;;) {
    Node* x = before->Next(level);
    if (x == after || x == nullptr || !Less(x->Key(), key)) {
      *prev = before;
      *next = x;
      return;
    }
    before = x;
  }
}

template <class Comparator>
void InlineSkipList<Comparator>::PrepareSplice(const char* key, Splice* splice,
                                               int list_height) const {
  // The lowest level that still brackets key. A splice is nested (prev
  // nodes do not decrease and next nodes do not increase going down), so
  // every level above it brackets key too — prev[i] < key is what
  // correctness needs (walks only go forward); key < next[i] only keeps
  // the walks short.
  int level = 0;
  if (splice->height < list_height) {
    level = list_height;  // the list grew: search from the top
  } else {
    while (level < list_height) {
      Node* prev = splice->prev[level];
      Node* next = splice->next[level];
      if ((prev == head_ || Less(prev->Key(), key)) &&
          (next == nullptr || Less(key, next->Key()))) {
        break;
      }
      level++;
    }
  }
  if (level == list_height) {
    splice->prev[level] = head_;
    splice->next[level] = nullptr;
    splice->height = list_height;
  }
  while (level > 0) {
    level--;
    FindSpliceForLevel(key, splice->prev[level + 1], splice->next[level + 1],
                       level, &splice->prev[level], &splice->next[level]);
  }
}

template <class Comparator>
bool InlineSkipList<Comparator>::Insert(const char* key) {
  return InsertWithSplice<false>(key, &seq_splice_);
}

template <class Comparator>
bool InlineSkipList<Comparator>::InsertConcurrently(const char* key) {
  Splice splice;  // fresh: other threads move the list under any cache
  return InsertWithSplice<true>(key, &splice);
}

template <class Comparator>
template <bool kConcurrent>
bool InlineSkipList<Comparator>::InsertWithSplice(const char* key,
                                                  Splice* splice) {
  Node* x = NodeOfKey(key);
  const int height = x->UnstashHeight();
  assert(height >= 1 && height <= max_height_);

  int list_height = height_.load(std::memory_order_relaxed);
  while (height > list_height) {
    // Relaxed is enough: the new levels' head links are still null, which
    // readers and other writers handle as the end of those levels.
    if (height_.compare_exchange_weak(list_height, height,
                                      std::memory_order_relaxed)) {
      list_height = height;
    }
  }

  PrepareSplice(key, splice, list_height);
  // Levels of a reused (cached) splice above the recomputed ones may have
  // gained nodes after their next; walking from prev (hinted by next)
  // brings them up to date, at the cost of one load when nothing changed.
  if (!kConcurrent) {
    for (int i = 0; i < height; i++) {
      FindSpliceForLevel(key, splice->prev[i], splice->next[i], i,
                         &splice->prev[i], &splice->next[i]);
    }
  }

  // next[0] is the first node >= key.
  if (splice->next[0] != nullptr &&
      compare_(splice->next[0]->Key(), key) == 0) {
    return false;
  }

  for (int i = 0; i < height; i++) {
    if (!kConcurrent) {
      x->NoBarrierSetNext(i, splice->next[i]);
      splice->prev[i]->SetNext(i, x);
      continue;
    }
    for (;;) {
      x->NoBarrierSetNext(i, splice->next[i]);
      if (splice->prev[i]->CasNext(i, splice->next[i], x)) break;
      // Another writer linked a node after prev[i]: find our place again
      // from prev[i], which is still before key.
      FindSpliceForLevel(key, splice->prev[i], nullptr, i, &splice->prev[i],
                         &splice->next[i]);
      // Nothing is linked yet at level 0, so an equal key that won the race
      // can still be refused cleanly. Above level 0, x is in the list and
      // any equal key would have met it there.
      if (i == 0 && splice->next[0] != nullptr &&
          compare_(splice->next[0]->Key(), key) == 0) {
        return false;
      }
    }
  }

  if (!kConcurrent) {
    // The next ascending key goes right after x.
    for (int i = 0; i < height; i++) splice->prev[i] = x;
  }
  return true;
}

}  // namespace strata

#include "memtable/inline_skiplist_sorted.h"

#endif  // STRATA_MEMTABLE_INLINE_SKIPLIST_H_
