// InlineSkipList::InsertSorted: links a batch of ascending keys (one
// writer), included at the end of memtable/inline_skiplist.h. See
// docs/memtable.md, "Batches linked in key order".
//
// A search in a large list is a chain of dependent cache misses: each step
// loads the node the last one pointed to. The keys of a batch are
// independent, so their searches run interleaved: a few cursors, each
// waiting on the node it has asked the CPU to prefetch while the others
// take a step, keep several misses in flight instead of one. The searches
// run against the list as it was before the batch; the links then follow
// in key order, each level's search result moved forward over the batch's
// own nodes linked since (they are hot, and the last one linked at a
// level is where the walk starts when it lies further on).

#ifndef STRATA_MEMTABLE_INLINE_SKIPLIST_SORTED_H_
#define STRATA_MEMTABLE_INLINE_SKIPLIST_SORTED_H_

#include <cassert>
#include <vector>

namespace strata {

template <class Comparator>
template <class OnRefused>
void InlineSkipList<Comparator>::InsertSorted(const char* const* keys, size_t n,
                                              OnRefused on_refused) {
  if (n == 0) return;
  // Each key's node height and where its search result starts in prevs.
  std::vector<size_t> offsets(n + 1);
  for (size_t j = 0; j < n; j++) {
    offsets[j + 1] = offsets[j] + NodeOfKey(keys[j])->UnstashHeight();
  }
  std::vector<Node*> prevs(offsets[n]);
  const int search_height = height_.load(std::memory_order_relaxed);
  SearchInterleaved(keys, n, search_height, offsets.data(), prevs.data());

  Node* last_linked[kMaxPossibleHeight] = {};
  for (size_t j = 0; j < n; j++) {
    const char* key = keys[j];
    Node* x = NodeOfKey(key);
    const int height = static_cast<int>(offsets[j + 1] - offsets[j]);
    // The batch's last node precedes key, unless key repeats it.
    if (last_linked[0] != nullptr && !Less(last_linked[0]->Key(), key)) {
      assert(compare_(last_linked[0]->Key(), key) == 0);
      on_refused(key);
      continue;
    }
    if (height > height_.load(std::memory_order_relaxed)) {
      // One writer: no other insert raises it meanwhile. Relaxed, as in
      // InsertWithSplice: the new levels' head links are still null.
      height_.store(height, std::memory_order_relaxed);
    }
    Node* prev[kMaxPossibleHeight];
    Node* next[kMaxPossibleHeight];
    next[0] = nullptr;  // set below (height >= 1); the compiler cannot tell
    for (int level = 0; level < height; level++) {
      Node* before = prevs[offsets[j] + level];
      // The batch's last node at this level precedes key; start there if
      // it lies after the searched position (a dense batch would otherwise
      // walk over all of its earlier nodes).
      Node* last = last_linked[level];
      if (last != nullptr &&
          (before == head_ || Less(before->Key(), last->Key()))) {
        before = last;
      }
      FindSpliceForLevel(key, before, nullptr, level, &prev[level],
                         &next[level]);
    }
    if (next[0] != nullptr && compare_(next[0]->Key(), key) == 0) {
      on_refused(key);
      continue;
    }
    for (int level = 0; level < height; level++) {
      x->NoBarrierSetNext(level, next[level]);
      prev[level]->SetNext(level, x);
      last_linked[level] = x;
    }
  }
  // Insert's cached path may now skip nodes of the batch: search afresh.
  seq_splice_.height = 0;
}

template <class Comparator>
void InlineSkipList<Comparator>::SearchInterleaved(const char* const* keys,
                                                   size_t n, int search_height,
                                                   const size_t* offsets,
                                                   Node** prevs) const {
  // One search in progress: at level, before < key is known and x =
  // before->Next(level) is being prefetched; bound is a node known to be
  // >= key (the one that ended the walk a level up).
  struct Cursor {
    size_t j;
    Node* before;
    Node* x;
    Node* bound;
    int level;
  };
  constexpr size_t kCursors = 8;
  Cursor cursors[kCursors];
  size_t active = 0;
  size_t next_key = 0;
  const auto start = [&](Cursor* c) {
    const size_t j = next_key++;
    const int height = static_cast<int>(offsets[j + 1] - offsets[j]);
    // Levels the list does not have yet start at the head.
    for (int level = search_height; level < height; level++) {
      prevs[offsets[j] + level] = head_;
    }
    *c = Cursor{j, head_, head_->Next(search_height - 1), nullptr,
                search_height - 1};
    PrefetchStep(c->x, c->level);
  };
  while (active < kCursors && next_key < n) start(&cursors[active++]);
  while (active > 0) {
    for (size_t i = 0; i < active;) {
      Cursor* c = &cursors[i];
      const char* key = keys[c->j];
      if (c->x != nullptr && c->x != c->bound && Less(c->x->Key(), key)) {
        c->before = c->x;
      } else {
        if (c->level < static_cast<int>(offsets[c->j + 1] - offsets[c->j])) {
          prevs[offsets[c->j] + c->level] = c->before;
        }
        if (c->level == 0) {
          // Done: the slot takes the next key, or the last cursor.
          if (next_key < n) {
            start(c);
            i++;
          } else {
            *c = cursors[--active];
          }
          continue;
        }
        c->bound = c->x;
        c->level--;
      }
      c->x = c->before->Next(c->level);
      PrefetchStep(c->x, c->level);
      i++;
    }
  }
}

}  // namespace strata

#endif  // STRATA_MEMTABLE_INLINE_SKIPLIST_SORTED_H_
