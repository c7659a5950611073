// DB::OpenAsSecondary in one process: a secondary reads a closed DB as a
// read-only instance does, sees what a live primary wrote once it catches
// up, keeps reading tables the primary deleted, takes a torn MANIFEST tail
// for "not yet", and refuses every call that would change the DB.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// An Env in which the files of one kind numbered at or above a number
// cannot be opened, as if the primary had just deleted them.
class VanishingEnv : public EnvWrapper {
 public:
  VanishingEnv() : EnvWrapper(Env::Default()) {}

  void Vanish(FileType type, uint64_t from) {
    type_ = type;
    from_ = from;
  }
  void Stop() { from_ = UINT64_MAX; }

  Status NewSequentialFile(const std::string& f,
                           std::unique_ptr<SequentialFile>* r,
                           const EnvOptions& options) override {
    if (Gone(f)) return Status::PathNotFound(f, "vanished");
    return EnvWrapper::NewSequentialFile(f, r, options);
  }
  Status NewRandomAccessFile(const std::string& f,
                             std::unique_ptr<RandomAccessFile>* r,
                             const EnvOptions& options) override {
    if (Gone(f)) return Status::PathNotFound(f, "vanished");
    return EnvWrapper::NewRandomAccessFile(f, r, options);
  }

  Status FileExists(const std::string& f) override {
    if (Gone(f)) return Status::NotFound(f, "vanished");
    return EnvWrapper::FileExists(f);
  }

 private:
  bool Gone(const std::string& fname) const {
    const size_t slash = fname.find_last_of("/\\");
    uint64_t number;
    FileType type;
    return ParseFileName(fname.substr(slash + 1), &number, &type) &&
           type == type_ && number >= from_;
  }

  FileType type_ = FileType::kTableFile;
  uint64_t from_ = UINT64_MAX;
};

class SecondaryTest : public ::testing::Test {
 protected:
  SecondaryTest()
      : dir_(Env::Default(), "secondary"),
        name_(dir_.File("db")),
        secondary_path_(dir_.File("secondary")) {
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
  }

  ~SecondaryTest() override {
    delete secondary_;
    delete primary_;
  }

  void OpenPrimary() { ASSERT_TRUE(DB::Open(options_, name_, &primary_).ok()); }

