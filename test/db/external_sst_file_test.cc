// SstFileWriter and DB::IngestExternalFile(s): the writer's order and
// lifecycle rules and the info it reports; ingestion into an empty DB, over
// the memtable, over data (global sequence number, snapshots), refusals
// that change nothing, move_files, recovery, several families; and the
// MANIFEST's global sequence number field.

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/version_edit.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/listener.h"
#include "strata/sst_file_writer.h"
#include "test/db/db_test_util.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace {

// Counts LinkFile calls; with refuse, fails them as a file system without
// hard links does.
class IngestLinkEnv : public EnvWrapper {
 public:
  explicit IngestLinkEnv(Env* target) : EnvWrapper(target) {}
  Status LinkFile(const std::string& src, const std::string& dst) override {
    links++;
    if (refuse) return Status::NotSupported("no hard links here", src);
    return EnvWrapper::LinkFile(src, dst);
  }
  std::atomic<int> links{0};
  bool refuse = false;
};

class ExternalSstFileTest : public ::testing::Test {
 protected:
  ExternalSstFileTest()
      : env_(Env::Default()), files_(env_, "ext"), holder_(&link_env_) {
    holder_.options().create_if_missing = true;
    holder_.options().env = &link_env_;
  }

  void SetUp() override { ASSERT_TRUE(holder_.Open().ok()); }

  DB* db() { return holder_.db(); }

  // Writes file name holding key i -> value for each i in keys (sorted).
  std::string WriteFile(const std::string& name, const std::vector<int>& keys,
                        const std::string& value,
                        const Options* options = nullptr) {
    const std::string path = files_.File(name);
    SstFileWriter writer(EnvOptions(), options ? *options : holder_.options());
    EXPECT_TRUE(writer.Open(path).ok());
    for (int i : keys) EXPECT_TRUE(writer.Put(test::Key(i), value).ok());
    ExternalSstFileInfo info;
    EXPECT_TRUE(writer.Finish(&info).ok());
    return path;
  }

  std::string Level(int level) {
    std::string v;
    db()->GetProperty("strata.num-files-at-level" + std::to_string(level), &v);
    return v;
  }

  int Tables() {
    return static_cast<int>(
        test::ListDBFiles(env_, holder_.name()).tables.size());
  }

  Env* env_;
  IngestLinkEnv link_env_{Env::Default()};
  test::TempDir files_;
  test::DBHolder holder_;
};

std::vector<int> Range(int begin, int end) {
  std::vector<int> v;
  for (int i = begin; i < end; i++) v.push_back(i);
  return v;
}

// ---- SstFileWriter ---------------------------------------------------------

TEST_F(ExternalSstFileTest, WriterRefusesKeysNotStrictlyIncreasing) {
  SstFileWriter writer(EnvOptions(), holder_.options());
  ASSERT_TRUE(writer.Open(files_.File("a.sst")).ok());
  ASSERT_TRUE(writer.Put("b", "1").ok());
  EXPECT_TRUE(writer.Put("b", "2").IsInvalidArgument());
  EXPECT_TRUE(writer.Put("a", "3").IsInvalidArgument());
  EXPECT_TRUE(writer.Delete("b").IsInvalidArgument());
  EXPECT_TRUE(writer.Merge("a", "x").IsInvalidArgument());
  ASSERT_TRUE(writer.Put("c", "4").ok());
  ExternalSstFileInfo info;
  ASSERT_TRUE(writer.Finish(&info).ok());
  EXPECT_EQ(2u, info.num_entries);
  // Refused entries left nothing behind.
  ASSERT_TRUE(
      db()->IngestExternalFile({info.file_path}, IngestExternalFileOptions())
          .ok());
  EXPECT_EQ("1", holder_.Get("b"));
  EXPECT_EQ("4", holder_.Get("c"));
  EXPECT_EQ("NOT_FOUND", holder_.Get("a"));
}

