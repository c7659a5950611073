// Options of a DB, of its reads and of its writes, with RocksDB's names and
// defaults (a difference is noted on the field).
//
// DBOptions hold what concerns the whole DB (files, recovery, the write
// path); ColumnFamilyOptions what concerns one column family's keys
// (order, memtables, levels). Options flattens both, as RocksDB's does:
// the DB's options with the default family's. Options the engine does not
// honour are not declared, except the few a RocksDB program commonly sets,
// which are accepted and say on the field that they change nothing.
//
// Thread safety: a plain struct; copy it, or share it read-only.

#ifndef STRATA_INCLUDE_OPTIONS_H_
#define STRATA_INCLUDE_OPTIONS_H_

#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "strata/env.h"
#include "strata/export.h"
#include "strata/memtablerep.h"
#include "strata/write_buffer_manager.h"

namespace strata {

class Cache;
class Comparator;
class CompactionFilter;
class CompactionFilterFactory;
class EventListener;
class MergeOperator;
class RateLimiter;
class Slice;
class SliceTransform;
class Snapshot;
class Statistics;
class TableFactory;

// Block compression of table files.
enum CompressionType : unsigned char {
  kNoCompression = 0x0,
  kSnappyCompression = 0x1,
  kZlibCompression = 0x2,
};

// How a column family's files are compacted (docs/compaction.md).
// Universal and FIFO are RocksDB's and refused at DB::Open (NotSupported).
enum CompactionStyle : char {
  // Leveled compaction: each level's files do not overlap, and a level
  // past its target size is compacted into the next.
  kCompactionStyleLevel = 0x0,
  kCompactionStyleUniversal = 0x1,
  kCompactionStyleFIFO = 0x2,
  // No automatic compaction: the application compacts with
  // DB::CompactFiles (CompactRange only flushes, as in RocksDB 7.8).
  kCompactionStyleNone = 0x3,
};

// What recovery does with a damaged WAL (docs/formats/wal.md). Also what
// a memtable switch does with the finished WAL: only kPointInTimeRecovery
// can stop at a WAL whose end a power loss took, so only there is the
// finished WAL left unsynced until the next sync=true write (no fsync on
// the write path); the other modes sync it at the switch.
enum class WALRecoveryMode : char {
  // Ignore a record cut short by the end of the file (a write torn by a
  // crash); any other damage fails DB::Open with Corruption.
  kTolerateCorruptedTailRecords = 0x00,
  // Any damage, a torn tail included, fails DB::Open with Corruption.
  kAbsoluteConsistency = 0x01,
  // Stop at a torn or damaged tail, or at a WAL whose predecessor a power
  // loss cut short: the consistent state just before it. Damage that intact
  // later writes follow fails DB::Open with Corruption (no torn write).
  kPointInTimeRecovery = 0x02,
  // Skip damaged records and recover everything else (salvage).
  kSkipAnyCorruptedRecords = 0x03,
};

struct STRATA_EXPORT DBOptions {
  // Create the DB if it does not exist.
  bool create_if_missing = false;

  // Fail DB::Open with InvalidArgument if the DB already exists.
  bool error_if_exists = false;

  // DB::Open with column families creates those the DB lacks (otherwise
  // naming one is InvalidArgument).
  bool create_missing_column_families = false;

  // Flushes of several column families (Flush with a list, and flushes
  // the DB starts itself) write all the families' memtables and install
  // the tables in one MANIFEST record: after a crash either every family
  // shows the flush or none does (docs/column_families.md).
  bool atomic_flush = false;

  // Once the live WALs hold more than this many bytes, the column
  // families whose unflushed data keeps the oldest WAL alive are flushed
  // (their active memtables retired), so that it can be deleted. 0: four
  // times the sum of the families' write_buffer_size *
  // max_write_buffer_number. Only matters with more than one family: one
  // family's memtables bound its WALs already.
  uint64_t max_total_wal_size = 0;

