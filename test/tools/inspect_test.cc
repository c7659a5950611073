// tools/inspect: the output of manifest_dump, dump_wal and idump on a DB
// built through the API (two families; puts, deletes, merges, a single
// delete and range deletions; a flush and a reopen, so some data is in
// tables, some only in the WAL, and the MANIFEST has several edits), and
// their errors on damaged copies of its files.

#include "tools/inspect/inspect.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/write_batch.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace inspect {
namespace {

// The lines of s.
int Lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

class Concat final : public AssociativeMergeOperator {
 public:
  bool Merge(const Slice&, const Slice* existing, const Slice& value,
             std::string* result, Logger*) const override {
    *result = existing == nullptr
                  ? value.ToString()
                  : existing->ToString() + "," + value.ToString();
    return true;
  }
  const char* Name() const override { return "Concat"; }
};

// The bytewise order in reverse, under a name no built-in comparator has.
class Backwards final : public Comparator {
 public:
  int Compare(const Slice& a, const Slice& b) const override {
    return -a.compare(b);
  }
  const char* Name() const override { return "test.Backwards"; }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

class InspectTest : public testing::Test {
 protected:
  InspectTest() : env_(Env::Default()), dir_(env_, "inspect") {
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
    options_.merge_operator = std::make_shared<Concat>();
  }

  std::string Path() const { return dir_.path(); }

  void Open() {
    std::vector<ColumnFamilyDescriptor> families = {
        {kDefaultColumnFamilyName, options_}, {"cf1", options_}};
    DB* db = nullptr;
    ASSERT_TRUE(DB::Open(options_, Path(), families, &handles_, &db).ok());
    db_.reset(db);
  }
  void Close() {
    for (ColumnFamilyHandle* h : handles_) {
      ASSERT_TRUE(db_->DestroyColumnFamilyHandle(h).ok());
    }
    handles_.clear();
    ASSERT_TRUE(db_->Close().ok());
    db_.reset();
  }

  // The DB every test reads: its first writes flushed (a range tombstone
  // among them), then a reopen (its WAL replayed into a table), then
  // writes left in the WAL, then a clean close.
  void Build() {
    Open();
    WriteOptions w;
    ASSERT_TRUE(db_->Put(w, "a", "1").ok());
    ASSERT_TRUE(db_->Put(w, handles_[1], "b", "2").ok());
    ASSERT_TRUE(db_->Merge(w, "k", "m0").ok());
    ASSERT_TRUE(db_->DeleteRange(w, handles_[0], "x", "z").ok());
    ASSERT_TRUE(db_->Flush(FlushOptions(), handles_).ok());
    ASSERT_TRUE(db_->Put(w, "y", "old").ok());
    Close();
    Open();
    WriteBatch b;
    ASSERT_TRUE(b.Put("k", "v").ok());
    ASSERT_TRUE(b.Delete("a").ok());
    ASSERT_TRUE(b.Merge("k", "m").ok());
    ASSERT_TRUE(b.SingleDelete("s").ok());
    ASSERT_TRUE(b.DeleteRange("c", "f").ok());
    ASSERT_TRUE(b.Put(handles_[1], std::string("\x00\xff", 2), "z").ok());
    ASSERT_TRUE(b.Delete(handles_[1], "b").ok());
    ASSERT_TRUE(db_->Write(w, &b).ok());
    ASSERT_TRUE(db_->Put(w, "c", "cc").ok());
    ASSERT_TRUE(db_->Merge(w, "k", "m2").ok());
    Close();
  }

  // The numbers of the files of type in the DB, ascending.
  std::vector<uint64_t> Files(FileType want) const {
    std::vector<std::string> children;
    EXPECT_TRUE(env_->GetChildren(Path(), &children).ok());
    std::vector<uint64_t> result;
    for (const std::string& c : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(c, &number, &type) && type == want) {
        result.push_back(number);
      }
    }
    std::sort(result.begin(), result.end());
    return result;
  }

  // The size of table number, as the MANIFEST records it.
  std::string Size(uint64_t number) const {
    uint64_t size = 0;
    EXPECT_TRUE(env_->GetFileSize(TableFileName(Path(), number), &size).ok());
    return std::to_string(size);
  }

