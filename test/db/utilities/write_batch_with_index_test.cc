// WriteBatchWithIndex against a model (wbwi_model.h): random Put, Delete,
// SingleDelete and Merge updates, with save points set, rolled back and
// popped, over random keys of three column families (bytewise with a
// merge operator, reverse-ordered with one, bytewise without one), in a
// batch over a DB holding random data (some of it flushed, some of it
// written after the snapshot the batch is read at). Every GetFromBatch,
// GetFromBatchAndDB and MultiGetFromBatchAndDB answer, every entry of the
// batch's own iterator, and every position of NewIteratorWithBase (full
// scans both ways, a random walk of seeks and steps in both directions,
// with and without bounds) must equal the model's; finally the batch is
// written and the DB must hold what the model says.

#include "strata/utilities/write_batch_with_index.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "test/db/utilities/wbwi_model.h"
#include "test/util/temp_dir.h"
#include "util/random.h"

namespace strata {
namespace test {
namespace {

constexpr int kFamilies = 3;
constexpr int kKeys = 24;

std::string KeyAt(int i) {
  char buf[8];
  snprintf(buf, sizeof(buf), "k%02d", i);
  return buf;
}

// Seek targets: every key, the gaps between them, and both ends.
std::string RandomTarget(Random* rnd) {
  switch (rnd->Uniform(6)) {
    case 0:
      return "";
    case 1:
      return "z";
    case 2:
      return KeyAt(static_cast<int>(rnd->Uniform(kKeys))) + "a";
    default:
      return KeyAt(static_cast<int>(rnd->Uniform(kKeys)));
  }
}

class WbwiModelTest : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    dir_.reset(new TempDir(Env::Default(), "wbwi"));
    Options options;
    options.create_if_missing = true;
    options.create_missing_column_families = true;
    ColumnFamilyOptions with_merge;
    with_merge.merge_operator = MergeOperators::CreateStringAppendOperator(',');
    ColumnFamilyOptions reversed = with_merge;
    reversed.comparator = ReverseBytewiseComparator();
    std::vector<ColumnFamilyDescriptor> families = {
        {kDefaultColumnFamilyName, with_merge},
        {"reversed", reversed},
        {"plain", ColumnFamilyOptions()}};
    options.merge_operator = with_merge.merge_operator;
    std::vector<ColumnFamilyHandle*> handles;
    DB* db;
    ASSERT_TRUE(
        DB::Open(DBOptions(options), dir_->path(), families, &handles, &db)
            .ok());
    db_.reset(db);
    handles_ = handles;
  }

  void TearDown() override {
    for (ColumnFamilyHandle* h : handles_) db_->DestroyColumnFamilyHandle(h);
    db_.reset();
  }

  const Comparator* Cmp(int cf) const { return handles_[cf]->GetComparator(); }
  bool HasMerge(int cf) const { return cf != 2; }

  // A random update of the DB (or of the batch), also applied to the model.
  ModelOp RandomOp(Random* rnd) {
    ModelOp op;
    op.cf = static_cast<int>(rnd->Uniform(kFamilies));
    op.key = KeyAt(static_cast<int>(rnd->Uniform(kKeys)));
    op.value = "v" + std::to_string(rnd->Uniform(1000));
    const uint32_t r = rnd->Uniform(10);
    if (r < 4) {
      op.type = kPutRecord;
    } else if (r < 6) {
      op.type = kDeleteRecord;
    } else if (r < 7) {
      op.type = kSingleDeleteRecord;
    } else {
      op.type = HasMerge(op.cf) ? kMergeRecord : kPutRecord;
    }
    return op;
  }

  void WriteToDB(const ModelOp& op) {
    ColumnFamilyHandle* h = handles_[op.cf];
    Status s;
    if (op.type == kPutRecord) {
      s = db_->Put(WriteOptions(), h, op.key, op.value);
    } else if (op.type == kMergeRecord) {
      s = db_->Merge(WriteOptions(), h, op.key, op.value);
    } else {
      s = db_->Delete(WriteOptions(), h, op.key);
    }
    ASSERT_TRUE(s.ok()) << s.ToString();
    db_ops_.push_back(op);
  }