  // A memory budget for the memtables of all the column families: past
  // it, the family with the largest active memtable is flushed. 0: none.
  // A shorthand for a write_buffer_manager of this size used by this DB
  // alone; ignored when write_buffer_manager is set.
  size_t db_write_buffer_size = 0;

  // The memory budget for the memtables (strata/write_buffer_manager.h),
  // which several DBs may share: each reports its memtables' memory to
  // it, and the DB that writes next once the total is past the budget
  // flushes a memtable of its own. It may also charge the memory to a
  // block cache, and stall writes. Null: db_write_buffer_size decides.
  std::shared_ptr<WriteBufferManager> write_buffer_manager = nullptr;

  // Accepted and kept for RocksDB compatibility: strata has no two-phase
  // commit yet (transactions will use it).
  bool allow_2pc = false;

  // Accepted for RocksDB compatibility and not used: strata's checks of
  // what it reads from disk do not depend on it (docs/formats/), and what
  // recovery does with a damaged WAL is wal_recovery_mode's choice.
  bool paranoid_checks = true;

  // Whether DB::Open, SetOptions, CreateColumnFamily and DropColumnFamily
  // fail when the OPTIONS file cannot be written. When false the failure
  // is logged and the call succeeds (the change is in force either way).
  bool fail_if_options_file_error = false;

  // The Env for all file and thread work. Default: Env::Default().
  Env* env = Env::Default();

  // Where the DB writes its informational log; null: a LOG file in the
  // DB's directory.
  std::shared_ptr<Logger> info_log = nullptr;

  // Sync with fsync (data and metadata) rather than fdatasync.
  bool use_fsync = false;

  // Read / write table files through memory maps.
  bool allow_mmap_reads = false;
  bool allow_mmap_writes = false;

  // Direct (unbuffered) I/O: use_direct_reads for every read of a table
  // file (user reads, and those of flush and compaction) and of the
  // MANIFEST at open; use_direct_io_for_flush_and_compaction for the table
  // files flush and compaction write. WAL and MANIFEST writes stay
  // buffered.
  bool use_direct_reads = false;
  bool use_direct_io_for_flush_and_compaction = false;

  // Accepted and ignored: strata does not yet reserve file space ahead of
  // its writes (docs/options.md).
  bool allow_fallocate = true;

  // Start OS write-back every this many bytes of a table file / of the WAL
  // (0: never).
  uint64_t bytes_per_sync = 0;
  uint64_t wal_bytes_per_sync = 0;

  // The largest buffer the file writer keeps before writing.
  size_t writable_file_max_buffer_size = 1024 * 1024;

  // Limits the bytes per second of flush (Env::IO_HIGH) and compaction
  // (Env::IO_LOW) table writes and, in its kReadsOnly or kAllIo mode, of
  // compaction input reads; the WAL and the MANIFEST are never limited
  // (strata/rate_limiter.h, docs/rate_limiter.md). May be shared by DBs.
  // Null: no limit. Not written to the options file.
  std::shared_ptr<RateLimiter> rate_limiter = nullptr;

  // Compaction inputs are read in chunks of this many bytes (0: block by
  // block as other reads are; with use_direct_io_for_flush_and_compaction
  // or use_direct_reads, 0 means 2 MiB, as the OS then reads nothing
  // ahead).
  size_t compaction_readahead_size = 0;

  // Write synced groups' WAL records through to the device
  // (FILE_FLAG_WRITE_THROUGH on Windows, O_DSYNC on POSIX, on a second
  // handle): a sync=true write then costs one write-through WriteFile and
  // no FlushFileBuffers — on Windows much cheaper than the flush (see
  // docs/windows.md) — while sync=false writes stay buffered. Not in
  // RocksDB.
  bool wal_write_through = false;

  // See WALRecoveryMode.
  WALRecoveryMode wal_recovery_mode = WALRecoveryMode::kPointInTimeRecovery;

