// Flush: memtables become level-0 tables, reads go through them, and the
// WALs and MANIFESTs they make obsolete are deleted.

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/env.h"
#include "strata/merge_operator.h"
#include "test/db/compaction_test_util.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

using test::DBHolder;
using test::ListDBFiles;
using test::Settle;
using test::TableGateEnv;

TEST(DBFlushTest, FlushedDataIsReadFromTablesAndSurvivesReopen) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.Put("b", "2").ok());
  ASSERT_TRUE(h.Put("c", "3").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h.Delete("b").ok());  // in the memtable, shadows the table
  ASSERT_TRUE(h.Put("c", "4").ok());
  EXPECT_EQ("1", h.Get("a"));
  EXPECT_EQ("NOT_FOUND", h.Get("b"));
  EXPECT_EQ("4", h.Get("c"));
  const std::map<std::string, std::string> expected = {{"a", "1"}, {"c", "4"}};
  EXPECT_EQ(expected, h.Contents());
  std::vector<std::string> values;
  std::vector<Status> st =
      h.db()->MultiGet(ReadOptions(), {"a", "b", "c"}, &values);
  EXPECT_TRUE(st[0].ok());
  EXPECT_TRUE(st[1].IsNotFound());
  EXPECT_EQ("4", values[2]);
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  EXPECT_EQ(2u, ListDBFiles(h.env(), h.name()).tables.size());
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ(expected, h.Contents());
  EXPECT_EQ("NOT_FOUND", h.Get("b"));
}

TEST(DBFlushTest, FlushDeletesObsoleteWALsAndManifests) {
  DBHolder h;
  h.options().write_buffer_size = 64 << 10;
  h.options().disable_auto_compactions = true;  // the tables stay
  ASSERT_TRUE(h.Open().ok());
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 2000; i++) {
      ASSERT_TRUE(h.Put("k" + std::to_string(i), std::string(50, 'x')).ok());
    }
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
    // Flush returns once the table is in; the deletions follow it.
    ASSERT_TRUE(Settle(h.db()).ok());
    const test::DBFiles f = ListDBFiles(h.env(), h.name());
    // Everything is in tables: only the WAL being written is left.
    EXPECT_EQ(1u, f.logs.size());
    EXPECT_EQ(1u, f.manifests.size());
    EXPECT_GT(f.tables.size(), 1u);
    uint64_t wals = 0;
    ASSERT_TRUE(h.db()->GetIntProperty("strata.num-live-wal-files", &wals));
    EXPECT_EQ(1u, wals);
    ASSERT_TRUE(h.Reopen().ok());
  }
  EXPECT_EQ(std::string(50, 'x'), h.Get("k1999"));
}

TEST(DBFlushTest, SnapshotsStayExactAcrossFlushes) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  std::map<std::string, std::string> model;
  std::vector<std::pair<const Snapshot*, std::map<std::string, std::string>>>
      saved;
  for (int round = 0; round < 5; round++) {
    for (int i = 0; i < 50; i++) {
      const std::string k = "k" + std::to_string((i * 7 + round) % 40);
      if (i % 5 == round % 5) {
        ASSERT_TRUE(h.Delete(k).ok());
        model.erase(k);
      } else {
        const std::string v = std::to_string(round * 100 + i);
        ASSERT_TRUE(h.Put(k, v).ok());
        model[k] = v;
      }
    }
    saved.emplace_back(h.db()->GetSnapshot(), model);
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
    for (const auto& s : saved) {
      EXPECT_EQ(s.second, h.Contents(s.first));
      for (const auto& kv : s.second) {
        EXPECT_EQ(kv.second, h.Get(kv.first, s.first));
      }
    }
  }
  EXPECT_EQ(model, h.Contents());
  for (const auto& s : saved) h.db()->ReleaseSnapshot(s.first);
}

