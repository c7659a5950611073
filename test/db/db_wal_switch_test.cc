// The WAL at a memtable switch (db/db_impl_wal.cc, docs/write_path.md):
// point-in-time recovery leaves the finished WAL unsynced, the other modes
// sync it; a sync=true write or SyncWAL syncs it (and the new WAL's name)
// first, and a failed sync stops writes; a power loss keeps every synced
// write with all before it; a flush deletes it; and when a
// power loss took the end of a retired WAL (or the whole of it, or the
// start of the next one) but kept the WAL after it, recovery does not
// replay past the hole (point in time), goes past it (skip any) or fails
// the open (tolerate tail, absolute). The flush of retired memtables is
// held at a gate, so the retired WALs stay live.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/log_writer.h"
#include "env/file_reader.h"
#include "env/file_writer.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "test/db/compaction_test_util.h"
#include "test/db/db_test_util.h"
#include "test/db/wal_recovery_modes.h"
#include "test/util/fault_injection_env.h"

namespace strata {
namespace {

using test::DBFiles;
using test::DBHolder;
using test::ListDBFiles;
using test::Settle;
using test::TableGateEnv;

bool DefersSync(WALRecoveryMode mode) {
  return mode == WALRecoveryMode::kPointInTimeRecovery;
}

// What a power loss did to one WAL of a copied DB.
enum class Loss {
  kNone,
  kLastRecord,         // its last record is gone
  kWhole,              // the file is gone
  kPredecessorRecord,  // its records survive, its predecessor record not
};

class DBWALSwitchTest : public testing::TestWithParam<WALRecoveryMode> {
 protected:
  DBWALSwitchTest()
      : base_(NewMemEnv(Env::Default())),
        fault_(base_.get()),
        gate_(&fault_),
        h_(&gate_) {
    h_.options().write_buffer_size = 64 << 10;
    h_.options().max_write_buffer_number = 4;  // no stall behind the gate
    h_.options().wal_recovery_mode = GetParam();
  }
  ~DBWALSwitchTest() override {
    gate_.Open(true);  // Close waits for the held flush
    h_.Close();
  }

  // Puts 1 KiB values under a0000, a0001, ... with the flush held, until
  // the DB has `logs` WALs (the newest being written). in_wal[i]: the keys
  // written to the i-th of them; the last key put is the newest WAL's first.
  void FillUntilLogs(size_t logs,
                     std::vector<std::vector<std::string>>* in_wal) {
    gate_.Open(false);
    in_wal->assign(1, {});
    for (int i = 0; i < 3000; i++) {
      char key[16];
      std::snprintf(key, sizeof(key), "a%04d", i);
      ASSERT_TRUE(h_.Put(key, std::string(1024, 'v')).ok());
      const size_t now = ListDBFiles(&gate_, h_.name()).logs.size();
      if (now > in_wal->size()) in_wal->emplace_back();
      in_wal->back().push_back(key);
      if (now == logs) return;
    }
    FAIL() << "fewer than " << logs << " WALs after 3000 KiB";
  }

  // Puts n 1 KiB values under b00, b01, ...
  void PutMore(int n, std::vector<std::string>* keys) {
    for (int i = 0; i < n; i++) {
      char key[16];
      std::snprintf(key, sizeof(key), "b%02d", i);
      ASSERT_TRUE(h_.Put(key, std::string(1024, 'w')).ok());
      keys->push_back(key);
    }
  }

  // Every key has its 1 KiB value in db, or (present false) none.
  static void ExpectKeys(DBHolder* db, const std::vector<std::string>& keys,
                         bool present) {
    for (const std::string& k : keys) {
      const std::string v = db->Get(k);
      if (present) {
        ASSERT_EQ(1024u, v.size()) << k << ": " << v;
      } else {
        ASSERT_EQ("NOT_FOUND", v) << k;
      }
    }
  }

  // Simulates the process dying and the machine losing power: nothing
  // more reaches the files, then only what was synced survives.
  void PowerLoss() {
    fault_.SetFilesystemActive(false);
    gate_.Open(true);
    h_.Close();
    ASSERT_TRUE(fault_.DropUnsyncedFileData().ok());
    ASSERT_TRUE(fault_.DeleteFilesCreatedAfterLastDirSync().ok());
    fault_.ResetState();
    fault_.SetFilesystemActive(true);
  }

