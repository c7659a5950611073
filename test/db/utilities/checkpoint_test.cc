// Checkpoint and GetLiveFilesStorageInfo: a checkpoint opens as a DB of
// its own holding exactly the writes up to the sequence number it reports,
// across every column family, also while writers and readers run; tables
// are linked where the Env can link and copied where it cannot; a failed
// checkpoint leaves nothing behind and file deletions resume.

#include "strata/utilities/checkpoint.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "test/db/db_test_util.h"
#include "test/db/utilities/family_writers.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// ("default" spelt out: kDefaultColumnFamilyName may not be constructed
// yet when this is.)
const std::vector<std::string> kFamilies = {"default", "lock", "write"};

// Counts LinkFile calls; with refuse_links, fails them as a file system
// without hard links does.
class LinkCountingEnv : public EnvWrapper {
 public:
  explicit LinkCountingEnv(Env* target) : EnvWrapper(target) {}
  Status LinkFile(const std::string& src, const std::string& dst) override {
    links_++;
    if (refuse_links_) return Status::NotSupported("no hard links here", src);
    return EnvWrapper::LinkFile(src, dst);
  }
  // Fails the creation of files whose name contains fail_name.
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    if (!fail_name_.empty() && f.find(fail_name_) != std::string::npos) {
      return Status::IOError("injected", f);
    }
    return EnvWrapper::NewWritableFile(f, r, options);
  }

  std::atomic<int> links_{0};
  bool refuse_links_ = false;
  std::string fail_name_;
};

class CheckpointTest : public ::testing::Test {
 protected:
  CheckpointTest() : env_(Env::Default()), dir_(Env::Default(), "ckpt") {}

