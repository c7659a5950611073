// BackupEngine: keeping the backup directory. Purging, deleting and
// garbage collection leave exactly the files the remaining backups name;
// VerifyBackup finds a changed size without checksums and a flipped byte
// with them; damaged backups are listed, skipped and refused by name; a
// restore onto an open DB is refused; the read-only engine changes
// nothing; bad input gives errors.

#include <set>

#include "strata/utilities/backup_engine.h"
#include "test/db/utilities/backup_test_util.h"

namespace strata {
namespace {

class BackupMaintenanceTest : public test::BackupTestBase {
 protected:
  // Makes backup n (1, 2, ...) after writing key "k<n>" and, for n > 1,
  // compacting every family (so that the backups hold different tables);
  // returns the DB's contents it holds.
  std::map<std::string, std::string> MakeBackup(BackupEngine* engine, int n) {
    EXPECT_TRUE(PutAll("k" + std::to_string(n), std::to_string(n)).ok());
    if (n > 1) {
      for (ColumnFamilyHandle* h : handles_) {
        EXPECT_TRUE(
            db_->CompactRange(CompactRangeOptions(), h, nullptr, nullptr).ok());
      }
    }
    CreateBackupOptions flush;
    flush.flush_before_backup = true;
    BackupID id = 0;
    IOStatus s = engine->CreateNewBackup(flush, db_.get(), &id);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(static_cast<BackupID>(n), id);
    return Contents();
  }

  // The shared files the engine's backups name.
  std::set<std::string> SharedNamed(const BackupEngine& engine) {
    std::vector<BackupInfo> infos;
    engine.GetBackupInfo(&infos, true);
    std::set<std::string> named;
    for (const BackupInfo& info : infos) {
      for (const BackupFileInfo& f : info.file_details) {
        if (f.relative_filename.compare(0, 16, "shared_checksum/") == 0) {
          named.insert(f.relative_filename.substr(16));
        }
      }
    }
    return named;
  }

  std::set<std::string> SharedStored() {
    std::vector<std::string> names = BackupChildren("shared_checksum");
    return std::set<std::string>(names.begin(), names.end());
  }

  std::string BackupFile(const BackupEngine& engine, BackupID id,
                         FileType type) {
    BackupInfo info;
    EXPECT_TRUE(engine.GetBackupInfo(id, &info, true).ok());
    for (const BackupFileInfo& f : info.file_details) {
      if (f.file_type == type) return BackupDir() + "/" + f.relative_filename;
    }
    ADD_FAILURE() << "backup " << id << " has no file of type " << type;
    return "";
  }

  std::vector<BackupID> Ids(const BackupEngineReadOnlyBase& engine) {
    std::vector<BackupInfo> infos;
    engine.GetBackupInfo(&infos);
    std::vector<BackupID> ids;
    for (const BackupInfo& info : infos) ids.push_back(info.backup_id);
    return ids;
  }

  std::vector<BackupID> Corrupt(const BackupEngineReadOnlyBase& engine) {
    std::vector<BackupID> ids;
    engine.GetCorruptedBackups(&ids);
    return ids;
  }
};

TEST_F(BackupMaintenanceTest, PurgeDeleteAndCollectLeaveOnlyNamedFiles) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  MakeBackup(engine.get(), 1);
  MakeBackup(engine.get(), 2);
  const auto third = MakeBackup(engine.get(), 3);
  const std::set<std::string> all = SharedNamed(*engine);
  EXPECT_EQ(all, SharedStored());

