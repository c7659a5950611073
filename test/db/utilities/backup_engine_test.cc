// BackupEngine: making and restoring backups. A restored backup holds
// exactly the DB's contents when it was made, in every family; tables
// are shared between backups and a table already stored is not copied
// again; keep_log_files keeps the target's WALs; app metadata and the
// file details survive a reopen; a read-only DB can be backed up; a
// backup opens in place through env_for_open.

#include "strata/utilities/backup_engine.h"

#include <cstdarg>
#include <cstdio>
#include <set>

#include "strata/rate_limiter.h"
#include "strata/utilities/checkpoint.h"
#include "test/db/utilities/backup_test_util.h"
#include "util/crc32c.h"

namespace strata {
namespace {

using test::BackupFamilies;

class BackupEngineTest : public test::BackupTestBase {
 protected:
  // The table numbers of the DB's current version.
  std::set<uint64_t> LiveTables() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    std::set<uint64_t> numbers;
    for (const LiveFileMetaData& f : files) numbers.insert(f.file_number);
    return numbers;
  }
};

TEST_F(BackupEngineTest, RestoresExactlyTheDBAsItWas) {
  ASSERT_TRUE(PutAll("flushed", "1").ok());
  ASSERT_TRUE(FlushAll().ok());
  ASSERT_TRUE(PutAll("in-wal", "2").ok());
  ASSERT_TRUE(db_->Delete(WriteOptions(), handles_[1], "flushed").ok());
  const auto expected = Contents();
  const SequenceNumber sequence = db_->GetLatestSequenceNumber();

  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  BackupID id = 0;
  ASSERT_TRUE(
      engine->CreateNewBackup(CreateBackupOptions(), db_.get(), &id).ok());
  EXPECT_EQ(1u, id);
  EXPECT_EQ(sequence, ReadBackupMeta(id).sequence);
  ASSERT_TRUE(PutAll("later", "3").ok());

  const std::string restored = dir_.File("restored");
  IOStatus s =
      engine->RestoreDBFromBackup(RestoreOptions(), id, restored, restored);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(expected, ContentsOf(restored));
  // The older argument order, an empty wal_dir, and the newest backup.
  const std::string latest = dir_.File("latest");
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(latest, "").ok());
  EXPECT_EQ(expected, ContentsOf(latest));

  // A restored DB is a DB of its own, numbering on from the backup.
  std::unique_ptr<DB> rdb;
  std::vector<ColumnFamilyHandle*> rh;
  options_.create_if_missing = false;
  ASSERT_TRUE(OpenDB(restored, &rdb, &rh).ok());
  EXPECT_LE(sequence, rdb->GetLatestSequenceNumber());
  ASSERT_TRUE(rdb->Put(WriteOptions(), rh[2], "restored-only", "x").ok());
  CloseDB(&rdb, &rh);
  EXPECT_EQ(expected.size() + 1, ContentsOf(restored).size());
  EXPECT_EQ(expected.size() + 3, Contents().size());  // "later" x 3
}

// share_table_files and share_files_with_checksum: where tables go, and
// whether a second backup copies the tables the first stored.
class BackupSharingTest : public BackupEngineTest,
                          public ::testing::WithParamInterface<int> {
 protected:
  BackupEngineOptions Sharing() const {
    BackupEngineOptions options = EngineOptions();
    options.share_table_files = GetParam() != 2;
    options.share_files_with_checksum = GetParam() == 0;
    return options;
  }
  // Where this mode puts tables.
  std::string TableDir() const {
    static const char* kDirs[] = {"shared_checksum/", "shared/", "private/"};
    return kDirs[GetParam()];
  }
  int TablesWritten() { return env_.Count(TableDir(), ".sst"); }
};