  void SetUp() override {
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
    options_.env = &env_;
    Status s = OpenDB(dir_.File("db"), &db_, &handles_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void TearDown() override { CloseDB(&db_, &handles_); }

  Status OpenDB(const std::string& name, std::unique_ptr<DB>* db,
                std::vector<ColumnFamilyHandle*>* handles) {
    std::vector<ColumnFamilyDescriptor> families;
    for (const std::string& f : kFamilies) {
      families.emplace_back(f, ColumnFamilyOptions(options_));
    }
    DB* raw = nullptr;
    Status s = DB::Open(options_, name, families, handles, &raw);
    db->reset(raw);
    return s;
  }

  static void CloseDB(std::unique_ptr<DB>* db,
                      std::vector<ColumnFamilyHandle*>* handles) {
    for (ColumnFamilyHandle* h : *handles) (*db)->DestroyColumnFamilyHandle(h);
    handles->clear();
    db->reset();
  }

  // Writes key=value into every family in one batch.
  Status PutAll(DB* db, const std::vector<ColumnFamilyHandle*>& handles,
                const std::string& key, const std::string& value) {
    WriteBatch batch;
    for (ColumnFamilyHandle* h : handles) batch.Put(h, key, value);
    return db->Write(WriteOptions(), &batch);
  }

  Status TakeCheckpoint(const std::string& dir, uint64_t log_size_for_flush,
                        uint64_t* sequence = nullptr) {
    Checkpoint* raw = nullptr;
    Status s = Checkpoint::Create(db_.get(), &raw);
    if (!s.ok()) return s;
    std::unique_ptr<Checkpoint> checkpoint(raw);
    return checkpoint->CreateCheckpoint(dir, log_size_for_flush, sequence);
  }

  std::string Get(DB* db, ColumnFamilyHandle* h, const std::string& key) {
    std::string value;
    Status s = db->Get(ReadOptions(), h, key, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    return s.ok() ? value : s.ToString();
  }

  LinkCountingEnv env_;
  test::TempDir dir_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::vector<ColumnFamilyHandle*> handles_;
};

TEST_F(CheckpointTest, OpensAsADBOfItsOwnWithEveryFamilysData) {
  ASSERT_TRUE(PutAll(db_.get(), handles_, "flushed", "1").ok());
  for (ColumnFamilyHandle* h : handles_) {
    ASSERT_TRUE(db_->Flush(FlushOptions(), h).ok());
  }
  ASSERT_TRUE(PutAll(db_.get(), handles_, "in-memtable", "2").ok());
  ASSERT_TRUE(db_->Delete(WriteOptions(), handles_[1], "flushed").ok());

  uint64_t sequence = 0;
  const std::string copy = dir_.File("copy");
  ASSERT_TRUE(TakeCheckpoint(copy, 0, &sequence).ok());
  EXPECT_EQ(db_->GetLatestSequenceNumber(), sequence);
  EXPECT_GT(env_.links_.load(), 0);
  EXPECT_TRUE(env_.FileExists(copy + ".tmp").IsNotFound());

  // Writes after the checkpoint stay out of it.
  ASSERT_TRUE(PutAll(db_.get(), handles_, "later", "3").ok());

  std::unique_ptr<DB> cdb;
  std::vector<ColumnFamilyHandle*> ch;
  options_.create_if_missing = false;
  ASSERT_TRUE(OpenDB(copy, &cdb, &ch).ok());
  EXPECT_EQ(sequence, cdb->GetLatestSequenceNumber());
  for (size_t i = 0; i < ch.size(); i++) {
    EXPECT_EQ(i == 1 ? "NOT_FOUND" : "1", Get(cdb.get(), ch[i], "flushed"));
    EXPECT_EQ("2", Get(cdb.get(), ch[i], "in-memtable"));
    EXPECT_EQ("NOT_FOUND", Get(cdb.get(), ch[i], "later"));
  }
  std::string id, copy_id;
  ASSERT_TRUE(db_->GetDbIdentity(id).ok());
  ASSERT_TRUE(cdb->GetDbIdentity(copy_id).ok());
  EXPECT_NE(id, copy_id);

  // The two DBs share linked tables but nothing else: a write and a
  // compaction in the copy leave the original alone.
  ASSERT_TRUE(cdb->Put(WriteOptions(), ch[0], "flushed", "copy").ok());
  ASSERT_TRUE(
      cdb->CompactRange(CompactRangeOptions(), ch[0], nullptr, nullptr).ok());
  EXPECT_EQ("1", Get(db_.get(), handles_[0], "flushed"));
  EXPECT_EQ("3", Get(db_.get(), handles_[0], "later"));
  CloseDB(&cdb, &ch);
}

TEST_F(CheckpointTest, WithoutAFlushTheWalsCarryTheMemtables) {
  ASSERT_TRUE(PutAll(db_.get(), handles_, "a", "1").ok());
  const uint64_t tables_before = test::TableCount(db_.get(), handles_[0]);
  const std::string copy = dir_.File("copy");
  uint64_t sequence = 0;
  ASSERT_TRUE(TakeCheckpoint(copy, UINT64_MAX, &sequence).ok());
  // Nothing was flushed: the WAL went into the copy.
  EXPECT_EQ(tables_before, test::TableCount(db_.get(), handles_[0]));
  EXPECT_FALSE(test::ListDBFiles(&env_, copy).logs.empty());

  std::unique_ptr<DB> cdb;
  std::vector<ColumnFamilyHandle*> ch;
  ASSERT_TRUE(OpenDB(copy, &cdb, &ch).ok());
  EXPECT_EQ(sequence, cdb->GetLatestSequenceNumber());
  for (ColumnFamilyHandle* h : ch) EXPECT_EQ("1", Get(cdb.get(), h, "a"));
  CloseDB(&cdb, &ch);
}

TEST_F(CheckpointTest, AWalHoldingNoWriteStillLinksItsNeighbours) {
  ASSERT_TRUE(PutAll(db_.get(), handles_, "before", "1").ok());
  // Two switches with no write between them: the WAL between holds only
  // the record naming its predecessor, and the next one's record names it
  // with its length. Copied short, it would end the copy's recovery there.
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[0]).ok());
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  ASSERT_TRUE(PutAll(db_.get(), handles_, "after", "2").ok());
  const std::string copy = dir_.File("copy");
  uint64_t sequence = 0;
  ASSERT_TRUE(TakeCheckpoint(copy, UINT64_MAX, &sequence).ok());
  EXPECT_GE(test::ListDBFiles(&env_, copy).logs.size(), 3u);
  std::unique_ptr<DB> cdb;
  std::vector<ColumnFamilyHandle*> ch;
  ASSERT_TRUE(OpenDB(copy, &cdb, &ch).ok());
  EXPECT_EQ(sequence, cdb->GetLatestSequenceNumber());
  for (ColumnFamilyHandle* h : ch) {
    EXPECT_EQ("1", Get(cdb.get(), h, "before")) << h->GetName();
    EXPECT_EQ("2", Get(cdb.get(), h, "after")) << h->GetName();
  }
  CloseDB(&cdb, &ch);
}

TEST_F(CheckpointTest, TablesAreCopiedWhereTheyCannotBeLinked) {
  ASSERT_TRUE(PutAll(db_.get(), handles_, "a", "1").ok());
  env_.refuse_links_ = true;
  const std::string copy = dir_.File("copy");
  ASSERT_TRUE(TakeCheckpoint(copy, 0).ok());
  // One refused link, then copies only.
  EXPECT_EQ(1, env_.links_.load());
  EXPECT_FALSE(test::ListDBFiles(&env_, copy).tables.empty());
  std::unique_ptr<DB> cdb;
  std::vector<ColumnFamilyHandle*> ch;
  ASSERT_TRUE(OpenDB(copy, &cdb, &ch).ok());
  for (ColumnFamilyHandle* h : ch) EXPECT_EQ("1", Get(cdb.get(), h, "a"));
  CloseDB(&cdb, &ch);
}

TEST_F(CheckpointTest, BadDirectoriesAreRefusedAndLeaveNothing) {
  const std::string copy = dir_.File("copy");
  ASSERT_TRUE(env_.CreateDir(copy).ok());
  Status s = TakeCheckpoint(copy, 0);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("exists")) << s.ToString();

