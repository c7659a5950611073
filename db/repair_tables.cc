// The Repairer's tables: reading each one whole (step 3), filing it under
// its column family, and making the tables of a family safe to list
// together at level 0 (step 5).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>

#include "db/builder.h"
#include "db/column_family.h"
#include "db/filename.h"
#include "db/repair.h"
#include "db/table_cache.h"
#include "table/merging_iterator.h"
#include "table/table_properties.h"
#include "util/logging.h"

namespace strata {

namespace {

// Readers open while tables are scanned: each is evicted once read.
constexpr int kScanOpenFiles = 16;

ReadOptions ScanReadOptions() {
  ReadOptions options;
  options.verify_checksums = true;
  options.fill_cache = false;
  return options;
}

// Whether a level-0 read could meet a and b in the wrong order: their
// user key ranges meet and so do their sequence ranges. (A read of level
// 0 visits tables by largest sequence, newest first, and stops at the
// first holding the key: that is right only if every entry of the first
// is newer than every entry of the second where their keys meet.)
bool Interleave(const Comparator* ucmp, const FileMetaData& a,
                const FileMetaData& b) {
  return ucmp->Compare(a.smallest.user_key(), b.largest.user_key()) <= 0 &&
         ucmp->Compare(b.smallest.user_key(), a.largest.user_key()) <= 0 &&
         a.smallest_seqno <= b.largest_seqno &&
         b.smallest_seqno <= a.largest_seqno;
}

// Appends the entries of it to table, in order, each internal key once
// (two tables of a group may hold the same entry: a WAL replayed beside
// the table it was flushed to). tombstones: it yields range tombstones.
Status CopyEntries(const InternalKeyComparator& icmp, InternalIterator* it,
                   bool tombstones, TableFileBuilder* table) {
  std::string last;
  Status s;
  for (it->SeekToFirst(); s.ok() && it->Valid(); it->Next()) {
    if (!last.empty() && icmp.Compare(it->key(), last) == 0) continue;
    last.assign(it->key().data(), it->key().size());
    s = tombstones ? table->AddTombstone(it->key(), it->value())
                   : table->Add(it->key(), it->value());
  }
  return s.ok() ? it->status() : s;
}

}  // namespace

struct Repairer::ScanCache {
  ScanCache(const Options& o, const std::string& dbname)
      : options(o), icmp(o.comparator) {
    TableCacheOptions cache_options =
        TableCacheOptionsFor(options, dbname, &icmp);
    cache_options.max_open_files = kScanOpenFiles;
    cache.reset(new TableCache(cache_options));
  }
  const Options options;
  const InternalKeyComparator icmp;
  std::unique_ptr<TableCache> cache;
};

void Repairer::ScanTables(std::vector<ScannedTable>* scanned) {
  // One cache per comparator: the default family's first, then the other
  // families', then unknown_options'.
  std::vector<const Options*> candidates = {
      &family_options_[kDefaultColumnFamilyName]};
  for (const auto& entry : family_options_) candidates.push_back(&entry.second);
  if (unknown_options_ != nullptr) candidates.push_back(unknown_options_.get());
  std::vector<std::unique_ptr<ScanCache>> caches;
  for (const Options* o : candidates) {
    bool have = false;
    for (const auto& c : caches) {
      have = have || std::string(c->icmp.Name()) ==
                         InternalKeyComparator(o->comparator).Name();
    }
    if (!have) caches.emplace_back(new ScanCache(*o, dbname_));
  }

  for (uint64_t number : tables_) {
    ScannedTable table;
    Status s = ScanTable(caches, number, &table);
    if (!s.ok()) {
      // Closed before it moves (a reader that opened it may hold it).
      for (const auto& c : caches) c->cache->Evict(number);
      Archive(TableFileName(dbname_, number), s.ToString());
      continue;
    }
    max_sequence_ = std::max(max_sequence_, table.meta.largest_seqno);
    STRATA_LOG_INFO(info_log_,
                    "table #%llu: %llu entries, sequences %llu..%llu, column "
                    "family %s (id %u)",
                    static_cast<unsigned long long>(number),
                    static_cast<unsigned long long>(table.meta.num_entries),
                    static_cast<unsigned long long>(table.meta.smallest_seqno),
                    static_cast<unsigned long long>(table.meta.largest_seqno),
                    table.family_name.c_str(), table.family_id);
    scanned->push_back(std::move(table));
  }
}

Status Repairer::ScanTable(
    const std::vector<std::unique_ptr<ScanCache>>& caches, uint64_t number,
    ScannedTable* table) {
  const std::string fname = TableFileName(dbname_, number);
  uint64_t size = 0;
  Status s = env_->GetFileSize(fname, &size);
  if (!s.ok()) return s;
  // The first cache whose comparator the table was sorted by opens it.
  ScanCache* scan = nullptr;
  std::shared_ptr<const TableProperties> props;
  for (const auto& c : caches) {
    s = c->cache->WithTable(number, size, [&props](TableReader* reader) {
      props = reader->GetTableProperties();
    });
    if (s.ok()) {
      scan = c.get();
      break;
    }
    if (!s.IsInvalidArgument()) return s;  // damage, not a comparator
  }
  if (scan == nullptr) return s;

  FileMetaData& meta = table->meta;
  meta.number = number;
  meta.file_size = size;
  const ReadOptions read_options = ScanReadOptions();
  TableReader* reader = nullptr;
  std::unique_ptr<InternalIterator> points(
      scan->cache->NewIterator(read_options, number, size, &reader));
  uint64_t entries = 0;
  for (points->SeekToFirst(); points->Valid(); points->Next()) {
    ParsedInternalKey parsed;
    s = ParseInternalKey(points->key(), &parsed);
    if (!s.ok()) return Status::Corruption(fname, s.ToString());
    meta.UpdateBoundaries(points->key(), parsed.sequence);
    entries++;
  }
  s = points->status();
  if (!s.ok()) return s;
  std::unique_ptr<InternalIterator> tombstones(
      reader->NewRangeTombstoneIterator(read_options));
  if (tombstones != nullptr) {
    for (tombstones->SeekToFirst(); tombstones->Valid(); tombstones->Next()) {
      ParsedInternalKey parsed;
      s = ParseInternalKey(tombstones->key(), &parsed);
      if (!s.ok()) return Status::Corruption(fname, s.ToString());
      meta.UpdateTombstoneBoundaries(scan->icmp, tombstones->key(),
                                     parsed.sequence, tombstones->value());
      entries++;
    }
    s = tombstones->status();
    if (!s.ok()) return s;
  }
  tombstones.reset();
  points.reset();
  scan->cache->Evict(number);
  if (entries == 0) return Status::Corruption(fname, "holds no entries");
  if (entries != props->num_entries) {
    return Status::Corruption(fname, "reads back " + NumberToString(entries) +
                                         " entries, its properties record " +
                                         NumberToString(props->num_entries));
  }
  meta.num_entries = props->num_entries;
  meta.num_deletions = props->num_deletions;
  meta.num_range_deletions = props->num_range_deletions;
  meta.counts_known = true;
  if (props->column_family_id == kUnknownColumnFamilyId) {
    // Written before tables named their family: RocksDB files such
    // tables under the default family too.
    STRATA_LOG_INFO(info_log_,
                    "%s names no column family (written before tables "
                    "recorded it): taken for the default family",
                    fname.c_str());
    table->family_id = 0;
    table->family_name = kDefaultColumnFamilyName;
  } else if (props->column_family_id > UINT32_MAX) {
    return Status::Corruption(
        fname, "column family id " + NumberToString(props->column_family_id) +
                   " out of range");
  } else {
    table->family_id = static_cast<uint32_t>(props->column_family_id);
    table->family_name = props->column_family_name;
  }
  table->comparator = props->comparator_name;
  return Status::OK();
}

void Repairer::AssignTables(const std::vector<ScannedTable>& scanned) {
  // Ids are never reused: of two families of one name (one dropped, its
  // tables not yet deleted, and one created again), the newer has the
  // larger id.
  std::map<std::string, uint32_t> newest;
  for (const ScannedTable& t : scanned) {
    newest[t.family_name] = std::max(newest[t.family_name], t.family_id);
  }
  for (const auto& entry : manifest_families_) {
    newest[entry.second] = std::max(newest[entry.second], entry.first);
  }
  for (const ScannedTable& t : scanned) {
    std::string why;
    ColumnFamilyData* cfd = nullptr;
    if (newest[t.family_name] != t.family_id) {
      why = "column family " + t.family_name + " (id " +
            NumberToString(t.family_id) + ") was dropped and created again";
    } else {
      cfd = FamilyFor(t.family_id, t.family_name, &why);
    }
    if (cfd != nullptr && t.comparator != cfd->icmp().Name()) {
      why = "sorted by comparator " + t.comparator + ", column family " +
            cfd->name() + " uses " + cfd->icmp().Name();
      cfd = nullptr;
    }
    if (cfd == nullptr) {
      Archive(TableFileName(dbname_, t.meta.number), why);
      continue;
    }
    good_[cfd->id()].push_back(t.meta);
  }
  // Families the old MANIFEST names that hold no table: kept, and their
  // records in the WALs with them.
  for (const auto& entry : manifest_families_) {
    if (families_.count(entry.first) > 0) continue;
    std::string why;
    if (FamilyFor(entry.first, entry.second, &why) == nullptr) {
      STRATA_LOG_WARN(info_log_, "not kept: %s", why.c_str());
    }
  }
}

Status Repairer::SeparateOverlaps() {
  for (auto& entry : good_) {
    ColumnFamilyData* cfd = families_[entry.first];
    std::vector<FileMetaData>& tables = entry.second;
    const Comparator* ucmp = cfd->user_comparator();
    // Groups of tables linked by Interleave become one table each; a
    // merged table spans more, so until no two interleave.
    for (bool merged = true; merged;) {
      merged = false;
      const size_t n = tables.size();
      std::vector<size_t> group(n);
      std::iota(group.begin(), group.end(), 0);
      const auto root = [&group](size_t i) {
        while (group[i] != i) i = group[i] = group[group[i]];
        return i;
      };
      for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
          if (Interleave(ucmp, tables[i], tables[j])) group[root(j)] = root(i);
        }
      }
      std::map<size_t, std::vector<FileMetaData>> groups;
      for (size_t i = 0; i < n; i++) groups[root(i)].push_back(tables[i]);
      std::vector<FileMetaData> result;
      for (const auto& g : groups) {
        if (g.second.size() == 1) {
          result.push_back(g.second.front());
          continue;
        }
        FileMetaData output;
        Status s = MergeTables(cfd, g.second, &output);
        if (!s.ok()) return s;
        result.push_back(output);
        merged = true;
      }
      tables = std::move(result);
    }
  }
  return Status::OK();
}

