// Two-phase commit's markers in a WriteBatch (docs/formats/write_batch.md,
// "Two-phase commit"): their encoding, byte for byte RocksDB's; how
// Iterate hands them to a handler; the DB refusing them through Write; the
// memtables skipping a prepared section; and recovery keeping the
// sections no commit or rollback resolved.

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "test/db/write_batch_test_util.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

std::string FromHex(const std::string& hex) {
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 3) {
    bytes.push_back(
        static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

std::vector<std::string> Calls(const WriteBatch& batch) {
  test::Recorder recorder;
  Status s = batch.Iterate(&recorder);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return recorder.seen;
}

using Calls_ = std::vector<std::string>;

// The payloads of the WAL records RocksDB 7.8.3 wrote for a TransactionDB
// (WriteCommitted): transaction "xa" prepared (Put k1, Delete k2) and
// committed, "xb" prepared and rolled back, "xc" left prepared (Merge k4,
// Put k5). Read with `ldb dump_wal` and od from a WAL it wrote.
TEST(WriteBatchMarkersTest, DecodesRocksDBsRecords) {
  WriteBatch prepared(
      FromHex("01 00 00 00 00 00 00 00 02 00 00 00 09 01 02 6b 31 02 76 31 "
              "00 02 6b 32 0a 02 78 61 "));
  EXPECT_EQ(
      (Calls_{"BeginPrepare", "Put(k1,v1)", "Delete(k2)", "EndPrepare(xa)"}),
      Calls(prepared));
  EXPECT_TRUE(prepared.HasBeginPrepare());
  EXPECT_TRUE(prepared.HasEndPrepare());
  EXPECT_FALSE(prepared.HasCommit());
  EXPECT_EQ(2u, prepared.Count());

  WriteBatch commit(
      FromHex("01 00 00 00 00 00 00 00 00 00 00 00 0b 02 78 61 "));
  EXPECT_EQ((Calls_{"Commit(xa)"}), Calls(commit));
  EXPECT_TRUE(commit.HasCommit());
  EXPECT_FALSE(commit.HasBeginPrepare());

  WriteBatch rollback(
      FromHex("03 00 00 00 00 00 00 00 00 00 00 00 0c 02 78 62 "));
  EXPECT_EQ((Calls_{"Rollback(xb)"}), Calls(rollback));
  EXPECT_TRUE(rollback.HasRollback());

  WriteBatch open(FromHex(
      "03 00 00 00 00 00 00 00 02 00 00 00 09 02 02 6b 34 01 6d 01 02 6b 35 "
      "02 76 35 0a 02 78 63 "));
  EXPECT_EQ(
      (Calls_{"BeginPrepare", "Merge(k4,m)", "Put(k5,v5)", "EndPrepare(xc)"}),
      Calls(open));
}

// strata writes the bytes RocksDB writes for the same prepared section
// and markers.
TEST(WriteBatchMarkersTest, EncodesAsRocksDB) {
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("k1", "v1").ok());
  ASSERT_TRUE(batch.Delete("k2").ok());
  ASSERT_TRUE(WriteBatchInternal::MarkEndPrepare(&batch, "xa").ok());
  WriteBatchInternal::SetSequence(&batch, 1);
  EXPECT_EQ(FromHex("01 00 00 00 00 00 00 00 02 00 00 00 09 01 02 6b 31 02 "
                    "76 31 00 02 6b 32 0a 02 78 61 "),
            batch.Data());

  WriteBatch commit;
  ASSERT_TRUE(WriteBatchInternal::MarkCommit(&commit, "xa").ok());
  WriteBatchInternal::SetSequence(&commit, 1);
  EXPECT_EQ(FromHex("01 00 00 00 00 00 00 00 00 00 00 00 0b 02 78 61 "),
            commit.Data());
  EXPECT_EQ(0u, commit.Count());

  WriteBatch rollback;
  ASSERT_TRUE(WriteBatchInternal::MarkRollback(&rollback, "xb").ok());
  EXPECT_EQ(FromHex("00 00 00 00 00 00 00 00 00 00 00 00 0c 02 78 62 "),
            rollback.Data());
}

TEST(WriteBatchMarkersTest, MisuseAndDamage) {
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("k", "v").ok());
  EXPECT_TRUE(
      WriteBatchInternal::MarkEndPrepare(&batch, "").IsInvalidArgument());
  EXPECT_FALSE(WriteBatchInternal::HasTwoPhaseMarkers(&batch));
  ASSERT_TRUE(WriteBatchInternal::MarkEndPrepare(&batch, "x").ok());
  const std::string prepared = batch.Data();
  // A second section, or a commit inside a prepared batch, is refused and
  // changes nothing.
  EXPECT_TRUE(
      WriteBatchInternal::MarkEndPrepare(&batch, "y").IsInvalidArgument());
  EXPECT_TRUE(WriteBatchInternal::MarkCommit(&batch, "x").IsInvalidArgument());
  EXPECT_TRUE(
      WriteBatchInternal::MarkRollback(&batch, "x").IsInvalidArgument());
  EXPECT_EQ(prepared, batch.Data());

  // A handler that does not know the markers refuses them as RocksDB's.
  WriteBatch::Handler plain;
  Status s = batch.Iterate(&plain);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ("Invalid argument: MarkBeginPrepare() handler not defined.",
            s.ToString());

  // An xid cut short is Corruption naming it.
  std::string cut = prepared.substr(0, prepared.size() - 1);
  WriteBatch damaged(cut);
  test::Recorder recorder;
  s = damaged.Iterate(&recorder);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("xid")) << s.ToString();

  // Save points set before the section still roll back to what they
  // covered.
  WriteBatch with_point;
  ASSERT_TRUE(with_point.Put("a", "1").ok());
  with_point.SetSavePoint();
  ASSERT_TRUE(with_point.Put("b", "2").ok());
  ASSERT_TRUE(WriteBatchInternal::MarkEndPrepare(&with_point, "t").ok());
  ASSERT_TRUE(with_point.RollbackToSavePoint().ok());
  EXPECT_EQ((Calls_{"BeginPrepare", "Put(a,1)"}), Calls(with_point));
}