TEST_F(ExternalSstFileTest, WriterLifecycle) {
  SstFileWriter writer(EnvOptions(), holder_.options());
  EXPECT_TRUE(writer.Put("a", "1").IsInvalidArgument());  // not open
  const std::string empty = files_.File("empty.sst");
  ASSERT_TRUE(writer.Open(empty).ok());
  EXPECT_TRUE(writer.Finish().IsInvalidArgument());  // no entries
  EXPECT_TRUE(env_->FileExists(empty).IsNotFound());
  ASSERT_TRUE(writer.Open(files_.File("one.sst")).ok());
  ASSERT_TRUE(writer.Put("a", "1").ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_TRUE(writer.Put("b", "2").IsInvalidArgument());  // finished
  EXPECT_TRUE(writer.Finish().IsInvalidArgument());
  EXPECT_TRUE(writer.Put("b", "", "2").IsNotSupported());  // timestamps
  // An unfinished file goes with its writer.
  const std::string abandoned = files_.File("abandoned.sst");
  {
    SstFileWriter other(EnvOptions(), holder_.options());
    ASSERT_TRUE(other.Open(abandoned).ok());
    ASSERT_TRUE(other.Put("a", "1").ok());
  }
  EXPECT_TRUE(env_->FileExists(abandoned).IsNotFound());
}

TEST_F(ExternalSstFileTest, WriterReportsFileInfo) {
  SstFileWriter writer(EnvOptions(), holder_.options());
  const std::string path = files_.File("info.sst");
  ASSERT_TRUE(writer.Open(path).ok());
  ASSERT_TRUE(writer.Put("apple", "1").ok());
  ASSERT_TRUE(writer.Delete("banana").ok());
  ASSERT_TRUE(writer.Put("cherry", "3").ok());
  ASSERT_TRUE(writer.DeleteRange("m", "p").ok());
  ASSERT_TRUE(writer.DeleteRange("d", "f").ok());
  ASSERT_TRUE(writer.DeleteRange("x", "x").ok());  // empty: nothing
  EXPECT_TRUE(writer.DeleteRange("z", "y").IsInvalidArgument());
  ExternalSstFileInfo info;
  ASSERT_TRUE(writer.Finish(&info).ok());
  EXPECT_EQ(path, info.file_path);
  EXPECT_EQ("apple", info.smallest_key);
  EXPECT_EQ("cherry", info.largest_key);
  EXPECT_EQ("d", info.smallest_range_del_key);
  EXPECT_EQ("p", info.largest_range_del_key);
  EXPECT_EQ(3u, info.num_entries);
  EXPECT_EQ(2u, info.num_range_del_entries);
  EXPECT_EQ(0u, info.sequence_number);
  EXPECT_EQ(2, info.version);
  uint64_t size = 0;
  ASSERT_TRUE(env_->GetFileSize(path, &size).ok());
  EXPECT_EQ(size, info.file_size);
  EXPECT_EQ(size, writer.FileSize());
}

// ---- Ingestion -------------------------------------------------------------

TEST_F(ExternalSstFileTest, IntoAnEmptyDBAtTheBottomLevel) {
  const std::string path = WriteFile("a.sst", Range(0, 100), "v");
  ASSERT_TRUE(
      db()->IngestExternalFile({path}, IngestExternalFileOptions()).ok());
  EXPECT_EQ("1", Level(6));
  EXPECT_EQ("0", Level(0));
  EXPECT_EQ(0u, db()->GetLatestSequenceNumber());  // no number needed
  EXPECT_EQ(100u, holder_.Contents().size());
  EXPECT_EQ("v", holder_.Get(test::Key(42)));
  // Copied: the source stays.
  EXPECT_TRUE(env_->FileExists(path).ok());
  // Later writes win over it.
  ASSERT_TRUE(holder_.Put(test::Key(42), "new").ok());
  EXPECT_EQ("new", holder_.Get(test::Key(42)));
}

TEST_F(ExternalSstFileTest, OverTheMemTableFlushesFirst) {
  ASSERT_TRUE(holder_.Put(test::Key(5), "old").ok());
  ASSERT_TRUE(holder_.Put(test::Key(500), "apart").ok());
  IngestExternalFileOptions no_flush;
  no_flush.allow_blocking_flush = false;
  const std::string path = WriteFile("a.sst", Range(0, 10), "new");
  EXPECT_TRUE(db()->IngestExternalFile({path}, no_flush).IsInvalidArgument());
  EXPECT_EQ(0, Tables());
  EXPECT_EQ("old", holder_.Get(test::Key(5)));
  EXPECT_EQ("NOT_FOUND", holder_.Get(test::Key(6)));

  // A file apart from the memtable's keys needs no flush.
  const std::string apart = WriteFile("b.sst", Range(100, 110), "b");
  ASSERT_TRUE(db()->IngestExternalFile({apart}, no_flush).ok());
  EXPECT_EQ("0", Level(0));

  ASSERT_TRUE(
      db()->IngestExternalFile({path}, IngestExternalFileOptions()).ok());
  // The flushed memtable, and the file above it at level 0.
  EXPECT_EQ("2", Level(0));
  EXPECT_EQ("new", holder_.Get(test::Key(5)));
  EXPECT_EQ("apart", holder_.Get(test::Key(500)));
  EXPECT_EQ(3u, db()->GetLatestSequenceNumber());  // 2 puts, 1 ingestion
}

TEST_F(ExternalSstFileTest, OverDataGetsAGlobalSequenceNumber) {
  ASSERT_TRUE(holder_.Put(test::Key(5), "old").ok());
  ASSERT_TRUE(holder_.Put(test::Key(7), "old").ok());
  ASSERT_TRUE(db()->Flush(FlushOptions()).ok());
  const Snapshot* before = db()->GetSnapshot();
  const std::string path = WriteFile("a.sst", {5, 6}, "new");

  IngestExternalFileOptions no_seqno;
  no_seqno.allow_global_seqno = false;
  EXPECT_TRUE(db()->IngestExternalFile({path}, no_seqno).IsInvalidArgument());
  EXPECT_EQ(1, Tables());

  ASSERT_TRUE(
      db()->IngestExternalFile({path}, IngestExternalFileOptions()).ok());
  EXPECT_EQ(3u, db()->GetLatestSequenceNumber());
  EXPECT_EQ("new", holder_.Get(test::Key(5)));
  EXPECT_EQ("new", holder_.Get(test::Key(6)));
  EXPECT_EQ("old", holder_.Get(test::Key(7)));
  // The snapshot from before sees none of it, by lookup or iterator.
  EXPECT_EQ("old", holder_.Get(test::Key(5), before));
  EXPECT_EQ("NOT_FOUND", holder_.Get(test::Key(6), before));
  const std::map<std::string, std::string> then = holder_.Contents(before);
  ASSERT_EQ(2u, then.size());
  EXPECT_EQ("old", then.at(test::Key(5)));
  std::vector<std::string> keys = {test::Key(5), test::Key(6), test::Key(7)};
  std::vector<Slice> slices(keys.begin(), keys.end());
  std::vector<std::string> values;
  std::vector<Status> st = db()->MultiGet(ReadOptions(), slices, &values);
  EXPECT_EQ("new", values[0]);
  EXPECT_EQ("new", values[1]);
  EXPECT_EQ("old", values[2]);
  ReadOptions at_before;
  at_before.snapshot = before;
  st = db()->MultiGet(at_before, slices, &values);
  EXPECT_EQ("old", values[0]);
  EXPECT_TRUE(st[1].IsNotFound());
  db()->ReleaseSnapshot(before);

  // Compaction reads the file at its number; recovery keeps the number.
  ASSERT_TRUE(db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ("new", holder_.Get(test::Key(5)));
  const std::string later = WriteFile("b.sst", {5}, "newer");
  ASSERT_TRUE(
      db()->IngestExternalFile({later}, IngestExternalFileOptions()).ok());
  ASSERT_TRUE(holder_.Reopen().ok());
  EXPECT_EQ("newer", holder_.Get(test::Key(5)));
  EXPECT_EQ("new", holder_.Get(test::Key(6)));
  EXPECT_EQ("old", holder_.Get(test::Key(7)));
  EXPECT_EQ(4u, db()->GetLatestSequenceNumber());
  ASSERT_TRUE(holder_.Put(test::Key(5), "put").ok());
  EXPECT_EQ("put", holder_.Get(test::Key(5)));
}

TEST_F(ExternalSstFileTest, OlderSnapshotsDoNotSeeAFileApart) {
  const Snapshot* before = db()->GetSnapshot();
  const std::string path = WriteFile("a.sst", Range(0, 5), "v");
  ASSERT_TRUE(
      db()->IngestExternalFile({path}, IngestExternalFileOptions()).ok());
  EXPECT_EQ(1u, db()->GetLatestSequenceNumber());
  EXPECT_EQ("NOT_FOUND", holder_.Get(test::Key(1), before));
  EXPECT_TRUE(holder_.Contents(before).empty());
  EXPECT_EQ("v", holder_.Get(test::Key(1)));
  db()->ReleaseSnapshot(before);
}

TEST_F(ExternalSstFileTest, RangeDeletionsApplyAtTheFilesNumber) {
  for (int i = 0; i < 6; i++) ASSERT_TRUE(holder_.Put(test::Key(i), "o").ok());
  ASSERT_TRUE(db()->Flush(FlushOptions()).ok());
  SstFileWriter writer(EnvOptions(), holder_.options());
  const std::string path = files_.File("del.sst");
  ASSERT_TRUE(writer.Open(path).ok());
  ASSERT_TRUE(writer.Delete(test::Key(0)).ok());
  ASSERT_TRUE(writer.Put(test::Key(9), "n").ok());
  ASSERT_TRUE(writer.DeleteRange(test::Key(2), test::Key(4)).ok());
  ASSERT_TRUE(writer.Finish().ok());
  ASSERT_TRUE(
      db()->IngestExternalFile({path}, IngestExternalFileOptions()).ok());
  const std::map<std::string, std::string> want = {{test::Key(1), "o"},
                                                   {test::Key(4), "o"},
                                                   {test::Key(5), "o"},
                                                   {test::Key(9), "n"}};
  EXPECT_EQ(want, holder_.Contents());
  ASSERT_TRUE(db()->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(want, holder_.Contents());
}

TEST_F(ExternalSstFileTest, OverlappingFilesOfOneCallChangeNothing) {
  const std::string a = WriteFile("a.sst", Range(0, 10), "a");
  const std::string b = WriteFile("b.sst", Range(9, 20), "b");
  const std::string c = WriteFile("c.sst", Range(30, 40), "c");
  Status s = db()->IngestExternalFile({c, a, b}, IngestExternalFileOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(0, Tables());
  EXPECT_TRUE(holder_.Contents().empty());
  // Apart, in any order, they go in together.
  ASSERT_TRUE(
      db()->IngestExternalFile({c, a}, IngestExternalFileOptions()).ok());
  EXPECT_EQ(20u, holder_.Contents().size());
}

TEST_F(ExternalSstFileTest, OtherComparatorsAndOtherTablesAreRefused) {
  Options reverse = holder_.options();
  reverse.comparator = ReverseBytewiseComparator();
  const std::string path = files_.File("rev.sst");
  SstFileWriter writer(EnvOptions(), reverse);
  ASSERT_TRUE(writer.Open(path).ok());
  ASSERT_TRUE(writer.Put("b", "1").ok());
  ASSERT_TRUE(writer.Put("a", "2").ok());
  ASSERT_TRUE(writer.Finish().ok());
  Status s = db()->IngestExternalFile({path}, IngestExternalFileOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("comparator"));

  // A table the DB wrote is no external file.
  ASSERT_TRUE(holder_.Put("k", "v").ok());
  ASSERT_TRUE(db()->Flush(FlushOptions()).ok());
  const test::DBFiles files = test::ListDBFiles(env_, holder_.name());
  ASSERT_EQ(1u, files.tables.size());
  char name[32];
  std::snprintf(name, sizeof(name), "/%06llu.sst",
                static_cast<unsigned long long>(files.tables[0]));
  s = db()->IngestExternalFile({holder_.name() + name},
                               IngestExternalFileOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(db()->IngestExternalFile({files_.File("missing.sst")},
                                       IngestExternalFileOptions())
                  .IsIOError());
  EXPECT_EQ(1, Tables());
}

TEST_F(ExternalSstFileTest, DamagedFilesAreRefusedBeforeAnyChange) {
  const std::string good = WriteFile("good.sst", Range(100, 110), "g");
  const std::string path = WriteFile("a.sst", Range(0, 2000), "value");
  std::string contents;
  ASSERT_TRUE(ReadFileToString(env_, path, &contents).ok());

  const std::string truncated = files_.File("truncated.sst");
  ASSERT_TRUE(WriteStringToFile(
                  env_, Slice(contents.data(), contents.size() - 7), truncated)
                  .ok());
  std::string flipped_contents = contents;
  flipped_contents[contents.size() / 4] ^= 0x10;  // inside a data block
  const std::string flipped = files_.File("flipped.sst");
  ASSERT_TRUE(WriteStringToFile(env_, flipped_contents, flipped).ok());

  for (const std::string& bad : {truncated, flipped}) {
    Status s =
        db()->IngestExternalFile({good, bad}, IngestExternalFileOptions());
    EXPECT_TRUE(s.IsCorruption()) << bad << ": " << s.ToString();
    EXPECT_EQ(0, Tables());
    EXPECT_TRUE(holder_.Contents().empty());
    EXPECT_EQ(0u, db()->GetLatestSequenceNumber());
  }
}

TEST_F(ExternalSstFileTest, MoveFilesLinksAndDropsTheSourceName) {
  const std::string path = WriteFile("a.sst", Range(0, 10), "v");
  IngestExternalFileOptions move;
  move.move_files = true;
  ASSERT_TRUE(db()->IngestExternalFile({path}, move).ok());
  EXPECT_EQ(1, link_env_.links.load());
  EXPECT_TRUE(env_->FileExists(path).IsNotFound());
  EXPECT_EQ(10u, holder_.Contents().size());

  // A file system without links: copied, and the source stays.
  link_env_.refuse = true;
  const std::string other = WriteFile("b.sst", Range(20, 30), "w");
  ASSERT_TRUE(db()->IngestExternalFile({other}, move).ok());
  EXPECT_TRUE(env_->FileExists(other).ok());
  EXPECT_EQ(20u, holder_.Contents().size());
  // Unless the copy is refused too.
  move.failed_move_fall_back_to_copy = false;
  const std::string third = WriteFile("c.sst", Range(40, 50), "x");
  EXPECT_FALSE(db()->IngestExternalFile({third}, move).ok());
  EXPECT_EQ(2, Tables());
  ASSERT_TRUE(holder_.Reopen().ok());
  EXPECT_EQ(20u, holder_.Contents().size());
}

TEST_F(ExternalSstFileTest, FamiliesIngestTogetherOrNotAtAll) {
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(
      db()->CreateColumnFamily(ColumnFamilyOptions(), "second", &cf).ok());
  const std::string a = WriteFile("a.sst", Range(0, 10), "default");
  const std::string b = WriteFile("b.sst", Range(0, 20), "second");
  const std::string bad = files_.File("bad.sst");
  ASSERT_TRUE(WriteStringToFile(env_, "not a table at all", bad).ok());

  std::vector<IngestExternalFileArg> args(2);
  args[0].column_family = db()->DefaultColumnFamily();
  args[0].external_files = {a};
  args[1].column_family = cf;
  args[1].external_files = {bad};
  EXPECT_FALSE(db()->IngestExternalFiles(args).ok());
  EXPECT_EQ(0, Tables());
  args[1].column_family = db()->DefaultColumnFamily();
  EXPECT_TRUE(db()->IngestExternalFiles(args).IsInvalidArgument());

  args[1].column_family = cf;
  args[1].external_files = {b};
  ASSERT_TRUE(db()->IngestExternalFiles(args).ok());
  std::string v;
  ASSERT_TRUE(db()->Get(ReadOptions(), cf, test::Key(15), &v).ok());
  EXPECT_EQ("second", v);
  EXPECT_EQ("default", holder_.Get(test::Key(5)));
  EXPECT_EQ("NOT_FOUND", holder_.Get(test::Key(15)));
  ASSERT_TRUE(db()->DestroyColumnFamilyHandle(cf).ok());
}

// Records what OnExternalFileIngested is told, and asks the DB a
// question from inside the call (which would hang if the DB mutex were
// held).
class IngestListener : public EventListener {
 public:
  void OnExternalFileIngested(DB* db,
                              const ExternalFileIngestionInfo& info) override {
    std::string files;
    EXPECT_TRUE(db->GetProperty("strata.num-files-at-level6", &files));
    infos.push_back(info);
  }
  std::vector<ExternalFileIngestionInfo> infos;
};

TEST_F(ExternalSstFileTest, ListenersHearOfEachIngestedFile) {
  auto listener = std::make_shared<IngestListener>();
  holder_.options().listeners.push_back(listener);
  ASSERT_TRUE(holder_.Reopen().ok());
  ASSERT_TRUE(holder_.Put(test::Key(1), "old").ok());
  ASSERT_TRUE(db()->Flush(FlushOptions()).ok());
  const std::string a = WriteFile("a.sst", {1, 2}, "new");
  const std::string b = WriteFile("b.sst", {20, 21}, "new");

  // A refused call tells nothing.
  const std::string overlapping = WriteFile("c.sst", {2, 20}, "new");
  EXPECT_TRUE(
      db()->IngestExternalFile({a, overlapping}, IngestExternalFileOptions())
          .IsInvalidArgument());
  EXPECT_TRUE(listener->infos.empty());

  ASSERT_TRUE(
      db()->IngestExternalFile({b, a}, IngestExternalFileOptions()).ok());
  ASSERT_EQ(2u, listener->infos.size());
  const SequenceNumber ingested = db()->GetLatestSequenceNumber();
  EXPECT_EQ(2u, ingested);  // the Put was 1; the overlap with key 1 needs 2
  bool saw_a = false, saw_b = false;
  for (const ExternalFileIngestionInfo& info : listener->infos) {
    EXPECT_EQ(kDefaultColumnFamilyName, info.cf_name);
    EXPECT_TRUE(env_->FileExists(info.internal_file_path).ok())
        << info.internal_file_path;
    EXPECT_NE(info.external_file_path, info.internal_file_path);
    if (info.external_file_path == a) {
      saw_a = true;
      EXPECT_EQ(ingested, info.global_seqno);  // over the flushed key 1
    }
    saw_b |= info.external_file_path == b;
  }
  EXPECT_TRUE(saw_a);
  EXPECT_TRUE(saw_b);
}

// Ingestions while writers run, in each write mode: no write is lost, the
// ingested keys overwrite what the writers wrote before, and a writer's
// key written after an ingestion returned wins over the file.
class IngestWhileWritingTest : public ExternalSstFileTest,
                               public ::testing::WithParamInterface<int> {};

TEST_P(IngestWhileWritingTest, NoWriteIsLostAndTheNewestWins) {
  holder_.options().enable_pipelined_write = GetParam() == 1;
  holder_.options().unordered_write = GetParam() == 2;
  holder_.options().write_buffer_size = 64 << 10;  // flushes meanwhile
  ASSERT_TRUE(holder_.Reopen().ok());
  constexpr int kWriters = 3, kPerWriter = 400, kFiles = 6, kSpan = 3000;
  // Per key: its Put started / returned.
  std::vector<std::atomic<bool>> started(kSpan), done(kSpan);
  std::atomic<bool> failed{false};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; w++) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < kPerWriter; i++) {
        const int k = w * 1000 + i;
        started[k] = true;
        if (!holder_.Put(test::Key(k), "w").ok()) failed = true;
        done[k] = true;
      }
    });
  }
  // Per key a file holds: "file" if the Put returned before the ingestion
  // began, "w" if it started after the ingestion returned.
  std::map<int, std::string> expected;
  for (int f = 0; f < kFiles; f++) {
    const int first = (f % kWriters) * 1000 + f * 60;
    const std::vector<int> keys = Range(first, first + 30);
    const std::string path =
        WriteFile("f" + std::to_string(f) + ".sst", keys, "file");
    std::vector<bool> before;
    for (int k : keys) before.push_back(done[k]);
    ASSERT_TRUE(
        db()->IngestExternalFile({path}, IngestExternalFileOptions()).ok());
    for (size_t i = 0; i < keys.size(); i++) {
      if (before[i]) expected[keys[i]] = "file";
      if (!started[keys[i]]) expected[keys[i]] = "w";
    }
  }
  for (std::thread& t : writers) t.join();
  ASSERT_FALSE(failed.load());
  const std::map<std::string, std::string> all = holder_.Contents();
  for (int w = 0; w < kWriters; w++) {
    for (int i = 0; i < kPerWriter; i++) {
      ASSERT_EQ(1u, all.count(test::Key(w * 1000 + i))) << w << " " << i;
    }
  }
  for (const auto& e : expected) {
    EXPECT_EQ(e.second, all.at(test::Key(e.first))) << e.first;
  }
  ASSERT_TRUE(holder_.Reopen().ok());
  EXPECT_EQ(all, holder_.Contents());
}