// A flush writes what readers can see, as a compaction keeps it: the
// newest version of a key in each snapshot stripe, merge operands
// combined. (Before, every version in the memtable was written: a key
// rewritten often cost a table entry per write.)
TEST(DBFlushTest, FlushWritesOneVersionPerSnapshotStripe) {
  DBHolder h;
  h.options().merge_operator = MergeOperators::CreateStringAppendOperator();
  ASSERT_TRUE(h.Open().ok());
  for (int i = 0; i < 10; i++) {
    ASSERT_TRUE(h.Put("a", "a" + std::to_string(i)).ok());
  }
  ASSERT_TRUE(h.Put("b", "old").ok());
  ASSERT_TRUE(h.Delete("c").ok());
  const Snapshot* snapshot = h.db()->GetSnapshot();
  ASSERT_TRUE(h.Put("b", "mid").ok());
  ASSERT_TRUE(h.Put("b", "new").ok());
  for (const char* operand : {"x", "y", "z"}) {
    ASSERT_TRUE(h.db()->Merge(WriteOptions(), "m", operand).ok());
  }
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());

  std::vector<LiveFileMetaData> files;
  h.db()->GetLiveFilesMetaData(&files);
  ASSERT_EQ(1u, files.size());
  // a: its newest; b: "old" for the snapshot and "new"; c: the deletion,
  // which hides nothing here but may hide data in older tables; m: one
  // operand, the three combined.
  EXPECT_EQ(5u, files[0].num_entries);
  EXPECT_EQ("a9", h.Get("a"));
  EXPECT_EQ("new", h.Get("b"));
  EXPECT_EQ("old", h.Get("b", snapshot));
  EXPECT_EQ("NOT_FOUND", h.Get("c"));
  EXPECT_EQ("x,y,z", h.Get("m"));
  h.db()->ReleaseSnapshot(snapshot);
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ("new", h.Get("b"));
  EXPECT_EQ("x,y,z", h.Get("m"));
}

// A single deletion that meets its Put in the memtable is kept as the
// key's newest version, as a deletion (only the Put goes): transactions'
// conflict checks read the newest sequence of a key, and the pair
// vanishing would hide a write they must see.
TEST(DBFlushTest, FlushKeepsASingleDeletionThatMeetsItsPut) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("k", "old").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  const Snapshot* snapshot = h.db()->GetSnapshot();
  // In the single-delete contract: "old" single-deleted, then a new Put
  // and its single deletion, all after the snapshot.
  ASSERT_TRUE(h.db()->SingleDelete(WriteOptions(), "k").ok());
  ASSERT_TRUE(h.Put("k", "new").ok());
  ASSERT_TRUE(h.db()->SingleDelete(WriteOptions(), "k").ok());
  const SequenceNumber single_delete = h.db()->GetLatestSequenceNumber();
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());

  DBImpl* impl = static_cast<DBImpl*>(h.db());
  SequenceNumber latest = 0;
  ASSERT_TRUE(
      impl->GetLatestSequenceForKey(h.db()->DefaultColumnFamily(), "k", &latest)
          .ok());
  EXPECT_EQ(single_delete, latest);
  std::vector<LiveFileMetaData> files;
  h.db()->GetLiveFilesMetaData(&files);
  ASSERT_EQ(2u, files.size());
  uint64_t entries = 0;
  for (const LiveFileMetaData& f : files) entries += f.num_entries;
  // "old"; then the last single deletion (as a deletion: "new" went) and
  // the first, hidden but kept for "old", which lies below.
  EXPECT_EQ(3u, entries);
  EXPECT_EQ("NOT_FOUND", h.Get("k"));
  EXPECT_EQ("old", h.Get("k", snapshot));
  h.db()->ReleaseSnapshot(snapshot);
  ASSERT_TRUE(
      h.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ("NOT_FOUND", h.Get("k"));
}

// Unordered writes: a write published but parked before its memtable insert
// is in the table a concurrent Flush makes, even when the memtable holds
// nothing else (Flush must wait for the insert before it judges the memtable
// empty).
TEST(DBFlushTest, UnloggedWritesSurviveACleanClose) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  ASSERT_TRUE(h.db()->Put(no_wal, "a", "1").ok());
  ASSERT_TRUE(h.Put("b", "2").ok());
  ASSERT_TRUE(h.db()->Put(no_wal, "c", "3").ok());
  h.Close();
  EXPECT_EQ(1u, ListDBFiles(h.env(), h.name()).tables.size());
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("1", h.Get("a"));
  EXPECT_EQ("2", h.Get("b"));
  EXPECT_EQ("3", h.Get("c"));
}

TEST(DBFlushTest, FlushWithoutWaitFinishesInTheBackground) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  FlushOptions fo;
  fo.wait = false;
  ASSERT_TRUE(h.db()->Flush(fo).ok());
  EXPECT_EQ("1", h.Get("a"));  // in a memtable or a table, never lost
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());  // waits for it too
  uint64_t imm = 1;
  ASSERT_TRUE(h.db()->GetIntProperty("strata.num-immutable-mem-table", &imm));
  EXPECT_EQ(0u, imm);
  EXPECT_EQ(1u, ListDBFiles(h.env(), h.name()).tables.size());
}

