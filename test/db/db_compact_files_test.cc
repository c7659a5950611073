// DB::CompactFiles and kCompactionStyleNone (docs/operations.md,
// "CompactFiles"): an application that compacts on its own, as RocksDB's
// compact_files_example does; the inputs grown so that no level is left
// overlapping; every misuse a Status, never a crash. Contents are checked
// against a model after each compaction.

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/listener.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

// The default family's live tables, by level, names as GetLiveFilesMetaData
// gives them ("/000012.sst"), each level in key order.
std::vector<std::vector<SstFileMetaData>> Levels(DB* db) {
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  std::vector<std::vector<SstFileMetaData>> levels;
  for (const LevelMetaData& level : meta.levels) {
    levels.push_back(level.files);
  }
  return levels;
}

std::vector<std::string> NamesAt(DB* db, int level) {
  const auto levels = Levels(db);
  std::vector<std::string> names;
  for (const SstFileMetaData& f : levels[level]) names.push_back(f.name);
  return names;
}

// Every level below L0 holds files in key order that do not overlap.
void ExpectLevelsConsistent(DB* db) {
  const auto levels = Levels(db);
  for (size_t level = 1; level < levels.size(); level++) {
    for (size_t i = 1; i < levels[level].size(); i++) {
      EXPECT_LT(levels[level][i - 1].largestkey, levels[level][i].smallestkey)
          << "L" << level << " overlaps at file " << i;
    }
  }
}

class DBCompactFilesTest : public testing::Test {
 protected:
  DBCompactFilesTest() {
    h_.options().compaction_style = kCompactionStyleNone;
    h_.options().num_levels = 4;
    h_.options().level0_file_num_compaction_trigger = 2;
    h_.options().level0_slowdown_writes_trigger = 100;
    h_.options().level0_stop_writes_trigger = 100;
  }

  // One L0 table holding keys [first, last] of step step.
  void Table(int first, int last, int step, const std::string& value) {
    for (int i = first; i <= last; i += step) {
      ASSERT_TRUE(h_.Put(test::Key(i), value).ok());
      model_[test::Key(i)] = value;
    }
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }

  Status Compact(const std::vector<std::string>& names, int output_level,
                 CompactionJobInfo* info = nullptr,
                 std::vector<std::string>* outputs = nullptr) {
    return h_.db()->CompactFiles(CompactionOptions(), names, output_level, -1,
                                 outputs, info);
  }

  test::DBHolder h_;
  Model model_;
};

TEST_F(DBCompactFilesTest, StyleNoneRunsNoAutomaticCompaction) {
  ASSERT_TRUE(h_.Open().ok());
  for (int i = 0; i < 6; i++) Table(i, 50, 6, "v" + std::to_string(i));
  // Nothing is scheduled: L0 is past its trigger three times.
  ASSERT_TRUE(static_cast<DBImpl*>(h_.db())->WaitForBackgroundWork().ok());
  EXPECT_EQ(6u, NamesAt(h_.db(), 0).size());
  EXPECT_EQ(model_, h_.Contents());
  // CompactRange flushes and compacts nothing, as RocksDB 7.8's.
  ASSERT_TRUE(h_.Put("unflushed", "x").ok());
  model_["unflushed"] = "x";
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(7u, NamesAt(h_.db(), 0).size());
  EXPECT_TRUE(NamesAt(h_.db(), 1).empty());
  EXPECT_EQ(model_, h_.Contents());
}

TEST_F(DBCompactFilesTest, NameFormsAndOutputs) {
  ASSERT_TRUE(h_.Open().ok());
  Table(0, 20, 1, "a");
  Table(10, 30, 1, "b");
  std::vector<std::string> l0 = NamesAt(h_.db(), 0);
  ASSERT_EQ(2u, l0.size());
  ASSERT_EQ('/', l0[0][0]);
  // One without the '/', one as a full path.
  const std::vector<std::string> names = {l0[0].substr(1), h_.name() + l0[1]};
  CompactionJobInfo info;
  std::vector<std::string> outputs;
  ASSERT_TRUE(Compact(names, 2, &info, &outputs).ok());
  EXPECT_TRUE(NamesAt(h_.db(), 0).empty());
  const std::vector<std::string> l2 = NamesAt(h_.db(), 2);
  ASSERT_EQ(1u, l2.size());
  ASSERT_EQ(1u, outputs.size());
  EXPECT_EQ(h_.name() + l2[0], outputs[0]);
  EXPECT_EQ(outputs, info.output_files);
  EXPECT_EQ(2, info.output_level);
  EXPECT_EQ(CompactionReason::kManualCompaction, info.compaction_reason);
  EXPECT_EQ(h_.env()->GetThreadID(), info.thread_id);
  EXPECT_EQ(model_, h_.Contents());
}

