// WriteBatchWithIndex's edge cases: the index's shape with and without
// overwrite_key (as RocksDB 7.8 shows it), lookups that cannot resolve a
// merge, merges across the batch and the DB, nested save points restoring
// the index, misuse (DeleteRange, a dropped family, no save point, a full
// batch), and WriteBatch's own save points and WriteBatchBase forms.

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/utilities/write_batch_with_index.h"
#include "test/util/temp_dir.h"

namespace strata {
namespace test {
namespace {

// The entries of the batch's default family: "Put:k=v Merge:k=v Del:k".
std::string Entries(WriteBatchWithIndex* wb, ColumnFamilyHandle* cf = nullptr) {
  static const char* const kNames[] = {"Put", "Merge", "Del", "SDel"};
  std::unique_ptr<WBWIIterator> it(wb->NewIterator(cf));
  std::string out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const WriteEntry e = it->Entry();
    if (!out.empty()) out += " ";
    out += std::string(kNames[e.type]) + ":" + e.key.ToString();
    if (e.type == kPutRecord || e.type == kMergeRecord) {
      out += "=" + e.value.ToString();
    }
  }
  return out;
}

void FillMixed(WriteBatchWithIndex* wb) {
  ASSERT_TRUE(wb->Put("b", "1").ok());
  ASSERT_TRUE(wb->Merge("b", "2").ok());
  ASSERT_TRUE(wb->Put("b", "3").ok());
  ASSERT_TRUE(wb->Merge("b", "4").ok());
  ASSERT_TRUE(wb->Delete("b").ok());
  ASSERT_TRUE(wb->Put("a", "x").ok());
  ASSERT_TRUE(wb->Put("b", "5").ok());
}

TEST(WbwiApiTest, EveryEntryWithoutOverwriteKey) {
  WriteBatchWithIndex wb;
  FillMixed(&wb);
  EXPECT_EQ(Entries(&wb),
            "Put:a=x Put:b=1 Merge:b=2 Put:b=3 Merge:b=4 Del:b Put:b=5");
  std::unique_ptr<WBWIIterator> it(wb.NewIterator());
  it->Seek("b");  // the key's oldest entry
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->Entry().value.ToString(), "1");
  it->SeekForPrev("b");  // the key's newest entry
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->Entry().value.ToString(), "5");
  it->SeekForPrev("a0");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->Entry().key.ToString(), "a");
  EXPECT_EQ(wb.GetWriteBatch()->Count(), 7u);
}

TEST(WbwiApiTest, OverwriteKeyReplacesTheNewestEntryButKeepsMerges) {
  // RocksDB 7.8: a Merge is added; a Put or Delete re-points the key's
  // newest entry, whatever its kind.
  WriteBatchWithIndex wb(BytewiseComparator(), 0, true);
  FillMixed(&wb);
  EXPECT_EQ(Entries(&wb), "Put:a=x Put:b=1 Put:b=3 Put:b=5");
  EXPECT_EQ(wb.GetWriteBatch()->Count(), 7u);  // the batch keeps them all
  std::string value;
  ASSERT_TRUE(wb.GetFromBatch(DBOptions(), "b", &value).ok());
  EXPECT_EQ(value, "5");
}

TEST(WbwiApiTest, BackupComparatorOrdersKeysWithoutHandle) {
  WriteBatchWithIndex wb(ReverseBytewiseComparator());
  ASSERT_TRUE(wb.Put("a", "1").ok());
  ASSERT_TRUE(wb.Put("c", "3").ok());
  ASSERT_TRUE(wb.Delete("b").ok());
  EXPECT_EQ(Entries(&wb), "Put:c=3 Del:b Put:a=1");
}

TEST(WbwiApiTest, SavePointsRestoreBatchAndIndex) {
  WriteBatchWithIndex wb(BytewiseComparator(), 0, true);
  ASSERT_TRUE(wb.Put("a", "1").ok());
  wb.SetSavePoint();
  ASSERT_TRUE(wb.Put("a", "2").ok());  // overwrites a's entry in the index
  ASSERT_TRUE(wb.Put("b", "1").ok());
  wb.SetSavePoint();
  ASSERT_TRUE(wb.Delete("b").ok());
  ASSERT_TRUE(wb.Merge("c", "x").ok());
  const size_t size_before_log = wb.GetDataSize();
  ASSERT_TRUE(wb.PutLogData("blob").ok());
  EXPECT_GT(wb.GetDataSize(), size_before_log);
  EXPECT_EQ(Entries(&wb), "Put:a=2 Del:b Merge:c=x");

  ASSERT_TRUE(wb.RollbackToSavePoint().ok());
  EXPECT_EQ(Entries(&wb), "Put:a=2 Put:b=1");
  EXPECT_EQ(wb.GetWriteBatch()->Count(), 3u);
  ASSERT_TRUE(wb.RollbackToSavePoint().ok());
  EXPECT_EQ(Entries(&wb), "Put:a=1");
  std::string value;
  ASSERT_TRUE(wb.GetFromBatch(DBOptions(), "a", &value).ok());
  EXPECT_EQ(value, "1");

  // No save point left: NotFound, and nothing changes.
  EXPECT_TRUE(wb.RollbackToSavePoint().IsNotFound());
  EXPECT_TRUE(wb.PopSavePoint().IsNotFound());
  EXPECT_EQ(Entries(&wb), "Put:a=1");

  // Popping keeps the updates; the older save point still rolls back.
  wb.SetSavePoint();
  ASSERT_TRUE(wb.Put("d", "1").ok());
  wb.SetSavePoint();
  ASSERT_TRUE(wb.Put("e", "1").ok());
  ASSERT_TRUE(wb.PopSavePoint().ok());
  EXPECT_EQ(Entries(&wb), "Put:a=1 Put:d=1 Put:e=1");
  ASSERT_TRUE(wb.RollbackToSavePoint().ok());
  EXPECT_EQ(Entries(&wb), "Put:a=1");

  // Clear drops the save points too.
  wb.SetSavePoint();
  wb.Clear();
  EXPECT_EQ(Entries(&wb), "");
  EXPECT_TRUE(wb.RollbackToSavePoint().IsNotFound());
}

