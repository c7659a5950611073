// DBImpl: reads — Get, MultiGet, iterators, snapshots and properties.
//
// A read picks its sequence number (the snapshot's, or the newest
// published), then references the memtables under the mutex and searches
// them without it, newest first.

#include "db/db_impl.h"
#include "db/db_iter.h"
#include "memtable/memtable.h"
#include "table/merging_iterator.h"
#include "util/logging.h"
#include "util/mutexlock.h"
#include "util/stop_watch.h"

namespace strata {

Snapshot::~Snapshot() = default;

Status DBImpl::AcquireReadView(const ReadOptions& options, ReadView* view) {
  MutexLock l(&mutex_);
  if (closing_ || mem_ == nullptr) {
    return Status::ShutdownInProgress("the DB is closed");
  }
  // The sequence first: the memtables referenced next hold everything up
  // to it (a switch only moves the full memtable to imm_).
  view->sequence = options.snapshot != nullptr
                       ? options.snapshot->GetSequenceNumber()
                       : last_published_.load(std::memory_order_acquire);
  view->mem = mem_;
  view->mem->Ref();
  view->imm = imm_.current();
  view->imm->Ref();
  return Status::OK();
}

void DBImpl::ReleaseReadView(const ReadView& view) {
  MutexLock l(&mutex_);
  view.mem->Unref();
  view.imm->Unref();
}

Status DBImpl::Get(const ReadOptions& options, const Slice& key,
                   std::string* value) {
  Statistics* stats = options_.statistics.get();
  StopWatch timer(env_, stats, DB_GET);
  ReadView view;
  Status s = AcquireReadView(options, &view);
  if (!s.ok()) return s;
  LookupKey lkey(key, view.sequence);
  if (view.mem->Get(lkey, value, &s) || view.imm->Get(lkey, value, &s)) {
    RecordTick(stats, MEMTABLE_HIT);
  } else {
    RecordTick(stats, MEMTABLE_MISS);
    s = Status::NotFound();
  }
  ReleaseReadView(view);
  RecordTick(stats, NUMBER_KEYS_READ);
  if (s.ok()) RecordTick(stats, BYTES_READ, value->size());
  return s;
}

std::vector<Status> DBImpl::MultiGet(const ReadOptions& options,
                                     const std::vector<Slice>& keys,
                                     std::vector<std::string>* values) {
  Statistics* stats = options_.statistics.get();
  StopWatch timer(env_, stats, DB_MULTIGET);
  values->clear();
  values->resize(keys.size());
  ReadView view;
  Status s = AcquireReadView(options, &view);
  if (!s.ok()) return std::vector<Status>(keys.size(), s);
  std::vector<Status> result(keys.size());
  for (size_t i = 0; i < keys.size(); i++) {
    LookupKey lkey(keys[i], view.sequence);
    std::string* value = &(*values)[i];
    if (!view.mem->Get(lkey, value, &result[i]) &&
        !view.imm->Get(lkey, value, &result[i])) {
      result[i] = Status::NotFound();
    }
    if (result[i].ok()) RecordTick(stats, BYTES_READ, value->size());
  }
  RecordTick(stats, NUMBER_KEYS_READ, keys.size());
  ReleaseReadView(view);
  return result;
}

Iterator* DBImpl::NewIterator(const ReadOptions& options) {
  ReadView view;
  Status s = AcquireReadView(options, &view);
  if (!s.ok()) return NewErrorIterator(s);
  std::vector<InternalIterator*> children;
  children.push_back(view.mem->NewIterator());
  view.imm->AddIterators(&children);
  InternalIterator* merged = NewMergingIterator(&icmp_, std::move(children));
  const SliceTransform* prefix =
      options.prefix_same_as_start && !options.total_order_seek
          ? options_.prefix_extractor.get()
          : nullptr;
  return NewDBIterator(icmp_.user_comparator(), merged, view.sequence,
                       options.iterate_lower_bound, options.iterate_upper_bound,
                       prefix, [this, view]() { ReleaseReadView(view); });
}

const Snapshot* DBImpl::GetSnapshot() {
  MutexLock l(&mutex_);
  return snapshots_.New(last_published_.load(std::memory_order_acquire));
}

void DBImpl::ReleaseSnapshot(const Snapshot* snapshot) {
  if (snapshot == nullptr) return;
  MutexLock l(&mutex_);
  snapshots_.Delete(static_cast<const SnapshotImpl*>(snapshot));
}

SequenceNumber DBImpl::GetLatestSequenceNumber() const {
  return last_published_.load(std::memory_order_acquire);
}

bool DBImpl::GetIntProperty(const Slice& property, uint64_t* value) {
  MutexLock l(&mutex_);
  if (mem_ == nullptr) return false;
  MemTableListVersion* imm = imm_.current();
  if (property == "strata.cur-size-all-mem-tables") {
    *value = mem_->ApproximateMemoryUsage() + imm->ApproximateMemoryUsage();
  } else if (property == "strata.num-immutable-mem-table") {
    *value = static_cast<uint64_t>(imm->NumMemTables());
  } else if (property == "strata.estimate-num-keys") {
    // Entries minus deletions (each deletion hides at most one entry).
    uint64_t entries = mem_->num_entries();
    uint64_t deletes = mem_->num_deletes();
    for (MemTable* m : imm->memtables()) {
      entries += m->num_entries();
      deletes += m->num_deletes();
    }
    *value = entries > 2 * deletes ? entries - 2 * deletes : 0;
  } else if (property == "strata.num-snapshots") {
    *value = snapshots_.count();
  } else if (property == "strata.num-live-wal-files") {
    *value = live_logs_.size();
  } else {
    return false;
  }
  return true;
}

bool DBImpl::GetProperty(const Slice& property, std::string* value) {
  uint64_t number;
  if (!GetIntProperty(property, &number)) return false;
  *value = NumberToString(number);
  return true;
}

}  // namespace strata