  // Counters and histograms of the DB's work (strata/statistics.h,
  // CreateDBStatistics()); null: none kept.
  std::shared_ptr<Statistics> statistics = nullptr;

  // Bytes per second writes are slowed to while flushes or compactions
  // fall behind (docs/write_path.md, "Stalls"); 0: 16 MiB/s.
  uint64_t delayed_write_rate = 0;

  // A MANIFEST that has grown past this many bytes is replaced by a new
  // one holding a snapshot of the DB's state (docs/versions.md).
  uint64_t max_manifest_file_size = 1024 * 1024 * 1024;

  // Table files kept open by the table cache; -1: no limit.
  int max_open_files = -1;

  // Accepted for RocksDB compatibility and ignored: strata opens table
  // files when first read, not all at once at DB::Open.
  int max_file_opening_threads = 16;

  // Background flushes and compactions running at once.
  int max_background_jobs = 2;

  // Told of flushes, compactions, table files created and deleted, write
  // stall changes and background errors (strata/listener.h). Empty: none.
  std::vector<std::shared_ptr<EventListener>> listeners;

  // Recovery without reopening (docs/reliability.md): after a background
  // error that a retry may clear -- no space, or an I/O error its Env
  // marked retryable (strata/io_status.h) -- the DB tries to recover on
  // its own: a first attempt bgerror_resume_retry_interval microseconds
  // after the error, then one every interval, up to
  // max_bgerror_resume_count attempts; DB::Resume() can still clear it
  // after that. 0 or less: no automatic attempts, only DB::Resume().
  int max_bgerror_resume_count = INT_MAX;
  uint64_t bgerror_resume_retry_interval = 1000000;

  // Accepted for RocksDB compatibility and ignored: strata derives how
  // many compactions and flushes run at once from max_background_jobs
  // alone (docs/options.md).
  int max_background_compactions = -1;
  int max_background_flushes = -1;

  // Write path (docs/write_path.md). The members of a write group insert
  // into the memtable in parallel.
  bool allow_concurrent_memtable_write = true;
  // The WAL write of one group overlaps the memtable write of the previous.
  bool enable_pipelined_write = false;
  // Writers insert into the memtable on their own after the WAL write;
  // gives up atomic reads and immutable snapshots (docs/unordered_write.md).
  bool unordered_write = false;
  // With unordered_write: keep atomic reads and immutable snapshots anyway.
  // A write becomes visible (and its Write returns) only once it and every
  // earlier write are in the memtable, so a writer that stalls between its
  // WAL record and its insert holds back the others' returns. strata's
  // own; not in RocksDB.
  bool unordered_write_snapshot_safe = false;
  // A waiting writer spins, then yields for up to write_thread_max_yield_usec
  // before it blocks; a yield slower than write_thread_slow_yield_usec
  // counts as a sign the CPU is oversubscribed and ends yielding early.
  bool enable_write_thread_adaptive_yield = true;
  uint64_t write_thread_max_yield_usec = 100;
  uint64_t write_thread_slow_yield_usec = 3;
  // Group commit of synced writes: the leader of a synced write group
  // waits up to this long for the writers the previous sync released
  // (never longer than half that sync took), so that writers which write
  // again at once share one sync instead of splitting into two groups
  // that take turns (docs/write_path.md). 0 turns the wait off. strata's
  // own; not in RocksDB.
  uint64_t write_thread_sync_gather_usec = 1000;

  // RocksDB's tuning helpers. Each sets the fields it names, leaves the
  // others alone and returns this; docs/options.md ("Helper methods")
  // compares each with RocksDB's.

  // For a DB under about 1 GB: max_open_files 5000,
  // max_file_opening_threads 1, and a write_buffer_manager without a
  // budget that charges the memtables' memory to *cache (if given).
  DBOptions* OptimizeForSmallDb(std::shared_ptr<Cache>* cache = nullptr);

