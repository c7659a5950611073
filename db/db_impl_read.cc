// DBImpl: reads — Get, MultiGet, iterators, snapshots and properties.
//
// A read picks its sequence number (the snapshot's, or the newest
// published), then references the memtables and the current version under
// the mutex (a ReadView) and searches them without it, newest first: the
// active memtable, the immutable ones, then the tables level by level
// (ReadView::Get). Range tombstones of every source that may cover the
// keys read are gathered first (ReadView::AddRangeTombstones); iterators
// hide what they delete through NewRangeDelFilterIterator.

#include <algorithm>
#include <cstdio>

#include "db/compaction_picker.h"
#include "db/db_impl.h"
#include "db/db_iter.h"
#include "db/range_del_aggregator.h"
#include "db/range_del_filter_iterator.h"
#include "db/stats_iterator.h"
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
  // The sequence first: the memtables and version referenced next hold
  // everything up to it (a switch only moves the full memtable to imm_,
  // and a flush installs its table before it drops the memtables).
  view->sequence = options.snapshot != nullptr
                       ? options.snapshot->GetSequenceNumber()
                       : last_published_.load(std::memory_order_acquire);
  view->mem = mem_;
  view->mem->Ref();
  view->imm = imm_.current();
  view->imm->Ref();
  view->version = versions_->current();
  view->version->Ref();
  return Status::OK();
}

void DBImpl::ReleaseReadView(const ReadView& view) {
  MutexLock l(&mutex_);
  view.mem->Unref();
  view.imm->Unref();
  view.version->Unref();
}

Status DBImpl::Get(const ReadOptions& options, const Slice& key,
                   std::string* value) {
  Statistics* stats = options_.statistics.get();
  StopWatch timer(env_, stats, DB_GET);
  ReadView view;
  Status s = AcquireReadView(options, &view);
  if (!s.ok()) return s;
  bool memtable_hit = false;
  s = view.Get(options, table_cache_.get(), options_.merge_operator.get(), key,
               value, &memtable_hit);
  ReleaseReadView(view);
  RecordTick(stats, memtable_hit ? MEMTABLE_HIT : MEMTABLE_MISS);
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
    result[i] =
        view.Get(options, table_cache_.get(), options_.merge_operator.get(),
                 keys[i], &(*values)[i], nullptr);
    if (result[i].ok()) RecordTick(stats, BYTES_READ, (*values)[i].size());
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
  // A memtable empty now holds nothing this read may see: its sequence was
  // published after the inserts up to it (not so with unordered_write,
  // whose published writes may still be on their way in). Leaving it out
  // spares a child, and, on a DB read after a reopen, the merging
  // iterator altogether.
  view.ForEachMemTable([&](MemTable* m) {
    if (m->num_entries() > 0 || options_.unordered_write) {
      children.push_back(m->NewIterator());
    }
    return true;
  });
  view.version->AddIterators(options, table_cache_.get(), &children);

  // Every tombstone, not only those within the bounds: a program may
  // change the bounds' bytes between seeks (they are read through the
  // pointers). Only the tables that hold tombstones are read.
  RangeDelAggregator tombstones =
      RangeDelAggregator::ForRead(icmp_.user_comparator(), view.sequence);
  s = view.AddRangeTombstones(options, table_cache_.get(), nullptr, nullptr,
                              &tombstones);
  InternalIterator* merged = NewMergingIterator(&icmp_, std::move(children));
  if (!s.ok()) {
    delete merged;
    ReleaseReadView(view);
    return NewErrorIterator(s);
  }
  if (!tombstones.IsEmpty()) {
    merged = NewRangeDelFilterIterator(
        merged, std::make_unique<RangeDelAggregator>(std::move(tombstones)));
  }
  const SliceTransform* prefix =
      options.prefix_same_as_start && !options.total_order_seek
          ? options_.prefix_extractor.get()
          : nullptr;
  Iterator* iter = NewDBIterator(
      icmp_.user_comparator(), merged, view.sequence,
      options.iterate_lower_bound, options.iterate_upper_bound, prefix,
      options_.merge_operator.get(), [this, view]() { ReleaseReadView(view); });
  Statistics* stats = options_.statistics.get();
  return stats == nullptr ? iter : NewStatsIterator(iter, env_, stats);
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
  const Slice level_prefix("strata.num-files-at-level");
  Version* version;
  {
    MutexLock l(&mutex_);
    if (mem_ == nullptr) return false;
    MemTableListVersion* imm = imm_.current();
    if (property == "strata.cur-size-all-mem-tables") {
      *value = mem_->ApproximateMemoryUsage() + imm->ApproximateMemoryUsage();
      return true;
    } else if (property == "strata.num-entries-active-mem-table") {
      *value = mem_->num_entries();
      return true;
    } else if (property == "strata.num-immutable-mem-table") {
      *value = static_cast<uint64_t>(imm->NumMemTables());
      return true;
    } else if (property == "strata.num-snapshots") {
      *value = snapshots_.count();
      return true;
    } else if (property == "strata.num-live-wal-files") {
      *value = live_logs_.size();
      return true;
    } else if (property == "strata.mem-table-flush-pending") {
      // An immutable memtable not yet in a table, its flush begun or not.
      *value = imm_.NumNotFlushed() > 0 ? 1 : 0;
      return true;
    } else if (property == "strata.num-running-flushes") {
      *value = flush_scheduled_ ? 1 : 0;
      return true;
    } else if (property == "strata.compaction-pending") {
      // Work the picker would take up now (files already in a compaction
      // are not offered again).
      *value = picker_.NeedsCompaction(LevelFilesViewOf(*versions_->current()))
                   ? 1
                   : 0;
      return true;
    } else if (property == "strata.num-running-compactions") {
      *value = static_cast<uint64_t>(bg_compactions_scheduled_ +
                                     manual_compactions_);
      return true;
    } else if (property.starts_with(level_prefix)) {
      uint64_t level = 0;
      Slice rest(property.data() + level_prefix.size(),
                 property.size() - level_prefix.size());
      if (!ConsumeDecimalNumber(&rest, &level) || !rest.empty() ||
          level >= static_cast<uint64_t>(versions_->NumberLevels())) {
        return false;
      }
      *value = static_cast<uint64_t>(
          versions_->NumLevelFiles(static_cast<int>(level)));
      return true;
    } else if (property != "strata.estimate-num-keys") {
      return false;
    }
    // Entries minus deletions (each deletion hides at most one entry).
    uint64_t entries = mem_->num_entries();
    uint64_t deletes = mem_->num_deletes();
    for (MemTable* m : imm->memtables()) {
      entries += m->num_entries();
      deletes += m->num_deletes();
    }
    *value = entries - std::min(entries, 2 * deletes);
    version = versions_->current();
    version->Ref();
  }
  // The tables' counts, read without the mutex (some may come from the
  // tables' properties).
  uint64_t entries = 0, deletes = 0;
  version->AddEntryCounts(table_cache_.get(), &entries, &deletes);
  *value += entries - std::min(entries, 2 * deletes);
  MutexLock l(&mutex_);
  version->Unref();
  return true;
}

