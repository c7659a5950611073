#include "strata/options.h"

#include "strata/comparator.h"
#include "strata/table.h"
#include "table/compression.h"

namespace strata {

// RocksDB's defaults: snappy where the build has it, and a block-based
// table factory with default table options.
ColumnFamilyOptions::ColumnFamilyOptions()
    : comparator(BytewiseComparator()),
      compression(CompressionSupported(kSnappyCompression) ? kSnappyCompression
                                                           : kNoCompression),
      table_factory(NewBlockBasedTableFactory()) {}

}  // namespace strata
