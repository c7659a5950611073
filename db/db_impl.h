// DBImpl: strata's DB. Its methods are split by concern:
//   db_impl_open.cc   Open, creation, options check, WAL recovery
//   db_impl_close.cc  Close, DestroyDB
//   db_impl_write.cc  Write and the write thread's CommitEnv (WAL, memtable)
//   db_impl_wal.cc    WAL files: creating, retiring at a switch, syncing
//   db_impl_flush.cc  memtable flushes, Flush, write stalls
//   db_impl_files.cc  deleting obsolete files
//   db_impl_compaction.cc  compactions, CompactRange
//   db_impl_read.cc   Get, MultiGet, iterators, snapshots, properties
//   db_impl_sizes.cc  GetApproximateSizes
//
// State and locking. mutex_ guards the memtables, the snapshot list, the
// version set (versions_: the tables, the MANIFEST and the file counter)
// and the background error. The write path runs through
// write_thread_: one group leader at a time owns the WAL writer and the
// memtable it inserts into (write_mem_), which it takes under mutex_ in
// PrepareGroup, so writing and inserting need no lock. log_mutex_ guards
// the WAL writer and the retired WALs against SyncWAL, Close and
// DeleteObsoleteFiles, which can run beside a leader.
// Readers take references to the memtables under mutex_ and read without
// it; last_published_ (an atomic) is the newest sequence they may see.
//
// Files are laid out as in docs/formats/files.md. A WAL numbered below
// the version set's log number holds only flushed data and is deleted
// (DeleteObsoleteFiles); an open replays the others.

#ifndef STRATA_DB_DB_IMPL_H_
#define STRATA_DB_DB_IMPL_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/builder.h"
#include "db/compaction_picker.h"
#include "db/dbformat.h"
#include "db/internal_stats.h"
#include "db/log_writer.h"
#include "db/read_view.h"
#include "db/snapshot_impl.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "db/write_controller.h"
#include "db/write_thread.h"
#include "memtable/memtable_list.h"
#include "port/port.h"
#include "port/thread_annotations.h"
#include "strata/db.h"

namespace strata {

class MemTable;

class DBImpl : public DB, private WriteThread::CommitEnv {
 public:
  DBImpl(const Options& options, const std::string& dbname);
  ~DBImpl() override;

  // ---- DB ----
  Status Close() override;
  Status Write(const WriteOptions& options, WriteBatch* updates) override;
  Status DeleteRange(const WriteOptions& options, const Slice& begin_key,
                     const Slice& end_key) override;
  Status Get(const ReadOptions& options, const Slice& key,
             std::string* value) override;
  std::vector<Status> MultiGet(const ReadOptions& options,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override;
  Iterator* NewIterator(const ReadOptions& options) override;
  const Snapshot* GetSnapshot() override;
  void ReleaseSnapshot(const Snapshot* snapshot) override;
  SequenceNumber GetLatestSequenceNumber() const override;
  bool GetProperty(const Slice& property, std::string* value) override;
  bool GetIntProperty(const Slice& property, uint64_t* value) override;
  Status SyncWAL() override;
  Status Flush(const FlushOptions& options) override;
  Status CompactRange(const CompactRangeOptions& options, const Slice* begin,
                      const Slice* end) override;
  Status GetApproximateSizes(const Range* ranges, int n, uint64_t* sizes,
                             SizeApproximationFlags include_flags) override;
  const std::string& GetName() const override { return dbname_; }
  Env* GetEnv() const override { return env_; }

  // Waits until no flush or compaction is running or needed (tests and
  // tools that want a settled tree); the background error if there is one.
  Status WaitForBackgroundWork();

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

 private:
  friend class DB;

  // ---- db_impl_open.cc ----
  Status Open();
  Status Recover() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status CreateNew() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // The numbers of the WALs to replay (sorted).
  Status FindLogFiles(std::vector<uint64_t>* logs)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Status RecoverLogFiles(const std::vector<uint64_t>& logs)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  uint64_t NewFileNumber() EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return versions_->NewFileNumber();
  }
  std::string OptionsFileContents() const;
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
  Status RetireLog(std::unique_ptr<log::Writer> next)
      EXCLUSIVE_LOCKS_REQUIRED(log_mutex_);
  // Syncs the retired WALs (closing them), the directory if a WAL was
  // created since its last sync, and the current WAL, in that order.
  Status SyncLogs() EXCLUSIVE_LOCKS_REQUIRED(log_mutex_);
  // Closes a WAL whose data is in the OS; a failure is logged.
  void CloseLog(log::Writer* log);
  // Closes the retired WALs numbered below min_log (obsolete: their data
  // is in tables).
  void CloseRetiredLogsBelow(uint64_t min_log) LOCKS_EXCLUDED(log_mutex_);
  // Closes every WAL (Close); the current one's Close status.
  Status CloseLogs() LOCKS_EXCLUDED(log_mutex_);
  // ---- db_impl_close.cc ----
  // Close; force: also with unreleased snapshots (the destructor). Returns
  // the first error met.
  Status CloseImpl(bool force) LOCKS_EXCLUDED(close_mutex_, mutex_);

