// FullMerge, the read-side MergeContext / FinishMerge, SnapshotStripes,
// and MergeHelper::MergeUntil — cases, and random histories checked
// against a model: the merged output followed by what MergeUntil left
// unread must read as the input does at every snapshot.

#include "db/merge_helper.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test/db/merge_test_util.h"
#include "util/coding.h"
#include "util/random.h"

namespace strata {
namespace {

using test::Version;

TEST(MergeHelperTest, FullMergeReportsOperatorAndKey) {
  auto append = MergeOperators::CreateStringAppendOperator();
  std::string result = "stale";
  const Slice base("a");
  ASSERT_TRUE(FullMerge(append.get(), "k", &base, {"b"}, &result).ok());
  EXPECT_EQ("a,b", result);

  test::FoldOperator fold;
  Status s = FullMerge(&fold, "the\x01key", nullptr, {"x", "fail"}, &result);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("test.Fold")) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("the")) << s.ToString();

  s = FullMerge(nullptr, "k", &base, {"b"}, &result);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("merge operator not set"));
}

// Answers with one of its inputs through existing_operand.
class PickOperator : public MergeOperator {
 public:
  const char* Name() const override { return "test.Pick"; }
  bool FullMergeV2(const MergeOperationInput& in,
                   MergeOperationOutput* out) const override {
    out->new_value = "ignored";
    out->existing_operand = in.existing_value != nullptr
                                ? *in.existing_value
                                : in.operand_list.back();
    return true;
  }
};

TEST(MergeHelperTest, FullMergeHonoursExistingOperand) {
  PickOperator pick;
  std::string result;
  const Slice base("base"), empty("");
  ASSERT_TRUE(FullMerge(&pick, "k", &base, {"x"}, &result).ok());
  EXPECT_EQ("base", result);
  ASSERT_TRUE(FullMerge(&pick, "k", nullptr, {"x", "y"}, &result).ok());
  EXPECT_EQ("y", result);
  // An empty existing operand is still an answer.
  ASSERT_TRUE(FullMerge(&pick, "k", &empty, {"x"}, &result).ok());
  EXPECT_EQ("", result);
}

TEST(MergeHelperTest, MergeContextOrdersOperands) {
  auto append = MergeOperators::CreateStringAppendOperator();
  MergeContext forward;  // a Get: newest first
  forward.PushOperand("3");
  forward.PushOperand("2");
  forward.PushOperand("1");
  EXPECT_EQ(3u, forward.NumOperands());
  std::string value;
  const Slice base("0");
  ASSERT_TRUE(FinishMerge(append.get(), "k", &base, &forward, &value).ok());
  EXPECT_EQ("0,1,2,3", value);
  ASSERT_TRUE(FinishMerge(append.get(), "k", nullptr, &forward, &value).ok());
  EXPECT_EQ("1,2,3", value);

  MergeContext backward;  // a reverse scan: oldest first
  // Long operands: slices must survive the context growing.
  const std::string long_a(100, 'a'), long_b(100, 'b');
  backward.PushNewerOperand(long_a);
  backward.PushNewerOperand(long_b);
  backward.PushOperand("z");
  ASSERT_TRUE(FinishMerge(append.get(), "k", nullptr, &backward, &value).ok());
  EXPECT_EQ("z," + long_a + "," + long_b, value);

  backward.Clear();
  EXPECT_TRUE(backward.empty());
  EXPECT_TRUE(
      FinishMerge(nullptr, "k", nullptr, &forward, &value).IsInvalidArgument());
}

TEST(MergeHelperTest, SnapshotStripes) {
  SnapshotStripes none({});
  EXPECT_EQ(1u, none.NumStripes());
  EXPECT_EQ(0u, none.StripeOf(0));
  EXPECT_EQ(0u, none.StripeOf(kMaxSequenceNumber));

  SnapshotStripes stripes({5, 5, 9});
  EXPECT_EQ(0u, stripes.StripeOf(0));
  EXPECT_EQ(0u, stripes.StripeOf(5));
  EXPECT_EQ(2u, stripes.StripeOf(6));
  EXPECT_EQ(2u, stripes.StripeOf(9));
  EXPECT_EQ(3u, stripes.StripeOf(10));
  EXPECT_EQ(5u, stripes.StripeTop(0));
  EXPECT_EQ(9u, stripes.StripeTop(2));
  EXPECT_EQ(kMaxSequenceNumber, stripes.StripeTop(3));
}

class MergeUntilTest : public testing::Test {
 protected:
  MergeUntilTest() : icmp_(BytewiseComparator()) {}

