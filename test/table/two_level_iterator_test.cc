// The two-level iterator over an index of in-memory "blocks": the sorted
// union of the blocks against a model, with empty blocks at the start, in
// the middle and at the end, failing blocks and a failing index.

#include "table/two_level_iterator.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "test/table/iter_model.h"
#include "test/util/vector_iterator.h"
#include "util/random.h"

namespace strata {
namespace {

using Entries = test::VectorIterator::Entries;

class TwoLevelIteratorTest : public testing::Test {
 protected:
  TwoLevelIteratorTest() : model_(test::ComparatorLess{BytewiseComparator()}) {}

  // Appends a block holding keys (sorted, after every key so far). Its
  // index key is separator, or its last key when separator is empty.
  void AddBlock(const std::vector<std::string>& keys,
                const std::string& separator = "") {
    const std::string name = "block" + std::to_string(blocks_.size());
    Entries& entries = blocks_[name];
    for (const std::string& k : keys) {
      entries.emplace_back(k, "v-" + k);
      model_[k] = "v-" + k;
    }
    index_.emplace_back(separator.empty() ? keys.back() : separator, name);
  }

  // Blocks of random sizes (empty ones included) over the keys k000..k999
  // with gaps. An empty block's index key is the previous key + "+", which
  // sorts between its neighbours' keys.
  void BuildRandom(Random* rnd, bool empty_ends) {
    if (empty_ends) AddBlock({}, "a");
    int next = 0;
    std::string last = "k";
    while (next < 1000) {
      const int size = rnd->OneIn(4) ? 0 : 1 + rnd->Uniform(12);
      std::vector<std::string> keys;
      for (int i = 0; i < size && next < 1000; i++) {
        keys.push_back(Key(next));
        next += 1 + rnd->Uniform(5);
      }
      if (keys.empty()) {
        AddBlock(keys, last + "+");
      } else {
        AddBlock(keys);
        last = keys.back();
      }
    }
    if (empty_ends) {
      AddBlock({}, "l");
      AddBlock({}, "m");
    }
  }

  static std::string Key(int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "k%03d", i);
    return buf;
  }

  InternalIterator* NewIterator() {
    auto* index = new test::VectorIterator(BytewiseComparator(), index_);
    return NewTwoLevelIterator(index, [this](const Slice& value) {
      block_opens_++;
      const std::string name = value.ToString();
      if (failing_.count(name)) {
        return NewErrorInternalIterator(Status::Corruption(name, "damaged"));
      }
      return static_cast<InternalIterator*>(
          new test::VectorIterator(BytewiseComparator(), blocks_.at(name)));
    });
  }

  std::map<std::string, Entries> blocks_;
  Entries index_;
  std::set<std::string> failing_;
  test::IterModel model_;
  int block_opens_ = 0;
};

std::string RandomTarget(Random* rnd) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%03u", rnd->Uniform(1010));
  std::string t = buf;
  if (rnd->OneIn(3)) t += '+';  // between two keys
  if (rnd->OneIn(20)) t = rnd->OneIn(2) ? "a" : "z";
  return t;
}

TEST_F(TwoLevelIteratorTest, NoBlocksAndOnlyEmptyBlocks) {
  std::unique_ptr<InternalIterator> it(NewIterator());
  test::ExpectScansMatch(it.get(), model_);
  test::ExpectSeeksMatch(it.get(), model_, "k");
  AddBlock({}, "b");
  AddBlock({}, "c");
  it.reset(NewIterator());
  test::ExpectScansMatch(it.get(), model_);
  test::ExpectSeeksMatch(it.get(), model_, "a");
  test::ExpectSeeksMatch(it.get(), model_, "bb");
  test::ExpectSeeksMatch(it.get(), model_, "d");
}

