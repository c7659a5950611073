// VersionSet: the DB's current version, the versions readers still hold,
// the file number and sequence counters, and the MANIFEST that makes
// them durable (docs/versions.md, docs/formats/manifest.md).
//
// Durability: LogAndApply appends the edit to the MANIFEST and syncs it
// before the new version becomes current; a MANIFEST is started with a
// snapshot edit of the whole state and made live by replacing CURRENT
// atomically (temp file, sync, rename, directory sync). Recover replays
// the MANIFEST that CURRENT names. After recovery the DB replays the WALs
// numbered LogNumber() and up; older WALs are reflected in tables.
//
// Creating a DB: a VersionSet that recovered nothing starts empty, and
// its first LogAndApply writes MANIFEST and CURRENT.
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
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/log_writer.h"
#include "db/version.h"
#include "db/version_edit.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/env.h"
#include "strata/status.h"

namespace strata {

class TableCache;

struct VersionSetOptions {
  // Levels of the tree (Options::num_levels), at most
  // config::kMaxNumLevels.
  int num_levels = 7;
  // A MANIFEST that has grown past this many bytes is replaced by a new
  // one holding a snapshot of the state (RocksDB's max_manifest_file_size).
  uint64_t max_manifest_file_size = 1024 * 1024 * 1024;
  // Fsync instead of Sync for the MANIFEST (Options::use_fsync).
  bool use_fsync = false;
  EnvOptions env_options;
};

class VersionSet {
 public:
  // icmp and table_cache must outlive the set.
  VersionSet(const std::string& dbname, Env* env,
             const InternalKeyComparator* icmp, TableCache* table_cache,
             const VersionSetOptions& options);
  VersionSet(const VersionSet&) = delete;
  VersionSet& operator=(const VersionSet&) = delete;
  // REQUIRES: no LogAndApply running, and every version but the current
  // one released.
  ~VersionSet();

  // Records edit (filled in with the log number, next file number and
  // last sequence) in the MANIFEST and makes current() the result of
  // applying it. On error the current version is unchanged; the edit may
  // or may not be on disk, and the next LogAndApply starts a new MANIFEST
  // without it.
  // REQUIRES: mu held; edit's log number, if set, in [LogNumber(),
  // next file number).
  Status LogAndApply(VersionEdit* edit, port::Mutex* mu)
      EXCLUSIVE_LOCKS_REQUIRED(mu);

  // Loads the state recorded by the MANIFEST that CURRENT names. A
  // damaged or missing CURRENT or MANIFEST, or a bad edit in it, is
  // Corruption naming the file; a comparator other than icmp's, or a file
  // at a level >= num_levels, is InvalidArgument. *save_manifest is set
  // when the next LogAndApply will write a new MANIFEST (always: a
  // recovered MANIFEST is never appended to).
  // REQUIRES: nothing applied or recovered yet.
  Status Recover(bool* save_manifest);

  // The current version. Readers Ref it (under the DB mutex) while they
  // use it.
  Version* current() const { return current_; }

  uint64_t NewFileNumber() { return next_file_number_.fetch_add(1); }
  // Makes sure number is never handed out again (a file found on disk).
  void MarkFileNumberUsed(uint64_t number);
  uint64_t NextFileNumberPeek() const { return next_file_number_.load(); }

  SequenceNumber LastSequence() const {
    return last_sequence_.load(std::memory_order_acquire);
  }
  // REQUIRES: seq >= LastSequence()
  void SetLastSequence(SequenceNumber seq);

  // WALs numbered below this are fully in tables.
  uint64_t LogNumber() const { return log_number_; }
  // The live MANIFEST's number (0 before the first one is written). A DB
  // deleting obsolete files keeps every MANIFEST numbered at or above it:
  // a newer one may be named by CURRENT after a failed switch.
  uint64_t ManifestFileNumber() const { return manifest_file_number_; }
  uint64_t ManifestFileSize() const { return manifest_file_size_; }
  int NumberLevels() const { return options_.num_levels; }
  // The cache the DB reads this set's tables through.
  TableCache* table_cache() const { return table_cache_; }

  // The key where the next compaction of level starts ("" for none).
  const std::string& CompactPointer(int level) const {
    return compact_pointers_[level];
  }

  // Appends the numbers of the table files of every live version (the
  // current one and those still referenced). Any other table file in
  // the directory is obsolete.
  void AddLiveFiles(std::vector<uint64_t>* live) const;

  int NumLevelFiles(int level) const;
  uint64_t NumLevelBytes(int level) const;
  // "files[ 2 0 3 ]": files per level of the current version.
  std::string LevelSummary() const;

 private:
  struct ManifestWriter;

  // Makes v (with refs 0) current, in the list of live versions.
  void AppendVersion(Version* v);
  // An edit recreating the whole state of current(): comparator, counters,
  // compaction pointers and every file.
  void WriteSnapshot(VersionEdit* edit) const;
  // Updates the counters and pointers that edit sets.
  void ApplyCounters(const VersionEdit& edit);
  // Reads CURRENT: the MANIFEST it names.
  Status ReadCurrentFile(std::string* manifest_name, uint64_t* number);
  // Opens a new MANIFEST number and writes snapshot into it, synced.
  Status StartManifest(uint64_t number, const std::string& snapshot,
                       std::unique_ptr<log::Writer>* writer);

  const std::string dbname_;
  Env* const env_;
  const InternalKeyComparator* const icmp_;
  TableCache* const table_cache_;
  const VersionSetOptions options_;

  // Starts where DBImpl's counter does; the DB marks the numbers it
  // finds on disk used (MarkFileNumberUsed).
  std::atomic<uint64_t> next_file_number_{2};
  std::atomic<SequenceNumber> last_sequence_{0};
  uint64_t log_number_ = 0;
  uint64_t manifest_file_number_ = 0;
  uint64_t manifest_file_size_ = 0;
  std::vector<std::string> compact_pointers_;

  // The open MANIFEST; null before the first LogAndApply and after a
  // failed one (the next starts a new MANIFEST). Used by the LogAndApply
  // at the head of writers_ only.
  std::unique_ptr<log::Writer> descriptor_log_;
  // LogAndApply calls waiting their turn; the front one runs.
  std::deque<ManifestWriter*> writers_;

  // The ring of live versions: dummy_versions_ is its head, never used.
  Version dummy_versions_;
  Version* current_ = nullptr;
};

}  // namespace strata

#endif  // STRATA_DB_VERSION_SET_H_