  void OpenSecondary() {
    Status s =
        DB::OpenAsSecondary(options_, name_, secondary_path_, &secondary_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  static std::string Get(DB* db, const std::string& k) {
    std::string value;
    Status s = db->Get(ReadOptions(), k, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    return s.ok() ? value : s.ToString();
  }

  static std::string Key(int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }

  // The table files in the primary's directory.
  std::vector<uint64_t> Tables() {
    std::vector<std::string> children;
    EXPECT_TRUE(Env::Default()->GetChildren(name_, &children).ok());
    std::vector<uint64_t> tables;
    for (const std::string& child : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(child, &number, &type) &&
          type == FileType::kTableFile) {
        tables.push_back(number);
      }
    }
    return tables;
  }

  test::TempDir dir_;
  const std::string name_;
  const std::string secondary_path_;
  Options options_;
  DB* primary_ = nullptr;
  DB* secondary_ = nullptr;
};

TEST_F(SecondaryTest, ReadsAClosedDBAndWritesNothingThere) {
  OpenPrimary();
  ASSERT_TRUE(primary_->Put(WriteOptions(), "flushed", "1").ok());
  ASSERT_TRUE(primary_->Flush(FlushOptions()).ok());
  ASSERT_TRUE(primary_->Put(WriteOptions(), "logged", "2").ok());
  delete primary_;
  primary_ = nullptr;
  std::vector<std::string> before;
  ASSERT_TRUE(Env::Default()->GetChildren(name_, &before).ok());

  OpenSecondary();
  EXPECT_EQ("1", Get(secondary_, "flushed"));
  EXPECT_EQ("2", Get(secondary_, "logged"));
  ASSERT_TRUE(secondary_->TryCatchUpWithPrimary().ok());
  EXPECT_EQ("2", Get(secondary_, "logged"));

  EXPECT_TRUE(secondary_->Put(WriteOptions(), "x", "y").IsNotSupported());
  EXPECT_TRUE(secondary_->Delete(WriteOptions(), "flushed").IsNotSupported());
  WriteBatch batch;
  batch.Put("x", "y");
  EXPECT_TRUE(secondary_->Write(WriteOptions(), &batch).IsNotSupported());
  EXPECT_TRUE(secondary_->Flush(FlushOptions()).IsNotSupported());
  EXPECT_TRUE(secondary_->CompactRange(CompactRangeOptions(), nullptr, nullptr)
                  .IsNotSupported());
  EXPECT_TRUE(secondary_->CompactFiles(CompactionOptions(), {"000001.sst"}, 1)
                  .IsNotSupported());
  EXPECT_TRUE(secondary_
                  ->IngestExternalFile({dir_.File("none.sst")},
                                       IngestExternalFileOptions())
                  .IsNotSupported());
  ColumnFamilyHandle* handle = nullptr;
  EXPECT_TRUE(
      secondary_->CreateColumnFamily(ColumnFamilyOptions(), "new", &handle)
          .IsNotSupported());
  EXPECT_EQ(nullptr, handle);
  std::vector<LiveFileStorageInfo> files;
  EXPECT_TRUE(
      secondary_->GetLiveFilesStorageInfo(LiveFilesStorageInfoOptions(), &files)
          .IsNotSupported());
  delete secondary_;
  secondary_ = nullptr;

  // Nothing was added to, or removed from, the primary's directory; the
  // secondary's info log is in its own.
  std::vector<std::string> after;
  ASSERT_TRUE(Env::Default()->GetChildren(name_, &after).ok());
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  EXPECT_EQ(before, after);
  EXPECT_TRUE(Env::Default()->FileExists(secondary_path_ + "/LOG").ok());
}

TEST_F(SecondaryTest, MissingDBIsAnError) {
  Status s = DB::OpenAsSecondary(options_, dir_.File("none"), secondary_path_,
                                 &secondary_);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(nullptr, secondary_);
  EXPECT_TRUE(
      Env::Default()->FileExists(dir_.File("none") + "/CURRENT").IsNotFound());
}

TEST_F(SecondaryTest, CatchUpSeesFlushedAndLoggedWrites) {
  OpenPrimary();
  ASSERT_TRUE(primary_->Put(WriteOptions(), "a", "1").ok());
  OpenSecondary();
  EXPECT_EQ("1", Get(secondary_, "a"));

  ASSERT_TRUE(primary_->Put(WriteOptions(), "b", "2").ok());
  ASSERT_TRUE(primary_->Flush(FlushOptions()).ok());
  ASSERT_TRUE(primary_->Put(WriteOptions(), "c", "3").ok());
  ASSERT_TRUE(primary_->Delete(WriteOptions(), "a").ok());
  // Not before the catch-up.
  EXPECT_EQ("1", Get(secondary_, "a"));
  EXPECT_EQ("NOT_FOUND", Get(secondary_, "b"));
  const Snapshot* old = secondary_->GetSnapshot();

  ASSERT_TRUE(secondary_->TryCatchUpWithPrimary().ok());
  EXPECT_EQ("NOT_FOUND", Get(secondary_, "a"));
  EXPECT_EQ("2", Get(secondary_, "b"));
  EXPECT_EQ("3", Get(secondary_, "c"));
  EXPECT_EQ(primary_->GetLatestSequenceNumber(),
            secondary_->GetLatestSequenceNumber());
  // A snapshot taken before reads what was there then.
  ReadOptions at_old;
  at_old.snapshot = old;
  std::string value;
  ASSERT_TRUE(secondary_->Get(at_old, "a", &value).ok());
  EXPECT_EQ("1", value);
  secondary_->ReleaseSnapshot(old);
}

TEST_F(SecondaryTest, ReadsThroughCompactionsThatDeleteItsTables) {
  options_.write_buffer_size = 64 << 10;
  options_.disable_auto_compactions = true;
  OpenPrimary();
  int n = 0;
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 200; i++, n++) {
      ASSERT_TRUE(primary_->Put(WriteOptions(), Key(n), Key(n) + "v").ok());
    }
    ASSERT_TRUE(primary_->Flush(FlushOptions()).ok());
  }
  OpenSecondary();
  const std::vector<uint64_t> old_tables = Tables();
  ASSERT_EQ(4u, old_tables.size());
  std::unique_ptr<Iterator> it(secondary_->NewIterator(ReadOptions()));