TEST(WbwiApiTest, RefusedUpdatesAreNotIndexed) {
  WriteBatchWithIndex wb;
  EXPECT_TRUE(wb.DeleteRange("a", "z").IsNotSupported());
  wb.SetMaxBytes(wb.GetDataSize() + 16);
  EXPECT_FALSE(wb.Put("a", std::string(100, 'x')).ok());
  ASSERT_TRUE(wb.Put("b", "1").ok());
  EXPECT_EQ(Entries(&wb), "Put:b=1");
  EXPECT_EQ(wb.GetWriteBatch()->Count(), 1u);
  std::string value;
  EXPECT_TRUE(wb.GetFromBatch(DBOptions(), "a", &value).IsNotFound());
}

TEST(WbwiApiTest, MergesWithoutOperatorOrBase) {
  WriteBatchWithIndex wb;
  ASSERT_TRUE(wb.Merge("m", "1").ok());
  ASSERT_TRUE(wb.SingleDelete("s").ok());
  ASSERT_TRUE(wb.Merge("s", "1").ok());
  std::string value;
  // Only operands: the base value is elsewhere.
  EXPECT_TRUE(wb.GetFromBatch(DBOptions(), "m", &value).IsMergeInProgress());
  // Operands over a deletion need the family's operator: no handle, none.
  EXPECT_TRUE(wb.GetFromBatch(DBOptions(), "s", &value).IsInvalidArgument());
}

TEST(WbwiApiTest, WriteBatchBaseFormsMatchWriteBatch) {
  WriteBatch plain;
  WriteBatchWithIndex indexed;
  for (WriteBatchBase* b : std::vector<WriteBatchBase*>{&plain, &indexed}) {
    const Slice k[2] = {"ke", "y"};
    const Slice v[2] = {"va", "lue"};
    ASSERT_TRUE(b->Put(SliceParts(k, 2), SliceParts(v, 2)).ok());
    ASSERT_TRUE(b->Merge(SliceParts(k, 2), SliceParts(v, 1)).ok());
    ASSERT_TRUE(b->Delete(SliceParts(k, 1)).ok());
    ASSERT_TRUE(b->SingleDelete(SliceParts(k + 1, 1)).ok());
  }
  EXPECT_EQ(plain.Data(), indexed.GetWriteBatch()->Data());
  EXPECT_EQ(Entries(&indexed), "Del:ke Put:key=value Merge:key=va SDel:y");
  EXPECT_EQ(plain.GetWriteBatch(), &plain);
}

TEST(WbwiApiTest, WriteBatchSavePoints) {
  WriteBatch b;
  ASSERT_TRUE(b.Put("a", "1").ok());
  const std::string after_put = b.Data();
  b.SetSavePoint();
  ASSERT_TRUE(b.Merge("a", "2").ok());
  EXPECT_TRUE(b.HasMerge());
  WriteBatch copy(b);
  ASSERT_TRUE(b.RollbackToSavePoint().ok());
  EXPECT_EQ(b.Data(), after_put);
  EXPECT_EQ(b.Count(), 1u);
  EXPECT_FALSE(b.HasMerge());
  EXPECT_TRUE(b.RollbackToSavePoint().IsNotFound());
  // The copy took the save point along.
  ASSERT_TRUE(copy.RollbackToSavePoint().ok());
  EXPECT_EQ(copy.Data(), after_put);
}

class WbwiDBTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_.reset(new TempDir(Env::Default(), "wbwi_api"));
    Options options;
    options.create_if_missing = true;
    options.merge_operator = MergeOperators::CreateStringAppendOperator(',');
    DB* db;
    ASSERT_TRUE(DB::Open(options, dir_->path(), &db).ok());
    db_.reset(db);
  }

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<DB> db_;
};

