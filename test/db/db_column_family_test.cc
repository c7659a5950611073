// Column families through the public API: creating, listing, dropping and
// reopening them, writes and reads kept apart per family, batches across
// families, and every misuse answered with a Status.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "strata/db.h"
#include "test/db/column_family_test_util.h"

namespace strata {
namespace test {
namespace {

TEST_F(ColumnFamilyTest, DefaultHandleAndDescriptor) {
  Open({});
  ColumnFamilyHandle* def = db_->DefaultColumnFamily();
  ASSERT_NE(nullptr, def);
  EXPECT_EQ(kDefaultColumnFamilyName, def->GetName());
  EXPECT_EQ(0u, def->GetID());
  EXPECT_EQ(BytewiseComparator(), def->GetComparator());
  ColumnFamilyDescriptor desc;
  ASSERT_TRUE(def->GetDescriptor(&desc).ok());
  EXPECT_EQ(kDefaultColumnFamilyName, desc.name);
  // The DB's own handle is not the program's to destroy.
  EXPECT_TRUE(db_->DestroyColumnFamilyHandle(def).IsInvalidArgument());
  // Open's handle on the default family is the program's.
  ASSERT_EQ(1u, handles_.size());
  EXPECT_EQ(0u, handles_[0]->GetID());
}

TEST_F(ColumnFamilyTest, CreateWriteReadListAndReopen) {
  Open({});
  Create({"one", "two"});
  ASSERT_EQ(3u, handles_.size());
  EXPECT_EQ("one", handles_[1]->GetName());
  EXPECT_NE(handles_[1]->GetID(), handles_[2]->GetID());
  ASSERT_TRUE(Put(0, "k", "v0").ok());
  ASSERT_TRUE(Put(1, "k", "v1").ok());
  ASSERT_TRUE(Put(2, "other", "v2").ok());
  EXPECT_EQ("v0", Get(0, "k"));
  EXPECT_EQ("v1", Get(1, "k"));
  EXPECT_EQ("NOT_FOUND", Get(2, "k"));
  EXPECT_EQ("v2", Get(2, "other"));

  std::vector<std::string> names;
  ASSERT_TRUE(DB::ListColumnFamilies(options_, name_, &names).ok());
  EXPECT_EQ((std::vector<std::string>{"default", "one", "two"}), names);

  // From the WAL, then from tables.
  Reopen({"one", "two"});
  EXPECT_EQ("v0", Get(0, "k"));
  EXPECT_EQ("v1", Get(1, "k"));
  EXPECT_EQ("v2", Get(2, "other"));
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  Reopen({"one", "two"});
  EXPECT_EQ("v1", Get(1, "k"));
  EXPECT_EQ("NOT_FOUND", Get(0, "other"));
}

TEST_F(ColumnFamilyTest, BatchAcrossFamiliesIsAtomicThroughRecovery) {
  Open({});
  Create({"a", "b"});
  WriteBatch batch;
  ASSERT_TRUE(batch.Put(handles_[0], "x", "0").ok());
  ASSERT_TRUE(batch.Put(handles_[1], "x", "1").ok());
  ASSERT_TRUE(batch.Delete(handles_[2], "gone").ok());
  ASSERT_TRUE(batch.Put(handles_[2], "x", "2").ok());
  ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
  const SequenceNumber seq = db_->GetLatestSequenceNumber();
  Reopen({"a", "b"});
  EXPECT_EQ("0", Get(0, "x"));
  EXPECT_EQ("1", Get(1, "x"));
  EXPECT_EQ("2", Get(2, "x"));
  EXPECT_EQ(seq, db_->GetLatestSequenceNumber());
}

TEST_F(ColumnFamilyTest, OpenMustNameEveryFamily) {
  Open({});
  Create({"a", "b"});
  Close();
  std::vector<ColumnFamilyDescriptor> some = {
      ColumnFamilyDescriptor(kDefaultColumnFamilyName, options_),
      ColumnFamilyDescriptor("a", options_)};
  DB* db = nullptr;
  std::vector<ColumnFamilyHandle*> handles;
  Status s = DB::Open(options_, name_, some, &handles, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("b"));
  EXPECT_EQ(nullptr, db);
  // Options alone open only the default family.
  s = DB::Open(options_, name_, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // Without the default family.
  std::vector<ColumnFamilyDescriptor> no_default = {
      ColumnFamilyDescriptor("a", options_),
      ColumnFamilyDescriptor("b", options_)};
  s = DB::Open(options_, name_, no_default, &handles, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A family the DB lacks.
  s = OpenStatus({"a", "b", "c"});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  options_.create_missing_column_families = true;
  ASSERT_TRUE(OpenStatus({"a", "b", "c"}).ok());
  ASSERT_TRUE(Put(3, "k", "c").ok());
  Reopen({"a", "b", "c"});
  EXPECT_EQ("c", Get(3, "k"));
}

TEST_F(ColumnFamilyTest, DropStopsWritesAndSurvivesReopen) {
  Open({});
  Create({"a", "b"});
  ASSERT_TRUE(Put(1, "k", "a").ok());
  ASSERT_TRUE(Put(2, "k", "b").ok());
  ASSERT_TRUE(db_->DropColumnFamily(handles_[1]).ok());
  // Reads through the handle still see the data; writes are refused.
  EXPECT_EQ("a", Get(1, "k"));
  Status s = Put(1, "k", "again");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(db_->DropColumnFamily(handles_[1]).IsInvalidArgument());
  WriteBatch batch;
  ASSERT_TRUE(batch.Put(handles_[2], "k2", "b2").ok());
  ASSERT_TRUE(batch.Put(handles_[1], "k2", "a2").ok());
  s = db_->Write(WriteOptions(), &batch);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ("NOT_FOUND", Get(2, "k2"));  // nothing of the batch applied
  // Unless the program asks for the dropped family's updates to be
  // skipped.
  WriteOptions skip;
  skip.ignore_missing_column_families = true;
  ASSERT_TRUE(db_->Write(skip, &batch).ok());
  EXPECT_EQ("b2", Get(2, "k2"));
  EXPECT_EQ("NOT_FOUND", Get(1, "k2"));

  std::vector<std::string> names;
  ASSERT_TRUE(DB::ListColumnFamilies(options_, name_, &names).ok());
  EXPECT_EQ((std::vector<std::string>{"default", "b"}), names);
  Reopen({"b"});
  EXPECT_EQ("b", Get(1, "k"));  // handles_[1] is "b" now
  // A new family never takes the dropped one's id.
  Create({"a"});
  EXPECT_GT(handles_[2]->GetID(), handles_[1]->GetID());
  EXPECT_EQ("NOT_FOUND", Get(2, "k"));
}

TEST_F(ColumnFamilyTest, Misuse) {
  Open({});
  Create({"a"});
  EXPECT_TRUE(
      db_->DropColumnFamily(db_->DefaultColumnFamily()).IsInvalidArgument());
  EXPECT_TRUE(db_->DropColumnFamily(handles_[0]).IsInvalidArgument());
  ColumnFamilyHandle* dup = nullptr;
  Status s = db_->CreateColumnFamily(options_, "a", &dup);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(nullptr, dup);
  s = db_->CreateColumnFamily(options_, kDefaultColumnFamilyName, &dup);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  std::string value;
  EXPECT_TRUE(
      db_->Get(ReadOptions(), nullptr, "k", &value).IsInvalidArgument());
  EXPECT_TRUE(db_->Put(WriteOptions(), nullptr, "k", "v").IsInvalidArgument());

  // A handle of another DB.
  FamilyDB other_holder;
  other_holder.Open({});
  other_holder.Create({"x"});
  ColumnFamilyHandle* foreign = other_holder.handles_[1];
  s = db_->Put(WriteOptions(), foreign, "k", "v");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db_->Get(ReadOptions(), foreign, "k", &value);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), foreign));
  EXPECT_TRUE(it->status().IsInvalidArgument());
  EXPECT_TRUE(db_->DropColumnFamily(foreign).IsInvalidArgument());
  EXPECT_TRUE(db_->DestroyColumnFamilyHandle(foreign).IsInvalidArgument());
  other_holder.Close();