  s = TakeCheckpoint(dir_.File("missing/parent/copy"), 0);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(env_.FileExists(dir_.File("missing")).IsNotFound());

  EXPECT_TRUE(TakeCheckpoint("", 0).IsInvalidArgument());

  // What an earlier, interrupted attempt left in <dir>.tmp goes.
  const std::string other = dir_.File("other");
  ASSERT_TRUE(env_.CreateDir(other + ".tmp").ok());
  ASSERT_TRUE(
      WriteStringToFile(&env_, "junk", other + ".tmp/000001.sst", false).ok());
  ASSERT_TRUE(PutAll(db_.get(), handles_, "a", "1").ok());
  ASSERT_TRUE(TakeCheckpoint(other, 0).ok());
  std::unique_ptr<DB> cdb;
  std::vector<ColumnFamilyHandle*> ch;
  ASSERT_TRUE(OpenDB(other, &cdb, &ch).ok());
  EXPECT_EQ("1", Get(cdb.get(), ch[0], "a"));
  CloseDB(&cdb, &ch);
}

TEST_F(CheckpointTest, AFailedCopyLeavesNothingAndDeletionsResume) {
  ASSERT_TRUE(PutAll(db_.get(), handles_, "a", "1").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[0]).ok());
  ASSERT_TRUE(PutAll(db_.get(), handles_, "b", "2").ok());
  const std::string copy = dir_.File("copy");
  env_.fail_name_ = "MANIFEST";
  Status s = TakeCheckpoint(copy, 0);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(env_.FileExists(copy).IsNotFound());
  // Nothing is left in <dir>.tmp. (On Windows without POSIX deletes the
  // directory itself may stay while the DB holds open a table that was
  // linked into it: its removed link lingers, hidden, until then.)
  std::vector<std::string> left;
  if (env_.GetChildren(copy + ".tmp", &left).ok()) {
    EXPECT_TRUE(left.empty()) << left[0];
  }
  env_.fail_name_.clear();

  // Deletions are enabled again: the tables a compaction replaces go.
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[0]).ok());
  const std::vector<uint64_t> before =
      test::ListDBFiles(&env_, dir_.File("db")).tables;
  ASSERT_TRUE(
      db_->CompactRange(CompactRangeOptions(), handles_[0], nullptr, nullptr)
          .ok());
  for (uint64_t number : before) {
    std::vector<LiveFileMetaData> live;
    db_->GetLiveFilesMetaData(&live);
    bool is_live = false;
    for (const LiveFileMetaData& f : live) is_live |= f.file_number == number;
    if (!is_live) {
      EXPECT_TRUE(
          env_.FileExists(TableFileName(dir_.File("db"), number)).IsNotFound())
          << number;
    }
  }
  ASSERT_TRUE(TakeCheckpoint(copy, 0).ok());
}

