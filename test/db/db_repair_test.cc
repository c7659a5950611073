// RepairDB: a DB built through the API, damaged (MANIFEST or CURRENT
// lost, a table cut short, a WAL record flipped), repaired, reopened and
// checked key by key against a model of what it should hold.

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/builder.h"
#include "db/dbformat.h"
#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/table.h"
#include "table/block_builder.h"
#include "table/table_properties.h"
#include "test/db/db_test_util.h"
#include "test/util/temp_dir.h"
#include "util/coding.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::map<std::string, std::string>>;

std::string Padded(const std::string& prefix, size_t size) {
  std::string value = prefix;
  value.resize(size, '.');
  return value;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

class DBRepairTest : public testing::Test {
 protected:
  DBRepairTest()
      : env_(Env::Default()), dir_(env_, "repair"), name_(dir_.File("db")) {
    options_.env = env_;
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
    // Every table stays where its flush put it.
    options_.disable_auto_compactions = true;
    families_ = {kDefaultColumnFamilyName, "a", "b"};
  }
  ~DBRepairTest() override { Close(); }

  std::vector<ColumnFamilyDescriptor> Descriptors() const {
    std::vector<ColumnFamilyDescriptor> result;
    for (const std::string& f : families_) {
      result.emplace_back(f, ColumnFamilyOptions(options_));
    }
    return result;
  }

  Status Open() {
    Close();
    return DB::Open(DBOptions(options_), name_, Descriptors(), &handles_, &db_);
  }
  void Close() {
    for (ColumnFamilyHandle* h : handles_) {
      EXPECT_TRUE(db_->DestroyColumnFamilyHandle(h).ok());
    }
    handles_.clear();
    delete db_;
    db_ = nullptr;
  }
  Status Repair() {
    return RepairDB(name_, DBOptions(options_), Descriptors());
  }

  ColumnFamilyHandle* Family(const std::string& name) const {
    for (size_t i = 0; i < families_.size(); i++) {
      if (families_[i] == name) return handles_[i];
    }
    ADD_FAILURE() << "no family " << name;
    return nullptr;
  }
  void Put(const std::string& f, const std::string& k, const std::string& v) {
    ASSERT_TRUE(db_->Put(WriteOptions(), Family(f), k, v).ok());
    model_[f][k] = v;
  }
  void Delete(const std::string& f, const std::string& k) {
    ASSERT_TRUE(db_->Delete(WriteOptions(), Family(f), k).ok());
    model_[f].erase(k);
  }
  void DeleteRange(const std::string& f, const std::string& begin,
                   const std::string& end) {
    ASSERT_TRUE(db_->DeleteRange(WriteOptions(), Family(f), begin, end).ok());
    auto& m = model_[f];
    m.erase(m.lower_bound(begin), m.lower_bound(end));
  }
  void Flush(const std::string& f) {
    ASSERT_TRUE(db_->Flush(FlushOptions(), Family(f)).ok());
  }

  std::map<std::string, std::string> Contents(const std::string& f) const {
    std::map<std::string, std::string> result;
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), Family(f)));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      result[it->key().ToString()] = it->value().ToString();
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return result;
  }
  std::string Get(const std::string& f, const std::string& k) const {
    std::string value;
    Status s = db_->Get(ReadOptions(), Family(f), k, &value);
    return s.ok() ? value : s.IsNotFound() ? "NOT_FOUND" : s.ToString();
  }
  // Every family holds what the model says, through iterators and Get.
  void CheckModel(const Model& model) const {
    for (const std::string& f : families_) {
      const auto it = model.find(f);
      const std::map<std::string, std::string> expected =
          it == model.end() ? std::map<std::string, std::string>() : it->second;
      EXPECT_EQ(expected, Contents(f)) << "family " << f;
      for (const auto& kv : expected) {
        EXPECT_EQ(kv.second, Get(f, kv.first)) << f << "/" << kv.first;
      }
    }
  }

  // Three rounds over every family: flushed, flushed with overwrites,
  // deletions and a range deletion, and left in the WAL.
  void WriteRounds() {
    for (const std::string& f : families_) {
      for (int i = 0; i < 20; i++) {
        Put(f, "k" + std::to_string(i + 10), f + "-first-" + std::to_string(i));
      }
      Flush(f);
    }
    for (const std::string& f : families_) {
      for (int i = 0; i < 20; i += 3) {
        Put(f, "k" + std::to_string(i + 10),
            f + "-second-" + std::to_string(i));
      }
      Delete(f, "k11");
      DeleteRange(f, "k20", "k23");
      Flush(f);
    }
    for (const std::string& f : families_) {
      Put(f, "k12", f + "-third");
      Delete(f, "k13");
      Put(f, "w-" + f, "in the WAL only");
      Put(f, "k20", f + "-after-range");
    }
  }

  // The three-family DB of WriteRounds, closed, its MANIFEST and CURRENT
  // gone; returns its last sequence.
  SequenceNumber MakeDBWithoutManifest() {
    EXPECT_TRUE(Open().ok());
    WriteRounds();
    const SequenceNumber last = db_->GetLatestSequenceNumber();
    Close();
    RemoveManifestAndCurrent();
    return last;
  }

  void RemoveManifestAndCurrent() {
    const test::DBFiles files = test::ListDBFiles(env_, name_);
    ASSERT_TRUE(files.current);
    ASSERT_FALSE(files.manifests.empty());
    for (uint64_t m : files.manifests) {
      ASSERT_TRUE(env_->RemoveFile(DescriptorFileName(name_, m)).ok());
    }
    ASSERT_TRUE(env_->RemoveFile(CurrentFileName(name_)).ok());
  }

  // The name and contents of the DB's one file of a kind (a member of
  // test::DBFiles), named by name_of.
  void ReadSoleFile(std::vector<uint64_t> test::DBFiles::*kind,
                    std::string (*name_of)(const std::string&, uint64_t),
                    std::string* fname, std::string* contents) const {
    const test::DBFiles files = test::ListDBFiles(env_, name_);
    ASSERT_EQ(1u, (files.*kind).size());
    *fname = name_of(name_, (files.*kind)[0]);
    ASSERT_TRUE(ReadFileToString(env_, *fname, contents).ok());
  }

  std::vector<std::string> Lost() const {
    std::vector<std::string> children;
    env_->GetChildren(name_ + "/lost", &children);
    std::vector<std::string> result;
    for (const std::string& c : children) {
      if (c != "." && c != "..") result.push_back(c);
    }
    std::sort(result.begin(), result.end());
    return result;
  }

  std::string InfoLog() const {
    std::string contents;
    EXPECT_TRUE(ReadFileToString(env_, InfoLogFileName(name_), &contents).ok());
    return contents;
  }

  Env* const env_;
  test::TempDir dir_;
  const std::string name_;
  Options options_;
  std::vector<std::string> families_;
  std::vector<ColumnFamilyHandle*> handles_;
  DB* db_ = nullptr;
  Model model_;
};

