// VersionSet: the DB's current version, the versions readers still hold,
// the file number and sequence counters, and the MANIFEST that makes
// them durable (docs/versions.md, docs/formats/manifest.md).
//
// Durability: LogAndApply appends the edit to the MANIFEST and syncs it
// before the new version becomes current; a MANIFEST is started with a
// snapshot edit of the whole state and made live by replacing CURRENT
// atomically (temp file, sync, rename, directory sync). Recover replays
// the MANIFEST that CURRENT names. After recovery the DB replays the WALs
// numbered MinLogNumber() and up, each record into the families whose log
// number it is at or past; older WALs are reflected in tables.
//
// Column families: the set owns the live families (db/column_family.h);
// each has its own versions and log number, all share the MANIFEST, the
// file numbers and the sequence. An edit belongs to one family; edits of
// several families made together are written as one record (an atomic
// group).
//
// Creating a DB: a VersionSet that recovered nothing starts empty, with
// the default family, and its first LogAndApply writes MANIFEST and
// CURRENT.
//
// Thread safety: the DB mutex (the mu given to LogAndApply) guards every
// method. The DB reaches its VersionSet only through a pointer that is
// GUARDED_BY its mutex, so clang's -Wthread-safety checks every call.
// LogAndApply releases mu while it writes; calls queue up and run one at
// a time, in arrival order.

#ifndef STRATA_DB_VERSION_SET_H_
#define STRATA_DB_VERSION_SET_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/column_family.h"
#include "db/dbformat.h"
#include "db/log_writer.h"
#include "db/version.h"
#include "db/version_edit.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/env.h"
#include "strata/status.h"

namespace strata {

struct VersionSetOptions {
  // A MANIFEST that has grown past this many bytes is replaced by a new
  // one holding a snapshot of the state (RocksDB's max_manifest_file_size).
  uint64_t max_manifest_file_size = 1024 * 1024 * 1024;
  // Fsync instead of Sync for the MANIFEST (Options::use_fsync).
  bool use_fsync = false;
  EnvOptions env_options;
};

class VersionSet {
 public:
  // The default family (id 0) is created at once with default_options
  // (the DB's options with its ColumnFamilyOptions, sanitized).
  VersionSet(const std::string& dbname, Env* env,
             const VersionSetOptions& options, const Options& default_options);
  VersionSet(const VersionSet&) = delete;
  VersionSet& operator=(const VersionSet&) = delete;
  // REQUIRES: no LogAndApply running, and every version but the current
  // ones released.
  ~VersionSet();

  // Records the edits in the MANIFEST as one record, so that all of them
  // or none survive a crash, and makes the result of applying edits[i] to
  // cfds[i] current (edits are filled in with the next file number and
  // last sequence; an edit without a log number keeps its family's). An
  // edit adding a family applies to a ColumnFamilyData not yet in the set
  // (CreateColumnFamily), one dropping a family removes it from the set.
  // On error nothing changes in memory; the edits may or may not be on
  // disk, and the next LogAndApply starts a new MANIFEST without them.
  // REQUIRES: mu held; each edit's log number, if set, in [its family's
  // log number, next file number).
  Status LogAndApply(const std::vector<ColumnFamilyData*>& cfds,
                     const std::vector<VersionEdit*>& edits, port::Mutex* mu)
      EXCLUSIVE_LOCKS_REQUIRED(mu);
  Status LogAndApply(ColumnFamilyData* cfd, VersionEdit* edit, port::Mutex* mu)
      EXCLUSIVE_LOCKS_REQUIRED(mu) {
    return LogAndApply(std::vector<ColumnFamilyData*>{cfd},
                       std::vector<VersionEdit*>{edit}, mu);
  }
  // The default family's.
  Status LogAndApply(VersionEdit* edit, port::Mutex* mu)
      EXCLUSIVE_LOCKS_REQUIRED(mu) {
    return LogAndApply(default_cfd_, edit, mu);
  }