// The markers' empty_batch says whether an update came before.
TEST(WriteBatchMarkersTest, NoopSaysWhetherUpdatesCameFirst) {
  WriteBatch batch(
      FromHex("00 00 00 00 00 00 00 00 01 00 00 00 0d 01 01 61 "
              "01 31 0d "));
  EXPECT_EQ((Calls_{"Noop(empty)", "Put(a,1)", "Noop"}), Calls(batch));
}

class TwoPhaseRecoveryTest : public testing::Test {
 protected:
  TwoPhaseRecoveryTest() : dir_(Env::Default(), "two_phase") { Reopen(); }

  void Reopen() {
    db_.reset();
    Options options;
    options.create_if_missing = true;
    options.allow_2pc = allow_2pc_;
    DB* db = nullptr;
    Status s = DB::Open(options, dir_.path(), &db);
    ASSERT_TRUE(s.ok()) << s.ToString();
    db_.reset(db);
  }
  DBImpl* impl() { return static_cast<DBImpl*>(db_.get()); }

  Status WriteMarked(WriteBatch* batch) {
    return impl()->WriteWithCallback(WriteOptions(), batch, nullptr);
  }
  Status Prepare(const std::string& xid, const std::vector<std::string>& keys) {
    WriteBatch batch;
    for (const std::string& k : keys) {
      Status s = batch.Put(k, "prepared-" + xid);
      if (!s.ok()) return s;
    }
    Status s = WriteBatchInternal::MarkEndPrepare(&batch, xid);
    return s.ok() ? WriteMarked(&batch) : s;
  }
  std::string Get(const std::string& key) {
    std::string value;
    Status s = db_->Get(ReadOptions(), key, &value);
    return s.IsNotFound() ? "NOT_FOUND" : s.ok() ? value : s.ToString();
  }

  std::vector<uint64_t> Wals() {
    std::vector<std::string> children;
    EXPECT_TRUE(Env::Default()->GetChildren(dir_.path(), &children).ok());
    std::vector<uint64_t> wals;
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(child, &number, &type) && type == FileType::kWalFile) {
        wals.push_back(number);
      }
    }
    std::sort(wals.begin(), wals.end());
    return wals;
  }
  // Some writes, then a flush: the WAL switches and the older ones hold
  // nothing the tables lack.
  void WriteAndFlush(const std::string& tag) {
    for (int i = 0; i < 20; i++) {
      ASSERT_TRUE(
          db_->Put(WriteOptions(), tag + std::to_string(i), "filler").ok());
    }
    ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
    // Flush returns once the table is in; the WALs it made obsolete are
    // deleted after (the background thread's pass), which Wals() sees.
    ASSERT_TRUE(impl()->WaitForBackgroundWork().ok());
  }

  bool allow_2pc_ = true;
  test::TempDir dir_;
  std::unique_ptr<DB> db_;
};

