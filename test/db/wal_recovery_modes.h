// The four WALRecoveryMode values, for suites that run under each
// (INSTANTIATE_TEST_SUITE_P(RecoveryModes, Suite, AllWALRecoveryModes(),
// WALRecoveryModeName)).

#ifndef STRATA_TEST_DB_WAL_RECOVERY_MODES_H_
#define STRATA_TEST_DB_WAL_RECOVERY_MODES_H_

#include <string>

#include "gtest/gtest.h"
#include "strata/options.h"

namespace strata {
namespace test {

inline auto AllWALRecoveryModes() {
  return testing::Values(WALRecoveryMode::kTolerateCorruptedTailRecords,
                         WALRecoveryMode::kAbsoluteConsistency,
                         WALRecoveryMode::kPointInTimeRecovery,
                         WALRecoveryMode::kSkipAnyCorruptedRecords);
}

inline std::string WALRecoveryModeName(
    const testing::TestParamInfo<WALRecoveryMode>& info) {
  switch (info.param) {
    case WALRecoveryMode::kTolerateCorruptedTailRecords:
      return "TolerateCorruptedTail";
    case WALRecoveryMode::kAbsoluteConsistency:
      return "AbsoluteConsistency";
    case WALRecoveryMode::kPointInTimeRecovery:
      return "PointInTime";
    case WALRecoveryMode::kSkipAnyCorruptedRecords:
      return "SkipAnyCorrupted";
  }
  return "Unknown";
}

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_WAL_RECOVERY_MODES_H_
