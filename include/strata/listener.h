// EventListener: callbacks a DB makes when it flushes, compacts, creates
// or deletes table files, changes its write stall state, or meets a
// background error (DBOptions::listeners). The names and fields are
// RocksDB 7.8's; docs/operations.md ("Listeners") lists which callbacks
// strata makes, on which thread, and which fields it fills.
//
// Threading: a callback runs on the thread doing the work it reports —
// the background flush or compaction thread, or the thread of a
// CompactFiles or CompactRange call that does the work itself — and never
// with the DB's mutex held, so it may call back into the DB (GetProperty,
// Get, Put). It delays the work it reports until it returns, so it should
// be short; a callback that waits for the reported work (Flush with wait
// from OnFlushCompleted, CompactRange from OnCompactionCompleted)
// deadlocks, as it does in RocksDB.
//
// Exceptions must not leave a callback: strata is not exception-safe.
//
// Fields strata cannot fill keep their defaults; the structs omit
// RocksDB's table properties, compaction job stats and blob fields,
// which strata has no public types for.

#ifndef STRATA_INCLUDE_LISTENER_H_
#define STRATA_INCLUDE_LISTENER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/types.h"

namespace strata {

class ColumnFamilyHandle;
class DB;

// Why a table file was created.
enum class TableFileCreationReason {
  kFlush,
  kCompaction,
  kRecovery,
  kMisc,
};

// What a compaction was started for. strata's automatic compactions
// report the two leveled reasons, CompactRange kManualCompaction (and
// CompactFiles' compaction_job_info); the other values are RocksDB's and
// never reported.
enum class CompactionReason : int {
  kUnknown = 0,
  kLevelL0FilesNum,
  kLevelMaxLevelSize,
  kUniversalSizeAmplification,
  kUniversalSizeRatio,
  kUniversalSortedRunNum,
  kFIFOMaxSize,
  kFIFOReduceNumFiles,
  kFIFOTtl,
  kManualCompaction,
  kFilesMarkedForCompaction,
  kBottommostFiles,
  kTtl,
  kFlush,
  kExternalSstIngestion,
  kPeriodicCompaction,
  kChangeTemperature,
  kForcedBlobGC,
  kRoundRobinTtl,
  kNumOfReasons,
};

// What a flush was started for (RocksDB's values). strata reports
// kShutDown for Close's flush, kErrorRecovery for DB::Resume's, and
// kOthers for every other (it does not yet tell a full memtable's flush
// from a requested one).
enum class FlushReason : int {
  kOthers = 0x00,
  kGetLiveFiles = 0x01,
  kShutDown = 0x02,
  kExternalFileIngestion = 0x03,
  kManualCompaction = 0x04,
  kWriteBufferManager = 0x05,
  kWriteBufferFull = 0x06,
  kTest = 0x07,
  kDeleteFiles = 0x08,
  kAutoCompaction = 0x09,
  kManualFlush = 0x0a,
  kErrorRecovery = 0xb,
  kErrorRecoveryRetryFlush = 0xc,
  kWalFull = 0xd,
};

// The work that failed when a background error was set. strata reports
// the first four: kWriteCallback for a WAL write, sync or switch,
// kMemTable for an insert into a memtable after the WAL write.
enum class BackgroundErrorReason {
  kFlush,
  kCompaction,
  kWriteCallback,
  kMemTable,
  kManifestWrite,
  kFlushNoWAL,
  kManifestWriteNoWAL,
};

// Whether writes run, are slowed down, or wait (docs/write_path.md,
// "Stalls").
enum class WriteStallCondition {
  kNormal,
  kDelayed,
  kStopped,
};

struct STRATA_EXPORT WriteStallInfo {
  // The column family whose state changed.
  std::string cf_name;
  struct {
    WriteStallCondition cur;
    WriteStallCondition prev;
  } condition;
};

struct STRATA_EXPORT FileCreationBriefInfo {
  FileCreationBriefInfo() = default;
  FileCreationBriefInfo(const std::string& _db_name,
                        const std::string& _cf_name,
                        const std::string& _file_path, int _job_id)
      : db_name(_db_name),
        cf_name(_cf_name),
        file_path(_file_path),
        job_id(_job_id) {}
  std::string db_name;
  std::string cf_name;
  // The file's full path: the DB's directory, '/', the file's name.
  std::string file_path;
  // The flush or compaction writing it (ids count up from 1 in each open
  // DB; the flush and compaction callbacks carry the same id).
  int job_id = 0;
};

struct STRATA_EXPORT TableFileCreationBriefInfo : public FileCreationBriefInfo {
  TableFileCreationReason reason;
};

struct STRATA_EXPORT TableFileCreationInfo : public TableFileCreationBriefInfo {
  TableFileCreationInfo() = default;
  // Bytes on disk (0 if the creation failed).
  uint64_t file_size;
  // OK, or why the file could not be written (it was then deleted).
  Status status;
  // Left empty: strata keeps no whole-file checksums.
  std::string file_checksum;
  std::string file_checksum_func_name;
};

struct STRATA_EXPORT FileDeletionInfo {
  FileDeletionInfo() = default;
  FileDeletionInfo(const std::string& _db_name, const std::string& _file_path,
                   int _job_id, Status _status)
      : db_name(_db_name),
        file_path(_file_path),
        job_id(_job_id),
        status(_status) {}
  std::string db_name;
  std::string file_path;
  // Left 0: deletions are not part of a numbered job in strata.
  int job_id = 0;
  // Whether the file could be deleted.
  Status status;
};

struct STRATA_EXPORT TableFileDeletionInfo : public FileDeletionInfo {};

struct STRATA_EXPORT FlushJobInfo {
  uint32_t cf_id;
  std::string cf_name;
  // The table the flush writes (OnFlushBegin: the path it will have).
  std::string file_path;
  uint64_t file_number;
  // Left 0: strata keeps no blob files.
  uint64_t oldest_blob_file_number;
  // The thread running the flush (Env::GetThreadID()).
  uint64_t thread_id;
  int job_id;
  // The write stall state of the family once the table is installed: it
  // slows writes down / stops them. false in OnFlushBegin.
  bool triggered_writes_slowdown;
  bool triggered_writes_stop;
  // The oldest and newest sequence number in the table; 0 in
  // OnFlushBegin (known once the table is written).
  SequenceNumber smallest_seqno;
  SequenceNumber largest_seqno;
  FlushReason flush_reason;
  // Left kNoCompression: strata keeps no blob files.
  CompressionType blob_compression_type;
};

struct STRATA_EXPORT CompactionFileInfo {
  // The level the file is (input) or will be (output) in.
  int level;
  uint64_t file_number;
  // Left 0: strata keeps no blob files.
  uint64_t oldest_blob_file_number;
};

struct STRATA_EXPORT CompactionJobInfo {
  CompactionJobInfo() = default;
  uint32_t cf_id;
  std::string cf_name;
  // The compaction's result (OnCompactionBegin: OK).
  Status status;
  uint64_t thread_id;
  int job_id;
  // The smallest level an input file comes from.
  int base_input_level;
  int output_level;
  // The inputs' and outputs' full paths, and per file its level and
  // number, in the same order. Outputs are empty at OnCompactionBegin.
  std::vector<std::string> input_files;
  std::vector<CompactionFileInfo> input_file_infos;
  std::vector<std::string> output_files;
  std::vector<CompactionFileInfo> output_file_infos;
  CompactionReason compaction_reason;
  // What the output files are compressed with.
  CompressionType compression;
  // Left kNoCompression: strata keeps no blob files.
  CompressionType blob_compression_type;
};

struct STRATA_EXPORT MemTableInfo {
  std::string cf_name;
  SequenceNumber first_seqno;
  SequenceNumber earliest_seqno;
  uint64_t num_entries;
  uint64_t num_deletes;
};

struct STRATA_EXPORT ExternalFileIngestionInfo {
  std::string cf_name;
  // The file as the caller named it, and the table file it became.
  std::string external_file_path;
  std::string internal_file_path;
  // The sequence number the ingested keys were given.
  SequenceNumber global_seqno;
};

struct STRATA_EXPORT BackgroundErrorRecoveryInfo {
  Status old_bg_error;
  Status new_bg_error;
};

// Every callback does nothing unless overridden. docs/operations.md lists
// the callbacks strata makes; the others are declared so that RocksDB
// listeners compile, and are never called.
class STRATA_EXPORT EventListener {
 public:
  virtual ~EventListener() = default;