  std::string LogPath(uint64_t number) {
    return LogFileName(h_.name(), number);
  }
  uint64_t Size(const std::string& path) {
    uint64_t size = 0;
    EXPECT_TRUE(base_->GetFileSize(path, &size).ok());
    return size;
  }

  // The records of the WAL at path, and where the last one starts.
  std::vector<std::string> Records(const std::string& path,
                                   uint64_t* last_start) {
    std::unique_ptr<SequentialFile> file;
    EXPECT_TRUE(base_->NewSequentialFile(path, &file, EnvOptions()).ok());
    log::Reader reader(
        std::make_unique<SequentialFileReader>(std::move(file), path), nullptr,
        true, 0);
    std::vector<std::string> records;
    Slice record;
    std::string scratch;
    while (reader.ReadRecord(&record, &scratch,
                             WALRecoveryMode::kAbsoluteConsistency)) {
      records.push_back(record.ToString());
    }
    *last_start = reader.LastRecordOffset();
    return records;
  }

  // The same records in a log without the predecessor record.
  std::string WithoutPredecessor(const std::string& path) {
    uint64_t unused;
    const std::vector<std::string> records = Records(path, &unused);
    const std::string out = path + ".rewritten";
    std::unique_ptr<WritableFile> file;
    EXPECT_TRUE(base_->NewWritableFile(out, &file, EnvOptions()).ok());
    log::Writer writer(std::make_unique<WritableFileWriter>(std::move(file),
                                                            out, EnvOptions()),
                       0);
    for (const std::string& r : records) EXPECT_TRUE(writer.AddRecord(r).ok());
    EXPECT_TRUE(writer.Close().ok());
    std::string data;
    EXPECT_TRUE(ReadFileToString(base_.get(), out, &data).ok());
    EXPECT_TRUE(base_->RemoveFile(out).ok());
    return data;
  }

  // Copies the DB's files as they are in the OS, as a machine that lost
  // power might show them, into copy's directory; the WAL numbered
  // damaged suffers loss.
  void CopyTo(DBHolder* copy, uint64_t damaged, Loss loss) {
    std::vector<std::string> children;
    ASSERT_TRUE(base_->GetChildren(h_.name(), &children).ok());
    ASSERT_TRUE(base_->CreateDirIfMissing(copy->name()).ok());
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(child, &number, &type) ||
          type == FileType::kDBLockFile) {
        continue;
      }
      const std::string from = h_.name() + "/" + child;
      std::string data;
      ASSERT_TRUE(ReadFileToString(base_.get(), from, &data).ok());
      if (type == FileType::kWalFile && number == damaged) {
        uint64_t last_start = 0;
        switch (loss) {
          case Loss::kNone:
            break;
          case Loss::kLastRecord:
            Records(from, &last_start);
            data.resize(last_start);
            break;
          case Loss::kWhole:
            continue;
          case Loss::kPredecessorRecord:
            data = WithoutPredecessor(from);
            break;
        }
      }
      ASSERT_TRUE(WriteStringToFile(base_.get(), data,
                                    copy->name() + "/" + child, false)
                      .ok());
    }
  }

  // Opens a copy of the DB in which WAL damaged suffered loss; the status.
  Status OpenCopy(DBHolder* copy, uint64_t damaged, Loss loss) {
    copy->options().wal_recovery_mode = GetParam();
    CopyTo(copy, damaged, loss);
    return copy->Open();
  }

