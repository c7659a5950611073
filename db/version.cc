#include "db/version.h"

#include <algorithm>
#include <cassert>
#include <memory>

#include "db/level_iterator.h"
#include "db/range_del_aggregator.h"
#include "db/table_cache.h"
#include "env/read_batch.h"
#include "table/table_properties.h"
#include "util/logging.h"

namespace strata {

namespace {

// Passes the caller's entries on and remembers whether it asked to stop,
// which TableCache::Get does not report.
struct GetState {
  void* arg;
  GetEntryFunction handle_entry;
  bool stopped = false;
};

bool ForwardEntry(void* arg, const Slice& internal_key, const Slice& value,
                  CachePin* pin) {
  GetState* state = static_cast<GetState*>(arg);
  if (!state->handle_entry(state->arg, internal_key, value, pin)) {
    state->stopped = true;
  }
  return !state->stopped;
}

bool BeforeFile(const Comparator* ucmp, const Slice* user_key,
                const FileMetaData* f) {
  // A null key comes before every file.
  return user_key != nullptr &&
         ucmp->Compare(*user_key, f->smallest.user_key()) < 0;
}

bool AfterFile(const Comparator* ucmp, const Slice* user_key,
               const FileMetaData* f) {
  // A null key comes after every file.
  return user_key != nullptr &&
         ucmp->Compare(*user_key, f->largest.user_key()) > 0;
}

// Whether table f may hold range tombstones.
bool MayHoldTombstones(const FileMetaData& f) {
  return !f.counts_known || f.num_range_deletions > 0;
}

Status AddTableTombstones(const ReadOptions& read_options,
                          TableCache* table_cache, const FileMetaData& f,
                          RangeDelAggregator* aggregator) {
  Status added;
  Status s = table_cache->WithTable(
      f.number, f.file_size,
      [&](TableReader* reader) {
        std::unique_ptr<InternalIterator> t(
            reader->NewRangeTombstoneIterator(read_options));
        added = aggregator->AddTombstones(t.get());
      },
      f.global_seqno);
  return s.ok() ? added : s;
}

}  // namespace

size_t FindFile(const InternalKeyComparator& icmp,
                const std::vector<FileMetaData*>& files, const Slice& key) {
  size_t left = 0;
  size_t right = files.size();
  while (left < right) {
    const size_t mid = left + (right - left) / 2;
    if (icmp.Compare(files[mid]->largest.Encode(), key) < 0) {
      left = mid + 1;  // every file up to mid ends before key
    } else {
      right = mid;
    }
  }
  return right;
}

Version::Version(const InternalKeyComparator* icmp, int num_levels)
    : icmp_(icmp),
      next_(this),
      prev_(this),
      files_(num_levels),
      tombstone_files_(num_levels) {}

Version::~Version() {
  assert(refs_ == 0);
  prev_->next_ = next_;
  next_->prev_ = prev_;
  for (auto& level : files_) {
    for (FileMetaData* f : level) {
      assert(f->refs > 0);
      if (--f->refs == 0) delete f;
    }
  }
}

void Version::SetLevelFiles(int level, std::vector<FileMetaData*> files) {
  std::vector<FileMetaData*>& with_tombstones = tombstone_files_[level];
  with_tombstones.clear();
  for (FileMetaData* f : files) {
    if (MayHoldTombstones(*f)) with_tombstones.push_back(f);
  }
  files_[level] = std::move(files);
}

void Version::Ref() { ++refs_; }

void Version::Unref() {
  assert(refs_ >= 1);
  if (--refs_ == 0) delete this;
}

uint64_t Version::NumLevelBytes(int level) const {
  uint64_t sum = 0;
  for (const FileMetaData* f : files_[level]) sum += f->file_size;
  return sum;
}

void Version::GetOverlappingInputs(int level, const InternalKey* begin,
                                   const InternalKey* end,
                                   std::vector<FileMetaData*>* inputs) const {
  inputs->clear();
  Slice user_begin, user_end;
  if (begin != nullptr) user_begin = begin->user_key();
  if (end != nullptr) user_end = end->user_key();
  const Slice* b = begin != nullptr ? &user_begin : nullptr;
  const Slice* e = end != nullptr ? &user_end : nullptr;
  if (level > 0) {
    GetOverlappingSorted(level, b, e, inputs);
    return;
  }
  const Comparator* ucmp = icmp_->user_comparator();
  const std::vector<FileMetaData*>& files = files_[0];
  for (size_t i = 0; i < files.size();) {
    FileMetaData* f = files[i++];
    if (AfterFile(ucmp, b, f) || BeforeFile(ucmp, e, f)) continue;
    inputs->push_back(f);
    // A file reaching past the range widens it; files already skipped may
    // overlap the wider range, so start over.
    bool widened = false;
    if (b != nullptr && ucmp->Compare(f->smallest.user_key(), *b) < 0) {
      user_begin = f->smallest.user_key();
      widened = true;
    }
    if (e != nullptr && ucmp->Compare(f->largest.user_key(), *e) > 0) {
      user_end = f->largest.user_key();
      widened = true;
    }
    if (widened) {
      inputs->clear();
      i = 0;
    }
  }
}

void Version::GetOverlappingSorted(int level, const Slice* begin,
                                   const Slice* end,
                                   std::vector<FileMetaData*>* inputs) const {
  const Comparator* ucmp = icmp_->user_comparator();
  const std::vector<FileMetaData*>& files = files_[level];
  size_t i = 0;
  if (begin != nullptr) {
    // The first file whose largest user key is >= begin: the newest
    // version of begin sorts before every other internal key of it.
    InternalKey seek(*begin, kMaxSequenceNumber, kValueTypeForSeek);
    i = FindFile(*icmp_, files, seek.Encode());
  }
  for (; i < files.size() && !BeforeFile(ucmp, end, files[i]); i++) {
    inputs->push_back(files[i]);
  }
}

bool Version::OverlapInLevel(int level, const Slice* smallest_user_key,
                             const Slice* largest_user_key) const {
  const Comparator* ucmp = icmp_->user_comparator();
  const std::vector<FileMetaData*>& files = files_[level];
  if (level == 0) {
    for (const FileMetaData* f : files) {
      if (!AfterFile(ucmp, smallest_user_key, f) &&
          !BeforeFile(ucmp, largest_user_key, f)) {
        return true;
      }
    }
    return false;
  }
  size_t i = 0;
  if (smallest_user_key != nullptr) {
    InternalKey seek(*smallest_user_key, kMaxSequenceNumber, kValueTypeForSeek);
    i = FindFile(*icmp_, files, seek.Encode());
  }
  return i < files.size() && !BeforeFile(ucmp, largest_user_key, files[i]);
}

void Version::AddIterators(const ReadOptions& read_options,
                           TableCache* table_cache,
                           std::vector<InternalIterator*>* iters) const {
  for (const FileMetaData* f : files_[0]) {
    iters->push_back(table_cache->NewIterator(
        read_options, f->number, f->file_size, nullptr, f->global_seqno));
  }
  for (size_t level = 1; level < files_.size(); level++) {
    if (files_[level].empty()) continue;
    iters->push_back(
        NewLevelIterator(read_options, table_cache, icmp_, &files_[level]));
  }
}

Status Version::Get(const ReadOptions& read_options, const Slice& internal_key,
                    TableCache* table_cache, void* arg,
                    GetEntryFunction handle_entry) const {
  const Comparator* ucmp = icmp_->user_comparator();
  const Slice user_key = ExtractUserKey(internal_key);
  GetState state{arg, handle_entry};
  auto search = [&](const FileMetaData* f) {
    return table_cache->Get(read_options, *f, internal_key, &state,
                            &ForwardEntry);
  };

  for (const FileMetaData* f : files_[0]) {
    if (AfterFile(ucmp, &user_key, f) || BeforeFile(ucmp, &user_key, f)) {
      continue;
    }
    Status s = search(f);
    if (!s.ok() || state.stopped) return s;
  }
  for (size_t level = 1; level < files_.size(); level++) {
    const std::vector<FileMetaData*>& files = files_[level];
    // Usually one file; more only when the key's versions continue into
    // the next file (neighbours sharing a user key), and then that one
    // holds the older versions.
    for (size_t i = FindFile(*icmp_, files, internal_key);
         i < files.size() && !BeforeFile(ucmp, &user_key, files[i]); i++) {
      Status s = search(files[i]);
      if (!s.ok() || state.stopped) return s;
      if (ucmp->Compare(files[i]->largest.user_key(), user_key) != 0) break;
    }
  }
  return Status::OK();
}

void Version::MultiGet(const ReadOptions& read_options, TableCache* table_cache,
                       TableLookup* const* lookups, size_t n,
                       GetEntryFunction handle_entry) const {
  const Comparator* ucmp = icmp_->user_comparator();
  auto user_key = [&](size_t i) {
    return ExtractUserKey(lookups[i]->internal_key);
  };
  std::vector<TableLookup*> batch;
  // batch = the lookups of [begin, end) not done yet; false if none.
  auto pending = [&](size_t begin, size_t end) {
    batch.clear();
    for (size_t i = begin; i < end; i++) {
      if (!lookups[i]->done) batch.push_back(lookups[i]);
    }
    return !batch.empty();
  };
  // The lookups of [begin, end) not done yet, in one call to file f.
  auto search = [&](const FileMetaData* f, size_t begin, size_t end) {
    if (!pending(begin, end)) return;
    table_cache->MultiGet(read_options, *f, batch.data(), batch.size(),
                          handle_entry);
  };
  // The first lookup at or after position from whose user key is >= key
  // (> key with after).
  auto first_from = [&](size_t from, const Slice& key, bool after) {
    return std::partition_point(lookups + from, lookups + n,
                                [&](const TableLookup* l) {
                                  const int c = ucmp->Compare(
                                      ExtractUserKey(l->internal_key), key);
                                  return after ? c <= 0 : c < 0;
                                }) -
           lookups;
  };

  // With async_io the searches of a sorted level are gathered first, the
  // data blocks they will read are read together, and then they run
  // (docs/read_path.md, "Reading a batch's blocks together").
  struct Group {
    const FileMetaData* file;
    size_t begin;
    size_t end;
  };
  const bool together = read_options.async_io && n > 1;
  std::vector<Group> groups;
  auto search_groups = [&] {
    ReadBatch reads;
    std::vector<Cache::Handle*> planned;  // readers the reads name
    for (const Group& g : groups) {
      if (!pending(g.begin, g.end)) continue;
      Cache::Handle* h = table_cache->PlanMultiGet(
          read_options, *g.file, batch.data(), batch.size(), &reads);
      if (h != nullptr) planned.push_back(h);
    }
    reads.Run();
    for (const Group& g : groups) search(g.file, g.begin, g.end);
    for (size_t i = 0; i < n; i++) lookups[i]->preread = nullptr;
    reads.Clear();
    for (Cache::Handle* h : planned) table_cache->ReleasePlanned(h);
    groups.clear();
  };

  // Level 0, newest file first: each takes the lookups within its range.
  for (const FileMetaData* f : files_[0]) {
    const size_t begin = first_from(0, f->smallest.user_key(), false);
    search(f, begin, first_from(begin, f->largest.user_key(), true));
  }
  // Sorted levels: the files and the lookups walked together. A lookup
  // equal to a file's largest user key also goes to the next file (its
  // older versions may continue there) if the first did not decide it.
  for (size_t level = 1; level < files_.size(); level++) {
    const std::vector<FileMetaData*>& files = files_[level];
    size_t i = 0;  // the first lookup not yet sent to this level
    size_t f = 0;
    while (i < n && f < files.size()) {
      f = std::max(f, FindFile(*icmp_, files, lookups[i]->internal_key));
      if (f == files.size()) break;
      const FileMetaData* file = files[f];
      const size_t end = first_from(i, file->largest.user_key(), true);
      const size_t begin = first_from(i, file->smallest.user_key(), false);
      if (together) {
        groups.push_back(Group{file, std::min(begin, end), end});
      } else {
        search(file, std::min(begin, end), end);
      }
      i = end;
      while (i > begin &&
             ucmp->Compare(user_key(i - 1), file->largest.user_key()) == 0) {
        i--;
      }
      f++;
    }
    if (!groups.empty()) search_groups();
  }
}

Status Version::AddRangeTombstones(const ReadOptions& read_options,
                                   TableCache* table_cache,
                                   const Slice* smallest_user_key,
                                   const Slice* largest_user_key,
                                   RangeDelAggregator* aggregator) const {
  const Comparator* ucmp = icmp_->user_comparator();
  for (size_t level = 0; level < tombstone_files_.size(); level++) {
    const std::vector<FileMetaData*>& files = tombstone_files_[level];
    if (files.empty()) continue;
    size_t i = 0;
    if (level > 0 && smallest_user_key != nullptr) {
      // A subset of a sorted level is sorted and disjoint too.
      const InternalKey seek(*smallest_user_key, kMaxSequenceNumber,
                             kValueTypeForSeek);
      i = FindFile(*icmp_, files, seek.Encode());
    }
    for (; i < files.size(); i++) {
      const FileMetaData* f = files[i];
      if (BeforeFile(ucmp, largest_user_key, f)) {
        if (level == 0) continue;
        break;  // so is every later file of the level
      }
      if (AfterFile(ucmp, smallest_user_key, f)) continue;
      Status s = AddTableTombstones(read_options, table_cache, *f, aggregator);
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

void Version::AddEntryCounts(TableCache* table_cache, uint64_t* entries,
                             uint64_t* deletions) const {
  for (const auto& level : files_) {
    for (const FileMetaData* f : level) {
      if (f->counts_known) {
        *entries += f->num_entries;
        *deletions += f->num_deletions;
        continue;
      }
      table_cache->WithTable(f->number, f->file_size, [&](TableReader* r) {
        std::shared_ptr<const TableProperties> props = r->GetTableProperties();
        if (props == nullptr) return;
        *entries += props->num_entries;
        *deletions += props->num_deletions;
      });
    }
  }
}

uint64_t Version::ApproximateBytesInRange(TableCache* table_cache,
                                          const Slice& start,
                                          const Slice& limit) const {
  const Comparator* ucmp = icmp_->user_comparator();
  // Before every entry of start / limit (kMaxSequenceNumber sorts first).
  const InternalKey start_key(start, kMaxSequenceNumber, kValueTypeForSeek);
  const InternalKey limit_key(limit, kMaxSequenceNumber, kValueTypeForSeek);
  uint64_t total = 0;
  for (size_t level = 0; level < files_.size(); level++) {
    const std::vector<FileMetaData*>& files = files_[level];
    // Levels above 0 are sorted and disjoint: skip to the first file that
    // can reach start, and stop at the first that starts at limit.
    size_t i = level == 0 ? 0 : FindFile(*icmp_, files, start_key.Encode());
    for (; i < files.size(); i++) {
      const FileMetaData& f = *files[i];
      const Slice smallest = f.smallest.user_key();
      const Slice largest = f.largest.user_key();
      if (ucmp->Compare(smallest, limit) >= 0) {
        if (level == 0) continue;
        break;
      }
      if (ucmp->Compare(largest, start) < 0) continue;
      if (ucmp->Compare(start, smallest) <= 0 &&
          ucmp->Compare(largest, limit) < 0) {
        total += f.file_size;
        continue;
      }
      // An unreadable table adds nothing: this is an estimate, and the
      // reads that need the table report the error.
      table_cache->WithTable(f.number, f.file_size, [&](TableReader* reader) {
        const uint64_t begin = reader->ApproximateOffsetOf(start_key.Encode());
        const uint64_t end = reader->ApproximateOffsetOf(limit_key.Encode());
        if (end > begin) total += end - begin;
      });
    }
  }
  return total;
}

void Version::AddLiveFiles(std::vector<uint64_t>* live) const {
  for (const auto& level : files_) {
    for (const FileMetaData* f : level) live->push_back(f->number);
  }
}

std::string Version::DebugString() const {
  std::string r;
  for (size_t level = 0; level < files_.size(); level++) {
    r += "--- level " + NumberToString(level) + " ---\n";
    for (const FileMetaData* f : files_[level]) {
      r += " #" + NumberToString(f->number) + ":" +
           NumberToString(f->file_size) + "[" +
           EscapeString(f->smallest.Encode()) + " .. " +
           EscapeString(f->largest.Encode()) + "]\n";
    }
  }
  return r;
}

}  // namespace strata