Status Repairer::MergeTables(ColumnFamilyData* cfd,
                             const std::vector<FileMetaData>& inputs,
                             FileMetaData* output) {
  const ReadOptions read_options = ScanReadOptions();
  std::vector<InternalIterator*> points;
  std::vector<InternalIterator*> tombstones;
  for (const FileMetaData& f : inputs) {
    TableReader* reader = nullptr;
    points.push_back(cfd->table_cache()->NewIterator(read_options, f.number,
                                                     f.file_size, &reader));
    InternalIterator* t = reader == nullptr
                              ? nullptr
                              : reader->NewRangeTombstoneIterator(read_options);
    if (t != nullptr) tombstones.push_back(t);
  }
  // The tombstone iterators read the readers the point iterators pin:
  // declared after them, they are deleted first.
  std::unique_ptr<InternalIterator> point_iter(
      NewMergingIterator(&cfd->icmp(), std::move(points)));
  std::unique_ptr<InternalIterator> tombstone_iter(
      NewMergingIterator(&cfd->icmp(), std::move(tombstones)));

  output->number = versions_->NewFileNumber();
  const BuildTableOptions options = TableOptionsFor(env_, dbname_, *cfd);
  TableFileBuilder table(options, output);
  Status s = table.Open();
  if (s.ok()) s = CopyEntries(cfd->icmp(), point_iter.get(), false, &table);
  if (s.ok()) {
    s = CopyEntries(cfd->icmp(), tombstone_iter.get(), true, &table);
  }
  if (s.ok()) s = table.Finish();
  if (!s.ok()) return s;  // the builder deletes the file
  written_.push_back(output->number);
  std::string numbers;
  for (const FileMetaData& f : inputs) {
    numbers += (numbers.empty() ? "#" : ", #") + NumberToString(f.number);
    replaced_.push_back(f.number);
    // Closed once the iterators above let go: the file is deleted later.
    cfd->table_cache()->Evict(f.number);
  }
  STRATA_LOG_WARN(info_log_,
                  "tables %s of column family %s interleave in key and "
                  "sequence: merged into table #%llu",
                  numbers.c_str(), cfd->name().c_str(),
                  static_cast<unsigned long long>(output->number));
  return Status::OK();
}

}  // namespace strata
