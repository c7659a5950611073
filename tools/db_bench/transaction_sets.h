// randomtransaction's data: --transaction_sets sets of keys in the
// default family, each key its set's number (from 1, four digits) then a
// key number in decimal, each value a decimal count. A transaction adds
// the same amount to one key of every set, so while transactions stay
// atomic every set sums to the same total; VerifyTransactionSets checks
// that. The layout is RocksDB db_bench's, so either engine's tools read
// the other's DB alike.
//
// Thread safety: free functions over a thread-safe DB.

#ifndef STRATA_TOOLS_DB_BENCH_TRANSACTION_SETS_H_
#define STRATA_TOOLS_DB_BENCH_TRANSACTION_SETS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {
namespace bench {

// The key of number k in set `set` (from 0). REQUIRES: set < 9999
std::string TransactionSetKey(uint64_t set, uint64_t k);

// A stored count as text, and back; false if value is not a decimal
// count (empty, a sign, other characters, or above 2^64 - 1).
std::string TransactionSetValue(uint64_t n);
bool ParseTransactionSetValue(const Slice& value, uint64_t* n);

// Sums each of the first `sets` sets of db at one snapshot into *sums
// (sums wrap modulo 2^64, as the counts do). Corruption if a value is not
// a count, naming its key, or if a set's sum differs from the first
// set's, naming both sets and sums.
Status VerifyTransactionSets(DB* db, uint64_t sets,
                             std::vector<uint64_t>* sums);

}  // namespace bench
}  // namespace strata

#endif  // STRATA_TOOLS_DB_BENCH_TRANSACTION_SETS_H_
