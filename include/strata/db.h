// DB: a persistent, ordered map from keys to values — strata's main class.
//
// Open a DB with DB::Open; every method returns a Status and never throws.
// A DB is safe to use from many threads at once without external
// synchronization; an Iterator or WriteBatch is not (see their headers).
// Only one process may have a DB open at a time (the LOCK file).

#ifndef STRATA_INCLUDE_DB_H_
#define STRATA_INCLUDE_DB_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/export.h"
#include "strata/iterator.h"
#include "strata/listener.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/transaction_log.h"
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
// One family's files of DB::IngestExternalFiles.
struct STRATA_EXPORT IngestExternalFileArg {
  ColumnFamilyHandle* column_family = nullptr;
  std::vector<std::string> external_files;
  IngestExternalFileOptions options;
  // strata keeps no whole-file checksums: both are ignored.
  std::vector<std::string> files_checksums;
  std::vector<std::string> files_checksum_func_names;
  // strata keeps every file on one tier: ignored.
  Temperature file_temperature = Temperature::kUnknown;
};

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
  // Corruption or is recovered, per options.wal_recovery_mode. A DB with
  // column families other than the default one must be opened with the
  // form below, naming every family.
  static Status Open(const Options& options, const std::string& name,
                     DB** dbptr);
  static Status Open(const Options& options, const std::string& name,
                     std::unique_ptr<DB>* dbptr);

  // Opens the DB with its column families: column_families must name the
  // default family and every family the DB has (InvalidArgument
  // otherwise), each with its options; a family the DB lacks is created
  // if db_options.create_missing_column_families, else InvalidArgument.
  // On success *handles holds one handle per descriptor, in order, which
  // the caller destroys (DestroyColumnFamilyHandle) before deleting the
  // DB.
  static Status Open(const DBOptions& db_options, const std::string& name,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, DB** dbptr);
  static Status Open(const DBOptions& db_options, const std::string& name,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles,
                     std::unique_ptr<DB>* dbptr);

  // Opens the DB in name for reading only (docs/operations.md): its tables
  // and, replayed into memory, its WALs, as they are at the open; the
  // instance takes no lock and writes nothing — calls that would change
  // the DB (writes, Flush, CompactRange, creating or dropping families,
  // SetOptions) are NotSupported. Any number may read a DB at once; one
  // opened beside a writer sees the files of the moment it opened, and a
  // file the writer deletes later may be missing to it. The column-family
  // form may name a subset of the families (the default one among them).
  // error_if_wal_file_exists: fail if the WALs hold writes not yet in
  // tables.
  static Status OpenForReadOnly(const Options& options, const std::string& name,
                                DB** dbptr,
                                bool error_if_wal_file_exists = false);
  static Status OpenForReadOnly(
      const DBOptions& db_options, const std::string& name,
      const std::vector<ColumnFamilyDescriptor>& column_families,
      std::vector<ColumnFamilyHandle*>* handles, DB** dbptr,
      bool error_if_wal_file_exists = false);

  // Opens a secondary instance of the DB in name: a reader that a primary
  // (a DB::Open of name, in this process or another) may keep writing,
  // flushing and compacting beside. It reads what the files held when it
  // opened and, after each TryCatchUpWithPrimary, what they hold then
  // (docs/operations.md, "Secondary instances"). It takes no lock and
  // writes nothing in name; its info log goes to secondary_path (created
  // if missing). Every call that would change the DB is NotSupported.
  // The tables are kept open (max_open_files is taken as -1). The second
  // form may name a subset of the families (the default one among them);
  // families the primary creates later are not seen, and one the primary
  // drops is dropped here too at the next catch-up (its handles still
  // read what it held).
  static Status OpenAsSecondary(const Options& options, const std::string& name,
                                const std::string& secondary_path, DB** dbptr);
  static Status OpenAsSecondary(
      const DBOptions& db_options, const std::string& name,
      const std::string& secondary_path,
      const std::vector<ColumnFamilyDescriptor>& column_families,
      std::vector<ColumnFamilyHandle*>* handles, DB** dbptr);

  // The names of the column families of the DB in name (not open, or
  // open by another DB object), the default family first.
  static Status ListColumnFamilies(const DBOptions& db_options,
                                   const std::string& name,
                                   std::vector<std::string>* column_families);

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

  // ---- column families ----
  // Creates a family; *handle is its handle (the caller's). A family of
  // that name already existing is InvalidArgument.
  virtual Status CreateColumnFamily(const ColumnFamilyOptions& options,
                                    const std::string& column_family_name,
                                    ColumnFamilyHandle** handle) = 0;
  // Creates several, one at a time; on the first failure stops and
  // returns it, *handles holding the handles of those created.
  virtual Status CreateColumnFamilies(
      const ColumnFamilyOptions& options,
      const std::vector<std::string>& column_family_names,
      std::vector<ColumnFamilyHandle*>* handles);
  virtual Status CreateColumnFamilies(
      const std::vector<ColumnFamilyDescriptor>& column_families,
      std::vector<ColumnFamilyHandle*>* handles);
  // Drops the family: it takes no more writes, and its data is deleted
  // once no handle or iterator uses it. Dropping the default family is
  // InvalidArgument. The handle must still be destroyed.
  virtual Status DropColumnFamily(ColumnFamilyHandle* column_family) = 0;
  virtual Status DropColumnFamilies(
      const std::vector<ColumnFamilyHandle*>& column_families);
  // Releases a handle given out by Open or CreateColumnFamily. The handle
  // DefaultColumnFamily() returns belongs to the DB (InvalidArgument).
  virtual Status DestroyColumnFamilyHandle(
      ColumnFamilyHandle* column_family) = 0;
  // The default family's handle, owned by the DB.
  virtual ColumnFamilyHandle* DefaultColumnFamily() const = 0;

  // ---- writes ----
  // Single-update forms of Write. The forms without a handle write the
  // default family.
  virtual Status Put(const WriteOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& key,
                     const Slice& value);
  virtual Status Put(const WriteOptions& options, const Slice& key,
                     const Slice& value) {
    return Put(options, DefaultColumnFamily(), key, value);
  }
  virtual Status Delete(const WriteOptions& options,
                        ColumnFamilyHandle* column_family, const Slice& key);
  virtual Status Delete(const WriteOptions& options, const Slice& key) {
    return Delete(options, DefaultColumnFamily(), key);
  }
  // Deletes the one Put of key since its previous SingleDelete (or ever),
  // which lets compaction drop both when they meet with no snapshot older
  // than them (a flush keeps it, as a deletion). The caller keeps the
  // contract, as with RocksDB: one Put between SingleDeletes, and a key
  // removed this way is never removed with Delete or DeleteRange nor
  // written with Merge; otherwise what reads see is undefined.
  virtual Status SingleDelete(const WriteOptions& options,
                              ColumnFamilyHandle* column_family,
                              const Slice& key);
  virtual Status SingleDelete(const WriteOptions& options, const Slice& key) {
    return SingleDelete(options, DefaultColumnFamily(), key);
  }
  virtual Status DeleteRange(const WriteOptions& options,
                             ColumnFamilyHandle* column_family,
                             const Slice& begin_key, const Slice& end_key);
  virtual Status DeleteRange(const WriteOptions& options,
                             const Slice& begin_key, const Slice& end_key) {
    return DeleteRange(options, DefaultColumnFamily(), begin_key, end_key);
  }
  virtual Status Merge(const WriteOptions& options,
                       ColumnFamilyHandle* column_family, const Slice& key,
                       const Slice& value);
  virtual Status Merge(const WriteOptions& options, const Slice& key,
                       const Slice& value) {
    return Merge(options, DefaultColumnFamily(), key, value);
  }

  // Applies every update in updates atomically, across families. A null
  // updates is InvalidArgument; so is a batch naming a family this DB does
  // not have (or dropped), or holding a Merge for a family without a
  // merge_operator.
  virtual Status Write(const WriteOptions& options, WriteBatch* updates) = 0;

  // ---- reads ----
  // *value = the value of key in the family; NotFound if there is none.
  virtual Status Get(const ReadOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& key,
                     PinnableSlice* value) = 0;
  virtual Status Get(const ReadOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& key,
                     std::string* value);
  virtual Status Get(const ReadOptions& options, const Slice& key,
                     std::string* value) {
    return Get(options, DefaultColumnFamily(), key, value);
  }

  // Get for many keys at one sequence number: (*values)[i] and the i-th
  // Status belong to keys[i], read in column_family[i].
  virtual std::vector<Status> MultiGet(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys, std::vector<std::string>* values) = 0;
  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values) {
    return MultiGet(
        options,
        std::vector<ColumnFamilyHandle*>(keys.size(), DefaultColumnFamily()),
        keys, values);
  }
  // The batched form: values[i] and statuses[i] belong to keys[i], all in
  // one family, at one sequence number. sorted_input: the caller promises
  // keys are in the family's order.
  virtual void MultiGet(const ReadOptions& options,
                        ColumnFamilyHandle* column_family,
                        const size_t num_keys, const Slice* keys,
                        PinnableSlice* values, Status* statuses,
                        const bool sorted_input = false) = 0;

  // An iterator over the family as of options.snapshot (or now), owned by
  // the caller, who deletes it before deleting the DB.
  virtual Iterator* NewIterator(const ReadOptions& options,
                                ColumnFamilyHandle* column_family) = 0;
  virtual Iterator* NewIterator(const ReadOptions& options) {
    return NewIterator(options, DefaultColumnFamily());
  }
  // Iterators over several families, all at one sequence number.
  virtual Status NewIterators(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_families,
      std::vector<Iterator*>* iterators) = 0;

  // A snapshot of the current state; release it with ReleaseSnapshot.
  virtual const Snapshot* GetSnapshot() = 0;
  virtual void ReleaseSnapshot(const Snapshot* snapshot) = 0;

  // The sequence number of the most recent visible write.
  virtual SequenceNumber GetLatestSequenceNumber() const = 0;

  // A property of the family or the DB ("strata.<name>", see
  // docs/architecture.md); false if property is not known.
  virtual bool GetProperty(ColumnFamilyHandle* column_family,
                           const Slice& property, std::string* value) = 0;
  virtual bool GetProperty(const Slice& property, std::string* value) {
    return GetProperty(DefaultColumnFamily(), property, value);
  }
  virtual bool GetIntProperty(ColumnFamilyHandle* column_family,
                              const Slice& property, uint64_t* value) = 0;
  virtual bool GetIntProperty(const Slice& property, uint64_t* value) {
    return GetIntProperty(DefaultColumnFamily(), property, value);
  }
  // A map property ("strata.cfstats": the per-level numbers of
  // strata.stats as name -> value).
  virtual bool GetMapProperty(ColumnFamilyHandle* column_family,
                              const Slice& property,
                              std::map<std::string, std::string>* value) = 0;
  virtual bool GetMapProperty(const Slice& property,
                              std::map<std::string, std::string>* value) {
    return GetMapProperty(DefaultColumnFamily(), property, value);
  }

  // ---- maintenance ----
  // Syncs the WAL: every write acknowledged before the call then survives
  // a power loss.
  virtual Status SyncWAL() = 0;

  // Clears a background error without reopening the DB, as RocksDB's
  // Resume: OK once the DB takes writes again (at once if it had no
  // error). A hard error (a failed flush or WAL write or sync) is cleared
  // once the work it interrupted succeeds: after a WAL failure every
  // memtable is flushed into tables through a new WAL first, so nothing
  // acknowledged depends on the failed one. A soft error (a compaction
  // that found no space) is simply cleared. A fatal or unrecoverable one
  // (a failed memtable insert, corruption) is returned as it is: only a
  // reopen clears it. Returns the error that kept the DB stopped if the
  // retry failed, and ShutdownInProgress once Close has begun
  // (docs/reliability.md, "Recovery without reopening").
  virtual Status Resume() { return Status::NotSupported("Resume"); }

  // A secondary instance (OpenAsSecondary): reads the primary's MANIFEST
  // and WALs as they are now, so that later reads see a newer prefix of
  // the primary's writes. TryAgain when the primary kept deleting the
  // files being read (the instance still reads its previous state). Any
  // other DB: NotSupported.
  virtual Status TryCatchUpWithPrimary() {
    return Status::NotSupported("TryCatchUpWithPrimary",
                                "supported by a secondary instance only");
  }

  // Writes the family's active memtable (and every older one) to a table,
  // so that its writes no longer depend on the WAL. With options.wait,
  // returns once they are in a table, or the error that stopped the
  // flush.
  virtual Status Flush(const FlushOptions& options,
                       ColumnFamilyHandle* column_family) = 0;
  virtual Status Flush(const FlushOptions& options) {
    return Flush(options, DefaultColumnFamily());
  }
  // Flushes several families (all together with DBOptions::atomic_flush).
  virtual Status Flush(
      const FlushOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_families) = 0;

  // Compacts the family's keys in [*begin, *end] (null: unbounded)
  // through every level: the memtables are flushed, then each level's
  // files in the range are merged into the next, down to the deepest
  // level holding part of the range. Blocks until done; returns the
  // first error.
  virtual Status CompactRange(const CompactRangeOptions& options,
                              ColumnFamilyHandle* column_family,
                              const Slice* begin, const Slice* end) = 0;
  virtual Status CompactRange(const CompactRangeOptions& options,
                              const Slice* begin, const Slice* end) {
    return CompactRange(options, DefaultColumnFamily(), begin, end);
  }

  // Compacts the named table files of the family into output_level, on
  // the calling thread (docs/operations.md, "CompactFiles"). Names are
  // as GetLiveFilesMetaData gives them ("/000012.sst"), with or without
  // the leading '/', or full paths. The inputs grow as RocksDB's do so
  // that no level is left with overlapping files: in L1+ to a clean cut
  // of the level, in L0 to every older L0 file, and in each level down to
  // output_level to the files overlapping the inputs' key range.
  // InvalidArgument: no file, an unknown file, output_level outside
  // [0, num_levels - 1], an input below output_level, output_path_id
  // other than -1 or 0. Aborted: an input is being compacted.
  // output_file_names: the outputs' full paths; compaction_job_info: the
  // compaction's report (the listeners get no OnCompactionBegin/Completed
  // for it, as in RocksDB 7.8).
  virtual Status CompactFiles(
      const CompactionOptions& compact_options,
      ColumnFamilyHandle* column_family,
      const std::vector<std::string>& input_file_names, const int output_level,
      const int output_path_id = -1,
      std::vector<std::string>* const output_file_names = nullptr,
      CompactionJobInfo* compaction_job_info = nullptr) = 0;
  virtual Status CompactFiles(
      const CompactionOptions& compact_options,
      const std::vector<std::string>& input_file_names, const int output_level,
      const int output_path_id = -1,
      std::vector<std::string>* const output_file_names = nullptr,
      CompactionJobInfo* compaction_job_info = nullptr) {
    return CompactFiles(compact_options, DefaultColumnFamily(),
                        input_file_names, output_level, output_path_id,
                        output_file_names, compaction_job_info);
  }

  // sizes[i] = the approximate bytes the family's keys in
  // [ranges[i].start, ranges[i].limit) take: in table files (by their
  // position in each table's index) and/or in the memtables, per
  // include_flags.
  virtual Status GetApproximateSizes(
      ColumnFamilyHandle* column_family, const Range* ranges, int n,
      uint64_t* sizes,
      SizeApproximationFlags include_flags =
          SizeApproximationFlags::INCLUDE_FILES) = 0;
  virtual Status GetApproximateSizes(
      const Range* ranges, int n, uint64_t* sizes,
      SizeApproximationFlags include_flags =
          SizeApproximationFlags::INCLUDE_FILES) {
    return GetApproximateSizes(DefaultColumnFamily(), ranges, n, sizes,
                               include_flags);
  }

  // Changes the family's dynamic options ("write_buffer_size",
  // "disable_auto_compactions", "level0_file_num_compaction_trigger",
  // "level0_slowdown_writes_trigger", "level0_stop_writes_trigger",
  // "target_file_size_base", "max_bytes_for_level_base", ...: see
  // docs/options.md); an unknown name or a bad value is InvalidArgument
  // and changes nothing.
  virtual Status SetOptions(
      ColumnFamilyHandle* column_family,
      const std::unordered_map<std::string, std::string>& new_options) = 0;
  virtual Status SetOptions(
      const std::unordered_map<std::string, std::string>& new_options) {
    return SetOptions(DefaultColumnFamily(), new_options);
  }
  // The options the family runs with (the DB's and the family's).
  virtual Options GetOptions(ColumnFamilyHandle* column_family) const = 0;
  virtual Options GetOptions() const {
    return GetOptions(DefaultColumnFamily());
  }
  virtual DBOptions GetDBOptions() const = 0;

  // ---- live files (docs/versions.md, "Live files") ----
  // Obsolete files stay while deletions are disabled: the calls nest, and
  // EnableFileDeletions(false) undoes one; EnableFileDeletions(true)
  // undoes them all. What became obsolete meanwhile is deleted then.
  virtual Status DisableFileDeletions() = 0;
  virtual Status EnableFileDeletions(bool force = true) = 0;
  // The files a copy of the DB needs besides its WALs, named relative to
  // the DB directory with a leading '/': CURRENT, the MANIFEST, the
  // OPTIONS file and every live table. *manifest_file_size: the
  // MANIFEST's length, which is all of it a copy needs. flush_memtable:
  // flush every family first, so that the tables hold every write.
  virtual Status GetLiveFiles(std::vector<std::string>& files,
                              uint64_t* manifest_file_size,
                              bool flush_memtable = true) = 0;
  // Every file a copy of the DB needs (tables, OPTIONS, MANIFEST, WALs,
  // CURRENT, in that order) and how much of each, seen at one instant:
  // the copy holds exactly the writes up to one sequence number, across
  // every family. Disable file deletions before and enable them after
  // copying, so that no listed file goes meanwhile.
  virtual Status GetLiveFilesStorageInfo(
      const LiveFilesStorageInfoOptions& opts,
      std::vector<LiveFileStorageInfo>* files) = 0;
  // The WALs whose data is not all in tables, oldest first.
  virtual Status GetSortedWalFiles(VectorLogPtr& files) = 0;
  // The WAL being written.
  virtual Status GetCurrentWalFile(
      std::unique_ptr<LogFile>* current_log_file) = 0;
  // Every table of every family's current version. (Not pure, as in
  // RocksDB: a DB of the caller's own may leave it empty.)
  virtual void GetLiveFilesMetaData(
      std::vector<LiveFileMetaData>* /*metadata*/) {}
  // The family's levels and their tables.
  virtual void GetColumnFamilyMetaData(ColumnFamilyHandle* /*column_family*/,
                                       ColumnFamilyMetaData* /*metadata*/) {}
  virtual void GetColumnFamilyMetaData(ColumnFamilyMetaData* metadata) {
    GetColumnFamilyMetaData(DefaultColumnFamily(), metadata);
  }
  // Adds the tables in external_files (written by SstFileWriter) to the
  // family, all in one MANIFEST record (docs/operations.md, "Bulk
  // ingestion"). Each file goes to the lowest level where it overlaps
  // nothing; a file overlapping the memtables waits for their flush; a
  // file overlapping data (or needed to stay out of older snapshots) gets
  // one sequence number above every write before it. Every file is read
  // through first: a damaged file, one from another comparator, or files
  // of one call that overlap each other are refused before anything
  // changes.
  virtual Status IngestExternalFile(
      ColumnFamilyHandle* column_family,
      const std::vector<std::string>& external_files,
      const IngestExternalFileOptions& options) = 0;
  virtual Status IngestExternalFile(
      const std::vector<std::string>& external_files,
      const IngestExternalFileOptions& options) {
    return IngestExternalFile(DefaultColumnFamily(), external_files, options);
  }
  // IngestExternalFile for several families at once, atomically: one
  // MANIFEST record adds every family's files, or none is added.
  virtual Status IngestExternalFiles(
      const std::vector<IngestExternalFileArg>& args) = 0;

  // The id written in the DB's IDENTITY file when it was created.
  virtual Status GetDbIdentity(std::string& identity) const = 0;

  virtual const std::string& GetName() const = 0;
  virtual Env* GetEnv() const = 0;
};