// A prepared section's WAL outlives the flushes that make its other data
// obsolete, across reopens, until the transaction is resolved and the
// record resolving it is in tables too.
TEST_F(TwoPhaseRecoveryTest, SectionsKeepTheirWalUntilResolved) {
  ASSERT_TRUE(Prepare("kept", {"x", "y"}).ok());
  const uint64_t section_wal = Wals().back();
  WriteAndFlush("a");
  WriteAndFlush("b");
  EXPECT_EQ(section_wal, Wals().front());
  Reopen();
  WriteAndFlush("c");
  Reopen();
  std::map<std::string, RecoveredTransaction> recovered =
      impl()->TakeRecoveredTransactions();
  ASSERT_EQ(1u, recovered.count("kept"));
  EXPECT_EQ(section_wal, recovered["kept"].log_number);
  EXPECT_EQ(2u, recovered["kept"].updates.Count());

  WriteBatch commit;
  ASSERT_TRUE(commit.Put("x", "committed").ok());
  ASSERT_TRUE(WriteBatchInternal::MarkCommit(&commit, "kept").ok());
  ASSERT_TRUE(WriteMarked(&commit).ok());
  const uint64_t commit_wal = Wals().back();
  // Until the commit's own WAL is flushed, the section stays (a crash
  // that lost the commit record must find the transaction prepared).
  EXPECT_EQ(section_wal, Wals().front());
  WriteAndFlush("d");
  WriteAndFlush("e");
  EXPECT_GT(Wals().front(), commit_wal);
  Reopen();
  EXPECT_TRUE(impl()->TakeRecoveredTransactions().empty());
  EXPECT_EQ("committed", Get("x"));
  EXPECT_EQ("NOT_FOUND", Get("y"));
}

// Unflushed writes after a reopen that kept a section's WAL: the WAL that
// open started follows the kept ones (it names its predecessor), so the
// next open replays it rather than taking it for a power loss's hole.
TEST_F(TwoPhaseRecoveryTest, WritesAfterAReopenWithAKeptSectionSurvive) {
  ASSERT_TRUE(Prepare("p", {"x"}).ok());
  Reopen();
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "after").ok());
  WriteBatch commit;
  ASSERT_TRUE(commit.Put("x", "committed").ok());
  ASSERT_TRUE(WriteBatchInternal::MarkCommit(&commit, "p").ok());
  ASSERT_TRUE(WriteMarked(&commit).ok());
  Reopen();
  EXPECT_EQ("after", Get("k"));
  EXPECT_EQ("committed", Get("x"));
  EXPECT_TRUE(impl()->TakeRecoveredTransactions().empty());
  Reopen();
  EXPECT_EQ("after", Get("k"));
  EXPECT_TRUE(impl()->TakeRecoveredTransactions().empty());
}

// A DB that used two-phase commit, reopened without allow_2pc, lets the
// WALs its MANIFEST still names go once nothing needs them.
TEST_F(TwoPhaseRecoveryTest, ReopenedWithout2pcReleasesTheWals) {
  ASSERT_TRUE(Prepare("p", {"x"}).ok());
  WriteBatch rollback;
  ASSERT_TRUE(WriteBatchInternal::MarkRollback(&rollback, "p").ok());
  ASSERT_TRUE(WriteMarked(&rollback).ok());
  WriteAndFlush("a");
  const uint64_t first = Wals().front();
  allow_2pc_ = false;
  Reopen();
  WriteAndFlush("b");
  WriteAndFlush("c");
  EXPECT_GT(Wals().front(), first);
  Reopen();
  EXPECT_EQ("filler", Get("c3"));
  // Without allow_2pc, and without the WAL, markers are refused.
  WriteBatch prepared;
  ASSERT_TRUE(prepared.Put("y", "1").ok());
  ASSERT_TRUE(WriteBatchInternal::MarkEndPrepare(&prepared, "q").ok());
  Status s = WriteMarked(&prepared);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("allow_2pc"));
  allow_2pc_ = true;
  Reopen();
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  s = impl()->WriteWithCallback(no_wal, &prepared, nullptr);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("disableWAL"));
}