  ASSERT_TRUE(engine->PurgeOldBackups(1).ok());
  EXPECT_EQ(std::vector<BackupID>{3}, Ids(*engine));
  const std::set<std::string> kept = SharedNamed(*engine);
  EXPECT_LT(kept.size(), all.size());  // the compactions replaced tables
  EXPECT_EQ(kept, SharedStored());
  EXPECT_EQ(std::vector<std::string>{"3"}, BackupChildren("private"));
  EXPECT_EQ(std::vector<std::string>{"3"}, BackupChildren("meta"));
  EXPECT_TRUE(engine->VerifyBackup(1).IsNotFound());
  EXPECT_TRUE(engine->DeleteBackup(1).IsNotFound());
  ASSERT_TRUE(engine->PurgeOldBackups(1).ok());  // nothing more to do
  EXPECT_EQ(std::vector<BackupID>{3}, Ids(*engine));

  // Garbage of every kind goes; backup 3 stays whole.
  const std::string dir = BackupDir();
  ASSERT_TRUE(WriteStringToFile(&env_, "x",
                                dir + "/shared_checksum/000099_1_1.sst", false)
                  .ok());
  ASSERT_TRUE(WriteStringToFile(&env_, "x",
                                dir + "/shared_checksum/000098.sst.tmp", false)
                  .ok());
  ASSERT_TRUE(env_.CreateDir(dir + "/private/7").ok());
  ASSERT_TRUE(
      WriteStringToFile(&env_, "x", dir + "/private/7/CURRENT", false).ok());
  ASSERT_TRUE(WriteStringToFile(&env_, "x", dir + "/meta/8.tmp", false).ok());
  ASSERT_TRUE(engine->GarbageCollect().ok());
  EXPECT_EQ(kept, SharedStored());
  EXPECT_EQ(std::vector<std::string>{"3"}, BackupChildren("private"));
  EXPECT_EQ(std::vector<std::string>{"3"}, BackupChildren("meta"));
  EXPECT_TRUE(engine->VerifyBackup(3, true).ok());
  const std::string restored = dir_.File("restored");
  ASSERT_TRUE(
      engine->RestoreDBFromBackup(RestoreOptions(), 3, restored, "").ok());
  EXPECT_EQ(third, ContentsOf(restored));

  // A deletion cut short after its metadata file went: the next Open
  // finishes it.
  MakeBackup(engine.get(), 4);
  engine.reset();
  ASSERT_TRUE(env_.RemoveFile(dir + "/meta/4").ok());
  ASSERT_TRUE(OpenEngine(&engine).ok());
  EXPECT_EQ(std::vector<BackupID>{3}, Ids(*engine));
  EXPECT_EQ(std::vector<std::string>{"3"}, BackupChildren("private"));
  EXPECT_EQ(kept, SharedStored());

  ASSERT_TRUE(engine->DeleteBackup(3).ok());
  EXPECT_TRUE(Ids(*engine).empty());
  EXPECT_TRUE(SharedStored().empty());
  EXPECT_TRUE(BackupChildren("private").empty());
  EXPECT_TRUE(BackupChildren("meta").empty());
  BackupInfo info;
  EXPECT_TRUE(engine->GetLatestBackupInfo(&info).IsNotFound());
}

TEST_F(BackupMaintenanceTest, VerifyFindsSizesWithoutAndBytesWithChecksums) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  MakeBackup(engine.get(), 1);
  MakeBackup(engine.get(), 2);
  EXPECT_TRUE(engine->VerifyBackup(1, true).ok());
  EXPECT_TRUE(engine->VerifyBackup(2, true).ok());