  // The lines of the levels from..63 of a family with no file there.
  static std::string EmptyLevels(int from, int version) {
    std::string r;
    for (int level = from; level < 64; level++) {
      r += "--- level " + std::to_string(level) + " --- version# " +
           std::to_string(version) + " ---\n";
    }
    return r;
  }

  std::string Manifest() const { return DescriptorFileName(Path(), 13); }
  std::string Wal() const { return LogFileName(Path(), 11); }

  // The state of the DB the MANIFEST of Build() leaves (not verbose).
  std::string Summary(bool hex) const {
    const std::string a = hex ? "61" : "a", b = hex ? "62" : "b",
                      y = hex ? "79" : "y", z = hex ? "7A" : "z";
    return "--------------- Column family \"default\"  (ID 0) --------------\n"
           "log number: 11\n"
           "comparator: leveldb.BytewiseComparator\n"
           "--- level 0 --- version# 2 ---\n"
           " 12:" +
           Size(12) + "[5 .. 5]['" + y + "' seq:5, type:1 .. '" + y +
           "' seq:5, type:1]\n"
           " 9:" +
           Size(9) + "[1 .. 4]['" + a + "' seq:1, type:1 .. '" + z +
           "' seq:72057594037927935, type:15]\n" + EmptyLevels(1, 2) +
           "--------------- Column family \"cf1\"  (ID 1) --------------\n"
           "log number: 11\n"
           "comparator: leveldb.BytewiseComparator\n"
           "--- level 0 --- version# 3 ---\n"
           " 10:" +
           Size(10) + "[2 .. 2]['" + b + "' seq:2, type:1 .. '" + b +
           "' seq:2, type:1]\n" + EmptyLevels(1, 3) +
           "next_file_number 16 last_sequence 5  prev_log_number 0 "
           "max_column_family 1 min_log_number_to_keep 11\n";
  }

  // Copies file from to to, keeping size bytes of it, with the byte at
  // flip (if < size) inverted.
  void CopyDamaged(const std::string& from, const std::string& to, size_t size,
                   size_t flip = SIZE_MAX) {
    std::string contents;
    ASSERT_TRUE(ReadFileToString(env_, from, &contents).ok());
    ASSERT_LE(size, contents.size());
    contents.resize(size);
    if (flip < size) contents[flip] = static_cast<char>(~contents[flip]);
    ASSERT_TRUE(WriteStringToFile(env_, contents, to).ok());
  }

  uint64_t FileSize(const std::string& path) const {
    uint64_t size = 0;
    EXPECT_TRUE(env_->GetFileSize(path, &size).ok());
    return size;
  }

