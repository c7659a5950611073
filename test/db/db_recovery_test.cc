// WAL recovery: a damaged or torn WAL under each WALRecoveryMode gives the
// documented outcome — an open that fails with a Corruption naming the
// file and offset, or the state the mode promises — and a recovered DB
// keeps later writes across further reopens.

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/write_batch_internal.h"
#include "db/write_thread.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

constexpr int kKeys = 200;

std::string RecoveryKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%04d", i);
  return buf;
}

class DBRecoveryTest : public testing::Test {
 protected:
  // Writes kKeys one-record batches (about six 32 KiB WAL blocks) into a
  // single WAL and closes the DB. crash: the clean close's marker is then
  // cut off the WAL, which ends with the last write, as after a crash.
  void Fill(bool crash = true) {
    ASSERT_TRUE(h_.Open().ok());
    for (int i = 0; i < kKeys; i++) {
      ASSERT_TRUE(h_.Put(RecoveryKey(i), std::string(1000, 'a' + i % 26)).ok());
    }
    h_.Close();
    if (!crash) return;
    const Status s = test::DropCloseMarker(h_.env(), DataWal());
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  std::string WalName() {
    std::vector<std::string> children;
    EXPECT_TRUE(h_.env()->GetChildren(h_.name(), &children).ok());
    uint64_t newest = 0;
    for (const std::string& c : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(c, &number, &type) && type == FileType::kWalFile) {
        newest = std::max(newest, number);
      }
    }
    return LogFileName(h_.name(), newest);
  }

  // The WAL with the most data (Fill writes one; reopening adds empty ones).
  std::string DataWal() {
    std::vector<std::string> children;
    EXPECT_TRUE(h_.env()->GetChildren(h_.name(), &children).ok());
    std::string best;
    uint64_t best_size = 0;
    for (const std::string& c : children) {
      uint64_t number, size;
      FileType type;
      if (ParseFileName(c, &number, &type) && type == FileType::kWalFile &&
          h_.env()->GetFileSize(h_.name() + "/" + c, &size).ok() &&
          size >= best_size) {
        best = h_.name() + "/" + c;
        best_size = size;
      }
    }
    return best;
  }

  void Rewrite(const std::string& fname,
               const std::function<void(std::string*)>& damage) {
    std::string contents;
    ASSERT_TRUE(ReadFileToString(h_.env(), fname, &contents).ok());
    damage(&contents);
    ASSERT_TRUE(WriteStringToFile(h_.env(), contents, fname, true).ok());
  }

  Status OpenWith(WALRecoveryMode mode) {
    h_.Close();
    h_.options().wal_recovery_mode = mode;
    return h_.Open();
  }

  // Which of the Fill keys the DB holds.
  std::vector<bool> Present() {
    std::vector<bool> present(kKeys);
    for (int i = 0; i < kKeys; i++)
      present[i] = h_.Get(RecoveryKey(i)) != "NOT_FOUND";
    return present;
  }

  test::DBHolder h_;
};

TEST_F(DBRecoveryTest, TornTailUnderEachMode) {
  Fill();
  const std::string wal = DataWal();
  Rewrite(wal, [](std::string* c) { c->resize(c->size() - 20); });

  Status s = OpenWith(WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(".log")) << s.ToString();

  for (WALRecoveryMode mode : {WALRecoveryMode::kTolerateCorruptedTailRecords,
                               WALRecoveryMode::kPointInTimeRecovery,
                               WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    ASSERT_TRUE(OpenWith(mode).ok()) << static_cast<int>(mode);
    std::vector<bool> present = Present();
    for (int i = 0; i < kKeys - 1; i++) ASSERT_TRUE(present[i]) << i;
    EXPECT_FALSE(present[kKeys - 1]);
  }
}

TEST_F(DBRecoveryTest, MidFileDamageUnderEachMode) {
  Fill();
  const std::string wal = DataWal();
  uint64_t size = 0;
  ASSERT_TRUE(h_.env()->GetFileSize(wal, &size).ok());
  Rewrite(wal, [size](std::string* c) { (*c)[size / 2] ^= 0x5a; });

  // Point in time too: intact writes follow the damage, so it is no torn
  // tail.
  for (WALRecoveryMode mode : {WALRecoveryMode::kAbsoluteConsistency,
                               WALRecoveryMode::kTolerateCorruptedTailRecords,
                               WALRecoveryMode::kPointInTimeRecovery}) {
    Status s = OpenWith(mode);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("offset")) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(wal)) << s.ToString();
  }

  // Skip: everything but the damaged record(s), including the last key.
  ASSERT_TRUE(OpenWith(WALRecoveryMode::kSkipAnyCorruptedRecords).ok());
  std::vector<bool> skip = Present();
  int missing = 0;
  for (bool p : skip) missing += !p;
  EXPECT_GE(missing, 1);
  EXPECT_LT(missing, kKeys / 2);
  EXPECT_TRUE(skip[kKeys - 1]);
  EXPECT_TRUE(skip[0]);
}

