// The MergeOperator defaults and the built-in operators: uint64add sums
// fixed64 values and refuses other sizes; stringappend joins with its
// delimiter; an AssociativeMergeOperator gets full and partial merges from
// its one Merge step; a legacy FullMerge override is reached through
// FullMergeV2.

#include "strata/merge_operator.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "util/coding.h"

namespace strata {
namespace {

std::string Fixed(uint64_t v) {
  std::string s;
  PutFixed64(&s, v);
  return s;
}

bool FullMergeOf(const MergeOperator& op, const Slice* base,
                 const std::vector<Slice>& operands, std::string* result) {
  Slice existing(nullptr, 0);
  MergeOperator::MergeOperationInput in("key", base, operands, nullptr);
  MergeOperator::MergeOperationOutput out(*result, existing);
  return op.FullMergeV2(in, &out);
}

TEST(MergeOperatorTest, UInt64AddSums) {
  auto op = MergeOperators::CreateUInt64AddOperator();
  EXPECT_STREQ("uint64add", op->Name());
  const std::string base = Fixed(40), one = Fixed(1), two = Fixed(2);
  const Slice base_slice(base);
  std::string result;
  ASSERT_TRUE(FullMergeOf(*op, &base_slice, {one, two}, &result));
  EXPECT_EQ(Fixed(43), result);
  ASSERT_TRUE(FullMergeOf(*op, nullptr, {one, two}, &result));
  EXPECT_EQ(Fixed(3), result);
  // Wraps modulo 2^64.
  const std::string max = Fixed(~uint64_t{0});
  ASSERT_TRUE(FullMergeOf(*op, nullptr, {max, two}, &result));
  EXPECT_EQ(Fixed(1), result);
  // Partial merges combine operands alone.
  ASSERT_TRUE(op->PartialMerge("key", one, two, &result, nullptr));
  EXPECT_EQ(Fixed(3), result);
  std::deque<Slice> list = {Slice(one), Slice(two), Slice(base)};
  ASSERT_TRUE(op->PartialMergeMulti("key", list, &result, nullptr));
  EXPECT_EQ(Fixed(43), result);
}

TEST(MergeOperatorTest, UInt64AddRefusesWrongSizes) {
  auto op = MergeOperators::CreateUInt64AddOperator();
  const std::string good = Fixed(5);
  const std::string short_value = "1234567", long_value = "123456789";
  const Slice bad_base(short_value);
  std::string result;
  EXPECT_FALSE(FullMergeOf(*op, &bad_base, {good}, &result));
  EXPECT_FALSE(FullMergeOf(*op, nullptr, {good, long_value}, &result));
  EXPECT_FALSE(FullMergeOf(*op, nullptr, {Slice()}, &result));
  EXPECT_FALSE(op->PartialMerge("key", good, short_value, &result, nullptr));
  std::deque<Slice> list = {Slice(good), Slice(good), Slice(long_value)};
  EXPECT_FALSE(op->PartialMergeMulti("key", list, &result, nullptr));
}

TEST(MergeOperatorTest, StringAppendJoinsWithDelimiter) {
  auto comma = MergeOperators::CreateStringAppendOperator();
  EXPECT_STREQ("stringappend", comma->Name());
  std::string result;
  const Slice base("a");
  ASSERT_TRUE(FullMergeOf(*comma, &base, {"b", "c"}, &result));
  EXPECT_EQ("a,b,c", result);
  ASSERT_TRUE(FullMergeOf(*comma, nullptr, {"b", "c"}, &result));
  EXPECT_EQ("b,c", result);
  // An empty value or operand still gets its delimiter.
  const Slice empty("");
  ASSERT_TRUE(FullMergeOf(*comma, &empty, {"", "x"}, &result));
  EXPECT_EQ(",,x", result);

  auto slash = MergeOperators::CreateStringAppendOperator('/');
  ASSERT_TRUE(FullMergeOf(*slash, &base, {"b"}, &result));
  EXPECT_EQ("a/b", result);
  ASSERT_TRUE(slash->PartialMerge("key", "x", "y", &result, nullptr));
  EXPECT_EQ("x/y", result);
  // Partial then full equals full over every operand.
  std::deque<Slice> list = {"p", "q", "r"};
  std::string partial;
  ASSERT_TRUE(slash->PartialMergeMulti("key", list, &partial, nullptr));
  EXPECT_EQ("p/q/r", partial);
  ASSERT_TRUE(FullMergeOf(*slash, &base, {partial}, &result));
  EXPECT_EQ("a/p/q/r", result);
}

// Keeps the largest operand (bytewise); "bad" is refused.
class MaxOperator : public AssociativeMergeOperator {
 public:
  const char* Name() const override { return "test.Max"; }
  bool Merge(const Slice& key, const Slice* existing, const Slice& value,
             std::string* new_value, Logger* logger) const override {
    if (value == Slice("bad")) return false;
    if (existing != nullptr && existing->compare(value) > 0) {
      new_value->assign(existing->data(), existing->size());
    } else {
      new_value->assign(value.data(), value.size());
    }
    return true;
  }
};

TEST(MergeOperatorTest, AssociativeOperatorFoldsItsMergeStep) {
  MaxOperator op;
  std::string result;
  const Slice base("m");
  ASSERT_TRUE(FullMergeOf(op, &base, {"c", "x", "d"}, &result));
  EXPECT_EQ("x", result);
  ASSERT_TRUE(FullMergeOf(op, &base, {"c", "d"}, &result));
  EXPECT_EQ("m", result);
  ASSERT_TRUE(FullMergeOf(op, nullptr, {"c", "d"}, &result));
  EXPECT_EQ("d", result);
  EXPECT_FALSE(FullMergeOf(op, &base, {"c", "bad"}, &result));
  ASSERT_TRUE(op.PartialMerge("key", "k", "b", &result, nullptr));
  EXPECT_EQ("k", result);
  std::deque<Slice> list = {"b", "z", "a"};
  ASSERT_TRUE(op.PartialMergeMulti("key", list, &result, nullptr));
  EXPECT_EQ("z", result);
  list = {"b", "bad"};
  EXPECT_FALSE(op.PartialMergeMulti("key", list, &result, nullptr));
}

// Overrides only the legacy deque form.
class LegacyOperator : public MergeOperator {
 public:
  const char* Name() const override { return "test.Legacy"; }
  bool FullMerge(const Slice& key, const Slice* existing,
                 const std::deque<std::string>& operands,
                 std::string* new_value, Logger* logger) const override {
    *new_value = existing != nullptr ? existing->ToString() : "";
    for (const std::string& op : operands) *new_value += "+" + op;
    return true;
  }
};

class NoMergeOperator : public MergeOperator {
 public:
  const char* Name() const override { return "test.None"; }
};

TEST(MergeOperatorTest, DefaultsReachLegacyFormAndRefusePartialMerges) {
  LegacyOperator legacy;
  std::string result;
  const Slice base("v");
  ASSERT_TRUE(FullMergeOf(legacy, &base, {"1", "2"}, &result));
  EXPECT_EQ("v+1+2", result);
  EXPECT_FALSE(legacy.PartialMerge("key", "1", "2", &result, nullptr));
  std::deque<Slice> two = {"1", "2"};
  EXPECT_FALSE(legacy.PartialMergeMulti("key", two, &result, nullptr));
  std::deque<Slice> none;
  EXPECT_FALSE(legacy.PartialMergeMulti("key", none, &result, nullptr));
  std::deque<Slice> one = {"only"};
  ASSERT_TRUE(legacy.PartialMergeMulti("key", one, &result, nullptr));
  EXPECT_EQ("only", result);
  EXPECT_FALSE(legacy.AllowSingleOperand());

  NoMergeOperator nothing;
  EXPECT_FALSE(FullMergeOf(nothing, &base, {"1"}, &result));
}

}  // namespace
}  // namespace strata