  // Every file of the DB with its size: what no inspect call may change.
  std::string Listing() const {
    std::vector<std::string> children;
    EXPECT_TRUE(env_->GetChildren(Path(), &children).ok());
    std::sort(children.begin(), children.end());
    std::string r;
    for (const std::string& c : children) {
      if (c == "." || c == "..") continue;
      r += c + " " + std::to_string(FileSize(Path() + "/" + c)) + "\n";
    }
    return r;
  }
  Env* const env_;
  test::TempDir dir_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::vector<ColumnFamilyHandle*> handles_;
};

TEST_F(InspectTest, ManifestVerbose) {
  Build();
  ASSERT_EQ(Files(FileType::kDescriptorFile), std::vector<uint64_t>{13});
  std::ostringstream out;
  ASSERT_TRUE(DumpManifest(env_, Path(), "", true, false, &out).ok());
  // The MANIFEST the reopen started: the snapshot (both families, one
  // atomic group), the recovery flush of the WAL (a group: the default
  // family's table and cf1's log number) and the close's edit.
  const std::string expected =
      "Processing Manifest file " + Manifest() + "\n" +
      "VersionEdit {\n"
      "  Comparator: leveldb.BytewiseComparator\n"
      "  LogNumber: 8\n"
      "  NextFileNumber: 14\n"
      "  MaxColumnFamily: 1\n"
      "  LastSeq: 5\n"
      "  AddFile: 0 9 " +
      Size(9) +
      " 'a' seq:1, type:1 .. 'z' seq:72057594037927935, type:15\n"
      "  ColumnFamily: 0\n"
      "  AtomicGroup: 1 entries remains\n"
      "}\n"
      "VersionEdit {\n"
      "  Comparator: leveldb.BytewiseComparator\n"
      "  LogNumber: 8\n"
      "  AddFile: 0 10 " +
      Size(10) +
      " 'b' seq:2, type:1 .. 'b' seq:2, type:1\n"
      "  ColumnFamily: 1\n"
      "  ColumnFamilyAdd: cf1\n"
      "  AtomicGroup: 0 entries remains\n"
      "}\n"
      "VersionEdit {\n"
      "  LogNumber: 11\n"
      "  AddFile: 0 12 " +
      Size(12) +
      " 'y' seq:5, type:1 .. 'y' seq:5, type:1\n"
      "  ColumnFamily: 0\n"
      "  AtomicGroup: 1 entries remains\n"
      "}\n"
      "VersionEdit {\n"
      "  LogNumber: 11\n"
      "  NextFileNumber: 14\n"
      "  LastSeq: 5\n"
      "  ColumnFamily: 1\n"
      "  AtomicGroup: 0 entries remains\n"
      "}\n"
      "VersionEdit {\n"
      "  LogNumber: 11\n"
      // 14 and 15 went to the OPTIONS file the reopen wrote (and its
      // temp file) after MANIFEST 13.
      "  NextFileNumber: 16\n"
      "  LastSeq: 5\n"
      "  ColumnFamily: 0\n"
      "}\n" +
      Summary(false) + "Processing Manifest file " + Manifest() + " done\n";
  EXPECT_EQ(expected, out.str());
}

TEST_F(InspectTest, ManifestByPathInHex) {
  Build();
  std::ostringstream out;
  // CURRENT is not read when the MANIFEST is named.
  ASSERT_TRUE(env_->RemoveFile(CurrentFileName(Path())).ok());
  ASSERT_TRUE(DumpManifest(env_, "", Manifest(), false, true, &out).ok());
  EXPECT_EQ(Summary(true), out.str());
  out.str("");
  EXPECT_FALSE(DumpManifest(env_, Path(), "", false, false, &out).ok());
  // A CURRENT naming no MANIFEST, or too long to be a name.
  for (const std::string& current :
       {std::string("MANIFEST-000013"), std::string("000011.log\n"),
        std::string(5000, 'M')}) {
    ASSERT_TRUE(WriteStringToFile(env_, current, CurrentFileName(Path())).ok());
    Status s = DumpManifest(env_, Path(), "", false, false, &out);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.ToString().find("CURRENT"), std::string::npos);
  }
  EXPECT_EQ("", out.str());
}

