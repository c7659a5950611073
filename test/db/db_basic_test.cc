// The DB API end to end: open/create rules, writes and reads, batches,
// snapshots, iterators, memtable switches, reopen, close, destroy, and
// misuse that must give a clear Status.

#include <atomic>
#include <chrono>
#include <map>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/db_test_util.h"
#include "test/util/subprocess.h"

namespace strata {
namespace {

using test::DBHolder;

TEST(DBBasicTest, OpenMissingWithoutCreateIsInvalidArgument) {
  DBHolder h;
  h.options().create_if_missing = false;
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("does not exist"));
  EXPECT_EQ(nullptr, h.db());
}

TEST(DBBasicTest, OpenExistingWithErrorIfExists) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  h.Close();
  h.options().error_if_exists = true;
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("exists"));
}

TEST(DBBasicTest, SecondOpenInSameProcessIsRefused) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  DB* second = nullptr;
  Status s = DB::Open(h.options(), h.name(), &second);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_EQ(nullptr, second);
  ASSERT_TRUE(h.Put("k", "v").ok());  // the first is unharmed
}

// args[0]: the DB. Exit 0 if the open is refused as locked.
STRATA_TEST_CHILD(OpenLockedDB) {
  Options options;
  DB* db = nullptr;
  Status s = DB::Open(options, args.at(0), &db);
  if (s.ok()) {
    delete db;
    return 1;
  }
  return s.IsBusy() && s.IsIOError() &&
                 s.ToString().find("LOCK") != std::string::npos
             ? 0
             : 2;
}

TEST(DBBasicTest, DBLockedByAnotherProcess) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ(0, test::RunChild("OpenLockedDB", {h.name()}));
  h.Close();
  EXPECT_EQ(1, test::RunChild("OpenLockedDB", {h.name()}));
}

TEST(DBBasicTest, InvalidOptionsAreRefusedBeforeTouchingDisk) {
  DBHolder h;
  h.options().write_buffer_size = 0;
  EXPECT_TRUE(h.Open().IsInvalidArgument());
  h.options().write_buffer_size = 1 << 20;
  h.options().unordered_write = true;
  h.options().enable_pipelined_write = true;
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("unordered_write"));
  EXPECT_TRUE(h.env()->FileExists(h.name()).IsNotFound());
}

TEST(DBBasicTest, ComparatorMismatchIsRefused) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  h.Close();
  h.options().comparator = ReverseBytewiseComparator();
  Status s = h.Open();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos,
            s.ToString().find("rocksdb.ReverseBytewiseComparator"));
  EXPECT_NE(std::string::npos, s.ToString().find("leveldb.BytewiseComparator"));
}

TEST(DBBasicTest, PutGetDeleteSingleDelete) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("NOT_FOUND", h.Get("a"));
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.Put("b", "2").ok());
  EXPECT_EQ("1", h.Get("a"));
  ASSERT_TRUE(h.Put("a", "3").ok());
  EXPECT_EQ("3", h.Get("a"));
  ASSERT_TRUE(h.Delete("a").ok());
  EXPECT_EQ("NOT_FOUND", h.Get("a"));
  ASSERT_TRUE(h.db()->SingleDelete(WriteOptions(), "b").ok());
  EXPECT_EQ("NOT_FOUND", h.Get("b"));
  ASSERT_TRUE(h.Put("", "empty key").ok());
  EXPECT_EQ("empty key", h.Get(""));
  ASSERT_TRUE(h.Put("big", std::string(1 << 20, 'x')).ok());
  EXPECT_EQ(std::string(1 << 20, 'x'), h.Get("big"));
  EXPECT_GE(h.db()->GetLatestSequenceNumber(), 6u);
}

TEST(DBBasicTest, RefusedOperationsAndMisuse) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  // No merge operator: merges are refused before reaching the WAL, a
  // single Merge as NotSupported and a batch holding one as
  // InvalidArgument, as RocksDB answers them.
  Status s = h.db()->Merge(WriteOptions(), "k", "v");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("merge_operator"));
  WriteBatch merge_batch;
  ASSERT_TRUE(merge_batch.Merge("k", "v").ok());
  s = h.db()->Write(WriteOptions(), &merge_batch);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(0u, h.db()->GetLatestSequenceNumber());
  EXPECT_TRUE(
      h.db()->DeleteRange(WriteOptions(), "b", "a").IsInvalidArgument());
  EXPECT_TRUE(h.db()->DeleteRange(WriteOptions(), "a", "a").ok());  // empty
  WriteBatch batch;
  batch.Put("x", "1");
  batch.Merge("k", "v");
  EXPECT_TRUE(h.db()->Write(WriteOptions(), &batch).IsInvalidArgument());
  EXPECT_EQ("NOT_FOUND", h.Get("x"));  // nothing of the batch applied
  WriteOptions bad;
  bad.sync = true;
  bad.disableWAL = true;
  EXPECT_TRUE(h.db()->Put(bad, "k", "v").IsInvalidArgument());
  EXPECT_TRUE(h.db()->Write(WriteOptions(), nullptr).IsInvalidArgument());
  h.Close();
  ASSERT_TRUE(h.Open().ok());  // the refused writes left no trace
  EXPECT_EQ("NOT_FOUND", h.Get("x"));
}

