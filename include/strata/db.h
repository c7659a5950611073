// DB: a persistent, ordered map from keys to values — strata's main class.
//
// Open a DB with DB::Open; every method returns a Status and never throws.
// A DB is safe to use from many threads at once without external
// synchronization; an Iterator or WriteBatch is not (see their headers).
// Only one process may have a DB open at a time (the LOCK file).

#ifndef STRATA_INCLUDE_DB_H_
#define STRATA_INCLUDE_DB_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/export.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/types.h"
#include "strata/write_batch.h"

namespace strata {

class ColumnFamilyHandle;

// The name of the column family every DB has (RocksDB's "default"). It
// cannot be dropped; Options without column families address it.
STRATA_EXPORT extern const std::string kDefaultColumnFamilyName;

// A column family's name and options, as given to DB::Open and
// CreateColumnFamilies.
struct STRATA_EXPORT ColumnFamilyDescriptor {
  std::string name;
  ColumnFamilyOptions options;

  ColumnFamilyDescriptor() : name(kDefaultColumnFamilyName) {}
  ColumnFamilyDescriptor(const std::string& _name,
                         const ColumnFamilyOptions& _options)
      : name(_name), options(_options) {}
};

// A DB's reference to one of its column families. DB::Open and
// CreateColumnFamily hand them out; the caller gives each back with
// DB::DestroyColumnFamilyHandle (or deletes it) before deleting the DB.
// A handle stays usable after its family is dropped: reads still see the
// family's data, writes fail.
class STRATA_EXPORT ColumnFamilyHandle {
 public:
  virtual ~ColumnFamilyHandle();

  virtual const std::string& GetName() const = 0;
  virtual uint32_t GetID() const = 0;
  // The family's name and current options. Pointer options (comparator,
  // merge operator, ...) point to the objects the family was opened with.
  virtual Status GetDescriptor(ColumnFamilyDescriptor* desc) = 0;
  virtual const Comparator* GetComparator() const = 0;
};

// A range of user keys: [start, limit).
struct STRATA_EXPORT Range {
  Slice start;
  Slice limit;

  Range() = default;
  Range(const Slice& s, const Slice& l) : start(s), limit(l) {}
};

class STRATA_EXPORT DB {
 public:
  // Opens the DB in directory name. On success *dbptr is the DB, which the
  // caller deletes (or closes and deletes); on failure it is null.
  // A missing DB is InvalidArgument unless options.create_if_missing; an
  // existing one with options.error_if_exists is InvalidArgument; a DB
  // another process holds is IOError (IsBusy()); a damaged WAL is
  // Corruption or is recovered, per options.wal_recovery_mode.
  static Status Open(const Options& options, const std::string& name,
                     DB** dbptr);
  static Status Open(const Options& options, const std::string& name,
                     std::unique_ptr<DB>* dbptr);

  DB() = default;
  DB(const DB&) = delete;
  DB& operator=(const DB&) = delete;

  // Closes the DB if Close() was not called (ignoring its status).
  virtual ~DB();

  // Releases the DB's files and lock, syncing what needs syncing. The
  // object must still be deleted. After it, calls other than Close and
  // the destructor return an error. Returns the first error met while
  // closing; a later Close returns the same. While snapshots are held it
  // closes nothing and returns Aborted (release them and call it again).
  // Writes made with disableWAL that a background error kept from a table
  // are lost, and Close returns that error.
  virtual Status Close() = 0;

  // Single-update forms of Write.
  virtual Status Put(const WriteOptions& options, const Slice& key,
                     const Slice& value);
  virtual Status Delete(const WriteOptions& options, const Slice& key);
  virtual Status SingleDelete(const WriteOptions& options, const Slice& key);
  virtual Status DeleteRange(const WriteOptions& options,
                             const Slice& begin_key, const Slice& end_key);
  virtual Status Merge(const WriteOptions& options, const Slice& key,
                       const Slice& value);

  // Applies every update in updates atomically. A null updates is
  // InvalidArgument; so is a batch holding a Merge when the DB has no
  // Options::merge_operator.
  virtual Status Write(const WriteOptions& options, WriteBatch* updates) = 0;

  // *value = the value of key; NotFound if there is none.
  virtual Status Get(const ReadOptions& options, const Slice& key,
                     std::string* value) = 0;

  // Get for many keys at one sequence number: (*values)[i] and the i-th
  // Status belong to keys[i].
  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values) = 0;

  // An iterator over the DB as of options.snapshot (or now), owned by the
  // caller, who deletes it before deleting the DB.
  virtual Iterator* NewIterator(const ReadOptions& options) = 0;

  // A snapshot of the current state; release it with ReleaseSnapshot.
  virtual const Snapshot* GetSnapshot() = 0;
  virtual void ReleaseSnapshot(const Snapshot* snapshot) = 0;

  // The sequence number of the most recent visible write.
  virtual SequenceNumber GetLatestSequenceNumber() const = 0;

  // A property of the DB ("strata.<name>", see docs/architecture.md);
  // false if property is not known.
  virtual bool GetProperty(const Slice& property, std::string* value) = 0;
  virtual bool GetIntProperty(const Slice& property, uint64_t* value) = 0;

  // Syncs the WAL: every write acknowledged before the call then survives
  // a power loss.
  virtual Status SyncWAL() = 0;

  // Writes the active memtable (and every older one) to a table, so that
  // its writes no longer depend on the WAL. With options.wait, returns
  // once they are in a table, or the error that stopped the flush.
  virtual Status Flush(const FlushOptions& options) = 0;

  // Compacts the keys in [*begin, *end] (null: unbounded) through every
  // level: the memtables are flushed, then each level's files in the range
  // are merged into the next, down to the deepest level holding part of
  // the range. Blocks until done; returns the first error.
  virtual Status CompactRange(const CompactRangeOptions& options,
                              const Slice* begin, const Slice* end) = 0;

  // sizes[i] = the approximate bytes the keys in [ranges[i].start,
  // ranges[i].limit) take: in table files (by their position in each
  // table's index) and/or in the memtables, per include_flags.
  virtual Status GetApproximateSizes(
      const Range* ranges, int n, uint64_t* sizes,
      SizeApproximationFlags include_flags =
          SizeApproximationFlags::INCLUDE_FILES) = 0;

  virtual const std::string& GetName() const = 0;
  virtual Env* GetEnv() const = 0;
};

// Deletes the DB in directory name and its files. The DB must not be open.
// A missing DB is not an error.
STRATA_EXPORT Status DestroyDB(const std::string& name, const Options& options);

}  // namespace strata

#endif  // STRATA_INCLUDE_DB_H_