  // Checks a copy opened (status s) after WAL damaged (an index into
  // in_wal) suffered loss: tolerate-tail and absolute consistency fail
  // with a Corruption containing message; point in time holds the writes
  // before the hole and nothing after it; skip-any everything that
  // survived.
  void ExpectRecovery(DBHolder* copy, const Status& s,
                      std::vector<std::vector<std::string>> in_wal,
                      size_t damaged, Loss loss, const std::string& message) {
    if (GetParam() == WALRecoveryMode::kTolerateCorruptedTailRecords ||
        GetParam() == WALRecoveryMode::kAbsoluteConsistency) {
      ASSERT_TRUE(s.IsCorruption()) << s.ToString();
      EXPECT_NE(std::string::npos, s.ToString().find(message)) << s.ToString();
      return;
    }
    ASSERT_TRUE(s.ok()) << s.ToString();
    const bool skip = GetParam() == WALRecoveryMode::kSkipAnyCorruptedRecords;
    std::vector<std::string> lost;
    if (loss == Loss::kLastRecord) {
      lost.push_back(in_wal[damaged].back());
      in_wal[damaged].pop_back();
    }
    for (size_t i = 0; i < in_wal.size(); i++) {
      bool present = i < damaged || skip;
      if (i == damaged) {
        present = loss == Loss::kLastRecord ||
                  (loss == Loss::kPredecessorRecord && skip);
      }
      ExpectKeys(copy, in_wal[i], present);
    }
    ExpectKeys(copy, lost, false);
    // The hole does not come back: the open made the recovered state
    // durable and the damaged WALs obsolete.
    const std::string after_hole = in_wal.back().back();
    const std::string before = copy->Get(after_hole);
    ASSERT_TRUE(copy->Put("c", "3").ok());
    ASSERT_TRUE(copy->Reopen().ok());
    EXPECT_EQ("3", copy->Get("c"));
    EXPECT_EQ(before, copy->Get(after_hole));
  }

  std::unique_ptr<Env> base_;
  test::FaultInjectionEnv fault_;
  TableGateEnv gate_;
  DBHolder h_;
};

TEST_P(DBWALSwitchTest, RetiredWALsAreSyncedAtTheSwitchOrByTheNextSyncedWrite) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(3, &in_wal);
  const DBFiles files = ListDBFiles(&gate_, h_.name());
  ASSERT_EQ(3u, files.logs.size());
  for (size_t i = 0; i < 2; i++) {
    const std::string retired = LogPath(files.logs[i]);
    if (DefersSync(GetParam())) {
      EXPECT_EQ(0u, fault_.SyncedSize(retired));  // no fsync stalled writers
    } else {
      EXPECT_EQ(Size(retired), fault_.SyncedSize(retired));
    }
  }
  WriteOptions sync;
  sync.sync = true;
  ASSERT_TRUE(h_.db()->Put(sync, "synced", "1").ok());
  // Everything the synced write follows is durable with it.
  for (uint64_t log : files.logs) {
    EXPECT_EQ(Size(LogPath(log)), fault_.SyncedSize(LogPath(log))) << log;
  }
  ASSERT_TRUE(h_.Put("after", "2").ok());
  ASSERT_TRUE(h_.db()->SyncWAL().ok());
  EXPECT_EQ(Size(LogPath(files.logs[2])),
            fault_.SyncedSize(LogPath(files.logs[2])));
}

TEST_P(DBWALSwitchTest, PowerLossKeepsEverySyncedWriteWithAllBeforeIt) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(2, &in_wal);
  WriteOptions sync;
  sync.sync = true;
  ASSERT_TRUE(h_.db()->Put(sync, "synced", "1").ok());
  std::vector<std::string> unsynced;
  PutMore(2, &unsynced);
  PowerLoss();
  ASSERT_TRUE(h_.Open().ok());
  // The new WAL's name was made durable too, or "synced" would be gone.
  EXPECT_EQ("1", h_.Get("synced"));
  ExpectKeys(&h_, in_wal[0], true);
  ExpectKeys(&h_, in_wal[1], true);
}

TEST_P(DBWALSwitchTest, FailedSyncOfTheWALsStopsWrites) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(2, &in_wal);
  fault_.FailAll(test::IOKind::kSync, Status::IOError("injected sync"));
  WriteOptions sync;
  sync.sync = true;
  EXPECT_TRUE(h_.db()->Put(sync, "synced", "1").IsIOError());
  fault_.ClearFailures();
  // A retry could find the pages dropped and the sync "done".
  EXPECT_FALSE(h_.Put("later", "2").ok());
  EXPECT_FALSE(h_.db()->Put(sync, "later", "2").ok());
}