TEST_F(CheckpointTest, StorageInfoListsEachFileWithTheSizeACopyTakes) {
  ASSERT_TRUE(PutAll(db_.get(), handles_, "a", "1").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[2]).ok());
  ASSERT_TRUE(PutAll(db_.get(), handles_, "b", "2").ok());
  LiveFilesStorageInfoOptions opts;
  opts.wal_size_for_flush = UINT64_MAX;
  opts.include_checksum_info = true;
  std::vector<LiveFileStorageInfo> files;
  ASSERT_TRUE(db_->GetLiveFilesStorageInfo(opts, &files).ok());

  std::vector<LiveFileMetaData> tables;
  db_->GetLiveFilesMetaData(&tables);
  size_t table_count = 0, wals = 0, manifests = 0, options = 0;
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(kCurrentFile, files.back().file_type);  // last: it names the rest
  for (const LiveFileStorageInfo& f : files) {
    EXPECT_EQ(dir_.File("db"), f.directory);
    EXPECT_EQ("Unknown", f.file_checksum_func_name);
    uint64_t on_disk = 0;
    ASSERT_TRUE(
        env_.GetFileSize(f.directory + "/" + f.relative_filename, &on_disk)
            .ok())
        << f.relative_filename;
    switch (f.file_type) {
      case kTableFile:
        table_count++;
        EXPECT_EQ(on_disk, f.size);
        EXPECT_FALSE(f.trim_to_size);
        break;
      case kWalFile:
        wals++;
        EXPECT_TRUE(f.trim_to_size);
        EXPECT_LE(f.size, on_disk);
        EXPECT_GT(f.size, 0u);
        break;
      case kDescriptorFile:
        manifests++;
        EXPECT_TRUE(f.trim_to_size);
        EXPECT_LE(f.size, on_disk);
        EXPECT_EQ("MANIFEST-", f.relative_filename.substr(0, 9));
        EXPECT_EQ(files.back().replacement_contents,
                  f.relative_filename + "\n");
        break;
      case kOptionsFile:
        options++;
        EXPECT_EQ(on_disk, f.size);
        break;
      case kCurrentFile:
        EXPECT_EQ("CURRENT", f.relative_filename);
        EXPECT_EQ(f.replacement_contents.size(), f.size);
        break;
      default:
        ADD_FAILURE() << "unexpected file " << f.relative_filename;
    }
  }
  EXPECT_EQ(tables.size(), table_count);
  EXPECT_EQ(1u, manifests);
  EXPECT_EQ(1u, options);
  EXPECT_GE(wals, 1u);
}

// Writers put batches that write one key into every family; each writer's
// keys are numbered in order. A checkpoint taken meanwhile must hold, for
// each writer, exactly its first n keys in every family, and the batches
// it holds must account for every sequence number up to the reported one.
class CheckpointWhileWritingTest
    : public CheckpointTest,
      public ::testing::WithParamInterface<std::tuple<int, uint64_t>> {};

TEST_P(CheckpointWhileWritingTest, HoldsExactlyTheWritesUpToItsSequence) {
  const int mode = std::get<0>(GetParam());
  const uint64_t log_size_for_flush = std::get<1>(GetParam());
  CloseDB(&db_, &handles_);
  options_.enable_pipelined_write = mode == 1;
  options_.unordered_write = mode == 2;
  options_.write_buffer_size = 64 * 1024;  // flushes while it runs
  ASSERT_TRUE(OpenDB(dir_.File("db2"), &db_, &handles_).ok());
  const SequenceNumber start = db_->GetLatestSequenceNumber();

  constexpr int kWriters = 4, kReaders = 2, kCheckpoints = 3;
  test::FamilyWriters load(db_.get(), handles_, kWriters, kReaders);
  std::vector<SequenceNumber> sequences(kCheckpoints);
  for (int c = 0; c < kCheckpoints; c++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(TakeCheckpoint(dir_.File("copy" + std::to_string(c)),
                               log_size_for_flush, &sequences[c])
                    .ok());
  }
  ASSERT_EQ(0, load.Stop());

  options_.create_if_missing = false;
  for (int c = 0; c < kCheckpoints; c++) {
    SCOPED_TRACE("checkpoint " + std::to_string(c));
    std::unique_ptr<DB> cdb;
    std::vector<ColumnFamilyHandle*> ch;
    ASSERT_TRUE(OpenDB(dir_.File("copy" + std::to_string(c)), &cdb, &ch).ok());
    const uint64_t batches = test::CountWriterBatches(cdb.get(), ch, kWriters);
    // Each batch took one sequence number per family.
    EXPECT_EQ(sequences[c] - start, batches * kFamilies.size());
    // The MANIFEST may record a later number (a flush's edit takes the
    // DB's newest): numbering in the copy continues above it, with no data
    // between.
    EXPECT_LE(sequences[c], cdb->GetLatestSequenceNumber());
    CloseDB(&cdb, &ch);
  }
}

using WriteModeParam = ::testing::TestParamInfo<std::tuple<int, uint64_t>>;

std::string WriteModeName(const WriteModeParam& info) {
  static const char* kModes[] = {"Ordered", "Pipelined", "Unordered"};
  return std::string(kModes[std::get<0>(info.param)]) +
         (std::get<1>(info.param) == 0 ? "Flushed" : "FromWals");
}

INSTANTIATE_TEST_SUITE_P(WriteModes, CheckpointWhileWritingTest,
                         ::testing::Combine(::testing::Values(0, 1, 2),
                                            ::testing::Values(uint64_t{0},
                                                              UINT64_MAX)),
                         WriteModeName);

}  // namespace
}  // namespace strata