  // A handle used after DestroyColumnFamilyHandle.
  ColumnFamilyHandle* a = handles_[1];
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(a).ok());
  handles_.pop_back();
  s = db_->Put(WriteOptions(), a, "k", "v");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db_->Get(ReadOptions(), a, "k", &value);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(db_->Flush(FlushOptions(), a).IsInvalidArgument());
  EXPECT_TRUE(db_->DestroyColumnFamilyHandle(a).IsInvalidArgument());
  uint64_t n;
  EXPECT_FALSE(db_->GetIntProperty(a, "strata.num-immutable-mem-table", &n));
}

TEST_F(ColumnFamilyTest, ComparatorRecordedPerFamily) {
  Open({});
  ColumnFamilyOptions reversed = options_;
  reversed.comparator = ReverseBytewiseComparator();
  ColumnFamilyHandle* handle = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamily(reversed, "rev", &handle).ok());
  handles_.push_back(handle);
  ASSERT_EQ(ReverseBytewiseComparator(), handle->GetComparator());
  for (const char* k : {"a", "c", "b"}) ASSERT_TRUE(Put(1, k, k).ok());
  ASSERT_TRUE(db_->Flush(FlushOptions(), handle).ok());
  EXPECT_EQ("c,b,a,", Keys(1));
  Close();
  // Opened with another comparator than the one recorded.
  Status s = OpenStatus({"rev"});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("rev"));
  family_options_["rev"] = reversed;
  ASSERT_TRUE(OpenStatus({"rev"}).ok());
  EXPECT_EQ("c,b,a,", Keys(1));
}

