// DBImpl: strata's DB. Its methods are split by concern:
//   db_impl_open.cc   Open, creation, WAL recovery
//   db_impl_options.cc  the options check: SanitizeOptions, ValidateOptions
//   db_impl_close.cc  Close, DestroyDB
//   db_impl_write.cc  Write and the write thread's CommitEnv (WAL, memtable)
//   db_impl_wal.cc    WAL files: creating, retiring at a switch, syncing
//   db_impl_flush.cc  memtable flushes, Flush
//   db_impl_stall.cc  write stalls: waiting for room, the per-family stall
//                     states the listeners are told of
//   db_impl_budget.cc the memtable budget (WriteBufferManager) and
//                     max_total_wal_size: which memtables to retire, and
//                     the manager's stalls
//   db_impl_files.cc  deleting obsolete files
//   db_impl_listeners.cc  calling the EventListeners (outside mutex_)
//   db_impl_compact_files.cc  CompactFiles
//   db_impl_compaction.cc  compactions, CompactRange
//   db_impl_families.cc  column families: create, drop, handles, routes
//   db_impl_read.cc   Get, MultiGet, iterators, snapshots, properties
//   db_impl_sizes.cc  GetApproximateSizes
//   db_impl_resume.cc the background error: setting it, Resume and the
//                     automatic retries (with db/error_handler.h)
//
// State and locking. mutex_ guards the column families (each with its
// memtables and versions, db/column_family.h), the snapshot list, the
// version set (versions_: the families, the MANIFEST and the file
// counter) and the background error (error_handler_). The write path runs
// through write_thread_: one group leader at a time owns the WAL writer and the
// memtables it inserts into (each family's write_mem, found through
// routes_), which it sets under mutex_ in PrepareGroup, so writing and
// inserting need no lock. log_mutex_ guards
// the WAL writer and the retired WALs against SyncWAL, Close and
// DeleteObsoleteFiles, which can run beside a leader.
// Readers take references to the memtables under mutex_ and read without
// it; last_published_ (an atomic) is the newest sequence they may see.
//
// Files are laid out as in docs/formats/files.md. A WAL numbered below
// every live family's log number holds only flushed data and is deleted
// (DeleteObsoleteFiles); an open replays the others.

#ifndef STRATA_DB_DB_IMPL_H_
#define STRATA_DB_DB_IMPL_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "db/builder.h"
#include "db/column_family.h"
#include "db/compaction_picker.h"
#include "db/dbformat.h"
#include "db/error_handler.h"
#include "db/internal_stats.h"
#include "db/log_writer.h"
#include "db/prepared_logs.h"
#include "db/read_view.h"
#include "db/recovered_transactions.h"
#include "db/snapshot_impl.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "db/write_buffer_stall.h"
#include "db/write_controller.h"
#include "db/write_thread.h"
#include "memtable/memtable_list.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/db.h"

namespace strata {

struct CompactionJobOptions;

class MemTable;

class DBImpl : public DB, private WriteThread::CommitEnv {
 public:
  // options: the DB's options with the default family's (as given; the
  // DBImpl sanitizes them). read_only: a DBImplReadOnly's
  // (db/db_impl_readonly.h), which opens, runs and closes writing nothing.
  DBImpl(const Options& options, const std::string& dbname,
         bool read_only = false);
  ~DBImpl() override;