TEST_F(DBCompactFilesTest, OutputFileSizeLimitCutsFiles) {
  ASSERT_TRUE(h_.Open().ok());
  for (int i = 0; i < 2000; i++) {
    ASSERT_TRUE(h_.Put(test::Key(i), std::string(100, 'v')).ok());
    model_[test::Key(i)] = std::string(100, 'v');
  }
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  CompactionOptions options;
  options.compression = kNoCompression;
  options.output_file_size_limit = 32 << 10;
  std::vector<std::string> outputs;
  ASSERT_TRUE(h_.db()
                  ->CompactFiles(options, NamesAt(h_.db(), 0), 1, -1, &outputs)
                  .ok());
  EXPECT_GE(outputs.size(), 5u);  // ~220 KiB of entries in 32 KiB files
  EXPECT_EQ(outputs.size(), NamesAt(h_.db(), 1).size());
  ExpectLevelsConsistent(h_.db());
  EXPECT_EQ(model_, h_.Contents());
}

// The inputs grow so that the output level is left without overlaps:
// every L1 file overlapping the L0 input joins, and every older L0 file.
TEST_F(DBCompactFilesTest, InputsGrowToKeepLevelsConsistent) {
  ASSERT_TRUE(h_.Open().ok());
  Table(0, 9, 1, "old");
  Table(20, 29, 1, "old");
  Table(40, 49, 1, "old");
  ASSERT_TRUE(Compact(NamesAt(h_.db(), 0), 1).ok());
  ASSERT_EQ(1u, NamesAt(h_.db(), 1).size());  // L1: [0, 49]
  Table(5, 25, 1, "older-l0");
  Table(60, 70, 1, "newer-l0");
  const std::vector<std::string> l0 = NamesAt(h_.db(), 0);
  ASSERT_EQ(2u, l0.size());
  // L0 lists newest first: compacting only the newest takes the older too.
  CompactionJobInfo info;
  ASSERT_TRUE(Compact({l0[0]}, 1, &info).ok());
  std::set<std::string> inputs(info.input_files.begin(),
                               info.input_files.end());
  EXPECT_EQ(1u, inputs.count(h_.name() + l0[0]));
  EXPECT_EQ(1u, inputs.count(h_.name() + l0[1]));
  EXPECT_TRUE(NamesAt(h_.db(), 0).empty());
  ExpectLevelsConsistent(h_.db());
  EXPECT_EQ(model_, h_.Contents());
}

TEST_F(DBCompactFilesTest, OverlappingOutputLevelFilesJoin) {
  h_.options().num_levels = 4;
  ASSERT_TRUE(h_.Open().ok());
  // L2: [0, 9] and [30, 39] as two files.
  Table(0, 9, 1, "a");
  ASSERT_TRUE(Compact(NamesAt(h_.db(), 0), 2).ok());
  Table(30, 39, 1, "a");
  ASSERT_TRUE(Compact(NamesAt(h_.db(), 0), 2).ok());
  ASSERT_EQ(2u, NamesAt(h_.db(), 2).size());
  // L1: [5, 35] overlaps both.
  Table(5, 35, 5, "b");
  ASSERT_TRUE(Compact(NamesAt(h_.db(), 0), 1).ok());
  const std::vector<std::string> l1 = NamesAt(h_.db(), 1);
  ASSERT_EQ(1u, l1.size());
  CompactionJobInfo info;
  ASSERT_TRUE(Compact(l1, 2, &info).ok());
  EXPECT_EQ(3u, info.input_files.size());
  EXPECT_EQ(1, info.base_input_level);
  EXPECT_TRUE(NamesAt(h_.db(), 1).empty());
  ExpectLevelsConsistent(h_.db());
  EXPECT_EQ(model_, h_.Contents());
}

