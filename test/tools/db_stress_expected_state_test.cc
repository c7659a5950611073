// db_stress's expected-state rules (tools/db_stress/expected_state.h) and
// its value encoding: what a crash test accepts after a crash must be
// exactly what a crash can leave, or the crash test proves nothing.

#include <cstring>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "strata/env.h"
#include "test/util/temp_dir.h"
#include "tools/db_stress/expected_state.h"
#include "tools/db_stress/values.h"

namespace strata {
namespace stress {
namespace {

KeyState Value(uint32_t base) {
  KeyState s;
  s.base = base;
  s.deleted = false;
  return s;
}
const KeyState kDeleted;

TEST(DbStressSlotTest, NeverWrittenKeyMustBeAbsent) {
  EXPECT_TRUE(SlotAccepts(kInitialSlot, kDeleted, true));
  EXPECT_FALSE(SlotAccepts(kInitialSlot, Value(0), true));
}

TEST(DbStressSlotTest, WriteInFlightAcceptsBeforeOrAfterOnly) {
  const uint32_t s1 = SlotCommitWrite(SlotBeginWrite(kInitialSlot, Value(7)),
                                      /*durable=*/true);
  EXPECT_TRUE(SlotAccepts(s1, Value(7), true));
  EXPECT_FALSE(SlotAccepts(s1, kDeleted, true));
  const uint32_t pending = SlotBeginWrite(s1, Value(9));
  EXPECT_TRUE(SlotAccepts(pending, Value(7), true));
  EXPECT_TRUE(SlotAccepts(pending, Value(9), true));
  EXPECT_FALSE(SlotAccepts(pending, Value(8), true));
  EXPECT_FALSE(SlotAccepts(pending, kDeleted, true));
  EXPECT_FALSE(SlotAccepts(pending, Value(7), /*found_wellformed=*/false));
  // Acknowledged and durable: only the new state.
  const uint32_t done = SlotCommitWrite(pending, true);
  EXPECT_FALSE(SlotAccepts(done, Value(7), true));
  EXPECT_TRUE(SlotAccepts(done, Value(9), true));
  EXPECT_EQ(Value(9), LatestState(done));
}

TEST(DbStressSlotTest, UnsyncedWritesMayBeLostUntilASyncPoint) {
  const uint32_t durable =
      SlotCommitWrite(SlotBeginWrite(kInitialSlot, Value(1)), true);
  // One unsynced write: the durable or the new state, nothing else.
  const uint32_t one = SlotCommitWrite(SlotBeginWrite(durable, Value(2)),
                                       /*durable=*/false);
  EXPECT_TRUE(SlotUnsynced(one));
  EXPECT_FALSE(SlotMany(one));
  EXPECT_TRUE(SlotAccepts(one, Value(1), true));
  EXPECT_TRUE(SlotAccepts(one, Value(2), true));
  EXPECT_FALSE(SlotAccepts(one, Value(3), true));
  EXPECT_FALSE(SlotAccepts(one, kDeleted, true));
  // A second one: the first became an unrecorded intermediate state, so
  // any well-formed state is allowed, but still not garbage.
  const uint32_t two =
      SlotCommitWrite(SlotBeginWrite(one, kDeleted), /*durable=*/false);
  EXPECT_TRUE(SlotMany(two));
  EXPECT_TRUE(SlotAccepts(two, Value(2), true));
  EXPECT_TRUE(SlotAccepts(two, Value(1234), true));
  EXPECT_TRUE(SlotAccepts(two, kDeleted, true));
  EXPECT_FALSE(SlotAccepts(two, Value(2), /*found_wellformed=*/false));
  // A sync point makes the latest state the only one.
  const uint32_t synced = SlotMarkDurable(two);
  EXPECT_FALSE(SlotUnsynced(synced));
  EXPECT_FALSE(SlotMany(synced));
  EXPECT_TRUE(SlotAccepts(synced, kDeleted, true));
  EXPECT_FALSE(SlotAccepts(synced, Value(2), true));
  // ...but not while a write is still in flight.
  const uint32_t pending = SlotBeginWrite(one, Value(5));
  EXPECT_EQ(pending, SlotMarkDurable(pending));
}

TEST(DbStressSlotTest, AdoptForgetsTheAlternatives) {
  const uint32_t s = SlotAdopt(Value(42));
  EXPECT_EQ(Value(42), DurableState(s));
  EXPECT_EQ(Value(42), LatestState(s));
  EXPECT_FALSE(SlotPending(s) || SlotUnsynced(s) || SlotMany(s));
  EXPECT_EQ(kInitialSlot, SlotAdopt(kDeleted));
}

TEST(DbStressValuesTest, ValuesCarryKeyAndBase) {
  uint32_t base = 0;
  EXPECT_TRUE(ParseValue(ValueFor(17, 4000), 17, &base));
  EXPECT_EQ(4000u, base);
  EXPECT_FALSE(ParseValue(ValueFor(17, 4000), 18, &base));
  std::string v = ValueFor(17, 4000);
  v.back() ^= 1;
  EXPECT_FALSE(ParseValue(v, 17, &base));
  EXPECT_FALSE(ParseValue(ValueFor(17, 4000).substr(0, 12), 17, &base));
  int64_t key = 0;
  EXPECT_TRUE(ParseKeyString(KeyString(123456789), &key));
  EXPECT_EQ(123456789, key);
  EXPECT_LT(KeyString(255).compare(KeyString(256)), 0);
}

TEST(DbStressValuesTest, MergeAddsDeltasAsTheModelDoes) {
  std::shared_ptr<MergeOperator> op = NewStressMergeOperator();
  const std::string k = KeyString(5);
  const std::string existing = ValueFor(5, kValueBaseLimit - 2);
  const Slice existing_slice(existing);
  const std::string d1 = MergeOperand(1), d2 = MergeOperand(3);
  std::vector<Slice> operands = {d1, d2};
  std::string result;
  Slice unused;
  MergeOperator::MergeOperationOutput out(result, unused);
  ASSERT_TRUE(op->FullMergeV2(
      MergeOperator::MergeOperationInput(k, &existing_slice, operands, nullptr),
      &out));
  EXPECT_EQ(ValueFor(5, MergedBase(kValueBaseLimit - 2, false, 4)), result);
  EXPECT_EQ(2u, MergedBase(kValueBaseLimit - 2, false, 4));
  // Over no value: the deltas alone.
  ASSERT_TRUE(op->FullMergeV2(
      MergeOperator::MergeOperationInput(k, nullptr, operands, nullptr), &out));
  EXPECT_EQ(ValueFor(5, 4), result);
  std::string partial;
  ASSERT_TRUE(op->PartialMerge(k, d1, d2, &partial, nullptr));
  EXPECT_EQ(MergeOperand(4), partial);
}

TEST(DbStressExpectedStateTest, SlotsSurviveReopenAndShapeIsChecked) {
  Env* env = Env::Default();
  test::TempDir dir(env);
  std::unique_ptr<ExpectedState> state;
  ASSERT_TRUE(ExpectedState::Open(env, dir.path(), 2, 100, false, &state).ok());
  const uint32_t slot = SlotBeginWrite(kInitialSlot, Value(3));
  state->Set(1, 99, slot);
  // The store is in the file at once, with nothing flushed or closed:
  // what a killed process leaves behind.
  std::string contents;
  ASSERT_TRUE(ReadFileToString(env, dir.path() + "/EXPECTED", &contents).ok());
  ASSERT_EQ(16u + 4 * 2 * 100, contents.size());
  uint32_t in_file;
  std::memcpy(&in_file, contents.data() + 16 + 4 * (100 + 99), 4);
  EXPECT_EQ(slot, in_file);
  state.reset();
  ASSERT_TRUE(ExpectedState::Open(env, dir.path(), 2, 100, false, &state).ok());
  EXPECT_EQ(slot, state->Get(1, 99));
  EXPECT_EQ(kInitialSlot, state->Get(0, 99));
  state.reset();
  // Another shape is refused rather than misread...
  Status s = ExpectedState::Open(env, dir.path(), 3, 100, false, &state);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // ...unless reset.
  ASSERT_TRUE(ExpectedState::Open(env, dir.path(), 3, 100, true, &state).ok());
  EXPECT_EQ(kInitialSlot, state->Get(1, 99));
}

}  // namespace
}  // namespace stress
}  // namespace strata