  // ---- DB ----
  using DB::CompactRange;
  using DB::Delete;
  using DB::DeleteRange;
  using DB::Flush;
  using DB::Get;
  using DB::GetApproximateSizes;
  using DB::GetColumnFamilyMetaData;
  using DB::GetIntProperty;
  using DB::GetMapProperty;
  using DB::GetOptions;
  using DB::GetProperty;
  using DB::IngestExternalFile;
  using DB::Merge;
  using DB::MultiGet;
  using DB::NewIterator;
  using DB::Put;
  using DB::SetOptions;
  using DB::SingleDelete;
  Status Close() override;
  Status CreateColumnFamily(const ColumnFamilyOptions& options,
                            const std::string& column_family_name,
                            ColumnFamilyHandle** handle) override;
  Status DropColumnFamily(ColumnFamilyHandle* column_family) override;
  Status DestroyColumnFamilyHandle(ColumnFamilyHandle* column_family) override;
  ColumnFamilyHandle* DefaultColumnFamily() const override {
    return default_handle_;
  }
  Status Write(const WriteOptions& options, WriteBatch* updates) override;
  // Write, committed only if callback->Check() returns OK when the write
  // path reaches it (db/write_callback.h); else that status, and nothing
  // written. callback may be null. Unlike Write, takes a batch holding
  // two-phase commit markers (the transaction layer's prepare, commit and
  // rollback records; docs/formats/write_batch.md).
  Status WriteWithCallback(const WriteOptions& options, WriteBatch* updates,
                           WriteCallback* callback);
  Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, const Slice& value) override;
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                const Slice& key) override;
  Status SingleDelete(const WriteOptions& options,
                      ColumnFamilyHandle* column_family,
                      const Slice& key) override;
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* column_family,
               const Slice& key, const Slice& value) override;
  Status DeleteRange(const WriteOptions& options,
                     ColumnFamilyHandle* column_family, const Slice& begin_key,
                     const Slice& end_key) override;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
             const Slice& key, PinnableSlice* value) override;
  std::vector<Status> MultiGet(
      const ReadOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys,
      std::vector<std::string>* values) override;
  void MultiGet(const ReadOptions& options, ColumnFamilyHandle* column_family,
                const size_t num_keys, const Slice* keys, PinnableSlice* values,
                Status* statuses, const bool sorted_input = false) override;
  Iterator* NewIterator(const ReadOptions& options,
                        ColumnFamilyHandle* column_family) override;
  Status NewIterators(const ReadOptions& options,
                      const std::vector<ColumnFamilyHandle*>& column_families,
                      std::vector<Iterator*>* iterators) override;
  const Snapshot* GetSnapshot() override;
  void ReleaseSnapshot(const Snapshot* snapshot) override;
  SequenceNumber GetLatestSequenceNumber() const override;
  bool GetProperty(ColumnFamilyHandle* column_family, const Slice& property,
                   std::string* value) override;
  bool GetIntProperty(ColumnFamilyHandle* column_family, const Slice& property,
                      uint64_t* value) override;
  bool GetMapProperty(ColumnFamilyHandle* column_family, const Slice& property,
                      std::map<std::string, std::string>* value) override;
  Status SyncWAL() override;
  Status Resume() override;
  using DB::CompactFiles;
  Status CompactFiles(
      const CompactionOptions& compact_options,
      ColumnFamilyHandle* column_family,
      const std::vector<std::string>& input_file_names, const int output_level,
      const int output_path_id = -1,
      std::vector<std::string>* const output_file_names = nullptr,
      CompactionJobInfo* compaction_job_info = nullptr) override;
  Status Flush(const FlushOptions& options,
               ColumnFamilyHandle* column_family) override;
  Status Flush(
      const FlushOptions& options,
      const std::vector<ColumnFamilyHandle*>& column_families) override;
  Status CompactRange(const CompactRangeOptions& options,
                      ColumnFamilyHandle* column_family, const Slice* begin,
                      const Slice* end) override;
  Status GetApproximateSizes(ColumnFamilyHandle* column_family,
                             const Range* ranges, int n, uint64_t* sizes,
                             SizeApproximationFlags include_flags) override;
  Status SetOptions(
      ColumnFamilyHandle* column_family,
      const std::unordered_map<std::string, std::string>& new_options) override;
  Options GetOptions(ColumnFamilyHandle* column_family) const override;
  DBOptions GetDBOptions() const override;
  // Live files: db/db_impl_live_files.cc.
  Status IngestExternalFile(ColumnFamilyHandle* column_family,
                            const std::vector<std::string>& external_files,
                            const IngestExternalFileOptions& options) override
      LOCKS_EXCLUDED(mutex_);
  Status IngestExternalFiles(const std::vector<IngestExternalFileArg>& args)
      override LOCKS_EXCLUDED(mutex_);
  Status DisableFileDeletions() override LOCKS_EXCLUDED(mutex_);
  Status EnableFileDeletions(bool force) override LOCKS_EXCLUDED(mutex_);
  Status GetLiveFiles(std::vector<std::string>& files,
                      uint64_t* manifest_file_size,
                      bool flush_memtable) override LOCKS_EXCLUDED(mutex_);
  Status GetLiveFilesStorageInfo(
      const LiveFilesStorageInfoOptions& opts,
      std::vector<LiveFileStorageInfo>* files) override LOCKS_EXCLUDED(mutex_);
  // GetLiveFilesStorageInfo, telling the sequence number the copy ends at
  // (db/db_impl_live_copy.cc): Checkpoint's.
  Status LiveFilesAt(const LiveFilesStorageInfoOptions& opts,
                     std::vector<LiveFileStorageInfo>* files,
                     SequenceNumber* sequence) LOCKS_EXCLUDED(mutex_);
  Status GetSortedWalFiles(VectorLogPtr& files) override LOCKS_EXCLUDED(mutex_);
  Status GetCurrentWalFile(std::unique_ptr<LogFile>* current_log_file) override
      LOCKS_EXCLUDED(mutex_);
  void GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) override
      LOCKS_EXCLUDED(mutex_);
  void GetColumnFamilyMetaData(ColumnFamilyHandle* column_family,
                               ColumnFamilyMetaData* metadata) override
      LOCKS_EXCLUDED(mutex_);
  Status GetDbIdentity(std::string& identity) const override;
  const std::string& GetName() const override { return dbname_; }
  Env* GetEnv() const override { return env_; }

  // The sequence number of the newest write to key in column_family: its
  // newest version in any memtable or table, or the newest range
  // tombstone covering it; 0 if there is none. Sees every write applied
  // to the memtables, published or not (a WriteCallback runs when every
  // earlier write is applied). What transactions' conflict checks use
  // (docs/transactions.md): it reads tables when no memtable holds the
  // key, so it never depends on how much memtable history is kept.
  Status GetLatestSequenceForKey(ColumnFamilyHandle* column_family,
                                 const Slice& key, SequenceNumber* sequence)
      LOCKS_EXCLUDED(mutex_);

  // The prepared transactions WAL recovery found unresolved (two-phase
  // commit; db/recovered_transactions.h), by name, handed over once: a
  // transaction DB takes them when it opens.
  std::map<std::string, RecoveredTransaction> TakeRecoveredTransactions()
      LOCKS_EXCLUDED(mutex_);
  // OK if column_family is live; InvalidArgument naming it if it was
  // dropped (its handle still reads, as Get does) or its handle released.
  // For checks that must not act on a dropped family (transactions').
  Status CheckFamilyLive(ColumnFamilyHandle* column_family)
      LOCKS_EXCLUDED(mutex_);

  // Waits until no flush or compaction is running or needed (tests and
  // tools that want a settled tree); the background error if there is one.
  Status WaitForBackgroundWork();

  // ColumnFamilyHandleImpl's: a handle deleted by its owner (not through
  // DestroyColumnFamilyHandle) leaves the DB's list and drops its ref.
  void ForgetHandle(ColumnFamilyHandleImpl* handle) LOCKS_EXCLUDED(mutex_);
  Status GetDescriptor(ColumnFamilyHandleImpl* handle,
                       ColumnFamilyDescriptor* desc) LOCKS_EXCLUDED(mutex_);

  // The write thread, for tests that hook into it (TEST_Set*Callback).
  WriteThread* TEST_write_thread() { return &write_thread_; }
  // Test hooks; set them before any write starts. They run with mutex_
  // held, so they must not call into the DB.
  // Called each time a memtable switch or Close finds announced memtable
  // inserts still running and is about to wait for them (a test can then
  // release a writer it parked before its insert).
  void TEST_SetMemTableWritesWaitCallback(std::function<void()> cb) {
    memtable_writes_wait_callback_ = std::move(cb);
  }
  // Called with a memtable's ApproximateMemoryUsage() as it is retired.
  void TEST_SetMemTableSwitchCallback(std::function<void(size_t)> cb) {
    memtable_switch_callback_ = std::move(cb);
  }
  // Called each time a write group is about to wait for writes stopped by
  // a stall (at the L0 or memtable stop trigger) to resume.
  void TEST_SetWriteStopWaitCallback(std::function<void()> cb) {
    write_stop_wait_callback_ = std::move(cb);
  }

  // OK, or InvalidArgument for options no DB can run with (NotSupported
  // for a compression this build lacks). Checks the options as given,
  // before anything is touched on disk; values that can be raised to a
  // workable one are not refused but raised when the DBImpl is built.
  static Status ValidateOptions(const Options& options);
  // The checks of an open's column_families (each named once, the default
  // one among them, every family's options valid); *default_family: the
  // default one's descriptor. caller names the open in messages.
  static Status CheckDescriptors(
      const DBOptions& db_options,
      const std::vector<ColumnFamilyDescriptor>& column_families,
      const char* caller, const ColumnFamilyDescriptor** default_family);
  // The options a family runs with: the DB's and the family's, raised to
  // workable values.
  static Options SanitizeOptions(const Options& options);
  // The info log a DB in dbname writes when the options give none: a new
  // LOG, the previous one kept as LOG.old.<time>; null if it cannot be
  // made (the DB runs without one).
  static std::shared_ptr<Logger> NewInfoLog(Env* env,
                                            const std::string& dbname);

 private:
  friend class DB;
  friend class DBImplSecondary;
  class FamilyRouter;

  // ---- db_impl_open.cc ----
  // Opens with the families of column_families (the default one among
  // them); *handles gets one handle per descriptor.
  Status Open(const std::vector<ColumnFamilyDescriptor>& column_families,
              std::vector<ColumnFamilyHandle*>* handles);
  Status Recover(const std::vector<ColumnFamilyDescriptor>& column_families)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status CreateNew() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Recover for a read-only open (db/db_impl_readonly.cc): no lock, no
  // file written; the WALs are replayed into the memtables, which stay.
  Status RecoverReadOnly(
      const std::vector<ColumnFamilyDescriptor>& column_families)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Its first step: the MANIFEST's state of the families named (which
  // must all exist).
  Status RecoverFamiliesReadOnly(
      const std::vector<ColumnFamilyDescriptor>& column_families)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_secondary.cc ----
  // Recover for a secondary instance: RecoverFamiliesReadOnly, then
  // CatchUpWithPrimary.
  Status RecoverSecondary(
      const std::vector<ColumnFamilyDescriptor>& column_families)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Reads the primary's files as they are now (docs/operations.md,
  // "Secondary instances"), retrying while the primary deletes what is
  // being read; TryAgain if it kept doing so.
  Status CatchUpWithPrimary() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // One attempt of it: TryAgain when a file read vanished.
  Status CatchUpOnce() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Opens (in the table cache, which keeps them) the tables of v, a
  // version of cfd about to be installed; TryAgain naming one that cannot
  // be opened for being gone.
  Status OpenFollowedTables(const ColumnFamilyData& cfd, const Version& v);
  // Evicts from the families' table caches the tables no version holds
  // any longer.
  void EvictUnfollowedTables() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Gives every family a new memtable, replays logs into them and sets the
  // sequence numbers to continue above what the MANIFEST and WALs hold.
  Status ReplayLogs(const std::vector<uint64_t>& logs)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Writes a new random id into IDENTITY, through temp file temp_number.
  Status WriteIdentity(uint64_t temp_number);
  // The numbers of the WALs to replay (sorted), from the DB directory's
  // listing; Corruption if a table the recovered version holds is not in
  // it (a MANIFEST that lost the edits after its last one, or a deleted
  // file): the open fails before anything is deleted.
  Status FindLogFiles(std::vector<uint64_t>* logs)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  uint64_t NewFileNumber() EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return versions_->NewFileNumber();
  }

  // ---- db_impl_options_file.cc ----
  // Writes a new OPTIONS file of the options in force (every family's),
  // keeping the newest two (docs/formats/options_file.md).
  Status PersistOptions() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // InvalidArgument when a family in column_families is recorded in the
  // newest OPTIONS file with another comparator or merge operator. A
  // damaged or missing file checks nothing (the MANIFEST still names the
  // comparators): it is logged, and the open writes a new one.
  Status CheckRecordedOptions(
      const std::vector<ColumnFamilyDescriptor>& column_families)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_wal_recovery.cc ----
  // Replays the WALs logs (sorted) per options_.wal_recovery_mode
  // (docs/formats/wal.md; point in time fails on damage that intact later
  // writes follow), and sets the sequence counters to the last replayed.
  Status RecoverLogFiles(const std::vector<uint64_t>& logs)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Inserts batch, a record of WAL log_number, into the memtables of the
  // families whose log number it is at or past (not those dropped or not
  // open), and raises *max_sequence to its last write's number.
  // prepared (if not null) receives its two-phase commit records.
  // Makes every LogAndApply record the oldest WAL prepared sections need
  // (VersionSet::SetPreparedLogFloor); once.
  void TrackPreparedLogs() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status ReplayBatch(WriteBatch* batch, uint64_t log_number,
                     SequenceNumber* max_sequence, PreparedSink* prepared)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_families.cc ----
  // The family of a handle given to the API: InvalidArgument for a null
  // handle, one of another DB, or one destroyed or released.
  Status FamilyOf(ColumnFamilyHandle* handle, ColumnFamilyData** cfd) const;
  // FamilyOf for each of handles, in order; the first error.
  Status FamiliesOf(const std::vector<ColumnFamilyHandle*>& handles,
                    std::vector<ColumnFamilyData*>* cfds) const;
  // A new handle on cfd, listed in handles_.
  ColumnFamilyHandleImpl* NewHandle(ColumnFamilyData* cfd)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Creates family name (the caller checked it is new).
  Status CreateFamily(const std::string& name,
                      const ColumnFamilyOptions& options,
                      ColumnFamilyData** cfd) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Rebuilds routes_ from the live families. REQUIRES: no memtable
  // insert running (PrepareGroup after WaitForMemTableWrites, or Open).
  void RebuildRoutes() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Has every write group after the current ones pick up changed routes
  // (a family created or dropped) before it inserts.
  Status RefreshRoutes() LOCKS_EXCLUDED(mutex_);
  // OK if every record of batch names a live family (or ignore_missing),
  // every family a Merge names has a merge operator, and no DeleteRange
  // has its end key before its begin key (by its family's comparator).
  Status CheckBatchFamilies(const WriteBatch* batch, bool ignore_missing)
      LOCKS_EXCLUDED(mutex_);
  // A new empty memtable for cfd, referenced.
  MemTable* NewMemTable(const ColumnFamilyData* cfd) const;

  // ---- db_impl_wal.cc ----
  // The switch leaves the finished WAL unsynced: the recovery mode stops
  // at a WAL whose predecessor lost its end in a power loss.
  bool DefersWALSync() const;
  // Creates WAL number; sync_dir: its name is made durable now.
  Status NewLogFile(uint64_t number, bool sync_dir,
                    std::unique_ptr<log::Writer>* result);
  // Makes next the WAL being written, the current one named in its
  // predecessor record; the current one is synced and closed, or
  // (DefersWALSync) kept in retired_logs_. On failure next is deleted.
  // *finished_size: the finished WAL's length. failed: a write or sync of
  // the current WAL failed (DB::Resume); it is abandoned as it is on
  // disk, its length taken as of its last complete record (log_bytes_).
  Status RetireLog(std::unique_ptr<log::Writer> next, bool failed,
                   uint64_t* finished_size)
      EXCLUSIVE_LOCKS_REQUIRED(log_mutex_);
  // Syncs the retired WALs (closing them), the directory if a WAL was
  // created since its last sync, and the current WAL, in that order.
  Status SyncLogs() EXCLUSIVE_LOCKS_REQUIRED(log_mutex_);
  // Closes a WAL whose data is in the OS; a failure is logged.
  void CloseLog(log::Writer* log);
  // Closes the retired WALs numbered below min_log (obsolete: their data
  // is in tables).
  void CloseRetiredLogsBelow(uint64_t min_log) LOCKS_EXCLUDED(log_mutex_);
  // Closes every WAL (Close); the current one's Close status. With
  // wal_failed (a write to the current WAL failed and no switch retired
  // it) the current one is closed with its buffer dropped: written again,
  // it could repeat bytes of the failed write, or bring the failed write
  // back at the next open.
  Status CloseLogs(bool wal_failed) LOCKS_EXCLUDED(log_mutex_);
  // Bytes in the live WALs (the current one as of its last record).
  uint64_t LiveLogBytes() const EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return finished_log_bytes_ + log_bytes_.load(std::memory_order_relaxed);
  }
  // ---- db_impl_close.cc ----
  // Close; force: also with unreleased snapshots (the destructor). Returns
  // the first error met.
  Status CloseImpl(bool force) LOCKS_EXCLUDED(close_mutex_, mutex_);
  // Ends a clean close's WAL and MANIFEST with a record that nothing
  // else writes after (docs/reliability.md, "What damage is detected"):
  // the close marker in the live WAL, every WAL then synced, and one
  // more MANIFEST edit. REQUIRES: no write or background work runs.
  Status MarkCleanClose() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_flush.cc ----
  // Schedules a flush on the HIGH pool if memtables wait and none runs.
  void MaybeScheduleFlush() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  static void BGWorkFlush(void* db);
  void BackgroundFlush();
  // The family whose immutable memtables wait longest (the oldest WAL),
  // or null.
  ColumnFamilyData* PickFlush() const EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Writes every immutable memtable of each family of cfds as one level-0
  // table each, installs them (one MANIFEST record) with the log number of
  // the oldest WAL each family still needs, and drops them. Families
  // whose memtables are empty move their log number to the current WAL
  // in the same record.
  // reason: what the listeners are told.
  Status FlushMemTables(const std::vector<ColumnFamilyData*>& cfds,
                        FlushReason reason = FlushReason::kOthers)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // How flushes and compactions of cfd write tables.
  BuildTableOptions NewTableOptions(const ColumnFamilyData* cfd) const;
  // Builds mems (oldest first) into a new table of cfd; adds it to *edit
  // unless empty. *number is the file's number, in pending_outputs_ (the
  // caller erases it once the edit is applied or abandoned). Releases
  // mutex_ meanwhile.
  // Calls the listeners' OnFlushBegin and the table file callbacks; *info
  // is what OnFlushCompleted is to get. info null: the flush of a WAL
  // replay at open (the table callbacks only, reason kRecovery).
  Status WriteLevel0Table(ColumnFamilyData* cfd,
                          const std::vector<MemTable*>& mems, VersionEdit* edit,
                          uint64_t* number, FlushJobInfo* info)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Asks the next write group to retire the active memtables of cfds and
  // waits for that group (and, with options.wait, for the flushes).
  Status FlushFamilies(const FlushOptions& options,
                       const std::vector<ColumnFamilyData*>& cfds)
      LOCKS_EXCLUDED(mutex_);

  // ---- db_impl_live_files.cc ----
  // Flushes every family (one dropped meanwhile is skipped).
  Status FlushAllFamilies() LOCKS_EXCLUDED(mutex_);
  // The number of the newest OPTIONS file in the directory, if any.
  Status NewestOptionsFile(uint64_t* number, bool* found) const;

  // ---- db_impl_budget.cc ----
  // Adds to *switching the family whose active memtable the
  // WriteBufferManager's flush rule retires (the largest), if the rule
  // holds and *switching is empty.
  void PickForWriteBufferManager(const std::vector<ColumnFamilyData*>& families,
                                 std::vector<ColumnFamilyData*>* switching)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // With more than one family and the live WALs past max_total_wal_size:
  // adds to *switching the families whose active memtable holds data of
  // the oldest live WAL, so that their flushes let it go.
  void PickForWALSize(const std::vector<ColumnFamilyData*>& families,
                      std::vector<ColumnFamilyData*>* switching)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // The WAL budget: max_total_wal_size, or RocksDB's derived value.
  uint64_t MaxTotalWALSize(const std::vector<ColumnFamilyData*>& families) const
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Waits while the WriteBufferManager stalls writes (fails at once with
  // Incomplete for a no_slowdown group); a group without updates does not
  // wait. Releases mutex_ meanwhile.
  Status WaitForWriteBuffer(WriteThread::WriteGroup* group)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Wakes this DB's leader from a stall of the manager (Close, a
  // background error) and leaves the manager's queue.
  void EndWriteBufferStall() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_compaction.cc ----
  // Compactions that may run at once: RocksDB's split of
  // max_background_jobs (a quarter, at least one, for flushes).
  int MaxCompactions() const;
  // A family whose tree needs a compaction, or null.
  ColumnFamilyData* FamilyNeedingCompaction() const
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Schedules compactions on the LOW pool while a level needs one and
  // slots are free.
  void MaybeScheduleCompaction() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  static void BGWorkCompaction(void* db);
  void BackgroundCompaction();
  // After a compaction (or move) ends, installed or not: schedules what
  // is now possible and wakes waiters.
  void CompactionDone() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Runs c (picked from a version of cfd, its files marked being
  // compacted) and installs the result; unmarks the files. Releases
  // mutex_ meanwhile. The caller deletes the obsolete inputs
  // (DeleteObsoleteFiles) once it has released base, which keeps them
  // live.
  // Calls the listeners' OnCompactionBegin/Completed unless !notify
  // (CompactFiles: RocksDB 7.8 does not call them for it), and fills
  // *info with what OnCompactionCompleted gets, if not null.
  Status RunCompaction(ColumnFamilyData* cfd, Compaction* c,
                       CompactionJobInfo* info = nullptr, bool notify = true)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // RunCompaction's work: runs c (or moves its file) and installs the
  // result. *outputs: the numbers of the files it added.
  Status InstallCompaction(ColumnFamilyData* cfd, Compaction* c, int job_id,
                           std::vector<uint64_t>* outputs)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Fills options' compaction filter fields for c in cfd; snapshots: the
  // live snapshots' sequence numbers, ascending.
  void SetCompactionFilter(ColumnFamilyData* cfd, const Compaction& c,
                           const std::vector<SequenceNumber>& snapshots,
                           CompactionJobOptions* options) const
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // One level of CompactRange: every step of level's files in [begin,
  // end] into the next level, or with in_place into level itself (the
  // deepest level, for a compaction filter). *output_level: where they
  // went (-1: no file of level was in the range).
  Status CompactLevelRange(ColumnFamilyData* cfd, int level, const Slice* begin,
                           const Slice* end, bool in_place, int* output_level)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // The deepest level L >= 1 of cfd with a file meeting [*begin, *end]
  // (null: unbounded); 0 if none.
  int DeepestLevelOverlapping(ColumnFamilyData* cfd, const Slice* begin,
                              const Slice* end) const
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_listeners.cc ----
  // Each Notify* calls every listener's callback; those taking mutex_
  // release it meanwhile (a listener may call into the DB).
  int NewJobId() { return next_job_id_.fetch_add(1) + 1; }
  void NotifyFlushBegin(const FlushJobInfo& info) LOCKS_EXCLUDED(mutex_);
  void NotifyFlushCompleted(const std::vector<FlushJobInfo>& infos)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void NotifyTableFileCreationStarted(const TableFileCreationBriefInfo& info)
      LOCKS_EXCLUDED(mutex_);
  void NotifyTableFileCreated(const TableFileCreationInfo& info)
      LOCKS_EXCLUDED(mutex_);
  void NotifyTableFileDeleted(const std::string& path, const Status& s)
      LOCKS_EXCLUDED(mutex_);
  void NotifyCompaction(const CompactionJobInfo& info, bool completed)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // What OnCompactionBegin gets for c of cfd (job_id: the compaction's).
  CompactionJobInfo NewCompactionJobInfo(const ColumnFamilyData* cfd,
                                         const Compaction& c, int job_id) const;
  // The path and brief creation info of table number of cfd.
  TableFileCreationBriefInfo NewTableFileInfo(
      const ColumnFamilyData* cfd, uint64_t number, int job_id,
      TableFileCreationReason reason) const;

  // ---- db_impl_stall.cc ----
  // Waits (or, for no_slowdown groups, fails with Incomplete) while the
  // memtable or L0 rule of the write stalls stops or delays writes in
  // any family; switching: the families whose active memtable is to be
  // retired.
  Status WaitForWriteRoom(WriteThread::WriteGroup* group,
                          const std::vector<ColumnFamilyData*>& switching)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // The write stall condition of cfd now (*why: the rule that holds);
  // full: its active memtable waits to be retired.
  WriteStallCondition FamilyStall(const ColumnFamilyData* cfd, bool full,
                                  std::string* why) const
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Queues a WriteStallInfo if cfd's condition differs from the last one
  // recorded for it.
  void RecordStall(const ColumnFamilyData* cfd, WriteStallCondition c)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Records every family's condition (counting the memtables a waiting
  // leader is about to retire) and delivers the queued changes.
  void ReportStallChanges() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_compact_files.cc ----
  // The compaction CompactFiles runs: the named files of cfd grown as
  // RocksDB grows them (db.h), or null and the reason.
  Status PickCompactFiles(ColumnFamilyData* cfd,
                          const CompactionOptions& options,
                          const std::vector<std::string>& names,
                          int output_level, std::unique_ptr<Compaction>* c)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Aborted if a running compaction may write into c's key range at c's
  // output level or above (RunningCompactionMayWrite).
  Status CheckNoCompactionWritesThere(const Version& base,
                                      const Compaction& c) const
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_files.cc ----
  // Deletes the files no longer needed: tables no live version holds and
  // no job is writing, WALs below the log number, MANIFESTs below the live
  // one. Failures are logged, never returned. Releases mutex_ meanwhile.
  void DeleteObsoleteFiles() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // Ingestion (db/db_impl_ingest.cc). A call's checked files wait in
  // ingest_jobs_ for the next group's PrepareGroup, where no write is
  // being applied: RunIngestJobs flushes what they overlap, picks levels
  // and sequence numbers and installs them.
  struct IngestJob;
  void RunIngestJobs() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status RunIngestJob(IngestJob* job) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status FlushForIngest(IngestJob* job) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status InstallIngest(IngestJob* job) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Tells the listeners of an ingestion that succeeded; on the caller's
  // thread, without mutex_.
  void NotifyIngested(const IngestJob& job) LOCKS_EXCLUDED(mutex_);

  // ---- db_impl_write.cc ----
  // Write and WriteWithCallback: checks the batch (refusing two-phase
  // commit markers unless markers_allowed), then hands it to the write
  // thread.
  Status WriteImpl(const WriteOptions& options, WriteBatch* updates,
                   WriteCallback* callback, bool markers_allowed);
  Status PrepareGroup(WriteThread::WriteGroup* group) override;
  SequenceNumber AllocateSequence(uint64_t count) override;
  Status WriteWAL(WriteThread::WriteGroup* group) override;
  Status ApplyMemTable(WriteThread::WriteGroup* group) override;
  // Tells prepared_logs_ of the two-phase commit markers of the group's
  // batches, just appended to the current WAL.
  void RecordTwoPhaseMarkers(WriteThread::WriteGroup* group)
      EXCLUSIVE_LOCKS_REQUIRED(log_mutex_);
  bool CanInsertInParallel(const WriteThread::WriteGroup& group) override;
  Status InsertMember(WriteThread::Writer* w) override;
  void MemTableWritesPending(uint64_t n) override;
  void MemTableWriteDone() override;
  void Publish(SequenceNumber last_sequence) override;
  uint64_t NowMicros() override;
  // Inserts w's batch into the families' write memtables; a failure
  // becomes the background error (the WAL has the batch, the memtables
  // maybe part of it).
  Status InsertWriter(WriteThread::Writer* w, bool concurrent);
  // Waits until no announced memtable insert (unordered mode) or memtable
  // stage (pipelined mode) is running: before a memtable switch, before a
  // requested flush looks at the memtable, and in Close. Waits on bg_cv_,
  // releasing mutex_ meanwhile.
  void WaitForMemTableWrites() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Retires the active memtables of cfds to their immutable lists and
  // starts new ones with one new WAL. If the new WAL cannot be created
  // nothing changes and that error is returned; the current memtables and
  // WAL stay usable. A failure to finish the current WAL is returned and
  // becomes the background error.
  // wal_failed: the current WAL failed (RetireLog's failed).
  Status SwitchMemTables(const std::vector<ColumnFamilyData*>& cfds,
                         bool wal_failed = false)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_resume.cc ----
  // Hands s, which failed reason's work, to error_handler_; if the DB
  // stops writing because of it, memtables waiting for a flush stop
  // counting as on their way out of the write buffer budget, and the
  // automatic retries start if the error is retryable.
  void SetBackgroundError(const Status& s, BackgroundErrorReason reason)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // The write path's answer while the DB is stopped: the background error
  // if it stops writes, else OK.
  Status WriteStopStatus() const EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return error_handler_.IsDBStopped() ? error_handler_.GetBGError()
                                        : Status::OK();
  }
  // Resume's step (also the automatic retries'): retries what the
  // background error interrupted and clears it if that succeeds.
  // Releases mutex_ meanwhile.
  Status ResumeImpl() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // For a hard error: a new WAL if the current one failed, then every
  // immutable memtable flushed.
  Status RetryInterruptedWork() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_read.cc ----
  // References cfd, its memtables and current version for a read at the
  // snapshot of options (or the newest published sequence); sequence, if
  // not null, overrides both (NewIterators).
  Status AcquireReadView(const ReadOptions& options, ColumnFamilyData* cfd,
                         ReadView* view);
  Status AcquireReadViewLocked(const ReadOptions& options,
                               ColumnFamilyData* cfd, SequenceNumber sequence,
                               ReadView* view) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void ReleaseReadView(const ReadView& view);
  // An iterator over view (which it releases when deleted).
  Iterator* NewIteratorOver(const ReadOptions& options, const ReadView& view);
  // Each level's files, bytes and compaction score now (strata.stats).
  LevelReportInput CurrentLevelReport(const ColumnFamilyData* cfd)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const Options options_;
  const std::string dbname_;
  Env* const env_;
  std::shared_ptr<Logger> info_log_;

  // Held for the whole of a Close, so a second one waits for the first.
  port::Mutex close_mutex_ ACQUIRED_BEFORE(mutex_);
  mutable port::Mutex mutex_;
  // Every use holds mutex_ (checked: the pointer is guarded), which is
  // what VersionSet's methods require (db/version_set.h).
  const std::unique_ptr<VersionSet> versions_ GUARDED_BY(mutex_);
  // The default family (never dropped; owned by versions_).
  ColumnFamilyData* const default_cfd_;
  // The DB's own handle on it (DefaultColumnFamily()).
  ColumnFamilyHandleImpl* default_handle_ = nullptr;
  // Handles given out and not yet released.
  std::set<ColumnFamilyHandleImpl*> handles_ GUARDED_BY(mutex_);
  // Handles given back through DestroyColumnFamilyHandle: kept (released)
  // until the DB is deleted, so a use after it is InvalidArgument, not a
  // use of freed memory.
  std::vector<std::unique_ptr<ColumnFamilyHandleImpl>> destroyed_handles_
      GUARDED_BY(mutex_);
  // The families inserts go to, by id. Replaced in PrepareGroup with no
  // insert running, when routes_stale_.
  std::atomic<ColumnFamilyRoutes*> routes_{nullptr};
  bool routes_stale_ GUARDED_BY(mutex_) = false;
  // PrepareGroup's list of the families it retires memtables of.
  std::vector<ColumnFamilyData*> switching_ GUARDED_BY(mutex_);
  FileLock* db_lock_ = nullptr;
  const bool read_only_;
  // A read-only open fails if the WALs hold writes not in tables.
  bool error_if_wal_file_exists_ = false;
  // A secondary instance (read_only_ too): it follows a live primary.
  bool secondary_ = false;
  // Its tables open in each family's table cache, by family id.
  std::map<uint32_t, std::set<uint64_t>> followed_tables_ GUARDED_BY(mutex_);
  bool opened_ GUARDED_BY(mutex_) = false;
  bool closing_ GUARDED_BY(mutex_) = false;
  // What the first Close returned (a later Close returns it again).
  Status close_status_ GUARDED_BY(mutex_);
  // The background error (guarded by mutex_, which its methods require).
  ErrorHandler error_handler_;
  SnapshotList snapshots_ GUARDED_BY(mutex_);
  // The WALs not yet deleted, oldest first, the current one last. size:
  // the length of a finished WAL (0 for the current one, whose length is
  // log_bytes_).
  struct LiveLog {
    uint64_t number;
    uint64_t size;
  };
  std::vector<LiveLog> live_logs_ GUARDED_BY(mutex_);
  // The sum of the finished live WALs' sizes.
  uint64_t finished_log_bytes_ GUARDED_BY(mutex_) = 0;
  // The length of the WAL being written, stored by the leader after each
  // record (read by a later leader's PrepareGroup).
  std::atomic<uint64_t> log_bytes_{0};
  // The memtable budget (options_.write_buffer_manager, or one the DB made
  // for db_write_buffer_size); null for none.
  WriteBufferManager* const write_buffer_manager_;
  // What a leader stalled by it waits on.
  WriteBufferStall write_buffer_stall_;
  bool flush_scheduled_ GUARDED_BY(mutex_) = false;
  // Why the last memtable switch could not start its WAL (OK once one
  // succeeds): a Flush whose request is still pending reports it.
  Status switch_error_ GUARDED_BY(mutex_);
  // A disableWAL write went into a memtable: Close flushes.
  bool has_unlogged_writes_ GUARDED_BY(mutex_) = false;
  WriteController write_controller_ GUARDED_BY(mutex_);
  // The write stall condition last recorded per family id, the changes
  // not yet delivered to the listeners (oldest first), and whether a
  // thread is delivering them (one at a time, so they arrive in order).
  std::map<uint32_t, WriteStallCondition> stall_conditions_ GUARDED_BY(mutex_);
  std::deque<WriteStallInfo> stall_changes_ GUARDED_BY(mutex_);
  bool delivering_stall_changes_ GUARDED_BY(mutex_) = false;
  // While a leader waits in WaitForWriteRoom: the families whose active
  // memtables it is to retire (they count as full).
  const std::vector<ColumnFamilyData*>* stall_switching_ GUARDED_BY(mutex_) =
      nullptr;
  // The last job id given to a flush or compaction.
  std::atomic<int> next_job_id_{0};
  // Signalled when a background flush or compaction finishes.
  port::CondVar bg_cv_;
  // Table files being written by a flush or compaction (not yet in a
  // version).
  std::set<uint64_t> pending_outputs_ GUARDED_BY(mutex_);
  // DisableFileDeletions calls not yet undone: DeleteObsoleteFiles does
  // nothing while it is above 0.
  int file_deletions_disabled_ GUARDED_BY(mutex_) = 0;
  // Compactions scheduled or running on the LOW pool.
  int bg_compactions_scheduled_ GUARDED_BY(mutex_) = 0;
  // CompactRange calls running, and those of them that keep automatic
  // compactions from starting.
  int manual_compactions_ GUARDED_BY(mutex_) = 0;
  int exclusive_manual_compactions_ GUARDED_BY(mutex_) = 0;
  std::deque<IngestJob*> ingest_jobs_ GUARDED_BY(mutex_);
  // An ingestion is writing its MANIFEST record: no compaction is picked
  // meanwhile, as its outputs could overlap the new files' level.
  int ingestions_installing_ GUARDED_BY(mutex_) = 0;
  // CompactFiles calls and in-place CompactRange steps (a family with a
  // compaction filter) running: no other compaction is picked meanwhile
  // (theirs may skip levels or write within their own level, and
  // another's outputs could fall into a gap between their inputs).
  int compact_files_running_ GUARDED_BY(mutex_) = 0;
  // Filled by WAL recovery; emptied by TakeRecoveredTransactions.
  RecoveredTransactions recovered_transactions_ GUARDED_BY(mutex_);
  // The WALs two-phase commit still needs (its own mutex); consulted by
  // every LogAndApply once a prepared section may exist (allow_2pc, or
  // one recovered).
  PreparedLogs prepared_logs_;
  bool prepared_floor_set_ GUARDED_BY(mutex_) = false;
  // Whether batches with two-phase commit markers may be written:
  // allow_2pc, or sections recovered (prepared_logs_ then tracks them).
  std::atomic<bool> two_phase_allowed_{false};
  // The last WAL RecoverLogFiles replayed and where its last record
  // ended (0, 0: none): the predecessor of the WAL the open starts when
  // older WALs are kept for prepared sections.
  uint64_t last_replayed_log_ GUARDED_BY(mutex_) = 0;
  uint64_t last_replayed_end_ GUARDED_BY(mutex_) = 0;
  // Set by Close: running compactions stop early.
  std::atomic<bool> shutting_down_{false};

  // The WAL being written and its number.
  port::Mutex log_mutex_ ACQUIRED_AFTER(mutex_);
  std::unique_ptr<log::Writer> log_ GUARDED_BY(log_mutex_);
  // Finished WALs not yet synced, oldest first (DefersWALSync).
  std::deque<std::unique_ptr<log::Writer>> retired_logs_ GUARDED_BY(log_mutex_);
  // The directory was synced since the current WAL was created.
  bool log_dir_synced_ GUARDED_BY(log_mutex_) = true;

  // Announced inserts (unordered) or memtable stages (pipelined) not yet
  // done; bg_cv_ is signalled when it drops to zero.
  std::atomic<uint64_t> pending_memtable_writes_{0};
  WriteBatch group_batch_;  // the merged batch of a multi-writer group

  // last_allocated_ >= last_published_; reads use last_published_.
  std::atomic<SequenceNumber> last_allocated_{0};
  std::atomic<SequenceNumber> last_published_{0};

  WriteThread write_thread_;

  std::function<void()> memtable_writes_wait_callback_;
  std::function<void(size_t)> memtable_switch_callback_;
  std::function<void()> write_stop_wait_callback_;
};

}  // namespace strata

#endif  // STRATA_DB_DB_IMPL_H_
