// db_stress's keys and values. A key is its number as 8 big-endian bytes
// (so the bytewise order is the numeric order); a value is derived from
// (key, value base) alone, so any value read can be checked and its base
// recovered:
//
//   'V' | base: fixed32 | key: fixed64 | payload
//
// where the payload's length (4..67 bytes) and bytes are a function of key
// and base. Merge operands are 'D' | delta: fixed32; the merge operator
// (StressMergeOperator) adds the deltas to the base of the existing value
// (0 when there is none) modulo kValueBaseLimit, which is how the expected
// state (expected_state.h) models a merge.

#ifndef STRATA_TOOLS_DB_STRESS_VALUES_H_
#define STRATA_TOOLS_DB_STRESS_VALUES_H_

#include <cstdint>
#include <memory>
#include <string>

#include "strata/merge_operator.h"
#include "strata/slice.h"

namespace strata {
namespace stress {

// Value bases live in 13 bits of an expected-state slot.
constexpr uint32_t kValueBaseBits = 13;
constexpr uint32_t kValueBaseLimit = 1u << kValueBaseBits;

std::string KeyString(int64_t key);
// False unless k is 8 bytes.
bool ParseKeyString(const Slice& k, int64_t* key);

std::string ValueFor(int64_t key, uint32_t base);
// True if value is exactly ValueFor(key, b) for some b < kValueBaseLimit,
// which goes to *base.
bool ParseValue(const Slice& value, int64_t key, uint32_t* base);

std::string MergeOperand(uint32_t delta);

// The base a merge of delta gives over a key with base (0 if deleted).
inline uint32_t MergedBase(uint32_t base, bool deleted, uint32_t delta) {
  return ((deleted ? 0 : base) + delta) % kValueBaseLimit;
}

// Name(): "db_stress_add".
std::shared_ptr<MergeOperator> NewStressMergeOperator();

}  // namespace stress
}  // namespace strata

#endif  // STRATA_TOOLS_DB_STRESS_VALUES_H_