  std::map<std::string, std::string> DBModel(int cf, size_t ops) const {
    return Apply(
        {}, std::vector<ModelOp>(db_ops_.begin(), db_ops_.begin() + ops), cf);
  }

  void CheckEntries(WriteBatchWithIndex* wb, int cf, Random* rnd);
  void CheckLookups(WriteBatchWithIndex* wb, int cf, const ReadOptions& ro,
                    const std::map<std::string, std::string>& base);
  void CheckIterator(WriteBatchWithIndex* wb, int cf, const ReadOptions& ro,
                     const std::map<std::string, std::string>& base,
                     Random* rnd);

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<DB> db_;
  std::vector<ColumnFamilyHandle*> handles_;
  std::vector<ModelOp> db_ops_;
  std::vector<ModelOp> batch_ops_;
};

void WbwiModelTest::CheckEntries(WriteBatchWithIndex* wb, int cf, Random* rnd) {
  const std::vector<ModelEntry> want =
      Entries(batch_ops_, cf, GetParam(), Cmp(cf));
  std::unique_ptr<WBWIIterator> it(wb->NewIterator(handles_[cf]));
  auto same = [&](size_t i) {
    const WriteEntry e = it->Entry();
    return e.type == want[i].type && e.key.ToString() == want[i].key &&
           e.value.ToString() == want[i].value;
  };
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    ASSERT_LT(i, want.size());
    ASSERT_TRUE(same(i)) << "cf " << cf << " entry " << i;
  }
  ASSERT_EQ(i, want.size());
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_GT(i, 0u);
    ASSERT_TRUE(same(--i)) << "cf " << cf << " entry " << i;
  }
  ASSERT_EQ(i, 0u);
  for (int n = 0; n < 20; n++) {
    const std::string t = RandomTarget(rnd);
    size_t first = 0;  // first entry of the first key >= t
    while (first < want.size() && Cmp(cf)->Compare(want[first].key, t) < 0) {
      first++;
    }
    it->Seek(t);
    ASSERT_EQ(it->Valid(), first < want.size()) << t;
    if (it->Valid()) {
      ASSERT_TRUE(same(first)) << t;
    }
    size_t last = want.size();  // one past the last entry of keys <= t
    while (last > 0 && Cmp(cf)->Compare(want[last - 1].key, t) > 0) last--;
    it->SeekForPrev(t);
    ASSERT_EQ(it->Valid(), last > 0) << t;
    if (it->Valid()) {
      ASSERT_TRUE(same(last - 1)) << t;
    }
  }
}

void WbwiModelTest::CheckLookups(
    WriteBatchWithIndex* wb, int cf, const ReadOptions& ro,
    const std::map<std::string, std::string>& base) {
  const std::map<std::string, KeyState> batch = BatchState(batch_ops_, cf);
  const std::map<std::string, std::string> full = Apply(base, batch_ops_, cf);
  std::vector<std::string> keys;
  for (int k = 0; k < kKeys; k++) keys.push_back(KeyAt(k));
  keys.push_back("absent");
  for (const std::string& key : keys) {
    std::string value;
    Status s = wb->GetFromBatch(handles_[cf], DBOptions(), key, &value);
    auto b = batch.find(key);
    const KeyState state = b == batch.end() ? KeyState() : b->second;
    switch (state.kind) {
      case KeyState::kValue:
        ASSERT_TRUE(s.ok()) << key << " " << s.ToString();
        ASSERT_EQ(value, state.value) << key;
        break;
      case KeyState::kMergeOnly:
        ASSERT_TRUE(s.IsMergeInProgress()) << key << " " << s.ToString();
        break;
      default:
        ASSERT_TRUE(s.IsNotFound()) << key << " " << s.ToString();
    }
    auto f = full.find(key);
    s = wb->GetFromBatchAndDB(db_.get(), ro, handles_[cf], key, &value);
    ASSERT_EQ(s.ok(), f != full.end()) << key << " " << s.ToString();
    if (s.ok()) {
      ASSERT_EQ(value, f->second) << key;
    } else {
      ASSERT_TRUE(s.IsNotFound()) << s.ToString();
    }
  }
  std::vector<Slice> slices(keys.begin(), keys.end());
  std::vector<PinnableSlice> values(keys.size());
  std::vector<Status> statuses(keys.size());
  wb->MultiGetFromBatchAndDB(db_.get(), ro, handles_[cf], keys.size(),
                             slices.data(), values.data(), statuses.data(),
                             false);
  for (size_t i = 0; i < keys.size(); i++) {
    auto f = full.find(keys[i]);
    ASSERT_EQ(statuses[i].ok(), f != full.end()) << keys[i];
    if (f != full.end()) {
      ASSERT_EQ(values[i].ToString(), f->second);
    }
  }
}

