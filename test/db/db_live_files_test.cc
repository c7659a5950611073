// The live-file calls: GetLiveFiles, GetLiveFilesMetaData,
// GetColumnFamilyMetaData, GetSortedWalFiles, GetCurrentWalFile,
// DisableFileDeletions/EnableFileDeletions and GetDbIdentity — and that a
// copy of the files they list, taken with deletions disabled while the DB
// runs on, opens with every write made before the listing.

#include <algorithm>
#include <set>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "test/db/db_test_util.h"

namespace strata {
namespace {

std::string LiveFilesKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%05d", i);
  return buf;
}

class LiveFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    h_.options().disable_auto_compactions = true;
    ASSERT_TRUE(h_.Open().ok());
  }

  // Writes keys [from, to) and flushes them into one level-0 table.
  void WriteTable(int from, int to) {
    for (int i = from; i < to; i++)
      ASSERT_TRUE(h_.Put(LiveFilesKey(i), "v").ok());
    ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  }

  std::set<uint64_t> TablesInDirectory() {
    std::vector<std::string> children;
    EXPECT_TRUE(h_.env()->GetChildren(h_.name(), &children).ok());
    std::set<uint64_t> tables;
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(child, &number, &type) && type == kTableFile) {
        tables.insert(number);
      }
    }
    return tables;
  }

  test::DBHolder h_;
};

TEST_F(LiveFilesTest, GetLiveFilesNamesEveryFileACopyNeeds) {
  WriteTable(0, 10);
  ASSERT_TRUE(h_.Put("unflushed", "x").ok());
  std::vector<std::string> files;
  uint64_t manifest_size = 0;
  ASSERT_TRUE(h_.db()->GetLiveFiles(files, &manifest_size).ok());
  // The memtable was flushed first: two tables.
  int tables = 0, manifests = 0, current = 0, options = 0;
  for (const std::string& f : files) {
    ASSERT_EQ('/', f[0]) << f;
    uint64_t number;
    FileType type;
    ASSERT_TRUE(ParseFileName(f.substr(1), &number, &type)) << f;
    uint64_t size;
    ASSERT_TRUE(h_.env()->GetFileSize(h_.name() + f, &size).ok()) << f;
    tables += type == kTableFile;
    manifests += type == kDescriptorFile;
    current += type == kCurrentFile;
    options += type == kOptionsFile;
    if (type == kDescriptorFile) {
      EXPECT_EQ(size, manifest_size);
    }
  }
  EXPECT_EQ(2, tables);
  EXPECT_EQ(1, manifests);
  EXPECT_EQ(1, current);
  EXPECT_EQ(1, options);

  // Without the flush the memtable's write stays out of the tables.
  ASSERT_TRUE(h_.Put("unflushed2", "x").ok());
  ASSERT_TRUE(h_.db()->GetLiveFiles(files, &manifest_size, false).ok());
  EXPECT_EQ(2, std::count_if(files.begin(), files.end(), [](const auto& f) {
              return f.find(".sst") != std::string::npos;
            }));
}

TEST_F(LiveFilesTest, DeletionsStayDisabledUntilEveryDisableIsUndone) {
  WriteTable(0, 10);
  WriteTable(10, 20);
  const std::set<uint64_t> before = TablesInDirectory();
  ASSERT_EQ(2u, before.size());
  ASSERT_TRUE(h_.db()->DisableFileDeletions().ok());
  ASSERT_TRUE(h_.db()->DisableFileDeletions().ok());
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  // The compaction's inputs are obsolete but still there.
  std::set<uint64_t> now = TablesInDirectory();
  for (uint64_t number : before) EXPECT_EQ(1u, now.count(number)) << number;
  ASSERT_EQ(3u, now.size());

  ASSERT_TRUE(h_.db()->EnableFileDeletions(/*force=*/false).ok());
  EXPECT_EQ(3u, TablesInDirectory().size()) << "one disable is still active";
  ASSERT_TRUE(h_.db()->EnableFileDeletions(/*force=*/false).ok());
  now = TablesInDirectory();
  EXPECT_EQ(1u, now.size());
  for (uint64_t number : before) EXPECT_EQ(0u, now.count(number)) << number;

  // force undoes any number of disables at once. (Keys overlapping the
  // compacted table's, so that the next compaction rewrites both.)
  WriteTable(5, 30);
  for (int i = 0; i < 3; i++) ASSERT_TRUE(h_.db()->DisableFileDeletions().ok());
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(3u, TablesInDirectory().size());
  ASSERT_TRUE(h_.db()->EnableFileDeletions(/*force=*/true).ok());
  EXPECT_EQ(1u, TablesInDirectory().size());
  EXPECT_EQ("v", h_.Get(LiveFilesKey(25)));
}