  // ---- db_impl_flush.cc ----
  // An empty memtable (refs 0) whose arena grows by an eighth of
  // write_buffer_size at a time (at least 4 KiB, at most 64 KiB), carved
  // from huge-page regions when memtable_huge_page_size allows.
  MemTable* NewMemTable() const;
  // Schedules a flush on the HIGH pool if memtables wait and none runs.
  void MaybeScheduleFlush() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  static void BGWorkFlush(void* db);
  void BackgroundFlush();
  // Writes every immutable memtable as one level-0 table, installs it with
  // the log number of the oldest WAL still needed, and drops them.
  Status FlushMemTables() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // How flushes and compactions write tables.
  BuildTableOptions NewTableOptions() const;
  // Builds mems (oldest first) into a new table; adds it to *edit unless
  // empty. *number is the file's number, in pending_outputs_ (the caller
  // erases it once the edit is applied or abandoned). Releases mutex_
  // meanwhile.
  Status WriteLevel0Table(const std::vector<MemTable*>& mems, VersionEdit* edit,
                          uint64_t* number) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Waits (or, for no_slowdown groups, fails with Incomplete) while the
  // memtable rule of the write stalls stops or delays writes; full: the
  // active memtable is to be retired.
  Status WaitForWriteRoom(WriteThread::WriteGroup* group, bool full)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_compaction.cc ----
  // Compactions that may run at once: RocksDB's split of
  // max_background_jobs (a quarter, at least one, for flushes).
  int MaxCompactions() const;
  // Schedules compactions on the LOW pool while a level needs one and
  // slots are free.
  void MaybeScheduleCompaction() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  static void BGWorkCompaction(void* db);
  void BackgroundCompaction();
  // After a compaction (or move) ends, installed or not: schedules what
  // is now possible and wakes waiters.
  void CompactionDone() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Runs c (picked from version base, its files marked being compacted)
  // and installs the result; unmarks the files. Releases mutex_ meanwhile.
  // The caller deletes the obsolete inputs (DeleteObsoleteFiles) once it
  // has released base, which keeps them live.
  Status RunCompaction(Compaction* c) EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // One level of CompactRange: every step of level's files in [begin,
  // end] into the next level. *output_level: where they went (-1: no
  // file of level was in the range).
  Status CompactLevelRange(int level, const Slice* begin, const Slice* end,
                           int* output_level) EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_files.cc ----
  // Deletes the files no longer needed: tables no live version holds and
  // no job is writing, WALs below the log number, MANIFESTs below the live
  // one. Failures are logged, never returned. Releases mutex_ meanwhile.
  void DeleteObsoleteFiles() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_write.cc ----
  Status PrepareGroup(WriteThread::WriteGroup* group) override;
  SequenceNumber AllocateSequence(uint64_t count) override;
  Status WriteWAL(WriteThread::WriteGroup* group) override;
  Status ApplyMemTable(WriteThread::WriteGroup* group) override;
  bool CanInsertInParallel(const WriteThread::WriteGroup& group) override;
  Status InsertMember(WriteThread::Writer* w) override;
  void MemTableWritesPending(uint64_t n) override;
  void MemTableWriteDone() override;
  void Publish(SequenceNumber last_sequence) override;
  // Inserts w's batch into write_mem_; a failure becomes the background
  // error (the WAL has the batch, the memtable maybe part of it).
  Status InsertWriter(WriteThread::Writer* w, bool concurrent);
  // Waits until no announced memtable insert (unordered mode) or memtable
  // stage (pipelined mode) is running: before a memtable switch, before a
  // requested flush looks at the memtable, and in Close. Waits on bg_cv_,
  // releasing mutex_ meanwhile.
  void WaitForMemTableWrites() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Retires the full memtable to imm_ and starts a new one with a new WAL.
  // If the new WAL cannot be created nothing changes and that error is
  // returned; the current memtable and WAL stay usable. A failure to
  // finish the current WAL is returned and becomes the background error.
  Status SwitchMemTable() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void SetBackgroundError(const Status& s) EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  // ---- db_impl_read.cc ----
  // References the memtables and the current version for a read at the
  // snapshot of options (or the newest published sequence).
  Status AcquireReadView(const ReadOptions& options, ReadView* view);
  void ReleaseReadView(const ReadView& view);
  // Each level's files, bytes and compaction score now (strata.stats).
  LevelReportInput CurrentLevelReport() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const Options options_;
  const std::string dbname_;
  Env* const env_;
  const InternalKeyComparator icmp_;
  std::shared_ptr<Logger> info_log_;

