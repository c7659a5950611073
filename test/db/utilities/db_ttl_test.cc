// DBWithTTL (include/strata/utilities/db_ttl.h) on a fake clock: values
// expire from reads at once and from the files at compaction, per column
// family and after SetTtl; the stored format is RocksDB's.

#include "strata/utilities/db_ttl.h"

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "test/util/temp_dir.h"
#include "util/coding.h"

namespace strata {
namespace {

// Env::Default() with a clock the test sets.
class FakeClockEnv : public EnvWrapper {
 public:
  FakeClockEnv() : EnvWrapper(Env::Default()) {}
  uint64_t NowMicros() override { return seconds_.load() * 1000000; }
  void Set(uint64_t seconds) { seconds_.store(seconds); }
  void Advance(uint64_t seconds) { seconds_.fetch_add(seconds); }

 private:
  std::atomic<uint64_t> seconds_{1700000000};
};

class DBWithTTLTest : public testing::Test {
 protected:
  DBWithTTLTest() : dir_(Env::Default(), "ttl"), name_(dir_.File("db")) {
    options_.env = &env_;
    options_.create_if_missing = true;
    options_.disable_auto_compactions = true;
  }
  ~DBWithTTLTest() override { Close(); }

  void Open(int32_t ttl) {
    DBWithTTL* db = nullptr;
    ASSERT_TRUE(DBWithTTL::Open(options_, name_, &db, ttl).ok());
    db_.reset(db);
  }
  void Close() {
    for (ColumnFamilyHandle* h : handles_) db_->DestroyColumnFamilyHandle(h);
    handles_.clear();
    db_.reset();
  }
  std::string Get(const std::string& k, ColumnFamilyHandle* cf = nullptr) {
    std::string v;
    Status s = db_->Get(ReadOptions(),
                        cf != nullptr ? cf : db_->DefaultColumnFamily(), k, &v);
    return s.ok() ? v : s.IsNotFound() ? "NOT_FOUND" : s.ToString();
  }
  std::map<std::string, std::string> Scan(bool backward = false) {
    std::map<std::string, std::string> result;
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    if (backward) {
      for (it->SeekToLast(); it->Valid(); it->Prev()) {
        result[it->key().ToString()] = it->value().ToString();
      }
    } else {
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        result[it->key().ToString()] = it->value().ToString();
      }
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return result;
  }
  void Compact(ColumnFamilyHandle* cf = nullptr) {
    if (cf == nullptr) cf = db_->DefaultColumnFamily();
    ASSERT_TRUE(db_->Flush(FlushOptions(), cf).ok());
    ASSERT_TRUE(
        db_->CompactRange(CompactRangeOptions(), cf, nullptr, nullptr).ok());
  }
  // Entries in the family's files, read past DBWithTTL (stamps included).
  uint64_t StoredKeys(ColumnFamilyHandle* cf = nullptr) {
    if (cf == nullptr) cf = db_->DefaultColumnFamily();
    uint64_t n = 0;
    EXPECT_TRUE(
        db_->GetBaseDB()->GetIntProperty(cf, "strata.estimate-num-keys", &n));
    return n;
  }

  FakeClockEnv env_;
  test::TempDir dir_;
  std::string name_;
  Options options_;
  std::unique_ptr<DBWithTTL> db_;
  std::vector<ColumnFamilyHandle*> handles_;
};

TEST_F(DBWithTTLTest, ExpiredValuesHiddenThenCompactedAway) {
  Open(100);
  ASSERT_TRUE(db_->Put(WriteOptions(), "a", "1").ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), "b", "2").ok());
  env_.Advance(60);
  ASSERT_TRUE(db_->Put(WriteOptions(), "c", "3").ok());
  Compact();
  EXPECT_EQ(3u, StoredKeys());
  EXPECT_EQ("1", Get("a"));
  env_.Advance(41);  // a and b are 101 s old, c 41 s
  EXPECT_EQ("NOT_FOUND", Get("a"));
  EXPECT_EQ("3", Get("c"));
  const std::map<std::string, std::string> left = {{"c", "3"}};
  EXPECT_EQ(left, Scan());
  EXPECT_EQ(left, Scan(/*backward=*/true));
  std::vector<std::string> values;
  std::vector<Status> statuses =
      db_->MultiGet(ReadOptions(), {Slice("a"), Slice("c")}, &values);
  EXPECT_TRUE(statuses[0].IsNotFound());
  ASSERT_TRUE(statuses[1].ok());
  EXPECT_EQ("3", values[1]);
  Compact();
  EXPECT_EQ(1u, StoredKeys());
  env_.Advance(100);
  Compact();
  EXPECT_EQ(0u, StoredKeys());
  EXPECT_TRUE(Scan().empty());
}

TEST_F(DBWithTTLTest, StoredFormatIsValuePlusFixed32Seconds) {
  Open(10);
  env_.Set(1700000123);
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "value").ok());
  std::string raw;
  ASSERT_TRUE(db_->GetBaseDB()->Get(ReadOptions(), "k", &raw).ok());
  ASSERT_EQ(9u, raw.size());
  EXPECT_EQ("value", raw.substr(0, 5));
  EXPECT_EQ(1700000123u, DecodeFixed32(raw.data() + 5));
  // A value not written through DBWithTTL is reported, not misread.
  ASSERT_TRUE(db_->GetBaseDB()->Put(WriteOptions(), "raw", "ab").ok());
  std::string v;
  EXPECT_TRUE(db_->Get(ReadOptions(), "raw", &v).IsCorruption());
}