TEST_F(DBCompactFilesTest, IntoL0AndAcrossLevels) {
  ASSERT_TRUE(h_.Open().ok());
  Table(0, 40, 2, "a");
  ASSERT_TRUE(Compact(NamesAt(h_.db(), 0), 2).ok());
  Table(1, 41, 2, "b");
  ASSERT_TRUE(Compact(NamesAt(h_.db(), 0), 1).ok());
  Table(0, 41, 3, "c");
  Table(0, 41, 4, "d");
  Table(0, 41, 5, "e");
  // L0 to L0: the newest two (and, see above, every older one).
  const std::vector<std::string> l0 = NamesAt(h_.db(), 0);
  ASSERT_EQ(3u, l0.size());
  ASSERT_TRUE(Compact({l0[0], l0[1]}, 0).ok());
  EXPECT_EQ(1u, NamesAt(h_.db(), 0).size());
  EXPECT_EQ(model_, h_.Contents());
  // Everything to the last level, as compact_files_example's compactor.
  std::vector<std::string> all;
  for (const auto& level : Levels(h_.db())) {
    for (const SstFileMetaData& f : level) all.push_back(f.name);
  }
  ASSERT_EQ(3u, all.size());
  ASSERT_TRUE(Compact(all, 3).ok());
  const auto levels = Levels(h_.db());
  for (int level = 0; level < 3; level++) {
    EXPECT_TRUE(levels[level].empty()) << level;
  }
  EXPECT_EQ(1u, levels[3].size());
  EXPECT_EQ(model_, h_.Contents());
  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ(model_, h_.Contents());
}

