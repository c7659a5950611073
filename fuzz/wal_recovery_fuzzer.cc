// WAL recovery: DB::Open of a fresh DB whose WAL is arbitrary bytes,
// under each WALRecoveryMode. Recovery reads the records, decodes and
// checks each WriteBatch and inserts it into a memtable (flushing to a
// table when it fills); the open fails with a Status or succeeds and the
// recovered DB is read and closed.
//
// Input: one byte picking the WALRecoveryMode, then the WAL.

#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  strata::fuzz::RecoverWithFile(data, size, ".log");
  return 0;
}