TEST(DBBasicTest, WriteBatchIsAtomicAndOrdered) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  WriteBatch batch;
  batch.Put("a", "1");
  batch.Put("b", "2");
  batch.Delete("a");
  batch.Put("c", "3");
  batch.Put("c", "4");
  ASSERT_TRUE(h.db()->Write(WriteOptions(), &batch).ok());
  EXPECT_EQ("NOT_FOUND", h.Get("a"));
  EXPECT_EQ("2", h.Get("b"));
  EXPECT_EQ("4", h.Get("c"));
  EXPECT_EQ(5u, h.db()->GetLatestSequenceNumber());
}

TEST(DBBasicTest, MultiGet) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.Put("c", "3").ok());
  std::vector<std::string> values;
  std::vector<Status> st =
      h.db()->MultiGet(ReadOptions(), {"a", "b", "c"}, &values);
  ASSERT_EQ(3u, st.size());
  ASSERT_EQ(3u, values.size());
  EXPECT_TRUE(st[0].ok());
  EXPECT_EQ("1", values[0]);
  EXPECT_TRUE(st[1].IsNotFound());
  EXPECT_TRUE(st[2].ok());
  EXPECT_EQ("3", values[2]);
}

TEST(DBBasicTest, SnapshotsAreImmutable) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("k", "v1").ok());
  const Snapshot* s1 = h.db()->GetSnapshot();
  ASSERT_TRUE(h.Put("k", "v2").ok());
  ASSERT_TRUE(h.Put("other", "x").ok());
  const Snapshot* s2 = h.db()->GetSnapshot();
  ASSERT_TRUE(h.Delete("k").ok());
  EXPECT_EQ("v1", h.Get("k", s1));
  EXPECT_EQ("v2", h.Get("k", s2));
  EXPECT_EQ("NOT_FOUND", h.Get("k"));
  EXPECT_EQ((std::map<std::string, std::string>{{"k", "v1"}}), h.Contents(s1));
  EXPECT_EQ((std::map<std::string, std::string>{{"k", "v2"}, {"other", "x"}}),
            h.Contents(s2));
  uint64_t n = 0;
  ASSERT_TRUE(h.db()->GetIntProperty("strata.num-snapshots", &n));
  EXPECT_EQ(2u, n);
  // Close refuses while snapshots are live, then works.
  EXPECT_TRUE(h.db()->Close().IsAborted());
  h.db()->ReleaseSnapshot(s1);
  h.db()->ReleaseSnapshot(s2);
  EXPECT_TRUE(h.db()->Close().ok());
  EXPECT_TRUE(h.db()->Close().ok());  // a second Close is a no-op
  std::string value;
  EXPECT_FALSE(h.db()->Get(ReadOptions(), "k", &value).ok());
  EXPECT_FALSE(h.db()->Put(WriteOptions(), "k", "v").ok());
}

TEST(DBBasicTest, IteratorIsAPointInTimeView) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  for (char c = 'a'; c <= 'e'; c++) {
    ASSERT_TRUE(h.Put(std::string(1, c), std::string(1, c)).ok());
  }
  std::unique_ptr<Iterator> it(h.db()->NewIterator(ReadOptions()));
  ASSERT_TRUE(h.Put("bb", "new").ok());
  ASSERT_TRUE(h.Delete("c").ok());
  std::string seen;
  for (it->SeekToFirst(); it->Valid(); it->Next()) seen += it->key().ToString();
  EXPECT_EQ("abcde", seen);
  seen.clear();
  for (it->SeekToLast(); it->Valid(); it->Prev()) seen += it->key().ToString();
  EXPECT_EQ("edcba", seen);
  it->SeekForPrev("bz");
  EXPECT_EQ("b", it->key().ToString());
  EXPECT_TRUE(it->status().ok());

  Slice lower("b"), upper("d");
  ReadOptions ro;
  ro.iterate_lower_bound = &lower;
  ro.iterate_upper_bound = &upper;
  std::unique_ptr<Iterator> bounded(h.db()->NewIterator(ro));
  seen.clear();
  for (bounded->SeekToFirst(); bounded->Valid(); bounded->Next()) {
    seen += bounded->key().ToString() + ",";
  }
  EXPECT_EQ("b,bb,", seen);
  seen.clear();
  for (bounded->SeekToLast(); bounded->Valid(); bounded->Prev()) {
    seen += bounded->key().ToString() + ",";
  }
  EXPECT_EQ("bb,b,", seen);
}