  // A flipped byte in a table of backup 1 only.
  std::set<std::string> only_first;
  {
    BackupInfo first, later;
    ASSERT_TRUE(engine->GetBackupInfo(1, &first, true).ok());
    ASSERT_TRUE(engine->GetBackupInfo(2, &later, true).ok());
    std::set<std::string> in_second;
    for (const BackupFileInfo& f : later.file_details) {
      in_second.insert(f.relative_filename);
    }
    for (const BackupFileInfo& f : first.file_details) {
      if (f.file_type == kTableFile &&
          in_second.count(f.relative_filename) == 0)
        only_first.insert(f.relative_filename);
    }
  }
  ASSERT_FALSE(only_first.empty());
  const std::string table = BackupDir() + "/" + *only_first.begin();
  ASSERT_TRUE(test::FlipByte(&env_, table, 100).ok());
  EXPECT_TRUE(engine->VerifyBackup(1).ok());  // the size is right
  IOStatus s = engine->VerifyBackup(1, true);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(table)) << s.ToString();
  EXPECT_TRUE(engine->VerifyBackup(2, true).ok());

  // Restoring it fails naming the file and leaves no DB behind.
  const std::string restored = dir_.File("restored");
  s = engine->RestoreDBFromBackup(RestoreOptions(), 1, restored, restored);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(*only_first.begin()))
      << s.ToString();
  EXPECT_TRUE(env_.FileExists(restored + "/CURRENT").IsNotFound());

  // A private file one byte longer: found without checksums.
  const std::string manifest = BackupFile(*engine, 2, kDescriptorFile);
  std::string contents;
  ASSERT_TRUE(ReadFileToString(&env_, manifest, &contents).ok());
  ASSERT_TRUE(WriteStringToFile(&env_, contents + "!", manifest, false).ok());
  s = engine->VerifyBackup(2);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(manifest)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("bytes")) << s.ToString();
  ASSERT_TRUE(WriteStringToFile(&env_, contents, manifest, false).ok());
  EXPECT_TRUE(engine->VerifyBackup(2, true).ok());

  // A missing one: NotFound naming it.
  const std::string options_file = BackupFile(*engine, 2, kOptionsFile);
  ASSERT_TRUE(env_.RemoveFile(options_file).ok());
  s = engine->VerifyBackup(2);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(options_file)) << s.ToString();
  // A restore of it is refused before the target is touched.
  ASSERT_TRUE(engine->RestoreDBFromBackup(RestoreOptions(), 2, restored, "")
                  .IsCorruption());
  EXPECT_TRUE(env_.FileExists(restored + "/CURRENT").IsNotFound());
}

TEST_F(BackupMaintenanceTest, DamagedBackupsAreListedSkippedAndDeletable) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  const auto first = MakeBackup(engine.get(), 1);
  MakeBackup(engine.get(), 2);
  MakeBackup(engine.get(), 3);
  // 3 loses a file; 2's metadata file is damaged.
  ASSERT_TRUE(env_.RemoveFile(BackupFile(*engine, 3, kOptionsFile)).ok());
  engine.reset();
  const std::string meta2 = BackupDir() + "/meta/2";
  ASSERT_TRUE(test::FlipByte(&env_, meta2, 30).ok());

  ASSERT_TRUE(OpenEngine(&engine).ok());
  EXPECT_EQ((std::vector<BackupID>{2, 3}), Corrupt(*engine));
  EXPECT_EQ(std::vector<BackupID>{1}, Ids(*engine));
  BackupInfo info;
  Status s = engine->GetBackupInfo(2, &info);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(meta2)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("checksum")) << s.ToString();
  EXPECT_TRUE(engine->GetBackupInfo(3, &info).IsCorruption());
  ASSERT_TRUE(engine->GetLatestBackupInfo(&info).ok());
  EXPECT_EQ(1u, info.backup_id);

  const std::string restored = dir_.File("restored");
  s = engine->RestoreDBFromBackup(RestoreOptions(), 2, restored, restored);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("backup 2")) << s.ToString();
  EXPECT_TRUE(engine->VerifyBackup(2).IsCorruption());
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(restored, restored).ok());
  EXPECT_EQ(first, ContentsOf(restored));
  // Backup 3's other files are kept: the backup is damaged, not garbage.
  EXPECT_EQ(3u, BackupChildren("private").size());

  // A cut metadata file says so.
  engine.reset();
  std::string text;
  ASSERT_TRUE(ReadFileToString(&env_, BackupDir() + "/meta/1", &text).ok());
  ASSERT_TRUE(WriteStringToFile(&env_, text.substr(0, text.size() / 2),
                                BackupDir() + "/meta/1", false)
                  .ok());
  ASSERT_TRUE(OpenEngine(&engine).ok());
  EXPECT_EQ((std::vector<BackupID>{1, 2, 3}), Corrupt(*engine));
  s = engine->GetBackupInfo(1, &info);
  EXPECT_NE(std::string::npos, s.ToString().find("cut short")) << s.ToString();
  EXPECT_TRUE(
      engine->RestoreDBFromLatestBackup(restored, restored).IsNotFound());

  for (BackupID id : {1, 2, 3}) ASSERT_TRUE(engine->DeleteBackup(id).ok());
  EXPECT_TRUE(Corrupt(*engine).empty());
  EXPECT_TRUE(BackupChildren("meta").empty());
  EXPECT_TRUE(BackupChildren("private").empty());
  EXPECT_TRUE(SharedStored().empty());
}