TEST(DBFlushTest, PropertiesCountTables) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < 10; i++) {
      ASSERT_TRUE(h.Put("k" + std::to_string(t * 10 + i), "v").ok());
    }
    ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  }
  ASSERT_TRUE(h.Put("m", "v").ok());  // one more key, in the memtable
  uint64_t v = 0;
  ASSERT_TRUE(h.db()->GetIntProperty("strata.num-files-at-level0", &v));
  EXPECT_EQ(3u, v);
  ASSERT_TRUE(h.db()->GetIntProperty("strata.num-files-at-level1", &v));
  EXPECT_EQ(0u, v);
  EXPECT_FALSE(h.db()->GetIntProperty("strata.num-files-at-level99", &v));
  EXPECT_FALSE(h.db()->GetIntProperty("strata.num-files-at-levelx", &v));
  ASSERT_TRUE(h.db()->GetIntProperty("strata.num-immutable-mem-table", &v));
  EXPECT_EQ(0u, v);
  ASSERT_TRUE(h.db()->GetIntProperty("strata.estimate-num-keys", &v));
  EXPECT_EQ(31u, v);
  std::string stats;
  ASSERT_TRUE(h.db()->GetProperty("strata.levelstats", &stats));
  EXPECT_NE(std::string::npos, stats.find("    0     3 ")) << stats;
  EXPECT_NE(std::string::npos, stats.find("    6     0 ")) << stats;
  ASSERT_TRUE(h.db()->GetProperty("strata.num-files-at-level0", &stats));
  EXPECT_EQ("3", stats);
  // Recovered tables' counts come from their properties.
  ASSERT_TRUE(h.Reopen().ok());
  ASSERT_TRUE(h.db()->GetIntProperty("strata.estimate-num-keys", &v));
  EXPECT_EQ(31u, v);
}

TEST(DBFlushTest, StrayTablesAreDeletedAfterAFlush) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  // As if a flush died before installing its table.
  const std::string stray = TableFileName(h.name(), 1);
  ASSERT_TRUE(WriteStringToFile(h.env(), "partial", stray, false).ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(Settle(h.db()).ok());  // the deletions after the flush
  EXPECT_TRUE(h.env()->FileExists(stray).IsNotFound());
  EXPECT_EQ(1u, ListDBFiles(h.env(), h.name()).tables.size());
  EXPECT_EQ("1", h.Get("a"));
}

TEST(DBFlushTest, FlushWaitingWhenTheDBClosesReturns) {
  std::unique_ptr<Env> mem(NewMemEnv(Env::Default()));
  TableGateEnv env(mem.get());
  DBHolder h(&env);
  h.options().max_write_buffer_number = 3;
  ASSERT_TRUE(h.Open().ok());
  env.Open(false);
  ASSERT_TRUE(h.Put("a", "1").ok());
  FlushOptions no_wait;
  no_wait.wait = false;
  ASSERT_TRUE(h.db()->Flush(no_wait).ok());
  env.AwaitWaiter();  // its flush (of "a" alone) waits at the gate
  ASSERT_TRUE(h.Put("b", "2").ok());
  Status flushed;
  std::thread flusher([&] { flushed = h.db()->Flush(FlushOptions()); });
  // Its memtable is retired: the Flush waits for it to be flushed (polled,
  // not slept: a loaded machine may start threads late).
  uint64_t immutable = 0;
  while (immutable < 2) {
    std::this_thread::yield();
    ASSERT_TRUE(
        h.db()->GetIntProperty("strata.num-immutable-mem-table", &immutable));
  }
  Status closed;
  std::thread closer([&] { closed = h.db()->Close(); });
  // Writes fail once Close has begun.
  while (h.Put("probe", "x").ok()) std::this_thread::yield();
  env.Open(true);  // the first flush ends; no other starts: closing
  flusher.join();  // and the waiting Flush gives up instead of hanging
  closer.join();
  EXPECT_TRUE(flushed.IsShutdownInProgress()) << flushed.ToString();
  EXPECT_TRUE(closed.ok()) << closed.ToString();
  h.Close();
  ASSERT_TRUE(h.Open().ok());  // "b" comes back from its WAL
  EXPECT_EQ("1", h.Get("a"));
  EXPECT_EQ("2", h.Get("b"));
}

class DBFlushFaultTest : public testing::Test {
 protected:
  DBFlushFaultTest()
      : base_(NewMemEnv(Env::Default())), env_(base_.get()), h_(&env_) {}

  std::unique_ptr<Env> base_;
  test::FaultInjectionEnv env_;
  DBHolder h_;
};