  // Runs MergeUntil from the first entry; returns the output followed by
  // the entries left unread, as "key@seq:type=value" items.
  std::string Run(const std::vector<Version>& history,
                  std::vector<SequenceNumber> snapshots, bool at_bottom,
                  const MergeOperator* op, Status* status = nullptr,
                  MergeHelper::CoveredFunction covered = nullptr) {
    test::VectorIterator iter(&icmp_, test::ToEntries(history));
    iter.SeekToFirst();
    SnapshotStripes stripes(std::move(snapshots));
    MergeHelper helper(BytewiseComparator(), op, &stripes, covered);
    ParsedInternalKey first;
    EXPECT_TRUE(ParseInternalKey(iter.key(), &first).ok());
    Status s =
        helper.MergeUntil(&iter, stripes.StripeOf(first.sequence), at_bottom);
    if (status != nullptr) *status = s;
    if (!s.ok()) return s.ToString();
    std::string out;
    for (const auto& kv : helper.output()) out += Item(kv.first, kv.second);
    out += "|";
    for (; iter.Valid(); iter.Next()) out += Item(iter.key(), iter.value());
    return out;
  }

  static std::string Item(const Slice& ikey, const Slice& value) {
    ParsedInternalKey p;
    EXPECT_TRUE(ParseInternalKey(ikey, &p).ok());
    return p.user_key.ToString() + "@" + std::to_string(p.sequence) + ":" +
           std::to_string(p.type) + "=" + value.ToString() + " ";
  }

  InternalKeyComparator icmp_;
};

TEST_F(MergeUntilTest, Cases) {
  auto append = MergeOperators::CreateStringAppendOperator();
  test::FoldOperator fold;
  const std::vector<Version> over_value = {{"k", 9, kTypeMerge, "c"},
                                           {"k", 8, kTypeMerge, "b"},
                                           {"k", 7, kTypeValue, "a"},
                                           {"k", 6, kTypeValue, "old"},
                                           {"l", 5, kTypeValue, "x"}};
  // Merged into the value of the stripe, which is consumed.
  EXPECT_EQ("k@9:1=a,b,c |k@6:1=old l@5:1=x ",
            Run(over_value, {}, false, append.get()));
  // A snapshot between the operands stops the merge: partial merge.
  EXPECT_EQ("k@9:2=c |k@8:2=b k@7:1=a k@6:1=old l@5:1=x ",
            Run(over_value, {8}, false, append.get()));
  EXPECT_EQ("k@9:1=((ab)c) |k@6:1=old l@5:1=x ",
            Run(over_value, {}, false, &fold));
  // A deletion is a null base.
  EXPECT_EQ("k@9:1=((_b)c) |l@5:1=x ", Run({{"k", 9, kTypeMerge, "c"},
                                            {"k", 8, kTypeMerge, "b"},
                                            {"k", 7, kTypeDeletion, ""},
                                            {"l", 5, kTypeValue, "x"}},
                                           {}, false, &fold));
  // Key ends above the bottom: partial merge if the operator can...
  const std::vector<Version> alone = {{"k", 9, kTypeMerge, "c"},
                                      {"k", 8, kTypeMerge, "b"},
                                      {"l", 5, kTypeValue, "x"}};
  EXPECT_EQ("k@9:2=b,c |l@5:1=x ", Run(alone, {}, false, append.get()));
  // ...else the operands stay as they are.
  EXPECT_EQ("k@9:2=c k@8:2=b |l@5:1=x ", Run(alone, {}, false, &fold));
  // At the bottom with nothing older: full merge with no base.
  EXPECT_EQ("k@9:1=((_b)c) |l@5:1=x ", Run(alone, {}, true, &fold));
  // At the bottom but an older stripe holds a version: no full merge.
  EXPECT_EQ("k@9:2=c k@8:2=b |k@4:1=v ", Run({{"k", 9, kTypeMerge, "c"},
                                              {"k", 8, kTypeMerge, "b"},
                                              {"k", 4, kTypeValue, "v"}},
                                             {5}, true, &fold));
}