TEST_P(BackupSharingTest, ASecondBackupCopiesOnlyNewTables) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(Sharing(), &engine).ok());
  ASSERT_TRUE(PutAll("a", "1").ok());
  CreateBackupOptions flush;
  flush.flush_before_backup = true;
  env_.Reset();
  ASSERT_TRUE(engine->CreateNewBackup(flush, db_.get()).ok());
  const std::set<uint64_t> first = LiveTables();
  ASSERT_EQ(3u, first.size());  // one per family
  EXPECT_EQ(3, TablesWritten());

  // One family changes: one new table.
  ASSERT_TRUE(db_->Put(WriteOptions(), handles_[2], "b", "2").ok());
  const auto expected = Contents();
  env_.Reset();
  ASSERT_TRUE(engine->CreateNewBackup(flush, db_.get()).ok());
  const std::set<uint64_t> second = LiveTables();
  ASSERT_EQ(4u, second.size());
  // Unshared, every table is copied again.
  EXPECT_EQ(GetParam() == 2 ? 4 : 1, TablesWritten());

  // Nothing new: nothing copied but the small files.
  env_.Reset();
  ASSERT_TRUE(engine->CreateNewBackup(flush, db_.get()).ok());
  EXPECT_EQ(GetParam() == 2 ? 4 : 0, TablesWritten());

  // The tables are stored once each when shared.
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos, /*include_file_details=*/true);
  ASSERT_EQ(3u, infos.size());
  std::set<std::string> stored;
  for (const BackupInfo& info : infos) {
    for (const BackupFileInfo& f : info.file_details) {
      if (f.file_type == kTableFile) stored.insert(f.relative_filename);
    }
  }
  EXPECT_EQ(GetParam() == 2 ? 11u : 4u, stored.size());
  if (GetParam() != 2) {
    const std::string dir = TableDir();
    EXPECT_EQ(4u, BackupChildren(dir.substr(0, dir.size() - 1)).size());
  }
  for (BackupID id = 1; id <= 3; id++) {
    EXPECT_TRUE(engine->VerifyBackup(id, true).ok()) << id;
  }
  const std::string restored = dir_.File("restored");
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(restored, restored).ok());
  EXPECT_EQ(expected, ContentsOf(restored));
}

std::string SharingName(const ::testing::TestParamInfo<int>& info) {
  static const char* kNames[] = {"SharedWithChecksum", "Shared", "NotShared"};
  return kNames[info.param];
}

INSTANTIATE_TEST_SUITE_P(Sharing, BackupSharingTest, ::testing::Values(0, 1, 2),
                         SharingName);

TEST_F(BackupEngineTest, ATableOfAnotherHistoryIsNotTakenForAStoredOne) {
  // Two DBs whose tables have the same numbers and different contents
  // are backed up into one directory.
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  CreateBackupOptions flush;
  flush.flush_before_backup = true;
  ASSERT_TRUE(PutAll("k", "first history").ok());
  ASSERT_TRUE(engine->CreateNewBackup(flush, db_.get()).ok());
  const auto first = Contents();
  CloseDB(&db_, &handles_);
  ASSERT_TRUE(DestroyDB(DBName(), options_).ok());
  ASSERT_TRUE(OpenDB(DBName(), &db_, &handles_).ok());
  ASSERT_TRUE(PutAll("k", "other history").ok());
  ASSERT_TRUE(engine->CreateNewBackup(flush, db_.get()).ok());
  const auto second = Contents();
  ASSERT_NE(first, second);

  const std::string r1 = dir_.File("r1"), r2 = dir_.File("r2");
  ASSERT_TRUE(engine->RestoreDBFromBackup(RestoreOptions(), 1, r1, r1).ok());
  ASSERT_TRUE(engine->RestoreDBFromBackup(RestoreOptions(), 2, r2, r2).ok());
  EXPECT_EQ(first, ContentsOf(r1));
  EXPECT_EQ(second, ContentsOf(r2));

  // Named by number alone, the second history's table is refused.
  std::unique_ptr<BackupEngine> plain;
  BackupEngineOptions options(dir_.File("plain"));
  options.share_files_with_checksum = false;
  ASSERT_TRUE(OpenEngine(options, &plain).ok());
  ASSERT_TRUE(plain->CreateNewBackup(flush, db_.get()).ok());
  CloseDB(&db_, &handles_);
  ASSERT_TRUE(DestroyDB(DBName(), options_).ok());
  ASSERT_TRUE(OpenDB(DBName(), &db_, &handles_).ok());
  ASSERT_TRUE(PutAll("k", "a third, longer history").ok());
  IOStatus s = plain->CreateNewBackup(flush, db_.get());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("share_files_with_checksum"))
      << s.ToString();
  std::vector<BackupInfo> infos;
  plain->GetBackupInfo(&infos);
  EXPECT_EQ(1u, infos.size());
}