TEST_F(DBRepairTest, ManifestAndCurrentLost) {
  const SequenceNumber last = MakeDBWithoutManifest();
  ASSERT_FALSE(Open().ok());

  Status s = Repair();
  ASSERT_TRUE(s.ok()) << s.ToString();
  s = Open();
  ASSERT_TRUE(s.ok()) << s.ToString();
  CheckModel(model_);
  EXPECT_EQ(last, db_->GetLatestSequenceNumber());
  // The WALs were replayed into tables and moved aside; no table was.
  const test::DBFiles files = test::ListDBFiles(env_, name_);
  const std::vector<std::string> lost = Lost();
  EXPECT_FALSE(lost.empty());
  for (const std::string& f : lost) EXPECT_TRUE(EndsWith(f, ".log")) << f;
  Close();
  // A second open reads the same: nothing came from WALs left behind.
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
}

TEST_F(DBRepairTest, TruncatedNewestTableGoesToLost) {
  families_ = {kDefaultColumnFamilyName, "a"};
  ASSERT_TRUE(Open().ok());
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 10; i++) {
      Put("a", "r" + std::to_string(round) + "-" + std::to_string(i), "v");
    }
    Put("a", "shared", "round" + std::to_string(round));
    Flush("a");
  }
  Put("a", "wal", "unflushed");
  Put(kDefaultColumnFamilyName, "d", "default");
  Close();

  const test::DBFiles files = test::ListDBFiles(env_, name_);
  ASSERT_EQ(3u, files.tables.size());
  const uint64_t newest =
      *std::max_element(files.tables.begin(), files.tables.end());
  const std::string fname = TableFileName(name_, newest);
  std::string contents;
  ASSERT_TRUE(ReadFileToString(env_, fname, &contents).ok());
  contents.resize(contents.size() / 2);
  ASSERT_TRUE(WriteStringToFile(env_, contents, fname, true).ok());

  Status s = Repair();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::vector<std::string> lost = Lost();
  EXPECT_NE(lost.end(), std::find(lost.begin(), lost.end(),
                                  fname.substr(name_.size() + 1)));
  EXPECT_NE(std::string::npos, InfoLog().find(fname));

  Model expected = model_;
  for (int i = 0; i < 10; i++) expected["a"].erase("r2-" + std::to_string(i));
  expected["a"]["shared"] = "round1";
  ASSERT_TRUE(Open().ok());
  CheckModel(expected);
}

