#include "db/internal_stats.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

namespace strata {

namespace {

constexpr double kMB = 1048576.0;
constexpr double kGB = kMB * 1024;

// The columns of a level line; the header uses the same widths.
constexpr char kHeaderFormat[] =
    "%-5s %6s %9s %6s %9s %8s %9s %9s %9s %6s %9s %9s %10s %10s\n";
constexpr char kLineFormat[] =
    "%-5s %6d %9.2f %6s %9.3f %8.3f %9.3f %9.3f %9.3f %6.2f %9.3f %9d "
    "%10" PRIu64 " %10" PRIu64 "\n";

// Appends printf(format, ...) to *out; a line longer than the buffer is
// cut (none of the report's lines comes close).
void AppendFormat(std::string* out, const char* format, ...) {
  char buffer[512];
  va_list ap;
  va_start(ap, format);
  const int n = std::vsnprintf(buffer, sizeof(buffer), format, ap);
  va_end(ap);
  if (n > 0) out->append(buffer, std::min<size_t>(n, sizeof(buffer) - 1));
}

}  // namespace

void LevelCompactionStats::Add(const LevelCompactionStats& other) {
  micros += other.micros;
  bytes_read_level += other.bytes_read_level;
  bytes_read_output_level += other.bytes_read_output_level;
  bytes_written += other.bytes_written;
  bytes_moved += other.bytes_moved;
  files_in_level += other.files_in_level;
  files_in_output_level += other.files_in_output_level;
  files_out += other.files_out;
  count += other.count;
  records_in += other.records_in;
  records_dropped += other.records_dropped;
}

void InternalStats::AddCompactionStats(int level,
                                       const LevelCompactionStats& stats) {
  if (level < 0) return;
  if (static_cast<size_t>(level) >= levels_.size()) levels_.resize(level + 1);
  levels_[level].Add(stats);
}

void InternalStats::AddUserWrites(uint64_t writes, uint64_t keys) {
  user_writes_ += writes;
  user_keys_ += keys;
}

void InternalStats::AddUserBytes(uint64_t bytes) { user_bytes_ += bytes; }

void InternalStats::AddWalSync(uint64_t writes) {
  wal_syncs_++;
  wal_synced_writes_ += writes;
}

void InternalStats::AddWalBytes(uint64_t bytes) { wal_bytes_ += bytes; }

void InternalStats::AddStallMicros(uint64_t micros) {
  stall_micros_ += micros;
  stall_count_++;
}

LevelCompactionStats InternalStats::level_stats(int level) const {
  if (level < 0 || static_cast<size_t>(level) >= levels_.size()) {
    return LevelCompactionStats();
  }
  return levels_[level];
}

LevelCompactionStats InternalStats::Total() const {
  LevelCompactionStats total;
  for (const LevelCompactionStats& l : levels_) total.Add(l);
  return total;
}

double InternalStats::Ratio(uint64_t written, uint64_t read) {
  return read == 0 ? 0.0
                   : static_cast<double>(written) / static_cast<double>(read);
}

double InternalStats::WriteAmplification() const {
  return Ratio(Total().bytes_written, user_bytes_);
}

void InternalStats::AppendLevelLine(const char* name, const LevelSummary& now,
                                    const LevelCompactionStats& work,
                                    double w_amp, std::string* out) const {
  char score[16];
  if (now.score > 0) {
    std::snprintf(score, sizeof(score), "%.2f", now.score);
  } else {
    std::snprintf(score, sizeof(score), "-");
  }
  const uint64_t read = work.bytes_read_level + work.bytes_read_output_level;
  AppendFormat(out, kLineFormat, name, now.files, now.bytes / kMB, score,
               read / kGB, work.bytes_read_level / kGB,
               work.bytes_read_output_level / kGB, work.bytes_written / kGB,
               work.bytes_moved / kGB, w_amp, work.micros / 1e6, work.count,
               work.records_in, work.records_dropped);
}

std::string InternalStats::Report(const LevelReportInput& in) const {
  std::string header;
  AppendFormat(&header, kHeaderFormat, "Level", "Files", "Size(MB)", "Score",
               "Read(GB)", "Rn(GB)", "Rnp1(GB)", "Write(GB)", "Moved(GB)",
               "W-Amp", "Comp(sec)", "Comp(cnt)", "KeyIn", "KeyDrop");
  std::string out = "** Compaction Stats **\n" + header;
  out.append(header.size() - 1, '-');
  out.push_back('\n');

  const size_t num_levels = std::max(in.levels.size(), levels_.size());
  LevelSummary sum_now;
  LevelCompactionStats sum_work;
  for (size_t level = 0; level < num_levels; level++) {
    const LevelSummary now =
        level < in.levels.size() ? in.levels[level] : LevelSummary();
    const LevelCompactionStats work = level_stats(static_cast<int>(level));
    sum_now.files += now.files;
    sum_now.bytes += now.bytes;
    sum_work.Add(work);
    if (now.files == 0 && work.count == 0 && work.bytes_written == 0 &&
        work.bytes_moved == 0) {
      continue;
    }
    // L0 is written from the memtables: its input is what users wrote.
    const double w_amp = level == 0
                             ? Ratio(work.bytes_written, user_bytes_)
                             : Ratio(work.bytes_written, work.bytes_read_level);
    char name[16];
    std::snprintf(name, sizeof(name), "L%d", static_cast<int>(level));
    AppendLevelLine(name, now, work, w_amp, &out);
  }
  AppendLevelLine("Sum", sum_now, sum_work,
                  Ratio(sum_work.bytes_written, user_bytes_), &out);

  AppendFormat(&out,
               "Cumulative writes: %" PRIu64 " writes, %" PRIu64
               " keys, ingest: %.3f GB\n",
               user_writes_, user_keys_, user_bytes_ / kGB);
  AppendFormat(&out,
               "Cumulative WAL: %" PRIu64
               " syncs, %.3f GB written, %.2f "
               "writes per sync\n",
               wal_syncs_, wal_bytes_ / kGB,
               Ratio(wal_synced_writes_, wal_syncs_));
  AppendFormat(&out, "Cumulative stall: %" PRIu64 " stalls, %.3f sec\n",
               stall_count_, stall_micros_ / 1e6);
  const LevelCompactionStats flush = level_stats(0);
  AppendFormat(
      &out,
      "Cumulative compaction: %.3f GB written (flush %.3f GB), "
      "%.3f GB read, %.3f GB moved, %.3f sec\n",
      sum_work.bytes_written / kGB, flush.bytes_written / kGB,
      (sum_work.bytes_read_level + sum_work.bytes_read_output_level) / kGB,
      sum_work.bytes_moved / kGB, sum_work.micros / 1e6);
  AppendFormat(&out,
               "Write amplification: %.2f ((flushed + compacted bytes "
               "written) / ingest)\n",
               WriteAmplification());
  return out;
}

}  // namespace strata