// Deletes the DB in directory name and its files. The DB must not be open.
// A missing DB is not an error.
STRATA_EXPORT Status DestroyDB(const std::string& name, const Options& options);

// Rebuilds the MANIFEST of the DB in dbname from its table files and WALs,
// for a DB that no longer opens because its MANIFEST or CURRENT is lost or
// damaged (docs/reliability.md, "Repair"). Every table is read whole; one
// that fails is moved to dbname/lost/, as are the old MANIFESTs and the
// WALs once their records are in new tables (damaged records skipped). The
// DB must not be open. Data may be lost: what a damaged file held.
//
// column_families: the families to keep, the default one among them; a
// family found in the files but not given here is left out, its tables
// moved to lost/ and its WAL records dropped.
STRATA_EXPORT Status
RepairDB(const std::string& dbname, const DBOptions& db_options,
         const std::vector<ColumnFamilyDescriptor>& column_families);
// As above; a family not given in column_families is kept, with
// unknown_cf_opts.
STRATA_EXPORT Status
RepairDB(const std::string& dbname, const DBOptions& db_options,
         const std::vector<ColumnFamilyDescriptor>& column_families,
         const ColumnFamilyOptions& unknown_cf_opts);
// As above, with options for the DB and every family found.
STRATA_EXPORT Status RepairDB(const std::string& dbname,
                              const Options& options);

}  // namespace strata

#endif  // STRATA_INCLUDE_DB_H_
