// DBImpl: reads — Get, MultiGet, iterators, snapshots and properties.
//
// A read picks its sequence number (the snapshot's, or the newest
// published), then references the memtables and the current version under
// the mutex (a ReadView) and searches them without it, newest first: the
// active memtable, the immutable ones, then the tables level by level
// (ReadView::Get; MultiGet looks its keys up together, ReadView::MultiGet).
// Range tombstones of every source that may cover the keys read are
// gathered first (ReadView::AddRangeTombstones); iterators hide what they
// delete through NewRangeDelFilterIterator. A value found in a cached
// table block is pinned into the caller's PinnableSlice, not copied
// (docs/read_path.md).

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

Status DB::Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
               const Slice& key, std::string* value) {
  if (value == nullptr) return Status::InvalidArgument("Get: value is null");
  // The value lands in *value itself: PinnableSlice copies into it.
  PinnableSlice pinnable(value);
  Status s = Get(options, column_family, key, &pinnable);
  if (s.ok() && pinnable.IsPinned())
    value->assign(pinnable.data(), pinnable.size());
  return s;
}

Status DBImpl::AcquireReadView(const ReadOptions& options,
                               ColumnFamilyData* cfd, ReadView* view) {
  MutexLock l(&mutex_);
  // The sequence first: the memtables and version referenced next hold
  // everything up to it (a switch only moves the full memtable to the
  // immutable list, and a flush installs its table before it drops the
  // memtables).
  const SequenceNumber sequence =
      options.snapshot != nullptr
          ? options.snapshot->GetSequenceNumber()
          : last_published_.load(std::memory_order_acquire);
  return AcquireReadViewLocked(options, cfd, sequence, view);
}

Status DBImpl::AcquireReadViewLocked(const ReadOptions&, ColumnFamilyData* cfd,
                                     SequenceNumber sequence, ReadView* view) {
  mutex_.AssertHeld();
  if (!opened_ || closing_) {
    return Status::ShutdownInProgress("the DB is closed");
  }
  view->sequence = sequence;
  view->cfd = cfd;
  cfd->Ref();
  view->mem = cfd->mem;
  view->mem->Ref();
  view->imm = cfd->imm.current();
  view->imm->Ref();
  view->version = cfd->current();
  view->version->Ref();
  return Status::OK();
}

void DBImpl::ReleaseReadView(const ReadView& view) {
  MutexLock l(&mutex_);
  view.mem->Unref();
  view.imm->Unref();
  view.version->Unref();
  const bool dropped = view.cfd->dropped();
  view.cfd->Unref();
  // The last reader of a dropped family: its tables are obsolete now.
  if (dropped && opened_ && !closing_) DeleteObsoleteFiles();
}

Status DBImpl::Get(const ReadOptions& options,
                   ColumnFamilyHandle* column_family, const Slice& key,
                   PinnableSlice* value) {
  if (value == nullptr) {
    return Status::InvalidArgument("Get: value is null");
  }
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  Statistics* stats = options_.statistics.get();
  StopWatch timer(env_, stats, DB_GET);
  ReadView view;
  s = AcquireReadView(options, cfd, &view);
  if (!s.ok()) return s;
  bool memtable_hit = false;
  // Pinned in the block cache or copied into the slice's buffer, once
  // (GetContext).
  value->Reset();
  s = view.Get(options, cfd->table_cache(), cfd->options().merge_operator.get(),
               key, value, &memtable_hit);
  ReleaseReadView(view);
  RecordTick(stats, memtable_hit ? MEMTABLE_HIT : MEMTABLE_MISS);
  RecordTick(stats, NUMBER_KEYS_READ);
  if (s.ok()) RecordTick(stats, BYTES_READ, value->size());
  return s;
}

Status DBImpl::GetLatestSequenceForKey(ColumnFamilyHandle* column_family,
                                       const Slice& key,
                                       SequenceNumber* sequence) {
  *sequence = 0;
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return s;
  ReadOptions options;
  ReadView view;
  {
    MutexLock l(&mutex_);
    // Every applied write, published or not.
    s = AcquireReadViewLocked(options, cfd, kMaxSequenceNumber, &view);
  }
  if (!s.ok()) return s;
  s = view.LatestSequence(options, cfd->table_cache(), key, sequence);
  ReleaseReadView(view);
  return s;
}

