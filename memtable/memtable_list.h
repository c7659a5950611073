// The immutable memtables: full memtables waiting to be (or being) flushed.
//
// MemTableListVersion is a snapshot of that list, newest memtable first.
// It never changes once built; MemTableList moves forward by installing a
// new version (Add, RemoveOldest) that shares the memtables it keeps. A
// version holds a reference on each of its memtables, so a reader that
// took a reference on a version keeps every memtable in it alive, even
// after a flush removed them from the current version.
//
// Reads see memtables newest first; since each memtable holds a younger
// range of sequence numbers than the ones after it, the first memtable
// with a visible version of a key holds the newest visible version.
//
// Thread safety: every mutating call (MemTableList::Add, RemoveOldest) and
// every Ref/Unref, of versions and of memtables, is made with the DB mutex
// held. A reader takes a reference on current() under the mutex, then
// reads its memtables without it (db/read_view.h); Add on memtables that
// are in a version never happens (they are immutable).

#ifndef STRATA_MEMTABLE_MEMTABLE_LIST_H_
#define STRATA_MEMTABLE_MEMTABLE_LIST_H_

#include <cstddef>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "memtable/memtable.h"
#include "strata/status.h"
#include "table/internal_iterator.h"

namespace strata {

class MemTableListVersion {
 public:
  MemTableListVersion(const MemTableListVersion&) = delete;
  MemTableListVersion& operator=(const MemTableListVersion&) = delete;

  // REQUIRES: the DB mutex.
  void Ref() { ++refs_; }
  // Deletes the version, and drops its references on its memtables, when
  // the last reference goes. REQUIRES: the DB mutex.
  void Unref();

  size_t ApproximateMemoryUsage() const;
  int NumMemTables() const { return static_cast<int>(memtables_.size()); }
  // Newest first.
  const std::vector<MemTable*>& memtables() const { return memtables_; }

 private:
  friend class MemTableList;

  // Holds a reference on each of memtables.
  explicit MemTableListVersion(std::vector<MemTable*> memtables);
  ~MemTableListVersion();

  const std::vector<MemTable*> memtables_;
  int refs_ = 0;
};

class MemTableList {
 public:
  MemTableList();
  MemTableList(const MemTableList&) = delete;
  MemTableList& operator=(const MemTableList&) = delete;
  // Drops the current version (memtables still in use by readers' versions
  // live on until those go).
  ~MemTableList();

  // The current version; never null. To use it without the mutex, Ref it
  // while holding the mutex. REQUIRES: the DB mutex.
  MemTableListVersion* current() const { return current_; }

  // Makes m the newest immutable memtable (MemTable::MarkImmutable). The
  // list takes its own reference on m; the caller's reference (if any)
  // stays the caller's.
  // REQUIRES: the DB mutex; no write into m follows.
  void Add(MemTable* m);

  // Drops the n oldest memtables (after they were flushed).
  // REQUIRES: the DB mutex, n <= NumNotFlushed().
  void RemoveOldest(size_t n);

  // REQUIRES: the DB mutex (or no concurrent Add/RemoveOldest).
  int NumNotFlushed() const { return current_->NumMemTables(); }
  size_t ApproximateMemoryUsage() const {
    return current_->ApproximateMemoryUsage();
  }

 private:
  void Install(std::vector<MemTable*> memtables);

  MemTableListVersion* current_;
};

}  // namespace strata

#endif  // STRATA_MEMTABLE_MEMTABLE_LIST_H_