TEST_F(BackupEngineTest, KeepLogFilesKeepsTheTargetsWals) {
  ASSERT_TRUE(PutAll("a", "1").ok());
  BackupEngineOptions no_logs = EngineOptions();
  no_logs.backup_log_files = false;
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(no_logs, &engine).ok());
  CreateBackupOptions flush;
  flush.flush_before_backup = true;
  ASSERT_TRUE(engine->CreateNewBackup(flush, db_.get()).ok());
  BackupInfo info;
  ASSERT_TRUE(engine->GetBackupInfo(1, &info, true).ok());
  for (const BackupFileInfo& f : info.file_details) {
    EXPECT_NE(kWalFile, f.file_type) << f.relative_filename;
  }
  // "b" is only in the WALs, of the DB and of a copy of it.
  ASSERT_TRUE(PutAll("b", "2").ok());
  const std::string copy = dir_.File("copy");
  Checkpoint* checkpoint = nullptr;
  ASSERT_TRUE(Checkpoint::Create(db_.get(), &checkpoint).ok());
  ASSERT_TRUE(checkpoint->CreateCheckpoint(copy, UINT64_MAX).ok());
  delete checkpoint;
  CloseDB(&db_, &handles_);

  ASSERT_TRUE(
      engine->RestoreDBFromBackup(RestoreOptions(true), 1, DBName(), DBName())
          .ok());
  auto contents = ContentsOf(DBName());
  EXPECT_EQ("", contents["<open>"]);
  EXPECT_EQ("2", contents["write/b"]);
  EXPECT_EQ("1", contents["write/a"]);

  ASSERT_TRUE(
      engine->RestoreDBFromBackup(RestoreOptions(false), 1, copy, copy).ok());
  contents = ContentsOf(copy);
  EXPECT_EQ(0u, contents.count("write/b"));
  EXPECT_EQ("1", contents["write/a"]);
  ASSERT_TRUE(OpenDB(DBName(), &db_, &handles_).ok());  // for TearDown
}

TEST_F(BackupEngineTest, MetadataAndDetailsSurviveAReopen) {
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  ASSERT_TRUE(PutAll("a", "1").ok());
  ASSERT_TRUE(FlushAll().ok());
  ASSERT_TRUE(PutAll("b", "2").ok());
  const std::string app("bin\0ary \n meta\xff", 16);
  const int64_t before = static_cast<int64_t>(env_.NowMicros() / 1000000);
  BackupID id = 0;
  ASSERT_TRUE(engine
                  ->CreateNewBackupWithMetadata(CreateBackupOptions(),
                                                db_.get(), app, &id)
                  .ok());
  const int64_t after = static_cast<int64_t>(env_.NowMicros() / 1000000);
  // The older forms.
  ASSERT_TRUE(engine->CreateNewBackupWithMetadata(db_.get(), "second").ok());
  ASSERT_TRUE(engine->CreateNewBackup(db_.get(), true).ok());

  BackupInfo info;
  ASSERT_TRUE(engine->GetBackupInfo(id, &info, true).ok());
  EXPECT_EQ(app, info.app_metadata);
  EXPECT_LE(before, info.timestamp);
  EXPECT_GE(after, info.timestamp);
  ASSERT_EQ(info.number_files, info.file_details.size());
  uint64_t total = 0;
  size_t tables = 0, wals = 0, currents = 0;
  for (const BackupFileInfo& f : info.file_details) {
    std::string contents;
    ASSERT_TRUE(ReadFileToString(&env_, f.directory + "/" + f.relative_filename,
                                 &contents)
                    .ok())
        << f.relative_filename;
    EXPECT_EQ(f.size, contents.size());
    const uint32_t crc = crc32c::Value(contents.data(), contents.size());
    ASSERT_EQ(4u, f.file_checksum.size());
    EXPECT_EQ(crc,
              (uint32_t{static_cast<uint8_t>(f.file_checksum[0])} << 24) |
                  (uint32_t{static_cast<uint8_t>(f.file_checksum[1])} << 16) |
                  (uint32_t{static_cast<uint8_t>(f.file_checksum[2])} << 8) |
                  static_cast<uint8_t>(f.file_checksum[3]));
    EXPECT_EQ(kBackupFileChecksumFuncName, f.file_checksum_func_name);
    total += f.size;
    tables += f.file_type == kTableFile;
    wals += f.file_type == kWalFile;
    currents += f.file_type == kCurrentFile;
  }
  EXPECT_EQ(total, info.size);
  EXPECT_EQ(3u, tables);
  EXPECT_GE(wals, 1u);
  EXPECT_EQ(1u, currents);
  EXPECT_EQ(kCurrentFile, info.file_details.back().file_type);

  std::vector<BackupInfo> before_reopen;
  engine->GetBackupInfo(&before_reopen);
  ASSERT_EQ(3u, before_reopen.size());
  EXPECT_EQ("second", before_reopen[1].app_metadata);
  EXPECT_EQ("", before_reopen[2].app_metadata);
  engine.reset();
  ASSERT_TRUE(OpenEngine(&engine).ok());
  BackupEngineReadOnly* raw = nullptr;  // (the older argument order)
  ASSERT_TRUE(BackupEngineReadOnly::Open(&env_, EngineOptions(), &raw).ok());
  std::unique_ptr<BackupEngineReadOnly> reader(raw);
  for (const BackupEngineReadOnlyBase* e :
       {static_cast<const BackupEngineReadOnlyBase*>(engine.get()),
        static_cast<const BackupEngineReadOnlyBase*>(reader.get())}) {
    std::vector<BackupInfo> infos;
    e->GetBackupInfo(&infos);
    ASSERT_EQ(before_reopen.size(), infos.size());
    for (size_t i = 0; i < infos.size(); i++) {
      EXPECT_EQ(before_reopen[i].backup_id, infos[i].backup_id);
      EXPECT_EQ(before_reopen[i].timestamp, infos[i].timestamp);
      EXPECT_EQ(before_reopen[i].size, infos[i].size);
      EXPECT_EQ(before_reopen[i].number_files, infos[i].number_files);
      EXPECT_EQ(before_reopen[i].app_metadata, infos[i].app_metadata);
    }
    BackupInfo latest;
    ASSERT_TRUE(e->GetLatestBackupInfo(&latest).ok());
    EXPECT_EQ(3u, latest.backup_id);
  }
  // The next backup numbers on.
  ASSERT_TRUE(
      engine->CreateNewBackup(CreateBackupOptions(), db_.get(), &id).ok());
  EXPECT_EQ(4u, id);
}