std::vector<Status> DBImpl::MultiGet(
    const ReadOptions& options,
    const std::vector<ColumnFamilyHandle*>& column_family,
    const std::vector<Slice>& keys, std::vector<std::string>* values) {
  Statistics* stats = options_.statistics.get();
  StopWatch timer(env_, stats, DB_MULTIGET);
  values->clear();
  values->resize(keys.size());
  if (column_family.size() != keys.size()) {
    return std::vector<Status>(
        keys.size(),
        Status::InvalidArgument("MultiGet: one column family handle per key"));
  }
  std::vector<Status> result(keys.size());
  // One view per family, all at one sequence number.
  std::vector<ColumnFamilyData*> cfds(keys.size());
  std::vector<std::pair<ColumnFamilyData*, ReadView>> views;
  {
    MutexLock l(&mutex_);
    const SequenceNumber sequence =
        options.snapshot != nullptr
            ? options.snapshot->GetSequenceNumber()
            : last_published_.load(std::memory_order_acquire);
    for (size_t i = 0; i < keys.size(); i++) {
      Status s = FamilyOf(column_family[i], &cfds[i]);
      if (!s.ok()) {
        result[i] = s;
        cfds[i] = nullptr;
        continue;
      }
      bool have = false;
      for (const auto& v : views) have = have || v.first == cfds[i];
      if (have) continue;
      ReadView view;
      s = AcquireReadViewLocked(options, cfds[i], sequence, &view);
      if (!s.ok()) {
        // The DB is closed: no view was taken before this one either.
        result.assign(keys.size(), s);
        cfds.assign(keys.size(), nullptr);
        break;
      }
      views.emplace_back(cfds[i], view);
    }
  }
  // Each family's keys in one batch, their values over the caller's
  // strings: a pinned value is copied once, after the batch.
  std::vector<size_t> batch;
  std::vector<Slice> batch_keys;
  std::vector<PinnableSlice> batch_values;
  std::vector<Status> batch_statuses;
  for (const auto& v : views) {
    batch.clear();
    for (size_t i = 0; i < keys.size(); i++) {
      if (cfds[i] == v.first) batch.push_back(i);
    }
    batch_keys.clear();
    batch_values.clear();
    batch_values.reserve(batch.size());
    for (size_t i : batch) {
      batch_keys.push_back(keys[i]);
      batch_values.emplace_back(&(*values)[i]);
    }
    batch_statuses.assign(batch.size(), Status());
    v.second.MultiGet(options, v.first->table_cache(),
                      v.first->options().merge_operator.get(), batch.size(),
                      batch_keys.data(), batch_values.data(),
                      batch_statuses.data(), /*sorted_input=*/false);
    for (size_t j = 0; j < batch.size(); j++) {
      const size_t i = batch[j];
      result[i] = batch_statuses[j];
      if (!result[i].ok()) continue;
      if (batch_values[j].IsPinned()) {
        (*values)[i].assign(batch_values[j].data(), batch_values[j].size());
      }
      RecordTick(stats, BYTES_READ, (*values)[i].size());
    }
  }
  RecordTick(stats, NUMBER_KEYS_READ, keys.size());
  for (const auto& v : views) ReleaseReadView(v.second);
  return result;
}

void DBImpl::MultiGet(const ReadOptions& options,
                      ColumnFamilyHandle* column_family, const size_t num_keys,
                      const Slice* keys, PinnableSlice* values,
                      Status* statuses, const bool sorted_input) {
  if (num_keys == 0) return;
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  ReadView view;
  if (s.ok()) s = AcquireReadView(options, cfd, &view);
  if (!s.ok()) {
    for (size_t i = 0; i < num_keys; i++) statuses[i] = s;
    return;
  }
  Statistics* stats = options_.statistics.get();
  StopWatch timer(env_, stats, DB_MULTIGET);
  for (size_t i = 0; i < num_keys; i++) values[i].Reset();
  view.MultiGet(options, cfd->table_cache(),
                cfd->options().merge_operator.get(), num_keys, keys, values,
                statuses, sorted_input);
  if (stats != nullptr) {
    for (size_t i = 0; i < num_keys; i++) {
      if (statuses[i].ok()) RecordTick(stats, BYTES_READ, values[i].size());
    }
  }
  RecordTick(stats, NUMBER_KEYS_READ, num_keys);
  ReleaseReadView(view);
}