TEST_F(InspectTest, ManifestDamaged) {
  Build();
  std::ostringstream out;
  const std::string copy = Path() + "/MANIFEST-000099";
  const uint64_t size = FileSize(Manifest());
  // Cut inside the last record (the close's edit).
  CopyDamaged(Manifest(), copy, size - 3);
  Status s = DumpManifest(env_, "", copy, true, false, &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(copy), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("offset"), std::string::npos) << s.ToString();
  // The edits before the damage are printed, the summary is not.
  EXPECT_NE(out.str().find("AtomicGroup: 0 entries remains"),
            std::string::npos);
  EXPECT_EQ(out.str().find("Column family"), std::string::npos);

  // A flipped bit in the first record: nothing can be read.
  out.str("");
  CopyDamaged(Manifest(), copy, size, 20);
  s = DumpManifest(env_, "", copy, false, false, &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(copy), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("offset 0"), std::string::npos) << s.ToString();
  EXPECT_EQ("", out.str());

  // Missing, empty, and a WAL in its place.
  s = DumpManifest(env_, "", Path() + "/MANIFEST-000098", false, false, &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("MANIFEST-000098"), std::string::npos);
  CopyDamaged(Manifest(), copy, 0);
  s = DumpManifest(env_, "", copy, false, false, &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  s = DumpManifest(env_, "", Wal(), false, false, &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(Wal()), std::string::npos) << s.ToString();
}

// The batches of the WAL Build() leaves: one of every kind of update, two
// single ones, and the clean close's marker (no update).
TEST_F(InspectTest, WalInHexAsRocksDB) {
  Build();
  ASSERT_EQ(Files(FileType::kWalFile), std::vector<uint64_t>{11});
  std::ostringstream out;
  ASSERT_TRUE(DumpWal(env_, Wal(), true, true, {true, true}, &out).ok());
  EXPECT_EQ(
      "Sequence,Count,ByteSize,Physical Offset,Key(s) : value \n"
      "6,7,44,0,PUT(0) : 0x6B : 0x76 DELETE(0) : 0x61 MERGE(0) : 0x6B : 0x6D "
      "SINGLE_DELETE(0) : 0x73 DELETE_RANGE(0) : 0x63 0x66 "
      "PUT(1) : 0x00FF : 0x7A DELETE(1) : 0x62 \n"
      "13,1,18,51,PUT(0) : 0x63 : 0x6363 \n"
      "14,1,18,76,MERGE(0) : 0x6B : 0x6D32 \n"
      "14,0,49,101,\n",
      out.str());
}

// A WAL RocksDB 7.8.3 wrote for a TransactionDB: transaction "xa"
// prepared and committed, "xb" prepared and rolled back, "xc" left
// prepared. The expected text is what RocksDB's `ldb dump_wal --header
// --print_value` printed.
TEST_F(InspectTest, WalWithTwoPhaseCommitMarkers) {
  const std::string hex =
      "8af48a741c00010100000000000000020000000901026b3102763100026b320a"
      "027861b1260b3e1000010100000000000000000000000b027861acd100b21800"
      "010300000000000000010000000901026b330276330a02786269d7727a100001"
      "0300000000000000000000000c027862cf3791501e0001030000000000000002"
      "0000000902026b34016d01026b350276350a027863";
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    bytes.push_back(
        static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  const std::string wal = Path() + "/000004.log";
  ASSERT_TRUE(WriteStringToFile(env_, bytes, wal).ok());
  std::ostringstream out;
  ASSERT_TRUE(DumpWal(env_, wal, true, true, {true, true}, &out).ok());
  EXPECT_EQ(
      "Sequence,Count,ByteSize,Physical Offset,Key(s) : value \n"
      "1,2,28,0,BEGIN_PREPARE(false) PUT(0) : 0x6B31 : 0x7631 DELETE(0) : "
      "0x6B32 END_PREPARE(0x7861) \n"
      "1,0,16,35,COMMIT(0x7861) \n"
      "3,1,24,58,BEGIN_PREPARE(false) PUT(0) : 0x6B33 : 0x7633 "
      "END_PREPARE(0x7862) \n"
      "3,0,16,89,ROLLBACK(0x7862) \n"
      "3,2,30,112,BEGIN_PREPARE(false) MERGE(0) : 0x6B34 : 0x6D PUT(0) : "
      "0x6B35 : 0x7635 END_PREPARE(0x7863) \n",
      out.str());
}

TEST_F(InspectTest, WalKeysOnly) {
  Build();
  std::ostringstream out;
  ASSERT_TRUE(DumpWal(env_, Wal(), false, false, PrintOptions(), &out).ok());
  EXPECT_EQ(
      "6,7,44,0,PUT(0) : k DELETE(0) : a MERGE(0) : k SINGLE_DELETE(0) : s "
      "DELETE_RANGE(0) : c f PUT(1) : " +
          std::string("\x00\xff", 2) +
          " DELETE(1) : b \n"
          "13,1,18,51,PUT(0) : c \n"
          "14,1,18,76,MERGE(0) : k \n"
          "14,0,49,101,\n",
      out.str());
  out.str("");
  ASSERT_TRUE(DumpWal(env_, Wal(), true, false, {false, true}, &out).ok());
  EXPECT_EQ(0u, out.str().find("Sequence,Count,ByteSize,Physical Offset,"
                               "Key(s)\n6,7,44,0,PUT(0) : k DELETE(0)"));
}

TEST_F(InspectTest, WalDamaged) {
  Build();
  const std::string copy = Path() + "/000099.log";
  const uint64_t size = FileSize(Wal());
  const std::string first = "6,7,44,0,PUT(0) : k DELETE(0) : a";
  std::ostringstream out;
  // A flipped bit in the second record's payload: the first batch is
  // printed, then the damage is reported where it is.
  CopyDamaged(Wal(), copy, size, 51 + 7 + 13);
  Status s = DumpWal(env_, copy, false, false, PrintOptions(), &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(copy), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("offset 51"), std::string::npos) << s.ToString();
  EXPECT_EQ(0u, out.str().find(first));
  EXPECT_EQ(1, Lines(out.str()));

  // A torn tail: the close marker cut short.
  out.str("");
  CopyDamaged(Wal(), copy, 101 + 20);
  s = DumpWal(env_, copy, false, false, PrintOptions(), &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("offset 101"), std::string::npos) << s.ToString();
  EXPECT_EQ(3, Lines(out.str()));

  // Files that are no WAL, and none at all.
  for (const std::string& path :
       {TableFileName(Path(), 9), CurrentFileName(Path()), Manifest()}) {
    out.str("");
    s = DumpWal(env_, path, true, true, PrintOptions(), &out);
    EXPECT_TRUE(s.IsCorruption()) << path << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(path), std::string::npos) << s.ToString();
  }
  s = DumpWal(env_, Path() + "/000098.log", true, true, PrintOptions(), &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("000098.log"), std::string::npos);
}

TEST_F(InspectTest, InternalKeys) {
  Build();
  const std::string before = Listing();
  std::ostringstream out;
  InternalDumpOptions dump;
  ASSERT_TRUE(DumpInternalKeys(env_, Path(), options_, dump, &out).ok());
  // Tables (seq 1-5) and the WAL (6-14) merged; range tombstones are the
  // entries of type 15.
  EXPECT_EQ(
      "'a' seq:7, type:0 => \n"
      "'a' seq:1, type:1 => 1\n"
      "'c' seq:13, type:1 => cc\n"
      "'c' seq:10, type:15 => f\n"
      "'k' seq:14, type:2 => m2\n"
      "'k' seq:8, type:2 => m\n"
      "'k' seq:6, type:1 => v\n"
      "'k' seq:3, type:2 => m0\n"
      "'s' seq:9, type:7 => \n"
      "'x' seq:4, type:15 => z\n"
      "'y' seq:5, type:1 => old\n"
      "Internal keys in range: 11\n",
      out.str());

  out.str("");
  dump.column_family = "cf1";
  dump.print = {true, true};
  ASSERT_TRUE(DumpInternalKeys(env_, Path(), options_, dump, &out).ok());
  EXPECT_EQ(
      "'00FF' seq:11, type:1 => 7A\n"
      "'62' seq:12, type:0 => \n"
      "'62' seq:2, type:1 => 32\n"
      "Internal keys in range: 3\n",
      out.str());
  // Nothing was written: no file created, removed or grown.
  EXPECT_EQ(before, Listing());
}

TEST_F(InspectTest, InternalKeysInRange) {
  Build();
  std::ostringstream out;
  InternalDumpOptions dump;
  dump.from = "b";
  dump.has_from = true;
  dump.to = "k";
  dump.has_to = true;
  ASSERT_TRUE(DumpInternalKeys(env_, Path(), options_, dump, &out).ok());
  EXPECT_EQ(
      "'c' seq:13, type:1 => cc\n"
      "'c' seq:10, type:15 => f\n"
      "Internal keys in range: 2\n",
      out.str());

  out.str("");
  dump.has_to = false;
  dump.max_keys = 3;
  ASSERT_TRUE(DumpInternalKeys(env_, Path(), options_, dump, &out).ok());
  EXPECT_EQ(
      "'c' seq:13, type:1 => cc\n"
      "'c' seq:10, type:15 => f\n"
      "'k' seq:14, type:2 => m2\n"
      "Internal keys in range: 3\n",
      out.str());

  out.str("");
  dump.count_only = true;
  dump.max_keys = -1;
  ASSERT_TRUE(DumpInternalKeys(env_, Path(), options_, dump, &out).ok());
  EXPECT_EQ("Internal keys in range: 9\n", out.str());
}

TEST_F(InspectTest, InternalKeysErrors) {
  Build();
  std::ostringstream out;
  InternalDumpOptions dump;
  dump.column_family = "nope";
  Status s = DumpInternalKeys(env_, Path(), options_, dump, &out);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("Non-existing column family: nope"),
            std::string::npos)
      << s.ToString();

  // A flipped bit in the WAL's second record.
  dump.column_family = kDefaultColumnFamilyName;
  const std::string saved = Path() + "/saved";
  ASSERT_TRUE(env_->RenameFile(Wal(), saved).ok());
  CopyDamaged(saved, Wal(), FileSize(saved), 51 + 7 + 13);
  s = DumpInternalKeys(env_, Path(), options_, dump, &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(Wal()), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("offset 51"), std::string::npos) << s.ToString();
  ASSERT_TRUE(env_->RenameFile(saved, Wal()).ok());

  // A table the MANIFEST lists, missing.
  ASSERT_TRUE(env_->RemoveFile(TableFileName(Path(), 12)).ok());
  s = DumpInternalKeys(env_, Path(), options_, dump, &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("000012.sst"), std::string::npos) << s.ToString();
  // Another family's tables are not read.
  dump.column_family = "cf1";
  out.str("");
  EXPECT_TRUE(DumpInternalKeys(env_, Path(), options_, dump, &out).ok());
  EXPECT_NE(out.str().find("Internal keys in range: 3"), std::string::npos);

  // No DB there.
  s = DumpInternalKeys(env_, Path() + "/none", options_, dump, &out);
  EXPECT_FALSE(s.ok());
}