TEST_F(ColumnFamilyTest, IteratorsAndNewIteratorsShareOneSequence) {
  Open({});
  Create({"a"});
  ASSERT_TRUE(Put(0, "k1", "d1").ok());
  ASSERT_TRUE(Put(1, "k1", "a1").ok());
  std::vector<Iterator*> iters;
  ASSERT_TRUE(db_->NewIterators(ReadOptions(), handles_, &iters).ok());
  ASSERT_EQ(2u, iters.size());
  // Writes after the iterators were made are not seen by either.
  ASSERT_TRUE(Put(0, "k2", "d2").ok());
  ASSERT_TRUE(Put(1, "k2", "a2").ok());
  for (size_t i = 0; i < iters.size(); i++) {
    std::string seen;
    for (iters[i]->SeekToFirst(); iters[i]->Valid(); iters[i]->Next()) {
      seen +=
          iters[i]->key().ToString() + "=" + iters[i]->value().ToString() + ",";
    }
    EXPECT_EQ(i == 0 ? "k1=d1," : "k1=a1,", seen);
    delete iters[i];
  }
  EXPECT_EQ("k1,k2,", Keys(1));
}

TEST_F(ColumnFamilyTest, PropertiesAndFlushPerFamily) {
  Open({});
  Create({"a", "b"});
  ASSERT_TRUE(Put(1, "k", "v").ok());
  ASSERT_TRUE(Put(2, "k", "v").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  uint64_t files_a = 0, files_b = 0, entries_b = 0;
  ASSERT_TRUE(
      db_->GetIntProperty(handles_[1], "strata.num-files-at-level0", &files_a));
  ASSERT_TRUE(
      db_->GetIntProperty(handles_[2], "strata.num-files-at-level0", &files_b));
  ASSERT_TRUE(db_->GetIntProperty(
      handles_[2], "strata.num-entries-active-mem-table", &entries_b));
  EXPECT_EQ(1u, files_a);
  EXPECT_EQ(0u, files_b);
  EXPECT_EQ(1u, entries_b);
  std::string stats;
  ASSERT_TRUE(db_->GetProperty(handles_[1], "strata.stats", &stats));
  EXPECT_FALSE(stats.empty());
  std::map<std::string, std::string> cfstats;
  ASSERT_TRUE(db_->GetMapProperty(handles_[1], "strata.cfstats", &cfstats));
  EXPECT_EQ("1", cfstats["L0.files"]);
  // Both at once.
  ASSERT_TRUE(db_->Flush(FlushOptions(), {handles_[0], handles_[2]}).ok());
  ASSERT_TRUE(
      db_->GetIntProperty(handles_[2], "strata.num-files-at-level0", &files_b));
  EXPECT_EQ(1u, files_b);
}

TEST_F(ColumnFamilyTest, SetOptionsChangesOneFamily) {
  Open({});
  Create({"a"});
  ASSERT_TRUE(
      db_->SetOptions(handles_[1], {{"write_buffer_size", "131072"},
                                    {"disable_auto_compactions", "true"}})
          .ok());
  EXPECT_EQ(131072u, db_->GetOptions(handles_[1]).write_buffer_size);
  EXPECT_TRUE(db_->GetOptions(handles_[1]).disable_auto_compactions);
  EXPECT_EQ(options_.write_buffer_size,
            db_->GetOptions(handles_[0]).write_buffer_size);
  Status s = db_->SetOptions(handles_[1], {{"no_such_option", "1"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db_->SetOptions(handles_[1], {{"write_buffer_size", "lots"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db_->SetOptions(handles_[1], {{"level0_file_num_compaction_trigger", "2"},
                                    {"target_file_size_base", "-1"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A refused call changes nothing.
  EXPECT_EQ(options_.level0_file_num_compaction_trigger,
            db_->GetOptions(handles_[1]).level0_file_num_compaction_trigger);
  // Writes now retire the family's memtable at its new size.
  for (int i = 0; i < 400; i++) {
    ASSERT_TRUE(Put(1, "key" + std::to_string(i), std::string(1000, 'x')).ok());
  }
  ASSERT_TRUE(WaitForBackgroundWork().ok());
  uint64_t files = 0;
  ASSERT_TRUE(
      db_->GetIntProperty(handles_[1], "strata.num-files-at-level0", &files));
  EXPECT_GE(files, 2u);
}

}  // namespace
}  // namespace test
}  // namespace strata