TEST_F(DBCompactFilesTest, Misuse) {
  ASSERT_TRUE(h_.Open().ok());
  Table(0, 10, 1, "a");
  const std::vector<std::string> l0 = NamesAt(h_.db(), 0);
  ASSERT_TRUE(Compact(l0, 2).ok());
  Table(0, 10, 1, "b");
  const std::vector<std::string> l2 = NamesAt(h_.db(), 2);
  const std::vector<std::string> fresh = NamesAt(h_.db(), 0);

  Status s = Compact({}, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = Compact({"/999999.sst"}, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("999999.sst"));
  // An input already compacted away.
  s = Compact(l0, 2);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A bare number, or no table name at all.
  uint64_t number = std::stoull(fresh[0].substr(1));
  s = Compact({std::to_string(number)}, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = Compact({"/MANIFEST-000001"}, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = Compact({""}, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // Output levels out of range, and upwards.
  s = Compact(fresh, -1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = Compact(fresh, 4);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = Compact(l2, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("L2")) << s.ToString();
  // Paths other than the DB directory.
  s = h_.db()->CompactFiles(CompactionOptions(), fresh, 1, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A compression value outside the enum.
  CompactionOptions bad;
  bad.compression = static_cast<CompressionType>(77);
  s = h_.db()->CompactFiles(bad, fresh, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A destroyed family handle.
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(
      h_.db()->CreateColumnFamily(ColumnFamilyOptions(), "other", &cf).ok());
  ASSERT_TRUE(h_.db()->DropColumnFamily(cf).ok());
  s = h_.db()->CompactFiles(CompactionOptions(), cf, fresh, 1);
  EXPECT_FALSE(s.ok());
  ASSERT_TRUE(h_.db()->DestroyColumnFamilyHandle(cf).ok());
  // Nothing changed.
  EXPECT_EQ(fresh, NamesAt(h_.db(), 0));
  EXPECT_EQ(l2, NamesAt(h_.db(), 2));
  EXPECT_EQ(model_, h_.Contents());
}

TEST_F(DBCompactFilesTest, ReadOnlyDBRefuses) {
  ASSERT_TRUE(h_.Open().ok());
  Table(0, 10, 1, "a");
  const std::vector<std::string> l0 = NamesAt(h_.db(), 0);
  h_.Close();
  DB* db = nullptr;
  ASSERT_TRUE(DB::OpenForReadOnly(h_.options(), h_.name(), &db).ok());
  std::unique_ptr<DB> owner(db);
  const Status s = db->CompactFiles(CompactionOptions(), l0, 1);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

// A file another compaction holds: Aborted, not a wait.
TEST(DBCompactFilesBusyTest, InputBeingCompactedIsAborted) {
  test::TableGateEnv gate(Env::Default());
  test::DBHolder h(&gate);
  h.options().compaction_style = kCompactionStyleNone;
  ASSERT_TRUE(h.Open().ok());
  for (int t = 0; t < 2; t++) {
    ASSERT_TRUE(h.Put("k" + std::to_string(t), "v").ok());
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  const std::vector<std::string> l0 = NamesAt(h.db(), 0);
  ASSERT_EQ(2u, l0.size());
  gate.Open(false);
  Status first;
  std::thread compaction(
      [&] { first = h.db()->CompactFiles(CompactionOptions(), {l0[1]}, 1); });
  gate.AwaitWaiter();  // the compaction holds its input, writing its output
  Status s = h.db()->CompactFiles(CompactionOptions(), {l0[1]}, 1);
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  // The newer file needs the older one, which is held.
  s = h.db()->CompactFiles(CompactionOptions(), {l0[0]}, 1);
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  gate.Open(true);
  compaction.join();
  EXPECT_TRUE(first.ok()) << first.ToString();
  EXPECT_EQ("v", h.Get("k0"));
  EXPECT_EQ("v", h.Get("k1"));
}

TEST(DBCompactionStyleTest, UniversalAndFIFORefused) {
  for (CompactionStyle style :
       {kCompactionStyleUniversal, kCompactionStyleFIFO}) {
    test::DBHolder h;
    h.options().compaction_style = style;
    const Status s = h.Open();
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
    EXPECT_NE(std::string::npos,
              s.ToString().find(style == kCompactionStyleUniversal
                                    ? "kCompactionStyleUniversal"
                                    : "kCompactionStyleFIFO"))
        << s.ToString();
  }
  test::DBHolder h;
  h.options().compaction_style = static_cast<CompactionStyle>(9);
  EXPECT_TRUE(h.Open().IsInvalidArgument());
}

// compact_files_example's shape: automatic compaction off, a listener
// that compacts every L0 file into L1 with CompactFiles once there are
// kTrigger of them. Writes never wait on L0, and it never exceeds the
// trigger.
class L0Compactor : public EventListener {
 public:
  static constexpr int kTrigger = 3;

  void OnFlushCompleted(DB* db, const FlushJobInfo& info) override {
    ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(&meta);
    std::vector<std::string> names;
    for (const SstFileMetaData& f : meta.levels[0].files) {
      names.push_back(f.name);
    }
    std::lock_guard<std::mutex> l(mu_);
    max_l0 = std::max(max_l0, static_cast<int>(names.size()));
    if (static_cast<int>(names.size()) < kTrigger) return;
    std::vector<std::string> outputs;
    const Status s =
        db->CompactFiles(CompactionOptions(), names, 1, -1, &outputs);
    if (s.ok()) {
      compactions++;
    } else {
      failures.push_back(s.ToString());
    }
  }

  std::mutex mu_;
  int max_l0 = 0;
  int compactions = 0;
  std::vector<std::string> failures;
};

TEST(DBCompactFilesExampleTest, ListenerCompactsL0) {
  test::DBHolder h;
  auto compactor = std::make_shared<L0Compactor>();
  h.options().compaction_style = kCompactionStyleNone;
  h.options().listeners.push_back(compactor);
  h.options().write_buffer_size = 64 << 10;
  h.options().level0_file_num_compaction_trigger = 2;
  h.options().level0_slowdown_writes_trigger = 6;
  h.options().level0_stop_writes_trigger = 8;
  ASSERT_TRUE(h.Open().ok());
  Model model;
  for (int i = 0; i < 12000; i++) {
    const std::string key = test::Key((i * 7919) % 3000);
    const std::string value = std::to_string(i) + std::string(40, 'x');
    ASSERT_TRUE(h.Put(key, value).ok());
    model[key] = value;
  }
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  {
    std::lock_guard<std::mutex> l(compactor->mu_);
    EXPECT_TRUE(compactor->failures.empty()) << compactor->failures[0];
    EXPECT_GE(compactor->compactions, 2);
    EXPECT_LE(compactor->max_l0, L0Compactor::kTrigger);
  }
  EXPECT_LT(NamesAt(h.db(), 0).size(),
            static_cast<size_t>(L0Compactor::kTrigger));
  ExpectLevelsConsistent(h.db());
  EXPECT_EQ(model, h.Contents());
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ(model, h.Contents());
}

}  // namespace
}  // namespace strata