// A family created and dropped still took a version number, as in
// RocksDB's recovery; its drop is in the verbose output, and it is not
// among the families.
TEST_F(InspectTest, ManifestDroppedFamily) {
  Build();
  Open();
  ColumnFamilyHandle* cf2 = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamily(options_, "cf2", &cf2).ok());
  ASSERT_TRUE(db_->DropColumnFamily(cf2).ok());
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(cf2).ok());
  Close();
  std::ostringstream out;
  ASSERT_TRUE(DumpManifest(env_, Path(), "", true, false, &out).ok());
  const std::string s = out.str();
  for (const char* expected :
       {"  ColumnFamily: 2\n  ColumnFamilyAdd: cf2\n",
        "  ColumnFamily: 2\n  ColumnFamilyDrop\n",
        "--- level 63 --- version# 3 ---\n"
        "--------------- Column family \"cf1\"  (ID 1)",
        "--- level 63 --- version# 4 ---\nnext_file_number ",
        " max_column_family 2 "}) {
    EXPECT_NE(s.find(expected), std::string::npos) << expected << "\n" << s;
  }
  EXPECT_EQ(s.find("\"cf2\""), std::string::npos) << s;
}

// A family's keys are ordered by its own comparator: a built-in one is
// known by name, another must be given.
TEST_F(InspectTest, Comparators) {
  Backwards backwards;
  for (const Comparator* cmp : {ReverseBytewiseComparator(),
                                static_cast<const Comparator*>(&backwards)}) {
    ASSERT_TRUE(test::RemoveRecursively(env_, Path()).ok());
    Options options = options_;
    options.comparator = cmp;
    std::unique_ptr<DB> db;
    ASSERT_TRUE(DB::Open(options, Path(), &db).ok());
    ASSERT_TRUE(db->Put(WriteOptions(), "a", "1").ok());
    ASSERT_TRUE(db->Put(WriteOptions(), "c", "3").ok());
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    ASSERT_TRUE(db->Put(WriteOptions(), "b", "2").ok());
    ASSERT_TRUE(db->Close().ok());
    db.reset();

    std::ostringstream out;
    InternalDumpOptions dump;
    ASSERT_TRUE(DumpInternalKeys(env_, Path(), options, dump, &out).ok());
    EXPECT_EQ(
        "'c' seq:2, type:1 => 3\n"
        "'b' seq:3, type:1 => 2\n"
        "'a' seq:1, type:1 => 1\n"
        "Internal keys in range: 3\n",
        out.str());

    out.str("");
    Status s = DumpManifest(env_, Path(), "", false, false, &out);
    if (cmp == &backwards) {
      EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
      EXPECT_NE(s.ToString().find("test.Backwards"), std::string::npos);
      out.str("");
      s = DumpManifest(env_, Path(), "", false, false, &out, cmp);
    }
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_NE(out.str().find(std::string("comparator: ") + cmp->Name() +
                             "\n--- level 0 ---"),
              std::string::npos)
        << out.str();
    // The table's smallest key is the first in the comparator's order.
    EXPECT_NE(out.str().find("['c' seq:2, type:1 .. 'a' seq:1, type:1]"),
              std::string::npos)
        << out.str();
  }
}

}  // namespace
}  // namespace inspect
}  // namespace strata