TEST_F(LiveFilesTest, MetaDataDescribesEachFamilysTables) {
  ColumnFamilyHandle* second = nullptr;
  ASSERT_TRUE(h_.db()
                  ->CreateColumnFamily(ColumnFamilyOptions(), "second", &second)
                  .ok());
  std::unique_ptr<ColumnFamilyHandle> owner(second);
  WriteTable(0, 10);
  for (int i = 100; i < 150; i++) {
    ASSERT_TRUE(
        h_.db()->Put(WriteOptions(), second, LiveFilesKey(i), "w").ok());
  }
  ASSERT_TRUE(h_.db()->Delete(WriteOptions(), second, LiveFilesKey(120)).ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions(), second).ok());
  CompactRangeOptions to_bottom;
  ASSERT_TRUE(h_.db()->CompactRange(to_bottom, second, nullptr, nullptr).ok());

  std::vector<LiveFileMetaData> files;
  h_.db()->GetLiveFilesMetaData(&files);
  ASSERT_EQ(2u, files.size());
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return a.column_family_name < b.column_family_name;
  });
  const LiveFileMetaData& d = files[0];
  EXPECT_EQ(kDefaultColumnFamilyName, d.column_family_name);
  EXPECT_EQ(0, d.level);
  EXPECT_EQ(LiveFilesKey(0), d.smallestkey);
  EXPECT_EQ(LiveFilesKey(9), d.largestkey);
  EXPECT_EQ(1u, d.smallest_seqno);
  EXPECT_EQ(10u, d.largest_seqno);
  EXPECT_EQ(10u, d.num_entries);
  EXPECT_EQ(kTableFile, d.file_type);
  EXPECT_EQ("/" + d.relative_filename, d.name);
  EXPECT_EQ(h_.name(), d.directory);
  uint64_t size = 0;
  ASSERT_TRUE(h_.env()->GetFileSize(h_.name() + d.name, &size).ok());
  EXPECT_EQ(size, d.size);
  uint64_t number;
  FileType type;
  ASSERT_TRUE(ParseFileName(d.relative_filename, &number, &type));
  EXPECT_EQ(number, d.file_number);

  const LiveFileMetaData& s = files[1];
  EXPECT_EQ("second", s.column_family_name);
  EXPECT_GT(s.level, 0) << "compacted out of level 0";
  EXPECT_EQ(LiveFilesKey(100), s.smallestkey);
  EXPECT_EQ(LiveFilesKey(149), s.largestkey);
  EXPECT_FALSE(s.being_compacted);

  ColumnFamilyMetaData cf;
  h_.db()->GetColumnFamilyMetaData(second, &cf);
  EXPECT_EQ("second", cf.name);
  ASSERT_EQ(static_cast<size_t>(h_.options().num_levels), cf.levels.size());
  EXPECT_EQ(1u, cf.file_count);
  EXPECT_EQ(s.size, cf.size);
  const LevelMetaData& level = cf.levels[s.level];
  EXPECT_EQ(s.level, level.level);
  ASSERT_EQ(1u, level.files.size());
  EXPECT_EQ(s.file_number, level.files[0].file_number);
  EXPECT_EQ(s.size, level.size);
  for (const LevelMetaData& l : cf.levels) {
    if (l.level != s.level) {
      EXPECT_TRUE(l.files.empty()) << l.level;
    }
  }
  ColumnFamilyMetaData def;
  h_.db()->GetColumnFamilyMetaData(&def);
  EXPECT_EQ(kDefaultColumnFamilyName, def.name);
  EXPECT_EQ(1u, def.file_count);
  ASSERT_TRUE(h_.db()->DestroyColumnFamilyHandle(owner.release()).ok());
}