TEST_F(BackupMaintenanceTest, AMissingSharedTableIsCopiedAgain) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  const auto first = MakeBackup(engine.get(), 1);
  const std::string table = BackupFile(*engine, 1, kTableFile);
  ASSERT_TRUE(env_.RemoveFile(table).ok());
  engine.reset();
  ASSERT_TRUE(OpenEngine(&engine).ok());
  EXPECT_EQ(std::vector<BackupID>{1}, Corrupt(*engine));
  // The DB still has the table: the next backup stores it again rather
  // than naming the missing file.
  BackupID id = 0;
  ASSERT_TRUE(
      engine->CreateNewBackup(CreateBackupOptions(), db_.get(), &id).ok());
  EXPECT_TRUE(engine->VerifyBackup(id, true).ok());
  EXPECT_TRUE(env_.FileExists(table).ok());
  engine.reset();
  ASSERT_TRUE(OpenEngine(&engine).ok());
  EXPECT_TRUE(Corrupt(*engine).empty());
  const std::string restored = dir_.File("restored");
  ASSERT_TRUE(
      engine->RestoreDBFromBackup(RestoreOptions(), 1, restored, "").ok());
  EXPECT_EQ(first, ContentsOf(restored));
}

TEST_F(BackupMaintenanceTest, ARestoreOntoAnOpenDBIsRefused) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  const auto first = MakeBackup(engine.get(), 1);
  ASSERT_TRUE(PutAll("after", "x").ok());
  const auto now = Contents();
  IOStatus s =
      engine->RestoreDBFromBackup(RestoreOptions(), 1, DBName(), DBName());
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("in use")) << s.ToString();
  EXPECT_TRUE(engine->RestoreDBFromLatestBackup(DBName(), DBName()).IsBusy());
  EXPECT_EQ(now, Contents());  // the DB ran on untouched
  ASSERT_TRUE(PutAll("still", "writable").ok());

  CloseDB(&db_, &handles_);
  ASSERT_TRUE(
      engine->RestoreDBFromBackup(RestoreOptions(), 1, DBName(), DBName())
          .ok());
  EXPECT_EQ(first, ContentsOf(DBName()));
  ReopenDB();
}