  // Creates family name (options: the DB's with the family's, sanitized)
  // with log_number as its log number, and records it in the MANIFEST.
  // *cfd is the new family, in the set. REQUIRES: mu held, no live family
  // named name.
  Status CreateColumnFamily(const std::string& name, const Options& options,
                            uint64_t log_number, port::Mutex* mu,
                            ColumnFamilyData** cfd)
      EXCLUSIVE_LOCKS_REQUIRED(mu);
  // Records the drop of cfd (not the default family) and removes it from
  // the set. REQUIRES: mu held.
  Status DropColumnFamily(ColumnFamilyData* cfd, port::Mutex* mu)
      EXCLUSIVE_LOCKS_REQUIRED(mu);

  // Loads the state recorded by the MANIFEST that CURRENT names. Every
  // family it holds but the default one must be in families (name ->
  // options), or the result is InvalidArgument naming those missing
  // (unless every_family is false: a read-only open loads those named). A
  // damaged or missing CURRENT or MANIFEST, or a bad edit in it, is
  // Corruption naming the file; a family recorded with a comparator other
  // than its options', or a file at a level >= its num_levels, is
  // InvalidArgument. *save_manifest is set when the next LogAndApply will
  // write a new MANIFEST (always: a recovered MANIFEST is never appended
  // to).
  // REQUIRES: nothing applied or recovered yet.
  Status Recover(const std::map<std::string, Options>& families,
                 bool* save_manifest, bool every_family = true);
  Status Recover(bool* save_manifest) { return Recover({}, save_manifest); }

  // For a secondary instance (db/db_impl_secondary.cc), after Recover:
  // applies to the families of the set the edits a primary has appended
  // to the MANIFEST since the last call — or, when CURRENT names another
  // MANIFEST now, those of that one from its start. A record cut short by
  // the end of the file is not yet written: a later call reads it. Edits
  // of families not in the set are skipped (families created by the
  // primary are not followed); a family the primary dropped is removed
  // from the set. check is called on every family's new version before
  // any is installed; its error, or one reading the files, leaves the set
  // as it was. TryAgain when the MANIFEST named was deleted meanwhile.
  // REQUIRES: mu held; no LogAndApply ever (a secondary writes nothing).
  Status FollowManifest(const std::function<Status(const ColumnFamilyData&,
                                                   const Version&)>& check);

  // The names of the live families of the DB in dbname (its MANIFEST),
  // the default family first.
  static Status ListColumnFamilies(Env* env, const std::string& dbname,
                                   std::vector<std::string>* names);

  ColumnFamilySet* column_families() { return &column_families_; }
  ColumnFamilyData* default_cfd() const { return default_cfd_; }

  uint64_t NewFileNumber() { return next_file_number_.fetch_add(1); }
  // Makes sure number is never handed out again (a file found on disk).
  void MarkFileNumberUsed(uint64_t number);
  uint64_t NextFileNumberPeek() const { return next_file_number_.load(); }

  SequenceNumber LastSequence() const {
    return last_sequence_.load(std::memory_order_acquire);
  }
  // REQUIRES: seq >= LastSequence()
  void SetLastSequence(SequenceNumber seq);

  // WALs numbered below this hold nothing any live family still needs:
  // the smallest log number of the live families.
  uint64_t MinLogNumber() const;
  // The oldest WAL to keep and to recover from: MinLogNumber, or the
  // oldest WAL the MANIFEST records as holding an unresolved prepared
  // section (two-phase commit) if that is older.
  uint64_t MinLogNumberToKeep() const;
  // Two-phase commit: floor() gives the oldest WAL holding a prepared
  // section not yet safe to drop (0: none). Called under the DB mutex by
  // every LogAndApply, whose record then carries it (so a MANIFEST always
  // says from where recovery must read). Set once, before the first
  // LogAndApply; floor must not take the DB mutex.
  // The min log number to keep the MANIFEST records (0: none).
  uint64_t RecordedMinLogNumberToKeep() const {
    return min_log_number_to_keep_;
  }
  void SetPreparedLogFloor(std::function<uint64_t()> floor) {
    prepared_log_floor_ = std::move(floor);
  }
  // The live MANIFEST's number (0 before the first one is written). A DB
  // deleting obsolete files keeps every MANIFEST numbered at or above it:
  // a newer one may be named by CURRENT after a failed switch.
  uint64_t ManifestFileNumber() const { return manifest_file_number_; }
  // Its length so far: what this DB wrote, or (a read-only DB, which
  // writes none) what Recover read.
  uint64_t ManifestFileSize() const {
    return manifest_file_size_ != 0 ? manifest_file_size_
                                    : recovered_manifest_end_;
  }
  // The MANIFEST Recover read (ManifestFileNumber until the first
  // LogAndApply): where its last edit applied ends, in bytes.
  uint64_t RecoveredManifestEnd() const { return recovered_manifest_end_; }