TEST_F(DBRecoveryTest, PointInTimeDropsDamagedTailAndKeepsLaterWrites) {
  Fill();
  const std::string wal = DataWal();
  uint64_t size = 0;
  ASSERT_TRUE(h_.env()->GetFileSize(wal, &size).ok());
  // In the last record: nothing intact follows the damage.
  Rewrite(wal, [size](std::string* c) { (*c)[size - 20] ^= 0x5a; });

  ASSERT_TRUE(OpenWith(WALRecoveryMode::kPointInTimeRecovery).ok());
  std::vector<bool> present = Present();
  int prefix = 0;
  while (prefix < kKeys && present[prefix]) prefix++;
  EXPECT_GT(prefix, 0);
  EXPECT_LT(prefix, kKeys);
  for (int i = prefix; i < kKeys; i++) ASSERT_FALSE(present[i]) << i;

  // Writes after the recovery survive the next reopens, which must not
  // stop at the old damage again.
  ASSERT_TRUE(h_.Put("after", "1").ok());
  ASSERT_TRUE(h_.Put(RecoveryKey(kKeys - 1), "rewritten").ok());
  for (int round = 0; round < 2; round++) {
    ASSERT_TRUE(OpenWith(WALRecoveryMode::kPointInTimeRecovery).ok());
    EXPECT_EQ("1", h_.Get("after"));
    EXPECT_EQ("rewritten", h_.Get(RecoveryKey(kKeys - 1)));
    present = Present();
    for (int i = 0; i < prefix; i++) ASSERT_TRUE(present[i]) << i;
    for (int i = prefix; i < kKeys - 1; i++) ASSERT_FALSE(present[i]) << i;
  }
  // And the damaged WAL is gone: a strict open now succeeds.
  ASSERT_TRUE(OpenWith(WALRecoveryMode::kAbsoluteConsistency).ok());
  EXPECT_EQ("1", h_.Get("after"));
}

TEST_F(DBRecoveryTest, GarbageWalIsCorruptionNotACrash) {
  Fill();
  const std::string wal = DataWal();
  Rewrite(wal, [](std::string* c) {
    for (size_t i = 0; i < c->size(); i++) {
      (*c)[i] = static_cast<char>((i * 131 + 7) & 0xff);
    }
  });
  for (WALRecoveryMode mode : {WALRecoveryMode::kTolerateCorruptedTailRecords,
                               WALRecoveryMode::kAbsoluteConsistency}) {
    Status s = OpenWith(mode);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
  for (WALRecoveryMode mode : {WALRecoveryMode::kPointInTimeRecovery,
                               WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    ASSERT_TRUE(OpenWith(mode).ok());
    ASSERT_TRUE(h_.Put("x", "y").ok());
  }
}

TEST_F(DBRecoveryTest, RecoveryAcrossSeveralWALs) {
  // The first flush is held at a gate until Close begins, and no flush
  // starts once the DB is closing: whatever the background threads would
  // have done, the first memtable ends in a table and every later one in
  // its WAL, so that the reopen replays several WALs.
  test::TableGateEnv gate(Env::Default());
  test::DBHolder h(&gate);
  h.options().write_buffer_size = 64 << 10;
  h.options().max_write_buffer_number = 16;  // no stall behind the gate
  ASSERT_TRUE(h.Open().ok());
  DBImpl* const db = static_cast<DBImpl*>(h.db());
  std::atomic<int> switches{0};
  db->TEST_SetMemTableSwitchCallback([&switches](size_t) { switches++; });
  // Close's barrier (a writer without a batch) lets the held flush end.
  db->TEST_write_thread()->TEST_SetJoinCallback(
      [&gate](WriteThread::Writer* w) {
        if (w->batch == nullptr) gate.Open(true);
      });
  gate.Open(false);
  std::map<std::string, std::string> model;
  bool held = false;
  for (int i = 0; i < 2000; i++) {
    const std::string k = RecoveryKey(i % 300),
                      v = std::string(200, 'v') + std::to_string(i);
    ASSERT_TRUE(h.Put(k, v).ok());
    model[k] = v;
    if (!held && switches.load() > 0) {
      gate.AwaitWaiter();  // the flush of the first memtable alone
      held = true;
    }
  }
  const int retired = switches.load();
  ASSERT_GE(retired, 3) << "the data should fill several memtables";
  ASSERT_TRUE(db->Close().ok());
  const test::DBFiles files = test::ListDBFiles(&gate, h.name());
  EXPECT_EQ(1u, files.tables.size());
  // The WALs of the memtables retired after the first, and the active one's.
  EXPECT_EQ(static_cast<size_t>(retired), files.logs.size());
  h.Close();
  for (int round = 0; round < 3; round++) {
    ASSERT_TRUE(h.Open().ok());
    ASSERT_EQ(model, h.Contents());
    h.Close();
  }
}

}  // namespace
}  // namespace strata