TEST(DBBasicTest, ReverseComparatorOrdersIteration) {
  DBHolder h;
  h.options().comparator = ReverseBytewiseComparator();
  ASSERT_TRUE(h.Open().ok());
  for (const char* k : {"a", "b", "c"}) ASSERT_TRUE(h.Put(k, k).ok());
  std::unique_ptr<Iterator> it(h.db()->NewIterator(ReadOptions()));
  std::string seen;
  for (it->SeekToFirst(); it->Valid(); it->Next()) seen += it->key().ToString();
  EXPECT_EQ("cba", seen);
  it.reset();  // iterators go before their DB
  h.Close();
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("b", h.Get("b"));
}

TEST(DBBasicTest, ReopenRecoversEverythingWritten) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.Put("b", "2").ok());
  ASSERT_TRUE(h.Delete("a").ok());
  const SequenceNumber seq = h.db()->GetLatestSequenceNumber();
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ("NOT_FOUND", h.Get("a"));
  EXPECT_EQ("2", h.Get("b"));
  EXPECT_EQ(seq, h.db()->GetLatestSequenceNumber());
  ASSERT_TRUE(h.Put("c", "3").ok());  // numbering continues after recovery
  EXPECT_EQ(seq + 1, h.db()->GetLatestSequenceNumber());
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ("3", h.Get("c"));
  EXPECT_EQ("2", h.Get("b"));
}

TEST(DBBasicTest, MemtableSwitchesKeepDataReadableAndDurable) {
  DBHolder h;
  h.options().write_buffer_size = 64 << 10;
  // Each flush stays one table (no compaction merges them).
  h.options().disable_auto_compactions = true;
  ASSERT_TRUE(h.Open().ok());
  std::atomic<int> retired{0};
  static_cast<DBImpl*>(h.db())->TEST_SetMemTableSwitchCallback(
      [&retired](size_t) { retired++; });
  std::map<std::string, std::string> model;
  for (int i = 0; i < 3000; i++) {
    const std::string k = "key" + std::to_string(i % 1000);
    const std::string v = std::string(100, static_cast<char>('a' + i % 26));
    ASSERT_TRUE(h.Put(k, v).ok());
    model[k] = v;
  }
  EXPECT_GE(retired.load(), 3);
  // Retired memtables went to tables; each one still unflushed keeps its
  // WAL live.
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  uint64_t imm = 0, wals = 0;
  ASSERT_TRUE(h.db()->GetIntProperty("strata.num-immutable-mem-table", &imm));
  ASSERT_TRUE(h.db()->GetIntProperty("strata.num-live-wal-files", &wals));
  EXPECT_EQ(0u, imm);
  EXPECT_EQ(1u, wals);
  // With two memtables at most one waits for a flush (writes stop at two
  // unflushed), so each flush wrote exactly one: a table per memtable.
  EXPECT_EQ(static_cast<size_t>(retired.load()),
            test::ListDBFiles(h.env(), h.name()).tables.size());
  EXPECT_EQ(model, h.Contents());
  ASSERT_TRUE(h.Reopen().ok());
  EXPECT_EQ(model, h.Contents());
  EXPECT_EQ(model["key7"], h.Get("key7"));
}

TEST(DBBasicTest, Properties) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.Put("b", "2").ok());
  uint64_t v = 0;
  ASSERT_TRUE(h.db()->GetIntProperty("strata.estimate-num-keys", &v));
  EXPECT_EQ(2u, v);
  ASSERT_TRUE(h.db()->GetIntProperty("strata.cur-size-all-mem-tables", &v));
  EXPECT_GT(v, 0u);
  std::string s;
  ASSERT_TRUE(h.db()->GetProperty("strata.estimate-num-keys", &s));
  EXPECT_EQ("2", s);
  EXPECT_FALSE(h.db()->GetProperty("strata.no-such-property", &s));
}