  // Runs up to total_threads background jobs: sets max_background_jobs,
  // and sizes env's thread pools (LOW to total_threads threads, HIGH to
  // 1). The pools belong to env, so every DB sharing it sees them.
  // REQUIRES: env is not null.
  DBOptions* IncreaseParallelism(int total_threads = 16);
};

struct STRATA_EXPORT ColumnFamilyOptions {
  // The order of keys. Default: BytewiseComparator(). Must have the same
  // Name() at every open of the DB.
  const Comparator* comparator;

  // Combines merge operands (DB::Merge) with the value below them, on
  // reads and in compactions (strata/merge_operator.h). Null: DB::Merge
  // fails with InvalidArgument.
  std::shared_ptr<MergeOperator> merge_operator = nullptr;

  // Sees the entries compactions rewrite and may remove or change them
  // (strata/compaction_filter.h). Not owned: it must outlive the DB, and
  // is called from several compactions at once. Default: none.
  const CompactionFilter* compaction_filter = nullptr;

  // Makes a filter per compaction; ignored when compaction_filter is set.
  // Default: none.
  std::shared_ptr<CompactionFilterFactory> compaction_filter_factory = nullptr;

  // Bytes of updates a memtable collects before it becomes immutable.
  // 0 is InvalidArgument; other values under 64 KiB are raised to it.
  size_t write_buffer_size = 64 << 20;

  // A memtable takes its memory in regions of this many bytes, which the
  // system is asked to back with huge pages (Linux: transparent huge
  // pages, no reservation needed; Windows: plain memory). A skiplist insert
  // or lookup into a big memtable visits a random node at every step; on
  // 2 MiB pages it rarely misses the TLB. Used only when write_buffer_size
  // is at least 8 times this, and a region counts in full against
  // write_buffer_size once taken. 0: memtables allocate from the heap;
  // other values are rounded up to a multiple of 2 MiB. Not used where
  // the system has no huge pages for it (Windows, Linux with THP "never",
  // other POSIX systems). With THP's defrag setting "madvise" a fault in a
  // region may wait for the kernel to compact memory. RocksDB's default is
  // 0, and its value is the page size of a hugetlbfs reservation.
  size_t memtable_huge_page_size = 2 << 20;

  // A table written by a flush or compaction is always opened (footer,
  // index, filter and properties read and checked) before it is
  // installed. With this set it is also read back entry by entry,
  // checksums verified, as RocksDB's option of the same name does; that
  // costs every flush and compaction a full read of its output (every
  // block decompressed and iterated).
  bool paranoid_file_checks = false;

  // Memtables (active plus immutable) allowed before writes stop.
  int max_write_buffer_number = 2;

  // Accepted for RocksDB compatibility and ignored: a flush always takes
  // every immutable memtable waiting.
  int min_write_buffer_number_to_merge = 1;

  // The memtable representation (strata/memtablerep.h): null or a
  // SkipListFactory (the concurrent skiplist), or a VectorRepFactory (an
  // unordered array for bulk loads; needs allow_concurrent_memtable_write
  // false). Anything else fails DB::Open with InvalidArgument.
  std::shared_ptr<MemTableRepFactory> memtable_factory =
      std::make_shared<SkipListFactory>();

  // A Put whose key's newest entry in the active memtable is a plain value
  // (not a deletion or merge) at least as large as the new value
  // overwrites that value in place instead of adding an entry: a memtable
  // of often-rewritten keys then stays small. The entry keeps its older
  // sequence number, so snapshots and iterators are no longer
  // point-in-time: a snapshot taken before the Put, or an iterator
  // already open, may see the new value. Not done when a range tombstone
  // newer than the entry is in the memtable (the value would land under
  // it). Needs allow_concurrent_memtable_write false (else DB::Open fails
  // with InvalidArgument, as RocksDB).
  bool inplace_update_support = false;

