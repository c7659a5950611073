// Merge and DeleteRange through the whole DB: memtables, flushed tables,
// WAL recovery, snapshots, Get, MultiGet and iterators, against a model.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/merge_operator.h"
#include "test/db/db_test_util.h"
#include "util/random.h"

namespace strata {
namespace {

using test::DBHolder;
using Model = std::map<std::string, std::string>;

// Applies a string-append merge ("," between operands) to the model.
void ModelMerge(Model* m, const std::string& k, const std::string& v) {
  auto it = m->find(k);
  if (it == m->end()) {
    (*m)[k] = v;
  } else {
    it->second += "," + v;
  }
}

void ModelDeleteRange(Model* m, const std::string& b, const std::string& e) {
  m->erase(m->lower_bound(b), m->lower_bound(e));
}

void ExpectMatches(DBHolder& h, const Model& model, const Snapshot* snap,
                   int keys) {
  EXPECT_EQ(model, h.Contents(snap));
  // Backwards as well: the range tombstone filter skips both ways.
  ReadOptions ro;
  ro.snapshot = snap;
  std::unique_ptr<Iterator> it(h.db()->NewIterator(ro));
  Model backwards;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    backwards[it->key().ToString()] = it->value().ToString();
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(model, backwards);
  for (int i = 0; i < keys; i++) {
    const std::string k = "k" + std::to_string(100 + i);
    auto m = model.find(k);
    EXPECT_EQ(m == model.end() ? "NOT_FOUND" : m->second, h.Get(k, snap)) << k;
  }
}

TEST(DBMergeRangeDelTest, RandomOperationsWithFlushesAndReopens) {
  DBHolder h;
  h.options().merge_operator = MergeOperators::CreateStringAppendOperator();
  h.options().write_buffer_size = 64 << 10;
  ASSERT_TRUE(h.Open().ok());
  constexpr int kKeys = 60;
  Random rnd(301);
  Model model;
  std::vector<std::pair<const Snapshot*, Model>> saved;
  for (int i = 0; i < 3000; i++) {
    const std::string k = "k" + std::to_string(100 + rnd.Uniform(kKeys));
    const std::string v = std::to_string(i);
    switch (rnd.Uniform(10)) {
      case 0:
      case 1:
      case 2:
        ASSERT_TRUE(h.db()->Merge(WriteOptions(), k, v).ok());
        ModelMerge(&model, k, v);
        break;
      case 3: {
        const std::string e = "k" + std::to_string(100 + rnd.Uniform(kKeys));
        if (k < e) {
          ASSERT_TRUE(h.db()->DeleteRange(WriteOptions(), k, e).ok());
          ModelDeleteRange(&model, k, e);
        }
        break;
      }
      case 4:
        ASSERT_TRUE(h.Delete(k).ok());
        model.erase(k);
        break;
      default:
        ASSERT_TRUE(h.Put(k, v).ok());
        model[k] = v;
    }
    if (i % 500 == 250) {
      saved.emplace_back(h.db()->GetSnapshot(), model);
    }
    if (i % 400 == 399) {
      ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
    }
    if (i % 1000 == 999) {
      for (const auto& s : saved) ExpectMatches(h, s.second, s.first, kKeys);
      ExpectMatches(h, model, nullptr, kKeys);
    }
  }
  for (const auto& s : saved) h.db()->ReleaseSnapshot(s.first);
  ASSERT_TRUE(h.Reopen().ok());  // the WAL replays merges and tombstones
  ExpectMatches(h, model, nullptr, kKeys);
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h.Reopen().ok());
  ExpectMatches(h, model, nullptr, kKeys);
}

TEST(DBMergeRangeDelTest, TombstoneInATableHidesOlderTablesAndMemtables) {
  DBHolder h;
  h.options().merge_operator = MergeOperators::CreateUInt64AddOperator();
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.Put("c", "3").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  const Snapshot* before = h.db()->GetSnapshot();
  ASSERT_TRUE(h.db()->DeleteRange(WriteOptions(), "b", "d").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());  // a tombstone-only table
  EXPECT_EQ(2u, test::ListDBFiles(h.env(), h.name()).tables.size());
  EXPECT_EQ("NOT_FOUND", h.Get("c"));
  EXPECT_EQ("1", h.Get("a"));
  EXPECT_EQ("3", h.Get("c", before));
  ASSERT_TRUE(h.Put("c", "4").ok());  // newer than the tombstone
  EXPECT_EQ("4", h.Get("c"));
  std::vector<std::string> values;
  std::vector<Status> st = h.db()->MultiGet(ReadOptions(), {"a", "c"}, &values);
  EXPECT_EQ("1", values[0]);
  EXPECT_EQ("4", values[1]);
  h.db()->ReleaseSnapshot(before);
  ASSERT_TRUE(h.Reopen().ok());
  const Model expected = {{"a", "1"}, {"c", "4"}};
  EXPECT_EQ(expected, h.Contents());
}

// The bounds are read through their pointers at every seek, so a program
// may move them: a tombstone in a table outside the first bounds still
// hides what it deletes once they take it in.
TEST(DBMergeRangeDelTest, IteratorBoundsMovedInPlaceKeepTheirTombstones) {
  DBHolder h;
  h.options().disable_auto_compactions = true;
  ASSERT_TRUE(h.Open().ok());
  ASSERT_TRUE(h.Put("a", "1").ok());
  ASSERT_TRUE(h.Put("m", "2").ok());
  ASSERT_TRUE(h.Put("n", "3").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());
  ASSERT_TRUE(h.db()->DeleteRange(WriteOptions(), "m", "p").ok());
  ASSERT_TRUE(h.db()->Flush(FlushOptions()).ok());  // [m, p) alone
  std::string lower = "a", upper = "c";
  const Slice lower_slice(lower), upper_slice(upper);
  ReadOptions ro;
  ro.iterate_lower_bound = &lower_slice;
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<Iterator> it(h.db()->NewIterator(ro));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("a", it->key().ToString());
  upper[0] = 'z';  // same size: the Slice sees the new bytes
  it->Seek("k");
  EXPECT_FALSE(it->Valid()) << it->key().ToString();
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  lower[0] = 'l';
  it->SeekToLast();
  EXPECT_FALSE(it->Valid()) << it->key().ToString();
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid()) << it->key().ToString();
}

}  // namespace
}  // namespace strata