LevelReportInput DBImpl::CurrentLevelReport() {
  Version* version = versions_->current();
  const LevelFilesView view = LevelFilesViewOf(*version);
  LevelReportInput report;
  for (int level = 0; level < version->num_levels(); level++) {
    LevelSummary summary;
    summary.files = version->NumFiles(level);
    summary.bytes = version->NumLevelBytes(level);
    report.levels.push_back(summary);
  }
  // The picker's own scores, so the report shows what drives compactions.
  for (const LevelScore& score : picker_.ComputeScores(view)) {
    report.levels[score.level].score = score.score;
  }
  return report;
}

bool DBImpl::GetProperty(const Slice& property, std::string* value) {
  if (property == "strata.stats") {
    MutexLock l(&mutex_);
    if (mem_ == nullptr) return false;
    *value = internal_stats_.Report(CurrentLevelReport());
    return true;
  }
  if (property == "strata.levelstats") {
    MutexLock l(&mutex_);
    if (mem_ == nullptr) return false;
    *value = "Level Files Size(MB)\n--------------------\n";
    for (int level = 0; level < versions_->NumberLevels(); level++) {
      char line[100];
      std::snprintf(line, sizeof(line), "%5d %5d %8.2f\n", level,
                    versions_->NumLevelFiles(level),
                    versions_->NumLevelBytes(level) / 1048576.0);
      value->append(line);
    }
    return true;
  }
  uint64_t number;
  if (!GetIntProperty(property, &number)) return false;
  *value = NumberToString(number);
  return true;
}

}  // namespace strata