  // Locks (striped by key hash) that guard the values in-place updates
  // rewrite, per memtable; reads of the active memtable take them shared.
  // 0 with inplace_update_support is InvalidArgument.
  size_t inplace_update_num_locks = 10000;

  // Block compression of tables. Default: kSnappyCompression when strata
  // is built with snappy, else kNoCompression.
  CompressionType compression;

  // Compression by level, overriding compression when not empty: entry 0
  // for tables a flush writes to L0, entry i for the level i - 1 below the
  // base level (the level L0 compacts into: L1 with static targets, so
  // entry i is Li), the last entry for levels past the end. A compaction
  // moves a file down without rewriting it only if both levels take the
  // same compression. Each entry is checked as compression is.
  std::vector<CompressionType> compression_per_level;

  // Levels of the LSM tree, and the L0 file counts that trigger a
  // compaction / slow writes down / stop writes.
  int num_levels = 7;
  int level0_file_num_compaction_trigger = 4;
  int level0_slowdown_writes_trigger = 20;
  int level0_stop_writes_trigger = 36;

  // Target size of L1, each next level's target as a multiple of the one
  // above, and the size of a compaction's output files.
  uint64_t max_bytes_for_level_base = 256ull << 20;
  double max_bytes_for_level_multiplier = 10;
  uint64_t target_file_size_base = 64ull << 20;

  // Output files of a compaction into level L >= 1 are cut at
  // target_file_size_base * target_file_size_multiplier^(L-1) bytes; with
  // level_compaction_dynamic_level_bytes the exponent is L minus the base
  // level.
  int target_file_size_multiplier = 1;

  // Level targets from the size of the last level down (each level
  // max_bytes_for_level_multiplier times smaller than the one below, L0
  // compacting straight into the first level that needs data) rather than
  // from max_bytes_for_level_base up. See docs/compaction.md.
  bool level_compaction_dynamic_level_bytes = false;

  // The input bytes one compaction takes in, about; a manual compaction of
  // a larger range runs in pieces. Also the grandparent overlap at which an
  // output file is cut. 0: 25 * target_file_size_base.
  uint64_t max_compaction_bytes = 0;

  // Accepted for RocksDB compatibility and ignored: strata stalls writes
  // on L0 file counts and memtables only, not on compaction debt.
  uint64_t soft_pending_compaction_bytes_limit = 64 * 1073741824ull;
  uint64_t hard_pending_compaction_bytes_limit = 256 * 1073741824ull;

  // No automatic compactions (manual CompactRange still works).
  bool disable_auto_compactions = false;

  // kCompactionStyleLevel, or kCompactionStyleNone: no automatic
  // compactions and CompactRange only flushes; unlike with
  // disable_auto_compactions the L0 triggers still slow down and stop
  // writes (as in RocksDB) until the application compacts L0
  // (DB::CompactFiles). Universal and FIFO are
  // NotSupported at DB::Open.
  CompactionStyle compaction_style = kCompactionStyleLevel;

  // The format of table files. Default: NewBlockBasedTableFactory() with
  // default BlockBasedTableOptions (strata/table.h).
  std::shared_ptr<TableFactory> table_factory;

  // Maps user keys to prefixes (strata/slice_transform.h): tables then keep
  // prefix filters, used by iterators with ReadOptions::prefix_same_as_start.
  // Null: none.
  std::shared_ptr<const SliceTransform> prefix_extractor = nullptr;

  // Accepted for RocksDB compatibility and ignored: memtables keep no
  // bloom filter.
  double memtable_prefix_bloom_size_ratio = 0.0;
  bool memtable_whole_key_filtering = false;

  ColumnFamilyOptions();

  // RocksDB's tuning helpers. Each sets the fields it names, leaves the
  // others alone and returns this; docs/options.md ("Helper methods")
  // compares each with RocksDB's.