TEST_F(DBFlushFaultTest, FailedFlushStopsWritesAndReopenLosesNothing) {
  ASSERT_TRUE(h_.Open().ok());
  std::map<std::string, std::string> model;
  for (int i = 0; i < 100; i++) {
    const std::string k = "k" + std::to_string(i);
    ASSERT_TRUE(h_.Put(k, "v" + std::to_string(i)).ok());
    model[k] = "v" + std::to_string(i);
  }
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  for (int i = 0; i < 50; i++) {
    const std::string k = "k" + std::to_string(i);
    ASSERT_TRUE(h_.Put(k, "w" + std::to_string(i)).ok());
    model[k] = "w" + std::to_string(i);
  }
  const test::DBFiles before = ListDBFiles(&env_, h_.name());
  env_.FailAll(test::IOKind::kWrite, Status::NoSpace("injected"));
  Status s = h_.db()->Flush(FlushOptions());
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  // The DB is read-only with the reason; reads still work.
  s = h_.Put("after", "x");
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_EQ("w7", h_.Get("k7"));
  EXPECT_EQ(model, h_.Contents());
  env_.ClearFailures();
  // No partial table was left or installed.
  EXPECT_EQ(before.tables, ListDBFiles(&env_, h_.name()).tables);
  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ(model, h_.Contents());
  ASSERT_TRUE(h_.Put("after", "x").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  model["after"] = "x";
  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ(model, h_.Contents());
}

// A flush that cannot start the next WAL says so; writes go on into the
// current memtable and WAL, and the next Flush retries.
TEST_F(DBFlushFaultTest, FlushThatCannotCreateItsWALReportsIt) {
  ASSERT_TRUE(h_.Open().ok());
  ASSERT_TRUE(h_.Put("a", "1").ok());
  env_.FailAll(test::IOKind::kOpen, Status::IOError("injected open"));
  Status s = h_.db()->Flush(FlushOptions());
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("injected open"));
  EXPECT_TRUE(ListDBFiles(&env_, h_.name()).tables.empty());
  ASSERT_TRUE(h_.Put("b", "2").ok());
  env_.ClearFailures();
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  EXPECT_EQ(1u, ListDBFiles(&env_, h_.name()).tables.size());
  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ("1", h_.Get("a"));
  EXPECT_EQ("2", h_.Get("b"));
}

TEST_F(DBFlushFaultTest, FailedDeletionsAreNotFatal) {
  ASSERT_TRUE(h_.Open().ok());
  ASSERT_TRUE(h_.Put("a", "1").ok());
  env_.FailAll(test::IOKind::kDelete, Status::IOError("injected delete"));
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(Settle(h_.db()).ok());   // the deletions after the flush
  ASSERT_TRUE(h_.Put("b", "2").ok());  // writes go on
  EXPECT_EQ(2u, ListDBFiles(&env_, h_.name()).logs.size());  // one left over
  env_.ClearFailures();
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  // Flush returns once the table is in; the deletions follow it.
  ASSERT_TRUE(Settle(h_.db()).ok());
  EXPECT_EQ(1u, ListDBFiles(&env_, h_.name()).logs.size());  // retried
  ASSERT_TRUE(h_.Reopen().ok());
  EXPECT_EQ("1", h_.Get("a"));
  EXPECT_EQ("2", h_.Get("b"));
}

TEST_F(DBFlushFaultTest, PowerLossAfterFlushesKeepsSyncedWrites) {
  h_.options().write_buffer_size = 64 << 10;
  ASSERT_TRUE(h_.Open().ok());
  std::map<std::string, std::string> model;
  WriteOptions sync;
  sync.sync = true;
  for (int i = 0; i < 3000; i++) {
    const std::string k = "k" + std::to_string(i % 500);
    const std::string v = std::to_string(i) + std::string(80, 'p');
    ASSERT_TRUE(h_.db()->Put(i % 100 == 99 ? sync : WriteOptions(), k, v).ok());
    model[k] = v;
  }
  ASSERT_TRUE(h_.db()->SyncWAL().ok());
  h_.Close();
  // Whatever was not synced is gone; flushed tables and synced WALs stay.
  ASSERT_TRUE(env_.DropUnsyncedFileData().ok());
  ASSERT_TRUE(env_.DeleteFilesCreatedAfterLastDirSync().ok());
  env_.ResetState();
  ASSERT_TRUE(h_.Open().ok());
  EXPECT_EQ(model, h_.Contents());
}

}  // namespace
}  // namespace strata