  // Every table the secondary holds is replaced and deleted.
  for (int i = 0; i < n; i += 2) {
    ASSERT_TRUE(primary_->Put(WriteOptions(), Key(i), Key(i) + "w").ok());
  }
  ASSERT_TRUE(
      primary_->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  for (uint64_t number : Tables()) {
    for (uint64_t old : old_tables) ASSERT_NE(old, number);
  }
  // The open tables still read, for the iterator and for new reads.
  int seen = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), seen++) {
    EXPECT_EQ(Key(seen) + "v", it->value().ToString());
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(n, seen);
  EXPECT_EQ(Key(3) + "v", Get(secondary_, Key(3)));

  ASSERT_TRUE(secondary_->TryCatchUpWithPrimary().ok());
  for (int i = 0; i < n; i++) {
    EXPECT_EQ(Key(i) + (i % 2 == 0 ? "w" : "v"), Get(secondary_, Key(i)));
  }
  it.reset();
  // Once more, with nothing new: still the same.
  ASSERT_TRUE(secondary_->TryCatchUpWithPrimary().ok());
  EXPECT_EQ(Key(0) + "w", Get(secondary_, Key(0)));
  std::string files;
  ASSERT_TRUE(secondary_->GetProperty("strata.num-files-at-level1", &files));
  std::string primary_files;
  ASSERT_TRUE(
      primary_->GetProperty("strata.num-files-at-level1", &primary_files));
  EXPECT_EQ(primary_files, files);
}

TEST_F(SecondaryTest, FilesVanishingDuringACatchUpAreTryAgain) {
  OpenPrimary();
  ASSERT_TRUE(primary_->Put(WriteOptions(), "a", "1").ok());
  ASSERT_TRUE(primary_->Flush(FlushOptions()).ok());
  VanishingEnv env;
  Options options = options_;
  options.env = &env;
  ASSERT_TRUE(
      DB::OpenAsSecondary(options, name_, secondary_path_, &secondary_).ok());
  const std::vector<uint64_t> tables = Tables();
  ASSERT_EQ(1u, tables.size());

  // A table of the new version cannot be opened: nothing is installed,
  // and the instance reads its previous state.
  ASSERT_TRUE(primary_->Put(WriteOptions(), "b", "2").ok());
  ASSERT_TRUE(primary_->Flush(FlushOptions()).ok());
  ASSERT_TRUE(primary_->Put(WriteOptions(), "c", "3").ok());
  env.Vanish(FileType::kTableFile, tables[0] + 1);
  Status s = secondary_->TryCatchUpWithPrimary();
  EXPECT_TRUE(s.IsTryAgain()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(".sst")) << s.ToString();
  EXPECT_EQ("1", Get(secondary_, "a"));
  EXPECT_EQ("NOT_FOUND", Get(secondary_, "b"));
  EXPECT_EQ("NOT_FOUND", Get(secondary_, "c"));

  // So does a WAL the MANIFEST still needs.
  env.Vanish(FileType::kWalFile, 0);
  s = secondary_->TryCatchUpWithPrimary();
  EXPECT_TRUE(s.IsTryAgain()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(".log")) << s.ToString();
  EXPECT_EQ("NOT_FOUND", Get(secondary_, "b"));

  env.Stop();
  ASSERT_TRUE(secondary_->TryCatchUpWithPrimary().ok());
  EXPECT_EQ("2", Get(secondary_, "b"));
  EXPECT_EQ("3", Get(secondary_, "c"));
  delete secondary_;
  secondary_ = nullptr;
}