void WbwiModelTest::CheckIterator(
    WriteBatchWithIndex* wb, int cf, const ReadOptions& ro,
    const std::map<std::string, std::string>& base, Random* rnd) {
  for (int round = 0; round < 4; round++) {
    ReadOptions bounded = ro;
    std::string lower, upper;
    Slice lower_slice, upper_slice;
    if (round > 0) {
      lower = RandomTarget(rnd);
      upper = RandomTarget(rnd);
      if (Cmp(cf)->Compare(lower, upper) > 0) std::swap(lower, upper);
      lower_slice = lower;
      upper_slice = upper;
      if (round != 2) bounded.iterate_lower_bound = &lower_slice;
      if (round != 3) bounded.iterate_upper_bound = &upper_slice;
    }
    std::vector<KV> want;
    for (const KV& kv : Sorted(Apply(base, batch_ops_, cf), Cmp(cf))) {
      if (bounded.iterate_lower_bound != nullptr &&
          Cmp(cf)->Compare(kv.first, lower) < 0) {
        continue;
      }
      if (bounded.iterate_upper_bound != nullptr &&
          Cmp(cf)->Compare(kv.first, upper) >= 0) {
        continue;
      }
      want.push_back(kv);
    }
    // The base iterator gets the bounds too, or not: the batch's iterator
    // applies them to both sides either way.
    const ReadOptions& base_ro = rnd->OneIn(2) ? bounded : ro;
    std::unique_ptr<Iterator> it(wb->NewIteratorWithBase(
        handles_[cf], db_->NewIterator(base_ro, handles_[cf]), &bounded));
    const int n = static_cast<int>(want.size());
    int pos = 0;
    auto check = [&](const std::string& what) {
      ASSERT_TRUE(it->status().ok()) << it->status().ToString();
      ASSERT_EQ(it->Valid(), pos >= 0 && pos < n) << what << " at " << pos;
      if (!it->Valid()) return;
      ASSERT_EQ(it->key().ToString(), want[pos].first) << what;
      ASSERT_EQ(it->value().ToString(), want[pos].second) << what;
    };
    for (it->SeekToFirst(), pos = 0; pos < n; it->Next(), pos++) {
      ASSERT_NO_FATAL_FAILURE(check("forward scan"));
    }
    ASSERT_NO_FATAL_FAILURE(check("forward end"));
    for (it->SeekToLast(), pos = n - 1; pos >= 0; it->Prev(), pos--) {
      ASSERT_NO_FATAL_FAILURE(check("backward scan"));
    }
    ASSERT_NO_FATAL_FAILURE(check("backward end"));
    for (int step = 0; step < 100; step++) {
      const uint32_t r = rnd->Uniform(8);
      std::string what;
      if (r < 3 && pos >= 0 && pos < n) {
        it->Next();
        pos++;
        what = "Next";
      } else if (r < 6 && pos >= 0 && pos < n) {
        it->Prev();
        pos--;
        what = "Prev";
      } else if (r == 6) {
        const std::string t = RandomTarget(rnd);
        it->Seek(t);
        for (pos = 0; pos < n && Cmp(cf)->Compare(want[pos].first, t) < 0;) {
          pos++;
        }
        what = "Seek " + t;
      } else {
        const std::string t = RandomTarget(rnd);
        it->SeekForPrev(t);
        for (pos = n - 1;
             pos >= 0 && Cmp(cf)->Compare(want[pos].first, t) > 0;) {
          pos--;
        }
        what = "SeekForPrev " + t;
      }
      ASSERT_NO_FATAL_FAILURE(check(what));
    }
  }
}

