// DBIter resolving merge operands, both directions: hand-written cases
// (direction switches around merged keys, errors), and random histories
// of puts, deletions, single deletions and merges, read at random
// sequence numbers within random bounds, walked against a model.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/db_iter.h"
#include "gtest/gtest.h"
#include "test/db/merge_test_util.h"
#include "test/db/model_walk.h"
#include "util/random.h"

namespace strata {
namespace {

using test::Version;

class DBIterMergeTest : public testing::Test {
 protected:
  DBIterMergeTest() : icmp_(BytewiseComparator()) {}

  Iterator* NewIter(const std::vector<Version>& versions, SequenceNumber seq,
                    const MergeOperator* op, const Slice* lower = nullptr,
                    const Slice* upper = nullptr) {
    return NewDBIterator(
        BytewiseComparator(),
        new test::VectorIterator(&icmp_, test::ToEntries(versions)), seq, lower,
        upper, nullptr, op, nullptr);
  }

  InternalKeyComparator icmp_;
};

TEST_F(DBIterMergeTest, ResolvesOperandsBothWays) {
  auto append = MergeOperators::CreateStringAppendOperator();
  const std::vector<Version> h = {
      {"a", 1, kTypeValue, "a1"},       {"a", 2, kTypeMerge, "a2"},
      {"a", 3, kTypeMerge, "a3"},       {"b", 4, kTypeMerge, "b4"},
      {"c", 5, kTypeValue, "c5"},       {"c", 6, kTypeDeletion, ""},
      {"c", 7, kTypeMerge, "c7"},       {"d", 8, kTypeMerge, "d8"},
      {"d", 9, kTypeSingleDeletion, ""}};
  std::unique_ptr<Iterator> now(NewIter(h, 100, append.get()));
  EXPECT_EQ("a=a1,a2,a3 b=b4 c=c7 ", test::ScanAll(now.get(), true));
  EXPECT_EQ("c=c7 b=b4 a=a1,a2,a3 ", test::ScanAll(now.get(), false));
  std::unique_ptr<Iterator> at2(NewIter(h, 2, append.get()));
  EXPECT_EQ("a=a1,a2 ", test::ScanAll(at2.get(), true));
  EXPECT_EQ("a=a1,a2 ", test::ScanAll(at2.get(), false));
  std::unique_ptr<Iterator> at8(NewIter(h, 8, append.get()));
  EXPECT_EQ("a=a1,a2,a3 b=b4 c=c7 d=d8 ", test::ScanAll(at8.get(), true));
  EXPECT_EQ("d=d8 c=c7 b=b4 a=a1,a2,a3 ", test::ScanAll(at8.get(), false));
}

TEST_F(DBIterMergeTest, DirectionSwitchesAroundMergedKeys) {
  auto append = MergeOperators::CreateStringAppendOperator();
  const std::vector<Version> h = {{"a", 1, kTypeMerge, "a1"},
                                  {"b", 2, kTypeValue, "b2"},
                                  {"b", 3, kTypeMerge, "b3"},
                                  {"c", 4, kTypeMerge, "c4"},
                                  {"c", 5, kTypeMerge, "c5"}};
  std::unique_ptr<Iterator> it(NewIter(h, 100, append.get()));
  it->Seek("b");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b2,b3", it->value().ToString());
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("a", it->key().ToString());
  EXPECT_EQ("a1", it->value().ToString());
  it->Next();
  EXPECT_EQ("b", it->key().ToString());
  EXPECT_EQ("b2,b3", it->value().ToString());
  it->Next();
  EXPECT_EQ("c", it->key().ToString());
  EXPECT_EQ("c4,c5", it->value().ToString());
  // The last key was merged to the end of the input: Prev must still find
  // the key before it.
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b", it->key().ToString());
  EXPECT_EQ("b2,b3", it->value().ToString());
  it->Next();
  EXPECT_EQ("c4,c5", it->value().ToString());
  it->Next();
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev("bz");
  EXPECT_EQ("b2,b3", it->value().ToString());
  it->Next();
  EXPECT_EQ("c4,c5", it->value().ToString());
  EXPECT_TRUE(it->status().ok());
}

TEST_F(DBIterMergeTest, Errors) {
  const std::vector<Version> h = {{"a", 1, kTypeValue, "a1"},
                                  {"b", 2, kTypeMerge, "fail"},
                                  {"c", 3, kTypeValue, "c3"}};
  // No merge operator.
  std::unique_ptr<Iterator> none(NewIter(h, 100, nullptr));
  none->SeekToFirst();
  ASSERT_TRUE(none->Valid());
  none->Next();
  EXPECT_FALSE(none->Valid());
  EXPECT_TRUE(none->status().IsInvalidArgument());
  EXPECT_NE(std::string::npos,
            none->status().ToString().find("merge operator not set"));
  none->SeekToLast();
  none->Prev();
  EXPECT_FALSE(none->Valid());
  EXPECT_TRUE(none->status().IsInvalidArgument());
  // Reading around the merged key is fine.
  none->Seek("c");
  EXPECT_TRUE(none->Valid());
  EXPECT_TRUE(none->status().ok());

  // The operator fails.
  test::FoldOperator fold;
  std::unique_ptr<Iterator> failing(NewIter(h, 100, &fold));
  failing->Seek("b");
  EXPECT_FALSE(failing->Valid());
  EXPECT_TRUE(failing->status().IsCorruption());
  failing->SeekForPrev("b");
  EXPECT_FALSE(failing->Valid());
  EXPECT_TRUE(failing->status().IsCorruption());
}

TEST_F(DBIterMergeTest, OldOverloadsStillRefuseMerges) {
  const std::vector<Version> h = {{"a", 1, kTypeMerge, "x"}};
  std::unique_ptr<Iterator> it(
      NewDBIterator(BytewiseComparator(),
                    new test::VectorIterator(&icmp_, test::ToEntries(h)), 100,
                    nullptr, nullptr, nullptr));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsInvalidArgument());
}

TEST_F(DBIterMergeTest, RandomizedAgainstModel) {
  Random rnd(2024);
  for (int round = 0; round < 300; round++) {
    const test::ModelOperator merge = test::PickModelOperator(&rnd);
    std::vector<Version> h;
    const int num_keys = 1 + rnd.Uniform(10);
    const int num_versions = rnd.Uniform(80);
    for (int i = 0; i < num_versions; i++) {
      Version v;
      v.key = std::string(1, static_cast<char>('a' + rnd.Uniform(num_keys)));
      v.sequence = i + 1;
      switch (rnd.Uniform(6)) {
        case 0:
          v.type = kTypeDeletion;
          break;
        case 1:
          v.type = kTypeSingleDeletion;
          break;
        case 2:
        case 3:
          v.type = kTypeMerge;
          v.value = "m" + std::to_string(i + 1);
          break;
        default:
          v.type = kTypeValue;
          v.value = "v" + std::to_string(i + 1);
          break;
      }
      h.push_back(v);
    }
    const SequenceNumber seq = rnd.Uniform(num_versions + 2);
    std::string lower_key(1, static_cast<char>('a' + rnd.Uniform(12)));
    std::string upper_key(1, static_cast<char>('a' + rnd.Uniform(12)));
    Slice lower(lower_key), upper(upper_key);
    const bool use_lower = rnd.OneIn(3), use_upper = rnd.OneIn(3);
    std::map<std::string, std::string> expected;
    for (const auto& kv : test::ReadAt(h, seq, merge.model)) {
      if (use_lower && kv.first < lower_key) continue;
      if (use_upper && kv.first >= upper_key) continue;
      expected.insert(kv);
    }
    std::unique_ptr<Iterator> it(NewIter(h, seq, merge.op.get(),
                                         use_lower ? &lower : nullptr,
                                         use_upper ? &upper : nullptr));
    SCOPED_TRACE("round " + std::to_string(round));
    test::RandomModelWalk(it.get(), expected, &rnd, 200, [](Random* r) {
      return std::string(1, static_cast<char>('a' + r->Uniform(12)));
    });
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace strata
