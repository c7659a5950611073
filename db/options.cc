#include "strata/options.h"

#include "strata/comparator.h"

namespace strata {

ColumnFamilyOptions::ColumnFamilyOptions()
    : comparator(BytewiseComparator()), compression(kSnappyCompression) {}

}  // namespace strata
