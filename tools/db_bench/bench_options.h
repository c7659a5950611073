// db_bench's flags as strata options: the DB options a run opens with, and
// the checks of flag values that the parser (flags.h) cannot make.
//
// Every flag with a DB meaning maps onto Options, BlockBasedTableOptions or
// the LRU cache; a value strata has no counterpart for (a compression
// algorithm it lacks) is an error, never silently replaced.

#ifndef STRATA_TOOLS_DB_BENCH_BENCH_OPTIONS_H_
#define STRATA_TOOLS_DB_BENCH_BENCH_OPTIONS_H_

#include <string>
#include <vector>

#include "strata/options.h"
#include "strata/status.h"
#include "tools/db_bench/flags.h"

namespace strata {
namespace bench {

// The names of --benchmarks, in order (empty names dropped).
std::vector<std::string> SplitBenchmarks(const std::string& list);

// Checks flag values the parser cannot (ranges, benchmark names, options
// strata has no counterpart for). InvalidArgument names the flag.
Status ValidateFlags(const Flags& flags);

// The DB options the flags describe (create_if_missing set, and
// create_missing_column_families with --num_column_families > 1).
Status BuildOptions(const Flags& flags, Options* options);

// The name of the index-th column family of a run: "default" for 0, then
// RocksDB db_bench's names, "column_family_name_000001" onwards, so that
// what names a family (a script, a --column_family of a tool) serves
// both engines.
std::string ColumnFamilyName(int index);

}  // namespace bench
}  // namespace strata

#endif  // STRATA_TOOLS_DB_BENCH_BENCH_OPTIONS_H_
