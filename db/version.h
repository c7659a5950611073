// Version: one immutable state of the LSM tree — the table files of each
// level — and the read path over it (docs/versions.md).
//
// Invariants (VersionBuilder establishes them, and refuses edits that
// would break them):
//   * Level 0 files may overlap one another; they are ordered newest
//     first (by largest sequence number, then by file number), which is
//     the order a read must visit them in.
//   * Every other level is sorted by smallest key and its files do not
//     overlap: each file's largest internal key is below the next file's
//     smallest. (Neighbours may share a user key, with the newer versions
//     of it in the left file.)
//
// Lifetime: a version is reference counted. Whoever reads through it —
// a Get, an iterator from AddIterators, a compaction — holds a ref for
// as long as it uses the version's files; the last Unref deletes the
// version and drops its refs on its files. A VersionSet keeps every
// version with refs in a list, so AddLiveFiles sees the files that
// readers of old versions still use.
//
// Thread safety: Ref and Unref need external synchronization (the DB
// mutex). The const methods only read state that never changes after the
// version is built, so many threads may use them at once while they hold
// refs.

#ifndef STRATA_DB_VERSION_H_
#define STRATA_DB_VERSION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/file_metadata.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/internal_iterator.h"
#include "table/table_reader.h"

namespace strata {

class RangeDelAggregator;
class TableCache;
class VersionSet;

// The index of the first file in files (sorted, disjoint) whose largest
// key is >= key; files.size() if there is none.
size_t FindFile(const InternalKeyComparator& icmp,
                const std::vector<FileMetaData*>& files, const Slice& key);

class Version {
 public:
  // An empty version with num_levels levels (refs 0). icmp must outlive
  // it.
  Version(const InternalKeyComparator* icmp, int num_levels);
  Version(const Version&) = delete;
  Version& operator=(const Version&) = delete;

  void Ref();
  // Deletes the version when the last ref goes.
  void Unref();
  int refs() const { return refs_; }

  const InternalKeyComparator* comparator() const { return icmp_; }
  int num_levels() const { return static_cast<int>(files_.size()); }
  int NumFiles(int level) const {
    return static_cast<int>(files_[level].size());
  }
  uint64_t NumLevelBytes(int level) const;
  // In the order of the invariants above.
  const std::vector<FileMetaData*>& files(int level) const {
    return files_[level];
  }

  // Sets *inputs to the files of level whose user key range meets
  // [begin, end] (user keys of the given internal keys; null: unbounded
  // on that side). On level 0 the range grows to cover every file found
  // and the search repeats, so no level 0 file overlapping the result is
  // left out (a compaction must take them together).
  void GetOverlappingInputs(int level, const InternalKey* begin,
                            const InternalKey* end,
                            std::vector<FileMetaData*>* inputs) const;

  // Whether some file of level meets the user key range [smallest,
  // largest] (null: unbounded on that side).
  bool OverlapInLevel(int level, const Slice* smallest_user_key,
                      const Slice* largest_user_key) const;

  // Appends to *iters one iterator per level 0 file and one LevelIterator
  // per other non-empty level, opened through table_cache; together they
  // hold every entry of the version. The caller owns the iterators and
  // keeps a ref on this version while they live.
  void AddIterators(const ReadOptions& read_options, TableCache* table_cache,
                    std::vector<InternalIterator*>* iters) const;

  // Point lookup of internal_key (a LookupKey's internal key): hands the
  // entries of its user key to handle_entry file by file, newest data
  // first — the level 0 files that may hold the key, newest first, then
  // per level the file whose range holds it — until handle_entry returns
  // false. Returns the first error of a table.
  Status Get(const ReadOptions& read_options, const Slice& internal_key,
             TableCache* table_cache, void* arg,
             GetEntryFunction handle_entry) const;

  // Get for many keys at once: lookups[0..n), sorted by user key (equal
  // keys allowed), each visits the files Get would, in the same order,
  // until it is done; the lookups that meet in one file are looked up
  // there together (TableReader::MultiGet), so keys of one data block
  // share its read. A table's error goes to the status of the lookups it
  // met (each is then done).
  void MultiGet(const ReadOptions& read_options, TableCache* table_cache,
                TableLookup* const* lookups, size_t n,
                GetEntryFunction handle_entry) const;

  // Adds to *aggregator the range tombstones of every table whose key
  // range meets the user key range [*smallest_user_key, *largest_user_key]
  // (null: unbounded on that side) and that may hold any. A table whose
  // counts say it holds none is not looked at, and a level of tables that
  // hold none costs nothing; otherwise each sorted level costs a binary
  // search, so a point lookup's cost does not grow with the number of
  // files. Returns the first error of a table (nothing more is added).
  Status AddRangeTombstones(const ReadOptions& read_options,
                            TableCache* table_cache,
                            const Slice* smallest_user_key,
                            const Slice* largest_user_key,
                            RangeDelAggregator* aggregator) const;

  // Adds the entries and the deletions (point and single) of every table
  // to *entries and *deletions: from the file metadata where it has the
  // counts, else from the table's properties (an unreadable table adds
  // nothing).
  void AddEntryCounts(TableCache* table_cache, uint64_t* entries,
                      uint64_t* deletions) const;

  // An estimate of the bytes the tables hold for user keys in [start,
  // limit): a table wholly inside counts in full and is not opened; a
  // table the range cuts counts the bytes between the index positions of
  // start and limit (so the estimate is exact to within a data block per
  // cut table). An unreadable table adds nothing. REQUIRES: start < limit.
  uint64_t ApproximateBytesInRange(TableCache* table_cache, const Slice& start,
                                   const Slice& limit) const;

  // Appends the numbers of this version's files.
  void AddLiveFiles(std::vector<uint64_t>* live) const;

  // "--- level N ---" then one line per file.
  std::string DebugString() const;

 private:
  friend class ColumnFamilyData;
  friend class VersionBuilder;
  friend class VersionSet;

  ~Version();  // Unref only

  // Makes files (in the order of the invariants, each referenced for this
  // version) the files of level.
  void SetLevelFiles(int level, std::vector<FileMetaData*> files);

  // Level > 0: the files overlapping the user key range, by binary search.
  void GetOverlappingSorted(int level, const Slice* begin, const Slice* end,
                            std::vector<FileMetaData*>* inputs) const;

  const InternalKeyComparator* const icmp_;
  int refs_ = 0;
  // The VersionSet's list of live versions (a ring; a version in no set
  // points to itself).
  Version* next_;
  Version* prev_;
  std::vector<std::vector<FileMetaData*>> files_;
  // Per level, the files that may hold range tombstones (their counts
  // say so, or are unknown), in the order of files_: what
  // AddRangeTombstones searches. Usually empty.
  std::vector<std::vector<FileMetaData*>> tombstone_files_;
};

}  // namespace strata

#endif  // STRATA_DB_VERSION_H_