TEST_F(TwoLevelIteratorTest, EmptyBlocksAtStartMiddleAndEnd) {
  AddBlock({}, "a");
  AddBlock({}, "b");
  AddBlock({"c1", "c2"});
  AddBlock({}, "c3");
  AddBlock({}, "c4");
  AddBlock({"d1"});
  AddBlock({"e1", "e2", "e3"});
  AddBlock({}, "f");
  AddBlock({}, "g");
  std::unique_ptr<InternalIterator> it(NewIterator());
  test::ExpectScansMatch(it.get(), model_);
  for (const char* t : {"", "a", "b", "c", "c1", "c2", "c25", "c3", "c35", "d",
                        "d1", "d2", "e1", "e3", "f", "z"}) {
    test::ExpectSeeksMatch(it.get(), model_, t);
  }
  // Direction switches across the empty blocks.
  it->Seek("d1");
  it->Prev();
  EXPECT_EQ("c2", it->key().ToString());
  it->Next();
  EXPECT_EQ("d1", it->key().ToString());
  it->Next();
  it->Prev();
  EXPECT_EQ("d1", it->key().ToString());
}

TEST_F(TwoLevelIteratorTest, RandomBlocksMatchModel) {
  for (uint32_t seed = 1; seed <= 6; seed++) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    blocks_.clear();
    index_.clear();
    model_.clear();
    Random rnd(seed);
    BuildRandom(&rnd, seed % 2 == 0);
    std::unique_ptr<InternalIterator> it(NewIterator());
    test::ExpectScansMatch(it.get(), model_);
    for (int i = 0; i < 300; i++) {
      test::ExpectSeeksMatch(it.get(), model_, RandomTarget(&rnd));
      ASSERT_FALSE(HasFatalFailure());
    }
    test::RandomWalk(it.get(), model_, &rnd, 3000, RandomTarget);
  }
}

TEST_F(TwoLevelIteratorTest, OpensEachBlockOnceWhileScanning) {
  AddBlock({"a", "b", "c"});
  AddBlock({"d", "e"});
  AddBlock({"f"});
  std::unique_ptr<InternalIterator> it(NewIterator());
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  EXPECT_EQ(6, n);
  EXPECT_EQ(3, block_opens_);
  // Seeking within the current block reuses its iterator.
  it->Seek("d");
  const int opens = block_opens_;
  it->Seek("e");
  it->SeekForPrev("d");
  EXPECT_EQ(opens, block_opens_);
}

TEST_F(TwoLevelIteratorTest, BlockErrorStopsIteration) {
  AddBlock({"a", "b"});
  AddBlock({"c", "d"});
  AddBlock({"e", "f"});
  failing_.insert("block1");
  std::unique_ptr<InternalIterator> it(NewIterator());

  std::vector<std::string> seen;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    seen.push_back(it->key().ToString());
  }
  EXPECT_EQ((std::vector<std::string>{"a", "b"}), seen);
  EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
  EXPECT_EQ("Corruption: block1: damaged", it->status().ToString());

  seen.clear();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    seen.push_back(it->key().ToString());
  }
  EXPECT_EQ((std::vector<std::string>{"f", "e"}), seen);
  EXPECT_TRUE(it->status().IsCorruption());

  it->Seek("c");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
  it->SeekForPrev("d");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());

  // The error belongs to the failing block: a seek elsewhere works again.
  it->Seek("e");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("e", it->key().ToString());
  EXPECT_TRUE(it->status().ok());
  it->SeekForPrev("b");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b", it->key().ToString());
  EXPECT_TRUE(it->status().ok());
  it->Next();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
}

TEST_F(TwoLevelIteratorTest, IndexErrorIsReported) {
  std::unique_ptr<InternalIterator> it(NewTwoLevelIterator(
      NewErrorInternalIterator(Status::Corruption("index", "bad")),
      [](const Slice&) -> InternalIterator* {
        ADD_FAILURE() << "no block to open";
        return NewEmptyInternalIterator();
      }));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ("Corruption: index: bad", it->status().ToString());
  it->SeekForPrev("x");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
}

}  // namespace
}  // namespace strata
