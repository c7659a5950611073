// What DB::Write refuses before the WAL, as a program's mistake rather
// than a DB failure: a batch rebuilt from malformed bytes, a range deletion
// whose end comes before its begin. Nothing of a refused batch is applied
// (nor found after reopen), and the DB goes on accepting writes. Also: a
// second Close, and calls after Close.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/write_batch_internal.h"
#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/write_batch.h"
#include "test/util/temp_dir.h"
#include "util/coding.h"

namespace strata {
namespace {

using FamilyContents = std::vector<std::map<std::string, std::string>>;

// A DB with the default family, "one" (id 1) and "rev" (id 2, reverse
// bytewise order), each with a string-append merge operator.
class DBBatchChecksTest : public testing::Test {
 protected:
  DBBatchChecksTest() : dir_(Env::Default(), "batch_checks") {
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
    options_.merge_operator = MergeOperators::CreateStringAppendOperator();
    ColumnFamilyOptions rev = options_;
    rev.comparator = ReverseBytewiseComparator();
    families_ = {
        {kDefaultColumnFamilyName, options_}, {"one", options_}, {"rev", rev}};
    Open();
  }
  ~DBBatchChecksTest() override { Close(); }

  void Open() {
    DB* db = nullptr;
    Status s =
        DB::Open(options_, dir_.path() + "/db", families_, &handles_, &db);
    ASSERT_TRUE(s.ok()) << s.ToString();
    db_.reset(db);
  }
  void Close() {
    for (ColumnFamilyHandle* h : handles_) db_->DestroyColumnFamilyHandle(h);
    handles_.clear();
    db_.reset();
  }
  void Reopen() {
    Close();
    Open();
  }

  // Every key/value of every family.
  FamilyContents Contents() {
    FamilyContents all;
    for (ColumnFamilyHandle* h : handles_) {
      std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), h));
      std::map<std::string, std::string> family;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        family[it->key().ToString()] = it->value().ToString();
      }
      EXPECT_TRUE(it->status().ok()) << it->status().ToString();
      all.push_back(family);
    }
    return all;
  }

  // Records of every kind in every family, none of which the initial
  // contents hold; the last record is counted.
  WriteBatch EveryKind() {
    WriteBatch b;
    EXPECT_TRUE(b.Put("new1", "v").ok());
    EXPECT_TRUE(b.Put(handles_[1], "new2", "v").ok());
    EXPECT_TRUE(b.Delete(handles_[2], "old2").ok());
    EXPECT_TRUE(b.PutLogData("blob").ok());
    EXPECT_TRUE(b.SingleDelete(handles_[1], "old1").ok());
    EXPECT_TRUE(b.DeleteRange(handles_[2], "r9", "r0").ok());  // "rev" order
    EXPECT_TRUE(b.DeleteRange("a0", "a9").ok());
    EXPECT_TRUE(b.Merge("m", "x").ok());
    EXPECT_TRUE(b.Merge(handles_[1], "m", "y").ok());
    EXPECT_TRUE(b.Delete("old0").ok());
    return b;
  }

  void WriteInitial() {
    const WriteOptions w;
    ASSERT_TRUE(db_->Put(w, "old0", "0").ok());
    ASSERT_TRUE(db_->Put(w, "a5", "in range").ok());
    ASSERT_TRUE(db_->Merge(w, "m", "base").ok());
    ASSERT_TRUE(db_->Put(w, handles_[1], "old1", "1").ok());
    ASSERT_TRUE(db_->Merge(w, handles_[1], "m", "base").ok());
    ASSERT_TRUE(db_->Put(w, handles_[2], "old2", "2").ok());
    ASSERT_TRUE(db_->Put(w, handles_[2], "r5", "in range").ok());
  }

  // Write refuses rep as malformed and the DB is as it was.
  void ExpectRefused(const std::string& rep, const FamilyContents& before) {
    WriteBatch b(rep);
    Status s = db_->Write(WriteOptions(), &b);
    EXPECT_TRUE(s.IsCorruption() || s.IsInvalidArgument() || s.IsNotSupported())
        << s.ToString();
    EXPECT_EQ(before, Contents());
  }

  // The DB still takes writes, and holds them and before after a reopen.
  // The refusals left no background error behind (Resume has nothing to
  // clear).
  void ExpectStillWorking(FamilyContents before) {
    EXPECT_TRUE(db_->Resume().ok());
    ASSERT_TRUE(db_->Put(WriteOptions(), "after", "ok").ok());
    before[0]["after"] = "ok";
    EXPECT_EQ(before, Contents());
    Reopen();
    EXPECT_EQ(before, Contents());
    ASSERT_TRUE(db_->Put(WriteOptions(), "after reopen", "ok").ok());
  }

  test::TempDir dir_;
  Options options_;
  std::vector<ColumnFamilyDescriptor> families_;
  std::vector<ColumnFamilyHandle*> handles_;
  std::unique_ptr<DB> db_;
};