Iterator* DBImpl::NewIterator(const ReadOptions& options,
                              ColumnFamilyHandle* column_family) {
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(column_family, &cfd);
  if (!s.ok()) return NewErrorIterator(s);
  ReadView view;
  s = AcquireReadView(options, cfd, &view);
  if (!s.ok()) return NewErrorIterator(s);
  return NewIteratorOver(options, view);
}

Status DBImpl::NewIterators(
    const ReadOptions& options,
    const std::vector<ColumnFamilyHandle*>& column_families,
    std::vector<Iterator*>* iterators) {
  if (iterators == nullptr) {
    return Status::InvalidArgument("NewIterators: iterators is null");
  }
  iterators->clear();
  std::vector<ColumnFamilyData*> cfds;
  Status s = FamiliesOf(column_families, &cfds);
  if (!s.ok()) return s;
  // Every view at one sequence number, taken in one critical section.
  std::vector<ReadView> views(cfds.size());
  {
    MutexLock l(&mutex_);
    const SequenceNumber sequence =
        options.snapshot != nullptr
            ? options.snapshot->GetSequenceNumber()
            : last_published_.load(std::memory_order_acquire);
    for (size_t i = 0; i < cfds.size(); i++) {
      Status s = AcquireReadViewLocked(options, cfds[i], sequence, &views[i]);
      if (!s.ok()) return s;  // nothing taken: the DB is closed
    }
  }
  for (const ReadView& view : views) {
    iterators->push_back(NewIteratorOver(options, view));
  }
  return Status::OK();
}

Iterator* DBImpl::NewIteratorOver(const ReadOptions& options,
                                  const ReadView& view) {
  ColumnFamilyData* cfd = view.cfd;
  const Options& cf_options = cfd->options();
  std::vector<InternalIterator*> children;
  // A memtable empty now holds nothing this read may see: its sequence was
  // published after the inserts up to it (not so with unordered_write,
  // whose published writes may still be on their way in, unless it is
  // snapshot-safe). Leaving it out spares a child, and, on a DB read after
  // a reopen, the merging iterator altogether.
  const bool published_in_flight =
      options_.unordered_write && !options_.unordered_write_snapshot_safe;
  view.ForEachMemTable([&](MemTable* m) {
    if (m->num_entries() > 0 || published_in_flight) {
      children.push_back(m->NewIterator());
    }
    return true;
  });
  view.version->AddIterators(options, cfd->table_cache(), &children);

  // Every tombstone, not only those within the bounds: a program may
  // change the bounds' bytes between seeks (they are read through the
  // pointers). Only the tables that hold tombstones are read.
  RangeDelAggregator tombstones =
      RangeDelAggregator::ForRead(cfd->user_comparator(), view.sequence);
  Status s = view.AddRangeTombstones(options, cfd->table_cache(), nullptr,
                                     nullptr, &tombstones);
  InternalIterator* merged =
      NewMergingIterator(&cfd->icmp(), std::move(children));
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
          ? cf_options.prefix_extractor.get()
          : nullptr;
  Iterator* iter =
      NewDBIterator(cfd->user_comparator(), merged, view.sequence,
                    options.iterate_lower_bound, options.iterate_upper_bound,
                    prefix, cf_options.merge_operator.get(),
                    [this, view]() { ReleaseReadView(view); });
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

bool DBImpl::GetIntProperty(ColumnFamilyHandle* column_family,
                            const Slice& property, uint64_t* value) {
  const Slice level_prefix("strata.num-files-at-level");
  ColumnFamilyData* cfd = nullptr;
  if (!FamilyOf(column_family, &cfd).ok()) return false;
  Version* version;
  {
    MutexLock l(&mutex_);
    if (!opened_ || closing_) return false;
    MemTable* mem = cfd->mem;
    MemTableListVersion* imm = cfd->imm.current();
    if (property == "strata.cur-size-all-mem-tables") {
      *value = mem->ApproximateMemoryUsage() + imm->ApproximateMemoryUsage();
      return true;
    } else if (property == "strata.num-entries-active-mem-table") {
      *value = mem->num_entries();
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
      *value = cfd->imm.NumNotFlushed() > 0 ? 1 : 0;
      return true;
    } else if (property == "strata.num-running-flushes") {
      *value = flush_scheduled_ ? 1 : 0;
      return true;
    } else if (property == "strata.compaction-pending") {
      // Work the picker would take up now (files already in a compaction
      // are not offered again).
      *value = cfd->picker().NeedsCompaction(LevelFilesViewOf(*cfd->current()))
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
          level >= static_cast<uint64_t>(cfd->num_levels())) {
        return false;
      }
      *value = static_cast<uint64_t>(
          cfd->current()->NumFiles(static_cast<int>(level)));
      return true;
    } else if (property != "strata.estimate-num-keys") {
      return false;
    }
    // Entries minus deletions (each deletion hides at most one entry).
    uint64_t entries = mem->num_entries();
    uint64_t deletes = mem->num_deletes();
    for (MemTable* m : imm->memtables()) {
      entries += m->num_entries();
      deletes += m->num_deletes();
    }
    *value = entries - std::min(entries, 2 * deletes);
    version = cfd->current();
    version->Ref();
    cfd->Ref();
  }
  // The tables' counts, read without the mutex (some may come from the
  // tables' properties).
  uint64_t entries = 0, deletes = 0;
  version->AddEntryCounts(cfd->table_cache(), &entries, &deletes);
  *value += entries - std::min(entries, 2 * deletes);
  MutexLock l(&mutex_);
  version->Unref();
  cfd->Unref();
  return true;
}

