// Compactions in the DB: automatic ones shaping the tree, CompactRange,
// trivial moves, what compactions drop and keep (overwrites, deletions,
// range deletions, merges, snapshots), and a compaction that fails.

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "test/db/compaction_test_util.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"
#include "util/random.h"

namespace strata {
namespace {

using test::DBHolder;
using test::FilesAtLevel;
using test::IntProperty;
using test::Key;
using test::LiveTableFiles;
using test::Settle;
using test::TableBytes;
using test::TableFilesOnDisk;
using test::UseTinyOptions;

TEST(DBCompactionTest, AutomaticCompactionsShapeTheTree) {
  DBHolder h;
  UseTinyOptions(&h.options());
  ASSERT_TRUE(h.Open().ok());
  std::map<std::string, std::string> model;
  Random rnd(301);
  for (int i = 0; i < 20000; i++) {
    const std::string k = Key(rnd.Uniform(5000));
    const std::string v = std::string(50 + rnd.Uniform(50), 'a' + i % 26);
    ASSERT_TRUE(h.Put(k, v).ok());
    model[k] = v;
  }
  ASSERT_TRUE(Settle(h.db()).ok());
  // Settled: L0 under its trigger, L1 within its 128 KiB target, and the
  // rest (about 400 KB of live data) below it.
  EXPECT_LT(FilesAtLevel(h.db(), 0), 2u);
  uint64_t below_l1 = 0;
  for (int level = 2; level < 7; level++) {
    below_l1 += FilesAtLevel(h.db(), level);
  }
  std::string levels;
  ASSERT_TRUE(h.db()->GetProperty("strata.levelstats", &levels));
  EXPECT_GT(below_l1, 0u) << levels;
  const size_t l1 = levels.find("\n    1 ");
  ASSERT_NE(std::string::npos, l1) << levels;
  int level = 0, files = 0;
  double mb = 0;
  ASSERT_EQ(3,
            std::sscanf(levels.c_str() + l1, "%d %d %lf", &level, &files, &mb));
  EXPECT_LE(mb, 0.13) << levels;  // 128 KiB, printed in MB
  EXPECT_EQ(model, h.Contents());
  EXPECT_EQ(LiveTableFiles(h), TableFilesOnDisk(h));
  // strata.stats counts the compactions' work: bytes were rewritten below
  // L0, so more was written than users ingested.
  std::string stats;
  ASSERT_TRUE(h.db()->GetProperty("strata.stats", &stats));
  EXPECT_NE(std::string::npos, stats.find("\nL1 ")) << stats;
  const size_t amp = stats.find("Write amplification: ");
  ASSERT_NE(std::string::npos, amp) << stats;
  EXPECT_GT(std::stod(stats.substr(amp + 21)), 1.5) << stats;
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ(model, h.Contents());
  for (int i = 0; i < 5000; i += 97)
    EXPECT_EQ(model.count(Key(i)) ? model[Key(i)] : "NOT_FOUND", h.Get(Key(i)));
}

TEST(DBCompactionTest, CompactRangeDropsDeletedData) {
  DBHolder h;
  UseTinyOptions(&h.options());
  h.options().disable_auto_compactions = true;
  ASSERT_TRUE(h.Open().ok());
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 1000; i++) {
      ASSERT_TRUE(h.Put(Key(i), "v" + std::to_string(round)).ok());
    }
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  for (int i = 0; i < 1000; i += 2) ASSERT_TRUE(h.Delete(Key(i)).ok());
  ASSERT_TRUE(h.db()->DeleteRange(WriteOptions(), Key(500), Key(600)).ok());
  EXPECT_GE(FilesAtLevel(h.db(), 0), 3u);  // no automatic compaction

  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(0u, FilesAtLevel(h.db(), 0));
  // One level holds everything; the bottommost compaction dropped every
  // overwritten version and tombstone.
  int nonempty = 0;
  for (int level = 1; level < 7; level++) {
    if (FilesAtLevel(h.db(), level) > 0) nonempty++;
  }
  EXPECT_EQ(1, nonempty);
  // The compacted inputs are deleted at once, not at the next open.
  EXPECT_EQ(LiveTableFiles(h), TableFilesOnDisk(h));
  EXPECT_EQ(450u, IntProperty(h.db(), "strata.estimate-num-keys"));
  std::map<std::string, std::string> expected;
  for (int i = 1; i < 1000; i += 2) {
    if (i < 500 || i >= 600) expected[Key(i)] = "v2";
  }
  EXPECT_EQ(expected, h.Contents());
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ(expected, h.Contents());
}

TEST(DBCompactionTest, CompactRangeOfPartOfTheKeys) {
  DBHolder h;
  UseTinyOptions(&h.options());
  h.options().disable_auto_compactions = true;
  ASSERT_TRUE(h.Open().ok());
  for (int i = 0; i < 2000; i++) ASSERT_TRUE(h.Put(Key(i), "v").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  const std::string b = Key(100), e = Key(200);
  Slice begin(b), end(e);
  EXPECT_TRUE(h.db()
                  ->CompactRange(CompactRangeOptions(), &end, &begin)
                  .IsInvalidArgument());
  ASSERT_TRUE(h.db()->CompactRange(CompactRangeOptions(), &begin, &end).ok());
  // L0 files overlapping the range went down with everything they hold.
  EXPECT_GT(FilesAtLevel(h.db(), 1), 0u);
  EXPECT_EQ("v", h.Get(Key(150)));
  EXPECT_EQ("v", h.Get(Key(1999)));
  EXPECT_EQ(2000u, h.Contents().size());
}

TEST(DBCompactionTest, TrivialMoveKeepsTheFile) {
  DBHolder h;
  h.options().disable_auto_compactions = true;
  ASSERT_TRUE(h.Open().ok());
  for (int i = 0; i < 100; i++) ASSERT_TRUE(h.Put(Key(i), "v").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  const std::vector<uint64_t> before =
      test::ListDBFiles(h.env(), h.name()).tables;
  ASSERT_EQ(1u, before.size());
  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(0u, FilesAtLevel(h.db(), 0));
  EXPECT_EQ(1u, FilesAtLevel(h.db(), 1));
  // Moved, not rewritten: the same file number.
  EXPECT_EQ(before, test::ListDBFiles(h.env(), h.name()).tables);
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ(1u, FilesAtLevel(h.db(), 1));
  EXPECT_EQ(100u, h.Contents().size());
}

TEST(DBCompactionTest, MergesAreResolvedByCompaction) {
  DBHolder h;
  UseTinyOptions(&h.options());
  h.options().disable_auto_compactions = true;
  h.options().merge_operator = MergeOperators::CreateUInt64AddOperator();
  ASSERT_TRUE(h.Open().ok());
  std::string one;
  for (int i = 0; i < 8; i++) one.push_back(i == 0 ? 1 : 0);
  for (int round = 0; round < 5; round++) {
    for (int i = 0; i < 200; i++) {
      ASSERT_TRUE(h.db()->Merge(WriteOptions(), Key(i), one).ok());
    }
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  const Snapshot* snap = h.db()->GetSnapshot();
  for (int i = 0; i < 200; i++) {
    ASSERT_TRUE(h.db()->Merge(WriteOptions(), Key(i), one).ok());
  }
  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  std::string v;
  ASSERT_TRUE(h.db()->Get(ReadOptions(), Key(7), &v).ok());
  ASSERT_EQ(8u, v.size());
  EXPECT_EQ(6, v[0]);
  ReadOptions at_snap;
  at_snap.snapshot = snap;
  ASSERT_TRUE(h.db()->Get(at_snap, Key(7), &v).ok());
  EXPECT_EQ(5, v[0]);
  // The snapshot's stripe keeps its own merged value.
  EXPECT_EQ(400u, IntProperty(h.db(), "strata.estimate-num-keys"));
  h.db()->ReleaseSnapshot(snap);
  for (int i = 0; i < 200; i++) {
    ASSERT_TRUE(h.db()->Merge(WriteOptions(), Key(i), one).ok());
  }
  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  // Once nothing needs the operands, one full value per key is left.
  EXPECT_EQ(200u, IntProperty(h.db(), "strata.estimate-num-keys"));
  ASSERT_TRUE(h.db()->Get(ReadOptions(), Key(199), &v).ok());
  EXPECT_EQ(7, v[0]);
}

TEST(DBCompactionTest, SnapshotsStayExactThroughCompactions) {
  DBHolder h;
  UseTinyOptions(&h.options());
  ASSERT_TRUE(h.Open().ok());
  std::map<std::string, std::string> model;
  struct Held {
    const Snapshot* snapshot;
    std::map<std::string, std::string> model;
  };
  std::vector<Held> held;
  Random rnd(17);
  for (int i = 0; i < 30000; i++) {
    const std::string k = Key(rnd.Uniform(2000));
    if (rnd.OneIn(5)) {
      ASSERT_TRUE(h.Delete(k).ok());
      model.erase(k);
    } else {
      const std::string v = std::to_string(i) + std::string(40, 'x');
      ASSERT_TRUE(h.Put(k, v).ok());
      model[k] = v;
    }
    if (i % 5000 == 0) held.push_back({h.db()->GetSnapshot(), model});
  }
  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  ASSERT_TRUE(Settle(h.db()).ok());
  EXPECT_EQ(model, h.Contents());
  for (const Held& s : held) {
    EXPECT_EQ(s.model, h.Contents(s.snapshot));
    h.db()->ReleaseSnapshot(s.snapshot);
  }
}

TEST(DBCompactionTest, SingleDeletesMeetTheirPutsInCompaction) {
  DBHolder h;
  h.options().disable_auto_compactions = true;
  h.options().compression = kNoCompression;
  ASSERT_TRUE(h.Open().ok());
  const std::string value(100, 'v');
  for (int i = 0; i < 100; i++) ASSERT_TRUE(h.Put(Key(i), value).ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  const Snapshot* snap = h.db()->GetSnapshot();
  for (int i = 0; i < 100; i += 2) {
    ASSERT_TRUE(h.db()->SingleDelete(WriteOptions(), Key(i)).ok());
  }
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  // The snapshot still sees every put; the pairs stay for it.
  EXPECT_EQ(100u, h.Contents(snap).size());
  EXPECT_EQ(50u, h.Contents().size());
  const uint64_t with_pairs = TableBytes(h);
  h.db()->ReleaseSnapshot(snap);
  // An L0 table overlapping L1's, so the compaction rewrites L1.
  ASSERT_TRUE(h.Put(Key(51), value).ok());
  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  // Now each single deletion and its put vanish together: 50 entries
  // instead of 150, half the values.
  EXPECT_LT(TableBytes(h) * 10, with_pairs * 7);
  EXPECT_EQ("NOT_FOUND", h.Get(Key(0)));
  EXPECT_EQ(value, h.Get(Key(1)));
}

TEST(DBCompactionTest, ConcurrentCompactRangesAndWriters) {
  DBHolder h;
  UseTinyOptions(&h.options());
  h.options().max_background_jobs = 4;  // automatic compactions beside
  ASSERT_TRUE(h.Open().ok());
  // Writer t owns the keys i with i % 3 == t; compactors cover halves.
  std::vector<std::thread> threads;
  std::vector<std::map<std::string, std::string>> models(3);
  for (int t = 0; t < 3; t++) {
    threads.emplace_back([&h, &models, t] {
      Random rnd(100 + t);
      for (int n = 0; n < 3000; n++) {
        const int i = static_cast<int>(rnd.Uniform(1000)) * 3 + t;
        const std::string v = std::to_string(n) + std::string(40, 'z');
        ASSERT_TRUE(h.Put(Key(i), v).ok());
        models[t][Key(i)] = v;
      }
    });
  }
  for (int c = 0; c < 2; c++) {
    threads.emplace_back([&h, c] {
      const std::string b = Key(c * 1500), e = Key(c * 1500 + 1499);
      const Slice begin(b), end(e);
      CompactRangeOptions options;
      options.exclusive_manual_compaction = c == 0;
      for (int n = 0; n < 5; n++) {
        ASSERT_TRUE(h.db()->CompactRange(options, &begin, &end).ok());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_TRUE(Settle(h.db()).ok());
  std::map<std::string, std::string> model;
  for (const auto& m : models) model.insert(m.begin(), m.end());
  EXPECT_EQ(model, h.Contents());
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ(model, h.Contents());
}

class DBCompactionFaultTest : public testing::Test {
 protected:
  DBCompactionFaultTest()
      : base_(NewMemEnv(Env::Default())), env_(base_.get()), h_(&env_) {}

  std::unique_ptr<Env> base_;
  test::FaultInjectionEnv env_;
  DBHolder h_;
};

TEST_F(DBCompactionFaultTest, NoSpaceLeavesTheDBReadableAndRecoverable) {
  UseTinyOptions(&h_.options());
  h_.options().disable_auto_compactions = true;
  ASSERT_TRUE(h_.Open().ok());
  std::map<std::string, std::string> model;
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 500; i++) {
      const std::string v = "r" + std::to_string(round) + std::string(60, 'y');
      ASSERT_TRUE(h_.Put(Key(i * 3 + round), v).ok());
      model[Key(i * 3 + round)] = v;
    }
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }
  const std::vector<uint64_t> tables =
      test::ListDBFiles(&env_, h_.name()).tables;

  env_.FailAll(test::IOKind::kWrite,
               Status::NoSpace("injected: the disk is full"));
  Status s = h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  env_.ClearFailures();
  // Nothing was installed, no partial output is left, reads work, and
  // writes go on: a compaction's NoSpace is a soft error, which stops
  // only compactions (docs/reliability.md, "Recovery without reopening").
  EXPECT_EQ(tables, test::ListDBFiles(&env_, h_.name()).tables);
  EXPECT_EQ(model, h_.Contents());
  ASSERT_TRUE(h_.Put("new", "v").ok());
  model["new"] = "v";

  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ(model, h_.Contents());
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(0u, FilesAtLevel(h_.db(), 0));
  EXPECT_EQ(model, h_.Contents());
}

TEST_F(DBCompactionFaultTest, PowerLossAmidCompactionsKeepsSyncedWrites) {
  UseTinyOptions(&h_.options());
  ASSERT_TRUE(h_.Open().ok());
  // Values carry their step; a sync=true write makes every earlier write
  // durable (the WAL is synced through it, and retired WALs at the switch).
  std::map<std::string, int> synced, written;
  WriteOptions sync;
  sync.sync = true;
  Random rnd(7);
  for (int step = 0; step < 6000; step++) {
    const std::string k = Key(rnd.Uniform(800));
    const bool is_sync = step % 50 == 49;
    ASSERT_TRUE(h_.db()
                    ->Put(is_sync ? sync : WriteOptions(), k,
                          std::to_string(step) + std::string(60, 'q'))
                    .ok());
    written[k] = step;
    if (is_sync) synced = written;
  }
  // The power goes: nothing more reaches the disk, unsynced data is lost.
  env_.SetFilesystemActive(false);
  h_.Close();
  ASSERT_TRUE(env_.DropUnsyncedFileData().ok());
  ASSERT_TRUE(env_.DeleteFilesCreatedAfterLastDirSync().ok());
  env_.ResetState();
  env_.SetFilesystemActive(true);
  ASSERT_TRUE(h_.Open().ok());
  for (const auto& [key, step] : synced) {
    const std::string v = h_.Get(key);
    ASSERT_NE("NOT_FOUND", v) << key;
    EXPECT_GE(std::stoi(v), step) << key << " went back in time";
  }
}

}  // namespace
}  // namespace strata