TEST_F(DBBatchChecksTest, RoundTripWritesTheSameData) {
  WriteInitial();
  WriteBatch built = EveryKind();
  WriteBatch rebuilt(built.Data());
  EXPECT_EQ(built.Count(), rebuilt.Count());
  EXPECT_EQ(built.HasMerge(), rebuilt.HasMerge());
  EXPECT_EQ(built.HasDeleteRange(), rebuilt.HasDeleteRange());
  ASSERT_TRUE(db_->Write(WriteOptions(), &rebuilt).ok());
  const FamilyContents via_bytes = Contents();

  // The same batch, as built, on the same initial contents.
  Close();
  ASSERT_TRUE(DestroyDB(dir_.path() + "/db", options_).ok());
  Open();
  WriteInitial();
  ASSERT_TRUE(db_->Write(WriteOptions(), &built).ok());
  EXPECT_EQ(Contents(), via_bytes);
  EXPECT_EQ("base,x", via_bytes[0].at("m"));
  EXPECT_EQ(0u, via_bytes[0].count("a5"));
  EXPECT_EQ(0u, via_bytes[2].count("r5"));
  EXPECT_EQ("v", via_bytes[1].at("new2"));
  EXPECT_EQ("base,y", via_bytes[1].at("m"));
  EXPECT_EQ(0u, via_bytes[1].count("old1"));
  ExpectStillWorking(via_bytes);
}

TEST_F(DBBatchChecksTest, EveryTruncationIsRefused) {
  WriteInitial();
  const FamilyContents before = Contents();
  const std::string full = EveryKind().Data();
  for (size_t cut = 0; cut < full.size(); cut++) {
    SCOPED_TRACE(cut);
    ExpectRefused(full.substr(0, cut), before);
  }
  ExpectStillWorking(before);
}

TEST_F(DBBatchChecksTest, DamagedTagsAreRefused) {
  WriteInitial();
  const FamilyContents before = Contents();
  // The offset of each record's tag.
  std::vector<size_t> tags;
  WriteBatch b;
  tags.push_back(b.GetDataSize());
  ASSERT_TRUE(b.Put("new1", "v").ok());
  tags.push_back(b.GetDataSize());
  ASSERT_TRUE(b.Put(handles_[1], "new2", "v").ok());
  tags.push_back(b.GetDataSize());
  ASSERT_TRUE(b.PutLogData("blob").ok());
  tags.push_back(b.GetDataSize());
  ASSERT_TRUE(b.DeleteRange("a0", "a9").ok());
  tags.push_back(b.GetDataSize());
  ASSERT_TRUE(b.Merge(handles_[1], "m", "y").ok());
  const std::string full = b.Data();
  int refused = 0;
  for (size_t offset : tags) {
    for (int v = 0; v < 256; v++) {
      std::string rep = full;
      if (rep[offset] == static_cast<char>(v)) continue;
      rep[offset] = static_cast<char>(v);
      WriteBatch check(rep);
      Status why = WriteBatchInternal::Validate(&check);
      if (why.ok()) continue;  // another well-formed batch: not this test's
      SCOPED_TRACE(offset);
      SCOPED_TRACE(v);
      WriteBatch damaged(rep);
      Status s = db_->Write(WriteOptions(), &damaged);
      EXPECT_EQ(why.ToString(), s.ToString());
      EXPECT_EQ(before, Contents());
      refused++;
    }
  }
  EXPECT_GT(refused, 800);
  ExpectStillWorking(before);
}