LevelReportInput DBImpl::CurrentLevelReport(const ColumnFamilyData* cfd) {
  Version* version = cfd->current();
  const LevelFilesView view = LevelFilesViewOf(*version);
  LevelReportInput report;
  for (int level = 0; level < version->num_levels(); level++) {
    LevelSummary summary;
    summary.files = version->NumFiles(level);
    summary.bytes = version->NumLevelBytes(level);
    report.levels.push_back(summary);
  }
  // The picker's own scores, so the report shows what drives compactions.
  for (const LevelScore& score : cfd->picker().ComputeScores(view)) {
    report.levels[score.level].score = score.score;
  }
  return report;
}

bool DBImpl::GetProperty(ColumnFamilyHandle* column_family,
                         const Slice& property, std::string* value) {
  ColumnFamilyData* cfd = nullptr;
  if (!FamilyOf(column_family, &cfd).ok()) return false;
  if (property == "strata.stats") {
    MutexLock l(&mutex_);
    if (!opened_ || closing_) return false;
    *value = cfd->internal_stats.Report(CurrentLevelReport(cfd));
    return true;
  }
  if (property == "strata.levelstats") {
    MutexLock l(&mutex_);
    if (!opened_ || closing_) return false;
    *value = "Level Files Size(MB)\n--------------------\n";
    for (int level = 0; level < cfd->num_levels(); level++) {
      char line[100];
      std::snprintf(line, sizeof(line), "%5d %5d %8.2f\n", level,
                    cfd->current()->NumFiles(level),
                    cfd->current()->NumLevelBytes(level) / 1048576.0);
      value->append(line);
    }
    return true;
  }
  uint64_t number;
  if (!GetIntProperty(column_family, property, &number)) return false;
  *value = NumberToString(number);
  return true;
}

bool DBImpl::GetMapProperty(ColumnFamilyHandle* column_family,
                            const Slice& property,
                            std::map<std::string, std::string>* value) {
  ColumnFamilyData* cfd = nullptr;
  if (!FamilyOf(column_family, &cfd).ok()) return false;
  if (property != "strata.cfstats") return false;
  MutexLock l(&mutex_);
  if (!opened_ || closing_) return false;
  value->clear();
  const LevelReportInput report = CurrentLevelReport(cfd);
  for (size_t level = 0; level < report.levels.size(); level++) {
    const std::string prefix = "L" + NumberToString(level) + ".";
    const LevelCompactionStats work =
        cfd->internal_stats.level_stats(static_cast<int>(level));
    (*value)[prefix + "files"] = NumberToString(report.levels[level].files);
    (*value)[prefix + "bytes"] = NumberToString(report.levels[level].bytes);
    (*value)[prefix + "bytes-written"] = NumberToString(work.bytes_written);
  }
  return true;
}

}  // namespace strata
