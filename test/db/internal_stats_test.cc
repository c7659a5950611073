// InternalStats: the sums behind strata.stats and the report's layout
// (columns, the lines shown, the Sum line, write amplification).

#include "db/internal_stats.h"

#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  std::string f;
  while (in >> f) fields.push_back(f);
  return fields;
}

// The fields of the table line whose first field is name; empty if none.
std::vector<std::string> Row(const std::string& report,
                             const std::string& name) {
  for (const std::string& line : Lines(report)) {
    std::vector<std::string> f = Fields(line);
    if (!f.empty() && f[0] == name) return f;
  }
  return {};
}

// The line starting with prefix; empty if none.
std::string LineStarting(const std::string& report, const std::string& prefix) {
  for (const std::string& line : Lines(report)) {
    if (line.compare(0, prefix.size(), prefix) == 0) return line;
  }
  return "";
}

LevelCompactionStats Work(uint64_t read_level, uint64_t read_output,
                          uint64_t written, int count) {
  LevelCompactionStats s;
  s.bytes_read_level = read_level;
  s.bytes_read_output_level = read_output;
  s.bytes_written = written;
  s.count = count;
  return s;
}

TEST(InternalStatsTest, AddSumsEveryField) {
  LevelCompactionStats a;
  a.micros = 1;
  a.bytes_read_level = 2;
  a.bytes_read_output_level = 3;
  a.bytes_written = 4;
  a.bytes_moved = 5;
  a.files_in_level = 6;
  a.files_in_output_level = 7;
  a.files_out = 8;
  a.count = 9;
  a.records_in = 10;
  a.records_dropped = 11;
  LevelCompactionStats b = a;
  b.Add(a);
  EXPECT_EQ(2u, b.micros);
  EXPECT_EQ(4u, b.bytes_read_level);
  EXPECT_EQ(6u, b.bytes_read_output_level);
  EXPECT_EQ(8u, b.bytes_written);
  EXPECT_EQ(10u, b.bytes_moved);
  EXPECT_EQ(12, b.files_in_level);
  EXPECT_EQ(14, b.files_in_output_level);
  EXPECT_EQ(16, b.files_out);
  EXPECT_EQ(18, b.count);
  EXPECT_EQ(20u, b.records_in);
  EXPECT_EQ(22u, b.records_dropped);
}

TEST(InternalStatsTest, StatsAccumulatePerOutputLevel) {
  InternalStats stats;
  stats.AddCompactionStats(0, Work(0, 0, 10, 1));
  stats.AddCompactionStats(0, Work(0, 0, 5, 1));
  stats.AddCompactionStats(3, Work(7, 8, 9, 1));
  EXPECT_EQ(15u, stats.level_stats(0).bytes_written);
  EXPECT_EQ(2, stats.level_stats(0).count);
  EXPECT_EQ(0, stats.level_stats(1).count);   // never used
  EXPECT_EQ(0, stats.level_stats(99).count);  // beyond the levels
  EXPECT_EQ(7u, stats.level_stats(3).bytes_read_level);
  const LevelCompactionStats total = stats.Total();
  EXPECT_EQ(24u, total.bytes_written);
  EXPECT_EQ(15u, total.bytes_read_level + total.bytes_read_output_level);
  EXPECT_EQ(3, total.count);
}

TEST(InternalStatsTest, HeaderNamesTheColumnsInOrder) {
  InternalStats stats;
  const std::vector<std::string> lines = Lines(stats.Report({}));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ("** Compaction Stats **", lines[0]);
  const std::vector<std::string> expected = {
      "Level",     "Files",     "Size(MB)",  "Score",     "Read(GB)",
      "Rn(GB)",    "Rnp1(GB)",  "Write(GB)", "Moved(GB)", "W-Amp",
      "Comp(sec)", "Comp(cnt)", "KeyIn",     "KeyDrop"};
  EXPECT_EQ(expected, Fields(lines[1]));
  EXPECT_EQ(std::string(lines[1].size(), '-'), lines[2]);
}

TEST(InternalStatsTest, LevelLineShowsEveryColumn) {
  InternalStats stats;
  LevelCompactionStats work = Work(1 * kGiB, 2 * kGiB, 3 * kGiB, 4);
  work.bytes_moved = kGiB / 2;
  work.micros = 2500000;
  work.records_in = 1000;
  work.records_dropped = 10;
  stats.AddCompactionStats(1, work);
  LevelReportInput in;
  in.levels.resize(3);
  in.levels[1].files = 7;
  in.levels[1].bytes = 3 * kMiB / 2;
  in.levels[1].score = 1.25;
  const std::vector<std::string> expected = {
      "L1",    "7",     "1.50", "1.25",  "3.000", "1.000", "2.000",
      "3.000", "0.500", "3.00", "2.500", "4",     "1000",  "10"};
  EXPECT_EQ(expected, Row(stats.Report(in), "L1"));
}

