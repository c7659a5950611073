// MANIFEST recovery: DB::Open of a DB whose MANIFEST is arbitrary bytes
// (CURRENT names it; the WAL, OPTIONS and IDENTITY are those of a fresh
// DB). Recovery reads every record through the log reader with the
// torn-tail check, decodes the edits and applies them (column families,
// files, numbers); the open then fails with a Status or succeeds and the
// DB is read and closed.
//
// Input: one byte picking the WALRecoveryMode, then the MANIFEST.

#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  strata::fuzz::RecoverWithFile(data, size, "MANIFEST-");
  return 0;
}