INSTANTIATE_TEST_SUITE_P(WriteModes, IngestWhileWritingTest,
                         ::testing::Values(0, 1, 2));

// ---- The MANIFEST field ----------------------------------------------------

TEST(IngestManifestTest, GlobalSequenceNumberRoundTripsAndIsChecked) {
  VersionEdit edit;
  FileMetaData f;
  f.number = 12;
  f.file_size = 100;
  f.smallest = InternalKey("a", 77, kTypeValue);
  f.largest = InternalKey("b", 77, kTypeValue);
  f.smallest_seqno = f.largest_seqno = f.global_seqno = 77;
  edit.AddFile(3, f);
  FileMetaData plain = f;
  plain.number = 13;
  plain.global_seqno = 0;
  edit.AddFile(4, plain);
  std::string encoded;
  edit.EncodeTo(&encoded);
  VersionEdit decoded;
  ASSERT_TRUE(decoded.DecodeFrom(encoded).ok());
  ASSERT_EQ(2u, decoded.new_files().size());
  EXPECT_EQ(77u, decoded.new_files()[0].second.global_seqno);
  EXPECT_EQ(0u, decoded.new_files()[1].second.global_seqno);

  // The field must follow its own file's record.
  std::string orphan;
  PutVarint32(&orphan, 8);
  PutVarint64(&orphan, 12);
  PutVarint64(&orphan, 77);
  EXPECT_TRUE(decoded.DecodeFrom(orphan).IsCorruption());
  orphan.resize(orphan.size() - 1);
  EXPECT_TRUE(decoded.DecodeFrom(orphan).IsCorruption());
}

}  // namespace
}  // namespace strata