  // For a DB under about 1 GB: 2 MiB memtables and files, a 10 MiB L1,
  // and a new table factory whose index and filter blocks go into the
  // block cache, *cache if given (else the factory's own 8 MiB one).
  ColumnFamilyOptions* OptimizeForSmallDb(
      std::shared_ptr<Cache>* cache = nullptr);

  // For Put and Get without iterators: a new table factory with a 10-bit
  // bloom filter and an LRU block cache of block_cache_size_mb MiB.
  ColumnFamilyOptions* OptimizeForPointLookup(uint64_t block_cache_size_mb);

  // Leveled compaction sized from the memory memtables may use:
  // memtables of a quarter of memtable_memory_budget, up to 6 of them, L0
  // compacted at 2 files, L1 as large as the budget, files an eighth of
  // it, and L0 and L1 left uncompressed (compression_per_level; snappy
  // below them where the build has it, where RocksDB prefers LZ4).
  ColumnFamilyOptions* OptimizeLevelStyleCompaction(
      uint64_t memtable_memory_budget = 512 * 1024 * 1024);
};

struct STRATA_EXPORT Options : public DBOptions, public ColumnFamilyOptions {
  Options() = default;
  Options(const DBOptions& db_options, const ColumnFamilyOptions& cf_options)
      : DBOptions(db_options), ColumnFamilyOptions(cf_options) {}

  // For loading data in bulk into L0, to be compacted by hand once
  // (CompactRange over everything) before it is read: no automatic
  // compaction, L0 triggers out of reach (no stall), two levels, 6
  // memtables, one manual compaction taking every L0 file, 256 MiB files.
  Options* PrepareForBulkLoad();

  // Both OptimizeForSmallDb helpers, sharing a new 16 MiB LRU block cache.
  Options* OptimizeForSmallDb();
};

struct STRATA_EXPORT ReadOptions {
  // Read as of this snapshot; null: as of the start of the read.
  const Snapshot* snapshot = nullptr;

  // Verify the checksums of data read from files.
  bool verify_checksums = true;

  // Keep blocks read by this read in the block cache.
  bool fill_cache = true;

  // Iterator bounds, not owned, must outlive the iterator: the iterator
  // stops before *iterate_upper_bound (exclusive) and at
  // *iterate_lower_bound (inclusive). Null: unbounded.
  const Slice* iterate_upper_bound = nullptr;
  const Slice* iterate_lower_bound = nullptr;

  // Iterate only over keys with the seek target's prefix
  // (ColumnFamilyOptions::prefix_extractor), or ignore the prefix
  // extractor and see every key in order.
  bool prefix_same_as_start = false;
  bool total_order_seek = false;

  // Batched MultiGet: on each level, the data blocks its keys need that
  // are not in the block cache are read together, many reads in flight at
  // once (io_uring on Linux, overlapped ReadFile on Windows), before the
  // keys are searched. Other reads ignore it. (RocksDB's async_io also
  // reads ahead for iterators, on Linux only.)
  bool async_io = false;
  // Accepted for RocksDB's programs: with async_io strata always reads
  // the blocks of one level's files together.
  bool optimize_multiget_for_io = true;

  ReadOptions() = default;
  ReadOptions(bool verify, bool fill)
      : verify_checksums(verify), fill_cache(fill) {}
};

struct STRATA_EXPORT WriteOptions {
  // Sync the WAL to the device before the write is acknowledged: the write
  // then survives a power loss, not only a process crash.
  bool sync = false;

  // Skip the WAL: the write is lost by a crash before it reaches a table.
  bool disableWAL = false;

  // A batch's updates of column families the DB does not have (dropped)
  // are skipped instead of failing the write with InvalidArgument.
  bool ignore_missing_column_families = false;