TEST_F(DBWithTTLTest, SnapshotKeepsExpiredEntriesInFiles) {
  Open(10);
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "v").ok());
  const Snapshot* snap = db_->GetSnapshot();
  env_.Advance(11);
  Compact();
  EXPECT_EQ("NOT_FOUND", Get("k"));
  EXPECT_EQ(1u, StoredKeys());  // the snapshot can see it
  db_->ReleaseSnapshot(snap);
  Compact();
  EXPECT_EQ(0u, StoredKeys());
}

TEST_F(DBWithTTLTest, MergeKeepsTtl) {
  options_.merge_operator = MergeOperators::CreateStringAppendOperator();
  Open(10);
  ASSERT_TRUE(db_->Put(WriteOptions(), "m", "a").ok());
  ASSERT_TRUE(db_->Merge(WriteOptions(), "m", "b").ok());
  EXPECT_EQ("a,b", Get("m"));
  Compact();
  EXPECT_EQ("a,b", Get("m"));
  env_.Advance(11);
  // The expired base merges as no value.
  ASSERT_TRUE(db_->Merge(WriteOptions(), "m", "c").ok());
  EXPECT_EQ("c", Get("m"));
}

TEST_F(DBWithTTLTest, FamiliesMadeTogetherGoThroughTheTtlLayer) {
  options_.merge_operator = MergeOperators::CreateStringAppendOperator();
  Open(10);
  std::vector<ColumnFamilyHandle*> made;
  ASSERT_TRUE(db_->CreateColumnFamilies(ColumnFamilyOptions(options_),
                                        {"a", "b"}, &made)
                  .ok());
  handles_.insert(handles_.end(), made.begin(), made.end());
  std::vector<ColumnFamilyHandle*> described;
  ASSERT_TRUE(db_->CreateColumnFamilies({{"c", ColumnFamilyOptions(options_)}},
                                        &described)
                  .ok());
  handles_.insert(handles_.end(), described.begin(), described.end());
  ASSERT_EQ(3u, handles_.size());
  for (ColumnFamilyHandle* h : handles_) {
    // The family's own merge operator sees values without their stamps.
    ASSERT_TRUE(db_->Merge(WriteOptions(), h, "m", "x").ok());
    ASSERT_TRUE(db_->Merge(WriteOptions(), h, "m", "y").ok());
    EXPECT_EQ("x,y", Get("m", h));
    Compact(h);
    EXPECT_EQ("x,y", Get("m", h));
  }
  // A name taken: the error, and the handles of those made before it.
  std::vector<ColumnFamilyHandle*> partial;
  EXPECT_FALSE(db_->CreateColumnFamilies(ColumnFamilyOptions(options_),
                                         {"d", "a"}, &partial)
                   .ok());
  ASSERT_EQ(1u, partial.size());
  handles_.push_back(partial[0]);
  EXPECT_EQ("d", partial[0]->GetName());
}

TEST_F(DBWithTTLTest, TtlPerFamilyAndSetTtl) {
  std::vector<ColumnFamilyDescriptor> families = {
      {kDefaultColumnFamilyName, ColumnFamilyOptions(options_)},
      {"short", ColumnFamilyOptions(options_)}};
  options_.create_missing_column_families = true;
  DBWithTTL* db = nullptr;
  std::vector<int32_t> bad_ttls = {0};
  EXPECT_TRUE(DBWithTTL::Open(DBOptions(options_), name_, families, &handles_,
                              &db, bad_ttls)
                  .IsInvalidArgument());
  ASSERT_TRUE(DBWithTTL::Open(DBOptions(options_), name_, families, &handles_,
                              &db, {0, 5})
                  .ok());
  db_.reset(db);
  ColumnFamilyHandle* longer = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamilyWithTtl(ColumnFamilyOptions(options_),
                                             "long", &longer, 50)
                  .ok());
  handles_.push_back(longer);
  for (ColumnFamilyHandle* h : handles_) {
    ASSERT_TRUE(db_->Put(WriteOptions(), h, "k", "v").ok());
  }
  env_.Advance(6);
  EXPECT_EQ("v", Get("k", handles_[0]));
  EXPECT_EQ("NOT_FOUND", Get("k", handles_[1]));
  EXPECT_EQ("v", Get("k", handles_[2]));
  for (ColumnFamilyHandle* h : handles_) Compact(h);
  EXPECT_EQ(1u, StoredKeys(handles_[0]));
  EXPECT_EQ(0u, StoredKeys(handles_[1]));
  EXPECT_EQ(1u, StoredKeys(handles_[2]));
  db_->SetTtl(handles_[2], 3);
  db_->SetTtl(1);  // the default family
  EXPECT_EQ("NOT_FOUND", Get("k", handles_[2]));
  EXPECT_EQ("NOT_FOUND", Get("k", handles_[0]));
  for (ColumnFamilyHandle* h : handles_) Compact(h);
  EXPECT_EQ(0u, StoredKeys(handles_[0]));
  EXPECT_EQ(0u, StoredKeys(handles_[2]));
}

TEST_F(DBWithTTLTest, ReopenReadOnly) {
  Open(10);
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "v").ok());
  Close();
  DBWithTTL* db = nullptr;
  ASSERT_TRUE(DBWithTTL::Open(options_, name_, &db, 10, true).ok());
  db_.reset(db);
  EXPECT_EQ("v", Get("k"));
  env_.Advance(11);
  EXPECT_EQ("NOT_FOUND", Get("k"));
  EXPECT_TRUE(db_->Put(WriteOptions(), "k", "v").IsNotSupported());
}

}  // namespace
}  // namespace strata