TEST_F(BackupEngineTest, AReadOnlyDBIsBackedUpAsItsFilesAre) {
  ASSERT_TRUE(PutAll("flushed", "1").ok());
  ASSERT_TRUE(FlushAll().ok());
  ASSERT_TRUE(PutAll("in-wal", "2").ok());
  const auto expected = Contents();
  CloseDB(&db_, &handles_);
  std::vector<ColumnFamilyDescriptor> families;
  for (const std::string& f : BackupFamilies()) {
    families.emplace_back(f, ColumnFamilyOptions(options_));
  }
  DB* raw = nullptr;
  ASSERT_TRUE(
      DB::OpenForReadOnly(options_, DBName(), families, &handles_, &raw).ok());
  db_.reset(raw);
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  CreateBackupOptions flush;  // nothing can be flushed: refused quietly
  flush.flush_before_backup = true;
  IOStatus s = engine->CreateNewBackup(flush, db_.get());
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::string restored = dir_.File("restored");
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(restored, restored).ok());
  EXPECT_EQ(expected, ContentsOf(restored));
}

TEST_F(BackupEngineTest, ABackupOpensInPlaceThroughEnvForOpen) {
  ASSERT_TRUE(PutAll("flushed", "1").ok());
  ASSERT_TRUE(FlushAll().ok());
  ASSERT_TRUE(PutAll("in-wal", "2").ok());
  const auto expected = Contents();
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(&engine).ok());
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  BackupInfo info;
  ASSERT_TRUE(engine->GetBackupInfo(1, &info, true).ok());
  ASSERT_NE(nullptr, info.env_for_open);
  EXPECT_EQ(BackupDir() + "/private/1", info.name_for_open);
  const auto tree = BackupTree();

  Options options = options_;
  options.env = info.env_for_open.get();
  std::vector<ColumnFamilyDescriptor> families;
  for (const std::string& f : BackupFamilies()) {
    families.emplace_back(f, ColumnFamilyOptions(options));
  }
  std::vector<ColumnFamilyHandle*> handles;
  DB* raw = nullptr;
  Status s = DB::OpenForReadOnly(options, info.name_for_open, families,
                                 &handles, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<DB> in_place(raw);
  EXPECT_EQ(expected, Contents(in_place.get(), handles));
  CloseDB(&in_place, &handles);
  EXPECT_EQ(tree, BackupTree());  // nothing written into the backup
}

TEST_F(BackupEngineTest, ProgressIsReportedWhileCopying) {
  // Values that do not compress: the tables are about 60 KiB.
  uint32_t x = 1;
  for (int i = 0; i < 20; i++) {
    std::string value;
    while (value.size() < 1000) {
      x = x * 1103515245u + 12345u;
      value.push_back(static_cast<char>(x >> 24));
    }
    ASSERT_TRUE(PutAll("k" + std::to_string(i), value).ok());
  }
  ASSERT_TRUE(FlushAll().ok());
  BackupEngineOptions options = EngineOptions();
  options.callback_trigger_interval_size = 4096;
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(options, &engine).ok());
  int calls = 0;
  CreateBackupOptions create;
  create.progress_callback = [&calls] { calls++; };
  ASSERT_TRUE(engine->CreateNewBackup(create, db_.get()).ok());
  BackupInfo info;
  ASSERT_TRUE(engine->GetLatestBackupInfo(&info, true).ok());
  // One call per 4 KiB copied (CURRENT is written, not copied).
  const uint64_t copied = info.size - info.file_details.back().size;
  EXPECT_EQ(copied / 4096, static_cast<uint64_t>(calls));
  EXPECT_GT(calls, 5);
}