TEST_P(WbwiModelTest, RandomBatchesOverRandomDB) {
  Random rnd(301 + (GetParam() ? 1 : 0));
  for (int i = 0; i < 60; i++)
    ASSERT_NO_FATAL_FAILURE(WriteToDB(RandomOp(&rnd)));
  ASSERT_TRUE(db_->Flush(FlushOptions(), handles_).ok());
  for (int i = 0; i < 60; i++)
    ASSERT_NO_FATAL_FAILURE(WriteToDB(RandomOp(&rnd)));
  const Snapshot* snapshot = db_->GetSnapshot();
  const size_t ops_at_snapshot = db_ops_.size();
  for (int i = 0; i < 30; i++)
    ASSERT_NO_FATAL_FAILURE(WriteToDB(RandomOp(&rnd)));

  WriteBatchWithIndex wb(BytewiseComparator(), 0, GetParam());
  std::vector<size_t> save_points;
  for (int round = 0; round < 8; round++) {
    for (int i = 0; i < 25; i++) {
      const uint32_t r = rnd.Uniform(20);
      if (r == 0) {
        wb.SetSavePoint();
        save_points.push_back(batch_ops_.size());
      } else if (r == 1) {
        Status s = wb.RollbackToSavePoint();
        ASSERT_EQ(s.ok(), !save_points.empty()) << s.ToString();
        if (!save_points.empty()) {
          batch_ops_.resize(save_points.back());
          save_points.pop_back();
        } else {
          ASSERT_TRUE(s.IsNotFound());
        }
      } else if (r == 2) {
        Status s = wb.PopSavePoint();
        ASSERT_EQ(s.ok(), !save_points.empty());
        if (!save_points.empty()) save_points.pop_back();
      } else {
        ModelOp op = RandomOp(&rnd);
        ColumnFamilyHandle* h = handles_[op.cf];
        Status s = op.type == kPutRecord      ? wb.Put(h, op.key, op.value)
                   : op.type == kMergeRecord  ? wb.Merge(h, op.key, op.value)
                   : op.type == kDeleteRecord ? wb.Delete(h, op.key)
                                              : wb.SingleDelete(h, op.key);
        ASSERT_TRUE(s.ok()) << s.ToString();
        batch_ops_.push_back(op);
      }
    }
    ASSERT_EQ(wb.GetWriteBatch()->Count(), batch_ops_.size());
    for (int cf = 0; cf < kFamilies; cf++) {
      SCOPED_TRACE("round " + std::to_string(round) + " family " +
                   std::to_string(cf));
      ReadOptions latest, at_snapshot;
      at_snapshot.snapshot = snapshot;
      ASSERT_NO_FATAL_FAILURE(CheckEntries(&wb, cf, &rnd));
      ASSERT_NO_FATAL_FAILURE(
          CheckLookups(&wb, cf, latest, DBModel(cf, db_ops_.size())));
      ASSERT_NO_FATAL_FAILURE(
          CheckLookups(&wb, cf, at_snapshot, DBModel(cf, ops_at_snapshot)));
      ASSERT_NO_FATAL_FAILURE(
          CheckIterator(&wb, cf, latest, DBModel(cf, db_ops_.size()), &rnd));
      ASSERT_NO_FATAL_FAILURE(CheckIterator(
          &wb, cf, at_snapshot, DBModel(cf, ops_at_snapshot), &rnd));
    }
  }
  db_->ReleaseSnapshot(snapshot);

  // Written, the batch makes the DB what the model says.
  ASSERT_TRUE(db_->Write(WriteOptions(), wb.GetWriteBatch()).ok());
  for (int cf = 0; cf < kFamilies; cf++) {
    std::vector<KV> want =
        Sorted(Apply(DBModel(cf, db_ops_.size()), batch_ops_, cf), Cmp(cf));
    std::vector<KV> got;
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions(), handles_[cf]));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      got.emplace_back(it->key().ToString(), it->value().ToString());
    }
    ASSERT_EQ(got, want) << "family " << cf;
  }
}

INSTANTIATE_TEST_SUITE_P(OverwriteKey, WbwiModelTest, testing::Bool());

}  // namespace
}  // namespace test
}  // namespace strata
