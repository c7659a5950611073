// Column families across reopens: a WAL kept for the family that did not
// flush and replayed into it alone (every WAL recovery mode), a dropped
// family's tables deleted once nothing reads them, atomic flushes, and a
// model test over several families with drops and creates between
// reopens.

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "test/db/column_family_test_util.h"
#include "test/db/db_test_util.h"
#include "util/random.h"

namespace strata {
namespace test {
namespace {

class ColumnFamilyRecoveryTest : public testing::TestWithParam<WALRecoveryMode>,
                                 public FamilyDB {};

uint64_t EstimateKeys(DB* db, ColumnFamilyHandle* h) {
  uint64_t n = 0;
  EXPECT_TRUE(db->GetIntProperty(h, "strata.estimate-num-keys", &n));
  return n;
}

TEST_P(ColumnFamilyRecoveryTest, WalKeptForTheFamilyThatDidNotFlush) {
  options_.wal_recovery_mode = GetParam();
  Open({});
  Create({"flushed", "unflushed"});
  ASSERT_TRUE(Put(1, "k1", "f1").ok());
  ASSERT_TRUE(Put(2, "k1", "u1").ok());
  const std::vector<uint64_t> logs_before =
      ListDBFiles(options_.env, name_).logs;
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  // The WAL holding the unflushed family's k1 must stay.
  const std::vector<uint64_t> logs_after =
      ListDBFiles(options_.env, name_).logs;
  for (uint64_t n : logs_before) {
    EXPECT_NE(logs_after.end(),
              std::find(logs_after.begin(), logs_after.end(), n))
        << "WAL " << n << " deleted while a family still needs it";
  }
  ASSERT_TRUE(Put(1, "k2", "f2").ok());
  ASSERT_TRUE(Put(2, "k2", "u2").ok());
  Reopen({"flushed", "unflushed"});
  EXPECT_EQ("f1", Get(1, "k1"));
  EXPECT_EQ("f2", Get(1, "k2"));
  EXPECT_EQ("u1", Get(2, "k1"));
  EXPECT_EQ("u2", Get(2, "k2"));
  // Replayed only into the family that needed it: the flushed family's
  // k1 is in its table once, not again in the recovered one.
  EXPECT_EQ(2u, EstimateKeys(db_, handles_[1]));
  EXPECT_EQ(2u, EstimateKeys(db_, handles_[2]));
  // After the reopen every family is in tables: the old WALs go.
  for (uint64_t n : ListDBFiles(options_.env, name_).logs) {
    for (uint64_t old : logs_after) EXPECT_NE(old, n);
  }
  Reopen({"flushed", "unflushed"});
  EXPECT_EQ("u1", Get(2, "k1"));
  EXPECT_EQ(2u, EstimateKeys(db_, handles_[1]));
}

TEST_P(ColumnFamilyRecoveryTest, IdleFamilyDoesNotPinWals) {
  options_.wal_recovery_mode = GetParam();
  Open({});
  Create({"busy", "idle"});
  for (int round = 0; round < 5; round++) {
    ASSERT_TRUE(Put(1, "k" + std::to_string(round), "v").ok());
    ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  }
  // The idle family never wrote: it holds no WAL back.
  EXPECT_LE(ListDBFiles(options_.env, name_).logs.size(), 2u);
  Reopen({"busy", "idle"});
  EXPECT_EQ("k0,k1,k2,k3,k4,", Keys(1));
  EXPECT_EQ("", Keys(2));
}

INSTANTIATE_TEST_SUITE_P(
    Modes, ColumnFamilyRecoveryTest,
    testing::Values(WALRecoveryMode::kTolerateCorruptedTailRecords,
                    WALRecoveryMode::kAbsoluteConsistency,
                    WALRecoveryMode::kPointInTimeRecovery,
                    WALRecoveryMode::kSkipAnyCorruptedRecords));

class ColumnFamilyDropTest : public testing::Test, public FamilyDB {};

TEST_F(ColumnFamilyDropTest, FilesGoAfterTheLastHandleAndIterator) {
  Open({});
  Create({"doomed"});
  ASSERT_TRUE(Put(1, "k", "v").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  const std::vector<uint64_t> tables = ListDBFiles(options_.env, name_).tables;
  ASSERT_EQ(1u, tables.size());
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), handles_[1]));
  ASSERT_TRUE(db_->DropColumnFamily(handles_[1]).ok());
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(handles_[1]).ok());
  handles_.pop_back();
  // The iterator still reads the dropped family's table.
  EXPECT_EQ(tables, ListDBFiles(options_.env, name_).tables);
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("v", it->value().ToString());
  it.reset();
  EXPECT_TRUE(ListDBFiles(options_.env, name_).tables.empty());
  Reopen({});
  std::vector<std::string> names;
  ASSERT_TRUE(DB::ListColumnFamilies(options_, name_, &names).ok());
  EXPECT_EQ(std::vector<std::string>{"default"}, names);
}

TEST_F(ColumnFamilyDropTest, DropWhileWritesAndFlushesRun) {
  options_.write_buffer_size = 64 << 10;
  Open({});
  Create({"a", "b"});
  for (int i = 0; i < 2000; i++) {
    const std::string k = "key" + std::to_string(i);
    ASSERT_TRUE(Put(2, k, std::string(100, 'b')).ok());
    if (i < 1000) {
      ASSERT_TRUE(Put(1, k, std::string(100, 'a')).ok());
    } else if (i == 1000) {
      ASSERT_TRUE(db_->DropColumnFamily(handles_[1]).ok());
    } else {
      Status s = Put(1, k, "x");
      ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    }
  }
  ASSERT_TRUE(WaitForBackgroundWork().ok());
  Reopen({"b"});
  EXPECT_EQ(std::string(100, 'b'), Get(1, "key1999"));
}