TEST_F(BackupEngineTest, RateLimitersGrantEveryByteCopied) {
  ASSERT_TRUE(PutAll("flushed", std::string(5000, 'f')).ok());
  ASSERT_TRUE(FlushAll().ok());
  ASSERT_TRUE(PutAll("in-wal", "2").ok());
  // Fast enough never to wait: the test counts, it does not time.
  std::shared_ptr<RateLimiter> backup(NewGenericRateLimiter(1 << 30));
  // The restore's limiter limits reads too: it sees every byte twice.
  std::shared_ptr<RateLimiter> restore(NewGenericRateLimiter(
      1 << 30, 100 * 1000, 10, RateLimiter::Mode::kAllIo));
  BackupEngineOptions options = EngineOptions();
  options.backup_rate_limiter = backup;
  options.backup_rate_limit = 1;  // unused: a limiter is given
  options.restore_rate_limiter = restore;
  std::unique_ptr<BackupEngine> engine;
  ASSERT_TRUE(OpenEngine(options, &engine).ok());
  ASSERT_TRUE(engine->CreateNewBackup(CreateBackupOptions(), db_.get()).ok());
  BackupInfo info;
  ASSERT_TRUE(engine->GetLatestBackupInfo(&info, true).ok());
  // Every byte copied into the backup (CURRENT is written, not copied),
  // as writes at IO_LOW; nothing asked of the restore limiter.
  const uint64_t copied = info.size - info.file_details.back().size;
  ASSERT_GT(copied, 5000u);
  EXPECT_EQ(copied, static_cast<uint64_t>(backup->GetTotalBytesThrough()));
  EXPECT_EQ(copied,
            static_cast<uint64_t>(backup->GetTotalBytesThrough(Env::IO_LOW)));
  EXPECT_EQ(0, restore->GetTotalBytesThrough());

  // A restore copies (reads and writes) every file of the backup, CURRENT
  // included.
  const auto expected = Contents();
  const std::string restored = dir_.File("restored");
  ASSERT_TRUE(engine
                  ->RestoreDBFromBackup(RestoreOptions(), info.backup_id,
                                        restored, restored)
                  .ok());
  EXPECT_EQ(expected, ContentsOf(restored));
  EXPECT_EQ(2 * info.size,
            static_cast<uint64_t>(restore->GetTotalBytesThrough()));
  EXPECT_EQ(copied, static_cast<uint64_t>(backup->GetTotalBytesThrough()));
}

// Collects what is logged, one entry per line.
class StringLogger : public Logger {
 public:
  using Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char buf[512];
    std::vsnprintf(buf, sizeof(buf), format, ap);
    text += std::string(buf) + "\n";
  }
  std::string text;
};

TEST_F(BackupEngineTest, OptionsDumpAndStatistics) {
  BackupEngineOptions options(BackupDir());
  options.share_table_files = false;
  options.max_valid_backups_to_open = 3;
  StringLogger logger;
  options.Dump(&logger);
  EXPECT_NE(std::string::npos,
            logger.text.find("Options.backup_dir: " + BackupDir() + "\n"))
      << logger.text;
  EXPECT_NE(std::string::npos,
            logger.text.find("Options.share_table_files: false\n"));
  EXPECT_NE(std::string::npos, logger.text.find("Options.sync: true\n"));
  EXPECT_NE(std::string::npos,
            logger.text.find("Options.max_valid_backups_to_open: 3\n"));
  // The engine logs what it does there too.
  options.info_log = &logger;
  BackupEngine* raw = nullptr;  // (the older argument order)
  ASSERT_TRUE(BackupEngine::Open(&env_, options, &raw).ok());
  std::unique_ptr<BackupEngine> engine(raw);
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  EXPECT_NE(std::string::npos, logger.text.find("backup 1 done"))
      << logger.text;

  BackupStatistics stats;
  stats.IncrementNumberSuccessBackup();
  stats.IncrementNumberSuccessBackup();
  stats.IncrementNumberFailBackup();
  EXPECT_EQ(2u, stats.GetNumberSuccessBackup());
  EXPECT_EQ(1u, stats.GetNumberFailBackup());
  EXPECT_EQ("# success backup: 2, # fail backup: 1", stats.ToString());
}

}  // namespace
}  // namespace strata