  // Appends the numbers of the table files of every live version of every
  // family, dropped ones still referenced included. Any other table file
  // in the directory is obsolete.
  void AddLiveFiles(std::vector<uint64_t>* live) const;

  // The default family's state (single-family callers and tests).
  Version* current() const { return default_cfd_->current(); }
  uint64_t LogNumber() const { return default_cfd_->log_number(); }
  int NumberLevels() const { return default_cfd_->num_levels(); }
  const std::string& CompactPointer(int level) const {
    return default_cfd_->CompactPointer(level);
  }
  int NumLevelFiles(int level) const;
  uint64_t NumLevelBytes(int level) const;
  std::string LevelSummary() const { return default_cfd_->LevelSummary(); }

 private:
  struct ManifestWriter;

  // An edit recreating the whole state of cfd: its id, name and
  // comparator, log number, compaction pointers and files.
  void WriteSnapshot(const ColumnFamilyData* cfd, VersionEdit* edit) const;
  // The MANIFEST record that recreates the whole state.
  std::string SnapshotRecord() const;
  // Updates the family state that edit sets.
  static void ApplyCounters(ColumnFamilyData* cfd, const VersionEdit& edit);
  // Reads CURRENT: the MANIFEST it names.
  Status ReadCurrentFile(std::string* manifest_name, uint64_t* number);
  // Calls fn on every edit of the MANIFEST fname, in order, with where it
  // is; stops at the first non-OK status, which it returns. A record cut
  // short by the end of the file is dropped; other damage is Corruption.
  // If end is not null, *end is where the last record read ends. Records
  // that start before skip are read but not passed to fn.
  Status ReadManifest(
      const std::string& fname, uint64_t number,
      const std::function<Status(const VersionEdit&, const std::string&)>& fn,
      uint64_t* end = nullptr, uint64_t skip = 0);
  // Opens a new MANIFEST number and writes snapshot into it, synced.
  Status StartManifest(uint64_t number, const std::string& snapshot,
                       std::unique_ptr<log::Writer>* writer);

  const std::string dbname_;
  Env* const env_;
  const VersionSetOptions options_;

  ColumnFamilySet column_families_;
  ColumnFamilyData* default_cfd_;

  // Starts where DBImpl's counter does; the DB marks the numbers it
  // finds on disk used (MarkFileNumberUsed).
  std::atomic<uint64_t> next_file_number_{2};
  std::atomic<SequenceNumber> last_sequence_{0};
  uint64_t manifest_file_number_ = 0;
  uint64_t manifest_file_size_ = 0;
  uint64_t recovered_manifest_end_ = 0;
  // The last min log number to keep written to (or read from) the
  // MANIFEST; 0: none.
  uint64_t min_log_number_to_keep_ = 0;
  std::function<uint64_t()> prepared_log_floor_;

  // The open MANIFEST; null before the first LogAndApply and after a
  // failed one (the next starts a new MANIFEST). Used by the LogAndApply
  // at the head of writers_ only.
  std::unique_ptr<log::Writer> descriptor_log_;
  // LogAndApply calls waiting their turn; the front one runs.
  std::deque<ManifestWriter*> writers_;
};

}  // namespace strata

#endif  // STRATA_DB_VERSION_SET_H_