TEST_F(BackupMaintenanceTest, TheReadOnlyEngineChangesNothing) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  MakeBackup(engine.get(), 1);
  const auto second = MakeBackup(engine.get(), 2);
  const auto third = MakeBackup(engine.get(), 3);
  ASSERT_TRUE(env_.RemoveFile(BackupFile(*engine, 1, kOptionsFile)).ok());
  engine.reset();
  // What a writable engine would collect.
  const std::string dir = BackupDir();
  ASSERT_TRUE(env_.CreateDir(dir + "/private/9").ok());
  ASSERT_TRUE(
      WriteStringToFile(&env_, "x", dir + "/private/9/CURRENT", false).ok());
  ASSERT_TRUE(WriteStringToFile(&env_, "x",
                                dir + "/shared_checksum/000097.sst.tmp", false)
                  .ok());
  ASSERT_TRUE(WriteStringToFile(&env_, "x", dir + "/meta/9.tmp", false).ok());
  const auto tree = BackupTree();

  BackupEngineReadOnly* raw = nullptr;
  ASSERT_TRUE(BackupEngineReadOnly::Open(EngineOptions(), &env_, &raw).ok());
  std::unique_ptr<BackupEngineReadOnly> reader(raw);
  EXPECT_EQ((std::vector<BackupID>{2, 3}), Ids(*reader));
  EXPECT_EQ(std::vector<BackupID>{1}, Corrupt(*reader));
  EXPECT_TRUE(reader->VerifyBackup(3, true).ok());
  const std::string restored = dir_.File("restored");
  ASSERT_TRUE(
      reader->RestoreDBFromBackup(RestoreOptions(), 2, restored, restored)
          .ok());
  EXPECT_EQ(second, ContentsOf(restored));
  ASSERT_TRUE(reader->RestoreDBFromLatestBackup(restored, restored).ok());
  EXPECT_EQ(third, ContentsOf(restored));
  reader.reset();
  EXPECT_EQ(tree, BackupTree());

  // Only the newest good backups, when asked.
  BackupEngineOptions newest = EngineOptions();
  newest.max_valid_backups_to_open = 1;
  ASSERT_TRUE(BackupEngineReadOnly::Open(newest, &env_, &raw).ok());
  reader.reset(raw);
  EXPECT_EQ(std::vector<BackupID>{3}, Ids(*reader));
  EXPECT_TRUE(reader->VerifyBackup(2).IsNotFound());
  reader.reset();

  // No directory: nothing is created.
  const std::string missing = dir_.File("missing");
  Status s =
      BackupEngineReadOnly::Open(BackupEngineOptions(missing), &env_, &raw);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(missing + "/meta"))
      << s.ToString();
  EXPECT_EQ(nullptr, raw);
  EXPECT_TRUE(env_.FileExists(missing).IsNotFound());
}

