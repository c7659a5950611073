#include "memtable/memtable_list.h"

#include <cassert>
#include <utility>

namespace strata {

MemTableListVersion::MemTableListVersion(std::vector<MemTable*> memtables)
    : memtables_(std::move(memtables)) {
  for (MemTable* m : memtables_) m->Ref();
}

MemTableListVersion::~MemTableListVersion() {
  assert(refs_ == 0);
  for (MemTable* m : memtables_) m->Unref();
}

void MemTableListVersion::Unref() {
  assert(refs_ > 0);
  if (--refs_ == 0) delete this;
}

size_t MemTableListVersion::ApproximateMemoryUsage() const {
  size_t total = 0;
  for (const MemTable* m : memtables_) total += m->ApproximateMemoryUsage();
  return total;
}

MemTableList::MemTableList() : current_(nullptr) {
  Install(std::vector<MemTable*>());
}

MemTableList::~MemTableList() { current_->Unref(); }

void MemTableList::Add(MemTable* m) {
  m->MarkImmutable();
  std::vector<MemTable*> memtables;
  memtables.reserve(current_->memtables_.size() + 1);
  memtables.push_back(m);
  memtables.insert(memtables.end(), current_->memtables_.begin(),
                   current_->memtables_.end());
  Install(std::move(memtables));
}

void MemTableList::RemoveOldest(size_t n) {
  const std::vector<MemTable*>& old = current_->memtables_;
  assert(n <= old.size());
  if (n > old.size()) n = old.size();
  Install(std::vector<MemTable*>(old.begin(), old.end() - n));
}

void MemTableList::Install(std::vector<MemTable*> memtables) {
  // The new version refs its memtables before the old one lets go, so a
  // memtable in both is never at zero in between.
  MemTableListVersion* v = new MemTableListVersion(std::move(memtables));
  v->Ref();
  if (current_ != nullptr) current_->Unref();
  current_ = v;
}

}  // namespace strata