TEST_F(WbwiDBTest, MergesResolvedAcrossBatchAndDB) {
  ASSERT_TRUE(db_->Put(WriteOptions(), "m", "base").ok());
  WriteBatchWithIndex wb;
  ASSERT_TRUE(wb.Merge("m", "1").ok());
  ASSERT_TRUE(wb.Merge("m", "2").ok());
  ASSERT_TRUE(wb.Merge("n", "1").ok());
  std::string value;
  ASSERT_TRUE(wb.GetFromBatchAndDB(db_.get(), ReadOptions(), "m", &value).ok());
  EXPECT_EQ(value, "base,1,2");
  PinnableSlice pinned;
  ASSERT_TRUE(
      wb.GetFromBatchAndDB(db_.get(), ReadOptions(), "n", &pinned).ok());
  EXPECT_EQ(pinned.ToString(), "1");
  // Operands over the batch's own deletion: the DB is not read.
  ASSERT_TRUE(wb.Delete("m").ok());
  ASSERT_TRUE(wb.Merge("m", "3").ok());
  ASSERT_TRUE(wb.GetFromBatchAndDB(db_.get(), ReadOptions(), "m", &value).ok());
  EXPECT_EQ(value, "3");

  std::unique_ptr<Iterator> it(wb.NewIteratorWithBase(
      db_->DefaultColumnFamily(), db_->NewIterator(ReadOptions())));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString() + "=" + it->value().ToString(), "m=3");
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString() + "=" + it->value().ToString(), "n=1");
}

TEST_F(WbwiDBTest, FamilyWithoutMergeOperatorFailsClearly) {
  ColumnFamilyHandle* plain;
  ASSERT_TRUE(
      db_->CreateColumnFamily(ColumnFamilyOptions(), "plain", &plain).ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), plain, "k", "v").ok());
  WriteBatchWithIndex wb;
  ASSERT_TRUE(wb.Merge(plain, "k", "1").ok());
  std::string value;
  Status s = wb.GetFromBatchAndDB(db_.get(), ReadOptions(), plain, "k", &value);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  std::unique_ptr<Iterator> it(
      wb.NewIteratorWithBase(plain, db_->NewIterator(ReadOptions(), plain)));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsInvalidArgument()) << it->status().ToString();
  it.reset();
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(plain).ok());
}

TEST_F(WbwiDBTest, DroppedFamily) {
  ColumnFamilyHandle* cf;
  ASSERT_TRUE(db_->CreateColumnFamily(ColumnFamilyOptions(), "gone", &cf).ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), cf, "old", "v").ok());
  ASSERT_TRUE(db_->DropColumnFamily(cf).ok());
  WriteBatchWithIndex wb;
  ASSERT_TRUE(wb.Put(cf, "k", "1").ok());
  ASSERT_TRUE(wb.Put("d", "1").ok());
  std::string value;
  ASSERT_TRUE(wb.GetFromBatch(cf, DBOptions(), "k", &value).ok());
  EXPECT_EQ(value, "1");
  // The handle still reads the dropped family's data.
  ASSERT_TRUE(
      wb.GetFromBatchAndDB(db_.get(), ReadOptions(), cf, "old", &value).ok());
  EXPECT_EQ(value, "v");
  // Writing the batch is refused as a whole.
  Status s = db_->Write(WriteOptions(), wb.GetWriteBatch());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(db_->Get(ReadOptions(), "d", &value).IsNotFound());
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(cf).ok());
}

// Lookups run on many threads at once, each thread also moving its own
// iterator (made beforehand), and all see the batch over the DB.
TEST_F(WbwiDBTest, ConcurrentLookups) {
  WriteBatchWithIndex wb;
  for (int i = 0; i < 100; i++) {
    const std::string k = "k" + std::to_string(i);
    ASSERT_TRUE(db_->Put(WriteOptions(), k, "db").ok());
    const Status s = i % 3 == 0   ? wb.Merge(k, "b")
                     : i % 3 == 1 ? wb.Delete(k)
                                  : Status::OK();
    ASSERT_TRUE(s.ok());
  }
  constexpr int kThreads = 4;
  std::vector<std::unique_ptr<Iterator>> iters;
  for (int t = 0; t < kThreads; t++) {
    iters.emplace_back(wb.NewIteratorWithBase(db_->DefaultColumnFamily(),
                                              db_->NewIterator(ReadOptions())));
  }
  std::vector<int> errors(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; i++) {
        const std::string k = "k" + std::to_string(i);
        std::string v;
        Status s = wb.GetFromBatchAndDB(db_.get(), ReadOptions(), k, &v);
        const bool ok = i % 3 == 0   ? s.ok() && v == "db,b"
                        : i % 3 == 1 ? s.IsNotFound()
                                     : s.ok() && v == "db";
        if (!ok) errors[t]++;
      }
      int n = 0;
      for (iters[t]->SeekToFirst(); iters[t]->Valid(); iters[t]->Next()) n++;
      if (n != 67 || !iters[t]->status().ok()) errors[t]++;
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; t++) EXPECT_EQ(errors[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace test
}  // namespace strata