  // The listener's name, for logs.
  virtual const char* Name() const { return ""; }

  // Before a flush writes its table, and after the table is installed.
  virtual void OnFlushBegin(DB* /*db*/,
                            const FlushJobInfo& /*flush_job_info*/) {}
  virtual void OnFlushCompleted(DB* /*db*/,
                                const FlushJobInfo& /*flush_job_info*/) {}

  // A table file no version holds was deleted (or could not be).
  virtual void OnTableFileDeleted(const TableFileDeletionInfo& /*info*/) {}

  // Before a compaction reads its inputs, and after it has been
  // installed (or failed: ci.status). Not called for DB::CompactFiles, as
  // in RocksDB 7.8.
  virtual void OnCompactionBegin(DB* /*db*/, const CompactionJobInfo& /*ci*/) {}
  virtual void OnCompactionCompleted(DB* /*db*/,
                                     const CompactionJobInfo& /*ci*/) {}

  // A flush, a compaction or the replay of a WAL at open is about to
  // create a table file, and has finished writing it (or failed to:
  // info.status).
  virtual void OnTableFileCreationStarted(
      const TableFileCreationBriefInfo& /*info*/) {}
  virtual void OnTableFileCreated(const TableFileCreationInfo& /*info*/) {}

  // Never called by strata.
  virtual void OnMemTableSealed(const MemTableInfo& /*info*/) {}
  // Never called by strata.
  virtual void OnColumnFamilyHandleDeletionStarted(
      ColumnFamilyHandle* /*handle*/) {}

  // A file was ingested with DB::IngestExternalFile, on its caller's
  // thread.
  virtual void OnExternalFileIngested(
      DB* /*db*/, const ExternalFileIngestionInfo& /*info*/) {}

  // Before *bg_error becomes the DB's background error. Setting it to OK
  // suppresses it: the DB goes on as if the work had not failed (a
  // failed compaction is picked again later; a failed flush's memtables
  // wait for the next flush).
  virtual void OnBackgroundError(BackgroundErrorReason /*reason*/,
                                 Status* /*bg_error*/) {}

  // A column family's write stall state changed; calls come in the order
  // of the changes.
  virtual void OnStallConditionsChanged(const WriteStallInfo& /*info*/) {}

  // Never called by strata.
  virtual void OnErrorRecoveryBegin(BackgroundErrorReason /*reason*/,
                                    Status /*bg_error*/,
                                    bool* /*auto_recovery*/) {}
  // Never called by strata.
  virtual void OnErrorRecoveryCompleted(Status /*old_bg_error*/) {}
  // Never called by strata.
  virtual void OnErrorRecoveryEnd(const BackgroundErrorRecoveryInfo& /*info*/) {
  }
};

}  // namespace strata

#endif  // STRATA_INCLUDE_LISTENER_H_