TEST_F(TwoPhaseRecoveryTest, PublicWriteRefusesMarkers) {
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("k", "v").ok());
  ASSERT_TRUE(WriteBatchInternal::MarkEndPrepare(&batch, "x").ok());
  Status s = db_->Write(WriteOptions(), &batch);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("two-phase")) << s.ToString();
  // The same from bytes.
  WriteBatch from_bytes(batch.Data());
  EXPECT_TRUE(db_->Write(WriteOptions(), &from_bytes).IsInvalidArgument());
  EXPECT_EQ("NOT_FOUND", Get("k"));
}

TEST_F(TwoPhaseRecoveryTest, PreparedSectionsWaitForTheirCommit) {
  ASSERT_TRUE(db_->Put(WriteOptions(), "before", "1").ok());
  const SequenceNumber start = db_->GetLatestSequenceNumber();
  ASSERT_TRUE(Prepare("committed", {"a", "b"}).ok());
  ASSERT_TRUE(Prepare("rolled-back", {"c"}).ok());
  ASSERT_TRUE(Prepare("open", {"d", "e"}).ok());
  // A prepared section is not applied, but takes its sequence numbers.
  EXPECT_EQ("NOT_FOUND", Get("a"));
  EXPECT_EQ("NOT_FOUND", Get("d"));
  EXPECT_EQ(start + 5, db_->GetLatestSequenceNumber());

  // The commit record carries the updates, then the marker.
  WriteBatch commit;
  ASSERT_TRUE(commit.Put("a", "committed").ok());
  ASSERT_TRUE(commit.Put("b", "committed").ok());
  ASSERT_TRUE(WriteBatchInternal::MarkCommit(&commit, "committed").ok());
  ASSERT_TRUE(WriteMarked(&commit).ok());
  WriteBatch rollback;
  ASSERT_TRUE(WriteBatchInternal::MarkRollback(&rollback, "rolled-back").ok());
  ASSERT_TRUE(WriteMarked(&rollback).ok());
  EXPECT_EQ("committed", Get("a"));
  EXPECT_EQ("NOT_FOUND", Get("c"));
  // Nothing was recovered by this open.
  EXPECT_TRUE(impl()->TakeRecoveredTransactions().empty());

  Reopen();
  // Replay applies the commit's updates and none of the sections; the one
  // never resolved is handed over with its updates.
  EXPECT_EQ("committed", Get("a"));
  EXPECT_EQ("committed", Get("b"));
  EXPECT_EQ("NOT_FOUND", Get("c"));
  EXPECT_EQ("NOT_FOUND", Get("d"));
  EXPECT_EQ("1", Get("before"));
  std::map<std::string, RecoveredTransaction> recovered =
      impl()->TakeRecoveredTransactions();
  ASSERT_EQ(1u, recovered.size());
  ASSERT_EQ("open", recovered.begin()->first);
  EXPECT_NE(0u, recovered.begin()->second.log_number);
  test::Recorder recorder;
  ASSERT_TRUE(recovered.begin()->second.updates.Iterate(&recorder).ok());
  EXPECT_EQ((Calls_{"Put(d,prepared-open)", "Put(e,prepared-open)"}),
            recorder.seen);
  // Handed over once.
  EXPECT_TRUE(impl()->TakeRecoveredTransactions().empty());
  // Sequence numbers go on after the sections' numbers.
  EXPECT_GE(db_->GetLatestSequenceNumber(), start + 7);
}

// Sections that nest or do not end are refused before the WAL: such a
// batch could not have been made by strata's transactions.
TEST_F(TwoPhaseRecoveryTest, MalformedSectionsAreRefused) {
  WriteBatch unended(
      FromHex("00 00 00 00 00 00 00 00 01 00 00 00 09 01 01 61 "
              "01 31 "));
  Status s = WriteMarked(&unended);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  WriteBatch orphan_end(
      FromHex("00 00 00 00 00 00 00 00 00 00 00 00 0a 01 78 "));
  s = WriteMarked(&orphan_end);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  WriteBatch nested(
      FromHex("00 00 00 00 00 00 00 00 00 00 00 00 09 09 0a 01 "
              "78 0a 01 78 "));
  s = WriteMarked(&nested);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  // Refused before the WAL: the DB goes on, and reopens without them.
  ASSERT_TRUE(db_->Put(WriteOptions(), "after", "ok").ok());
  Reopen();
  EXPECT_EQ("ok", Get("after"));
  EXPECT_EQ("NOT_FOUND", Get("a"));
}

}  // namespace
}  // namespace strata
