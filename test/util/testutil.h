// Small helpers shared by suites of different trees.

#ifndef STRATA_TEST_UTIL_TESTUTIL_H_
#define STRATA_TEST_UTIL_TESTUTIL_H_

#include <cstddef>
#include <string>

#include "db/dbformat.h"
#include "util/random.h"

namespace strata {
namespace test {

constexpr size_t kKiB = 1024;

// len bytes, each uniform over all 256 values (NULs and 0xff included).
inline std::string RandomBytes(Random* rnd, size_t len) {
  std::string s(len, '\0');
  for (char& c : s) c = static_cast<char>(rnd->Uniform(256));
  return s;
}

// The encoded internal key of a range tombstone starting at begin (or of
// another entry type).
inline std::string TombstoneKey(const std::string& begin, SequenceNumber seq,
                                ValueType type = kTypeRangeDeletion) {
  return InternalKey(begin, seq, type).Encode().ToString();
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_UTIL_TESTUTIL_H_
