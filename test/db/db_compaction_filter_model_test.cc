// Compaction filters against snapshots, at random: puts, deletes, merges,
// snapshots, flushes and compactions (CompactRange, CompactFiles) in a
// random order, with a filter that removes, rewrites and skips. Every
// snapshot must read, when released and at the end, exactly what it read
// when it was taken; and once no snapshot is left, full compactions leave
// no value the filter removes or rewrites.

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/compaction_filter.h"
#include "strata/db.h"
#include "strata/merge_operator.h"
#include "test/db/db_test_util.h"
#include "util/random.h"

namespace strata {
namespace {

// Values "r*" go, "c*" become "C*", operands "bad" go, and key "k07"
// drops the keys up to "k09".
class RandomFilter : public CompactionFilter {
 public:
  Decision FilterV2(int /*level*/, const Slice& key, ValueType type,
                    const Slice& value, std::string* new_value,
                    std::string* skip_until) const override {
    if (type == kMergeOperand) {
      return value == Slice("bad") ? Decision::kRemove : Decision::kKeep;
    }
    if (key == Slice("k07")) {
      *skip_until = "k09";
      return Decision::kRemoveAndSkipUntil;
    }
    if (value.starts_with(Slice("r"))) return Decision::kRemove;
    if (value.starts_with(Slice("c"))) {
      *new_value = "C" + value.ToString().substr(1);
      return Decision::kChangeValue;
    }
    return Decision::kKeep;
  }
  const char* Name() const override { return "RandomFilter"; }
};

class CompactionFilterModelTest : public testing::TestWithParam<uint32_t> {};

TEST_P(CompactionFilterModelTest, SnapshotsReadWhatTheyRead) {
  RandomFilter filter;
  test::DBHolder h;
  h.options().compaction_filter = &filter;
  h.options().merge_operator = MergeOperators::CreateStringAppendOperator();
  h.options().disable_auto_compactions = true;
  h.options().num_levels = 4;
  ASSERT_TRUE(h.Open().ok());
  DB* db = h.db();
  Random rnd(GetParam());
  struct Taken {
    const Snapshot* snapshot;
    std::map<std::string, std::string> contents;
  };
  std::vector<Taken> taken;
  const char* const kValues[] = {"r1", "c2", "k3", "r4", "c5", "k6"};
  const char* const kOperands[] = {"m", "bad"};
  for (int op = 0; op < 300; op++) {
    char key[8];
    std::snprintf(key, sizeof(key), "k%02u", rnd.Uniform(12));
    const uint32_t what = rnd.Uniform(100);
    if (what < 45) {
      ASSERT_TRUE(db->Put(WriteOptions(), key, kValues[rnd.Uniform(6)]).ok());
    } else if (what < 55) {
      ASSERT_TRUE(db->Delete(WriteOptions(), key).ok());
    } else if (what < 75) {
      ASSERT_TRUE(
          db->Merge(WriteOptions(), key, kOperands[rnd.Uniform(2)]).ok());
    } else if (what < 82) {
      const Snapshot* s = db->GetSnapshot();
      taken.push_back({s, h.Contents(s)});
    } else if (what < 86 && !taken.empty()) {
      const size_t i = rnd.Uniform(static_cast<int>(taken.size()));
      ASSERT_EQ(taken[i].contents, h.Contents(taken[i].snapshot)) << op;
      db->ReleaseSnapshot(taken[i].snapshot);
      taken.erase(taken.begin() + i);
    } else if (what < 94) {
      ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    } else {
      Status s = db->CompactRange(CompactRangeOptions(), nullptr, nullptr);
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
  }
  ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  for (const Taken& t : taken) {
    EXPECT_EQ(t.contents, h.Contents(t.snapshot));
    db->ReleaseSnapshot(t.snapshot);
  }
  // Nothing holds old versions now: the first compaction merges every
  // operand chain into a value (results are not filtered as they are
  // made), the second shows the filter every value.
  for (int i = 0; i < 2; i++) {
    ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  }
  for (const auto& entry : h.Contents()) {
    EXPECT_NE('r', entry.second[0]) << entry.first << "=" << entry.second;
    EXPECT_NE('c', entry.second[0]) << entry.first << "=" << entry.second;
    EXPECT_NE("k07", entry.first) << entry.second;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, CompactionFilterModelTest,
                         testing::Values(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u));

}  // namespace
}  // namespace strata