TEST_F(BackupMaintenanceTest, BadInputIsAnError) {
  BackupEngine* raw = nullptr;
  // A file where the directory should be.
  const std::string file = dir_.File("file");
  ASSERT_TRUE(WriteStringToFile(&env_, "x", file, false).ok());
  IOStatus s = BackupEngine::Open(BackupEngineOptions(file), &env_, &raw);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("not a directory"))
      << s.ToString();
  EXPECT_EQ(nullptr, raw);
  BackupEngineReadOnly* reader = nullptr;
  EXPECT_FALSE(
      BackupEngineReadOnly::Open(BackupEngineOptions(file), &env_, &reader)
          .ok());
  EXPECT_TRUE(BackupEngine::Open(BackupEngineOptions(""), &env_, &raw)
                  .IsInvalidArgument());
  EXPECT_FALSE(
      BackupEngine::Open(BackupEngineOptions(dir_.File("no/such")), &env_, &raw)
          .ok());
  EXPECT_TRUE(env_.FileExists(dir_.File("no")).IsNotFound());
  EXPECT_TRUE(
      BackupEngine::Open(EngineOptions(), &env_, nullptr).IsInvalidArgument());

  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  EXPECT_TRUE(engine->CreateNewBackup(CreateBackupOptions(), nullptr)
                  .IsInvalidArgument());
  BackupInfo info;
  EXPECT_TRUE(engine->GetBackupInfo(42, &info).IsNotFound());
  EXPECT_TRUE(engine->VerifyBackup(42).IsNotFound());
  EXPECT_TRUE(engine->DeleteBackup(42).IsNotFound());
  const std::string restored = dir_.File("restored");
  s = engine->RestoreDBFromBackup(RestoreOptions(), 42, restored, restored);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("backup 42")) << s.ToString();
  EXPECT_TRUE(
      engine->RestoreDBFromLatestBackup(restored, restored).IsNotFound());
  MakeBackup(engine.get(), 1);
  s = engine->RestoreDBFromBackup(RestoreOptions(), 1, restored,
                                  dir_.File("wal"));
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_TRUE(engine->RestoreDBFromBackup(RestoreOptions(), 1, "", "")
                  .IsInvalidArgument());

  // A DB the engine cannot read (its files are in another Env): an error
  // naming a file, and no backup.
  std::unique_ptr<Env> mem(NewMemEnv(Env::Default()));
  ASSERT_TRUE(mem->CreateDirIfMissing("/mem").ok());
  Options mem_options;
  mem_options.create_if_missing = true;
  mem_options.env = mem.get();
  std::unique_ptr<DB> mem_db;
  Status opened = DB::Open(mem_options, "/mem/db", &mem_db);
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  ASSERT_TRUE(mem_db->Put(WriteOptions(), "k", "v").ok());
  const auto tree = BackupTree();
  s = engine->CreateNewBackup(CreateBackupOptions(), mem_db.get());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string::npos, s.ToString().find("/mem/db/")) << s.ToString();
  EXPECT_EQ(tree, BackupTree());
  EXPECT_EQ(std::vector<BackupID>{1}, Ids(*engine));
  // Its deletions were enabled again: a compaction's inputs go.
  ASSERT_TRUE(mem_db->Flush(FlushOptions()).ok());
  ASSERT_TRUE(mem_db->Put(WriteOptions(), "k", "w").ok());
  ASSERT_TRUE(mem_db->Flush(FlushOptions()).ok());
  ASSERT_TRUE(
      mem_db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  std::vector<std::string> names;
  ASSERT_TRUE(mem->GetChildren("/mem/db", &names).ok());
  int tables = 0;
  for (const std::string& n : names) tables += n.find(".sst") != n.npos;
  EXPECT_EQ(1, tables);
}

TEST_F(BackupMaintenanceTest, AStoppedBackupLeavesNothing) {
  for (int i = 0; i < 20; i++) {
    ASSERT_TRUE(PutAll("k" + std::to_string(i), std::string(1000, 'v')).ok());
  }
  BackupEngineOptions options = EngineOptions();
  options.callback_trigger_interval_size = 1;
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(options, &engine).ok());
  const auto tree = BackupTree();
  // Stopped from the copy's progress callback, after its first file.
  CreateBackupOptions create;
  create.flush_before_backup = true;
  create.progress_callback = [&engine] { engine->StopBackup(); };
  IOStatus s = engine->CreateNewBackup(create, db_.get());
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  EXPECT_EQ(tree, BackupTree());
  // Stopped for good.
  EXPECT_TRUE(engine->CreateNewBackup(db_.get()).IsIncomplete());
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  EXPECT_TRUE(infos.empty());
  // Another engine backs up.
  engine.reset();
  ASSERT_TRUE(OpenEngine(&engine).ok());
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
}

TEST_F(BackupMaintenanceTest, DestroyOldDataStartsAfresh) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  MakeBackup(engine.get(), 1);
  MakeBackup(engine.get(), 2);
  engine.reset();
  BackupEngineOptions options = EngineOptions();
  options.destroy_old_data = true;
  ASSERT_TRUE(OpenEngine(options, &engine).ok());
  EXPECT_TRUE(Ids(*engine).empty());
  EXPECT_TRUE(BackupChildren("meta").empty());
  EXPECT_TRUE(BackupChildren("private").empty());
  EXPECT_TRUE(SharedStored().empty());
  BackupID id = 0;
  ASSERT_TRUE(
      engine->CreateNewBackup(CreateBackupOptions(), db_.get(), &id).ok());
  EXPECT_EQ(1u, id);
}

}  // namespace
}  // namespace strata