TEST(DBBasicTest, DestroyRemovesTheDB) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  // Refused while open.
  EXPECT_FALSE(DestroyDB(h.name(), h.options()).ok());
  ASSERT_TRUE(h.Destroy().ok());
  EXPECT_TRUE(h.env()->FileExists(h.name()).IsNotFound());
  EXPECT_TRUE(DestroyDB(h.name(), h.options()).ok());  // missing: OK
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("NOT_FOUND", h.Get("a"));
}

TEST(DBBasicTest, FilesAreLaidOutAsDocumented) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  std::vector<std::string> children;
  ASSERT_TRUE(h.env()->GetChildren(h.name(), &children).ok());
  int logs = 0, options = 0, identity = 0, lock = 0, info = 0, manifest = 0,
      current = 0;
  for (const std::string& c : children) {
    uint64_t number;
    FileType type;
    if (c == "." || c == "..") continue;
    ASSERT_TRUE(ParseFileName(c, &number, &type)) << c;
    logs += type == FileType::kWalFile;
    options += type == FileType::kOptionsFile;
    identity += type == FileType::kIdentityFile;
    lock += type == FileType::kDBLockFile;
    info += type == FileType::kInfoLogFile;
    manifest += type == FileType::kDescriptorFile;
    current += type == FileType::kCurrentFile;
  }
  EXPECT_EQ(1, logs);
  EXPECT_EQ(1, options);
  EXPECT_EQ(1, identity);
  EXPECT_EQ(1, lock);
  EXPECT_EQ(1, info);
  EXPECT_EQ(1, manifest);
  EXPECT_EQ(1, current);
}

TEST(DBBasicTest, DeletingWithLiveSnapshotsStillReleasesTheDB) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("k", "v").ok());
  h.db()->GetSnapshot();  // never released
  h.Close();              // deletes the DB
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("v", h.Get("k"));
}

TEST(DBBasicTest, FileNumbersStaySmallAcrossReopens) {
  DBHolder h;
  for (int i = 0; i < 4; i++) {
    ASSERT_TRUE(h.Open().ok());  // each open renames LOG to LOG.old.<time>
    ASSERT_TRUE(h.Put("k" + std::to_string(i), "v").ok());
    h.Close();
  }
  std::vector<std::string> children;
  ASSERT_TRUE(h.env()->GetChildren(h.name(), &children).ok());
  for (const std::string& c : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(c, &number, &type) && type == FileType::kWalFile) {
      EXPECT_LT(number, 100u) << c;
    }
  }
}

TEST(DBBasicTest, WALsWithoutCurrentAreNotTakenForANewDB) {
  DBHolder h;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("k", "v").ok());
  h.Close();
  ASSERT_TRUE(h.env()->RemoveFile(h.name() + "/CURRENT").ok());
  Status s = h.Open();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("CURRENT"));
  ASSERT_TRUE(h.Destroy().ok());
  ASSERT_TRUE(h.Open().ok());
  EXPECT_EQ("NOT_FOUND", h.Get("k"));
}

// Readers racing batched writers never see part of a batch: every batch
// writes the same counter value under all of its keys.
TEST(DBBasicTest, ConcurrentReadersSeeWholeBatches) {
  DBHolder h;
  h.options().write_buffer_size = 256 << 10;  // switches under load too
  ASSERT_TRUE(h.Open().ok());
  constexpr int kKeys = 8;
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 3; t++) {
    writers.emplace_back([&, t]() {
      for (int i = 0; i < 1500; i++) {
        WriteBatch batch;
        const std::string v = std::to_string(t * 100000 + i);
        for (int k = 0; k < kKeys; k++) batch.Put("k" + std::to_string(k), v);
        ASSERT_TRUE(h.db()->Write(WriteOptions(), &batch).ok());
      }
    });
  }
  std::thread reader([&]() {
    while (!stop.load()) {
      const Snapshot* snap = h.db()->GetSnapshot();
      std::string first;
      for (int k = 0; k < kKeys; k++) {
        std::string v = h.Get("k" + std::to_string(k), snap);
        if (k == 0) {
          first = v;
        } else if (v != first) {
          torn++;
        }
      }
      h.db()->ReleaseSnapshot(snap);
      std::unique_ptr<Iterator> it(h.db()->NewIterator(ReadOptions()));
      std::string seen;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        if (!seen.empty() && it->value().ToString() != seen) torn++;
        seen = it->value().ToString();
      }
    }
  });
  for (auto& w : writers) w.join();
  stop = true;
  reader.join();
  EXPECT_EQ(0, torn.load());
  EXPECT_EQ(3u * 1500 * kKeys, h.db()->GetLatestSequenceNumber());
}

}  // namespace
}  // namespace strata