TEST_F(MergeUntilTest, CoveredEntriesAndErrors) {
  auto append = MergeOperators::CreateStringAppendOperator();
  auto below8 = [](const ParsedInternalKey& k) { return k.sequence < 8; };
  const std::vector<Version> h = {{"k", 9, kTypeMerge, "c"},
                                  {"k", 8, kTypeRangeDeletion, "m"},
                                  {"k", 7, kTypeMerge, "covered"},
                                  {"k", 6, kTypeValue, "covered"},
                                  {"k", 5, kTypeValue, "hidden"}};
  // The covered operand is dropped and the covered value is no base.
  EXPECT_EQ("k@9:1=c k@8:15=m |k@5:1=hidden ",
            Run(h, {}, false, append.get(), nullptr, below8));
  // Without coverage, the same history merges everything.
  EXPECT_EQ("k@9:1=covered,covered,c k@8:15=m |k@5:1=hidden ",
            Run(h, {}, false, append.get()));
  // Kept operands and tombstones stay in input order.
  test::FoldOperator fold;
  EXPECT_EQ("k@9:2=c k@8:15=m k@7:2=b |",
            Run({{"k", 9, kTypeMerge, "c"},
                 {"k", 8, kTypeRangeDeletion, "m"},
                 {"k", 7, kTypeMerge, "b"}},
                {}, false, &fold));

  Status s;
  Run({{"k", 9, kTypeMerge, "fail"}, {"k", 8, kTypeValue, "a"}}, {}, false,
      &fold, &s);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  Run({{"k", 9, kTypeMerge, "x"}}, {}, false, nullptr, &s);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  // A damaged key after the operand.
  test::VectorIterator::Entries entries =
      test::ToEntries({{"k", 9, kTypeMerge, "x"}});
  std::string bad_type = InternalKey("k", 7, kTypeValue).Encode().ToString();
  bad_type[1] = 0x40;  // an unknown value type
  entries.emplace_back(bad_type, "v");
  test::VectorIterator iter(&icmp_, entries);
  iter.SeekToFirst();
  SnapshotStripes stripes({});
  MergeHelper helper(BytewiseComparator(), append.get(), &stripes, nullptr);
  s = helper.MergeUntil(&iter, 0, false);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

// Random histories of one key (and a neighbour), random snapshots.
TEST_F(MergeUntilTest, RandomAgainstModel) {
  Random rnd(1234);
  for (int round = 0; round < 2000; round++) {
    const test::ModelOperator merge = test::PickModelOperator(&rnd);
    const bool at_bottom = rnd.OneIn(2);
    std::vector<Version> h;
    const int n = 1 + rnd.Uniform(8);
    SequenceNumber seq = 100;
    for (int i = 0; i < n; i++) {
      Version v{"k", seq--, kTypeMerge, "m" + std::to_string(i)};
      if (i > 0) {
        switch (rnd.Uniform(6)) {
          case 0:
            v.type = kTypeValue;
            v.value = "v" + std::to_string(i);
            break;
          case 1:
            v.type = kTypeDeletion;
            v.value.clear();
            break;
          case 2:
            v.type = kTypeSingleDeletion;
            v.value.clear();
            break;
          default:
            break;
        }
      }
      h.push_back(v);
    }
    if (rnd.OneIn(2)) h.push_back({"z", 50, kTypeValue, "z"});
    std::vector<SequenceNumber> snapshots;
    for (SequenceNumber s = 90; s <= 100; s++) {
      if (rnd.OneIn(4)) snapshots.push_back(s);
    }

    test::VectorIterator iter(&icmp_, test::ToEntries(h));
    iter.SeekToFirst();
    SnapshotStripes stripes(snapshots);
    MergeHelper helper(BytewiseComparator(), merge.op.get(), &stripes, nullptr);
    ASSERT_TRUE(
        helper.MergeUntil(&iter, stripes.StripeOf(100), at_bottom).ok());
    std::vector<Version> result;
    for (const auto& kv : helper.output()) {
      ParsedInternalKey p;
      ASSERT_TRUE(ParseInternalKey(kv.first, &p).ok());
      result.push_back({p.user_key.ToString(), p.sequence, p.type, kv.second});
    }
    // Output entries belong to the first stripe; one unless operands are
    // kept.
    for (const Version& v : result) {
      EXPECT_EQ(stripes.StripeOf(100), stripes.StripeOf(v.sequence));
    }
    if (merge.partial) {
      EXPECT_EQ(1u, result.size());
    }
    for (; iter.Valid(); iter.Next()) {
      ParsedInternalKey p;
      ASSERT_TRUE(ParseInternalKey(iter.key(), &p).ok());
      result.push_back(
          {p.user_key.ToString(), p.sequence, p.type, iter.value().ToString()});
    }
    // Nothing below the bottom; above it, a lower level could hold a base.
    std::vector<Version> lower;
    if (!at_bottom) lower.push_back({"k", 1, kTypeValue, "lower"});
    std::vector<Version> in = h, out = result;
    in.insert(in.end(), lower.begin(), lower.end());
    out.insert(out.end(), lower.begin(), lower.end());
    std::vector<SequenceNumber> views = snapshots;
    views.push_back(100);
    for (SequenceNumber view : views) {
      ASSERT_EQ(test::ReadAt(in, view, merge.model),
                test::ReadAt(out, view, merge.model))
          << "round " << round << " view " << view;
    }
  }
}

}  // namespace
}  // namespace strata
