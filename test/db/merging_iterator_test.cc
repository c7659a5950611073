// The merging iterator against a model: the sorted union of its children,
// walked in both directions with every kind of direction switch.

#include "table/merging_iterator.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "test/util/vector_iterator.h"
#include "util/random.h"

namespace strata {
namespace {

using Entries = test::VectorIterator::Entries;

class MergingIteratorTest : public testing::Test {
 protected:
  // Builds num_children children holding disjoint random keys.
  void Build(int num_children, int num_keys, uint32_t seed) {
    Random rnd(seed);
    std::vector<Entries> parts(num_children);
    model_.clear();
    while (static_cast<int>(model_.size()) < num_keys) {
      char buf[16];
      std::snprintf(buf, sizeof(buf), "k%05u", rnd.Uniform(num_keys * 4));
      if (model_.count(buf)) continue;
      const int child = static_cast<int>(rnd.Uniform(num_children));
      model_.insert(buf);
      parts[child].emplace_back(buf, std::string("v") + buf);
    }
    std::vector<InternalIterator*> children;
    for (auto& part : parts) {
      children.push_back(new test::VectorIterator(BytewiseComparator(), part));
    }
    iter_.reset(NewMergingIterator(BytewiseComparator(), children));
  }

  std::set<std::string> model_;
  std::unique_ptr<InternalIterator> iter_;
};

TEST_F(MergingIteratorTest, EmptyAndSingle) {
  std::unique_ptr<InternalIterator> empty(
      NewMergingIterator(BytewiseComparator(), {}));
  empty->SeekToFirst();
  EXPECT_FALSE(empty->Valid());
  EXPECT_TRUE(empty->status().ok());

  Build(1, 10, 1);
  iter_->SeekToFirst();
  EXPECT_EQ(*model_.begin(), iter_->key().ToString());
}

TEST_F(MergingIteratorTest, ForwardAndBackwardMatchModel) {
  for (int children : {2, 3, 7}) {
    Build(children, 200, children);
    std::vector<std::string> forward;
    for (iter_->SeekToFirst(); iter_->Valid(); iter_->Next()) {
      forward.push_back(iter_->key().ToString());
      EXPECT_EQ("v" + forward.back(), iter_->value().ToString());
    }
    EXPECT_EQ(std::vector<std::string>(model_.begin(), model_.end()), forward);
    std::vector<std::string> backward;
    for (iter_->SeekToLast(); iter_->Valid(); iter_->Prev()) {
      backward.push_back(iter_->key().ToString());
    }
    EXPECT_EQ(std::vector<std::string>(model_.rbegin(), model_.rend()),
              backward);
  }
}

TEST_F(MergingIteratorTest, RandomWalkWithDirectionSwitches) {
  Build(4, 300, 7);
  const std::vector<std::string> keys(model_.begin(), model_.end());
  Random rnd(99);
  long pos = -1;  // index into keys; -1 or keys.size() is invalid
  for (int step = 0; step < 5000; step++) {
    switch (rnd.Uniform(6)) {
      case 0: {
        char buf[16];
        std::snprintf(buf, sizeof(buf), "k%05u", rnd.Uniform(1300));
        iter_->Seek(buf);
        pos = std::lower_bound(keys.begin(), keys.end(), buf) - keys.begin();
        break;
      }
      case 1: {
        char buf[16];
        std::snprintf(buf, sizeof(buf), "k%05u", rnd.Uniform(1300));
        iter_->SeekForPrev(buf);
        pos = (std::upper_bound(keys.begin(), keys.end(), buf) - keys.begin()) -
              1;
        break;
      }
      case 2:
      case 3:
        if (iter_->Valid()) {
          iter_->Next();
          pos++;
        }
        break;
      default:
        if (iter_->Valid()) {
          iter_->Prev();
          pos--;
        }
        break;
    }
    const bool valid = pos >= 0 && pos < static_cast<long>(keys.size());
    ASSERT_EQ(valid, iter_->Valid()) << "step " << step;
    if (valid) {
      ASSERT_EQ(keys[pos], iter_->key().ToString()) << "step " << step;
    }
    if (!valid) pos = -1;
  }
}

TEST_F(MergingIteratorTest, EqualKeysComeInChildOrder) {
  // The same key in two children: the earlier child's entry first going
  // forward, and the reverse order going backward, across switches.
  std::vector<InternalIterator*> children;
  children.push_back(new test::VectorIterator(
      BytewiseComparator(), Entries{{"a", "0"}, {"b", "new"}, {"c", "0"}}));
  children.push_back(new test::VectorIterator(
      BytewiseComparator(), Entries{{"b", "old"}, {"d", "1"}}));
  iter_.reset(NewMergingIterator(BytewiseComparator(), children));
  iter_->Seek("b");
  EXPECT_EQ("new", iter_->value().ToString());
  iter_->Next();
  EXPECT_EQ("old", iter_->value().ToString());
  iter_->Prev();
  EXPECT_EQ("new", iter_->value().ToString());
  iter_->Prev();
  EXPECT_EQ("a", iter_->key().ToString());
  iter_->Next();
  EXPECT_EQ("new", iter_->value().ToString());
  iter_->Next();
  EXPECT_EQ("old", iter_->value().ToString());
  iter_->Next();
  EXPECT_EQ("c", iter_->key().ToString());
}

TEST_F(MergingIteratorTest, ReportsChildError) {
  std::vector<InternalIterator*> children;
  children.push_back(
      new test::VectorIterator(BytewiseComparator(), Entries{{"a", "1"}}));
  children.push_back(NewErrorInternalIterator(Status::Corruption("bad")));
  iter_.reset(NewMergingIterator(BytewiseComparator(), children));
  iter_->SeekToFirst();
  EXPECT_TRUE(iter_->status().IsCorruption());
  // The merge stops: "a" alone would be the union without the damaged
  // child's entries.
  EXPECT_FALSE(iter_->Valid());
  iter_->SeekToLast();
  EXPECT_FALSE(iter_->Valid());
  EXPECT_TRUE(iter_->status().IsCorruption());
}

}  // namespace
}  // namespace strata