TEST_F(DBRepairTest, WalRecordFlippedIsSkipped) {
  families_ = {kDefaultColumnFamilyName};
  options_.write_buffer_size = 8 << 20;  // nothing is flushed
  ASSERT_TRUE(Open().ok());
  constexpr int kRecords = 400;  // about two WAL blocks
  for (int i = 0; i < kRecords; i++) {
    char key[16];
    std::snprintf(key, sizeof(key), "key%04d", i);
    Put(kDefaultColumnFamilyName, key,
        Padded("value-" + std::to_string(i) + "-", 150));
  }
  Close();

  std::string wal;
  std::string contents;
  ASSERT_NO_FATAL_FAILURE(
      ReadSoleFile(&test::DBFiles::logs, LogFileName, &wal, &contents));
  ASSERT_GT(contents.size(), 2u * 32768);
  // Record 100 lies inside the first block, whole.
  const size_t at = contents.find("value-100-");
  ASSERT_NE(std::string::npos, at);
  ASSERT_LT(at + 200, 32768u);
  contents[at + 3] ^= 0x10;
  ASSERT_TRUE(WriteStringToFile(env_, contents, wal, true).ok());
  // Intact writes follow the damage: no open takes the DB as it is.
  ASSERT_FALSE(Open().ok());

  Status s = Repair();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_NE(std::string::npos, InfoLog().find("bytes dropped"));
  // The reader resynchronizes at the next record of the same block, so
  // only the damaged record is lost.
  Model expected = model_;
  expected[kDefaultColumnFamilyName].erase("key0100");
  s = Open();
  ASSERT_TRUE(s.ok()) << s.ToString();
  CheckModel(expected);
  EXPECT_EQ("NOT_FOUND", Get(kDefaultColumnFamilyName, "key0100"));
}

class DBRepairManifestDamageTest : public DBRepairTest,
                                   public testing::WithParamInterface<bool> {};

// A family with no table and one whose data is all in the WAL: only the
// old MANIFEST names them, and its intact part is read.
TEST_P(DBRepairManifestDamageTest, RepairThenOpenWorks) {
  const bool flip = GetParam();
  families_ = {kDefaultColumnFamilyName, "a", "only-wal", "empty"};
  ASSERT_TRUE(Open().ok());
  Put("a", "x", "1");
  Flush("a");
  Put(kDefaultColumnFamilyName, "y", "2");
  Flush(kDefaultColumnFamilyName);
  Put("only-wal", "z", "3");
  Put("a", "x", "4");
  Close();

  std::string manifest;
  std::string contents;
  ASSERT_NO_FATAL_FAILURE(ReadSoleFile(
      &test::DBFiles::manifests, DescriptorFileName, &manifest, &contents));
  if (flip) {
    contents[contents.size() - 3] ^= 0x01;  // in the last edit
  } else {
    contents.append(std::string(100, '\xab'));
  }
  ASSERT_TRUE(WriteStringToFile(env_, contents, manifest, true).ok());
  if (flip) {
    ASSERT_FALSE(Open().ok());
  }
  Close();

  Status s = Repair();
  ASSERT_TRUE(s.ok()) << s.ToString();
  // Every family is there: none is created by this open.
  options_.create_missing_column_families = false;
  s = Open();
  ASSERT_TRUE(s.ok()) << s.ToString();
  CheckModel(model_);
  const std::vector<std::string> lost = Lost();
  EXPECT_NE(lost.end(), std::find(lost.begin(), lost.end(),
                                  manifest.substr(name_.size() + 1)));
}

