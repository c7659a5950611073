// The DB's five write modes (db/write_thread.h, docs/write_path.md) as
// test parameters, for suites that must hold in every mode (and for child
// processes, which get the mode by name on their command line).

#ifndef STRATA_TEST_DB_WRITE_MODES_H_
#define STRATA_TEST_DB_WRITE_MODES_H_

#include <string>

#include "strata/options.h"

namespace strata {
namespace test {

enum class WriteMode {
  kSerial,     // allow_concurrent_memtable_write = false
  kParallel,   // the default options
  kPipelined,  // enable_pipelined_write
  kUnordered,  // unordered_write
  // unordered_write with unordered_write_snapshot_safe
  kUnorderedSnapshotSafe,
};

constexpr WriteMode kAllWriteModes[] = {
    WriteMode::kSerial, WriteMode::kParallel, WriteMode::kPipelined,
    WriteMode::kUnordered, WriteMode::kUnorderedSnapshotSafe};
// The modes that keep a batch atomic and a snapshot fixed for readers:
// all but the plain unordered one (its inserts are unordered, but what
// readers see of the snapshot-safe one is ordered).
constexpr WriteMode kOrderedWriteModes[] = {
    WriteMode::kSerial, WriteMode::kParallel, WriteMode::kPipelined,
    WriteMode::kUnorderedSnapshotSafe};

inline const char* WriteModeName(WriteMode mode) {
  switch (mode) {
    case WriteMode::kSerial:
      return "serial";
    case WriteMode::kParallel:
      return "parallel";
    case WriteMode::kPipelined:
      return "pipelined";
    case WriteMode::kUnordered:
      return "unordered";
    case WriteMode::kUnorderedSnapshotSafe:
      return "unordered_snapshot_safe";
  }
  return "?";
}

// The inverse of WriteModeName; false for an unknown name.
inline bool ParseWriteMode(const std::string& name, WriteMode* mode) {
  for (WriteMode m : kAllWriteModes) {
    if (name == WriteModeName(m)) {
      *mode = m;
      return true;
    }
  }
  return false;
}

// Sets the four write path options for mode (from their defaults or any
// other mode).
inline void SetWriteMode(WriteMode mode, Options* options) {
  options->allow_concurrent_memtable_write = mode != WriteMode::kSerial;
  options->enable_pipelined_write = mode == WriteMode::kPipelined;
  options->unordered_write = mode == WriteMode::kUnordered ||
                             mode == WriteMode::kUnorderedSnapshotSafe;
  options->unordered_write_snapshot_safe =
      mode == WriteMode::kUnorderedSnapshotSafe;
}

// Names the instances of a suite parameterized by WriteMode:
//   INSTANTIATE_TEST_SUITE_P(Modes, Suite, testing::ValuesIn(kAllWriteModes),
//                            WriteModeParamName());
struct WriteModeParamName {
  template <class ParamInfo>
  std::string operator()(const ParamInfo& info) const {
    return WriteModeName(info.param);
  }
};

}  // namespace test
}  // namespace strata

#endif  // STRATA_TEST_DB_WRITE_MODES_H_