TEST_F(SecondaryTest, TornManifestTailIsNotYet) {
  OpenPrimary();
  ASSERT_TRUE(primary_->Put(WriteOptions(), "a", "1").ok());
  OpenSecondary();
  // The flush's MANIFEST edit is cut in half; the WAL it makes obsolete
  // is kept, as it would be until the edit is whole.
  ASSERT_TRUE(primary_->DisableFileDeletions().ok());
  std::string manifest_name;
  ASSERT_TRUE(
      ReadFileToString(Env::Default(), CurrentFileName(name_), &manifest_name)
          .ok());
  manifest_name =
      name_ + "/" + manifest_name.substr(0, manifest_name.size() - 1);
  std::string before;
  ASSERT_TRUE(ReadFileToString(Env::Default(), manifest_name, &before).ok());
  ASSERT_TRUE(primary_->Flush(FlushOptions()).ok());
  std::string after;
  ASSERT_TRUE(ReadFileToString(Env::Default(), manifest_name, &after).ok());
  ASSERT_GT(after.size(), before.size() + 8);
  ASSERT_EQ(before, after.substr(0, before.size()));
  const std::string torn =
      after.substr(0, before.size() + (after.size() - before.size()) / 2);
  ASSERT_TRUE(WriteStringToFile(Env::Default(), torn, manifest_name).ok());

  std::string level0;
  ASSERT_TRUE(secondary_->TryCatchUpWithPrimary().ok());
  EXPECT_EQ("1", Get(secondary_, "a"));  // from the WAL
  ASSERT_TRUE(secondary_->GetProperty("strata.num-files-at-level0", &level0));
  EXPECT_EQ("0", level0);

  // The rest of the record arrives: the table is followed.
  ASSERT_TRUE(WriteStringToFile(Env::Default(), after, manifest_name).ok());
  ASSERT_TRUE(secondary_->TryCatchUpWithPrimary().ok());
  EXPECT_EQ("1", Get(secondary_, "a"));
  ASSERT_TRUE(secondary_->GetProperty("strata.num-files-at-level0", &level0));
  EXPECT_EQ("1", level0);
  ASSERT_TRUE(primary_->EnableFileDeletions(/*force=*/true).ok());
}

TEST_F(SecondaryTest, FollowsANewManifestAndDroppedFamilies) {
  std::vector<ColumnFamilyDescriptor> families = {
      {kDefaultColumnFamilyName, ColumnFamilyOptions(options_)},
      {"a", ColumnFamilyOptions(options_)}};
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_TRUE(DB::Open(options_, name_, families, &handles, &primary_).ok());
  ASSERT_TRUE(primary_->Put(WriteOptions(), handles[1], "k", "a1").ok());
  ASSERT_TRUE(primary_->Flush(FlushOptions(), handles[1]).ok());
  std::vector<ColumnFamilyHandle*> secondary_handles;
  ASSERT_TRUE(DB::OpenAsSecondary(options_, name_, secondary_path_, families,
                                  &secondary_handles, &secondary_)
                  .ok());
  ColumnFamilyHandle* a = secondary_handles[1];
  std::string value;
  ASSERT_TRUE(secondary_->Get(ReadOptions(), a, "k", &value).ok());
  EXPECT_EQ("a1", value);

  // The primary reopens (a new MANIFEST), drops a, and creates b, which
  // the secondary does not follow.
  for (ColumnFamilyHandle* h : handles) primary_->DestroyColumnFamilyHandle(h);
  delete primary_;
  primary_ = nullptr;
  ASSERT_TRUE(DB::Open(options_, name_, families, &handles, &primary_).ok());
  ASSERT_TRUE(primary_->Put(WriteOptions(), "d", "1").ok());
  ASSERT_TRUE(primary_->Flush(FlushOptions()).ok());
  ASSERT_TRUE(primary_->DropColumnFamily(handles[1]).ok());
  ColumnFamilyHandle* b = nullptr;
  ASSERT_TRUE(
      primary_->CreateColumnFamily(ColumnFamilyOptions(), "b", &b).ok());
  ASSERT_TRUE(primary_->Put(WriteOptions(), b, "k", "b1").ok());

  ASSERT_TRUE(secondary_->TryCatchUpWithPrimary().ok());
  EXPECT_EQ("1", Get(secondary_, "d"));
  // The dropped family's handle still reads what it held.
  ASSERT_TRUE(secondary_->Get(ReadOptions(), a, "k", &value).ok());
  EXPECT_EQ("a1", value);
  EXPECT_TRUE(secondary_->Put(WriteOptions(), a, "k", "x").IsNotSupported());

  for (ColumnFamilyHandle* h : secondary_handles) {
    secondary_->DestroyColumnFamilyHandle(h);
  }
  primary_->DestroyColumnFamilyHandle(b);
  for (ColumnFamilyHandle* h : handles) primary_->DestroyColumnFamilyHandle(h);
}

TEST_F(SecondaryTest, TryCatchUpOnAnotherDBIsNotSupported) {
  OpenPrimary();
  EXPECT_TRUE(primary_->TryCatchUpWithPrimary().IsNotSupported());
  DB* read_only = nullptr;
  ASSERT_TRUE(DB::OpenForReadOnly(options_, name_, &read_only).ok());
  EXPECT_TRUE(read_only->TryCatchUpWithPrimary().IsNotSupported());
  delete read_only;
}

}  // namespace
}  // namespace strata