INSTANTIATE_TEST_SUITE_P(GarbageOrFlip, DBRepairManifestDamageTest,
                         testing::Bool());

TEST_F(DBRepairTest, OpenDBIsNotRepaired) {
  ASSERT_TRUE(Open().ok());
  WriteRounds();
  Status s = Repair();
  EXPECT_TRUE(s.IsIOError() && s.IsBusy()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("LOCK")) << s.ToString();
  CheckModel(model_);  // untouched
  Close();
  EXPECT_TRUE(Repair().ok());
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
}

TEST_F(DBRepairTest, NoDBIsAnError) {
  Status s = Repair();  // the directory does not exist
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(name_)) << s.ToString();
  ASSERT_TRUE(env_->CreateDir(name_).ok());
  ASSERT_TRUE(WriteStringToFile(env_, "not a DB", name_ + "/notes.txt").ok());
  s = Repair();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("no DB")) << s.ToString();
  // Nothing was made there.
  std::vector<std::string> children;
  ASSERT_TRUE(env_->GetChildren(name_, &children).ok());
  for (const std::string& c : children) {
    EXPECT_TRUE(c == "." || c == ".." || c == "notes.txt") << c;
  }
}

TEST_F(DBRepairTest, RepairingTwiceIsHarmless) {
  MakeDBWithoutManifest();
  for (int i = 0; i < 2; i++) {
    Status s = Repair();
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
}

TEST_F(DBRepairTest, NewWritesAfterRepair) {
  const SequenceNumber before = MakeDBWithoutManifest();
  ASSERT_TRUE(Repair().ok());

  ASSERT_TRUE(Open().ok());
  for (const std::string& f : families_) {
    Put(f, "k10", f + "-after-repair");  // in an old table
    Put(f, "k12", f + "-after-repair");  // in an old WAL
    Delete(f, "k14");
    Put(f, "new", "n");
  }
  EXPECT_GT(db_->GetLatestSequenceNumber(), before);
  Flush("a");  // a new table beside the old ones
  CheckModel(model_);
  Close();
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
  // The new files have numbers of their own: a second repair finds old
  // and new tables and WALs, and orders them by their sequences.
  Close();
  RemoveManifestAndCurrent();
  ASSERT_TRUE(Repair().ok());
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
  Put("b", "k10", "third life");
  Close();
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
}

TEST_F(DBRepairTest, FamiliesNotGiven) {
  MakeDBWithoutManifest();

  // No default family: refused before anything is touched.
  Status s = RepairDB(name_, DBOptions(options_),
                      {ColumnFamilyDescriptor("a", options_)});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  // Without unknown_cf_opts, b is left out: its tables go to lost/, its
  // WAL records are dropped.
  families_ = {kDefaultColumnFamilyName, "a"};
  s = Repair();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_NE(std::string::npos, InfoLog().find("not among the column families"));
  EXPECT_NE(std::string::npos, InfoLog().find("updates of column family id"));
  size_t lost_tables = 0;
  for (const std::string& f : Lost()) lost_tables += EndsWith(f, ".sst");
  EXPECT_EQ(2u, lost_tables);  // b's two flushes
  std::vector<std::string> names;
  ASSERT_TRUE(DB::ListColumnFamilies(DBOptions(options_), name_, &names).ok());
  EXPECT_EQ(families_, names);
  options_.create_missing_column_families = false;
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
}

TEST_F(DBRepairTest, UnknownFamiliesKeptWithTheirOptions) {
  MakeDBWithoutManifest();
  Status s = RepairDB(name_, DBOptions(options_),
                      {ColumnFamilyDescriptor(kDefaultColumnFamilyName,
                                              ColumnFamilyOptions(options_))},
                      ColumnFamilyOptions(options_));
  ASSERT_TRUE(s.ok()) << s.ToString();
  options_.create_missing_column_families = false;
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
  Close();
  // The Options form keeps every family too.
  RemoveManifestAndCurrent();
  s = RepairDB(name_, options_);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(Open().ok());
  CheckModel(model_);
}

// A table left behind beside another whose sequences interleave with its
// own: a level-0 read would meet the one with the larger last sequence
// first, and take its older value of a key both hold.
class DBRepairTablesTest : public DBRepairTest {
 protected:
  struct Entry {
    std::string key;
    SequenceNumber seq;
    std::string value;
  };
  // Writes table number of the default family's layout; family_id
  // kUnknownColumnFamilyId writes it as tables before families were
  // recorded read.
  void WriteTable(uint64_t number, const std::vector<Entry>& entries,
                  uint64_t family_id, const std::string& family_name) {
    std::unique_ptr<TableFactory> factory(
        NewBlockBasedTableFactory(BlockBasedTableOptions()));
    const InternalKeyComparator icmp(BytewiseComparator());
    BuildTableOptions options;
    options.env = env_;
    options.dbname = name_;
    options.table_factory = factory.get();
    options.builder_options.icmp = &icmp;
    options.builder_options.column_family_id = family_id;
    options.builder_options.column_family_name = family_name;
    FileMetaData meta;
    meta.number = number;
    TableFileBuilder table(options, &meta);
    ASSERT_TRUE(table.Open().ok());
    for (const Entry& e : entries) {
      ASSERT_TRUE(
          table.Add(InternalKey(e.key, e.seq, kTypeValue).Encode(), e.value)
              .ok());
    }
    ASSERT_TRUE(table.Finish().ok());
  }
};

TEST_F(DBRepairTablesTest, InterleavedTablesAreMerged) {
  families_ = {kDefaultColumnFamilyName};
  ASSERT_TRUE(env_->CreateDir(name_).ok());
  WriteTable(7, {{"k", 2, "old"}, {"z", 10, "z"}}, 0, kDefaultColumnFamilyName);
  WriteTable(8, {{"k", 5, "new"}}, kUnknownColumnFamilyId, "");
  WriteTable(9, {{"a", 11, "a"}}, 0, kDefaultColumnFamilyName);
  Status s = RepairDB(name_, options_);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_NE(std::string::npos, InfoLog().find("merged"));
  ASSERT_TRUE(Open().ok());
  CheckModel(
      {{kDefaultColumnFamilyName, {{"a", "a"}, {"k", "new"}, {"z", "z"}}}});
  EXPECT_EQ(11u, db_->GetLatestSequenceNumber());
  Put(kDefaultColumnFamilyName, "k", "newest");
  Close();
  ASSERT_TRUE(Open().ok());
  EXPECT_EQ("newest", Get(kDefaultColumnFamilyName, "k"));
}

TEST_F(DBRepairTablesTest, TableOfOtherComparatorGoesToLost) {
  families_ = {kDefaultColumnFamilyName};
  ASSERT_TRUE(env_->CreateDir(name_).ok());
  WriteTable(7, {{"k", 2, "v"}}, 0, kDefaultColumnFamilyName);
  options_.comparator = ReverseBytewiseComparator();
  Status s = RepairDB(name_, options_);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(std::vector<std::string>{"000007.sst"}, Lost());
}

TEST(TablePropertiesFamilyTest, MissingFamilyReadsAsUnknown) {
  // A properties block from before the family was recorded.
  BlockBuilder builder(1);
  std::string entries;
  PutVarint64(&entries, 3);
  builder.Add("strata.num.entries", entries);
  TableProperties props;
  props.column_family_id = 5;
  ASSERT_TRUE(DecodeTableProperties(builder.Finish(), &props).ok());
  EXPECT_EQ(3u, props.num_entries);
  EXPECT_EQ(kUnknownColumnFamilyId, props.column_family_id);
  EXPECT_EQ("", props.column_family_name);

  TableProperties written;
  written.column_family_id = 4;
  written.column_family_name = "cf";
  std::string encoded;
  EncodeTableProperties(written, &encoded);
  ASSERT_TRUE(DecodeTableProperties(encoded, &props).ok());
  EXPECT_EQ(4u, props.column_family_id);
  EXPECT_EQ("cf", props.column_family_name);
}

}  // namespace
}  // namespace strata