// Atomic flush: one MANIFEST record installs every family's table, so
// the families' log numbers move together.
TEST_F(ColumnFamilyDropTest, AtomicFlushFlushesEveryFamilyTogether) {
  options_.atomic_flush = true;
  Open({});
  Create({"a", "b"});
  ASSERT_TRUE(Put(0, "k", "0").ok());
  ASSERT_TRUE(Put(1, "k", "1").ok());
  ASSERT_TRUE(Put(2, "k", "2").ok());
  // Asking for one family flushes every family with data.
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[1]).ok());
  for (size_t cf = 0; cf < 3; cf++) {
    uint64_t files = 0, entries = 0;
    ASSERT_TRUE(db_->GetIntProperty(handles_[cf], "strata.num-files-at-level0",
                                    &files));
    ASSERT_TRUE(db_->GetIntProperty(
        handles_[cf], "strata.num-entries-active-mem-table", &entries));
    EXPECT_EQ(1u, files) << cf;
    EXPECT_EQ(0u, entries) << cf;
  }
  Reopen({"a", "b"});
  EXPECT_EQ("2", Get(2, "k"));
}

// Random work over three families against a model per family: puts,
// deletes, merges and batches spanning families, flushes of one family,
// iterators, reopens, and a family dropped and another created between
// reopens.
TEST_F(ColumnFamilyDropTest, ModelOverSeveralFamilies) {
  options_.merge_operator = MergeOperators::CreateStringAppendOperator();
  options_.write_buffer_size = 64 << 10;
  Open({});
  Create({"f1", "f2", "f3"});
  std::vector<std::string> names = {"f1", "f2", "f3"};
  std::vector<std::map<std::string, std::string>> model(4);
  Random rnd(301);
  int next_name = 4;
  auto check = [&]() {
    for (size_t cf = 0; cf < handles_.size(); cf++) {
      std::unique_ptr<Iterator> it(
          db_->NewIterator(ReadOptions(), handles_[cf]));
      auto m = model[cf].begin();
      for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
        ASSERT_NE(model[cf].end(), m) << "family " << cf;
        ASSERT_EQ(m->first, it->key().ToString()) << "family " << cf;
        ASSERT_EQ(m->second, it->value().ToString()) << "family " << cf;
      }
      ASSERT_TRUE(it->status().ok());
      ASSERT_EQ(model[cf].end(), m) << "family " << cf;
      for (int i = 0; i < 20; i++) {
        const std::string k = "k" + std::to_string(rnd.Uniform(200));
        const auto found = model[cf].find(k);
        ASSERT_EQ(found == model[cf].end() ? "NOT_FOUND" : found->second,
                  Get(cf, k));
      }
    }
  };
  for (int step = 0; step < 6000; step++) {
    const size_t cf = rnd.Uniform(static_cast<int>(handles_.size()));
    const std::string k = "k" + std::to_string(rnd.Uniform(200));
    const std::string v = "v" + std::to_string(step);
    switch (rnd.Uniform(10)) {
      case 0:
      case 1:
      case 2:
        ASSERT_TRUE(Put(cf, k, v).ok());
        model[cf][k] = v;
        break;
      case 3:
        ASSERT_TRUE(db_->Delete(WriteOptions(), handles_[cf], k).ok());
        model[cf].erase(k);
        break;
      case 4: {
        ASSERT_TRUE(db_->Merge(WriteOptions(), handles_[cf], k, v).ok());
        const auto found = model[cf].find(k);
        if (found == model[cf].end()) {
          model[cf][k] = v;
        } else {
          found->second += "," + v;
        }
        break;
      }
      case 5:
      case 6: {  // a batch over every family
        WriteBatch batch;
        for (size_t f = 0; f < handles_.size(); f++) {
          ASSERT_TRUE(
              batch.Put(handles_[f], k, v + "/" + std::to_string(f)).ok());
          model[f][k] = v + "/" + std::to_string(f);
        }
        ASSERT_TRUE(db_->Write(WriteOptions(), &batch).ok());
        break;
      }
      case 7:
        if (rnd.OneIn(20)) {
          ASSERT_TRUE(db_->Flush(FlushOptions(), handles_[cf]).ok());
        }
        break;
      case 8:
        if (rnd.OneIn(50)) check();
        break;
      case 9:
        if (rnd.OneIn(300)) {
          check();
          // Drop one family (not the default one), create another.
          const size_t victim =
              1 + rnd.Uniform(static_cast<int>(handles_.size() - 1));
          ASSERT_TRUE(db_->DropColumnFamily(handles_[victim]).ok());
          ASSERT_TRUE(db_->DestroyColumnFamilyHandle(handles_[victim]).ok());
          handles_.erase(handles_.begin() + victim);
          model.erase(model.begin() + victim);
          names.erase(names.begin() + (victim - 1));
          const std::string fresh = "f" + std::to_string(next_name++);
          Create({fresh});
          names.push_back(fresh);
          model.emplace_back();
          Reopen(names);
          check();
        }
        break;
    }
  }
  check();
  Reopen(names);
  check();
}

}  // namespace
}  // namespace test
}  // namespace strata