  // Fail with Incomplete rather than wait when writes are stalled.
  bool no_slowdown = false;
};

struct STRATA_EXPORT FlushOptions {
  // Wait until the flush is done (else it only starts it).
  bool wait = true;
  // Retire the memtable even if that stalls writes. strata always waits
  // for room among the memtables first, so both values behave alike.
  bool allow_write_stall = false;
};

struct STRATA_EXPORT CompactRangeOptions {
  // No automatic compaction starts while this one runs (running ones
  // finish first), so the range ends fully compacted. RocksDB's default
  // is false.
  bool exclusive_manual_compaction = true;
};

// DB::CompactFiles.
struct STRATA_EXPORT CompactionOptions {
  // What the output files are compressed with; a codec this build lacks
  // makes CompactFiles fail with NotSupported.
  CompressionType compression;
  // Output files are cut once they reach this many bytes (never between
  // two entries of one user key); the default makes a single file.
  uint64_t output_file_size_limit;
  // Accepted and ignored: a compaction runs on one thread.
  uint32_t max_subcompactions;

  CompactionOptions()
      : compression(kSnappyCompression),
        output_file_size_limit(UINT64_MAX),
        max_subcompactions(0) {}
};

// DB::GetLiveFilesStorageInfo.
struct STRATA_EXPORT LiveFilesStorageInfoOptions {
  // Fill in file_checksum and file_checksum_func_name ("Unknown": strata
  // keeps no whole-file checksums).
  bool include_checksum_info = false;
  // Flush every family first when the live WALs hold this many bytes or
  // more; 0 (the default) always flushes.
  uint64_t wal_size_for_flush = 0;
};

// DB::IngestExternalFile (docs/operations.md, "Bulk ingestion").
struct STRATA_EXPORT IngestExternalFileOptions {
  // Hard-link the files into the DB instead of copying them; the caller's
  // names stay and share the data (see failed_move_fall_back_to_copy).
  bool move_files = false;
  // With move_files: copy a file the file system will not link.
  bool failed_move_fall_back_to_copy = true;
  // Snapshots taken before the ingestion do not see the ingested keys
  // (they then get a global sequence number).
  bool snapshot_consistency = true;
  // A file whose keys overlap data in the DB may be given a sequence
  // number above it; false: such an ingestion is InvalidArgument.
  bool allow_global_seqno = true;
  // A file overlapping the memtables may wait for them to be flushed;
  // false: such an ingestion is InvalidArgument.
  bool allow_blocking_flush = true;
  // Put the files below every existing key (needs allow_ingest_behind);
  // strata does not support it: NotSupported.
  bool ingest_behind = false;
  // RocksDB writes the global sequence number into the file; strata
  // records it in the MANIFEST either way (the file is never changed).
  bool write_global_seqno = true;
  // strata always reads every file through, checksums included, before
  // it changes anything; the two fields are accepted and ignored.
  bool verify_checksums_before_ingest = false;
  size_t verify_checksums_readahead_size = 0;
  // strata keeps no whole-file checksums: ignored.
  bool verify_file_checksum = true;
  // Refuse with TryAgain a file that cannot go to the bottommost level.
  bool fail_if_not_bottommost_level = false;
};

// How GetApproximateSizes counts (flags may be or-ed).
enum class SizeApproximationFlags : uint8_t {
  NONE = 0,
  INCLUDE_MEMTABLES = 1 << 0,
  INCLUDE_FILES = 1 << 1,
};

inline SizeApproximationFlags operator|(SizeApproximationFlags a,
                                        SizeApproximationFlags b) {
  return static_cast<SizeApproximationFlags>(static_cast<uint8_t>(a) |
                                             static_cast<uint8_t>(b));
}

inline SizeApproximationFlags operator&(SizeApproximationFlags a,
                                        SizeApproximationFlags b) {
  return static_cast<SizeApproximationFlags>(static_cast<uint8_t>(a) &
                                             static_cast<uint8_t>(b));
}

}  // namespace strata

#endif  // STRATA_INCLUDE_OPTIONS_H_