TEST(InternalStatsTest, OnlyLevelsWithFilesOrWorkGetALine) {
  InternalStats stats;
  stats.AddCompactionStats(0, Work(0, 0, kMiB, 1));  // a flush
  stats.AddCompactionStats(5, Work(kMiB, 0, kMiB, 1));
  LevelReportInput in;
  in.levels.resize(3);  // L5 is known only from its work
  in.levels[2].files = 1;
  in.levels[2].bytes = kMiB;
  const std::string report = stats.Report(in);
  EXPECT_FALSE(Row(report, "L0").empty());
  EXPECT_TRUE(Row(report, "L1").empty());
  EXPECT_FALSE(Row(report, "L2").empty());
  EXPECT_TRUE(Row(report, "L3").empty());
  EXPECT_FALSE(Row(report, "L5").empty());
  EXPECT_EQ("0", Row(report, "L5")[1]);  // no files now
  EXPECT_EQ("-", Row(report, "L2")[3]);  // no score
}

TEST(InternalStatsTest, SumLineAddsTheLevels) {
  InternalStats stats;
  stats.AddUserBytes(kGiB);
  stats.AddCompactionStats(0, Work(0, 0, kGiB, 4));
  stats.AddCompactionStats(1, Work(kGiB, kGiB, 2 * kGiB, 2));
  stats.AddCompactionStats(2, Work(kGiB, 0, kGiB, 1));
  LevelReportInput in;
  in.levels.resize(3);
  in.levels[0] = {2, 2 * kMiB, 0.5};
  in.levels[1] = {3, 10 * kMiB, 0.9};
  in.levels[2] = {5, 100 * kMiB, 0};
  const std::vector<std::string> sum = Row(stats.Report(in), "Sum");
  ASSERT_EQ(14u, sum.size());
  EXPECT_EQ("10", sum[1]);      // files
  EXPECT_EQ("112.00", sum[2]);  // MB
  EXPECT_EQ("-", sum[3]);       // a sum has no score
  EXPECT_EQ("3.000", sum[4]);   // read: 1 + 1 + 1
  EXPECT_EQ("2.000", sum[5]);   // Rn
  EXPECT_EQ("1.000", sum[6]);   // Rnp1
  EXPECT_EQ("4.000", sum[7]);   // written
  EXPECT_EQ("4.00", sum[9]);    // all written / ingest
  EXPECT_EQ("7", sum[11]);      // jobs
}

TEST(InternalStatsTest, WriteAmplificationArithmetic) {
  InternalStats stats;
  EXPECT_EQ(0.0, stats.WriteAmplification());  // no ingest yet
  stats.AddUserBytes(100 * kMiB);
  stats.AddCompactionStats(0, Work(0, 0, 100 * kMiB, 1));  // flush
  // L0 -> L1 reads the flushed 100 MiB and 50 MiB of L1.
  stats.AddCompactionStats(1, Work(100 * kMiB, 50 * kMiB, 150 * kMiB, 1));
  // (100 flushed + 150 compacted) / 100 ingested.
  EXPECT_DOUBLE_EQ(2.5, stats.WriteAmplification());
  const std::string report = stats.Report({});
  EXPECT_EQ("1.00", Row(report, "L0")[9]);  // written / ingest at L0
  EXPECT_EQ("1.50", Row(report, "L1")[9]);  // written / Rn
  EXPECT_EQ("2.50", Row(report, "Sum")[9]);
  EXPECT_NE(std::string::npos,
            LineStarting(report, "Write amplification:").find("2.50"));
  // Trivial moves write nothing: no amplification.
  LevelCompactionStats move;
  move.bytes_moved = 100 * kMiB;
  move.count = 1;
  stats.AddCompactionStats(2, move);
  EXPECT_DOUBLE_EQ(2.5, stats.WriteAmplification());
  EXPECT_EQ("0.00", Row(stats.Report({}), "L2")[9]);  // nothing read
}

TEST(InternalStatsTest, CumulativeLines) {
  InternalStats stats;
  stats.AddUserWrites(30, 120);
  stats.AddUserBytes(kGiB / 4);
  stats.AddWalSync(1);
  stats.AddWalSync(4);
  stats.AddWalBytes(kGiB / 2);
  stats.AddStallMicros(1500000);
  stats.AddStallMicros(500000);
  EXPECT_EQ(2u, stats.stall_count());
  EXPECT_EQ(2000000u, stats.stall_micros());
  EXPECT_EQ(2u, stats.wal_syncs());
  EXPECT_EQ(5u, stats.wal_synced_writes());
  EXPECT_EQ(kGiB / 4, stats.user_bytes());
  const std::string report = stats.Report({});
  EXPECT_EQ("Cumulative writes: 30 writes, 120 keys, ingest: 0.250 GB",
            LineStarting(report, "Cumulative writes:"));
  EXPECT_EQ("Cumulative WAL: 2 syncs, 0.500 GB written, 2.50 writes per sync",
            LineStarting(report, "Cumulative WAL:"));
  EXPECT_EQ("Cumulative stall: 2 stalls, 2.000 sec",
            LineStarting(report, "Cumulative stall:"));
  EXPECT_FALSE(LineStarting(report, "Cumulative compaction:").empty());
  // No work: a Sum line of zeros and no level lines.
  EXPECT_EQ("0", Row(report, "Sum")[1]);
  EXPECT_TRUE(Row(report, "L0").empty());
}

}  // namespace
}  // namespace strata