  const std::unique_ptr<TableCache> table_cache_;

  // Held for the whole of a Close, so a second one waits for the first.
  port::Mutex close_mutex_ ACQUIRED_BEFORE(mutex_);
  mutable port::Mutex mutex_;
  // Every use holds mutex_ (checked: the pointer is guarded), which is
  // what VersionSet's methods require (db/version_set.h).
  const std::unique_ptr<VersionSet> versions_ GUARDED_BY(mutex_);
  FileLock* db_lock_ = nullptr;
  bool opened_ GUARDED_BY(mutex_) = false;
  bool closing_ GUARDED_BY(mutex_) = false;
  // What the first Close returned (a later Close returns it again).
  Status close_status_ GUARDED_BY(mutex_);
  Status bg_error_ GUARDED_BY(mutex_);
  MemTable* mem_ GUARDED_BY(mutex_) = nullptr;
  MemTableList imm_ GUARDED_BY(mutex_);
  SnapshotList snapshots_ GUARDED_BY(mutex_);
  std::vector<uint64_t> live_logs_ GUARDED_BY(mutex_);
  // Per immutable memtable, oldest first: the WAL started when it was
  // retired. Once it is flushed, older WALs hold nothing needed.
  std::deque<uint64_t> imm_next_logs_ GUARDED_BY(mutex_);
  // Memtables retired and flushed since open (Flush waits on these).
  uint64_t memtables_retired_ GUARDED_BY(mutex_) = 0;
  uint64_t memtables_flushed_ GUARDED_BY(mutex_) = 0;
  bool flush_scheduled_ GUARDED_BY(mutex_) = false;
  // A Flush() wants the active memtable retired by the next group.
  bool flush_requested_ GUARDED_BY(mutex_) = false;
  // Why the last memtable switch could not start its WAL (OK once one
  // succeeds): a Flush whose request is still pending reports it.
  Status switch_error_ GUARDED_BY(mutex_);
  // A disableWAL write went into a memtable: Close flushes.
  bool has_unlogged_writes_ GUARDED_BY(mutex_) = false;
  WriteController write_controller_ GUARDED_BY(mutex_);
  // Signalled when a background flush or compaction finishes.
  port::CondVar bg_cv_;
  // Table files being written by a flush or compaction (not yet in a
  // version).
  std::set<uint64_t> pending_outputs_ GUARDED_BY(mutex_);
  const CompactionPicker picker_;
  // Compactions scheduled or running on the LOW pool.
  int bg_compactions_scheduled_ GUARDED_BY(mutex_) = 0;
  // CompactRange calls running, and those of them that keep automatic
  // compactions from starting.
  int manual_compactions_ GUARDED_BY(mutex_) = 0;
  int exclusive_manual_compactions_ GUARDED_BY(mutex_) = 0;
  // Set by Close: running compactions stop early.
  std::atomic<bool> shutting_down_{false};
  // The work behind strata.stats: flushes and compactions per level,
  // user ingest, WAL syncs, stalls.
  InternalStats internal_stats_ GUARDED_BY(mutex_);

  // The WAL being written and its number.
  port::Mutex log_mutex_ ACQUIRED_AFTER(mutex_);
  std::unique_ptr<log::Writer> log_ GUARDED_BY(log_mutex_);
  // Finished WALs not yet synced, oldest first (DefersWALSync).
  std::deque<std::unique_ptr<log::Writer>> retired_logs_ GUARDED_BY(log_mutex_);
  // The directory was synced since the current WAL was created.
  bool log_dir_synced_ GUARDED_BY(log_mutex_) = true;

  // The memtable groups insert into, set by the leader in PrepareGroup.
  // Atomic: in the pipelined and unordered modes inserts of earlier
  // groups read it while the next leader prepares (it only changes once
  // they are drained, see WaitForMemTableWrites).
  std::atomic<MemTable*> write_mem_{nullptr};
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
