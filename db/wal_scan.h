// Reading a live WAL's batches in order, for the live-file calls: a WAL
// may still be written while it is read, so its tail ends the reading
// quietly.

#ifndef STRATA_DB_WAL_SCAN_H_
#define STRATA_DB_WAL_SCAN_H_

#include <cstdint>
#include <functional>
#include <string>

#include "strata/status.h"
#include "strata/types.h"

namespace strata {

class Env;

// Calls fn for each whole record of WAL number in dbname, in order, with
// whether it is a write batch, the batch's first sequence number (0 for
// other records) and the file offset where the record ends; the scan stops
// when fn returns false. A WAL that does not exist is NotFound.
Status ScanWal(Env* env, const std::string& dbname, uint64_t number,
               const std::function<bool(bool is_batch, SequenceNumber first,
                                        uint64_t end)>& fn);

}  // namespace strata

#endif  // STRATA_DB_WAL_SCAN_H_