TEST_F(LiveFilesTest, WalFilesAreListedOldestFirstWithTheirFirstSequence) {
  ASSERT_TRUE(h_.Put("a", "1").ok());
  ASSERT_TRUE(h_.Put("b", "2").ok());
  std::unique_ptr<LogFile> current;
  ASSERT_TRUE(h_.db()->GetCurrentWalFile(&current).ok());
  EXPECT_EQ(1u, current->StartSequence());
  EXPECT_EQ(kAliveLogFile, current->Type());
  EXPECT_EQ(LogFileName(h_.name(), current->LogNumber()),
            h_.name() + current->PathName());
  uint64_t size = 0;
  ASSERT_TRUE(
      h_.env()->GetFileSize(h_.name() + current->PathName(), &size).ok());
  EXPECT_EQ(size, current->SizeFileBytes());
  EXPECT_GT(size, 0u);

  // A second family keeps the first WAL alive after the default flushes.
  ColumnFamilyHandle* second = nullptr;
  ASSERT_TRUE(h_.db()
                  ->CreateColumnFamily(ColumnFamilyOptions(), "second", &second)
                  .ok());
  ASSERT_TRUE(h_.db()->Put(WriteOptions(), second, "c", "3").ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h_.Put("d", "4").ok());
  VectorLogPtr wals;
  ASSERT_TRUE(h_.db()->GetSortedWalFiles(wals).ok());
  ASSERT_GE(wals.size(), 2u);
  for (size_t i = 1; i < wals.size(); i++) {
    EXPECT_LT(wals[i - 1]->LogNumber(), wals[i]->LogNumber());
  }
  EXPECT_EQ(1u, wals.front()->StartSequence());
  std::unique_ptr<LogFile> newest;
  ASSERT_TRUE(h_.db()->GetCurrentWalFile(&newest).ok());
  EXPECT_EQ(wals.back()->LogNumber(), newest->LogNumber());
  EXPECT_EQ(4u, newest->StartSequence());

  // Once every family is flushed, only the current WAL is live.
  ASSERT_TRUE(h_.db()->Flush(FlushOptions(), second).ok());
  ASSERT_TRUE(h_.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h_.db()->GetSortedWalFiles(wals).ok());
  ASSERT_EQ(1u, wals.size());
  ASSERT_TRUE(h_.db()->DestroyColumnFamilyHandle(second).ok());
}

TEST_F(LiveFilesTest, IdentityIsTheFilesAndOutlivesAReopen) {
  std::string id;
  ASSERT_TRUE(h_.db()->GetDbIdentity(id).ok());
  EXPECT_EQ(32u, id.size());
  std::string contents;
  ASSERT_TRUE(
      ReadFileToString(h_.env(), IdentityFileName(h_.name()), &contents).ok());
  EXPECT_EQ(id + "\n", contents);
  ASSERT_TRUE(h_.Reopen().ok());
  std::string again;
  ASSERT_TRUE(h_.db()->GetDbIdentity(again).ok());
  EXPECT_EQ(id, again);

  test::DBHolder other;
  ASSERT_TRUE(other.Open().ok());
  std::string other_id;
  ASSERT_TRUE(other.db()->GetDbIdentity(other_id).ok());
  EXPECT_NE(id, other_id);
}

// What a checkpoint does, by hand: deletions off, list, copy the listed
// files (the MANIFEST to its listed size) and the WALs while writes and a
// compaction go on, deletions on. The copy holds every write made before
// the listing.
TEST_F(LiveFilesTest, ACopyOfTheListedFilesOpens) {
  WriteTable(0, 100);
  WriteTable(100, 200);
  ASSERT_TRUE(h_.Put("in-wal", "yes").ok());
  ASSERT_TRUE(h_.db()->DisableFileDeletions().ok());
  std::vector<std::string> files;
  uint64_t manifest_size = 0;
  ASSERT_TRUE(h_.db()->GetLiveFiles(files, &manifest_size, false).ok());
  VectorLogPtr wals;
  ASSERT_TRUE(h_.db()->GetSortedWalFiles(wals).ok());
  // Writes and a compaction after the listing.
  ASSERT_TRUE(
      h_.db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  ASSERT_TRUE(h_.Put("after", "no").ok());

  test::TempDir copy_dir(h_.env(), "copy");
  const std::string copy = copy_dir.path() + "/copy";
  Env* env = h_.env();
  ASSERT_TRUE(env->CreateDir(copy).ok());
  for (const std::string& f : files) {
    std::string data;
    ASSERT_TRUE(ReadFileToString(env, h_.name() + f, &data).ok()) << f;
    if (f.find("MANIFEST") != std::string::npos) data.resize(manifest_size);
    ASSERT_TRUE(WriteStringToFile(env, data, copy + f).ok()) << f;
  }
  for (const auto& wal : wals) {
    std::string data;
    ASSERT_TRUE(ReadFileToString(env, h_.name() + wal->PathName(), &data).ok());
    ASSERT_TRUE(WriteStringToFile(env, data, copy + wal->PathName()).ok());
  }
  ASSERT_TRUE(h_.db()->EnableFileDeletions(false).ok());

  Options options;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(options, copy, &db).ok());
  std::string value;
  ASSERT_TRUE(db->Get(ReadOptions(), LiveFilesKey(150), &value).ok());
  ASSERT_TRUE(db->Get(ReadOptions(), "in-wal", &value).ok());
  EXPECT_EQ("yes", value);
  EXPECT_TRUE(db->Get(ReadOptions(), "after", &value).IsNotFound());
}

}  // namespace
}  // namespace strata
