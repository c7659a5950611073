// CompactFiles may skip levels (L0 straight into the last level), so the
// span its outputs cover reaches levels no other compaction's inputs mark.
// Files placed there meanwhile — by an ingestion, or by a second
// CompactFiles — must keep out of that span, or the level would end up
// with overlapping files and the first compaction's install would fail.
// A listener holds the first CompactFiles while its output table is being
// written, so the second step runs at a known point, without timing.

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/listener.h"
#include "strata/sst_file_writer.h"
#include "test/db/db_test_util.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// When armed, the first compaction output to start waits in
// OnTableFileCreationStarted until Release.
class HoldingListener : public EventListener {
 public:
  void OnTableFileCreationStarted(
      const TableFileCreationBriefInfo& info) override {
    if (info.reason != TableFileCreationReason::kCompaction) return;
    std::unique_lock<std::mutex> l(mu_);
    if (!armed_) return;
    armed_ = false;
    held_ = true;
    cv_.notify_all();
    cv_.wait(l, [this] { return released_; });
  }

  void Arm() {
    std::lock_guard<std::mutex> l(mu_);
    armed_ = true;
  }
  void WaitHeld() {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [this] { return held_; });
  }
  void Release() {
    std::lock_guard<std::mutex> l(mu_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool armed_ = false;
  bool held_ = false;
  bool released_ = false;
};

class CompactFilesRaceTest : public testing::Test {
 protected:
  CompactFilesRaceTest() : files_(Env::Default(), "race_ext") {
    listener_ = std::make_shared<HoldingListener>();
    h_.options().compaction_style = kCompactionStyleNone;
    h_.options().num_levels = 7;
    h_.options().listeners.push_back(listener_);
  }

  void SetUp() override { ASSERT_TRUE(h_.Open().ok()); }

  // One L0 table holding keys first and last (test::Key order).
  void Table(int first, int last) {
    for (int i : {first, last}) {
      ASSERT_TRUE(h_.Put(test::Key(i), "v").ok());
      model_[test::Key(i)] = "v";
    }
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }

  // The level each live table is at, by its smallest key.
  std::map<std::string, int> LevelsByKey() {
    std::vector<LiveFileMetaData> files;
    h_.db()->GetLiveFilesMetaData(&files);
    std::map<std::string, int> levels;
    for (const LiveFileMetaData& f : files) levels[f.smallestkey] = f.level;
    return levels;
  }

  // The names of the tables at level, in key order.
  std::vector<std::string> NamesAt(int level) {
    ColumnFamilyMetaData meta;
    h_.db()->GetColumnFamilyMetaData(&meta);
    std::vector<std::string> names;
    for (const SstFileMetaData& f : meta.levels[level].files) {
      names.push_back(f.name);
    }
    return names;
  }

  // Starts CompactFiles of inputs into level on its own thread, and
  // returns once it is held writing its output.
  void StartHeldCompaction(const std::vector<std::string>& inputs, int level) {
    listener_->Arm();
    compaction_ = std::thread([this, inputs, level] {
      held_status_ = h_.db()->CompactFiles(CompactionOptions(), inputs, level);
    });
    listener_->WaitHeld();
  }

  void FinishHeldCompaction() {
    listener_->Release();
    compaction_.join();
    EXPECT_TRUE(held_status_.ok()) << held_status_.ToString();
    // No background error stopped the DB: a write still goes in.
    EXPECT_TRUE(h_.Put("after", "x").ok());
    model_["after"] = "x";
    EXPECT_EQ(model_, h_.Contents());
  }

  test::DBHolder h_;
  test::TempDir files_;
  std::shared_ptr<HoldingListener> listener_;
  std::map<std::string, std::string> model_;
  std::thread compaction_;
  Status held_status_;
};

// L0 holds [10, 20] and [80, 90]; their compaction into L6 writes one
// table spanning 10..90. A file of [50, 51], overlapping no table, would
// fit L6 were that compaction not running.
TEST_F(CompactFilesRaceTest, IngestionKeepsOutOfARunningCompactionsSpan) {
  Table(10, 20);
  Table(80, 90);
  const std::string path = files_.File("gap.sst");
  SstFileWriter writer(EnvOptions(), h_.options());
  ASSERT_TRUE(writer.Open(path).ok());
  ASSERT_TRUE(writer.Put(test::Key(50), "ingested").ok());
  ASSERT_TRUE(writer.Put(test::Key(51), "ingested").ok());
  ASSERT_TRUE(writer.Finish().ok());

  ASSERT_EQ(2u, NamesAt(0).size());
  StartHeldCompaction(NamesAt(0), 6);
  ASSERT_TRUE(
      h_.db()->IngestExternalFile({path}, IngestExternalFileOptions()).ok());
  // Above every level the compaction may write.
  EXPECT_EQ(0, LevelsByKey().at(test::Key(50)));
  model_[test::Key(50)] = "ingested";
  model_[test::Key(51)] = "ingested";
  FinishHeldCompaction();
  EXPECT_EQ(6, LevelsByKey().at(test::Key(10)));
}

// L2 holds [10, 20] and [80, 90], L1 [50, 51]. A CompactFiles of the
// two L2 tables into L3 writes one table spanning 10..90 there; a second
// one of the L1 table into L3 (no L2 table meets it, so its inputs stay
// apart), run beside it, would write [50, 51] into that span. It is
// refused (Aborted: nothing changes) until the first is done, and then
// runs.
TEST_F(CompactFilesRaceTest, SecondCompactFilesIntoTheSpanIsAborted) {
  Table(10, 20);
  ASSERT_TRUE(h_.db()->CompactFiles(CompactionOptions(), NamesAt(0), 2).ok());
  Table(80, 90);
  ASSERT_TRUE(h_.db()->CompactFiles(CompactionOptions(), NamesAt(0), 2).ok());
  Table(50, 51);
  ASSERT_TRUE(h_.db()->CompactFiles(CompactionOptions(), NamesAt(0), 1).ok());
  const std::vector<std::string> middle = NamesAt(1);
  ASSERT_EQ(1u, middle.size());
  ASSERT_EQ(2u, NamesAt(2).size());

  StartHeldCompaction(NamesAt(2), 3);
  Status s = h_.db()->CompactFiles(CompactionOptions(), middle, 3);
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  EXPECT_EQ(1, LevelsByKey().at(test::Key(50)));
  FinishHeldCompaction();
  EXPECT_EQ(3, LevelsByKey().at(test::Key(10)));

  // Once it is done the call runs, joined by the L3 table it overlaps.
  s = h_.db()->CompactFiles(CompactionOptions(), middle, 3);
  EXPECT_TRUE(s.ok()) << s.ToString();
  const std::map<std::string, int> levels = LevelsByKey();
  ASSERT_EQ(1u, levels.size());
  EXPECT_EQ(3, levels.at(test::Key(10)));
  EXPECT_EQ(model_, h_.Contents());
}

}  // namespace
}  // namespace strata