TEST_F(DBBatchChecksTest, WrongCountIsRefused) {
  WriteInitial();
  const FamilyContents before = Contents();
  const std::string full = EveryKind().Data();
  WriteBatch good(full);
  for (uint32_t count :
       {0u, 1u, good.Count() - 1, good.Count() + 1, 0xffffffffu}) {
    std::string rep = full;
    EncodeFixed32(&rep[8], count);
    WriteBatch b(rep);
    Status s = db_->Write(WriteOptions(), &b);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("count")) << s.ToString();
    EXPECT_EQ(before, Contents());
  }
  ExpectStillWorking(before);
}

TEST_F(DBBatchChecksTest, CorruptionSaysWhereInTheBatch) {
  std::string rep = EveryKind().Data();
  const size_t last = rep.size() - 6;  // Delete("old0"): tag, 4, "old0"
  rep.resize(rep.size() - 1);          // cut short
  WriteBatch b(rep);
  Status s = db_->Write(WriteOptions(), &b);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos,
            s.ToString().find("offset " + std::to_string(last)))
      << s.ToString() << " last record at " << last;
}

TEST_F(DBBatchChecksTest, ReversedRangeInABatchIsRefused) {
  WriteInitial();
  const FamilyContents before = Contents();
  WriteBatch b;
  ASSERT_TRUE(b.Put("new1", "v").ok());
  ASSERT_TRUE(b.DeleteRange("a9", "a0").ok());
  Status s = db_->Write(WriteOptions(), &b);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(before, Contents());
  // The same through bytes, and with the range in another family.
  WriteBatch from_bytes(b.Data());
  s = db_->Write(WriteOptions(), &from_bytes);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  WriteBatch other;
  ASSERT_TRUE(other.Put("new1", "v").ok());
  ASSERT_TRUE(other.DeleteRange(handles_[1], "z", "a").ok());
  s = db_->Write(WriteOptions(), &other);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("one")) << s.ToString();
  EXPECT_EQ(before, Contents());
  ExpectStillWorking(before);
}

TEST_F(DBBatchChecksTest, RangeOrderIsTheFamilysComparators) {
  WriteInitial();
  FamilyContents want = Contents();
  // "r9" before "r0" in the reverse family: a proper range there.
  WriteBatch rev;
  ASSERT_TRUE(rev.DeleteRange(handles_[2], "r9", "r0").ok());
  ASSERT_TRUE(db_->Write(WriteOptions(), &rev).ok());
  want[2].erase("r5");
  EXPECT_EQ(want, Contents());
  WriteBatch forward;
  ASSERT_TRUE(forward.DeleteRange(handles_[2], "r0", "r9").ok());
  Status s = db_->Write(WriteOptions(), &forward);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("rev")) << s.ToString();
  ExpectStillWorking(want);
}

TEST_F(DBBatchChecksTest, EmptyRangeInABatchDeletesNothing) {
  WriteInitial();
  FamilyContents want = Contents();
  WriteBatch b;
  ASSERT_TRUE(b.DeleteRange("a5", "a5").ok());
  ASSERT_TRUE(b.DeleteRange(handles_[2], "r5", "r5").ok());
  ASSERT_TRUE(b.Put("new1", "v").ok());
  ASSERT_TRUE(db_->Write(WriteOptions(), &b).ok());
  want[0]["new1"] = "v";
  EXPECT_EQ(want, Contents());
  ExpectStillWorking(want);
}

TEST_F(DBBatchChecksTest, SecondCloseAndCallsAfterClose) {
  WriteInitial();
  ASSERT_TRUE(db_->Close().ok());
  EXPECT_TRUE(db_->Close().ok());  // the first Close's status: OK
  Status s = db_->Put(WriteOptions(), "k", "v");
  EXPECT_FALSE(s.ok());
  WriteBatch b;
  ASSERT_TRUE(b.DeleteRange("a0", "a9").ok());
  EXPECT_FALSE(db_->Write(WriteOptions(), &b).ok());
  WriteBatch damaged(std::string("short"));
  EXPECT_TRUE(db_->Write(WriteOptions(), &damaged).IsCorruption());
  std::string value;
  EXPECT_FALSE(db_->Get(ReadOptions(), "old0", &value).ok());
  EXPECT_FALSE(db_->Flush(FlushOptions()).ok());
  EXPECT_TRUE(db_->Resume().IsShutdownInProgress());
  EXPECT_TRUE(db_->Close().ok());
  // Closing released the lock: the DB opens again, with its data.
  Close();
  Open();
  EXPECT_EQ("0", Contents()[0].at("old0"));
}

}  // namespace
}  // namespace strata