TEST_P(DBWALSwitchTest, FailedSyncWALStopsWrites) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(2, &in_wal);
  fault_.FailAll(test::IOKind::kSync, Status::IOError("injected sync"));
  EXPECT_TRUE(h_.db()->SyncWAL().IsIOError());
  fault_.ClearFailures();
  EXPECT_FALSE(h_.Put("later", "2").ok());
  ExpectKeys(&h_, in_wal[0], true);  // reads go on
}

TEST_P(DBWALSwitchTest, FlushDeletesRetiredWALs) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(3, &in_wal);
  gate_.Open(true);
  // Both flushes, and the deletions after them, run in the background.
  ASSERT_TRUE(Settle(h_.db()).ok());
  EXPECT_EQ(1u, ListDBFiles(&gate_, h_.name()).logs.size());
  ASSERT_TRUE(h_.db()->SyncWAL().ok());
  ASSERT_TRUE(h_.Reopen().ok());
  for (const auto& keys : in_wal) ExpectKeys(&h_, keys, true);
}

TEST_P(DBWALSwitchTest, IntactRetiredWALRecoversWhole) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(2, &in_wal);
  PutMore(1, &in_wal.back());
  DBHolder copy(base_.get());
  ASSERT_TRUE(OpenCopy(&copy, 0, Loss::kNone).ok());
  for (const auto& keys : in_wal) ExpectKeys(&copy, keys, true);
}

TEST_P(DBWALSwitchTest, LostEndOfARetiredWALIsAHole) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(2, &in_wal);
  ASSERT_GE(in_wal[0].size(), 2u);
  PutMore(1, &in_wal.back());
  const uint64_t retired = ListDBFiles(&gate_, h_.name()).logs[0];
  DBHolder copy(base_.get());
  // The OS wrote the new WAL back but not the last record of the old one.
  const Status s = OpenCopy(&copy, retired, Loss::kLastRecord);
  ExpectRecovery(&copy, s, in_wal, 0, Loss::kLastRecord,
                 "follows WAL #" + std::to_string(retired) + " of ");
}

TEST_P(DBWALSwitchTest, LostEndOfTheMiddleWALIsAHole) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(3, &in_wal);
  ASSERT_GE(in_wal[1].size(), 2u);
  PutMore(1, &in_wal.back());
  const uint64_t middle = ListDBFiles(&gate_, h_.name()).logs[1];
  DBHolder copy(base_.get());
  const Status s = OpenCopy(&copy, middle, Loss::kLastRecord);
  ExpectRecovery(&copy, s, in_wal, 1, Loss::kLastRecord,
                 "whose records end at byte");
}

TEST_P(DBWALSwitchTest, MissingRetiredWALIsAHole) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(2, &in_wal);
  PutMore(1, &in_wal.back());
  const uint64_t retired = ListDBFiles(&gate_, h_.name()).logs[0];
  DBHolder copy(base_.get());
  // Its name was never made durable; the newer WAL's was.
  const Status s = OpenCopy(&copy, retired, Loss::kWhole);
  ExpectRecovery(&copy, s, in_wal, 0, Loss::kWhole, "which is missing");
}

TEST_P(DBWALSwitchTest, LostPredecessorRecordIsAHole) {
  ASSERT_TRUE(h_.Open().ok());
  std::vector<std::vector<std::string>> in_wal;
  FillUntilLogs(2, &in_wal);
  PutMore(1, &in_wal.back());
  const uint64_t current = ListDBFiles(&gate_, h_.name()).logs[1];
  DBHolder copy(base_.get());
  const Status s = OpenCopy(&copy, current, Loss::kPredecessorRecord);
  ExpectRecovery(&copy, s, in_wal, 1, Loss::kPredecessorRecord,
                 "no predecessor record");
}

INSTANTIATE_TEST_SUITE_P(RecoveryModes, DBWALSwitchTest,
                         test::AllWALRecoveryModes(),
                         test::WALRecoveryModeName);

}  // namespace
}  // namespace strata
