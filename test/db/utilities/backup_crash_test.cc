// A backup killed at any point leaves the earlier backups intact and is
// cleaned away by the next Open. A child process opens the DB and a
// backup engine and makes a backup, ending itself (as a kill would) at
// the n-th of the backup's kill points (db/utilities/backup/
// backup_writer.h); the parent, for n = 1, 2, ... until a child finishes,
// checks that every earlier backup still verifies with its checksums and
// restores to its exact data, that the next Open removed what the killed
// backup wrote, and that a backup the kill came too late to stop is
// whole.

#include <atomic>
#include <cstring>

#include "strata/utilities/backup_engine.h"
#include "test/db/crash_test_util.h"
#include "test/db/utilities/backup_test_util.h"
#include "test/util/subprocess.h"
#include "util/kill_point.h"

namespace strata {
namespace {

std::atomic<int> g_kill_at{0};

void KillAtNthBackupPoint(const char* name) {
  if (std::strncmp(name, "Backup::", 8) != 0) return;
  if (g_kill_at.fetch_sub(1) == 1) std::_Exit(test::kDiedOnPurpose);
}

// args: DB, backup directory, n (the kill point to die at).
STRATA_TEST_CHILD(BackupUntilKilled) {
  Options options;
  std::vector<ColumnFamilyDescriptor> families;
  for (const std::string& f : test::BackupFamilies()) {
    families.emplace_back(f, ColumnFamilyOptions(options));
  }
  std::vector<ColumnFamilyHandle*> handles;
  DB* db = nullptr;
  if (!DB::Open(options, args.at(0), families, &handles, &db).ok()) return 2;
  // A process is killed, the machine does not lose power: syncing would
  // only slow the test down.
  BackupEngineOptions engine_options(args.at(1));
  engine_options.sync = false;
  BackupEngine* engine = nullptr;
  if (!BackupEngine::Open(engine_options, Env::Default(), &engine).ok()) {
    return 3;
  }
  g_kill_at = std::stoi(args.at(2));
  SetKillPointHook(&KillAtNthBackupPoint);
  const bool ok = engine->CreateNewBackup(CreateBackupOptions(), db).ok();
  SetKillPointHook(nullptr);
  delete engine;
  for (ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h);
  delete db;
  return ok ? 0 : 4;
}

class BackupCrashTest : public test::BackupTestBase {
 protected:
  // Writes keys [from, to) into every family, then flushes.
  void WriteAndFlush(int from, int to) {
    for (int i = from; i < to; i++) {
      ASSERT_TRUE(PutAll("key" + std::to_string(i), std::to_string(i)).ok());
    }
    ASSERT_TRUE(FlushAll().ok());
  }

  // Every earlier backup verifies and restores to its data, and nothing
  // else is in the directory.
  void CheckEarlierBackups(
      BackupEngine* engine,
      const std::vector<std::map<std::string, std::string>>& expected) {
    std::vector<BackupInfo> infos;
    engine->GetBackupInfo(&infos, true);
    std::vector<BackupID> corrupt;
    engine->GetCorruptedBackups(&corrupt);
    EXPECT_TRUE(corrupt.empty());
    ASSERT_EQ(expected.size(), infos.size());
    std::set<std::string> named;
    for (size_t i = 0; i < infos.size(); i++) {
      const BackupID id = infos[i].backup_id;
      ASSERT_EQ(i + 1, id);
      IOStatus s = engine->VerifyBackup(id, true);
      ASSERT_TRUE(s.ok()) << s.ToString();
      const std::string restored = dir_.File("restored");
      s = engine->RestoreDBFromBackup(RestoreOptions(), id, restored, "");
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(expected[i], ContentsOf(restored)) << "backup " << id;
      named.insert("/meta/" + std::to_string(id));
      for (const BackupFileInfo& f : infos[i].file_details) {
        named.insert("/" + f.relative_filename);
      }
    }
    for (const auto& entry : BackupTree()) {
      const std::string& path = entry.first;
      if (path.back() == '/') continue;  // a directory
      EXPECT_EQ(1u, named.count(path)) << "left over: " << path;
    }
    EXPECT_EQ(infos.size(), BackupChildren("private").size());
    EXPECT_EQ(infos.size(), BackupChildren("meta").size());
  }
};

TEST_F(BackupCrashTest, EveryKillPointLeavesTheEarlierBackupsWhole) {
  std::vector<std::map<std::string, std::string>> expected;
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  WriteAndFlush(0, 10);
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  expected.push_back(Contents());
  WriteAndFlush(10, 20);
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  expected.push_back(Contents());
  engine.reset();
  // The killed backups copy a new table and a WAL (and the small files).
  ASSERT_TRUE(db_->Put(WriteOptions(), handles_[1], "new", "table").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  ASSERT_TRUE(PutAll("unflushed", "x").ok());
  const auto now = Contents();
  CloseDB(&db_, &handles_);

  BackupEngineOptions unsynced = EngineOptions();
  unsynced.sync = false;
  int kills = 0, cleaned = 0;
  for (int n = 1; n < 200; n++) {
    SCOPED_TRACE("killed at backup kill point " + std::to_string(n));
    const auto before = BackupTree();
    const int code = test::RunChild("BackupUntilKilled",
                                    {DBName(), BackupDir(), std::to_string(n)});
    ASSERT_TRUE(code == test::kDiedOnPurpose || code == 0) << code;
    const bool finished = code == 0;
    kills += !finished;
    const bool left_something = BackupTree() != before;
    ASSERT_TRUE(OpenEngine(unsynced, &engine).ok());
    std::vector<BackupInfo> infos;
    engine->GetBackupInfo(&infos);
    if (infos.size() == 3) {
      // Killed after the metadata's rename (or not at all): the backup
      // is whole and holds the DB's data.
      expected.push_back(now);
      CheckEarlierBackups(engine.get(), expected);
      expected.pop_back();
      if (finished) break;
      ASSERT_TRUE(engine->DeleteBackup(3).ok());
    } else {
      cleaned += left_something;
    }
    CheckEarlierBackups(engine.get(), expected);
    engine.reset();
    ASSERT_FALSE(finished) << "a finished backup is missing";
  }
  // Kill points in each file's copy and in the metadata's writing.
  EXPECT_GE(kills, 12);
  // Every kill before the metadata's rename left files the Open removed.
  EXPECT_EQ(kills - 1, cleaned);
  ReopenDB();
}

}  // namespace
}  // namespace strata
