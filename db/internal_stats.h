// InternalStats: what the DB has done since it opened — per level the
// work of flushes and compactions, and the cumulative user writes, WAL
// syncs and write stalls — and the strata.stats report built from it.
//
// Compaction work is indexed by the level a job wrote into (its output
// level): a flush counts at L0 (bytes_written = the flushed table bytes,
// nothing read), a compaction Ln -> Ln+1 at Ln+1. The report's per-level
// columns (docs/architecture.md, "Properties"):
//   Level, Files, Size(MB), Score  the level now (from LevelReportInput)
//   Read(GB)   Rn + Rnp1
//   Rn(GB)     bytes read from the compactions' input level (n)
//   Rnp1(GB)   bytes read from the output level (n+1)
//   Write(GB)  bytes written (flushes at L0)
//   Moved(GB)  bytes moved into the level by trivial moves
//   W-Amp      Write / Rn (0 when nothing was read); at L0 Write / ingest
//   Comp(sec)  time spent in the jobs; Comp(cnt) how many
//   KeyIn, KeyDrop  entries read / dropped by them
// then a Sum line (its W-Amp is the DB's: all bytes written / ingest) and
// the cumulative lines. Write amplification = (flushed + compacted bytes
// written) / bytes users wrote; 0 before any user write is counted.
//
// The class only stores and formats: it has no DB dependency, so it can
// be tested alone. Levels appear on first use.
//
// Thread safety: none of its own. The DB keeps one InternalStats guarded
// by its mutex; every caller holds that mutex for every call.

#ifndef STRATA_DB_INTERNAL_STATS_H_
#define STRATA_DB_INTERNAL_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// The work of flushes and compactions into one level.
struct LevelCompactionStats {
  uint64_t micros = 0;
  uint64_t bytes_read_level = 0;         // from the input level
  uint64_t bytes_read_output_level = 0;  // from the output level
  uint64_t bytes_written = 0;
  uint64_t bytes_moved = 0;  // trivial moves
  int files_in_level = 0;    // input files of the input level
  int files_in_output_level = 0;
  int files_out = 0;
  int count = 0;  // jobs
  uint64_t records_in = 0;
  uint64_t records_dropped = 0;

  void Add(const LevelCompactionStats& other);
};

// The state of one level when the report is made (the caller computes it
// from the current version and the compaction picker).
struct LevelSummary {
  int files = 0;
  uint64_t bytes = 0;
  double score = 0;
};

struct LevelReportInput {
  std::vector<LevelSummary> levels;  // [L]: level L
};

class InternalStats {
 public:
  InternalStats() = default;

  // REQUIRES (every method): the caller holds the DB mutex.

  // Adds a flush (level 0) or a compaction into level. REQUIRES: level >= 0.
  void AddCompactionStats(int level, const LevelCompactionStats& stats);
  // A write group committed: writes (batches), keys, and their bytes.
  void AddUserWrites(uint64_t writes, uint64_t keys);
  // Bytes users wrote (keys and values of their batches): the ingest.
  void AddUserBytes(uint64_t bytes);
  // One WAL sync, made for a group of writes writers.
  void AddWalSync(uint64_t writes);
  void AddWalBytes(uint64_t bytes);
  // One stall (slowdown or stop) of micros microseconds.
  void AddStallMicros(uint64_t micros);

  // The work counted at level (zeros if none).
  LevelCompactionStats level_stats(int level) const;
  // Every level's work added up.
  LevelCompactionStats Total() const;
  uint64_t user_bytes() const { return user_bytes_; }
  uint64_t stall_micros() const { return stall_micros_; }
  uint64_t stall_count() const { return stall_count_; }
  uint64_t wal_syncs() const { return wal_syncs_; }
  // Writes acknowledged by those syncs (group commit: several a sync).
  uint64_t wal_synced_writes() const { return wal_synced_writes_; }
  // Total bytes written by flushes and compactions / user_bytes(); 0 while
  // user_bytes() is 0.
  double WriteAmplification() const;

  // The strata.stats text: the per-level table over the levels of in
  // (and any level with counted work), the Sum line and the cumulative
  // lines. A level with no files and no work gets no line.
  std::string Report(const LevelReportInput& in) const;

 private:
  // W-Amp of a line: written / read, 0 when read is 0.
  static double Ratio(uint64_t written, uint64_t read);
  void AppendLevelLine(const char* name, const LevelSummary& now,
                       const LevelCompactionStats& work, double w_amp,
                       std::string* out) const;

  std::vector<LevelCompactionStats> levels_;
  uint64_t user_writes_ = 0;
  uint64_t user_keys_ = 0;
  uint64_t user_bytes_ = 0;
  uint64_t wal_syncs_ = 0;
  uint64_t wal_synced_writes_ = 0;
  uint64_t wal_bytes_ = 0;
  uint64_t stall_micros_ = 0;
  uint64_t stall_count_ = 0;
};

}  // namespace strata

#endif  // STRATA_DB_INTERNAL_STATS_H_
